import TapRoute

/// The key names one set of DashX fields uses: snake_case on the notification itself,
/// camelCase on an action button (both SDKs' `CodingKeys` / `@SerialName`).
final class FieldNames: Sendable {
    /// `screen_name` / `screenName`.
    let screenName: String
    /// `screen_data` / `screenData`.
    let screenData: String
    /// `rich_landing` / `richLanding`.
    let richLanding: String
    /// `click_action` / `clickAction`.
    let clickAction: String
    /// Keys that must hold a string when present (besides a button's `identifier` and
    /// `label`, which the button reader checks itself).
    let stringKeys: [String]
    /// Keys written in the other convention, which the SDKs ignore, with the key they read.
    let otherCase: [(ignored: String, expected: String)]
    /// How the SDKs read these fields, for warnings: "at the top level", "on a button".
    let place: String
    /// What a decoding failure of these fields costs in the SDKs, for warnings.
    let decodeFailure: String
    /// Keys that must be present with a value other than `null` (the notification's `id`,
    /// `title` and `body`, which the iOS SDK requires; none on a button).
    let requiredKeys: [String]
    /// The keys ``marks(in:)`` looks at, for one pass over an object's keys read in place:
    /// those whose mere presence ``DashXFields/validate(marks:using:)`` must look at (the
    /// rich-landing flag and the keys of the other convention) marked 1, ``stringKeys``
    /// marked 2, and required key `i` marked `4 << i`.
    let warningMarks: KeyMarks
    /// Which of ``warningMarks``' bits count for each kind of value: a string key only when
    /// its value is neither a string nor `null`, a required key only when it is not `null`.
    let warningKinds: KeyMarks.KindMasks

    init(
        screenName: String,
        screenData: String,
        richLanding: String,
        clickAction: String,
        stringKeys: [String],
        requiredKeys: [String] = [],
        otherCase: [(ignored: String, expected: String)],
        place: String,
        decodeFailure: String
    ) {
        self.screenName = screenName
        self.screenData = screenData
        self.richLanding = richLanding
        self.clickAction = clickAction
        self.stringKeys = stringKeys
        self.requiredKeys = requiredKeys
        self.otherCase = otherCase
        self.place = place
        self.decodeFailure = decodeFailure
        let required = requiredKeys.enumerated().map { (key: $1, bits: UInt64(4) << UInt64($0)) }
        warningMarks = KeyMarks(
            ([richLanding] + otherCase.map(\.ignored)).map { (key: $0, bits: 1) } + stringKeys.map { (key: $0, bits: 2) }
                + required
        )
        let requiredBits = required.reduce(0) { $0 | $1.bits }
        warningKinds = KeyMarks.KindMasks(null: 1, string: 1 | requiredBits)
    }

    /// The marks of `object`'s members (see ``warningMarks``), in one pass over its keys read
    /// in place: what ``mayNeedWarning(_:)`` and ``missingRequiredKeys(_:)`` read.
    func marks(in object: JSONObject) -> UInt64 {
        warningMarks.marks(in: object, keeping: warningKinds)
    }

    /// Whether some member may call for a warning from ``DashXFields/validate(marks:using:)``
    /// — a string key holding neither a string nor `null`, the rich-landing flag, or a key of
    /// the other convention. When none may, there is nothing to report.
    static func mayNeedWarning(_ marks: UInt64) -> Bool {
        marks & 3 != 0
    }

    /// The required keys the object lacks, or holds as `null`, in ``requiredKeys``' order.
    func missingRequiredKeys(_ marks: UInt64) -> [String] {
        var missing: [String] = []
        for (i, key) in requiredKeys.enumerated() where marks & (4 << UInt64(i)) == 0 { missing.append(key) }
        return missing
    }

    /// The notification's own fields.
    static let topLevel = FieldNames(
        screenName: "screen_name",
        screenData: "screen_data",
        richLanding: "rich_landing",
        clickAction: "click_action",
        // `title`, `body`, `image` and `interruption_level` are checked for their kind only: the
        // block is parsed without their text (`DashXAdapter.kindOnlyKeys`). Reading one's text
        // means taking it out of that set.
        stringKeys: ["id", "title", "body", "image", "url", "screen_name", "click_action", "interruption_level"],
        // What the iOS SDK requires (Android only `id`).
        requiredKeys: ["id", "title", "body"],
        otherCase: [
            ("screenName", "screen_name"), ("screenData", "screen_data"), ("richLanding", "rich_landing"),
            ("clickAction", "click_action"), ("actionButtons", "action_buttons"),
        ],
        place: "snake_case keys at the top level",
        decodeFailure: "the DashX SDKs fail to decode the payload (the iOS SDK would drop the tap)"
    )

