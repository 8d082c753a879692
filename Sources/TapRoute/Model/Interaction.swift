/// The canonical answer to "the user tapped something — where should the app go, and who
/// opens it?".
///
/// Every adapter turns its vendor's payload into an `Interaction`; the registry then applies
/// the configuration's policy (URL safety, target classification, routes, handling). Its JSON
/// form (``jsonValue``) is the contract documented in `docs/model.md` and
/// `docs/interaction.schema.json`.
public struct Interaction: Sendable, Hashable {
    // `channel` comes before `vendor` so that the memberwise initializer the compiler
    // synthesizes (its labels in declaration order) differs from the public one, which is in
    // an extension and delegates to it: see `init(vendor:channel:trigger:destination:…)`.

    /// How the interaction reached the app.
    public var channel: Channel
    /// The id of the adapter that produced it: `adobe`, `bird`, `dashx`, `taptalk`, `link`, or
    /// a third-party adapter's id.
    public var vendor: String
    /// What the user did.
    public var trigger: Trigger
    /// Where the user should go.
    public var destination: Destination
    /// Who opens the destination.
    public var handling: Handling
    /// The vendor's id for the message, when it has one.
    public var messageId: String?
    /// The custom data the sender attached, without vendor envelope keys.
    public var payload: JSONObject
    /// Vendor fields needed to report the interaction back.
    public var tracking: JSONObject
    /// The action buttons the message offered, each with its resolved destination.
    public var buttons: [Button]
    /// Cold launch or warm continue, when the input said which.
    public var phase: Phase?
    /// What was recovered, dropped, or differs between the vendor's iOS and Android SDKs.
    public var warnings: [Warning]
}

extension Interaction {
    /// Creates an interaction.
    ///
    /// Adapters set `handling` to what the vendor's own SDK would do for this message (its
    /// built-in default); the registry's policy then replaces it according to the
    /// configuration (see ``HandlingPolicy``).
    public init(
        vendor: String,
        channel: Channel,
        trigger: Trigger,
        destination: Destination,
        handling: Handling = .app,
        messageId: String? = nil,
        payload: JSONObject = [:],
        tracking: JSONObject = [:],
        buttons: [Button] = [],
        phase: Phase? = nil,
        warnings: [Warning] = []
    ) {
        // Delegating to the synthesized memberwise initializer: an initializer that assigns
        // each property itself made Swift 6.3 build the value twice, copy one and destroy the
        // other (a retain and a release for each reference it holds), on every record.
        self.init(
            channel: channel,
            vendor: vendor,
            trigger: trigger,
            destination: destination,
            handling: handling,
            messageId: messageId,
            payload: payload,
            tracking: tracking,
            buttons: buttons,
            phase: phase,
            warnings: warnings
        )
    }
}

/// How an interaction reached the app.
public enum Channel: String, Sendable, Hashable, CaseIterable {
    /// A remote (push) notification.
    case push
    /// A local notification.
    case local
    /// An in-app message (alert, fullscreen, modal), including its click URLs.
    case inApp
    /// An http(s) link, whichever envelope brought it.
    case universalLink
    /// A link with any other scheme.
    case customScheme
}

/// What the user did.
public enum Trigger: Sendable, Hashable {
    /// Tapped the notification body or the message itself.
    case tap
    /// Tapped an action button, identified by `id`, with its `label` when known.
    case button(id: String, label: String? = nil)
    /// Dismissed the notification or message.
    case dismiss
    /// Opened a link.
    case open

    /// The trigger for a notification action identifier: `nil` and
    /// `com.apple.UNNotificationDefaultActionIdentifier` are taps,
    /// `com.apple.UNNotificationDismissActionIdentifier` is a dismiss, anything else a button.
    public init(notificationAction action: String?, label: String? = nil) {
        guard let action else {
            self = .tap
            return
        }
        // Both identifiers are 47 bytes long: a button's identifier of another length (most
        // are) is not compared with them.
        if action.utf8.count == NotificationAction.identifierLength {
            if action == NotificationAction.defaultIdentifier {
                self = .tap
                return
            }
            if action == NotificationAction.dismissIdentifier {
                self = .dismiss
                return
            }
        }
        self = .button(id: action, label: label)
    }

    /// The button id, when the trigger is a button.
    public var buttonID: String? {
        if case .button(let id, _) = self { return id }
        return nil
    }
}

/// The notification action identifiers iOS defines.
public enum NotificationAction {
    /// `UNNotificationDefaultActionIdentifier`: the user tapped the notification.
    public static let defaultIdentifier = "com.apple.UNNotificationDefaultActionIdentifier"
    /// `UNNotificationDismissActionIdentifier`: the user dismissed the notification.
    public static let dismissIdentifier = "com.apple.UNNotificationDismissActionIdentifier"
    /// The UTF-8 length of both identifiers.
    static let identifierLength = 47
}

