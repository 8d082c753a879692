import FuzzSupport

// libFuzzer's driver, running this harness's LLVMFuzzerTestOneInput.
FuzzSupport.main()
