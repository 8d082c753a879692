import Foundation

/// A value that is only ever read or written while holding one `NSLock`.
///
/// The dispatcher keeps all of its mutable state in one storage struct inside one of these
/// (one lock around one `Storage` struct). `NSLock` is used rather than
/// `Synchronization.Mutex` because `Mutex` needs macOS 15 / iOS 18 while `NSLock` exists on
/// every Apple platform and on Linux, so the package builds for the same deployment targets
/// everywhere.
///
/// Rules for callers: the closure passed to ``withLock(_:)`` must be short and must never
/// call out to code the caller does not own (handlers, observers, openers), because that
/// code may call back into the owner and `NSLock` is not recursive. Collect what to tell
/// others inside the lock and tell them after it (the dispatcher's outbox).
///
/// `@unchecked Sendable`: `state` is only accessed inside `lock.lock()`/`lock.unlock()`.
package final class Locked<State>: @unchecked Sendable {
    private let lock = NSLock()
    private var state: State

    /// Wraps `state`.
    package init(_ state: State) {
        self.state = state
    }

    /// Runs `body` with exclusive access to the state and returns its result.
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
