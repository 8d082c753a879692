import Dispatch

/// The monotonic clock the dispatcher reads to decide whether two arrivals fall within the
/// de-duplication window, and how long a launch-options notification may wait for its
/// response.
///
/// Inject a manual clock in tests (`TapRouteDispatchTesting.ManualClock`); apps use
/// ``SystemDispatcherClock``.
public protocol DispatcherClock: Sendable {
    /// Nanoseconds since an arbitrary fixed point. Must never decrease.
    func nanoseconds() -> UInt64
}

/// The system's monotonic clock (`DispatchTime.now().uptimeNanoseconds`).
///
/// It does not jump when the wall clock is changed, and (like all uptime clocks) it does not
/// advance while the device sleeps, which cannot happen between two entry points of one
/// launch. It is the dispatcher's default.
public struct SystemDispatcherClock: DispatcherClock {
    /// Creates the clock.
    public init() {}

    /// The current uptime in nanoseconds.
    public func nanoseconds() -> UInt64 {
        DispatchTime.now().uptimeNanoseconds
    }
}
