# The two commands of the README: `make demo` (install what is missing, build, render the built-in
# scenes on GPU and CPU and check they agree) and `make test` (the whole test suite).
SWIFT ?= swift
OUT ?= out/demo

.PHONY: deps test-deps build demo test test-release goldens clean

deps:
	@bash scripts/install-deps.sh

test-deps:
	@bash scripts/install-deps.sh --test

build: deps
	$(SWIFT) build

demo: build
	$(SWIFT) run quartz info
	$(SWIFT) run quartz demo --out $(OUT)

test: test-deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --disable-xctest

# The same suite optimized: undefined behaviour (a pointer escaped from withUnsafePointer) once
# drew garbage only in release builds, which the debug suite cannot see.
test-release: test-deps
	$(SWIFT) build -c release --build-tests
	$(SWIFT) test -c release --skip-build --disable-xctest

# Re-records the golden images of the scene catalog (CPU renders). Look at every changed PNG
# before committing it.
goldens: deps
	OPENQUARTZ_RECORD=1 $(SWIFT) test --disable-xctest --filter SceneCatalogTests

clean:
	rm -rf .build out
