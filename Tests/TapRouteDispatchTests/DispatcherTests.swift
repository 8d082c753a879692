import TapRoute
import TapRouteDispatch
import TapRouteDispatchTesting
import Testing

@Suite struct DispatcherTests {
    // MARK: Queue

    @Test func fullQueueDropsTheOldestAndTellsTheObserver() throws {
        let h = try Harness(configuration: .init(queueCapacity: 3))
        for i in 1...5 { h.dispatcher.continue(.url("myapp://items/\(i)")) }
        #expect(h.dispatcher.pendingCount == 3)
        #expect(h.observer.drops.map(\.sequence) == [1, 2])
        #expect(h.observer.drops.map(\.reason) == [.queueOverflow(capacity: 3), .queueOverflow(capacity: 3)])
        #expect(h.observer.drops.first?.interaction.destination == .url("myapp://items/1", target: .app))

        let handler = RecordingInteractionHandler()
        h.dispatcher.attach(handler)
        #expect(handler.deliveries.map(\.sequence) == [3, 4, 5])
    }

    @Test func detachTrimsTheQueueToItsCapacity() throws {
        let h = try Harness(configuration: .init(queueCapacity: 2))
        let dispatcher = h.dispatcher
        // The handler detaches itself on the first delivery, after passing four events that
        // wait behind it (two fit).
        let handler = RecordingInteractionHandler { delivery in
            if delivery.sequence == 1 {
                for i in 2...5 { dispatcher.continue(.url("myapp://items/\(i)")) }
                dispatcher.detach()
            }
            return .handled
        }
        dispatcher.attach(handler)
        dispatcher.continue(.url("myapp://items/1"))
        #expect(handler.deliveries.map(\.sequence) == [1])
        #expect(dispatcher.pendingCount == 2)
        #expect(h.observer.drops.map(\.sequence) == [2, 3])
        dispatcher.attach(handler)
        #expect(handler.deliveries.map(\.sequence) == [1, 4, 5])
    }

    @Test func zeroCapacityKeepsNothingWithoutAHandler() throws {
        let h = try Harness(configuration: .init(queueCapacity: -1))
        h.dispatcher.continue(.url("myapp://items/1"))
        #expect(h.dispatcher.pendingCount == 0)
        #expect(h.observer.drops.map(\.reason) == [.queueOverflow(capacity: 0)])
    }

    // MARK: De-duplication

    @Test func duplicatesAreDroppedWithinTheWindowOnly() throws {
        let h = try Harness(configuration: .init(deduplicationWindow: 2))
        let handler = RecordingInteractionHandler()
        h.dispatcher.attach(handler)
        let link = InputEvent.url("myapp://items/1")
        #expect(h.dispatcher.continue(link) == .queued(sequence: 1))
        h.clock.advance(by: 1.999)
        #expect(h.dispatcher.continue(link) == .duplicate(sequence: 2, of: 1))
        h.clock.advance(by: 0.001)
        #expect(h.dispatcher.continue(link) == .queued(sequence: 3))
        #expect(handler.deliveries.map(\.sequence) == [1, 3])
        #expect(h.observer.drops.map(\.reason) == [.duplicate(of: 1)])
    }

    @Test func aURLContextAndAUserActivityWithTheSameLinkAreOneInteraction() throws {
        let h = try Harness()
        h.dispatcher.willConnect([.url("https://app.example.com/a")])
        #expect(h.dispatcher.continue(.userActivity(webpageURL: "https://app.example.com/a")) == .duplicate(sequence: 2, of: 1))
        #expect(h.dispatcher.continue(.userActivity(webpageURL: "https://app.example.com/a?x=1")) == .queued(sequence: 3))
    }

