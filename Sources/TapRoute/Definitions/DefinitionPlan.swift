/// The compiled, immutable form of an adapter definition: what the engine runs. Built once by
/// ``DefinitionCompiler``; never re-reads the document. See docs/declarative-adapters.md.
final class DefinitionPlan: Sendable {
    let reads: Set<InputKindName>
    /// `reads` for each kind, so that a run does not hash.
    let readsNotification: Bool
    let readsInAppMessage: Bool
    let readsVendorEvent: Bool
    let readsURL: Bool
    let channel: ChannelRule
    let recognize: DPredicate
    let named: [DValue]
    let reject: [DReject]
    let trigger: [DTriggerRule]?
    let buttons: DButtons?
    let destination: [DDestinationRule]
    let behavior: [DBehaviorRule]
    let messageId: DValue?
    let payload: DPayload?
    let tracking: [(name: String, value: DValue)]
    let warnings: [DWarningRule]

    init(
        reads: Set<InputKindName>,
        channel: ChannelRule,
        recognize: DPredicate,
        named: [DValue],
        reject: [DReject],
        trigger: [DTriggerRule]?,
        buttons: DButtons?,
        destination: [DDestinationRule],
        behavior: [DBehaviorRule],
        messageId: DValue?,
        payload: DPayload?,
        tracking: [(name: String, value: DValue)],
        warnings: [DWarningRule]
    ) {
        self.reads = reads
        self.readsNotification = reads.contains(.notification)
        self.readsInAppMessage = reads.contains(.inAppMessage)
        self.readsVendorEvent = reads.contains(.vendorEvent)
        self.readsURL = reads.contains(.url)
        self.channel = channel
        self.recognize = recognize
        self.named = named
        self.reject = reject
        self.trigger = trigger
        self.buttons = buttons
        self.destination = destination
        self.behavior = behavior
        self.messageId = messageId
        self.payload = payload
        self.tracking = tracking
        self.warnings = warnings
    }
}

/// The input kinds a definition may read.
enum InputKindName: String, Sendable, Hashable, CaseIterable {
    case notification, inAppMessage, vendorEvent, url
}

/// How the channel is chosen.
enum ChannelRule: Sendable {
    case fixed(Channel)
    case origin
    case byKind
}

/// A reference usable where a path is.
enum DReference: Sendable, Hashable {
    case action
    case url
    case key
    case named(Int)
}

/// Where a path starts.
enum DBase: Sendable, Hashable {
    /// The context's base: the root, or the button inside `buttons`.
    case current
    /// The root (`$.`), even inside `buttons`.
    case root
    case reference(DReference)
}

/// One step of a path.
enum DStep: Sendable, Hashable {
    case key(String)
    case index(Int)
    case find(field: String, equals: DOperand)
}

/// What a find step compares with.
enum DOperand: Sendable, Hashable {
    case literal(String)
    case reference(DReference)
}

/// A compiled path.
struct DPath: Sendable, Hashable {
    var base: DBase
    var steps: [DStep]
    /// The JSONPath suffix of the steps, for error paths (`.action['gcm.x'][0]`).
    var display: String
    /// The last key step, for `{@key}`.
    var lastKey: String?
}

/// How strings compare.
enum DMatch: String, Sendable, Hashable {
    case exact, `case`, caseAndSeparators
}

/// A literal to compare with, precomputed for its match.
struct DLiteral: Sendable, Hashable {
    var value: JSONValue
    /// The folded UTF-8 bytes of a string literal under the rule's match.
    var folded: [UInt8]
}

/// A map from spellings to canonical strings.
struct DMap: Sendable {
    var match: DMatch
    var entries: [(folded: [UInt8], canonical: String)]
}

/// How a value is converted.
enum DConversion: Sendable {
    case string
    case text
    case boolean
    case json
    case url(code: Warning.Code, message: DTemplate?)
    case any
}

/// Where a value comes from.
enum DSource: Sendable {
    case path(DPath)
    case first([DPath])
    case firstPresent([DPath])
    case literal(JSONValue)
}

/// A compiled value.
struct DValue: Sendable {
    var source: DSource
    var conversion: DConversion
    var map: DMap?
    var defaultValue: JSONValue?
}

/// JSON types for type tests.
enum DJSONType: Sendable, Hashable {
    case string, number, bool, object, array, null
}

/// A compiled predicate.
indirect enum DPredicate: Sendable {
    case exists(DPath)
    case nonEmpty(DPath)
    case isType(DPath, DJSONType)
    case isTrue(DPath)
    case equals(DPath, DLiteral, DMatch)
    case oneOf(DPath, [DLiteral], DMatch)
    case anyKeyHasPrefix(DPath, String)
    case hasScheme(DPath, [String])
    case origin(InputEvent.NotificationOrigin)
    case all([DPredicate])
    case any([DPredicate])
    case not(DPredicate)
    case always
}

/// A message template.
struct DTemplate: Sendable {
    enum Filter: Sendable { case raw, quoted, type }
    enum Subject: Sendable {
        case path(DPath)
        case key
        case clause
        case value
    }
    enum Part: Sendable {
        case text(String)
        case insert(Subject, Filter)
    }
    var parts: [Part]
}

/// A warning a rule raises.
struct DWarning: Sendable {
    var code: Warning.Code
    var message: DTemplate
}

/// A reject rule.
struct DReject: Sendable {
    var when: DPredicate
    var code: NormalizationError.Code
    var at: DPath?
    var message: DTemplate
}

/// A trigger rule.
struct DTriggerRule: Sendable {
    enum Kind: Sendable {
        case tap, dismiss, open, action
        case button(id: DValue, label: DValue?)
    }
    var when: DPredicate?
    var kind: Kind
}

/// What `ifAbsent` says.
enum DIfAbsent: Sendable {
    case next, app, none
}

/// A destination rule.
struct DDestinationRule: Sendable {
    enum Kind: Sendable {
        case url(DValue, target: DValue?, fixedTarget: URLTarget)
        case screen(DValue, parameters: [(name: String, value: DValue)], url: DValue?)
        case clickAction(DValue)
        case button
        case app
        case none
    }
    var when: DPredicate?
    var kind: Kind
    var ifAbsent: DIfAbsent
    var missing: DWarning?
    var empty: DWarning?
    var wrongType: DWarning?
    var warn: DWarning?
    var behavior: VendorBehavior?
}

/// A behaviour rule.
struct DBehaviorRule: Sendable {
    var when: DPredicate?
    var behavior: VendorBehavior
}

/// The buttons.
struct DButtons: Sendable {
    var from: DPath
    var id: DValue?
    var label: DValue?
    var destination: [DDestinationRule]
}

/// A payload case's handling.
struct DPayloadCase: Sendable {
    var keepAs: String?
    var warn: DWarning?
    var reject: (code: NormalizationError.Code, message: DTemplate)?
}

/// The payload projection.
struct DPayload: Sendable {
    var from: DPath?
    var without: Set<String>
    var withoutPrefixes: [String]
    var inPlace: DPayloadCase
    var text: DPayloadCase
    var broken: DPayloadCase
    var tooDeep: DPayloadCase
    var wrongType: DPayloadCase
}

/// A soft warning rule.
struct DWarningRule: Sendable {
    var when: DPredicate
    var warning: DWarning
}