    /// An action button's fields.
    static let button = FieldNames(
        screenName: "screenName",
        screenData: "screenData",
        richLanding: "richLanding",
        clickAction: "clickAction",
        stringKeys: ["icon", "url", "screenName", "clickAction"],
        otherCase: [
            ("screen_name", "screenName"), ("screen_data", "screenData"), ("rich_landing", "richLanding"),
            ("click_action", "clickAction"),
        ],
        place: "camelCase keys on a button",
        decodeFailure: "the DashX iOS SDK drops every action button and Android the whole payload"
    )
}

/// One object of DashX navigation fields — the notification itself or one action button —
/// with where it is, for warnings (`dashx`, `dashx.action_buttons[1]`).
struct DashXFields: Sendable {
    /// The fields.
    let object: JSONObject
    /// The index of the action button these fields are, or `nil` for the notification's own.
    let buttonIndex: Int?
    /// Which key names apply.
    let names: FieldNames
    /// The depth of `object` in the record (see ``TapRoute/Limits/payloadDepth``): JSON held
    /// in a string among the fields is read under `limits.maxDepth` counted from there.
    let depth: Int

    /// Where the fields are in the payload, for warnings: `dashx`, `dashx.action_buttons[1]`.
    var location: String {
        buttonIndex.map { "dashx.action_buttons[\($0)]" } ?? "dashx"
    }

    /// The spellings of the rich-landing flag the adapter understands: `true`/`false` and the
    /// strings `"true"`/`"false"`, exactly so. ``validate(using:)`` reports any other value,
    /// which is read as false.
    static let richLandingSpellings: PayloadReader.BooleanSpellings = [.json, .lowercaseWords]

    /// The string under `key`, trimmed of whitespace, when that leaves something; `nil`
    /// when absent, `null` or of another type (``validate(using:)`` reports the wrong type
    /// once).
    func trimmedNonEmpty(_ key: String) -> String? {
        object[key]?.stringValue.flatMap(PayloadReader.trimmedNonEmpty)
    }

    /// Reports fields of the wrong type, rich-landing values the SDKs do not understand,
    /// and keys in the wrong case convention. A wrong-typed field is then ignored.
    func validate(using reader: inout PayloadReader) {
        validate(marks: names.marks(in: object), using: &reader)
    }

    /// ``validate(using:)`` with the object's ``FieldNames/marks(in:)`` already taken.
    func validate(marks: UInt64, using reader: inout PayloadReader) {
        // Most objects hold only well-typed fields: one pass over the members, before a
        // lookup per key, finds whether anything needs a word.
        guard FieldNames.mayNeedWarning(marks) else { return }
        for key in names.stringKeys {
            guard let value = object[key], !value.isNull, value.stringValue == nil else { continue }
            reader.warn(
                .dashxInvalidField,
                "\(location).\(key) is \(value.typeDescription), not a string: \(names.decodeFailure); the field is ignored"
            )
        }
        if let value = object[names.richLanding], !value.isNull,
            PayloadReader.boolean(value, spellings: Self.richLandingSpellings) == nil
        {
            let key = "\(location).\(names.richLanding)"
            if case .string(let s) = value {
                reader.warn(
                    .dashxInvalidField,
                    "\(key) is the string '\(s)'; only true, false, \"true\" and \"false\" are understood (the DashX iOS SDK reads it as false, Android as unset): treated as false"
                )
            } else {
                reader.warn(
                    .dashxInvalidField,
                    "\(key) is \(value.typeDescription), not a boolean or \"true\"/\"false\"; both DashX SDKs read it as unset: treated as false"
                )
            }
        }
        for (ignored, expected) in names.otherCase where object[ignored] != nil {
            reader.warn(.wrongKeyCase, "\(location).\(ignored) is ignored: both DashX SDKs read only \(names.place) (\(expected))")
        }
    }

    /// Whether the rich-landing flag is set: `true` or the string `"true"`, as the iOS SDK
    /// reads it.
    var isRichLanding: Bool {
        PayloadReader.boolean(object[names.richLanding], spellings: Self.richLandingSpellings) == true
    }

    /// The destination these fields lead to, before policy. First match wins:
    /// `screen_name` (trimmed, non-empty) → screen; `rich_landing` and a `url` → the URL in
    /// an in-app browser; `url` → the URL; `click_action` (trimmed, non-empty) → click
    /// action; nothing → the app.
    func resolve(using reader: inout PayloadReader) -> Destination {
        // Read as the order needs them: the parameters only with a screen, the URL only
        // without one (each may warn); the order itself is ``DashXNavigation/destination``'s.
        var navigation = DashXNavigation()
        if let name = trimmedNonEmpty(names.screenName) {
            navigation.screenName = name
            navigation.parameters = screenParameters(using: &reader)
        } else {
            navigation.url = url(using: &reader)
            navigation.richLanding = isRichLanding
            navigation.clickAction = object[names.clickAction]?.stringValue
        }
        return navigation.destination
    }