    /// Two SDKs forwarding the same `didReceive` (or one forwarding it twice) while the app
    /// runs: delivered and opened once.
    @Test func repeatedWarmDeliveryOfTheSameNotificationIsDeliveredOnce() throws {
        let h = try Harness()
        let handler = RecordingInteractionHandler(answering: .notHandled)
        h.dispatcher.attach(handler)
        let response = InputEvent.notification(userInfo: acmePush(), action: "track")
        #expect(h.dispatcher.didReceive(response) == .queued(sequence: 1))
        h.clock.advance(by: 0.5)
        #expect(h.dispatcher.didReceive(response) == .duplicate(sequence: 2, of: 1))
        #expect(handler.deliveries.count == 1)
        #expect(h.opener.urls == ["https://shop.example.com/track/1"])
    }

    @Test func differentButtonsOfOneNotificationAreDifferentInteractions() throws {
        let h = try Harness()
        let push = acmePush()
        #expect(h.dispatcher.didReceive(.notification(userInfo: push, action: "track")) == .queued(sequence: 1))
        #expect(h.dispatcher.didReceive(.notification(userInfo: push, action: "later")) == .queued(sequence: 2))
    }

    /// Callers read the clock before taking the dispatcher's lock, so racing callers can
    /// arrive with readings out of order; an earlier reading must not make a key look
    /// expired (or make unsigned arithmetic wrap).
    @Test func readingsOutOfOrderDoNotBreakDeduplication() throws {
        let clock = ScriptedClock([10_000_000_000, 9_000_000_000, 9_500_000_000])
        let dispatcher = Dispatcher(registry: try makeRegistry(), opener: RecordingURLOpener(), clock: clock)
        let link = InputEvent.url("myapp://items/1")
        #expect(dispatcher.continue(link) == .queued(sequence: 1))
        #expect(dispatcher.continue(link) == .duplicate(sequence: 2, of: 1))
        #expect(dispatcher.continue(link) == .duplicate(sequence: 3, of: 1))
    }

    @Test func zeroWindowTurnsDeduplicationOff() throws {
        for window in [0, -1, Double.nan] {
            let h = try Harness(configuration: .init(deduplicationWindow: window))
            let link = InputEvent.url("myapp://items/1")
            #expect(h.dispatcher.continue(link) == .queued(sequence: 1))
            #expect(h.dispatcher.continue(link) == .queued(sequence: 2))
        }
    }

    @Test func deduplicationMemoryForgetsTheOldestDeliveredKeys() throws {
        let h = try Harness(configuration: .init(deduplicationMemory: 2))
        h.dispatcher.attach(RecordingInteractionHandler())
        for i in 1...3 { h.dispatcher.continue(.url("myapp://items/\(i)")) }
        #expect(h.dispatcher.continue(.url("myapp://items/3")) == .duplicate(sequence: 4, of: 3))
        #expect(h.dispatcher.continue(.url("myapp://items/1")) == .queued(sequence: 5))
    }

    @Test func deduplicationKeyIgnoresPhaseHandlingAndWarnings() {
        let a = Interaction(
            vendor: "acme",
            channel: .push,
            trigger: .tap,
            destination: .url("https://x.example", target: .external),
            handling: .automatic,
            messageId: "1",
            phase: .cold
        )
        var b = a
        b.phase = .warm
        b.handling = .app
        b.warnings = [Warning(.androidDiffers, "differs")]
        #expect(DeduplicationKey(a) == DeduplicationKey(b))
        b.trigger = .button(id: "x")
        #expect(DeduplicationKey(a) != DeduplicationKey(b))
    }

    // MARK: Launch options

