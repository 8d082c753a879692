#if canImport(Glibc)
    import Glibc
#endif

/// The C library's memory settings for a `normalize` run.
package enum MemoryTuning {
    /// Keeps every allocation of 128 KiB or more a mapping of its own, given back to the
    /// system when freed: glibc's initial `M_MMAP_THRESHOLD`, set explicitly so that it stays
    /// (other C libraries are left as they are).
    ///
    /// By default glibc raises that threshold to the size of each large block freed and serves
    /// later blocks below it from its heap, whose pages stay resident: a run buffer that a run
    /// of large output grew, given back once written before another buffer grows as large
    /// (``RecordProcessor/processLines(from:name:into:jobs:failed:)``), would otherwise stay
    /// counted with it. Few allocations are that large — the read blocks and the output buffers,
    /// allocated once and reused, and the strings of unusually large records.
    package static func returnLargeBlocksWhenFreed() {
        #if canImport(Glibc)
            // `mallopt` is declared in <malloc.h>, which the Glibc module does not include:
            // found by name (`RTLD_DEFAULT`). `M_MMAP_THRESHOLD` is -3 in that header.
            typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
            guard let symbol = dlsym(nil, "mallopt") else { return }
            _ = unsafeBitCast(symbol, to: Mallopt.self)(-3, 128 << 10)
        #endif
    }
}
