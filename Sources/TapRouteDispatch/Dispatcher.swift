public import TapRoute

/// Turns platform entry points into interactions for the app, at cold launch and warm
/// continue, delivering each one once, in order, to a handler that may not exist yet.
///
/// Create one dispatcher when the app starts (in `application(_:didFinishLaunchingWithOptions:)`
/// or the SwiftUI `App`'s initializer), forward every entry point to it, and attach the
/// app's ``InteractionHandler`` when the UI can navigate. `docs/dispatcher.md` has the
/// UIKit and SwiftUI wiring.
///
/// ## Entry points
///
/// | method | platform callback | phase |
/// | --- | --- | --- |
/// | ``willConnect(_:)`` | `scene(_:willConnectTo:options:)`: URL contexts, user activities, notification response | cold |
/// | ``didFinishLaunching(_:)`` | `application(_:didFinishLaunchingWithOptions:)`: `.url`, `.userActivityDictionary`, `.remoteNotification` | cold |
/// | ``continue(_:)`` | `scene(_:continue:)`, `application(_:continue:restorationHandler:)`, `application(_:open:options:)` | warm |
/// | ``openURLContexts(_:)`` | `scene(_:openURLContexts:)` | warm |
/// | ``didReceive(_:)`` | `userNotificationCenter(_:didReceive:withCompletionHandler:)` | warm |
/// | ``didBecomeActive()`` | `sceneDidBecomeActive(_:)`, `applicationDidBecomeActive(_:)` | — |
///
/// An input's own `phase`, when set, wins over the entry point's.
///
/// ## What happens to an input
///
/// 1. The `AdapterRegistry` normalizes it. Failures are reported to the observer as
///    ``DispatchEvent/unrecognized(_:error:)`` and go no further. URLs the policy rejected
///    are reported as ``DispatchEvent/rejectedURL(_:)``.
/// 2. **De-duplication.** An interaction whose ``DeduplicationKey`` was seen less than
///    ``Configuration/deduplicationWindow`` seconds ago (by the injected
///    ``DispatcherClock``) is dropped as a duplicate of the first. A notification from
///    launch options (whose `userInfo` carries no action identifier) and a notification
///    response with the same `userInfo` and origin are the same notification whatever the
///    action: while the launch-options one still waits, the response replaces it in place
///    (so a button tapped at cold launch keeps its identifier); once it was delivered, the
///    response is a duplicate.
/// 3. **Queueing.** The interaction joins a first-in first-out queue, which holds at most
///    ``Configuration/queueCapacity`` waiting interactions (not counting the one being
///    delivered), with or without a handler; on overflow the oldest is dropped, the
///    observer told (``DropReason/queueOverflow(capacity:)``), and its keys forgotten, so
///    the same interaction arriving later is delivered. (The inputs of a call that delivers
///    them itself, to an idle handler, are exempt.) A notification from launch options
///    waits, even with a handler attached, until its response arrives, ``didBecomeActive()``
///    is called, or the de-duplication window has passed (checked at the next call).
/// 4. **Delivery.** With a handler attached, interactions are handed to it in arrival
///    order, one at a time. The answer counts if it is ``HandlerResult/handled``, or if the
///    handler was neither detached nor replaced while it ran; otherwise the interaction goes
///    back to the front of the queue, undelivered, for the next handler. When a counted
///    answer is ``HandlerResult/notHandled`` and the interaction's `handling` is `automatic`
///    with a `url` destination, the dispatcher opens it: `external` through the
///    ``URLOpening`` (system), `inAppBrowser` through the ``URLOpening`` (in-app browser),
///    and `app` by re-dispatching the URL to the handler as a link (with
///    ``Delivery/origin`` set; it is delivered next), never to the system. A re-dispatched
///    link is not re-dispatched again. Nothing is opened while no handler is attached, nor
///    on the answer of a handler that was detached when it answered.
///
/// So every interaction that de-duplication does not suppress is delivered to exactly one
/// counted handler call, or dropped by overflow and reported; an arrival is suppressed only
/// as a duplicate of one that was delivered or still waits. Every call does O(1) amortized
/// work under the lock, whatever the queue holds.
///
/// ## Concurrency
///
/// Every method may be called from any thread. All mutable state is one storage struct
/// behind one `NSLock` (a `Locked<Storage>` box), held only to update that struct, never
/// while calling the handler, the opener or the observer (`Synchronization.Mutex` would
/// need macOS 15 / iOS 18). Those calls are serialized: whichever call finds
/// the dispatcher idle drains the queue on its own thread, and calls that arrive meanwhile
/// (including from inside the handler) only enqueue and return. So the handler is never
/// called concurrently, may call back into the dispatcher without deadlock, and sees
/// interactions in arrival order. A lock rather than the main actor keeps the dispatcher
/// usable from notification-service code, tests and Linux, and keeps each entry point
/// synchronous, as the UIKit callbacks are.
public final class Dispatcher: Sendable {
    /// The dispatcher's tunables.
    public struct Configuration: Sendable, Hashable {
        /// How many interactions may wait for delivery (with or without a handler, not
        /// counting the one being delivered); on overflow the oldest is dropped and
        /// reported. Default 16. Negative values count as 0: nothing waits, so an
        /// interaction is delivered only if a handler is attached and idle when it arrives.
        /// (The inputs of one entry-point call that delivers them itself are exempt.)
        public var queueCapacity: Int
        /// How long, in seconds, an interaction's ``DeduplicationKey`` is remembered;
        /// the same interaction arriving again within it is dropped as a duplicate. Also
        /// the longest a launch-options notification waits for its response. Default 10.
        /// 0 (or a negative or NaN value) turns de-duplication off.
        public var deduplicationWindow: Double
        /// At most how many keys of *delivered* interactions are remembered for
        /// de-duplication (the first delivered are forgotten first). Keys of interactions
        /// still waiting are always remembered; those of dropped ones are forgotten.
        /// Default 256; 0 turns de-duplication off.
        public var deduplicationMemory: Int

