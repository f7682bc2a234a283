#!/usr/bin/env bash
# `make test`: builds the tests (CONFIG: release by default, the build `make demo` made; debug for
# `make test-debug`), runs the whole suite with the GL driver's debug output on (a GL error fails
# the test), and closes with one line saying how many tests ran, whether they passed, and the time
# taken (build and run apart).
set -uo pipefail
cd "$(dirname "$0")/.."
swift=${SWIFT:-swift}
config=${CONFIG:-release}
start=$SECONDS
$swift build --traits SnapshotTesting -c "$config" --build-tests || exit $?
built=$SECONDS
log=$(mktemp)
trap 'rm -f "$log"' EXIT
OPENQUARTZ_GL_DEBUG=1 $swift test --traits SnapshotTesting -c "$config" --skip-build "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
# Swift Testing's count, plus XCTest's (the Apple-style snapshot tests are XCTest cases).
swift_testing=$(grep -oE "Test run with [0-9]+ tests" "$log" | tail -1 | grep -oE "[0-9]+")
xctest=$(grep -oE "Executed [0-9]+ tests" "$log" | tail -1 | grep -oE "[0-9]+")
tests=$(( ${swift_testing:-0} + ${xctest:-0} ))
outcome=$([ "$status" -eq 0 ] && echo passed || echo FAILED)
echo "make test ($config): ${tests:-no} tests ${outcome} in $((SECONDS - start)) s (build $((built - start)) s, tests $((SECONDS - built)) s)"
exit "$status"
