import TapRoute
import TapRouteDispatch
import TapRouteDispatchTesting
import Testing

/// Replays the failure patterns of docs/dispatcher.md's "The failures it prevents" (#N are
/// its numbers, each a public issue thread) that the dispatcher owns, each the way the
/// platform produces it, and checks the interaction arrives once, in order, with its button
/// identifier.
@Suite struct PainPointTests {
    /// #1, #2, #5, #9, #10: a tap that cold-launches the app arrives before the app's
    /// handler exists (SDK initialized late, listener registered after the UI boots).
    @Test func coldLaunchEventBeforeTheHandlerWaitsAndIsDeliveredOnceInOrder() throws {
        let h = try Harness()
        let admissions = h.dispatcher.willConnect([
            .url("myapp://products/42?ref=push"),
            .userActivity(webpageURL: "https://app.example.com/orders/7"),
            .notification(userInfo: acmePush(), action: "track"),
        ])
        #expect(admissions == [.queued(sequence: 1), .queued(sequence: 2), .queued(sequence: 3)])
        #expect(h.dispatcher.pendingCount == 3)
        #expect(h.opener.requests.isEmpty)
        #expect(h.observer.deliveries.isEmpty)

        let handler = RecordingInteractionHandler()
        h.dispatcher.attach(handler)
        let delivered = handler.deliveries
        #expect(delivered.map(\.sequence) == [1, 2, 3])
        #expect(delivered.map(\.phase) == [.cold, .cold, .cold])
        #expect(delivered.map(\.interaction.phase) == [.cold, .cold, .cold])
        #expect(
            delivered.first?.interaction.destination
                == .screen(name: "product", parameters: ["id": "42", "ref": "push"], url: "myapp://products/42?ref=push")
        )
        #expect(delivered.dropFirst().first?.interaction.channel == .universalLink)
        #expect(delivered.last?.interaction.trigger == .button(id: "track", label: "Track"))
        #expect(h.dispatcher.pendingCount == 0)