        /// Creates a configuration.
        public init(queueCapacity: Int = 16, deduplicationWindow: Double = 10, deduplicationMemory: Int = 256) {
            self.queueCapacity = queueCapacity
            self.deduplicationWindow = deduplicationWindow
            self.deduplicationMemory = deduplicationMemory
        }

        /// The window in nanoseconds, clamped to [0, 10^18].
        var windowNanoseconds: UInt64 {
            guard !deduplicationWindow.isNaN, deduplicationWindow > 0 else { return 0 }
            let nanoseconds = deduplicationWindow * 1e9
            return nanoseconds >= 1e18 ? 1_000_000_000_000_000_000 : UInt64(nanoseconds)
        }
    }

    /// The registry that normalizes inputs.
    public let registry: AdapterRegistry
    /// The configuration.
    public let configuration: Configuration
    private let opener: any URLOpening
    private let observer: (any InteractionObserver)?
    private let clock: any DispatcherClock
    private let storage: Locked<Storage>

    /// Creates a dispatcher.
    ///
    /// - Parameters:
    ///   - registry: normalizes inputs and applies the configuration's policy.
    ///   - opener: opens URLs the dispatcher opens itself.
    ///   - observer: sees every delivery, opened URL, rejected URL, unrecognized input and
    ///     drop.
    ///   - configuration: queue capacity and de-duplication window.
    ///   - clock: the monotonic clock for de-duplication (inject a manual one in tests).
    public init(
        registry: AdapterRegistry,
        opener: any URLOpening,
        observer: (any InteractionObserver)? = nil,
        configuration: Configuration = Configuration(),
        clock: any DispatcherClock = SystemDispatcherClock()
    ) {
        self.registry = registry
        self.configuration = configuration
        self.opener = opener
        self.observer = observer
        self.clock = clock
        self.storage = Locked(Storage(configuration: configuration, observing: observer != nil))
    }

    // MARK: Entry points

    /// Cold launch through a scene: forward `connectionOptions.urlContexts`,
    /// `connectionOptions.userActivities` and `connectionOptions.notificationResponse` from
    /// `scene(_:willConnectTo:options:)`, in that order.
    /// - Returns: what became of each input, in order.
    @discardableResult
    public func willConnect(_ inputs: [InputEvent]) -> [Admission] {
        admit(inputs, phase: .cold, fromLaunchOptions: false)
    }

    /// Cold launch through the app delegate: forward `launchOptions[.url]`, the browsing
    /// activity in `launchOptions[.userActivityDictionary]` and
    /// `launchOptions[.remoteNotification]` from `application(_:didFinishLaunchingWithOptions:)`.
    ///
    /// Launch options carry a notification's `userInfo` but not which action was tapped, so
    /// a notification input here without an `action` waits for the matching
    /// ``didReceive(_:)``, which supplies it (see the type's discussion).
    /// - Returns: what became of each input, in order.
    @discardableResult
    public func didFinishLaunching(_ inputs: [InputEvent]) -> [Admission] {
        admit(inputs, phase: .cold, fromLaunchOptions: true)
    }

