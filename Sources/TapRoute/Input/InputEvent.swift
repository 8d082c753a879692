/// What the platform handed the app: a notification response, a URL, a user activity, an
/// in-app message action, or a vendor SDK's interaction object.
///
/// The same events feed the CLI, the registry and the dispatcher. Their JSON form (the
/// "envelope", `docs/model.md`) is read by ``init(json:)``:
///
/// | envelope | platform origin |
/// | --- | --- |
/// | `{"kind":"notification","userInfo":{…},"action":…?,"origin":"remote"\|"local"?}` | `UNNotificationResponse`, `launchOptions[.remoteNotification]` |
/// | `{"kind":"url","url":…,"messageId":…?}` | `scene(_:openURLContexts:)`, in-app message click URLs |
/// | `{"kind":"userActivity","activityType":…,"webpageURL":…}` | `scene(_:continue:)` |
/// | `{"kind":"inAppMessage","message":{…},"action":…?}` | a vendor in-app message and the button pressed |
/// | `{"kind":"vendorEvent","event":{…}}` | an interaction object a vendor SDK hands over |
///
/// A JSON object without `kind` is a remote notification's `userInfo`, tapped with the
/// default action.
public struct InputEvent: Sendable, Hashable {
    /// What arrived.
    public var kind: Kind
    /// The adapter to use, skipping detection.
    public var vendor: String?
    /// Cold launch or warm continue, when the caller knows.
    public var phase: Phase?
    /// A per-event override of the automatic-open policy (what the app passed for this one
    /// event).
    public var automaticallyOpenDeeplinks: Bool?

    /// The kinds of input.
    public enum Kind: Sendable, Hashable {
        /// A notification response: its `userInfo`, the action identifier (`nil` for the
        /// default action) and whether it was remote or local.
        case notification(userInfo: JSONObject, action: String?, origin: NotificationOrigin)
        /// A URL opened in the app, with the in-app message that showed it when known.
        case url(String, messageId: String?)
        /// A user activity, typically `NSUserActivityTypeBrowsingWeb` with its `webpageURL`.
        case userActivity(activityType: String, webpageURL: String)
        /// A vendor in-app message and the button pressed (`nil`: the message itself).
        case inAppMessage(message: JSONObject, action: String?)
        /// An interaction object a vendor SDK hands over.
        case vendorEvent(JSONObject)

        /// The envelope's `kind` string.
        public var name: String {
            switch self {
            case .notification: "notification"
            case .url: "url"
            case .userActivity: "userActivity"
            case .inAppMessage: "inAppMessage"
            case .vendorEvent: "vendorEvent"
            }
        }
    }

    /// Where a notification came from.
    public enum NotificationOrigin: String, Sendable, Hashable, CaseIterable {
        /// A push notification.
        case remote
        /// A local notification.
        case local
    }

    /// The activity type of a universal link.
    public static let browsingWebActivityType = "NSUserActivityTypeBrowsingWeb"

    /// A notification response.
    public static func notification(
        userInfo: JSONObject,
        action: String? = nil,
        origin: NotificationOrigin = .remote,
        phase: Phase? = nil
    ) -> InputEvent {
        InputEvent(.notification(userInfo: userInfo, action: action, origin: origin), phase: phase)
    }

    /// A URL opened in the app.
    public static func url(_ url: String, messageId: String? = nil, phase: Phase? = nil) -> InputEvent {
        InputEvent(.url(url, messageId: messageId), phase: phase)
    }

    /// A universal link delivered as a browsing-web user activity.
    public static func userActivity(webpageURL: String, phase: Phase? = nil) -> InputEvent {
        InputEvent(.userActivity(activityType: browsingWebActivityType, webpageURL: webpageURL), phase: phase)
    }

    /// The link this event carries, when it is a `url` or a browsing-web `userActivity`.
    public var link: String? {
        switch kind {
        case .url(let url, _): url
        case .userActivity(_, let url): url
        default: nil
        }
    }