/// Where the user should go.
public enum Destination: Sendable, Hashable {
    /// Just open the app.
    case app
    /// A screen of the app, with string parameters in order, and the link it was routed
    /// from when there was one.
    case screen(name: String, parameters: ScreenParameters = [:], url: String? = nil)
    /// A URL, and who should show it.
    case url(String, target: URLTarget)
    /// A vendor "click action" string (an Android activity or intent action, a category
    /// name) for the app to interpret.
    case clickAction(String)
    /// Nothing to do (a dismiss, a cancel button).
    case none

    /// The URL, when the destination is a ``url(_:target:)``.
    public var url: String? {
        if case .url(let url, _) = self { return url }
        return nil
    }

    /// Whether the destination holds a URL the policy reads: a ``url(_:target:)``, or a
    /// ``screen(name:parameters:url:)`` routed from a link. The policy passes any other as
    /// it is.
    var carriesURL: Bool {
        switch self {
        case .url, .screen(_, _, _?): true
        case .screen, .app, .clickAction, .none: false
        }
    }
}

/// Who should show a URL destination.
public enum URLTarget: String, Sendable, Hashable, CaseIterable {
    /// The URL belongs to this app (a scheme in `app.schemes`, or an https host in
    /// `app.domains` whose universal-link rules accept the path): route it inside the app.
    case app
    /// The system should open it (a web page, another app's scheme, `tel:`, `mailto:`).
    case external
    /// A rich landing page shown in an in-app browser (http and https only).
    case inAppBrowser
}

/// Who opens the destination.
public enum Handling: String, Sendable, Hashable, CaseIterable {
    /// TapRoute opens the destination itself unless the app's handler claims it first.
    case automatic
    /// Only the app's handler acts.
    case app
}

/// Cold launch or warm continue.
public enum Phase: String, Sendable, Hashable, CaseIterable {
    /// The app was launched by the interaction.
    case cold
    /// The app was already running (in the foreground or suspended).
    case warm
}

extension Interaction {
    /// An action button a message offered.
    ///
    /// Nested in ``Interaction`` so that it does not collide with SwiftUI's `Button` in a
    /// file that imports both.
    public struct Button: Sendable, Hashable {
        // `destination` comes first so that the synthesized memberwise initializer differs
        // from the public one, which delegates to it (see `Interaction`'s initializer).

        /// Where tapping this button leads.
        public var destination: Destination
        /// The button's identifier (the notification action identifier on iOS).
        public var id: String
        /// The button's label, when known.
        public var label: String?
    }
}

extension Interaction.Button {
    /// Creates a button.
    public init(id: String, label: String? = nil, destination: Destination) {
        self.init(destination: destination, id: id, label: label)
    }
}

/// Something an adapter or the policy recovered, dropped, or found to differ between a
/// vendor's SDKs.
public struct Warning: Sendable, Hashable, CustomStringConvertible {
    /// A stable camelCase identifier.
    public var code: Code
    /// A sentence for people.
    public var message: String

    /// Creates a warning.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `code: message`.
    public var description: String { "\(code.rawValue): \(message)" }

    /// A stable warning identifier. Adapters define their own as static members in an
    /// extension; the core's are below.
    public struct Code: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// The camelCase identifier.
        public let rawValue: String
        /// Creates a code.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Creates a code from a literal.
        public init(stringLiteral value: String) { self.rawValue = value }
        /// The identifier.
        public var description: String { rawValue }

        /// A URL failed the safety rules and was dropped; the destination became `app`.
        public static let urlRejected: Code = "urlRejected"
        /// A URL held characters `URL(string:)` percent-encodes on iOS 17 and later (a space,
        /// `<`, non-ASCII text, …); TapRoute uses the URL as iOS 17 repairs it, which passed
        /// the safety rules. Before iOS 17 the vendor's SDK drops the tap.
        public static let urlRepaired: Code = "urlRepaired"
        /// A rich landing URL that is not http(s) cannot be shown in an in-app browser.
        public static let richLandingNotWeb: Code = "richLandingNotWeb"
        /// The vendor's iOS and Android SDKs behave differently here.
        public static let androidDiffers: Code = "androidDiffers"
        /// The vendor's iOS SDK would drop this tap; TapRoute kept the evident intent.
        public static let iOSWouldDrop: Code = "iOSWouldDrop"
        /// The tapped action identifier matches none of the buttons the message offered (or it
        /// offered none); the destination is `app`, never a place the user did not choose.
        public static let unknownButton: Code = "unknownButton"
        /// The message's action buttons, or one of them, could not be read and were skipped.
        public static let invalidActionButtons: Code = "invalidActionButtons"
        /// A universal link on an app domain was refused by the domain's AASA rules.
        public static let universalLinkExcluded: Code = "universalLinkExcluded"
    }
}