    /// Warm continue: a universal link (`scene(_:continue:)`,
    /// `application(_:continue:restorationHandler:)`), a URL (`application(_:open:options:)`),
    /// an in-app message action or a vendor event while the app runs.
    /// - Returns: what became of the input.
    @discardableResult
    public func `continue`(_ input: InputEvent) -> Admission {
        admit(input, phase: .warm)
    }

    /// Warm continue through `scene(_:openURLContexts:)`: one input per URL context.
    /// - Returns: what became of each input, in order.
    @discardableResult
    public func openURLContexts(_ inputs: [InputEvent]) -> [Admission] {
        admit(inputs, phase: .warm, fromLaunchOptions: false)
    }

    /// A notification response from `userNotificationCenter(_:didReceive:withCompletionHandler:)`.
    ///
    /// Its phase is `warm` unless the input says otherwise; when it completes a
    /// launch-options notification still waiting in the queue it takes that one's place
    /// and its `cold` phase.
    /// - Returns: what became of the input.
    @discardableResult
    public func didReceive(_ response: InputEvent) -> Admission {
        admit(response, phase: .warm)
    }

    /// The app became active: launch-options notifications still waiting for their
    /// response are released as taps and delivered.
    public func didBecomeActive() {
        let reading = clock.nanoseconds()
        let pump = storage.withLock { state in
            let now = state.monotonic(reading)
            state.releaseHeld(olderThan: nil, now: now)
            return state.claimPump()
        }
        if pump { self.pump() }
    }

    // MARK: Handler

    /// Attaches the app's handler (replacing any attached one) and delivers every
    /// interaction that waited for it, in arrival order, before returning (unless another
    /// thread is delivering at that moment; it then delivers them). Replacing a handler
    /// while it runs makes that call's ``HandlerResult/notHandled`` not count: the new
    /// handler gets the interaction.
    public func attach(_ handler: any InteractionHandler) {
        let reading = clock.nanoseconds()
        let pump = storage.withLock { state in
            state.attach(handler)
            state.releaseHeld(olderThan: state.window, now: state.monotonic(reading))
            return state.claimPump()
        }
        if pump { self.pump() }
    }

    /// Detaches the handler. Interactions arriving until the next ``attach(_:)`` wait in
    /// the queue (and the queue is trimmed to its capacity now). Called while a handler
    /// runs (a logout), it makes that call's ``HandlerResult/notHandled`` not count: nothing
    /// is opened and the interaction waits for the next handler.
    public func detach() {
        let pump = storage.withLock { state in
            state.detach()
            return state.claimPump()
        }
        if pump { self.pump() }
    }

    /// Whether a handler is attached.
    public var hasHandler: Bool {
        storage.withLock { $0.handler != nil }
    }

    /// How many interactions are waiting to be delivered (at most
    /// ``Configuration/queueCapacity`` once no call is delivering).
    public var pendingCount: Int {
        storage.withLock { $0.pending.count }
    }

    // MARK: Internals

    private func admit(_ inputs: [InputEvent], phase: Phase, fromLaunchOptions: Bool) -> [Admission] {
        let arrivals = inputs.map { prepare($0, phase: phase, fromLaunchOptions: fromLaunchOptions) }
        let reading = clock.nanoseconds()
        let (admissions, pump) = storage.withLock { state in
            let now = state.monotonic(reading)
            state.releaseHeld(olderThan: state.window, now: now)
            let admissions = arrivals.map { state.admit($0, now: now) }
            return (admissions, state.claimPump())
        }
        if pump { self.pump() }
        return admissions
    }

    private func admit(_ input: InputEvent, phase: Phase) -> Admission {
        let arrival = prepare(input, phase: phase, fromLaunchOptions: false)
        let reading = clock.nanoseconds()
        let (admission, pump) = storage.withLock { state in
            let now = state.monotonic(reading)
            state.releaseHeld(olderThan: state.window, now: now)
            return (state.admit(arrival, now: now), state.claimPump())
        }
        if pump { self.pump() }
        return admission
    }

    /// Normalizes one input, outside the lock (it is pure and may be slow).
    private func prepare(_ input: InputEvent, phase: Phase, fromLaunchOptions: Bool) -> Arrival {
        var input = input
        let effectivePhase = input.phase ?? phase
        input.phase = effectivePhase
        let result: Result<Resolution, NormalizationError>
        do {
            // The registry copies the input's phase into the interaction.
            result = .success(try registry.resolve(input))
        } catch {
            result = .failure(error)
        }
        let identity = NotificationIdentity(input)
        return Arrival(
            input: input,
            phase: effectivePhase,
            result: result,
            notification: identity,
            actionUnknown: fromLaunchOptions && identity != nil && input.action == nil
        )
    }

