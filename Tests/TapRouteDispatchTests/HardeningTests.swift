import Dispatch
import Foundation
import TapRoute
import TapRouteDispatch
import TapRouteDispatchTesting
import Testing

/// The dispatcher's promises under hostile use: hardening items 17 (a dropped interaction
/// stays in de-duplication memory), 18 (a handler that goes away mid-delivery still
/// causes an open) and 19 (a held launch-options notification lets the queue grow past
/// its bound, and admissions scan the queue). Each test failed on the code before the fix.
@Suite struct HardeningTests {
    // MARK: 17: a dropped interaction leaves de-duplication memory

    /// The reproduction: capacity 1, no handler; link A, then link B pushes A out. Opening
    /// A again later is a new arrival, not a duplicate of something never delivered.
    @Test func aLinkDroppedByOverflowIsDeliveredWhenItArrivesAgain() throws {
        let h = try Harness(configuration: .init(queueCapacity: 1))
        let a = InputEvent.url("myapp://items/a")
        #expect(h.dispatcher.continue(a) == .queued(sequence: 1))
        #expect(h.dispatcher.continue(.url("myapp://items/b")) == .queued(sequence: 2))
        #expect(h.observer.drops.map(\.sequence) == [1])
        #expect(h.observer.drops.map(\.reason) == [.queueOverflow(capacity: 1)])
        let handler = RecordingInteractionHandler()
        h.dispatcher.attach(handler)
        #expect(h.dispatcher.continue(a) == .queued(sequence: 3))
        #expect(handler.deliveries.map(\.sequence) == [2, 3])
        #expect(handler.deliveries.last?.interaction.destination == .url("myapp://items/a", target: .app))
        // Delivered now, so a third copy within the window is a duplicate of the delivery.
        #expect(h.dispatcher.continue(a) == .duplicate(sequence: 4, of: 3))
    }

    /// The same before any handler: the copy that arrives after the drop waits in its place.
    @Test func aDroppedLinkArrivingAgainBeforeAnyHandlerWaitsAgain() throws {
        let h = try Harness(configuration: .init(queueCapacity: 2))
        for name in ["a", "b", "c"] { h.dispatcher.continue(.url("myapp://items/\(name)")) }
        #expect(h.observer.drops.map(\.sequence) == [1])
        #expect(h.dispatcher.continue(.url("myapp://items/a")) == .queued(sequence: 4))
        #expect(h.dispatcher.continue(.url("myapp://items/c")) == .duplicate(sequence: 5, of: 3))
        let handler = RecordingInteractionHandler()
        h.dispatcher.attach(handler)
        #expect(handler.deliveries.map(\.sequence) == [3, 4])
    }

    /// A launch-options notification pushed out of the queue: its `didReceive` response is
    /// delivered (with the button), not discarded as a duplicate of it.
    @Test func aLaunchNotificationDroppedByOverflowLetsItsResponseThrough() throws {
        let h = try Harness(configuration: .init(queueCapacity: 1))
        let push = acmePush()
        #expect(h.dispatcher.didFinishLaunching([.notification(userInfo: push)]) == [.queued(sequence: 1)])
        #expect(h.dispatcher.continue(.url("myapp://items/b")) == .queued(sequence: 2))
        #expect(h.observer.drops.map(\.sequence) == [1])
        let handler = RecordingInteractionHandler()
        h.dispatcher.attach(handler)
        #expect(h.dispatcher.didReceive(.notification(userInfo: push, action: "track")) == .queued(sequence: 3))
        #expect(handler.interactions.map(\.trigger) == [.open, .button(id: "track", label: "Track")])
        // And the launch-options copy arriving again now is a duplicate of the response.
        #expect(h.dispatcher.didFinishLaunching([.notification(userInfo: push)]) == [.duplicate(sequence: 4, of: 3)])
    }

