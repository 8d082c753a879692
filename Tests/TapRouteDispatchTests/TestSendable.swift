import TapRoute
import TapRouteDispatch
import TapRouteDispatchTesting
import Testing

/// Moves the dispatcher's public values across isolation boundaries, so a `Sendable`
/// regression fails the build.
@Suite struct TestSendable {
    @Test func publicTypesCrossTaskBoundaries() async throws {
        let h = try Harness()
        let handler = RecordingInteractionHandler()
        let dispatcher = h.dispatcher
        let admission = await Task.detached {
            dispatcher.attach(handler)
            return dispatcher.continue(.url("myapp://items/1"))
        }.value
        #expect(admission == .queued(sequence: 1))
        let delivery = try #require(handler.deliveries.first)
        let events: [DispatchEvent] = h.observer.events
        let key = DeduplicationKey(delivery.interaction)
        let configuration = Dispatcher.Configuration()
        let clock: any DispatcherClock = SystemDispatcherClock()
        let moved = await Task.detached { (delivery, events, key, configuration, clock.nanoseconds() > 0) }.value
        #expect(moved.0 == delivery)
        #expect(moved.1 == events)
        #expect(moved.2 == key)
        #expect(moved.3 == configuration)
        #expect(moved.4)
    }
}
