import TapRoute
import TapRouteDispatch
import TapRouteDispatchTesting
import Testing

@Suite struct StressTests {
    static let producers = 8
    static let eventsPerProducer = 1_250  // 10,000 in all

    /// 10,000 distinct events from 8 concurrent tasks while a ninth task keeps attaching,
    /// swapping and detaching handlers: every event is delivered exactly once or reported
    /// dropped, deliveries follow arrival order, and the handlers are never called
    /// concurrently. Run it under `--sanitize=thread` too.
    @Test func everyEventIsDeliveredOnceOrReportedDropped() async throws {
        let opener = RecordingURLOpener()
        let observer = RecordingInteractionObserver()
        let dispatcher = Dispatcher(
            registry: try makeRegistry(),
            opener: opener,
            observer: observer,
            configuration: .init(queueCapacity: 16)
        )
        let handlers = [RecordingInteractionHandler(), RecordingInteractionHandler(answering: .notHandled)]
        let finished = Locked(0)

        let admissions = await withTaskGroup(of: [Admission].self) { group in
            for producer in 0..<Self.producers {
                group.addTask {
                    var admissions: [Admission] = []
                    admissions.reserveCapacity(Self.eventsPerProducer)
                    for i in 0..<Self.eventsPerProducer {
                        let input: InputEvent =
                            switch i % 3 {
                            case 0: .url("myapp://items/\(producer)/\(i)")
                            case 1: .userActivity(webpageURL: "https://app.example.com/items/\(producer)/\(i)")
                            default: .notification(userInfo: acmePush(id: "m-\(producer)-\(i)", url: "myapp://n/\(producer)/\(i)"))
                            }
                        admissions.append(dispatcher.continue(input))
                        if i % 64 == 0 { await Task.yield() }
                    }
                    finished.withLock { $0 += 1 }
                    return admissions
                }
            }
            group.addTask {
                var round = 0
                while finished.withLock({ $0 }) < Self.producers {
                    switch round % 4 {
                    case 0: dispatcher.attach(handlers[0])
                    case 1: dispatcher.attach(handlers[1])
                    default: dispatcher.detach()
                    }
                    round += 1
                    await Task.yield()
                }
                return []
            }
            var all: [Admission] = []
            for await admissions in group { all += admissions }
            return all
        }
        // Whatever still waits is delivered once a handler is attached for good.
        dispatcher.attach(handlers[0])
        #expect(dispatcher.pendingCount == 0)

        #expect(admissions.count == Self.producers * Self.eventsPerProducer)
        var queued: Set<UInt64> = []
        for admission in admissions {
            guard case .queued(let sequence) = admission else {
                Issue.record("every event is distinct and must be queued, got \(admission)")
                continue
            }
            queued.insert(sequence)
        }
        #expect(queued.count == admissions.count)

        let delivered = handlers.flatMap(\.deliveries).filter { $0.origin == nil }.map(\.sequence)
        let dropped = observer.drops.map(\.sequence)
        #expect(Set(delivered).count == delivered.count, "an event was delivered twice")
        #expect(Set(dropped).count == dropped.count, "an event was dropped twice")
        #expect(Set(delivered).isDisjoint(with: dropped), "an event was both delivered and dropped")
        #expect(Set(delivered).union(dropped) == queued, "an event was lost")
        #expect(observer.drops.allSatisfy { $0.reason == .queueOverflow(capacity: 16) })

        // The observer sees deliveries in the order they happened: strictly increasing
        // sequence numbers, i.e. arrival order, across both handlers.
        let order = observer.deliveries.filter { $0.delivery.origin == nil }.map(\.delivery.sequence)
        #expect(order.count == delivered.count)
        #expect(zip(order, order.dropFirst()).allSatisfy { $0 < $1 }, "deliveries out of arrival order")
        #expect(handlers.allSatisfy { $0.maximumConcurrentCalls <= 1 })
        // Only the notHandled handler's app links were re-dispatched, once each.
        let redispatched = handlers[1].deliveries.filter { $0.origin != nil }.count
        let notHandledLinks = handlers[1].deliveries.filter {
            $0.origin == nil && $0.interaction.handling == .automatic
        }.count
        #expect(redispatched == notHandledLinks)
        #expect(redispatched > 0)
        #expect(opener.requests.isEmpty)
    }
}