    /// A launch-options notification completed by its response and then pushed out: both
    /// of its keys (the launch copy's and the response's) are forgotten.
    @Test func aCompletedLaunchNotificationDroppedByOverflowIsForgottenEntirely() throws {
        let h = try Harness(configuration: .init(queueCapacity: 1))
        let push = acmePush()
        h.dispatcher.didFinishLaunching([.notification(userInfo: push)])
        #expect(h.dispatcher.didReceive(.notification(userInfo: push, action: "track")) == .merged(into: 1))
        h.dispatcher.continue(.url("myapp://items/b"))
        #expect(h.observer.drops.map(\.sequence) == [1])
        #expect(h.observer.drops.first?.interaction.trigger == .button(id: "track", label: "Track"))
        #expect(h.dispatcher.didReceive(.notification(userInfo: push, action: "track")) == .queued(sequence: 3))

        let again = try Harness(configuration: .init(queueCapacity: 1))
        again.dispatcher.didFinishLaunching([.notification(userInfo: push)])
        again.dispatcher.didReceive(.notification(userInfo: push, action: "track"))
        again.dispatcher.continue(.url("myapp://items/b"))
        #expect(again.dispatcher.didFinishLaunching([.notification(userInfo: push)]) == [.queued(sequence: 3)])
    }

    /// An interaction whose handler logged out mid-delivery waits again; if it is then
    /// pushed out, it is forgotten like any other dropped interaction.
    @Test func anInteractionPutBackAndThenDroppedIsForgotten() throws {
        let h = try Harness(configuration: .init(queueCapacity: 1))
        let dispatcher = h.dispatcher
        let logout = RecordingInteractionHandler { _ in
            dispatcher.detach()
            return .notHandled
        }
        dispatcher.attach(logout)
        let a = InputEvent.url("myapp://items/a")
        #expect(dispatcher.continue(a) == .queued(sequence: 1))
        #expect(dispatcher.pendingCount == 1)
        dispatcher.continue(.url("myapp://items/b"))
        #expect(h.observer.drops.map(\.sequence) == [1])
        #expect(dispatcher.continue(a) == .queued(sequence: 3))
        let handler = RecordingInteractionHandler()
        dispatcher.attach(handler)
        #expect(handler.deliveries.map(\.sequence) == [3])
    }

    /// While it waits, an interaction is never forgotten, even with a de-duplication
    /// memory smaller than the queue: a second copy is a duplicate, not a second delivery.
    @Test func aWaitingInteractionIsRememberedBeyondTheMemoryLimit() throws {
        let h = try Harness(configuration: .init(queueCapacity: 8, deduplicationMemory: 1))
        for i in 1...4 { h.dispatcher.continue(.url("myapp://items/\(i)")) }
        #expect(h.dispatcher.continue(.url("myapp://items/1")) == .duplicate(sequence: 5, of: 1))
        let handler = RecordingInteractionHandler()
        h.dispatcher.attach(handler)
        #expect(handler.deliveries.map(\.sequence) == [1, 2, 3, 4])
        // Delivered, they fall under the limit of 1: only the last is remembered.
        #expect(h.dispatcher.continue(.url("myapp://items/4")) == .duplicate(sequence: 6, of: 4))
        #expect(h.dispatcher.continue(.url("myapp://items/1")) == .queued(sequence: 7))
    }

    // MARK: 18: a handler that goes away mid-delivery opens nothing

    /// The reproduction: the handler logs out (`detach()`) and declines an automatic
    /// external URL. Nothing is opened; the interaction waits for the next handler, which
    /// gets it and decides.
    @Test func aHandlerThatDetachesAndDeclinesOpensNothing() throws {
        for (url, browser, presentation) in [
            ("https://shop.example.com/sale", false, URLPresentation.system),
            ("https://shop.example.com/landing", true, .inAppBrowser),
        ] {
            let h = try Harness()
            let dispatcher = h.dispatcher
            let logout = RecordingInteractionHandler { _ in
                dispatcher.detach()
                return .notHandled
            }
            dispatcher.attach(logout)
            dispatcher.didReceive(.notification(userInfo: acmePush(url: url, browser: browser)))
            #expect(logout.calls.map(\.result) == [.notHandled])
            #expect(h.opener.requests.isEmpty)
            #expect(h.observer.deliveries.isEmpty)
            #expect(h.observer.openedURLs.isEmpty)
            #expect(!dispatcher.hasHandler)
            #expect(dispatcher.pendingCount == 1)

            let next = RecordingInteractionHandler(answering: .notHandled)
            dispatcher.attach(next)
            #expect(next.deliveries.map(\.sequence) == [1])
            #expect(h.opener.requests.map(\.url) == [url])
            #expect(h.opener.requests.map(\.presentation) == [presentation])
            #expect(h.observer.deliveries.map(\.delivery.sequence) == [1])
            #expect(h.observer.openedURLs.map(\.url) == [url])
        }
    }

