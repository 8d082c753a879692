#ifndef TAPROUTE_FUZZER_DRIVER_H
#define TAPROUTE_FUZZER_DRIVER_H

/// Runs libFuzzer's driver on the harness's `LLVMFuzzerTestOneInput` with the process's
/// command line (libFuzzer's own flags, corpus directories or input files) and returns its
/// exit status.
///
/// SwiftPM links a Linux executable with `--defsym main=<Module>_main` (so that tests can
/// link executables), which replaces libFuzzer's `main` by the module's top-level code; a
/// harness's `main.swift` therefore calls this, and libFuzzer runs as if it owned `main`.
int taproute_fuzzer_main(int argc, char **argv);

#endif