    /// The notification action identifier, for notifications and in-app messages.
    public var action: String? {
        switch kind {
        case .notification(_, let action, _), .inAppMessage(_, let action): action
        default: nil
        }
    }
}

extension InputEvent {
    /// Creates an event.
    public init(_ kind: Kind, vendor: String? = nil, phase: Phase? = nil, automaticallyOpenDeeplinks: Bool? = nil) {
        // The initializers are in extensions and delegate to the memberwise one the compiler
        // synthesizes: one that assigns each property itself made Swift 6.3 build the event
        // twice, copy one and destroy the other (see `Interaction`'s initializer).
        self.init(kind: kind, vendor: vendor, phase: phase, automaticallyOpenDeeplinks: automaticallyOpenDeeplinks)
    }

    /// Reads an envelope (docs/model.md, "Input envelopes").
    ///
    /// - Throws: ``NormalizationError`` with code `notAnObject` when `json` is not an object,
    ///   or `invalidEnvelope` naming the key at fault.
    public init(json: JSONValue) throws(NormalizationError) {
        guard case .object(let o) = json else {
            throw NormalizationError(
                .notAnObject,
                "expected a JSON object, got \(json.typeDescription)",
                cause: .notAnObject(found: json.typeDescription)
            )
        }
        try self.init(envelope: o)
    }

    /// Reads an envelope object.
    /// - Throws: ``NormalizationError`` (`invalidEnvelope`) naming the key at fault.
    public init(envelope o: JSONObject) throws(NormalizationError) {
        guard let kindValue = o["kind"] else {
            self.init(.notification(userInfo: o, action: nil, origin: .remote))
            return
        }
        // Which members are there, from one pass over the keys: most envelopes carry only
        // `kind` and the payload, and an absent member is then not looked up.
        var present = PresentMembers()
        o.forEachKey { present.note($0) }
        var members = ObjectEnvelope(object: o, present: present)
        try self.init(kind: kindValue, members: &members)
    }

    /// Reads an envelope whose `kind` member is `kindValue` from its other `members`: an
    /// object's (``init(envelope:)``) or those a record's reader kept as it parsed them
    /// (``EnvelopeFields``), with the same outcome and the same errors.
    init(kind kindValue: JSONValue, members: inout some EnvelopeMembers) throws(NormalizationError) {
        guard case .string(let kindName) = kindValue else { throw EnvelopeError.wrongType(kindValue, key: "kind", expected: "a string") }
        func string(_ member: EnvelopeMember) throws(NormalizationError) -> String {
            let key = member.key
            guard let value = members.take(member) else { throw EnvelopeError.missing(key, kind: kindName) }
            guard case .string(let s) = value else { throw EnvelopeError.wrongType(value, key: key, expected: "a string") }
            return s
        }
        func optionalString(_ member: EnvelopeMember) throws(NormalizationError) -> String? {
            guard let value = members[member], !value.isNull else { return nil }
            guard case .string(let s) = value else { throw EnvelopeError.wrongType(value, key: member.key, expected: "a string") }
            return s
        }
        func object(_ member: EnvelopeMember) throws(NormalizationError) -> JSONObject {
            let key = member.key
            guard let value = members.take(member) else { throw EnvelopeError.missing(key, kind: kindName) }
            guard case .object(let object) = value else { throw EnvelopeError.wrongType(value, key: key, expected: "an object") }
            return object
        }
        let kind: Kind
        switch kindName {
        case "notification":
            // No `origin` is a remote notification. A name is compared by its bytes rather
            // than by the raw value's initializer, which searches its cases' names through
            // the standard library (about 120 instructions a record); the names are ASCII,
            // which has no other spelling of the same text.
            var origin = NotificationOrigin.remote
            if let originName = try optionalString(.origin) {
                let named: NotificationOrigin? =
                    originName.hasSameUTF8(as: "remote") ? .remote : originName.hasSameUTF8(as: "local") ? .local : nil
                guard let named else { throw EnvelopeError.notOneOf(originName, key: "origin", expected: "'remote' or 'local'") }
                origin = named
            }
            kind = .notification(userInfo: try object(.userInfo), action: try optionalString(.action), origin: origin)
        case "url":
            kind = .url(try string(.url), messageId: try optionalString(.messageId))
        case "userActivity":
            kind = .userActivity(
                activityType: try optionalString(.activityType) ?? InputEvent.browsingWebActivityType,
                webpageURL: try string(.webpageURL)
            )
        case "inAppMessage":
            kind = .inAppMessage(message: try object(.message), action: try optionalString(.action))
        case "vendorEvent":
            kind = .vendorEvent(try object(.event))
        default:
            throw EnvelopeError.unknownKind(kindName)
        }
        var phase: Phase?
        if let name = try optionalString(.phase) {
            guard let p = Phase(rawValue: name) else { throw EnvelopeError.notOneOf(name, key: "phase", expected: "'cold' or 'warm'") }
            phase = p
        }
        var automatic: Bool?
        if let value = members[.automaticallyOpenDeeplinks], !value.isNull {
            guard case .bool(let b) = value else {
                throw EnvelopeError.wrongType(value, key: "automaticallyOpenDeeplinks", expected: "a boolean")
            }
            automatic = b
        }
        self.init(kind, vendor: try optionalString(.vendor), phase: phase, automaticallyOpenDeeplinks: automatic)
    }

