public import TapRoute

/// Bird (bird.com, formerly MessageBird) notification interactions.
///
/// Bird's SDKs parse the raw push inside a closed binary, so the adapter reads what an app
/// sees: the interaction object `handleNotificationResponse` returns on iOS (and the web
/// SDK's `bird-sdk-push-notification` event), handed over as a `vendorEvent` envelope:
///
/// ```json
/// {"kind": "vendorEvent", "automaticallyOpenDeeplinks": false,
///  "event": {"type": "Button", "payload": "{\"orderId\":\"409\"}",
///            "action": {"type": "DEEP_LINK", "identifier": "btn-shop", "uri": "campaigndemoapp://orders/409"}}}
/// ```
///
/// - `type`: `Tap` → trigger `tap`; `Button` → trigger `button` with `action.identifier`;
///   `Received` → a `notAnInteraction` error (a delivery, not a tap).
/// - `action.type`: `OPEN_APP` → `app`; `URL` and `DEEP_LINK` → a `url` destination with
///   `action.uri` (or `action.url`, the iOS property name). A missing URI opens the app with a
///   warning; the policy rejects one that does not parse.
/// - `payload`: the template's custom payload string; a JSON object in it becomes the
///   interaction's `payload`, any other string is kept as `{"value": …}`.
///
/// The vendor behaviour mirrors Bird's SDK: a `URL` action is opened for the user
/// (`VendorBehavior(opensURL: true, followsEventOverride: false)`); a `DEEP_LINK` is left to
/// the app (`appOpens`) unless `automaticallyOpenDeeplinks` says otherwise — in the envelope
/// (what the app passed to `handleNotificationResponse`) or in the configuration. Lower-case and iOS enum spellings (`tap`, `openDeepLink`, `openUrl`)
/// are accepted; unknown keys are ignored. See `adapters/Bird/README.md` for the sources.
public struct BirdAdapter: PayloadAdapter {
    /// `bird`.
    public static let id = "bird"
    /// One line for `normalize adapters`.
    public static let summary =
        "Bird notification interactions: vendorEvent {type Tap|Button|Received, payload, action {type OPEN_APP|URL|DEEP_LINK, identifier, uri}}"

    /// Creates the adapter; it has no options of its own. `payload` (a JSON string) is read
    /// under the reader's `limits.maxDepth`, counted from the record's root.
    public init(configuration: AdapterConfiguration) throws(ConfigurationError) {}

    /// Creates the adapter.
    public init() {}

    /// Recognizes a `vendorEvent` shaped like a Bird interaction: its `type` is one of Bird's
    /// interaction types (any letter case), or its `action` is an object whose `type` is one
    /// of Bird's action types. Every other input is left to the next adapter.
    public func recognizes(_ input: InputEvent) -> Bool {
        guard case .vendorEvent(let event) = input.kind else { return false }
        if case .string(let type)? = event["type"], BirdInteractionType(spelling: type) != nil {
            return true
        }
        if case .object(let action)? = event["action"], case .string(let type)? = action["type"],
            BirdActionType(spelling: type) != nil
        {
            return true
        }
        return false
    }

    /// Reads a Bird interaction.
    ///
    /// - Throws: `notAnInteraction` for a `Received` event; `invalidPayload` when `type` is
    ///   missing or not one of Bird's, `action` is missing or not an object, `action.type` is
    ///   missing or not a string, a `Button`'s `action.identifier` is missing, empty or not a
    ///   string, or `payload` is neither a string nor an object; `unrecognized` for an input
    ///   that is not a `vendorEvent`.
    public func read(_ input: InputEvent, using reader: inout PayloadReader) throws(NormalizationError) -> AdapterResult {
        guard case .vendorEvent(let event) = input.kind else {
            throw NormalizationError(
                .unrecognized,
                "the bird adapter reads vendorEvent envelopes, not \(input.kind.name)"
            )
        }
        let type = try interactionType(event)
        if type == .received {
            throw NormalizationError(
                .notAnInteraction,
                "a Bird 'Received' event reports a delivered notification, not a user interaction",
                path: "$.event.type"
            )
        }
        guard let actionValue = event["action"] else {
            throw .invalidPayload("a Bird interaction needs an action object", path: "$.event.action")
        }
        guard case .object(let action) = actionValue else {
            throw .invalidPayload(
                "action must be an object, got \(actionValue.typeDescription)",
                path: "$.event.action"
            )
        }
        let trigger = try trigger(for: type, action: action)
        let (destination, behavior) = try destination(for: action, reader: &reader)
        let payload = try payload(event["payload"], reader: &reader)
        return AdapterResult(
            channel: .push,
            trigger: trigger,
            destination: destination,
            payload: payload,
            vendorBehavior: behavior
        )
    }

    /// What Bird's SDK does with an "Open URL" action: it opens the link itself, and its
    /// per-call `automaticallyOpenDeeplinks` governs deep links only, so an "Open URL" action
    /// is opened whatever the app passed: the envelope's value does not apply to it.
    static let opensURLWhateverTheEventSays = VendorBehavior(opensURL: true, followsEventOverride: false)

    // MARK: - Parts

    private func interactionType(_ event: JSONObject) throws(NormalizationError) -> BirdInteractionType {
        guard let value = event["type"], !value.isNull else {
            throw .invalidPayload(
                "a Bird interaction needs a type (Tap, Button or Received)",
                path: "$.event.type"
            )
        }
        guard case .string(let name) = value else {
            throw .invalidPayload("type must be a string, got \(value.typeDescription)", path: "$.event.type")
        }
        guard let type = BirdInteractionType(spelling: name) else {
            throw .invalidPayload(
                "type \(Self.quoted(name)) is not a Bird interaction type (Tap, Button or Received)",
                path: "$.event.type"
            )
        }
        return type
    }