    /// An app link declined by a handler that logged out is not re-dispatched to it.
    @Test func aHandlerThatDetachesAndDeclinesAnAppLinkGetsNoRedispatch() throws {
        let h = try Harness()
        let dispatcher = h.dispatcher
        let logout = RecordingInteractionHandler { _ in
            dispatcher.detach()
            return .notHandled
        }
        dispatcher.attach(logout)
        dispatcher.continue(.notification(userInfo: acmePush(url: "https://app.example.com/orders/5")))
        #expect(logout.deliveries.count == 1)
        #expect(h.observer.openedURLs.isEmpty)
        let next = RecordingInteractionHandler(answering: .notHandled)
        dispatcher.attach(next)
        #expect(next.deliveries.map(\.origin?.messageId) == [nil, "m-1"])
        #expect(h.opener.requests.isEmpty)
    }

    /// Replacing the handler from inside its call (a new root after logout) is the same: the
    /// old handler's answer does not count; the new one gets the interaction.
    @Test func aHandlerReplacedMidDeliveryOpensNothingForTheOldOne() throws {
        let h = try Harness()
        let dispatcher = h.dispatcher
        let next = RecordingInteractionHandler(answering: .handled)
        let old = RecordingInteractionHandler { _ in
            dispatcher.attach(next)
            return .notHandled
        }
        dispatcher.attach(old)
        dispatcher.didReceive(.notification(userInfo: acmePush()))
        #expect(old.deliveries.count == 1)
        #expect(next.deliveries.map(\.sequence) == [1])
        #expect(h.opener.requests.isEmpty)
        #expect(h.observer.deliveries.map(\.result) == [.handled])
    }

    /// A handler that logs out but *handled* the interaction did act on it: it counts, and
    /// the interaction is not delivered again.
    @Test func aHandlerThatDetachesButHandledCounts() throws {
        let h = try Harness()
        let dispatcher = h.dispatcher
        let handler = RecordingInteractionHandler { _ in
            dispatcher.detach()
            return .handled
        }
        dispatcher.attach(handler)
        dispatcher.didReceive(.notification(userInfo: acmePush()))
        #expect(dispatcher.pendingCount == 0)
        dispatcher.attach(RecordingInteractionHandler())
        #expect(handler.deliveries.count == 1)
        #expect(h.observer.deliveries.count == 1)
        #expect(h.opener.requests.isEmpty)
    }

    /// The race across threads: another thread detaches while the handler runs; the
    /// handler then declines. Nothing is opened and the interaction waits.
    @Test func aDetachFromAnotherThreadDuringTheCallOpensNothing() throws {
        let h = try Harness()
        let dispatcher = h.dispatcher
        let entered = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let handler = RecordingInteractionHandler { _ in
            entered.signal()
            proceed.wait()
            return .notHandled
        }
        dispatcher.attach(handler)
        let delivering = DispatchGroup()
        delivering.enter()
        Thread.detachNewThread {
            dispatcher.didReceive(.notification(userInfo: acmePush()))
            delivering.leave()
        }
        entered.wait()
        dispatcher.detach()  // the user logged out on another thread
        proceed.signal()
        delivering.wait()
        #expect(handler.deliveries.count == 1)
        #expect(h.opener.requests.isEmpty)
        #expect(h.observer.deliveries.isEmpty)
        #expect(dispatcher.pendingCount == 1)
    }

    // MARK: 19: the bound holds whatever is held at the head

