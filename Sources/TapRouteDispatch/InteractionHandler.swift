public import TapRoute

/// The app's side of the dispatcher: it receives every interaction and says whether it
/// acted on it.
///
/// The dispatcher calls ``handle(_:)`` once per interaction, in arrival order, and never
/// concurrently: calls are serialized even when events arrive on several threads. The call
/// runs on the thread that made the dispatcher call which delivered it (an entry point, or
/// ``Dispatcher/attach(_:)``). In a UIKit or SwiftUI app every entry point is called on the
/// main thread, so the handler runs there too; see `docs/dispatcher.md`.
///
/// The handler may call back into the dispatcher (attach, detach, or pass another event);
/// the dispatcher holds no lock while calling it. An event passed from inside `handle(_:)`
/// is delivered after the current call returns.
///
/// An answer of ``HandlerResult/notHandled`` counts only if this handler is still the
/// attached one when it returns: after a `detach()` (a logout) or an `attach(_:)` of
/// another handler during the call, nothing is opened and the interaction is delivered
/// again to the next handler. ``HandlerResult/handled`` always counts.
///
/// ```swift
/// final class Router: InteractionHandler {
///     func handle(_ delivery: Delivery) -> HandlerResult {
///         guard case .screen(let name, let parameters, _) = delivery.interaction.destination else {
///             return .notHandled   // let TapRoute open URLs it is allowed to open
///         }
///         show(name, parameters)
///         return .handled
///     }
/// }
/// ```
public protocol InteractionHandler: Sendable {
    /// Acts on one interaction.
    ///
    /// - Parameter delivery: the interaction, its phase and where it came from.
    /// - Returns: ``HandlerResult/handled`` when the app took care of it (TapRoute then opens
    ///   nothing), ``HandlerResult/notHandled`` to let TapRoute open the destination when its
    ///   `handling` is `automatic`.
    func handle(_ delivery: Delivery) -> HandlerResult
}

/// What an ``InteractionHandler`` did with an interaction.
public enum HandlerResult: String, Sendable, Hashable, CaseIterable {
    /// The app acted on it; TapRoute does nothing more.
    case handled
    /// The app did not act on it; when its `handling` is `automatic`, TapRoute opens the
    /// destination (see ``Dispatcher``).
    case notHandled
}

/// One interaction handed to the app.
public struct Delivery: Sendable, Hashable {
    /// The dispatcher's number for the input that produced it, in arrival order (starting at
    /// 1). A link re-dispatched from an interaction keeps that interaction's number.
    public var sequence: UInt64
    /// The normalized interaction; its `phase` equals ``phase``.
    public var interaction: Interaction
    /// `cold` when the interaction launched the app, `warm` when the app was running.
    public var phase: Phase
    /// The input event it was normalized from.
    public var input: InputEvent
    /// For an app link that the dispatcher re-dispatched (a `url` destination with target
    /// `app` whose handler answered `notHandled`): the interaction whose URL it is, so the
    /// app can still attribute the link to its notification or in-app message. `nil`
    /// otherwise.
    public var origin: Interaction?

    /// Creates a delivery.
    public init(sequence: UInt64, interaction: Interaction, phase: Phase, input: InputEvent, origin: Interaction? = nil) {
        self.sequence = sequence
        self.interaction = interaction
        self.phase = phase
        self.input = input
        self.origin = origin
    }
}
