/// An adapter that can also write its vendor's payload: from an ``OutgoingMessage`` to the
/// input its SDK hands the app (a notification's `userInfo`, a vendor event), which
/// ``PayloadAdapter/read(_:using:)`` reads back to the same destination, buttons, data and
/// message id.
///
/// The registry checks a message against ``encodingCapabilities`` before it calls
/// ``encode(_:)``, so an encoder only sees what it declared it can express; what it cannot is
/// an ``EncodingError`` naming the field and the vendor (or, for a screen, the URL of the
/// app's route to it, when ``EncodeOptions/screens`` asks for that).
///
/// ```swift
/// extension AcmeAdapter: MessageEncoding {
///     var encodingCapabilities: EncodingCapabilities { EncodingCapabilities(destinations: [.app, .url]) }
///     func encode(_ message: OutgoingMessage) throws(EncodingError) -> InputEvent {
///         var acme = JSONObject()
///         if case .url(let url, _) = message.destination { acme["link"] = .string(url) }
///         return InputEvent(.notification(userInfo: ["aps": message.apsAlert, "acme": .object(acme)], action: nil, origin: .remote))
///     }
/// }
/// ```
///
/// The conformance kit (`TapRouteConformance`) holds every encoder to the round trip: reading
/// the payload back gives the message (`EncodeRoundTrip`).
public protocol MessageEncoding: Sendable {
    /// Whether this adapter encodes at all; `true` unless an implementation says otherwise (a
    /// ``DefinitionAdapter`` encodes when its definition has an `encode` section).
    var encodes: Bool { get }
    /// What the vendor's payload can express.
    var encodingCapabilities: EncodingCapabilities { get }
    /// The vendor's payload for a message within ``encodingCapabilities``.
    /// - Throws: ``EncodingError`` for what the payload cannot carry that the capabilities do
    ///   not describe (a value the vendor limits, say).
    func encode(_ message: OutgoingMessage) throws(EncodingError) -> InputEvent
}

extension MessageEncoding {
    /// An adapter that conforms encodes.
    public var encodes: Bool { true }
}

/// The kinds of ``Destination``, for saying which a vendor can express.
public enum DestinationKind: String, Sendable, Hashable, CaseIterable {
    /// ``Destination/app``.
    case app
    /// ``Destination/url(_:target:)`` with target `app` or `external` (the app's schemes and
    /// domains decide which).
    case url
    /// ``Destination/url(_:target:)`` with target `inAppBrowser`.
    case inAppBrowser
    /// ``Destination/screen(name:parameters:url:)``.
    case screen
    /// ``Destination/clickAction(_:)``.
    case clickAction
    /// ``Destination/none``.
    case none

    /// The kind of a destination.
    public init(_ destination: Destination) {
        switch destination {
        case .app: self = .app
        case .url(_, let target): self = target == .inAppBrowser ? .inAppBrowser : .url
        case .screen: self = .screen
        case .clickAction: self = .clickAction
        case .none: self = .none
        }
    }
}

/// What a vendor's payload can express, checked before its encoder runs.
public struct EncodingCapabilities: Sendable, Hashable {
    /// The destinations a tap on the notification can have.
    public var destinations: Set<DestinationKind>
    /// The destinations a button can have; empty when the vendor has no buttons.
    public var buttonDestinations: Set<DestinationKind>
    /// Whether a button's label reaches the app (it is read back as the button's `label`).
    public var buttonLabels: Bool
    /// Whether every button needs a label (the vendor's SDK drops a button without one).
    public var requiresButtonLabels: Bool
    /// Whether a button's label is also its id (the vendor's buttons have no id of their own,
    /// and its SDK reports the label): a button's id must equal its label.
    public var buttonIDsAreLabels: Bool
    /// The screens the vendor can name, each with the exact set of parameter names it takes,
    /// when it takes only some (TapTalk's chat room and its `roomID`); `nil`: any screen.
    public var screens: [String: Set<String>]?
    /// The URL schemes a URL destination may have (lower case), when the vendor's SDK takes
    /// only some (`http`, `https` for a link handed over as a web page); `nil`: any.
    public var urlSchemes: Set<String>?
    /// Whether the payload carries a message id the adapter reads back.
    public var messageId: Bool
    /// Whether the vendor's payload needs a message id (its SDK recognizes a push by it).
    public var requiresMessageId: Bool
    /// Whether custom data reaches the app as the interaction's `payload`.
    public var data: Bool
    /// Keys of the payload's root the vendor uses itself, which custom data may not have
    /// (for a vendor whose custom data sits beside its own keys).
    public var reservedDataKeys: Set<String>
    /// Prefixes of such keys (`gcm.`, `wzrk_`).
    public var reservedDataKeyPrefixes: [String]