    /// The reproduction: a handler attached and a launch-options notification held at the
    /// head; `continue` calls no longer pile up behind it. Once the queue is full, the
    /// oldest (the held notification) is dropped and reported, and everything behind it is
    /// delivered; its response, arriving later, is then delivered with the button.
    @Test func aHeldNotificationDoesNotLetTheQueueGrowPastItsBound() throws {
        let h = try Harness(configuration: .init(queueCapacity: 16))
        let handler = RecordingInteractionHandler()
        h.dispatcher.attach(handler)
        let push = acmePush()
        h.dispatcher.didFinishLaunching([.notification(userInfo: push)])
        var largest = 0
        for i in 0..<1_000 {
            h.dispatcher.continue(.url("myapp://items/\(i)"))
            largest = max(largest, h.dispatcher.pendingCount)
        }
        #expect(largest <= 16)
        #expect(h.observer.drops.map(\.sequence) == [1])
        #expect(h.observer.drops.first?.reason == .queueOverflow(capacity: 16))
        #expect(handler.deliveries.count == 1_000)
        #expect(handler.deliveries.map(\.sequence) == Array(2...1_001))
        #expect(h.dispatcher.didReceive(.notification(userInfo: push, action: "track")) == .queued(sequence: 1_002))
        #expect(handler.interactions.last?.trigger == .button(id: "track", label: "Track"))
    }

    /// Below the bound a held notification still waits for its response, with the queue
    /// behind it, and the response completes it in place.
    @Test func belowTheBoundAHeldNotificationStillWaitsForItsResponse() throws {
        let h = try Harness(configuration: .init(queueCapacity: 4))
        let handler = RecordingInteractionHandler()
        h.dispatcher.attach(handler)
        let push = acmePush()
        h.dispatcher.didFinishLaunching([.notification(userInfo: push)])
        for i in 0..<3 { h.dispatcher.continue(.url("myapp://items/\(i)")) }
        #expect(handler.deliveries.isEmpty)
        #expect(h.dispatcher.pendingCount == 4)
        #expect(h.dispatcher.didReceive(.notification(userInfo: push, action: "later")) == .merged(into: 1))
        #expect(handler.deliveries.map(\.sequence) == [1, 2, 3, 4])
        #expect(handler.deliveries.first?.interaction.trigger == .button(id: "later", label: "Later"))
        #expect(handler.deliveries.first?.phase == .cold)
        #expect(h.observer.drops.isEmpty)
    }

    /// Events a handler passes from inside its own call wait behind it, within the bound.
    @Test func eventsPassedWhileTheHandlerRunsAreBoundedToo() throws {
        let h = try Harness(configuration: .init(queueCapacity: 2))
        let dispatcher = h.dispatcher
        let handler = RecordingInteractionHandler { delivery in
            if delivery.sequence == 1 {
                for i in 2...5 { dispatcher.continue(.url("myapp://items/\(i)")) }
                #expect(dispatcher.pendingCount == 2)
            }
            return .handled
        }
        dispatcher.attach(handler)
        dispatcher.continue(.url("myapp://items/1"))
        #expect(handler.deliveries.map(\.sequence) == [1, 4, 5])
        #expect(h.observer.drops.map(\.sequence) == [2, 3])
    }

    /// A capacity of 0 means nothing waits: with a handler attached and idle, what arrives
    /// (even several inputs of one call) is still delivered at once, but an event passed
    /// while a delivery is in progress is dropped.
    @Test func zeroCapacityStillDeliversToAnIdleHandler() throws {
        let h = try Harness(configuration: .init(queueCapacity: 0))
        let handler = RecordingInteractionHandler()
        h.dispatcher.attach(handler)
        h.dispatcher.willConnect([.url("myapp://items/1"), .url("myapp://items/2")])
        #expect(handler.deliveries.map(\.sequence) == [1, 2])
        #expect(h.observer.drops.isEmpty)

        let busy = try Harness(configuration: .init(queueCapacity: 0))
        let dispatcher = busy.dispatcher
        let reentrant = RecordingInteractionHandler { delivery in
            if delivery.sequence == 1 { dispatcher.continue(.url("myapp://items/inner")) }
            return .handled
        }
        dispatcher.attach(reentrant)
        dispatcher.continue(.url("myapp://items/1"))
        #expect(reentrant.deliveries.map(\.sequence) == [1])
        #expect(busy.observer.drops.map(\.sequence) == [2])
    }

