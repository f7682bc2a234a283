# The two commands of the README: `make demo` (install what is missing, build, render the built-in
# scenes on GPU and CPU and check they agree) and `make test` (the whole test suite).
SWIFT ?= swift
# The package's trait that brings in swift-snapshot-testing and the SnapshotTestingQuartz product
# (Package.swift says why it is a trait); the suite's snapshot tests need it.
TRAITS = --traits SnapshotTesting
OUT ?= out/demo
# One build serves the demo, the suite and the tools: the optimized one, tests included (`swift
# build -c release --build-tests`), so `make test` after `make demo` starts at once and the suite
# runs four times faster than a debug build's (docs/testing.md, "Debug and release runs").
# CONFIG=debug for the debug build (assertions on; what the sanitizers build).
CONFIG ?= release
QUARTZ = .build/$(CONFIG)/quartz

.PHONY: container deps test-deps build demo demo-softpipe test test-debug test-softpipe sanitizers fuzz fuzz-long fuzz-differential goldens bench bench-baseline bench-check bench-diff bench-peers clean

deps:
	@bash scripts/install-deps.sh

test-deps:
	@bash scripts/install-deps.sh --test

build: deps
	$(SWIFT) build $(TRAITS) -c $(CONFIG) --build-tests

demo: build
	$(QUARTZ) info
	$(QUARTZ) demo --out $(OUT)

# The demo on Mesa's other software driver: the GL path must not lean on one driver's habits.
demo-softpipe: build
	GALLIUM_DRIVER=softpipe $(QUARTZ) demo --out $(OUT)/softpipe

# A failing snapshot leaves its artifacts (snapshot, expected | picture | actual, mask) here.
export SNAPSHOT_ARTIFACTS ?= $(CURDIR)/out/snapshot-failures

# The whole suite, closing with one line: tests run, outcome, time (scripts/test.sh). The driver's
# debug output is on (it is by default only in debug builds): a GL error fails the test.
test: test-deps
	@SWIFT=$(SWIFT) CONFIG=$(CONFIG) bash scripts/test.sh

# The same suite on the debug build: assertions on, the heaviest one-thread sweeps sampled. An
# optimized build sees what a debug one cannot (a pointer escaped from withUnsafePointer once drew
# garbage only there), so `make test` is the optimized one.
test-debug: test-deps
	@SWIFT=$(SWIFT) CONFIG=debug bash scripts/test.sh

# Every suite that draws on the GPU again on Mesa's softpipe, on the build `make test` made. The
# driver's debug output is on, so a GL error fails the test.
test-softpipe: test-deps
	$(SWIFT) build $(TRAITS) -c $(CONFIG) --build-tests
	GALLIUM_DRIVER=softpipe OPENQUARTZ_GL_DEBUG=1 $(SWIFT) test $(TRAITS) -c $(CONFIG) --skip-build --disable-xctest \
		--filter 'GLBackendTests|SceneCatalogTests|ExampleSceneTests|DifferentialFuzzTests|SnapshotStrategyTests'

# The test suite under the thread sanitizer, and every fuzz target briefly under the address
# sanitizer (what CI runs after the tests).
sanitizers: test-deps
	bash scripts/sanitizers.sh

# Every fuzz target (fuzz/: scene documents, image decoders, paths, layer trees, shard manifests, bench reports; libFuzzer with the
# address sanitizer) for FUZZ_SECONDS each (default 60); findings land in out/fuzz/artifacts/.
fuzz: test-deps
	bash scripts/fuzz.sh

# Forty-five minutes of fuzzing in all (450 s per target), on the corpora earlier runs grew: run it
# before a release, or after a change to a parser, a decoder or the rasterizers.
fuzz-long: test-deps
	FUZZ_SECONDS=450 bash scripts/fuzz.sh

# Random layer trees on the GPU and the CPU: every disagreement beyond the bar, shrunk, saved as
# a scene under out/fuzz-differential/ (COUNT trees from SEED, each 64 to 256 points across with
# up to 60 layers).
COUNT ?= 500
SEED ?= 1
fuzz-differential: build
	$(QUARTZ) fuzz-differential --count $(COUNT) --seed $(SEED)

# Re-records the golden images that no longer match (record mode failed: the CPU renders of the
# scene catalog and of Examples/). Those tests report "recorded"; look at every changed PNG
# (git status) before committing it.
goldens: deps
	-SNAPSHOT_TESTING_RECORD=failed $(SWIFT) test $(TRAITS) -c $(CONFIG) --disable-xctest --filter 'cpuMatchesGolden|ExampleSceneTests|LottieGoldenTests'
	@git status --short -- Tests Examples

# The benchmark suites (benchmarks/, package-benchmark): every suite, medians and percentiles.
bench: deps
	cd benchmarks && $(SWIFT) package --allow-writing-to-package-directory benchmark

# Records this machine's p90 figures (checked in: benchmarks/Thresholds/).
bench-baseline: deps
	bash benchmarks/thresholds.sh update

# Runs the suites and fails where a p90 is worse than recorded beyond the tolerances
# (benchmarks/Benchmarks/Support/RegressionTolerances.swift: wall time 25%, allocations 5%).
bench-check: deps
	bash benchmarks/thresholds.sh check

# Comparison speed: OpenQuartz's comparators beside pixelmatch and flip-evaluator, one command.
bench-diff: deps
	bash benchmarks/peers/compare_diff.sh

# OpenQuartz beside skia-python, pycairo, blend2d-py and headless Chromium on the same scenes,
# interleaved; writes out/peers/ (report.md, plots, side-by-side pictures with FLIP scores).
bench-peers: deps
	bash benchmarks/peers/run_peers.sh

clean:
	rm -rf .build out

# The runtime image (deploy/Containerfile) with podman, or docker where podman is not installed.
BUILDER ?= $(shell command -v podman >/dev/null 2>&1 && echo podman || echo docker)
container:
	$(BUILDER) build -f deploy/Containerfile -t openquartz/quartz .
