#!/usr/bin/env bash
# The sanitizer runs CI makes after the tests:
#  1. the test suite built with the thread sanitizer (its own build folder, .build/tsan) and the
#     library and tool targets with warnings as errors (OPENQUARTZ_WARNINGS_AS_ERRORS, see
#     Package.swift); a data race stops the run (halt_on_error): a failed suite, not a warning.
#     Left out here (TSAN_SKIP), and run by every other job: suites whose cost is repetition of
#     paths the rest already drive on several threads (the catalog's and the examples' goldens,
#     the render-list digests, the differential fuzzer's saved findings: 37 s under it),
#     processes run one after another (sharded animate and join, join and output folders under
#     hostile input, the 1,000-frame memory check, the command line's bad input), the frame
#     budget's refusals (one thread simulating millions of particle steps to the limit), and one-thread arithmetic checked against exact areas and
#     closed forms (filled paths and nested clips by area, shadow rows, source-over's 16.7 million
#     byte triples, the hostile inputs' limits and deep chains), and `quartz bench`'s suite (its workloads draw through paths the
#     rest drive; the bench itself runs on one thread). Measured under it (CPU seconds,
#     2026-11-27): hostile inputs 183, filled paths 118, the bench suite 110, shadow rows 67, bad
#     command lines 51, nested clips 46; the sanitizer's run took 685 s of a 46-minute CI with
#     only the first seven left out;
#  2. the whole test suite built with the address sanitizer (.build/asan), less sharded animate
#     and join (both suites of it) and the bench suite (ASAN_SKIP: 132 and 93 CPU seconds under it, the render paths
#     the animate and catalog tests run, in processes started one after another or repeated
#     frame after frame); leaks are left to the
#     fuzz runs, whose LeakSanitizer knows which caches Swift and fontconfig keep until exit;
#  3. every fuzz target for FUZZ_SECONDS (default 60: long enough to keep finding) under the address sanitizer, on the
#     checked-in corpus and the crashes found before (fuzz/corpus/), via scripts/fuzz.sh.
# The address sanitizer also runs the hostile-input corpus: it is part of the fuzz corpus.
set -euo pipefail
cd "$(dirname "$0")/.."
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! OPENQUARTZ_WARNINGS_AS_ERRORS=1 swift build --build-tests --scratch-path .build/tsan --sanitize=thread > "$log" 2>&1; then
  grep -E "error:" "$log" | sort -u | head -20 || true
  tail -15 "$log"
  echo "the thread-sanitizer build failed (a warning is an error here)" >&2
  exit 1
fi
TSAN_SKIP=(--skip 'SceneCatalogTests\.SceneCatalogTests/' --skip 'SceneFormatTests\.ExampleSceneTests/'
  --skip 'SceneFormatTests\.RenderListStabilityTests/' --skip 'QuartzCLITests\.ShardJoinTests/'
  --skip 'QuartzCLITests\.MemoryGrowthTests/' --skip 'SceneCatalogTests\.DifferentialFuzzTests/'
  --skip 'SceneCatalogTests\.LargerTreeFuzzTests/' --skip 'SceneFormatTests\.HostileInputTests/'
  --skip 'GLBackendTests\.PathFillTests/' --skip 'GLBackendTests\.NestedRoundedClipTests/'
  --skip 'CompositorTests\.BlurredRoundedRectRowTests/' --skip 'QuartzCLITests\.BadInputCLITests/'
  --skip 'QuartzBenchTests\.BenchSuiteTests/' --skip 'RasterBackendTests\.SourceOverTests/'
  --skip 'QuartzCLITests\.HostileShardTests/' --skip 'SceneFormatTests\.FrameBudgetTests/')
ASAN_SKIP=(--skip 'QuartzCLITests\.ShardJoinTests/' --skip 'QuartzBenchTests\.BenchSuiteTests/'
  --skip 'QuartzCLITests\.HostileShardTests/')
swift test --skip-build --scratch-path .build/tsan --sanitize=thread --disable-xctest "${TSAN_SKIP[@]}" > "$log" 2>&1 || true
grep -E "ThreadSanitizer|✘" "$log" | head -40 || true
# No summary line means the test binary died (a crash at start once left only "sanitizer runs
# failed" in CI's log, as this assignment stopped the script under set -e): its last lines say how.
summary=$(grep -E "Test run with [0-9]+ tests" "$log" | tail -1 || true)
echo "thread sanitizer: ${summary:-no test summary} (build and run: $SECONDS s)"
[[ "$summary" =~ passed ]] || { tail -15 "$log"; echo "the test suite failed under the thread sanitizer" >&2; exit 1; }
SECONDS=0
if ! swift build --build-tests --scratch-path .build/asan --sanitize=address > "$log" 2>&1; then
  grep -E "error:" "$log" | sort -u | head -20 || true
  tail -15 "$log"
  echo "the address-sanitizer build failed" >&2
  exit 1
fi
ASAN_OPTIONS="halt_on_error=1:detect_leaks=0" SWIFT_BACKTRACE=enable=no \
  swift test --skip-build --scratch-path .build/asan --sanitize=address --disable-xctest "${ASAN_SKIP[@]}" > "$log" 2>&1 || true
grep -E "AddressSanitizer|SUMMARY|✘" "$log" | head -40 || true
summary=$(grep -E "Test run with [0-9]+ tests" "$log" | tail -1 || true)
echo "address sanitizer: ${summary:-no test summary} (build and run: $SECONDS s)"
[[ "$summary" =~ passed ]] || { tail -15 "$log"; echo "the test suite failed under the address sanitizer" >&2; exit 1; }
FUZZ_SECONDS=${FUZZ_SECONDS:-60} bash scripts/fuzz.sh
