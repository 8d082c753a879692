extension Interaction {
    /// The canonical JSON form: camelCase keys in a fixed order (`vendor`, `channel`,
    /// `trigger`, `destination`, `handling`, `messageId`, `payload`, `tracking`, `buttons`,
    /// `phase`, `warnings`), empty optional fields omitted.
    ///
    /// It is what ``writeJSON(into:)`` writes, read back: the writer is the one definition of
    /// the form.
    public var jsonValue: JSONValue {
        JSONValue.written(capacity: 1024) { writeJSON(into: &$0) }
    }

    /// The canonical JSON text (compact unless `pretty`).
    public func jsonString(pretty: Bool = false) -> String {
        if pretty { return jsonValue.jsonString(pretty: true) }
        var out = JSONOutputBuffer(capacity: 1024)
        writeJSON(into: &out)
        return out.withBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Reads an interaction from its canonical JSON form.
    /// - Throws: ``ModelDecodingError`` naming the key path that is missing or wrong.
    public init(jsonValue: JSONValue) throws(ModelDecodingError) {
        let o = try ModelDecodingError.object(jsonValue, at: "$")
        try ModelDecodingError.rejectUnknownKeys(
            o,
            allowed: [
                "vendor", "channel", "trigger", "destination", "handling", "messageId", "payload", "tracking",
                "buttons", "phase", "warnings",
            ],
            at: "$"
        )
        vendor = try ModelDecodingError.string(o["vendor"], at: "$.vendor")
        channel = try ModelDecodingError.enumeration(o["channel"], at: "$.channel")
        trigger = try Trigger(jsonValue: o["trigger"] ?? .null, at: "$.trigger")
        destination = try Destination(jsonValue: o["destination"] ?? .null, at: "$.destination")
        handling = try ModelDecodingError.enumeration(o["handling"], at: "$.handling")
        messageId = try o["messageId"].map { v throws(ModelDecodingError) in
            try ModelDecodingError.string(v, at: "$.messageId")
        }
        payload =
            try o["payload"].map { v throws(ModelDecodingError) in
                try ModelDecodingError.object(v, at: "$.payload")
            } ?? [:]
        tracking =
            try o["tracking"].map { v throws(ModelDecodingError) in
                try ModelDecodingError.object(v, at: "$.tracking")
            } ?? [:]
        var buttons: [Interaction.Button] = []
        if let value = o["buttons"] {
            guard case .array(let elements) = value else {
                throw ModelDecodingError(.wrongType(expected: "an array", found: value.typeDescription), at: "$.buttons")
            }
            for (i, element) in elements.enumerated() {
                buttons.append(try Interaction.Button(jsonValue: element, at: "$.buttons[\(i)]"))
            }
        }
        self.buttons = buttons
        phase = try o["phase"].map { v throws(ModelDecodingError) in
            try ModelDecodingError.enumeration(v, at: "$.phase")
        }
        var warnings: [Warning] = []
        if let value = o["warnings"] {
            guard case .array(let elements) = value else {
                throw ModelDecodingError(.wrongType(expected: "an array", found: value.typeDescription), at: "$.warnings")
            }
            for (i, element) in elements.enumerated() {
                let w = try ModelDecodingError.object(element, at: "$.warnings[\(i)]")
                warnings.append(
                    Warning(
                        Warning.Code(rawValue: try ModelDecodingError.string(w["code"], at: "$.warnings[\(i)].code")),
                        try ModelDecodingError.string(w["message"], at: "$.warnings[\(i)].message")
                    )
                )
            }
        }
        self.warnings = warnings
    }
}

extension Trigger {
    /// The JSON form: `{"type":"tap"}`, `{"type":"button","id":…,"label":…?}`,
    /// `{"type":"dismiss"}` or `{"type":"open"}`.
    public var jsonValue: JSONValue {
        JSONValue.written { writeJSON(into: &$0) }
    }

    init(jsonValue: JSONValue, at path: String) throws(ModelDecodingError) {
        let o = try ModelDecodingError.object(jsonValue, at: path)
        switch try ModelDecodingError.string(o["type"], at: path + ".type") {
        case "tap": self = .tap
        case "dismiss": self = .dismiss
        case "open": self = .open
        case "button":
            let label = try o["label"].map { v throws(ModelDecodingError) in
                try ModelDecodingError.string(v, at: path + ".label")
            }
            self = .button(id: try ModelDecodingError.string(o["id"], at: path + ".id"), label: label)
        case let other:
            throw ModelDecodingError(.unknownTriggerType(other), at: path + ".type")
        }
    }
}

extension Destination {
    /// The JSON form: `{"type":"app"}`, `{"type":"screen","name":…,"parameters":{…}?,"url":…?}`,
    /// `{"type":"url","url":…,"target":…}`, `{"type":"clickAction","value":…}` or
    /// `{"type":"none"}`.
    public var jsonValue: JSONValue {
        JSONValue.written { writeJSON(into: &$0) }
    }

    init(jsonValue: JSONValue, at path: String) throws(ModelDecodingError) {
        let o = try ModelDecodingError.object(jsonValue, at: path)
        switch try ModelDecodingError.string(o["type"], at: path + ".type") {
        case "app": self = .app
        case "none": self = .none
        case "clickAction": self = .clickAction(try ModelDecodingError.string(o["value"], at: path + ".value"))
        case "url":
            self = .url(
                try ModelDecodingError.string(o["url"], at: path + ".url"),
                target: try ModelDecodingError.enumeration(o["target"], at: path + ".target")
            )
        case "screen":
            var parameters = ScreenParameters()
            if let value = o["parameters"] {
                for (name, v) in try ModelDecodingError.object(value, at: path + ".parameters") {
                    parameters[name] = try ModelDecodingError.string(v, at: path + ".parameters." + name)
                }
            }
            let url = try o["url"].map { v throws(ModelDecodingError) in
                try ModelDecodingError.string(v, at: path + ".url")
            }
            self = .screen(
                name: try ModelDecodingError.string(o["name"], at: path + ".name"),
                parameters: parameters,
                url: url
            )
        case let other:
            throw ModelDecodingError(.unknownDestinationType(other), at: path + ".type")
        }
    }
}

extension Interaction.Button {
    /// The JSON form: `{"id":…,"label":…?,"destination":{…}}`.
    public var jsonValue: JSONValue {
        JSONValue.written { writeJSON(into: &$0) }
    }

    init(jsonValue: JSONValue, at path: String) throws(ModelDecodingError) {
        let o = try ModelDecodingError.object(jsonValue, at: path)
        let label = try o["label"].map { v throws(ModelDecodingError) in
            try ModelDecodingError.string(v, at: path + ".label")
        }
        self.init(
            id: try ModelDecodingError.string(o["id"], at: path + ".id"),
            label: label,
            destination: try Destination(jsonValue: o["destination"] ?? .null, at: path + ".destination")
        )
    }
}

extension Warning {
    /// The JSON form: `{"code":…,"message":…}`.
    public var jsonValue: JSONValue {
        JSONValue.written { writeJSON(into: &$0) }
    }
}

/// A canonical JSON document that does not have the shape of the model.
public struct ModelDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, with the data.
    public enum Kind: Sendable, Hashable {
        /// A required key is missing; the JSON type it must have (`an object`).
        case missing(expected: String)
        /// A value of the wrong JSON type (`expected` and `found`, such as `an array`).
        case wrongType(expected: String, found: String)
        /// A trigger `type` the model does not have.
        case unknownTriggerType(String)
        /// A destination `type` the model does not have.
        case unknownDestinationType(String)
        /// A string that is not one of the `allowed` values.
        case notOneOf(String, allowed: [String])
        /// A key the model does not have.
        case unknownKey(String)
        /// A value of the right type that the model does not accept, and why (an empty or
        /// repeated button id in an ``OutgoingMessage``).
        case invalidValue(String)
    }

    /// The JSONPath-style location of the problem, such as `$.destination.target`.
    public let path: String
    /// What is wrong, with the data.
    public let kind: Kind

    /// Creates an error.
    package init(_ kind: Kind, at path: String) {
        self.kind = kind
        self.path = path
    }

    /// What is wrong, as a sentence fragment derived from ``kind``.
    public var message: String {
        switch kind {
        case .missing(let expected): "missing; expected \(expected)"
        case .wrongType(let expected, let found): "expected \(expected), got \(found)"
        case .unknownTriggerType(let type): "unknown trigger type '\(type)'"
        case .unknownDestinationType(let type): "unknown destination type '\(type)'"
        case .notOneOf(let value, let allowed): "'\(value)' is not one of \(allowed.map { "'\($0)'" }.joined(separator: ", "))"
        case .unknownKey(let key): "unknown key '\(key)'"
        case .invalidValue(let reason): reason
        }
    }

    /// `path: message`.
    public var description: String { "\(path): \(message)" }

    static func object(_ value: JSONValue?, at path: String) throws(ModelDecodingError) -> JSONObject {
        guard let value else { throw ModelDecodingError(.missing(expected: "an object"), at: path) }
        guard case .object(let o) = value else {
            throw ModelDecodingError(.wrongType(expected: "an object", found: value.typeDescription), at: path)
        }
        return o
    }

    static func string(_ value: JSONValue?, at path: String) throws(ModelDecodingError) -> String {
        guard let value else { throw ModelDecodingError(.missing(expected: "a string"), at: path) }
        guard case .string(let s) = value else {
            throw ModelDecodingError(.wrongType(expected: "a string", found: value.typeDescription), at: path)
        }
        return s
    }

    static func enumeration<E: RawRepresentable & CaseIterable>(
        _ value: JSONValue?,
        at path: String
    ) throws(ModelDecodingError) -> E where E.RawValue == String {
        let raw = try string(value, at: path)
        guard let e = E(rawValue: raw) else {
            throw ModelDecodingError(.notOneOf(raw, allowed: E.allCases.map(\.rawValue)), at: path)
        }
        return e
    }

    static func rejectUnknownKeys(_ o: JSONObject, allowed: Set<String>, at path: String) throws(ModelDecodingError) {
        for key in o.keys where !allowed.contains(key) {
            throw ModelDecodingError(.unknownKey(key), at: path + "." + key)
        }
    }
}