    /// Creates the capabilities; by default a vendor has no buttons and no custom data.
    public init(
        destinations: Set<DestinationKind>,
        buttonDestinations: Set<DestinationKind> = [],
        buttonLabels: Bool = true,
        requiresButtonLabels: Bool = false,
        buttonIDsAreLabels: Bool = false,
        urlSchemes: Set<String>? = nil,
        screens: [String: Set<String>]? = nil,
        messageId: Bool = true,
        requiresMessageId: Bool = false,
        data: Bool = false,
        reservedDataKeys: Set<String> = [],
        reservedDataKeyPrefixes: [String] = []
    ) {
        self.destinations = destinations
        self.buttonDestinations = buttonDestinations
        self.buttonLabels = buttonLabels
        self.requiresButtonLabels = requiresButtonLabels
        self.buttonIDsAreLabels = buttonIDsAreLabels
        self.urlSchemes = urlSchemes
        self.screens = screens
        self.messageId = messageId
        self.requiresMessageId = requiresMessageId
        self.data = data
        self.reservedDataKeys = reservedDataKeys
        self.reservedDataKeyPrefixes = reservedDataKeyPrefixes
    }

    /// Whether a data key is one the vendor keeps for itself.
    public func reserves(_ key: String) -> Bool {
        reservedDataKeys.contains(key) || reservedDataKeyPrefixes.contains { key.hasPrefix($0) }
    }
}

/// How ``AdapterRegistry/encode(_:vendor:options:)`` treats what a vendor cannot express.
public struct EncodeOptions: Sendable, Hashable {
    /// What to do with a screen destination a vendor cannot express.
    public enum ScreenFallback: String, Sendable, Hashable, CaseIterable {
        /// An ``EncodingError`` (`cannotExpress`) naming the field.
        case error
        /// The URL of the configuration's route to that screen, which the registry reads back
        /// as the same screen; an error when no route leads there with those parameters.
        case route
    }

    /// What to do with a screen destination a vendor cannot express; `error` by default.
    public var screens: ScreenFallback

    /// Creates options.
    public init(screens: ScreenFallback = .error) {
        self.screens = screens
    }
}

/// Why a message could not be encoded for a vendor: a ``Code`` to switch on, the vendor, the
/// field of the message at fault (a JSONPath such as `$.buttons[1].destination`) and a
/// sentence.
public struct EncodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of failure.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// No adapter has this id.
        case unknownVendor
        /// The adapter has no encoder (it does not conform to ``MessageEncoding``, or its
        /// definition has no `encode` section).
        case noEncoder
        /// The vendor's payload cannot carry this field (a screen for a vendor with only URLs,
        /// a button destination for a vendor without buttons, …).
        case cannotExpress
        /// The message itself is not valid JSON of the message form.
        case invalidMessage
    }

    /// What kind of failure.
    public let code: Code
    /// The vendor id asked for.
    public let vendor: String
    /// The message field at fault, as a JSONPath (`$` for the whole message).
    public let field: String
    /// What is wrong, in a sentence.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, vendor: String, field: String, _ message: String) {
        self.code = code
        self.vendor = vendor
        self.field = field
        self.message = message
    }

    /// `vendor: field: message`.
    public var description: String { "\(vendor): \(field): \(message)" }
}

extension OutgoingMessage {
    /// The `aps` dictionary of an APNs payload showing this message's alert: `alert` with
    /// `title` (when there is one) and `body`, and `category` when there are buttons (the
    /// category the app registers for them is the vendor's to name; this is a placeholder an
    /// encoder may replace).
    public var apsAlert: JSONValue {
        var alert = JSONObject()
        if let title { alert["title"] = .string(title) }
        alert["body"] = .string(body)
        return .object(["alert": .object(alert)])
    }
}