        // Attaching again (a new root view controller) re-delivers nothing.
        let second = RecordingInteractionHandler()
        h.dispatcher.attach(second)
        #expect(second.deliveries.isEmpty)
        #expect(handler.deliveries.count == 3)
        #expect(h.observer.drops.isEmpty)
    }

    /// #3: the same cold-launch push reaches the app through `launchOptions` and through
    /// `userNotificationCenter(_:didReceive:)`; it must be handled (and its URL opened) once.
    @Test func launchOptionsPlusDidReceiveIsDeliveredOnce() throws {
        let h = try Harness()
        let push = acmePush()
        #expect(h.dispatcher.didFinishLaunching([.notification(userInfo: push)]) == [.queued(sequence: 1)])
        #expect(
            h.dispatcher.didReceive(.notification(userInfo: push, action: NotificationAction.defaultIdentifier))
                == .merged(into: 1)
        )
        let handler = RecordingInteractionHandler(answering: .notHandled)
        h.dispatcher.attach(handler)
        #expect(handler.deliveries.count == 1)
        #expect(handler.deliveries.first?.interaction.trigger == .tap)
        #expect(handler.deliveries.first?.phase == .cold)
        #expect(h.opener.urls == ["https://shop.example.com/sale"])

        // A third copy (an SDK that swizzles the delegate and forwards again) is a duplicate.
        #expect(
            h.dispatcher.didReceive(.notification(userInfo: push, action: NotificationAction.defaultIdentifier))
                == .duplicate(sequence: 2, of: 1)
        )
        #expect(handler.deliveries.count == 1)
        #expect(h.opener.urls.count == 1)
        #expect(h.observer.drops.map(\.reason) == [.duplicate(of: 1)])
    }

    /// #3 with the handler already attached while the app delegate runs: the launch-options
    /// copy waits for its response instead of being delivered as a body tap first.
    @Test func launchOptionsWaitForTheirResponseEvenWithAHandlerAttached() throws {
        let h = try Harness()
        let handler = RecordingInteractionHandler()
        h.dispatcher.attach(handler)
        let push = acmePush()
        h.dispatcher.didFinishLaunching([.notification(userInfo: push)])
        #expect(handler.deliveries.isEmpty)
        h.dispatcher.didReceive(.notification(userInfo: push, action: "later"))
        #expect(handler.interactions.map(\.trigger) == [.button(id: "later", label: "Later")])
        #expect(handler.deliveries.first?.phase == .cold)
        h.dispatcher.didBecomeActive()
        #expect(handler.deliveries.count == 1)
    }

    /// #8, #9: a scene-based app gets its cold-start link only in `connectionOptions`
    /// (launch options are nil); forwarded through `willConnect` it is delivered, and the
    /// same link or response arriving again through the warm entry points is not.
    @Test func willConnectDeliversSceneColdStartLinksAndItsWarmEchoesAreDuplicates() throws {
        let h = try Harness()
        let link = InputEvent.userActivity(webpageURL: "https://app.example.com/orders/7")
        let url = InputEvent.url("myapp://products/9")
        let push = acmePush(id: "m-2")
        h.dispatcher.willConnect([url, link, .notification(userInfo: push, action: "track")])
        // iOS also calls userNotificationCenter(_:didReceive:) for the launching response,
        // and apps that forward both entry points pass the link again.
        #expect(h.dispatcher.didReceive(.notification(userInfo: push, action: "track")) == .duplicate(sequence: 4, of: 3))
        #expect(h.dispatcher.continue(link) == .duplicate(sequence: 5, of: 2))
        #expect(h.dispatcher.openURLContexts([url]) == [.duplicate(sequence: 6, of: 1)])

        let handler = RecordingInteractionHandler()
        h.dispatcher.attach(handler)
        #expect(handler.deliveries.map(\.sequence) == [1, 2, 3])
        #expect(handler.deliveries.map(\.phase) == [.cold, .cold, .cold])
        #expect(h.observer.drops.map(\.sequence) == [4, 5, 6])
        #expect(h.observer.drops.map(\.phase) == [.warm, .warm, .warm])
    }

    /// #19: a link that arrives while the login screen is up must survive it. The app
    /// detaches its handler for the login flow and attaches it again afterwards.
    @Test func linkBeforeLoginWaitsUntilTheHandlerIsReattached() throws {
        let h = try Harness()
        let handler = RecordingInteractionHandler()
        h.dispatcher.attach(handler)
        h.dispatcher.continue(.url("myapp://products/1"))
        #expect(handler.deliveries.count == 1)

        h.dispatcher.detach()  // session expired: the login screen is shown
        h.dispatcher.continue(.userActivity(webpageURL: "https://app.example.com/orders/2"))
        h.dispatcher.continue(.notification(userInfo: acmePush(id: "m-3"), action: "track"))
        #expect(handler.deliveries.count == 1)
        #expect(h.dispatcher.pendingCount == 2)

        h.dispatcher.attach(handler)  // logged in
        #expect(handler.deliveries.map(\.sequence) == [1, 2, 3])
        #expect(handler.deliveries.last?.interaction.trigger == .button(id: "track", label: "Track"))
        #expect(handler.deliveries.map(\.phase) == [.warm, .warm, .warm])
    }

    /// #17, #18: at cold launch the button the user tapped must survive the deferred path.
    /// Launch options carry only `userInfo`; the response carries the identifier.
    @Test func buttonIdentifierSurvivesTheColdPath() throws {
        let h = try Harness()
        let push = acmePush()
        h.dispatcher.didFinishLaunching([.notification(userInfo: push)])
        h.dispatcher.didReceive(.notification(userInfo: push, action: "track"))
        let handler = RecordingInteractionHandler(answering: .notHandled)
        h.dispatcher.attach(handler)

        let delivery = try #require(handler.deliveries.first)
        #expect(handler.deliveries.count == 1)
        #expect(delivery.phase == .cold)
        #expect(delivery.interaction.trigger == .button(id: "track", label: "Track"))
        #expect(delivery.interaction.destination == .url("https://shop.example.com/track/1", target: .external))
        #expect(delivery.input.action == "track")
        #expect(h.opener.urls == ["https://shop.example.com/track/1"])

        // The scene path: the response in connectionOptions keeps its identifier through the
        // queue too.
        let scene = try Harness()
        scene.dispatcher.willConnect([.notification(userInfo: acmePush(id: "m-9"), action: "later")])
        let sceneHandler = RecordingInteractionHandler()
        scene.dispatcher.attach(sceneHandler)
        #expect(sceneHandler.interactions.map(\.trigger) == [.button(id: "later", label: "Later")])
    }

    /// #4: the automatic-open policy must not race the app's handler. Nothing is opened
    /// before a handler answered, nothing when it claims the interaction, and exactly once,
    /// after it, when it does not.
    @Test func automaticOpenNeverRacesTheHandler() throws {
        let claimed = try Harness()
        claimed.dispatcher.willConnect([.notification(userInfo: acmePush())])
        #expect(claimed.opener.requests.isEmpty)
        let app = RecordingInteractionHandler(answering: .handled)
        claimed.dispatcher.attach(app)
        #expect(app.deliveries.count == 1)
        #expect(app.deliveries.first?.interaction.handling == .automatic)
        #expect(claimed.opener.requests.isEmpty)

        let declined = try Harness()
        declined.dispatcher.willConnect([.notification(userInfo: acmePush())])
        #expect(declined.opener.requests.isEmpty)
        declined.dispatcher.attach(RecordingInteractionHandler(answering: .notHandled))
        let request = try #require(declined.opener.requests.first)
        #expect(declined.opener.requests.count == 1)
        #expect(request.url == "https://shop.example.com/sale")
        #expect(request.presentation == .system)
        #expect(request.source == .notification)
        #expect(request.delivery.sequence == 1)
        // The observer saw the handler's answer before the open.
        let kinds = declined.observer.events.map { event -> String in
            switch event {
            case .delivered: "delivered"
            case .openedURL: "opened"
            default: "other"
            }
        }
        #expect(kinds == ["delivered", "opened"])
    }

    /// #12, #13: a push whose URL is the app's own universal link must not be handed to the
    /// system (which opens Safari); it comes back to the handler as a link. #11: the link
    /// keeps the notification it came from, for attribution.
    @Test func appLinkInAPushIsRedispatchedToTheHandlerNotTheSystem() throws {
        let h = try Harness()
        let handler = RecordingInteractionHandler(answering: .notHandled)
        h.dispatcher.attach(handler)
        h.dispatcher.continue(.notification(userInfo: acmePush(id: "m-5", url: "https://app.example.com/orders/5")))

        #expect(h.opener.requests.isEmpty)
        #expect(handler.deliveries.count == 2)
        let push = try #require(handler.deliveries.first)
        let link = try #require(handler.deliveries.last)
        #expect(push.interaction.destination == .url("https://app.example.com/orders/5", target: .app))
        #expect(push.interaction.handling == .automatic)
        #expect(link.interaction.vendor == "link")
        #expect(link.interaction.channel == .universalLink)
        #expect(link.interaction.trigger == .open)
        #expect(link.interaction.destination == .url("https://app.example.com/orders/5", target: .app))
        #expect(link.origin?.messageId == "m-5")
        #expect(link.sequence == push.sequence)
        #expect(link.phase == .warm)
        #expect(
            h.observer.openedURLs.map { [$0.url, $0.target.rawValue, $0.source.rawValue] }
                == [["https://app.example.com/orders/5", "app", "notification"]]
        )
    }
}
