import TapRoute
import TapRouteDispatch
import TapRouteDispatchTesting
import Testing

/// The dispatcher's promises under concurrency: 8 producer threads and a ninth that keeps
/// attaching, swapping and detaching handlers (one of which logs out from inside its own
/// call). Each test counts deliveries per interaction and checks the order per thread; run
/// them under `--sanitize=thread` too (CI does).
@Suite struct StressTests {
    static let producers = 8

    /// 10,000 distinct events (1,250 per thread): every one is delivered to exactly one
    /// counted handler call or reported dropped by overflow, never both, never twice;
    /// deliveries follow arrival order (so each thread's events arrive in the order it sent
    /// them); a declined call whose handler went away opens nothing and is delivered again.
    ///
    /// With a capacity of 16 the producers, 8 to the one thread delivering, overflow the
    /// queue most of the time (most events are dropped, while detached and while the
    /// handler is busy); with a capacity above the number of events nothing may be
    /// dropped, so every event is delivered exactly once.
    @Test(arguments: [16, 16_384])
    func distinctEventsAreDeliveredExactlyOnceInPerThreadOrder(capacity: Int) throws {
        let perProducer = 1_250
        let h = try Harness(configuration: .init(queueCapacity: capacity))
        let dispatcher = h.dispatcher
        let log = CallLog()
        let handlers = Self.handlers(log: log, dispatcher: dispatcher)
        let sent = Locked([[Admission]](repeating: [], count: Self.producers))

        Self.race(dispatcher, handlers: handlers) { producer in
            var admissions: [Admission] = []
            for index in 0..<perProducer {
                admissions.append(dispatcher.continue(Self.event(producer: producer, index: index)))
            }
            sent.withLock { $0[producer] = admissions }
        }
        dispatcher.attach(handlers[0])
        #expect(dispatcher.pendingCount == 0)

        // Every event was distinct, so every one was queued under its own number.
        var origin: [UInt64: (producer: Int, index: Int)] = [:]
        for (producer, admissions) in sent.withLock({ $0 }).enumerated() {
            #expect(admissions.count == perProducer)
            for (index, admission) in admissions.enumerated() {
                guard case .queued(let sequence) = admission else {
                    Issue.record("event \(index) of thread \(producer) was not queued: \(admission)")
                    continue
                }
                origin[sequence] = (producer, index)
            }
        }
        #expect(origin.count == Self.producers * perProducer)

        let outcome = Outcome(h, log: log)
        outcome.checkInvariants()
        let delivered = outcome.primary.map(\.delivery.sequence)
        let dropped = outcome.overflowDrops.map(\.sequence)
        #expect(Set(delivered).isDisjoint(with: dropped), "an event was delivered and dropped")
        #expect(delivered.count + dropped.count == origin.count, "an event was lost or counted twice")
        #expect(Set(delivered).union(dropped) == Set(origin.keys), "an event was lost")
        #expect(outcome.duplicateDrops.isEmpty)
        #expect(outcome.overflowDrops.allSatisfy { $0.reason == .queueOverflow(capacity: capacity) })
        if capacity > origin.count { #expect(outcome.overflowDrops.isEmpty && outcome.linkDrops.isEmpty) }

        // Per-thread order: each thread's delivered events in the order it sent them.
        var lastIndex = [Int](repeating: -1, count: Self.producers)
        var outOfOrder = 0
        for sequence in delivered {
            guard let (producer, index) = origin[sequence] else { continue }
            if index <= lastIndex[producer] { outOfOrder += 1 }
            lastIndex[producer] = index
        }
        #expect(outOfOrder == 0, "\(outOfOrder) deliveries out of their thread's order")
    }

    /// Hardening item 17 under load: 8 threads × 2,000 `continue` calls over 500 shared
    /// links while handlers come and go, then one more pass over every link with a handler
    /// attached. With a window that covers the whole test and room for every key, each
    /// link is delivered exactly once: a copy dropped by overflow is forgotten, so a later
    /// copy is delivered; any other copy is a duplicate of one delivered or still waiting.
    @Test(arguments: [16, 16_384])
    func sharedLinksAreDeliveredExactlyOnceAcrossDropsAndResends(capacity: Int) throws {
        let links = 500
        let callsPerProducer = 2_000
        let h = try Harness(configuration: .init(queueCapacity: capacity, deduplicationWindow: 3_600, deduplicationMemory: 4_096))
        let dispatcher = h.dispatcher
        let log = CallLog()
        let handlers = Self.handlers(log: log, dispatcher: dispatcher)
        let sent = Locked([[(link: Int, admission: Admission)]](repeating: [], count: Self.producers))

        Self.race(dispatcher, handlers: handlers) { producer in
            var admissions: [(link: Int, admission: Admission)] = []
            for call in 0..<callsPerProducer {
                // Each thread walks all links in its own order, four times.
                let link = (call * 7 + producer * 61) % links
                admissions.append((link, dispatcher.continue(Self.link(link))))
            }
            sent.withLock { $0[producer] = admissions }
        }
        dispatcher.attach(handlers[0])
        var final: [(link: Int, admission: Admission)] = []
        for link in 0..<links { final.append((link, dispatcher.continue(Self.link(link)))) }
        #expect(dispatcher.pendingCount == 0)

        let outcome = Outcome(h, log: log)
        outcome.checkInvariants()
        let all = sent.withLock { $0 }.flatMap { $0 } + final
        #expect(all.count == Self.producers * callsPerProducer + links)

        var linkOf: [UInt64: Int] = [:]
        for (link, admission) in all {
            if case .queued(let sequence) = admission { linkOf[sequence] = link }
        }
        var deliveries = [Int](repeating: 0, count: links)
        for record in outcome.primary {
            guard let link = linkOf[record.delivery.sequence] else {
                Issue.record("delivered #\(record.delivery.sequence), which no admission returned")
                continue
            }
            deliveries[link] += 1
        }
        let lost = deliveries.indices.filter { deliveries[$0] == 0 }
        let twice = deliveries.indices.filter { deliveries[$0] > 1 }
        #expect(lost.count == 0, "\(lost.count) of \(links) links were never delivered, e.g. \(lost.prefix(5))")
        #expect(twice.count == 0, "\(twice.count) links were delivered more than once, e.g. \(twice.prefix(5))")

        // A duplicate names a copy of the same link that was queued before it and, at that
        // moment, not yet dropped: in the observer's drop reports (told in lock order) no
        // duplicate of a copy follows that copy's overflow drop.
        var overflowed: Set<UInt64> = []
        var staleDuplicates = 0
        for event in h.observer.events {
            guard case .dropped(let drop) = event, drop.origin == nil else { continue }
            switch drop.reason {
            case .queueOverflow: overflowed.insert(drop.sequence)
            case .duplicate(let first):
                if overflowed.contains(first) { staleDuplicates += 1 }
            }
        }
        #expect(staleDuplicates == 0, "\(staleDuplicates) arrivals were suppressed as duplicates of a dropped copy")
        for (link, admission) in all {
            guard case .duplicate(let sequence, let first) = admission else { continue }
            #expect(linkOf[first] == link, "#\(sequence) is a duplicate of #\(first), another link")
            #expect(first < sequence)
        }
    }

    // MARK: Harness

    /// The handlers the toggling thread cycles through, all logging to `log`: one that
    /// handles everything, one that declines everything, and one that declines and, on
    /// every fifth interaction, logs out (detaches) from inside its call.
    static func handlers(log: CallLog, dispatcher: Dispatcher) -> [any InteractionHandler] {
        [
            log.handler(0) { _ in .handled },
            log.handler(1) { _ in .notHandled },
            log.handler(2) { delivery in
                if delivery.sequence % 5 == 0 { dispatcher.detach() }
                return .notHandled
            },
        ]
    }

    /// Whether `call` was one in which the logging-out handler detached.
    static func loggedOut(_ call: Call) -> Bool {
        call.handler == 2 && call.delivery.sequence % 5 == 0
    }

    /// Runs `produce` on `producers` threads while one more thread attaches, swaps and
    /// detaches `handlers` until every producer is done.
    static func race(_ dispatcher: Dispatcher, handlers: [any InteractionHandler], produce: @escaping @Sendable (Int) -> Void) {
        let finished = Locked(0)
        onThreads(producers + 1) { thread in
            guard thread == producers else {
                produce(thread)
                finished.withLock { $0 += 1 }
                return
            }
            var round = 0
            while finished.withLock({ $0 }) < producers {
                switch round % 5 {
                case 0: dispatcher.attach(handlers[0])
                case 1: dispatcher.attach(handlers[1])
                case 3: dispatcher.attach(handlers[2])
                default: dispatcher.detach()
                }
                round += 1
            }
        }
    }

    /// Event `index` of thread `producer`: a custom-scheme link, a universal link, a push
    /// whose URL is external (opened by the opener when declined) or one whose URL is the
    /// app's (re-dispatched to the handler when declined).
    static func event(producer: Int, index: Int) -> InputEvent {
        switch index % 4 {
        case 0: .url("myapp://items/\(producer)/\(index)")
        case 1: .userActivity(webpageURL: "https://app.example.com/items/\(producer)/\(index)")
        case 2: .notification(userInfo: acmePush(id: "m-\(producer)-\(index)", url: "https://shop.example.com/\(producer)/\(index)"))
        default: .notification(userInfo: acmePush(id: "m-\(producer)-\(index)", url: "myapp://n/\(producer)/\(index)"))
        }
    }

    /// Link number `n` of those all threads send.
    static func link(_ n: Int) -> InputEvent {
        n % 2 == 0 ? .url("myapp://items/common/\(n)") : .userActivity(webpageURL: "https://app.example.com/common/\(n)")
    }
}

/// What a stress run produced, from the observer, the opener and the handlers' call log.
struct Outcome {
    /// Counted deliveries of arrived interactions (not re-dispatched links), in order.
    let primary: [(delivery: Delivery, result: HandlerResult)]
    /// Every counted delivery, in order.
    let deliveries: [(delivery: Delivery, result: HandlerResult)]
    let overflowDrops: [DroppedInteraction]
    let duplicateDrops: [DroppedInteraction]
    let linkDrops: [DroppedInteraction]
    let requests: [URLOpenRequest]
    let calls: [Call]
    let maximumConcurrentCalls: Int

