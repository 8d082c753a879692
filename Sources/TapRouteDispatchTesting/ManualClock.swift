public import TapRouteDispatch

/// A ``DispatcherClock`` that only moves when a test advances it.
///
/// ```swift
/// let clock = ManualClock()
/// let dispatcher = Dispatcher(registry: registry, opener: opener, clock: clock)
/// dispatcher.continue(tap)
/// clock.advance(by: 11)          // past the default 10-second window
/// dispatcher.continue(tap)       // delivered again
/// ```
public final class ManualClock: DispatcherClock {
    private let now: Locked<UInt64>

    /// Creates a clock reading `nanoseconds`.
    public init(nanoseconds: UInt64 = 0) {
        now = Locked(nanoseconds)
    }

    /// The current reading.
    public func nanoseconds() -> UInt64 {
        now.withLock { $0 }
    }

    /// Moves the clock forward by `seconds` (negative, NaN or infinite values are ignored;
    /// the reading saturates at `UInt64.max`).
    public func advance(by seconds: Double) {
        guard seconds.isFinite, seconds > 0 else { return }
        let delta = seconds * 1e9 >= Double(UInt64.max) ? UInt64.max : UInt64(seconds * 1e9)
        advance(nanoseconds: delta)
    }

    /// Moves the clock forward by `nanoseconds` (saturating at `UInt64.max`).
    public func advance(nanoseconds: UInt64) {
        now.withLock { now in
            let (sum, overflow) = now.addingReportingOverflow(nanoseconds)
            now = overflow ? UInt64.max : sum
        }
    }
}
