/// A definition's `encode` section compiled: the kind of input its SDK hands the app, what
/// the vendor can express, and the payload as a template (docs/declarative-adapters.md,
/// "encode").
struct DEncoding: Sendable {
    var kind: InputKindName
    var capabilities: EncodingCapabilities
    var payload: DPayloadTemplate
}

/// A payload template: JSON whose strings may name the message's fields (`"{url}"`), with
/// a few `$` constructs. Rendering walks the template once (and the buttons once per
/// `$each`), so its cost is bounded by the definition's size times the message's.
///
/// A node is a class with plain fields rather than an indirect enum: the built-in definitions
/// live for the whole process, and LeakSanitizer cannot follow the tagged pointers an enum
/// of references packs its case into (it reported the templates as leaked).
final class DPayloadTemplate: Sendable {
    /// What a node is.
    enum Kind: Sendable {
        /// A JSON value copied as it is (`literal`).
        case literal
        /// `"{name}"`: the field's value (any JSON type); absent when the field is.
        case field
        /// Text with fields in it (`"https://x/{screen}"`, `parts`): absent when one of them is.
        case text
        /// An object: each member's template, and the object fields spread into it (`$merge`).
        case object
        /// A list (`elements`): the elements that are not absent.
        case array
        /// `$each: buttons`: one rendering of `item` per button, as a list or, with `key`, as
        /// an object keyed by the rendered key; absent when there are no buttons.
        case each
        /// `$case`: the template in `cases` for the field's value; absent for a value without one.
        case choice
        /// `$json`: the rendered `item` as JSON text in a string.
        case json
    }

    let kind: Kind
    let literal: JSONValue
    let field: DField?
    let parts: [DTextPart]
    let members: [(key: String, value: DPayloadTemplate)]
    let merge: [DField]
    let elements: [DPayloadTemplate]
    let item: DPayloadTemplate?
    let key: DPayloadTemplate?
    let cases: [String: DPayloadTemplate]

    private init(
        _ kind: Kind,
        literal: JSONValue = .null,
        field: DField? = nil,
        parts: [DTextPart] = [],
        members: [(key: String, value: DPayloadTemplate)] = [],
        merge: [DField] = [],
        elements: [DPayloadTemplate] = [],
        item: DPayloadTemplate? = nil,
        key: DPayloadTemplate? = nil,
        cases: [String: DPayloadTemplate] = [:]
    ) {
        self.kind = kind
        self.literal = literal
        self.field = field
        self.parts = parts
        self.members = members
        self.merge = merge
        self.elements = elements
        self.item = item
        self.key = key
        self.cases = cases
    }

    static func literal(_ value: JSONValue) -> DPayloadTemplate { DPayloadTemplate(.literal, literal: value) }
    static func field(_ field: DField) -> DPayloadTemplate { DPayloadTemplate(.field, field: field) }
    static func text(_ parts: [DTextPart]) -> DPayloadTemplate { DPayloadTemplate(.text, parts: parts) }
    static func object(members: [(key: String, value: DPayloadTemplate)], merge: [DField]) -> DPayloadTemplate {
        DPayloadTemplate(.object, members: members, merge: merge)
    }
    static func array(_ elements: [DPayloadTemplate]) -> DPayloadTemplate { DPayloadTemplate(.array, elements: elements) }
    static func each(item: DPayloadTemplate, key: DPayloadTemplate?) -> DPayloadTemplate {
        DPayloadTemplate(.each, item: item, key: key)
    }
    static func choice(_ field: DField, _ cases: [String: DPayloadTemplate]) -> DPayloadTemplate {
        DPayloadTemplate(.choice, field: field, cases: cases)
    }
    static func json(_ inner: DPayloadTemplate) -> DPayloadTemplate { DPayloadTemplate(.json, item: inner) }
}

/// A part of a ``DPayloadTemplate/Kind/text`` node: literal text, or a field (`field` set).
struct DTextPart: Sendable {
    var text: String
    var field: DField?
    static func literal(_ text: String) -> DTextPart { DTextPart(text: text, field: nil) }
    static func field(_ field: DField) -> DTextPart { DTextPart(text: "", field: field) }
}

/// A message field a template names; `button.…` ones only inside `$each`.
enum DField: String, Sendable, CaseIterable {
    case title, body, messageId, data, url, screen, parameters, clickAction, destinationType
    case buttonID = "button.id"
    case buttonLabel = "button.label"
    case buttonIndex = "button.index"
    case buttonURL = "button.url"
    case buttonScreen = "button.screen"
    case buttonParameters = "button.parameters"
    case buttonClickAction = "button.clickAction"
    case buttonDestinationType = "button.destinationType"

    var isButton: Bool { rawValue.hasPrefix("button.") }
}