/// The parameters of a screen destination (named `ScreenParameters` so that it does not
/// collide with Hummingbird's `Parameters`): string names and values, in order (captured
/// path segments first, then query items), with unique names.
///
/// More than 16 parameters also keep a hash index of their names, so that building and
/// lookup stay constant-time per name however many query items a URL has.
public struct ScreenParameters: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// One parameter.
    public typealias Element = (name: String, value: String)

    private static let indexThreshold = 16

    private var storage: [Element]
    /// The position of each name in `storage`; `nil` while there are few. Names are told
    /// apart by their UTF-8 bytes, as object keys are (``JSONObject``).
    private var index: [JSONObject.IndexKey: Int]?

    /// Creates parameters from a dictionary literal, in the literal's order.
    public init(dictionaryLiteral elements: (String, String)...) {
        storage = []
        index = nil
        for (name, value) in elements { self[name] = value }
    }

    /// Creates parameters from pairs in order; a repeated name keeps its first value.
    public init<S: Sequence>(_ pairs: S) where S.Element == (String, String) {
        self.init(Array(pairs))
    }

    /// Creates parameters from an array of pairs in order; a repeated name keeps its first
    /// value. Not generic, so that a call from another module (an adapter) runs compiled code
    /// rather than the generic initializer unspecialized; the generic one goes through it.
    public init(_ pairs: [(String, String)]) {
        storage = []
        storage.reserveCapacity(pairs.count)
        index = nil
        for (name, value) in pairs where self[name] == nil { self[name] = value }
    }

    /// Parameters from pairs whose names the caller knows to differ (an object's members),
    /// taken as they are: no search for a repeated name. The pairs are labeled as `Element`
    /// is, so that the array is kept rather than converted element by element (an array of
    /// unlabeled pairs is copied into a new one to relabel it).
    package init(uniqueNames pairs: [Element]) {
        storage = pairs
        index = pairs.count > Self.indexThreshold ? Self.makeIndex(pairs) : nil
    }

    /// The number of parameters.
    public var count: Int { storage.count }
    /// Whether there are none.
    public var isEmpty: Bool { storage.isEmpty }
    /// The names, in order.
    public var names: [String] { storage.map(\.name) }

    private func position(of name: String) -> Int? {
        if let index { return index[JSONObject.IndexKey(name)] }
        return storage.firstIndex { $0.name.hasSameUTF8(as: name) }
    }

    private static func makeIndex(_ storage: [Element]) -> [JSONObject.IndexKey: Int] {
        var index: [JSONObject.IndexKey: Int] = [:]
        index.reserveCapacity(storage.count)
        for (i, element) in storage.enumerated() { index[JSONObject.IndexKey(element.name)] = i }
        return index
    }

    /// The value for `name`; setting replaces in place, or appends; `nil` removes.
    public subscript(name: String) -> String? {
        get { position(of: name).map { storage[$0].value } }
        set {
            if let i = position(of: name) {
                if let newValue {
                    storage[i].value = newValue
                } else {
                    storage.remove(at: i)
                    if index != nil { index = storage.count > Self.indexThreshold ? Self.makeIndex(storage) : nil }
                }
            } else if let newValue {
                // Parameters set one by one (a route's captures and query items) start with
                // room for four instead of growing from one.
                if storage.capacity == 0 { storage.reserveCapacity(4) }
                storage.append((name, newValue))
                if index != nil {
                    index?[JSONObject.IndexKey(name)] = storage.count - 1
                } else if storage.count > Self.indexThreshold {
                    index = Self.makeIndex(storage)
                }
            }
        }
    }

    /// Returns an iterator over the parameters in order.
    public func makeIterator() -> IndexingIterator<[Element]> { storage.makeIterator() }

    /// Parameters are equal when they have the same names and values, in any order.
    public static func == (lhs: ScreenParameters, rhs: ScreenParameters) -> Bool {
        lhs.count == rhs.count && lhs.storage.allSatisfy { rhs[$0.name] == $0.value }
    }

    /// Hashes without regard to order, consistent with `==`.
    public func hash(into hasher: inout Hasher) {
        hashUnordered(storage.lazy.map { ($0.name, $0.value) }, into: &hasher)
    }
}
