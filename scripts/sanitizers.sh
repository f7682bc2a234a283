#!/usr/bin/env bash
# The sanitizer runs CI makes after the tests. Each runs the debug build's test suite (debug
# builds check a sampled share of the heaviest one-thread sweeps; the release suite runs them
# whole, docs/testing.md) on the suites where its checks can find something, not on the rest:
#  1. the thread sanitizer (its own build folder, .build/tsan; only the test targets it runs and
#     the modules they use are built, OPENQUARTZ_TEST_TARGETS in Package.swift, and those modules
#     with warnings as errors, OPENQUARTZ_WARNINGS_AS_ERRORS) over the targets whose
#     code runs on several threads or is shared by the suite's parallel tests: the layer model
#     (transactions, the media clock), OpenCoreGraphics (font and image caches), the compositor
#     and both backends (the CPU reference's bands, GL devices shared across threads), the
#     QuartzCore surface (run loops), snapshot testing, the comparators, and the catalog's
#     concurrency and thread-count suites (TSAN_FILTER). A data race stops the run
#     (halt_on_error): a failed suite, not a warning. Left out within those (TSAN_SKIP):
#     one-thread arithmetic checked against exact areas and closed forms (filled paths, path
#     routes, exact coverage and nested clips by area, shadow rows and profiles against their
#     closed form, polygon rows' columns, the rounded sampler on random maps, the blend modes'
#     formulas, source-over's 16.7 million byte triples), and the byte-for-byte checks of one
#     frame drawn two ways on one thread (kernels against the Swift path in every copy, batched
#     GL programs against the general one, stencil clips, occluded and whole-pixel shadows, the
#     separable sampler: 185 of the GL suites' 233 s under the sanitizer, one test at a time). Not run under it: scene
#     documents, the command line (processes run one after another), `quartz bench` and the
#     catalog's goldens (repetitions, on one thread each, of paths the suites above drive);
#  2. the address sanitizer (.build/asan) over the targets whose code reads and writes through
#     pointers or C: OpenCoreGraphics (codecs, the row reader, the coverage rasterizer), the layer
#     model, the compositor (its C kernels), both backends (pixel buffers, GL uploads and
#     readbacks), the comparators (bands of rows) and the QuartzCore surface (ASAN_FILTER). Not
#     run under it: scene documents (their reader and the hostile documents are fuzz targets run
#     under it, below), the catalog's and the examples' goldens, the digests and the differential
#     findings (the same paths again), the command line (processes, whose parsers the fuzz targets
#     cover), the bench. Leaks are left to the fuzz runs, whose LeakSanitizer knows which caches Swift and
#     fontconfig keep until exit;
#  3. every fuzz target for FUZZ_SECONDS (default 60: long enough to keep finding) under the
#     address sanitizer, on the checked-in corpus and the crashes found before (fuzz/corpus/), via
#     scripts/fuzz.sh. The address sanitizer also runs the hostile-input corpus: it is part of the
#     fuzz corpus.
# SANITIZERS names the suite runs (default "thread address"); CI runs "thread" and the fuzz targets,
# which run under the address sanitizer themselves (docs/testing.md, "What CI runs, and its time",
# says why and what each costs).
set -euo pipefail
cd "$(dirname "$0")/.."
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1"
sanitizers=" ${SANITIZERS:-thread address} "
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if [[ "$sanitizers" == *" thread "* ]]; then
# The test targets the thread sanitizer runs (its filter below): the package declares no other
# while this is set, and building the test product alone leaves out the tools and the modules only
# they or the other test targets use (scene documents, the Lottie importer, the bench), a third of
# the build (CI's release build compiles those with warnings as errors).
tsan_targets="LayerModelTests OpenCoreGraphicsTests CompositorTests RasterBackendTests GLBackendTests QuartzCoreSurfaceTests SnapshotStrategyTests PixelDiffTests SceneCatalogTests"
if ! OPENQUARTZ_TEST_TARGETS="$tsan_targets" OPENQUARTZ_WARNINGS_AS_ERRORS=1 swift build --traits SnapshotTesting --product OpenQuartzPackageTests --scratch-path .build/tsan --sanitize=thread > "$log" 2>&1; then
  grep -E "error:" "$log" | sort -u | head -20 || true
  tail -15 "$log"
  echo "the thread-sanitizer build failed (a warning is an error here)" >&2
  exit 1