extension DEncoding {
    /// The input a message encodes to.
    func encode(_ message: OutgoingMessage) -> InputEvent {
        var renderer = DPayloadRenderer(message: message)
        let object: JSONObject
        if case .object(let o)? = renderer.render(payload) { object = o } else { object = [:] }
        switch kind {
        case .vendorEvent: return InputEvent(.vendorEvent(object))
        case .inAppMessage: return InputEvent(.inAppMessage(message: object, action: nil))
        case .notification, .url: return InputEvent(.notification(userInfo: object, action: nil, origin: .remote))
        }
    }
}

/// Renders a template for one message.
struct DPayloadRenderer {
    let message: OutgoingMessage
    var button: (index: Int, value: Interaction.Button)?

    init(message: OutgoingMessage) {
        self.message = message
    }

    static func destinationType(_ d: Destination) -> String { DestinationKind(d).rawValue }

    func value(_ field: DField) -> JSONValue? {
        func destinationField(_ d: Destination, _ f: DField) -> JSONValue? {
            switch (f, d) {
            case (.url, .url(let u, _)), (.buttonURL, .url(let u, _)): return .string(u)
            case (.screen, .screen(let n, _, _)), (.buttonScreen, .screen(let n, _, _)): return .string(n)
            case (.parameters, .screen(_, let p, _)), (.buttonParameters, .screen(_, let p, _)):
                guard !p.isEmpty else { return nil }
                var o = JSONObject()
                for (name, v) in p { o[name] = .string(v) }
                return .object(o)
            case (.clickAction, .clickAction(let c)), (.buttonClickAction, .clickAction(let c)): return .string(c)
            case (.destinationType, _), (.buttonDestinationType, _): return .string(Self.destinationType(d))
            default: return nil
            }
        }
        switch field {
        case .title: return message.title.map(JSONValue.string)
        case .body: return .string(message.body)
        case .messageId: return message.messageId.map(JSONValue.string)
        case .data: return message.data.isEmpty ? nil : .object(message.data)
        case .url, .screen, .parameters, .clickAction, .destinationType: return destinationField(message.destination, field)
        case .buttonID: return button.map { .string($0.value.id) }
        case .buttonLabel: return button?.value.label.map(JSONValue.string)
        case .buttonIndex: return button.map { .number(JSONNumber($0.index)) }
        case .buttonURL, .buttonScreen, .buttonParameters, .buttonClickAction, .buttonDestinationType:
            guard let button else { return nil }
            return destinationField(button.value.destination, field)
        }
    }

    mutating func render(_ template: DPayloadTemplate) -> JSONValue? {
        switch template.kind {
        case .literal: return template.literal
        case .field: return template.field.flatMap { value($0) }
        case .text:
            var out = ""
            for part in template.parts {
                guard let f = part.field else {
                    out += part.text
                    continue
                }
                switch value(f) {
                case .string(let s)?: out += s
                case .number(let n)?: out += n.description
                default: return nil
                }
            }
            return .string(out)
        case .object:
            var o = JSONObject()
            for (key, valueTemplate) in template.members {
                if let v = render(valueTemplate) { o[key] = v }
            }
            for f in template.merge {
                if case .object(let spread)? = value(f) {
                    for (k, v) in spread where o[k] == nil { o[k] = v }
                }
            }
            return .object(o)
        case .array:
            var out: [JSONValue] = []
            for e in template.elements {
                if let v = render(e) { out.append(v) }
            }
            return .array(out)
        case .each:
            guard let item = template.item, !message.buttons.isEmpty, button == nil else { return nil }
            defer { button = nil }
            if let key = template.key {
                var o = JSONObject()
                for (i, b) in message.buttons.enumerated() {
                    button = (i, b)
                    guard case .string(let k)? = render(key), let v = render(item) else { continue }
                    o[k] = v
                }
                return .object(o)
            }
            var out: [JSONValue] = []
            for (i, b) in message.buttons.enumerated() {
                button = (i, b)
                if let v = render(item) { out.append(v) }
            }
            return .array(out)
        case .choice:
            guard let f = template.field, case .string(let s)? = value(f), let chosen = template.cases[s] else { return nil }
            return render(chosen)
        case .json:
            guard let inner = template.item, let v = render(inner) else { return nil }
            return .string(v.jsonString())
        }
    }
}

extension DefinitionCompiler {
    static let encodeKeys = [
        "reads", "destinations", "urlSchemes", "buttons", "messageId", "data", "reservedDataKeys", "reservedDataKeyPrefixes", "payload",
    ]

