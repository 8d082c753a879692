public import TapRoute

/// Opens URLs the dispatcher decided to open itself: an interaction with `handling:
/// automatic` whose handler answered `notHandled`.
///
/// The dispatcher only ever asks for two things: the system opens a URL (`target:
/// external`: `UIApplication.open(_:)`), or an in-app browser shows it (`target:
/// inAppBrowser`: `SFSafariViewController`). A URL with `target: app` is never sent here;
/// the dispatcher re-dispatches it to the app's handler as a link instead, because handing
/// the app's own universal link to the system would open it in Safari.
///
/// Calls are serialized with the handler's and run on the same thread; an implementation
/// that needs the main actor hops there itself (`docs/dispatcher.md` shows the UIKit one).
public protocol URLOpening: Sendable {
    /// Opens one URL.
    /// - Parameter request: the URL, how to present it, and the interaction it came from.
    func open(_ request: URLOpenRequest)
}

/// A URL the dispatcher asks a ``URLOpening`` to open.
public struct URLOpenRequest: Sendable, Hashable {
    /// The URL, exactly as the interaction carries it (it already passed the configuration's
    /// URL safety rules).
    public var url: String
    /// How to present it.
    public var presentation: URLPresentation
    /// Where the URL came from.
    public var source: URLSource
    /// The delivery whose handler answered `notHandled`.
    public var delivery: Delivery

    /// Creates a request.
    public init(url: String, presentation: URLPresentation, source: URLSource, delivery: Delivery) {
        self.url = url
        self.presentation = presentation
        self.source = source
        self.delivery = delivery
    }
}

/// How a URL is presented.
public enum URLPresentation: String, Sendable, Hashable, CaseIterable {
    /// The system opens it (`UIApplication.open(_:)`): Safari, another app, the phone app.
    /// Used for `target: external`.
    case system
    /// An in-app browser shows it (`SFSafariViewController`). Used for `target:
    /// inAppBrowser`, which the policy only leaves on http(s) URLs.
    case inAppBrowser

    /// The presentation for a URL target, or `nil` for `app` (which is never opened by the
    /// system).
    public init?(target: URLTarget) {
        switch target {
        case .external: self = .system
        case .inAppBrowser: self = .inAppBrowser
        case .app: return nil
        }
    }
}

/// Where a URL that was opened came from, for analytics (DashX's `deepLinkOpened` carries
/// the same distinction).
public enum URLSource: String, Sendable, Hashable, CaseIterable {
    /// A push or local notification (its body or one of its buttons).
    case notification
    /// An http(s) link that opened the app (a universal link).
    case universalLink
    /// A custom-scheme link that opened the app.
    case customScheme
    /// An in-app message (its body, a button, or a click URL).
    case inAppMessage

    /// The source for an interaction's channel.
    public init(channel: Channel) {
        switch channel {
        case .push, .local: self = .notification
        case .universalLink: self = .universalLink
        case .customScheme: self = .customScheme
        case .inApp: self = .inAppMessage
        }
    }
}
