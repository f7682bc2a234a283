#!/usr/bin/env bash
# The checked-in p90 figures of every benchmark on this machine kind (benchmarks/Thresholds/),
# and the check against them:
#   thresholds.sh update   runs every suite and records its p90s
#   thresholds.sh check    runs every suite; fails where a p90 is worse than recorded beyond the
#                          tolerances of Benchmarks/Support/RegressionTolerances.swift
# package-benchmark (1.38) writes the files with spaces turned into underscores but reads them
# with the spaces kept, so after an update the names are turned back.
set -euo pipefail
cd "$(dirname "$0")"
case "${1:-}" in
  update)
    rm -rf Thresholds
    swift package --allow-writing-to-package-directory benchmark thresholds update --no-progress "${@:2}"
    for f in Thresholds/*.json; do n=$(basename "$f"); [ "$n" = "${n//_/ }" ] || mv "$f" "Thresholds/${n//_/ }"; done
    ;;
  check)
    swift package --allow-writing-to-package-directory benchmark thresholds check --no-progress "${@:2}"
    ;;
  *)
    echo "usage: thresholds.sh update|check [package-benchmark options]" >&2
    exit 2
    ;;
esac
