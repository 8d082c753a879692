#include "FuzzerDriver.h"

#include <stddef.h>
#include <stdint.h>

// Defined by each harness with @_cdecl("LLVMFuzzerTestOneInput").
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

// libFuzzer's entry point for programs that have their own main (compiler-rt's
// FuzzerInterface.h; linked by -sanitize=fuzzer).
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

int taproute_fuzzer_main(int argc, char **argv) {
  return LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput);
}
