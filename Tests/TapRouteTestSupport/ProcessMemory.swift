import Foundation

/// Reading a running process's memory, for tests that bound the peak memory of the
/// `normalize` binary they spawn.
public enum ProcessMemory {
    /// The process's peak resident set size so far in bytes (`VmHWM` in `/proc/<pid>/status`),
    /// or nil where there is no such file (not Linux, or the process is gone).
    ///
    /// Sampled until the process exits, the last reading is its peak. On Linux `wait4`'s
    /// `ru_maxrss` cannot serve: a child started with `posix_spawn` inherits its parent's peak.
    public static func peakResidentBytes(of pid: Int32) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        return kilobytes * 1024
    }
}