    /// Compiles the `encode` section.
    mutating func encoding(_ value: JSONValue, at path: KeyPath) -> DEncoding? {
        guard let o = object(value, allowed: Self.encodeKeys, at: path) else { return nil }
        var kind = InputKindName.notification
        if let v = o["reads"],
            let k = oneOf(v, InputKindName.self, names: ["notification", "inAppMessage", "vendorEvent"], at: path.appending("reads"))
        {
            if k == .url {
                fail("an encoded message is a notification, an inAppMessage or a vendorEvent, not a url", at: path.appending("reads"))
            } else {
                kind = k
            }
        }
        func kinds(_ v: JSONValue, at p: KeyPath) -> Set<DestinationKind> {
            var out: Set<DestinationKind> = []
            for (element, ep) in list(v, at: p) ?? [] {
                if let k = oneOf(element, DestinationKind.self, names: DestinationKind.allCases.map(\.rawValue), at: ep) { out.insert(k) }
            }
            return out
        }
        let destinations = required(o, "destinations", at: path).map { kinds($0, at: path.appending("destinations")) } ?? []
        var buttonDestinations: Set<DestinationKind> = []
        var labels = true
        var labelsRequired = false
        if let v = o["buttons"], let b = object(v, allowed: ["destinations", "labels"], at: path.appending("buttons")) {
            buttonDestinations =
                required(b, "destinations", at: path.appending("buttons")).map {
                    kinds($0, at: path.appending("buttons").appending("destinations"))
                } ?? []
            if let l = b["labels"], let flag = flagOrRequired(l, at: path.appending("buttons").appending("labels")) {
                (labels, labelsRequired) = flag
            }
        }
        var urlSchemes: Set<String>?
        if o["urlSchemes"] != nil {
            var schemes: Set<String> = []
            for (s, ep) in strings(o, "urlSchemes", at: path) {
                if Route.isValidScheme(s) { schemes.insert(s.lowercased()) } else { fail("'\(s)' is not a URL scheme", at: ep) }
            }
            urlSchemes = schemes
        }
        var messageId = false
        var requiresMessageId = false
        if let v = o["messageId"], let flag = flagOrRequired(v, at: path.appending("messageId")) {
            (messageId, requiresMessageId) = flag
        }
        let data = o["data"].flatMap { bool($0, at: path.appending("data")) } ?? false
        let reserved = Set(strings(o, "reservedDataKeys", at: path).map(\.0))
        let prefixes = strings(o, "reservedDataKeyPrefixes", at: path).map(\.0)
        guard let payloadValue = required(o, "payload", at: path) else { return nil }
        guard case .object = payloadValue else {
            mismatch("a mapping (the payload's root object)", payloadValue, at: path.appending("payload"))
            return nil
        }
        guard let payload = template(payloadValue, at: path.appending("payload"), inEach: false) else { return nil }
        return DEncoding(
            kind: kind,
            capabilities: EncodingCapabilities(
                destinations: destinations,
                buttonDestinations: buttonDestinations,
                buttonLabels: labels,
                requiresButtonLabels: labelsRequired,
                urlSchemes: urlSchemes,
                messageId: messageId,
                requiresMessageId: requiresMessageId,
                data: data,
                reservedDataKeys: reserved,
                reservedDataKeyPrefixes: prefixes
            ),
            payload: payload
        )
    }

    /// `true`, `false` or `required` (which is also `true`).
    mutating func flagOrRequired(_ value: JSONValue, at path: KeyPath) -> (flag: Bool, required: Bool)? {
        switch value {
        case .bool(let b): return (b, false)
        case .string("required"): return (true, true)
        default:
            mismatch("true, false or 'required'", value, at: path)
            return nil
        }
    }

    /// The strings of the list at `key` of `o` (none when the key is absent), each with its
    /// path; an element that is not a string is reported.
    mutating func strings(_ o: JSONObject, _ key: String, at path: KeyPath) -> [(String, KeyPath)] {
        guard let v = o[key] else { return [] }
        return (list(v, at: path.appending(key)) ?? []).compactMap { element, ep in string(element, at: ep).map { ($0, ep) } }
    }

    /// A field name, checked.
    mutating func field(_ name: String, at path: KeyPath, inEach: Bool) -> DField? {
        guard let f = DField(rawValue: name) else {
            let names = DField.allCases.map(\.rawValue)
            var message = "unknown message field '\(name)'; expected one of: \(names.joined(separator: ", "))"
            if let close = ConfigurationReader.closest(to: name, in: names) { message += "; did you mean '\(close)'?" }
            fail(message, at: path)
            return nil
        }
        if f.isButton, !inEach {
            fail("'\(name)' is a button's field: use it inside $each: buttons", at: path)
            return nil
        }
        return f
    }

