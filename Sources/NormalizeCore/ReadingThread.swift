#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A thread of its own for work that must not wait for a thread of Dispatch's pool (the read
/// ahead of ``BlockReader``, while `DispatchQueue.concurrentPerform` keeps the pool busy).
enum ReadingThread {
    /// What the new thread runs, handed to it through `pthread_create`'s context pointer.
    private final class Body {
        let run: @Sendable () -> Void

        init(_ run: @escaping @Sendable () -> Void) {
            self.run = run
        }
    }

    /// Runs `body` on a new, detached thread; returns `false`, without running it, when the
    /// system cannot start one (`pthread_create` fails, for example at a limit on threads).
    static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        #if canImport(Darwin)
            var thread: pthread_t? = nil
        #else
            var thread = pthread_t()
        #endif
        let result = pthread_create(
            &thread,
            nil,
            { argument in
                // The argument is optional on some platforms and not on others.
                let pointer: UnsafeMutableRawPointer? = argument
                Unmanaged<Body>.fromOpaque(pointer!).takeRetainedValue().run()
                return nil
            },
            context
        )
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            return false
        }
        // Nobody joins it: its resources go back to the system when it ends.
        #if canImport(Darwin)
            if let thread { pthread_detach(thread) }
        #else
            pthread_detach(thread)
        #endif
        return true
    }
}
