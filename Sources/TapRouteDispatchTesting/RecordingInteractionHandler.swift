public import TapRoute
public import TapRouteDispatch

/// An ``InteractionHandler`` that records every delivery and answers with a fixed result
/// or a closure of yours.
///
/// ```swift
/// let handler = RecordingInteractionHandler(answering: .notHandled)
/// dispatcher.attach(handler)
/// #expect(handler.deliveries.map(\.interaction.trigger) == [.button(id: "track", label: "Track")])
/// ```
///
/// The closure runs after the delivery is recorded and may call back into the dispatcher
/// (attach, detach, pass another event), as an app's router might. The handler also
/// counts how many calls overlapped (``maximumConcurrentCalls``), so a test can check that
/// the dispatcher never calls it concurrently.
///
/// It records every call, including one whose `notHandled` did not count because the
/// handler was detached or replaced during it (the dispatcher then delivers the interaction
/// again); ``calls`` pairs each delivery with the answer given.
public final class RecordingInteractionHandler: InteractionHandler {
    /// Decides the answer for one delivery.
    public typealias Respond = @Sendable (Delivery) -> HandlerResult

    private struct State {
        var deliveries: [Delivery] = []
        var results: [HandlerResult] = []
        var inFlight = 0
        var maximumInFlight = 0
    }

    private let respond: Respond
    private let state = Locked(State())

    /// Creates a handler that answers every delivery with `result`.
    public init(answering result: HandlerResult = .handled) {
        self.respond = { _ in result }
    }

    /// Creates a handler that answers with `respond`'s result.
    public init(respond: @escaping Respond) {
        self.respond = respond
    }

    /// Records the delivery, then answers.
    public func handle(_ delivery: Delivery) -> HandlerResult {
        state.withLock { state in
            state.deliveries.append(delivery)
            state.inFlight += 1
            state.maximumInFlight = max(state.maximumInFlight, state.inFlight)
        }
        let result = respond(delivery)
        state.withLock { state in
            state.inFlight -= 1
            state.results.append(result)
        }
        return result
    }

    /// Every delivery so far, in the order the handler received them.
    public var deliveries: [Delivery] {
        state.withLock { $0.deliveries }
    }

    /// Every call that returned so far, in call order, with the answer given.
    public var calls: [(delivery: Delivery, result: HandlerResult)] {
        state.withLock { state in
            Array(zip(state.deliveries, state.results))
        }
    }

    /// The interactions delivered so far, in order.
    public var interactions: [Interaction] {
        deliveries.map(\.interaction)
    }

    /// The most calls to ``handle(_:)`` that were ever running at the same time (1 when
    /// calls never overlapped, 0 before the first).
    public var maximumConcurrentCalls: Int {
        state.withLock { $0.maximumInFlight }
    }
}
