#!/usr/bin/env bash
# `make test`: builds the tests, runs the whole suite, and closes with one line saying how many
# tests ran, whether they passed, and the time taken (build and run apart).
set -uo pipefail
cd "$(dirname "$0")/.."
swift=${SWIFT:-swift}
start=$SECONDS
$swift build --build-tests || exit $?
built=$SECONDS
log=$(mktemp)
trap 'rm -f "$log"' EXIT
$swift test --skip-build --disable-xctest "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
tests=$(grep -oE "Test run with [0-9]+ tests" "$log" | tail -1 | grep -oE "[0-9]+")
outcome=$([ "$status" -eq 0 ] && echo passed || echo FAILED)
echo "make test: ${tests:-no} tests ${outcome} in $((SECONDS - start)) s (build $((built - start)) s, tests $((SECONDS - built)) s)"
exit "$status"