    /// A re-dispatched app link that finds no handler (the handler logged out after
    /// declining… on its second call) waits like any interaction; pushed out, it is
    /// reported with the interaction it came from.
    @Test func aRedispatchedLinkWaitingForAHandlerIsReportedWhenDropped() throws {
        let h = try Harness(configuration: .init(queueCapacity: 1))
        let dispatcher = h.dispatcher
        let handler = RecordingInteractionHandler { delivery in
            if delivery.origin != nil { dispatcher.detach() }
            return .notHandled
        }
        dispatcher.attach(handler)
        dispatcher.continue(.notification(userInfo: acmePush(id: "m-7", url: "https://app.example.com/orders/7")))
        #expect(handler.deliveries.map(\.origin?.messageId) == [nil, "m-7"])
        #expect(dispatcher.pendingCount == 1)
        dispatcher.continue(.url("myapp://items/b"))
        let drop = try #require(h.observer.drops.first)
        #expect(h.observer.drops.count == 1)
        #expect(drop.sequence == 1)
        #expect(drop.origin?.messageId == "m-7")
        #expect(drop.interaction.destination == .url("https://app.example.com/orders/7", target: .app))
    }
}

/// Admission is O(1) amortized: doubling work must not quadruple time. Each shape is
/// timed at n and 4n; linear work gives a ratio near 4, a queue scan per admission near 16.
/// The bound of 8 leaves room for noise on a loaded machine. (Wall-clock ratios, never
/// absolute times.)
@Suite(.serialized) struct AdmissionScalingTests {
    static let n = 1_000

    /// Hardening item 19: a handler attached, a held launch-options notification at the
    /// head, and a capacity large enough that everything waits behind it.
    @Test func continueBehindAHeldNotification() throws {
        let ratio = try Self.ratio { count in
            let h = try Harness(configuration: .init(queueCapacity: 1_000_000))
            h.dispatcher.attach(RecordingInteractionHandler())
            h.dispatcher.didFinishLaunching([.notification(userInfo: acmePush())])
            return {
                for i in 0..<count { h.dispatcher.continue(.url("myapp://items/\(i)")) }
            }
        }
        #expect(ratio < 32, "8× the calls took \(ratio)× the time (linear: 8, quadratic: 64)")
    }

    /// Responses completing launch-options notifications, newest first, with many waiting.
    @Test func responsesCompletingManyWaitingNotifications() throws {
        let ratio = try Self.ratio { count in
            let h = try Harness(configuration: .init(queueCapacity: 1_000_000, deduplicationMemory: 1_000_000))
            let pushes = (0..<count).map { Self.push($0) }
            h.dispatcher.didFinishLaunching(pushes.map { .notification(userInfo: $0) })
            return {
                for push in pushes.reversed() { h.dispatcher.didReceive(.notification(userInfo: push, action: "track")) }
            }
        }
        #expect(ratio < 32, "8× the calls took \(ratio)× the time (linear: 8, quadratic: 64)")
    }

    /// Many launch-options notifications held with no handler, and links arriving among
    /// them (each call checks which held ones are due).
    @Test func linksAmongManyHeldNotifications() throws {
        let ratio = try Self.ratio { count in
            let h = try Harness(configuration: .init(queueCapacity: 1_000_000, deduplicationMemory: 1_000_000))
            h.dispatcher.didFinishLaunching((0..<count).map { .notification(userInfo: Self.push($0)) })
            return {
                for i in 0..<count { h.dispatcher.continue(.url("myapp://items/\(i)")) }
            }
        }
        #expect(ratio < 32, "8× the calls took \(ratio)× the time (linear: 8, quadratic: 64)")
    }

    /// A small acme push numbered `i`, quick to normalize.
    static func push(_ i: Int) -> JSONObject {
        ["acme": ["id": .string("m-\(i)")]]
    }

    /// The best of five timings of the work `make(8n)` returns over the best of five of
    /// `make(n)`'s (setting up is not timed). Linear work gives about 8, quadratic about 64;
    /// the bound of 32 leaves room for a busy machine.
    static func ratio(_ make: (Int) throws -> () -> Void) throws -> Double {
        func best(_ count: Int) throws -> Double {
            var times: [Double] = []
            for _ in 0..<5 {
                let work = try make(count)
                let start = ContinuousClock.now
                work()
                let elapsed = ContinuousClock.now - start
                times.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
            }
            return times.min()!
        }
        return try best(8 * n) / best(n)
    }
}
