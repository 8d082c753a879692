/// Timing for the scaling tests: each times the same work at two sizes, a factor
/// ``factor`` apart, and requires the larger to take less than ``maximumRatio`` times as long
/// (linear time gives about 8, quadratic about 64; the margin absorbs a loaded machine).
public enum TimeRatio {
    /// The size factor between the two runs.
    public static let factor = 8
    /// The largest time ratio accepted.
    public static let maximumRatio = 32.0

    /// The time of one run of `body`, in seconds.
    public static func seconds(_ body: () -> Void) -> Double {
        let (whole, fraction) = ContinuousClock().measure(body).components
        return Double(whole) + Double(fraction) * 1e-18
    }

    /// The time of `work(small × factor)` over the time of `work(small)`: the best of five
    /// runs of each, taken in turn so that a busy moment of the machine slows both alike. A
    /// ratio at or above ``maximumRatio`` is measured again, up to three rounds, and the
    /// lowest counts: a loaded machine rarely inflates three rounds in a row, while quadratic
    /// work gives about 64 every time.
    public static func ratio(small: Int, _ work: (Int) -> Void) -> Double {
        var best = Double.infinity
        for _ in 0..<3 {
            var a = Double.infinity
            var b = Double.infinity
            for _ in 0..<5 {
                a = min(a, seconds { work(small) })
                b = min(b, seconds { work(small * factor) })
            }
            best = min(best, b / max(a, 1e-6))
            if best < maximumRatio { break }
        }
        return best
    }
}