    /// Delivers and notifies until there is nothing left to do. Only the caller that
    /// claimed the pump runs this, so handler, opener and observer calls never overlap.
    private func pump() {
        while let work = storage.withLock({ $0.nextWork() }) {
            switch work {
            case .notify(let events):
                if let observer {
                    for event in events { observer.observe(event) }
                }
            case .deliver(let handler, let attachment, let entry):
                deliver(entry, to: handler, attachment: attachment)
            }
        }
    }

    /// Hands one entry to the handler and acts on its answer, if it counts (see
    /// `Storage.settle`): reports the delivery, opens the URL or puts the app link to
    /// re-dispatch at the front of the queue.
    private func deliver(_ entry: Entry, to handler: any InteractionHandler, attachment: UInt64) {
        let delivery = Delivery(
            sequence: entry.sequence,
            interaction: entry.interaction,
            phase: entry.phase,
            input: entry.input,
            origin: entry.origin
        )
        let result = handler.handle(delivery)
        let interaction = delivery.interaction
        let source = URLSource(channel: interaction.channel)

        // What the answer asks for, prepared outside the lock (normalizing is pure and may
        // be slow); none of it happens unless the answer counts.
        var request: (URLOpenRequest, target: URLTarget)?
        var redispatch: (url: String, outcome: Result<Entry, NormalizationError>)?
        if result == .notHandled, interaction.handling == .automatic, case .url(let url, let target) = interaction.destination {
            if let presentation = URLPresentation(target: target) {
                request = (URLOpenRequest(url: url, presentation: presentation, source: source, delivery: delivery), target)
            } else if delivery.origin == nil {
                // target: app. The system would open the app's own universal link in
                // Safari, so the link goes back to the handler instead, once.
                let input = InputEvent.url(url, phase: delivery.phase)
                do {
                    let link = try registry.normalize(input)
                    redispatch = (url, .success(Storage.redispatch(link, input: input, from: delivery)))
                } catch {
                    redispatch = (url, .failure(error))
                }
            }
        }
        let link = try? redispatch?.outcome.get()
        let counted = storage.withLock { $0.settle(entry, attachment: attachment, result: result, link: link) }
        guard counted else { return }

        observer?.observe(.delivered(delivery, result: result))
        // A link that opened the app (DashX's `deep_link_opened` with source universal link
        // or scene URL). A re-dispatched link was already reported as opened below.
        var reportedLink: String?
        if delivery.origin == nil, let link = delivery.input.link,
            interaction.channel == .universalLink || interaction.channel == .customScheme
        {
            observer?.observe(.openedURL(OpenedURL(url: link, target: .app, source: source, delivery: delivery)))
            reportedLink = link
        }
        if let (request, target) = request {
            opener.open(request)
            observer?.observe(.openedURL(OpenedURL(url: request.url, target: target, source: source, delivery: delivery)))
        }
        if let redispatch {
            if reportedLink != redispatch.url {
                observer?.observe(.openedURL(OpenedURL(url: redispatch.url, target: .app, source: source, delivery: delivery)))
            }
            if case .failure(let error) = redispatch.outcome {
                observer?.observe(.unrecognized(.url(redispatch.url, phase: delivery.phase), error: error))
            }
        }
    }
}

/// What became of one input passed to a ``Dispatcher`` entry point.
public enum Admission: Sendable, Hashable {
    /// It was accepted under this sequence number and is delivered when a handler is
    /// attached (it may already have been).
    case queued(sequence: UInt64)
    /// It completed the launch-options notification numbered `into`, which was still
    /// waiting: that one is delivered with this input's action.
    case merged(into: UInt64)
    /// It is the same interaction as the one numbered `of`, seen within the
    /// de-duplication window; it was dropped (and the observer told) under this sequence
    /// number.
    case duplicate(sequence: UInt64, of: UInt64)
    /// It could not be normalized (and the observer was told).
    case failed(NormalizationError)

    /// The sequence number this input was given, when it was accepted or dropped as a
    /// duplicate.
    public var sequence: UInt64? {
        switch self {
        case .queued(let sequence), .duplicate(let sequence, _): sequence
        case .merged, .failed: nil
        }
    }
}