    /// The `url`, trimmed (as Android does; the iOS SDK passes it to its URL parser as is),
    /// or `nil` when absent or blank (neither SDK uses an empty URL).
    func url(using reader: inout PayloadReader) -> String? {
        guard let raw = object["url"]?.stringValue, let trimmed = PayloadReader.trimmedNonEmpty(raw) else { return nil }
        if trimmed.utf8.count != raw.utf8.count {
            reader.warn(
                .androidDiffers,
                "\(location).url has leading or trailing whitespace: the DashX Android SDK trims it, the iOS SDK does not (its URL parser rejects a leading space); trimmed"
            )
        }
        return trimmed
    }

    /// The screen's parameters from `screen_data`: an object, or a JSON string holding one.
    /// Values that are not strings become strings as the Android SDK makes them (numbers and
    /// Booleans their JSON text, objects and arrays compact JSON); `null` values are left out.
    func screenParameters(using reader: inout PayloadReader) -> ScreenParameters {
        // Made only for a warning.
        var key: String { "\(location).\(names.screenData)" }
        let noParameters = "the screen opens without parameters, as in both DashX SDKs"
        let map: JSONObject
        switch reader.object(object[names.screenData], heldAt: depth) {
        case .absent:
            return [:]
        case .inPlace(let o), .inString(let o, _):
            map = o
        case .stringTooDeep(_, let clause):
            reader.warn(.invalidScreenData, "\(key) is a JSON string that \(clause): \(noParameters)")
            return [:]
        case .stringNotJSON, .stringHoldsWrongType:
            reader.warn(.invalidScreenData, "\(key) is a string that is not a JSON object: \(noParameters)")
            return [:]
        case .wrongType(let other):
            reader.warn(.invalidScreenData, "\(key) is \(other.typeDescription), not an object: \(noParameters)")
            return [:]
        }
        var parameters: [ScreenParameters.Element] = []
        parameters.reserveCapacity(map.count)
        var converted = false
        var droppedNull = false
        for (name, value) in map {
            switch value {
            case .string(let s):
                parameters.append((name: name, value: s))
            case .null:
                droppedNull = true
            case .bool(let b):
                converted = true
                parameters.append((name: name, value: b ? "true" : "false"))
            case .number(let n):
                converted = true
                parameters.append((name: name, value: n.text))
            case .array, .object:
                converted = true
                parameters.append((name: name, value: value.jsonString()))
            }
        }
        if converted || droppedNull {
            var parts: [String] = []
            if converted {
                parts.append(
                    "numbers and booleans became their JSON text and objects and arrays compact JSON, as the DashX Android SDK does"
                )
            }
            if droppedNull { parts.append("null values were left out (Android makes them \"null\")") }
            reader.warn(
                .androidDiffers,
                "\(key) has values that are not strings; the DashX iOS SDK drops the whole map: " + parts.joined(separator: "; ")
            )
        }
        // An object's keys differ: the pairs are taken as they are.
        return ScreenParameters(uniqueNames: parameters)
    }
}

/// The navigation fields of the notification or of one action button, as read — by
/// ``DashXFields`` from a value tree or by ``DashXBlockInPlace`` in place — and the destination
/// they lead to, first match wins: `screen_name` (trimmed, non-empty) → screen; `rich_landing`
/// and a `url` → the URL in an in-app browser; `url` → the URL; `click_action` (trimmed,
/// non-empty) → click action; nothing → the app.
struct DashXNavigation {
    /// The screen name, trimmed or not.
    var screenName: String?
    /// The screen parameters.
    var parameters = ScreenParameters(uniqueNames: [])
    /// The URL, trimmed; `nil` when absent, `null` or blank.
    var url: String?
    /// Whether the rich-landing flag is set.
    var richLanding = false
    /// The click action, trimmed or not.
    var clickAction: String?

    /// The destination these fields lead to, before policy.
    var destination: Destination {
        if let name = screenName.flatMap(PayloadReader.trimmedNonEmpty) {
            return .screen(name: name, parameters: parameters)
        }
        if let url { return .url(url, target: richLanding ? .inAppBrowser : .external) }
        if let action = clickAction.flatMap(PayloadReader.trimmedNonEmpty) { return .clickAction(action) }
        return .app
    }
}