    private func trigger(for type: BirdInteractionType, action: JSONObject) throws(NormalizationError) -> Trigger {
        guard type == .button else { return .tap }
        let path = "$.event.action.identifier"
        guard let value = action["identifier"], !value.isNull else {
            throw .invalidPayload("a Button event needs action.identifier (the button's id)", path: path)
        }
        guard case .string(let identifier) = value else {
            throw .invalidPayload("action.identifier must be a string, got \(value.typeDescription)", path: path)
        }
        guard !identifier.isEmpty else {
            throw .invalidPayload("a Button event needs a non-empty action.identifier (the button's id)", path: path)
        }
        return .button(id: identifier)
    }

    /// The destination and what Bird's SDK does with it.
    private func destination(
        for action: JSONObject,
        reader: inout PayloadReader
    ) throws(NormalizationError) -> (Destination, VendorBehavior) {
        guard let typeValue = action["type"], !typeValue.isNull else {
            throw .invalidPayload(
                "action needs a type (OPEN_APP, URL or DEEP_LINK)",
                path: "$.event.action.type"
            )
        }
        guard case .string(let typeName) = typeValue else {
            throw .invalidPayload(
                "action.type must be a string, got \(typeValue.typeDescription)",
                path: "$.event.action.type"
            )
        }
        guard let type = BirdActionType(spelling: typeName) else {
            reader.warn(
                .unknownActionType,
                "action type \(Self.quoted(typeName)) is not OPEN_APP, URL or DEEP_LINK; the app is opened"
            )
            return (.app, .appOpens)
        }
        switch type {
        case .openApp:
            return (.app, .appOpens)
        case .url, .deepLink:
            guard let uri = uri(in: action, type: type, reader: &reader) else { return (.app, .appOpens) }
            // Bird's "Open URL" opens the link for the user; a deep link is left to the app
            // unless automaticallyOpenDeeplinks says otherwise (envelope or configuration).
            return (.url(uri, target: .external), type == .url ? Self.opensURLWhateverTheEventSays : .appOpens)
        }
    }

    /// `action.uri` (the web SDK's key), else `action.url` (the iOS property name), when it
    /// is a non-empty string; otherwise `nil` with a warning.
    private func uri(in action: JSONObject, type: BirdActionType, reader: inout PayloadReader) -> String? {
        let key: String
        let value: JSONValue
        if let uri = action["uri"], !uri.isNull {
            (key, value) = ("uri", uri)
        } else if let url = action["url"], !url.isNull {
            (key, value) = ("url", url)
        } else {
            reader.warn(.missingURL, "\(type.documentedName) action has no uri; the app is opened")
            return nil
        }
        guard case .string(let s) = value else {
            reader.warn(
                .invalidURL,
                "\(type.documentedName) action.\(key) is \(value.typeDescription), not a string; the app is opened"
            )
            return nil
        }
        guard !s.isEmpty else {
            reader.warn(.missingURL, "\(type.documentedName) action.\(key) is empty; the app is opened")
            return nil
        }
        return s
    }

    /// The custom payload: a string holding a JSON object is decoded (under `limits.maxDepth`
    /// from the record's root), any other string is kept as `{"value": …}`; an object (an app
    /// that decoded it already) is kept with a warning.
    private func payload(_ value: JSONValue?, reader: inout PayloadReader) throws(NormalizationError) -> JSONObject {
        switch reader.object(value, heldAt: Limits.payloadDepth) {
        case .absent:
            return [:]
        case .inString(let object, _):
            return object
        case .stringTooDeep(let text, let clause):
            reader.warn(.payloadNotJSON, "payload is a JSON string that \(clause); it is kept as {\"value\": …}")
            return ["value": .string(text)]
        case .stringNotJSON(let text, _), .stringHoldsWrongType(_, let text):
            if PayloadReader.firstJSONByte(text) == UInt8(ascii: "{") {
                reader.warn(.payloadNotJSON, "payload starts like a JSON object but does not parse; it is kept as {\"value\": …}")
            }
            return ["value": .string(text)]
        case .inPlace(let object):
            reader.warn(
                .payloadNotString,
                "payload is an object; Bird delivers the template's custom payload as a string, so it was decoded before it reached TapRoute"
            )
            return object
        case .wrongType(let other):
            throw .invalidPayload(
                "payload must be a string (the template's custom payload), got \(other.typeDescription)",
                path: "$.event.payload"
            )
        }
    }

    /// `'value'`, or its first 100 characters and its length when it is longer, so that a
    /// hostile value cannot blow up a message.
    private static func quoted(_ value: String) -> String {
        guard value.count > 100 else { return "'\(value)'" }
        return "'\(value.prefix(100))…' (\(value.utf8.count) bytes)"
    }
}

extension Warning.Code {
    /// A Bird `URL` or `DEEP_LINK` action without a URI (or with an empty one); the
    /// destination is `app`.
    public static let missingURL: Self = "missingURL"
    /// A Bird action's URI is not a string; the destination is `app`.
    public static let invalidURL: Self = "invalidURL"
    /// A Bird action type that is not `OPEN_APP`, `URL` or `DEEP_LINK`; the destination is
    /// `app`.
    public static let unknownActionType: Self = "unknownActionType"
    /// A Bird payload string that starts like a JSON object but does not parse; it is kept
    /// as `{"value": …}`.
    public static let payloadNotJSON: Self = "payloadNotJSON"
    /// A Bird payload given as an object rather than the string Bird delivers; it is kept.
    public static let payloadNotString: Self = "payloadNotString"
}

extension BirdAdapter {
    /// `false`: the adapter never reads the text of a notification's alert (`aps.alert`).
    public var readsAlertText: Bool { false }
}