    /// The envelope JSON form of this event.
    public var jsonValue: JSONValue {
        var o = JSONObject()
        switch kind {
        case .notification(let userInfo, let action, let origin):
            o["kind"] = "notification"
            o["userInfo"] = .object(userInfo)
            if let action { o["action"] = .string(action) }
            o["origin"] = .string(origin.rawValue)
        case .url(let url, let messageId):
            o["kind"] = "url"
            o["url"] = .string(url)
            if let messageId { o["messageId"] = .string(messageId) }
        case .userActivity(let activityType, let webpageURL):
            o["kind"] = "userActivity"
            o["activityType"] = .string(activityType)
            o["webpageURL"] = .string(webpageURL)
        case .inAppMessage(let message, let action):
            o["kind"] = "inAppMessage"
            o["message"] = .object(message)
            if let action { o["action"] = .string(action) }
        case .vendorEvent(let event):
            o["kind"] = "vendorEvent"
            o["event"] = .object(event)
        }
        if let vendor { o["vendor"] = .string(vendor) }
        if let phase { o["phase"] = .string(phase.rawValue) }
        if let automaticallyOpenDeeplinks { o["automaticallyOpenDeeplinks"] = .bool(automaticallyOpenDeeplinks) }
        return .object(o)
    }
}

/// A member of an envelope other than `kind` that ``InputEvent`` reads.
enum EnvelopeMember: UInt16 {
    case userInfo, action, origin, url, messageId, activityType, webpageURL, message, event, phase, vendor
    case automaticallyOpenDeeplinks

    /// The member's key.
    var key: String {
        switch self {
        case .userInfo: "userInfo"
        case .action: "action"
        case .origin: "origin"
        case .url: "url"
        case .messageId: "messageId"
        case .activityType: "activityType"
        case .webpageURL: "webpageURL"
        case .message: "message"
        case .event: "event"
        case .phase: "phase"
        case .vendor: "vendor"
        case .automaticallyOpenDeeplinks: "automaticallyOpenDeeplinks"
        }
    }