    @Test func launchOptionsNotificationIsReleasedAsATapWhenTheAppBecomesActive() throws {
        let h = try Harness()
        let handler = RecordingInteractionHandler()
        h.dispatcher.attach(handler)
        h.dispatcher.didFinishLaunching([.notification(userInfo: acmePush()), .url("myapp://items/after")])
        #expect(handler.deliveries.isEmpty)
        h.dispatcher.didBecomeActive()
        #expect(handler.interactions.map(\.trigger) == [.tap, .open])
        #expect(handler.deliveries.map(\.phase) == [.cold, .cold])
        // The response, arriving late, is recognized as the same notification.
        #expect(
            h.dispatcher.didReceive(.notification(userInfo: acmePush(), action: "track")) == .duplicate(sequence: 3, of: 1)
        )
        #expect(handler.deliveries.count == 2)
    }

    @Test func launchOptionsNotificationIsReleasedAfterTheWindowAtTheNextCall() throws {
        let h = try Harness(configuration: .init(deduplicationWindow: 5))
        let handler = RecordingInteractionHandler()
        h.dispatcher.didFinishLaunching([.notification(userInfo: acmePush())])
        h.dispatcher.attach(handler)
        #expect(handler.deliveries.isEmpty)
        h.clock.advance(by: 5)
        h.dispatcher.attach(handler)
        #expect(handler.interactions.map(\.trigger) == [.tap])
    }

    @Test func launchOptionsAfterTheResponseAreADuplicate() throws {
        let h = try Harness()
        let push = acmePush()
        #expect(h.dispatcher.didReceive(.notification(userInfo: push, action: "track")) == .queued(sequence: 1))
        #expect(h.dispatcher.didFinishLaunching([.notification(userInfo: push)]) == [.duplicate(sequence: 2, of: 1)])
    }

    @Test func launchOptionsWithAnExplicitActionAreNotHeld() throws {
        let h = try Harness()
        let handler = RecordingInteractionHandler()
        h.dispatcher.attach(handler)
        h.dispatcher.didFinishLaunching([.notification(userInfo: acmePush(), action: "track")])
        #expect(handler.interactions.map(\.trigger) == [.button(id: "track", label: "Track")])
    }

    // MARK: Opening

    @Test func richLandingPageOpensInTheInAppBrowser() throws {
        let h = try Harness()
        h.dispatcher.attach(RecordingInteractionHandler(answering: .notHandled))
        h.dispatcher.continue(.notification(userInfo: acmePush(url: "https://shop.example.com/landing", browser: true)))
        #expect(h.opener.requests.map(\.presentation) == [.inAppBrowser])
        #expect(h.observer.openedURLs.map(\.target) == [.inAppBrowser])
    }

    @Test func inAppMessageURLsAreReportedWithTheirSource() throws {
        let h = try Harness()
        h.dispatcher.attach(RecordingInteractionHandler(answering: .notHandled))
        let message: JSONObject = ["acme": ["id": "iam-1", "url": "tel:+15550100"]]
        h.dispatcher.continue(InputEvent(.inAppMessage(message: message, action: nil)))
        #expect(h.opener.requests.map(\.url) == ["tel:+15550100"])
        #expect(h.observer.openedURLs.map(\.source) == [.inAppMessage])
    }

    @Test func handlingAppIsNeverOpenedEvenWhenNotHandled() throws {
        let h = try Harness(adapters: [AdapterSettings(id: "acme", policy: PolicySettings(automaticallyOpenDeeplinks: false))])
        let handler = RecordingInteractionHandler(answering: .notHandled)
        h.dispatcher.attach(handler)
        h.dispatcher.continue(.notification(userInfo: acmePush()))
        #expect(handler.deliveries.first?.interaction.handling == .app)
        #expect(h.opener.requests.isEmpty)
        #expect(h.observer.openedURLs.isEmpty)
    }

    @Test func perEventOverrideDecidesHandling() throws {
        let h = try Harness()
        h.dispatcher.attach(RecordingInteractionHandler(answering: .notHandled))
        var event = InputEvent.notification(userInfo: acmePush())
        event.automaticallyOpenDeeplinks = false
        h.dispatcher.continue(event)
        #expect(h.opener.requests.isEmpty)
    }

    @Test func aRedispatchedLinkIsNeverRedispatchedAgain() throws {
        // The link fallback told to open links itself: the re-dispatched link is automatic
        // with target app again; it must not loop.
        let h = try Harness(adapters: [
            AdapterSettings(id: "acme"),
            AdapterSettings(id: "link", policy: PolicySettings(automaticallyOpenDeeplinks: true)),
        ])
        let handler = RecordingInteractionHandler(answering: .notHandled)
        h.dispatcher.attach(handler)
        h.dispatcher.continue(.notification(userInfo: acmePush(url: "myapp://orders/1")))
        #expect(handler.deliveries.count == 2)
        #expect(handler.deliveries.last?.interaction.handling == .automatic)
        #expect(handler.deliveries.last?.origin?.vendor == "acme")
        #expect(h.opener.requests.isEmpty)

        // A plain app link with automatic handling is re-dispatched once too.
        h.dispatcher.continue(.url("myapp://orders/2"))
        #expect(handler.deliveries.count == 4)
        #expect(handler.deliveries.last?.origin?.vendor == "link")
    }

    @Test func linksThatOpenTheAppAreReportedOpenedOnce() throws {
        let h = try Harness(adapters: [
            AdapterSettings(id: "acme"),
            AdapterSettings(id: "link", policy: PolicySettings(automaticallyOpenDeeplinks: true)),
        ])
        h.dispatcher.attach(RecordingInteractionHandler(answering: .notHandled))
        h.dispatcher.continue(.userActivity(webpageURL: "https://app.example.com/orders/7"))
        h.dispatcher.willConnect([.url("myapp://products/3")])
        let opened = h.observer.openedURLs
        #expect(opened.map(\.url) == ["https://app.example.com/orders/7", "myapp://products/3"])
        #expect(opened.map(\.target) == [.app, .app])
        #expect(opened.map(\.source) == [.universalLink, .customScheme])
        #expect(opened.map(\.delivery.phase) == [.warm, .cold])
        // The universal link was automatic and not handled, so it was re-dispatched too,
        // but it is one URL opened, not two.
        #expect(h.observer.deliveries.count == 3)
        #expect(h.opener.requests.isEmpty)
    }

    @Test func handledAppLinkIsNotRedispatched() throws {
        let h = try Harness()
        let handler = RecordingInteractionHandler(answering: .handled)
        h.dispatcher.attach(handler)
        h.dispatcher.continue(.notification(userInfo: acmePush(url: "https://app.example.com/x")))
        #expect(handler.deliveries.count == 1)
        #expect(h.observer.openedURLs.isEmpty)
    }

    // MARK: Observer

    @Test func unrecognizedInputsAreReportedAndNotDelivered() throws {
        let h = try Harness()
        let handler = RecordingInteractionHandler()
        h.dispatcher.attach(handler)
        let admission = h.dispatcher.continue(InputEvent(.vendorEvent(["type": "tap"])))
        guard case .failed(let error) = admission else {
            Issue.record("expected a failure, got \(admission)")
            return
        }
        #expect(error.code == .unrecognized)
        #expect(handler.deliveries.isEmpty)
        #expect(h.observer.unrecognized.map(\.error) == [error])
        #expect(h.observer.unrecognized.first?.input.phase == .warm)

        let bad = h.dispatcher.continue(.notification(userInfo: ["acme": "not an object"]))
        #expect(bad == .failed(.invalidPayload("acme must be an object", path: "$.userInfo.acme")))
    }

    @Test func rejectedURLsAreReportedAndTheInteractionStillDelivered() throws {
        let h = try Harness()
        let handler = RecordingInteractionHandler(answering: .notHandled)
        h.dispatcher.attach(handler)
        h.dispatcher.continue(.notification(userInfo: acmePush(url: "javascript:alert(1)")))
        let rejection = try #require(h.observer.rejections.first)
        #expect(h.observer.rejections.count == 1)
        #expect(rejection.warning.code == .urlRejected)
        #expect(rejection.warning.message.contains("javascript:alert(1)"))
        // The rejection is a structured record from the policy, not a warning found by its code.
        #expect(rejection.rejected.url == "javascript:alert(1)")
        #expect(rejection.rejected.place == .destination)
        #expect(rejection.rejected.warning == rejection.warning)
        #expect(rejection.sequence == 1)
        #expect(handler.deliveries.first?.interaction.destination == .app)
        #expect(h.opener.requests.isEmpty)
    }

    @Test func observerSeesEveryDeliveryWithPhaseAndResult() throws {
        let h = try Harness()
        h.dispatcher.willConnect([.url("myapp://items/1")])
        h.dispatcher.attach(RecordingInteractionHandler(answering: .notHandled))
        h.dispatcher.continue(.url("myapp://items/2"))
        #expect(h.observer.deliveries.map(\.delivery.sequence) == [1, 2])
        #expect(h.observer.deliveries.map(\.delivery.phase) == [.cold, .warm])
        #expect(h.observer.deliveries.map(\.result) == [.notHandled, .notHandled])
    }

    @Test func dispatcherWorksWithoutAnObserver() throws {
        let opener = RecordingURLOpener()
        let dispatcher = Dispatcher(registry: try makeRegistry(), opener: opener)
        dispatcher.willConnect([.notification(userInfo: acmePush())])
        let handler = RecordingInteractionHandler(answering: .notHandled)
        dispatcher.attach(handler)
        #expect(handler.deliveries.count == 1)
        #expect(opener.urls == ["https://shop.example.com/sale"])
    }

    // MARK: Phase and re-entrancy

    @Test func anInputsOwnPhaseWins() throws {
        let h = try Harness()
        let handler = RecordingInteractionHandler()
        h.dispatcher.attach(handler)
        h.dispatcher.didReceive(.notification(userInfo: acmePush(), phase: .cold))
        #expect(handler.deliveries.map(\.phase) == [.cold])
    }

    @Test func handlerMayCallBackIntoTheDispatcher() throws {
        let h = try Harness()
        let dispatcher = h.dispatcher
        let handler = RecordingInteractionHandler { delivery in
            if delivery.sequence == 1 {
                // Passing an event, detaching and attaching from inside the handler must
                // neither deadlock nor deliver re-entrantly.
                dispatcher.continue(.url("myapp://items/inner"))
                #expect(dispatcher.pendingCount == 1)
                dispatcher.detach()
                #expect(!dispatcher.hasHandler)
            }
            return .handled
        }
        dispatcher.attach(handler)
        dispatcher.continue(.url("myapp://items/outer"))
        #expect(handler.deliveries.map(\.sequence) == [1])
        #expect(handler.maximumConcurrentCalls == 1)
        dispatcher.attach(handler)
        #expect(handler.deliveries.map(\.sequence) == [1, 2])
        #expect(handler.deliveries.last?.interaction.destination == .url("myapp://items/inner", target: .app))
    }

    @Test func configurationDefaults() {
        let configuration = Dispatcher.Configuration()
        #expect(configuration.queueCapacity == 16)
        #expect(configuration.deduplicationWindow == 10)
        #expect(configuration.deduplicationMemory == 256)
    }

    @Test func admissionSequence() {
        #expect(Admission.queued(sequence: 3).sequence == 3)
        #expect(Admission.duplicate(sequence: 4, of: 3).sequence == 4)
        #expect(Admission.merged(into: 3).sequence == nil)
    }
}

/// A clock that returns the given readings in turn (then the last one forever), even when
/// they go backwards.
final class ScriptedClock: DispatcherClock {
    private let readings: Locked<[UInt64]>

    init(_ readings: [UInt64]) {
        self.readings = Locked(readings)
    }

    func nanoseconds() -> UInt64 {
        readings.withLock { readings in
            readings.count > 1 ? readings.removeFirst() : readings.first ?? 0
        }
    }
}
