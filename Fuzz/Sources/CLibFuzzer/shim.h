// libFuzzer's driver, linked in by -sanitize=fuzzer (compiler-rt's FuzzerDriver.cpp, LLVM 12 and later).
// Declared here because nothing else in the toolchain exports a header for it.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));
