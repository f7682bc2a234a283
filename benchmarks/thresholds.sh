#!/usr/bin/env bash
# The checked-in p90 figures of every benchmark on this machine kind (benchmarks/Thresholds/),
# and the check against them:
#   thresholds.sh update   runs every suite and records its p90s
#   thresholds.sh check    runs every suite; fails where a p90 is worse than recorded beyond the
#                          tolerances of Benchmarks/Support/RegressionTolerances.swift
#   thresholds.sh strip    drops the rates from recorded figures (update does it itself)
# package-benchmark (1.38) writes the files with spaces turned into underscores but reads them
# with the spaces kept, so after an update the names are turned back.
set -euo pipefail
cd "$(dirname "$0")"

# The rates (layers/s, pixels/s) are wall time the other way up; a recorded figure would be
# checked with no tolerance at all, so only wall time and allocations are kept.
strip_rates() {
  python3 - <<'PY'
import glob, json
for path in glob.glob("Thresholds/*.json"):
    with open(path) as f:
        figures = json.load(f)
    kept = {k: v for k, v in figures.items() if k not in ("layers/s", "pixels/s")}
    if kept != figures:
        with open(path, "w") as f:
            json.dump(kept, f, indent=2, sort_keys=True)
            f.write("\n")
PY
}
case "${1:-}" in
  update)
    rm -rf Thresholds
    swift package --allow-writing-to-package-directory benchmark thresholds update --no-progress "${@:2}"
    for f in Thresholds/*.json; do n=$(basename "$f"); [ "$n" = "${n//_/ }" ] || mv "$f" "Thresholds/${n//_/ }"; done
    strip_rates
    ;;
  strip)
    strip_rates
    ;;
  check)
    swift package --allow-writing-to-package-directory benchmark thresholds check --no-progress "${@:2}"
    ;;
  *)
    echo "usage: thresholds.sh update|check [package-benchmark options]" >&2
    exit 2
    ;;
esac