fi
TSAN_FILTER=(--filter '(LayerModelTests|OpenCoreGraphicsTests|CompositorTests|RasterBackendTests|GLBackendTests|QuartzCoreSurfaceTests|SnapshotStrategyTests|PixelDiffTests)\.'
  --filter 'SceneCatalogTests\.(ConcurrencyTests|RasterThreadsTests)/')
TSAN_SKIP=(--skip 'GLBackendTests\.PathFillTests/' --skip 'GLBackendTests\.NestedRoundedClipTests/'
  --skip 'GLBackendTests\.PathRouteTests/' --skip 'GLBackendTests\.ExactCoverageTests/' --skip 'GLBackendTests\.BlendModeAgreementTests/'
  --skip 'CompositorTests\.BlurredRoundedRectRowTests/' --skip 'RasterBackendTests\.(SourceOverTests|PassCompositeKernelTests)/'
  --skip 'CompositorTests\.PolygonRowSpanTests/' --skip 'CompositorTests\.BlurredRoundedRectProfileTests/'
  --skip 'CompositorTests\.RoundedShapeSamplerTests/'
  --skip 'GLBackendTests\.(ShadowWholePixelTests|SeparableSamplerTests|StencilClipRouteTests|GradientRowTests|OccludedShadowTests)/'
  --skip 'GLBackendTests\.(TextureBatchTests|AffineFrameTests|FrameShortcutTests|RoundedPairKernelTests|PathKernelTests)/')
ASAN_FILTER=(--filter '(LayerModelTests|OpenCoreGraphicsTests|CompositorTests|RasterBackendTests|GLBackendTests|QuartzCoreSurfaceTests|PixelDiffTests)\.')
OPENQUARTZ_TEST_TARGETS="$tsan_targets" OPENQUARTZ_WARNINGS_AS_ERRORS=1 \
  swift test --traits SnapshotTesting --skip-build --scratch-path .build/tsan --sanitize=thread --disable-xctest "${TSAN_FILTER[@]}" "${TSAN_SKIP[@]}" > "$log" 2>&1 || true
grep -E "ThreadSanitizer|✘" "$log" | head -40 || true
# No summary line means the test binary died (a crash at start once left only "sanitizer runs
# failed" in CI's log, as this assignment stopped the script under set -e): its last lines say how.
summary=$(grep -E "Test run with [0-9]+ tests" "$log" | tail -1 || true)
echo "thread sanitizer: ${summary:-no test summary} (build and run: $SECONDS s)"
[[ "$summary" =~ passed ]] || { tail -15 "$log"; echo "the test suite failed under the thread sanitizer" >&2; exit 1; }
fi
if [[ "$sanitizers" == *" address "* ]]; then
SECONDS=0
if ! swift build --traits SnapshotTesting --build-tests --scratch-path .build/asan --sanitize=address > "$log" 2>&1; then
  grep -E "error:" "$log" | sort -u | head -20 || true
  tail -15 "$log"
  echo "the address-sanitizer build failed" >&2
  exit 1
fi
ASAN_OPTIONS="halt_on_error=1:detect_leaks=0" SWIFT_BACKTRACE=enable=no \
  swift test --traits SnapshotTesting --skip-build --scratch-path .build/asan --sanitize=address --disable-xctest "${ASAN_FILTER[@]}" > "$log" 2>&1 || true
grep -E "AddressSanitizer|SUMMARY|✘" "$log" | head -40 || true
summary=$(grep -E "Test run with [0-9]+ tests" "$log" | tail -1 || true)
echo "address sanitizer: ${summary:-no test summary} (build and run: $SECONDS s)"
[[ "$summary" =~ passed ]] || { tail -15 "$log"; echo "the test suite failed under the address sanitizer" >&2; exit 1; }
fi
FUZZ_SECONDS=${FUZZ_SECONDS:-60} bash scripts/fuzz.sh