    /// The member whose key is `key` — its exact bytes — if any. Lengths first: most keys of
    /// a record's root are `kind` or one of these, and others are told apart by length (and
    /// a first byte); then the bytes.
    init?(key: String) {
        if let tag = JSONObject.smallASCIITag {
            // A key of at most 15 ASCII bytes (every member's but one, and nearly every key
            // a record has) holds its length and bytes in its own two words, as the parser
            // makes it: read from there, and compared with the member's key as two words,
            // where `utf8.count`, `utf8.first`, `==` and the key's getter were a call each
            // (about 100 instructions a key). A member's key is a literal of the same form;
            // were one not, the comparison of the key's bytes below decides.
            let bits = unsafeBitCast(key, to: (UInt64, UInt64).self)
            if bits.1 & JSONObject.tagMask == tag {
                let count = Int(truncatingIfNeeded: bits.1 >> 56) & 0x0F
                guard let (member, expected) = Self.candidate(count: count, first: UInt8(truncatingIfNeeded: bits.0)) else {
                    return nil
                }
                if expected == bits {
                    self = member
                    return
                }
                if expected.1 & JSONObject.tagMask == tag { return nil }
            }
        }
        guard let (member, _) = Self.candidate(count: key.utf8.count, first: key.utf8.first), key.hasSameUTF8(as: member.key) else {
            return nil
        }
        self = member
    }

    /// The only member whose key may be `count` bytes long and start with `first`, with the
    /// two words of its key (the literal's own, read where it is written).
    @inline(__always)
    private static func candidate(count: Int, first: UInt8?) -> (EnvelopeMember, (UInt64, UInt64))? {
        switch count {
        case 3: return (.url, unsafeBitCast("url", to: (UInt64, UInt64).self))
        case 5:
            switch first {
            case UInt8(ascii: "p"): return (.phase, unsafeBitCast("phase", to: (UInt64, UInt64).self))
            case UInt8(ascii: "e"): return (.event, unsafeBitCast("event", to: (UInt64, UInt64).self))
            default: return nil
            }
        case 6:
            switch first {
            case UInt8(ascii: "a"): return (.action, unsafeBitCast("action", to: (UInt64, UInt64).self))
            case UInt8(ascii: "o"): return (.origin, unsafeBitCast("origin", to: (UInt64, UInt64).self))
            case UInt8(ascii: "v"): return (.vendor, unsafeBitCast("vendor", to: (UInt64, UInt64).self))
            default: return nil
            }
        case 7: return (.message, unsafeBitCast("message", to: (UInt64, UInt64).self))
        case 8: return (.userInfo, unsafeBitCast("userInfo", to: (UInt64, UInt64).self))
        case 9: return (.messageId, unsafeBitCast("messageId", to: (UInt64, UInt64).self))
        case 10: return (.webpageURL, unsafeBitCast("webpageURL", to: (UInt64, UInt64).self))
        case 12: return (.activityType, unsafeBitCast("activityType", to: (UInt64, UInt64).self))
        // Longer than a small string: its words are not its bytes, and never equal a small key's.
        case 26: return (.automaticallyOpenDeeplinks, (0, 0))
        default: return nil
        }
    }
}

/// The errors of ``InputEvent/init(kind:members:)``, made out of line: building a message
/// inlines string interpolation, and inlined into the initializer it spread the few
/// instructions every record runs over 21 lines of code, among a thousand that no valid
/// envelope reaches (docs/performance.md, "Forty-sixth round").
enum EnvelopeError {
    /// `key` is missing, and the envelope's `kind` requires it.
    @inline(never)
    static func missing(_ key: String, kind: String) -> NormalizationError {
        .invalidEnvelope("\(key) is required for kind '\(kind)'", path: "$." + key)
    }

    /// `key` holds `value`, where `expected` (such as "a string") is required.
    @inline(never)
    static func wrongType(_ value: JSONValue, key: String, expected: String) -> NormalizationError {
        .invalidEnvelope("\(key) must be \(expected), got \(value.typeDescription)", path: "$." + key)
    }

    /// `key` holds the string `value`, which is none of the names `expected` lists.
    @inline(never)
    static func notOneOf(_ value: String, key: String, expected: String) -> NormalizationError {
        .invalidEnvelope("\(key) must be \(expected), got '\(value)'", path: "$." + key)
    }