    init(_ h: Harness, log: CallLog) {
        deliveries = h.observer.deliveries
        primary = deliveries.filter { $0.delivery.origin == nil }
        let drops = h.observer.drops
        overflowDrops = drops.filter { $0.origin == nil && !$0.isDuplicate }
        duplicateDrops = drops.filter(\.isDuplicate)
        linkDrops = drops.filter { $0.origin != nil }
        requests = h.opener.requests
        calls = log.calls
        maximumConcurrentCalls = log.maximumConcurrentCalls
    }

    /// What holds for every run, whatever the events:
    /// - no interaction (or re-dispatched link) is delivered twice; deliveries follow
    ///   arrival order, each re-dispatched link right after the interaction it came from;
    /// - a handler call that did not count (its handler went away) answered `notHandled`;
    ///   one that answered `handled` always counts; handlers never overlap;
    /// - the opener got exactly the counted, declined, automatic external and in-app
    ///   browser URLs, once each; every counted, declined, automatic app URL was
    ///   re-dispatched once (delivered or, while no handler waited, dropped and reported).
    func checkInvariants(sourceLocation: SourceLocation = #_sourceLocation) {
        struct Key: Hashable {
            var sequence: UInt64
            var link: Bool
        }
        func key(_ delivery: Delivery) -> Key { Key(sequence: delivery.sequence, link: delivery.origin != nil) }

        let counted = deliveries.map { key($0.delivery) }
        #expect(Set(counted).count == counted.count, "an interaction was delivered twice", sourceLocation: sourceLocation)
        var previous: UInt64 = 0
        var unordered = 0
        var orphanLinks = 0
        for (i, record) in deliveries.enumerated() {
            if record.delivery.origin == nil {
                if record.delivery.sequence <= previous { unordered += 1 }
                previous = record.delivery.sequence
            } else if i == 0 || deliveries[i - 1].delivery.sequence != record.delivery.sequence
                || deliveries[i - 1].delivery.origin != nil
            {
                orphanLinks += 1
            }
        }
        #expect(unordered == 0, "\(unordered) deliveries out of arrival order", sourceLocation: sourceLocation)
        #expect(orphanLinks == 0, "\(orphanLinks) re-dispatched links not right after their interaction", sourceLocation: sourceLocation)
        #expect(maximumConcurrentCalls <= 1, "handler calls overlapped", sourceLocation: sourceLocation)

        // Calls per interaction: any that did not count declined, the counted one is last.
        var callsByKey: [Key: [Call]] = [:]
        for call in calls { callsByKey[key(call.delivery), default: []].append(call) }
        let countedKeys = Set(counted)
        var badCalls = 0
        for (k, calls) in callsByKey {
            let uncounted = countedKeys.contains(k) ? calls.dropLast() : calls[...]
            if uncounted.contains(where: { $0.result == .handled }) { badCalls += 1 }
        }
        #expect(badCalls == 0, "\(badCalls) interactions had a handled call that did not count", sourceLocation: sourceLocation)
        // The logging-out handler's answer never counts: it detached during the call.
        let departed = countedKeys.filter { callsByKey[$0]?.last.map(StressTests.loggedOut) ?? false }.count
        #expect(departed == 0, "\(departed) answers counted although the handler had detached", sourceLocation: sourceLocation)
        #expect(countedKeys.isSubset(of: callsByKey.keys), "a delivery was reported without a handler call", sourceLocation: sourceLocation)

        // Opening and re-dispatching follow the counted answers only.
        var opened: [UInt64] = []
        var redispatched: [UInt64] = []
        for record in primary where record.result == .notHandled && record.delivery.interaction.handling == .automatic {
            guard case .url(_, let target) = record.delivery.interaction.destination else { continue }
            if target == .app {
                redispatched.append(record.delivery.sequence)
            } else {
                opened.append(record.delivery.sequence)
            }
        }
        #expect(
            requests.map(\.delivery.sequence) == opened,
            "the opener's requests differ from the declined external URLs",
            sourceLocation: sourceLocation
        )
        let links = deliveries.filter { $0.delivery.origin != nil }.map(\.delivery.sequence) + linkDrops.map(\.sequence)
        #expect(
            links.sorted() == redispatched.sorted(),
            "re-dispatched links differ from the declined app URLs",
            sourceLocation: sourceLocation
        )
        let duplicateLinks = linkDrops.filter(\.isDuplicate).count
        #expect(duplicateLinks == 0, "a re-dispatched link was dropped as a duplicate", sourceLocation: sourceLocation)
    }
}

extension DroppedInteraction {
    /// Whether it was dropped as a duplicate.
    var isDuplicate: Bool {
        if case .duplicate = reason { return true }
        return false
    }
}
