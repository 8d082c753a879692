public import TapRoute

/// Sees everything the dispatcher does: the analytics and logging hook.
///
/// The observer is told, as a ``DispatchEvent``:
/// - every interaction delivered to the handler, with its phase and the handler's answer
///   (emit DashX-style `navigated` from here),
/// - every URL opened, with its source (`deepLinkOpened`): by the system or an in-app
///   browser, or in the app (a link that opened it, or an app link re-dispatched from a
///   notification),
/// - every URL the configuration's safety rules rejected,
/// - every input that could not be normalized,
/// - every interaction dropped: pushed out of the full queue, or a duplicate.
///
/// ``DispatchEvent/delivered(_:result:)`` is told only for a handler call whose answer
/// counted (see ``Dispatcher``): a call that answered `notHandled` after its handler was
/// detached or replaced is not a delivery, and the interaction is delivered again later.
///
/// Calls are serialized with the handler's (never concurrent, never while the dispatcher
/// holds its lock) and may come from any thread that called the dispatcher; an observer
/// that needs the main actor hops there itself.
public protocol InteractionObserver: Sendable {
    /// Records one event.
    func observe(_ event: DispatchEvent)
}

/// Something the dispatcher did, as told to an ``InteractionObserver``.
public enum DispatchEvent: Sendable, Hashable {
    /// An interaction was handed to the handler, which answered `result`.
    case delivered(Delivery, result: HandlerResult)
    /// A URL was opened: by the system or an in-app browser through ``URLOpening``; as an
    /// app link re-dispatched to the handler; or as a universal or custom-scheme link that
    /// opened the app and was delivered to the handler (told after its
    /// ``delivered(_:result:)``, whatever the handler answered).
    case openedURL(OpenedURL)
    /// A URL in an input failed the configuration's safety rules; the interaction was
    /// delivered with destination `app` (and a `urlRejected` warning).
    case rejectedURL(URLRejection)
    /// An input could not be normalized (no adapter recognized it, or its adapter rejected
    /// the payload); nothing was delivered.
    case unrecognized(InputEvent, error: NormalizationError)
    /// An interaction will never be delivered. (One dropped by overflow is forgotten by
    /// de-duplication, so the same interaction arriving again later is a new arrival.)
    case dropped(DroppedInteraction)
}

/// A URL the dispatcher opened.
public struct OpenedURL: Sendable, Hashable {
    /// The URL.
    public var url: String
    /// `external` (the system opened it), `inAppBrowser`, or `app` (the app's handler got
    /// it: a link that opened the app, or an app link re-dispatched from a notification or
    /// in-app message).
    public var target: URLTarget
    /// Where the URL came from.
    public var source: URLSource
    /// The delivery whose handler answered `notHandled`.
    public var delivery: Delivery

    /// Creates a record.
    public init(url: String, target: URLTarget, source: URLSource, delivery: Delivery) {
        self.url = url
        self.target = target
        self.source = source
        self.delivery = delivery
    }
}

/// A URL the configuration's safety rules rejected.
public struct URLRejection: Sendable, Hashable {
    /// The refused URL: where it was in the interaction, which rule refused it, and the
    /// `urlRejected` warning the interaction carries for it.
    public var rejected: RejectedURL
    /// The dispatcher's number for the input.
    public var sequence: UInt64
    /// The interaction as it will be delivered (the rejected URL replaced by `app`).
    public var interaction: Interaction

    /// Creates a record.
    public init(rejected: RejectedURL, sequence: UInt64, interaction: Interaction) {
        self.rejected = rejected
        self.sequence = sequence
        self.interaction = interaction
    }

    /// The `urlRejected` warning, whose message quotes the URL and says why.
    public var warning: Warning { rejected.warning }
}

/// An interaction the dispatcher will never deliver.
public struct DroppedInteraction: Sendable, Hashable {
    /// The dispatcher's number for the input.
    public var sequence: UInt64
    /// The interaction.
    public var interaction: Interaction
    /// Its phase.
    public var phase: Phase
    /// Why it was dropped.
    public var reason: DropReason
    /// For an app link the dispatcher re-dispatched from a delivered interaction (see
    /// ``Delivery/origin``) and dropped before a handler took it: that interaction. `nil`
    /// otherwise.
    public var origin: Interaction?

    /// Creates a record.
    public init(sequence: UInt64, interaction: Interaction, phase: Phase, reason: DropReason, origin: Interaction? = nil) {
        self.sequence = sequence
        self.interaction = interaction
        self.phase = phase
        self.reason = reason
        self.origin = origin
    }
}

/// Why an interaction was dropped.
public enum DropReason: Sendable, Hashable {
    /// The queue was full (it holds `capacity` waiting interactions, with or without a
    /// handler): the oldest waiting interaction made room for a newer one. It is forgotten
    /// by de-duplication, so it is delivered if it arrives again.
    case queueOverflow(capacity: Int)
    /// The same interaction (same ``DeduplicationKey``) arrived within the de-duplication
    /// window while the one numbered `of` was waiting, being delivered or delivered; that
    /// one is (or was) delivered instead, unless it is itself dropped by overflow later.
    case duplicate(of: UInt64)
}
