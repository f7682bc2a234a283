// Declarations only: libFuzzer itself comes with -sanitize=fuzzer.
