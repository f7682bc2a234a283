#!/usr/bin/env bash
# The sanitizer runs CI makes after the tests:
#  1. the whole test suite built with the thread sanitizer (its own build folder, .build/tsan)
#     and the library and tool targets with warnings as errors (OPENQUARTZ_WARNINGS_AS_ERRORS,
#     see Package.swift); a data race stops the run (halt_on_error): a failed suite, not a warning;
#  2. every fuzz target for FUZZ_SECONDS (default 15) under the address sanitizer, on the
#     checked-in corpus and the crashes found before (fuzz/corpus/), via scripts/fuzz.sh.
# The address sanitizer also runs the hostile-input corpus: it is part of the fuzz corpus.
set -euo pipefail
cd "$(dirname "$0")/.."
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! OPENQUARTZ_WARNINGS_AS_ERRORS=1 swift build --build-tests --scratch-path .build/tsan --sanitize=thread > "$log" 2>&1; then
  grep -E "error:" "$log" | sort -u | head -20
  echo "the thread-sanitizer build failed (a warning is an error here)" >&2
  exit 1
fi
swift test --skip-build --scratch-path .build/tsan --sanitize=thread --disable-xctest > "$log" 2>&1 || true
grep -E "ThreadSanitizer|✘" "$log" | head -40 || true
summary=$(grep -E "Test run with [0-9]+ tests" "$log" | tail -1)
echo "thread sanitizer: $summary"
[[ "$summary" =~ passed ]] || { echo "the test suite failed under the thread sanitizer" >&2; exit 1; }
FUZZ_SECONDS=${FUZZ_SECONDS:-15} bash scripts/fuzz.sh