    /// The envelope's `kind` is `name`, which is not a kind.
    @inline(never)
    static func unknownKind(_ name: String) -> NormalizationError {
        .invalidEnvelope(
            "unknown kind '\(name)'; expected notification, url, userActivity, inAppMessage or vendorEvent",
            path: "$.kind"
        )
    }
}

/// Where ``InputEvent/init(kind:members:)`` finds an envelope's members.
protocol EnvelopeMembers {
    /// The value of `member`, if the envelope has it.
    subscript(member: EnvelopeMember) -> JSONValue? { get }
    /// The value of `member`, if the envelope has it, for the event to keep: moved out where
    /// the envelope's members are its own (``EnvelopeFields``), so that the event does not
    /// retain what the envelope then releases. Each member is taken at most once.
    mutating func take(_ member: EnvelopeMember) -> JSONValue?
}

extension EnvelopeMembers {
    mutating func take(_ member: EnvelopeMember) -> JSONValue? { self[member] }
}

/// An envelope's members in its object, looked up by key when the object has them.
struct ObjectEnvelope: EnvelopeMembers {
    /// The envelope.
    let object: JSONObject
    /// Which members it has.
    let present: PresentMembers

    subscript(member: EnvelopeMember) -> JSONValue? {
        present.contains(member) ? object[member.key] : nil
    }
}

/// An envelope's members as a record's reader found them (``JSONParser``'s envelope reading,
/// for a record whose first key is `kind`): the last value of each, as an object keeps it,
/// without the object — the root of nearly every record, read only for these members.
struct EnvelopeFields: EnvelopeMembers {
    /// The value of `kind`.
    var kind: JSONValue = .null
    var userInfo: JSONValue?
    var action: JSONValue?
    var origin: JSONValue?
    var url: JSONValue?
    var messageId: JSONValue?
    var activityType: JSONValue?
    var webpageURL: JSONValue?
    var message: JSONValue?
    var event: JSONValue?
    var phase: JSONValue?
    var vendor: JSONValue?
    var automaticallyOpenDeeplinks: JSONValue?

    subscript(member: EnvelopeMember) -> JSONValue? {
        get {
            switch member {
            case .userInfo: userInfo
            case .action: action
            case .origin: origin
            case .url: url
            case .messageId: messageId
            case .activityType: activityType
            case .webpageURL: webpageURL
            case .message: message
            case .event: event
            case .phase: phase
            case .vendor: vendor
            case .automaticallyOpenDeeplinks: automaticallyOpenDeeplinks
            }
        }
        set {
            switch member {
            case .userInfo: userInfo = newValue
            case .action: action = newValue
            case .origin: origin = newValue
            case .url: url = newValue
            case .messageId: messageId = newValue
            case .activityType: activityType = newValue
            case .webpageURL: webpageURL = newValue
            case .message: message = newValue
            case .event: event = newValue
            case .phase: phase = newValue
            case .vendor: vendor = newValue
            case .automaticallyOpenDeeplinks: automaticallyOpenDeeplinks = newValue
            }
        }
    }

    mutating func take(_ member: EnvelopeMember) -> JSONValue? {
        var taken: JSONValue?
        switch member {
        case .userInfo: swap(&taken, &userInfo)
        case .url: swap(&taken, &url)
        case .webpageURL: swap(&taken, &webpageURL)
        case .message: swap(&taken, &message)
        case .event: swap(&taken, &event)
        default: return self[member]
        }
        return taken
    }
}

/// The envelope members an object has, found in one pass over its keys, so that a member
/// it lacks is not looked up.
struct PresentMembers {
    /// Bit `member.rawValue` of each member present.
    private var bits: UInt16 = 0

    /// Adds the member `key` names, if it is one.
    mutating func note(_ key: String) {
        if let member = EnvelopeMember(key: key) { bits |= 1 << member.rawValue }
    }

    /// Whether `member` is present.
    func contains(_ member: EnvelopeMember) -> Bool { bits & 1 << member.rawValue != 0 }
}