    /// Compiles a payload template.
    mutating func template(_ value: JSONValue, at path: KeyPath, inEach: Bool) -> DPayloadTemplate? {
        switch value {
        case .string(let s):
            return text(s, at: path, inEach: inEach)
        case .array(let a):
            var out: [DPayloadTemplate] = []
            for (i, e) in a.enumerated() {
                if let t = template(e, at: path.appending(i), inEach: inEach) { out.append(t) }
            }
            return .array(out)
        case .object(let o):
            if o["$each"] != nil {
                guard let each = object(value, allowed: ["$each", "$item", "$key"], at: path) else { return nil }
                guard case .string("buttons")? = each["$each"] else {
                    fail("$each walks 'buttons', the only list of a message", at: path.appending("$each"))
                    return nil
                }
                if inEach {
                    fail("$each cannot nest: a message has one list of buttons", at: path)
                    return nil
                }
                guard let itemValue = required(each, "$item", at: path),
                    let item = template(itemValue, at: path.appending("$item"), inEach: true)
                else { return nil }
                let key = each["$key"].flatMap { template($0, at: path.appending("$key"), inEach: true) }
                return .each(item: item, key: key)
            }
            if let f = o["$case"] {
                guard case .string(let name) = f, let chosen = field(name, at: path.appending("$case"), inEach: inEach) else {
                    if case .string = f {} else { mismatch("a message field name", f, at: path.appending("$case")) }
                    return nil
                }
                var cases: [String: DPayloadTemplate] = [:]
                for (k, v) in o where k != "$case" {
                    if let t = template(v, at: path.appending(k), inEach: inEach) { cases[k] = t }
                }
                return .choice(chosen, cases)
            }
            if let inner = o["$json"] {
                guard o.count == 1 else {
                    fail("$json stands alone in its mapping", at: path)
                    return nil
                }
                return template(inner, at: path.appending("$json"), inEach: inEach).map(DPayloadTemplate.json)
            }
            var members: [(key: String, value: DPayloadTemplate)] = []
            var merge: [DField] = []
            for (k, v) in o {
                if k == "$merge" {
                    guard case .string(let s) = v, s.count > 2, s.hasPrefix("{"), s.hasSuffix("}") else {
                        fail("expected one object field in braces, such as \"{data}\"", at: path.appending(k))
                        continue
                    }
                    if let f = field(String(s.dropFirst().dropLast()), at: path.appending(k), inEach: inEach) {
                        if f == .data || f == .parameters || f == .buttonParameters {
                            merge.append(f)
                        } else {
                            fail(
                                "$merge spreads an object field (data, parameters, button.parameters), not '\(f.rawValue)'",
                                at: path.appending(k)
                            )
                        }
                    }
                    continue
                }
                if k.hasPrefix("$") {
                    fail(
                        "unknown template construct '\(k)'; expected $each, $case, $json or $merge",
                        .unknownKey,
                        at: path.appending(k),
                        aboutKey: true
                    )
                    continue
                }
                if let t = template(v, at: path.appending(k), inEach: inEach) { members.append((k, t)) }
            }
            return .object(members: members, merge: merge)
        default:
            return .literal(value)
        }
    }

    /// A string of the template: literal text, one field, or text with fields (``DBraces``:
    /// `{{` and `}}` are literal braces).
    mutating func text(_ s: String, at path: KeyPath, inEach: Bool) -> DPayloadTemplate? {
        let pieces: [DBraces.Piece]
        switch DBraces.split(s) {
        case .success(let p): pieces = p
        case .failure(let problem):
            fail("an unclosed or lone brace in \"\(s)\": \(problem.message)", at: path)
            return nil
        }
        var parts: [DTextPart] = []
        for piece in pieces {
            switch piece {
            case .text(let text): parts.append(.literal(text))
            case .insert(let name):
                guard let f = field(name, at: path, inEach: inEach) else { return nil }
                parts.append(.field(f))
            }
        }
        if parts.isEmpty { return .literal(.string("")) }
        if parts.count == 1 {
            if let f = parts[0].field { return .field(f) }
            return .literal(.string(parts[0].text))
        }
        return .text(parts)
    }
}

extension DefinitionAdapter: MessageEncoding {
    /// Whether the definition has an `encode` section.
    public var encodes: Bool { plan.encoding != nil }

    /// What the definition's `encode` section says the vendor can express (nothing without one).
    public var encodingCapabilities: EncodingCapabilities {
        plan.encoding?.capabilities ?? EncodingCapabilities(destinations: [])
    }

    /// The payload the definition's `encode` template gives for `message`.
    /// - Throws: ``EncodingError`` (`noEncoder`) for a definition without an `encode` section.
    public func encode(_ message: OutgoingMessage) throws(EncodingError) -> InputEvent {
        guard let encoding = plan.encoding else {
            throw EncodingError(.noEncoder, vendor: id, field: "$", "the \(id) definition has no encode section")
        }
        return encoding.encode(message)
    }
}
