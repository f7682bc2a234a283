// libFuzzer's entry for programs that keep their own main (compiler-rt's FuzzerInterface.h):
// SwiftPM links every executable's main to <Module>_main, so ours calls the driver.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
