public import TapRoute

/// Normalizes DashX push and local notifications.
///
/// DashX puts its fields in `userInfo["dashx"]` as a JSON **string**:
///
/// ```json
/// {"aps": {"alert": {"title": "Order shipped", "body": "Track it"}},
///  "dashx": "{\"id\":\"n-1\",\"title\":\"Order shipped\",\"body\":\"Track it\",\"url\":\"https://shop.example.com/t/1\"}"}
/// ```
///
/// The notification's keys are snake_case (`id`, `title`, `body`, `url`, `screen_name`,
/// `screen_data`, `click_action`, `rich_landing`, `action_buttons`); an action button's are
/// camelCase (`identifier`, `label`, `url`, `screenName`, `screenData`, `clickAction`,
/// `richLanding`). A tap resolves, first match wins: `screen_name` → a screen with
/// `screen_data` as parameters; `rich_landing` and a `url` → the URL in an in-app browser;
/// `url` → the URL; `click_action` → a click action; nothing → the app. A button tap
/// resolves from that button's own fields only, a dismiss goes nowhere.
///
/// Where the DashX iOS SDK would drop a tap whose intent is plain (a missing title, the block
/// as an object, a wrong-typed unrelated field), the adapter keeps the intent and warns;
/// where the iOS and Android SDKs differ it follows iOS, or the plain intent, and warns.
/// `adapters/DashX/README.md` lists every convention with its source.
///
/// The DashX SDK opens deep links and rich landing pages itself unless the app claims them:
/// the adapter's ``TapRoute/VendorBehavior`` is ``TapRoute/VendorBehavior/sdkOpensURL``, so
/// the built-in handling of a URL destination is `automatic`.
public struct DashXAdapter: PayloadAdapter {
    /// `dashx`.
    public static let id = "dashx"
    /// One line for `normalize adapters`.
    public static let summary =
        "DashX push and local notifications: userInfo[\"dashx\"] (a JSON string) with url, screen_name, rich_landing, click_action and action_buttons"

    /// Creates the adapter; it has no options. The JSON strings DashX nests (`dashx`,
    /// `screen_data`, `action_buttons`) are read under the registry's `limits.maxDepth`,
    /// counted from the record's root, through the ``TapRoute/PayloadReader`` each input is
    /// read with.
    public init(configuration: AdapterConfiguration) throws(ConfigurationError) {
        readsBlockInPlace = true
    }

    /// Creates the adapter.
    public init() {
        readsBlockInPlace = true
    }

    /// Whether a block held in a string is read in place (``DashXBlockInPlace``) when it can
    /// be, before the value tree: `true` but in the test that holds the two paths to the same
    /// result.
    let readsBlockInPlace: Bool

    /// Creates the adapter, reading blocks only as a value tree when `readsBlockInPlace` is
    /// `false` (the reference the in-place reading is tested against).
    init(readsBlockInPlace: Bool) {
        self.readsBlockInPlace = readsBlockInPlace
    }

    /// The depth of the DashX block (the object `userInfo.dashx` holds or is).
    static let blockDepth = Limits.payloadDepth + 1
    /// The depth of an action button (an object in the block's `action_buttons` array).
    static let buttonDepth = blockDepth + 2

    /// Recognizes notifications whose `userInfo` has a `dashx` key.
    public func recognizes(_ input: InputEvent) -> Bool {
        guard case .notification(let userInfo, _, _) = input.kind else { return false }
        return userInfo.hasMember("dashx")
    }

    /// Whether `key` is one of `userInfo`'s keys that are not the payload: iOS's `aps` and the
    /// DashX block. (Literals compared in place: a global list of them is reached through a
    /// `swift_once` check and retained and released on every read.)
    static func isEnvelopeKey(_ key: String) -> Bool {
        key.hasSameUTF8(as: "aps") || key.hasSameUTF8(as: "dashx")
    }

    /// Reads a DashX notification response.
    ///
    /// Never fails for a notification: a `dashx` value that cannot be read gives the
    /// destination `app` (`none` for a dismiss) with a `dashxUnreadable` warning.
    /// - Throws: `unrecognized` for any input that is not a notification with a `dashx` key.
    public func read(_ input: InputEvent, using reader: inout PayloadReader) throws(NormalizationError) -> AdapterResult {
        // The notification's members read where the event holds them, for the whole reading:
        // a `guard case` binding outlives the match, so it copied `userInfo` (a retain and a
        // release, each an atomic operation).
        switch input.kind {
        case .notification(let userInfo, let action, let origin) where userInfo.hasMember("dashx"):
            return read(userInfo: userInfo, action: action, origin: origin, using: &reader)
        default:
            throw NormalizationError(
                .unrecognized,
                "the dashx adapter reads notifications whose userInfo has a 'dashx' key, not this \(input.kind.name)"
            )
        }
    }

    /// ``read(_:using:)`` of a notification whose `userInfo` has a `dashx` key.
    private func read(
        userInfo: JSONObject,
        action: String?,
        origin: InputEvent.NotificationOrigin,
        using reader: inout PayloadReader
    ) -> AdapterResult {
        let channel: Channel = origin == .local ? .local : .push
        let payload = userInfo.removing(where: Self.isEnvelopeKey)
        let trigger = Trigger(notificationAction: action)

        // Most blocks are JSON text with nothing to warn about: read in place, where the
        // record's tree holds the text. The notification's own destination is built only for
        // the trigger that leads to it (`result` asks `tapped` for a tap or an open only).
        let maximumDepth = Swift.max(0, reader.limits.maxDepth - Limits.payloadDepth)
        let readsDestination: Bool
        switch trigger {
        case .tap, .open: readsDestination = true
        case .button, .dismiss: readsDestination = false
        }
        if readsBlockInPlace,
            case let (id, fields, buttons)? = userInfo.withStringMember(
                "dashx",
                { DashXBlockInPlace.read($0, maximumDepth: maximumDepth, readsDestination: readsDestination) }
            ) ?? nil
        {
            return Self.result(
                channel: channel,
                trigger: trigger,
                buttons: buttons,
                tapped: { _ in fields.destination },
                clickAction: { fields.clickAction.flatMap(PayloadReader.trimmedNonEmpty) },
                messageId: id,
                payload: payload,
                using: &reader
            )
        }

        return Self.readTree(userInfo: userInfo, channel: channel, trigger: trigger, payload: payload, using: &reader)
    }

    /// The reference path of ``read(userInfo:action:origin:using:)``: the block parsed into a
    /// tree, checked with every warning, and looked up. Out of line, so that its code (about
    /// 750 instructions) is not inlined among the fast path's (docs/performance.md,
    /// "Forty-sixth round").
    @inline(never)
    private static func readTree(
        userInfo: JSONObject,
        channel: Channel,
        trigger: Trigger,
        payload: consuming JSONObject,
        using reader: inout PayloadReader
    ) -> AdapterResult {
        guard let raw = userInfo["dashx"], let block = Self.readBlock(raw, dismissed: trigger == .dismiss, using: &reader) else {
            return AdapterResult(
                channel: channel,
                trigger: trigger,
                destination: trigger == .dismiss ? .none : .app,
                payload: payload,
                vendorBehavior: .sdkOpensURL
            )
        }

        let notification = DashXFields(object: block, buttonIndex: nil, names: .topLevel, depth: Self.blockDepth)
        // One pass over the block's keys serves the validation and the required fields.
        let marks = FieldNames.topLevel.marks(in: block)
        notification.validate(marks: marks, using: &reader)
        Self.checkRequired(marks: marks, using: &reader)

        var buttons: [Interaction.Button] = []
        for button in Self.readButtons(block["action_buttons"], using: &reader) {
            buttons.append(Interaction.Button(id: button.id, label: button.label, destination: button.fields.resolve(using: &reader)))
        }
        return Self.result(
            channel: channel,
            trigger: trigger,
            buttons: buttons,
            tapped: { notification.resolve(using: &$0) },
            clickAction: { notification.trimmedNonEmpty("click_action") },
            messageId: block["id"]?.stringValue,
            payload: payload,
            using: &reader
        )
    }

    /// The result for a notification whose block has been read, either way: the destination
    /// the trigger leads to — none for a dismiss, the tapped button's (with a word when it has
    /// none of its own and a top-level `click_action` is there, or when no button has the
    /// action's identifier), or the notification's own (`tapped`) — and the id as message id
    /// and tracking. The buttons, the id and the payload are taken, not borrowed: each moves
    /// into the result, where a borrowed one was copied into it and released by the caller.
    /// - Parameters:
    ///   - buttons: the action buttons, each with its destination.
    ///   - tapped: the notification's own destination, asked for only for a tap or an open.
    ///   - clickAction: the top-level `click_action`, trimmed and non-empty, asked for only
    ///     when a tapped button has no destination.
    ///   - messageId: the block's `id` when it is a string.
    static func result(
        channel: Channel,
        trigger: Trigger,
        buttons: consuming [Interaction.Button],
        tapped: (inout PayloadReader) -> Destination,
        clickAction: () -> String?,
        messageId: consuming String?,
        payload: consuming JSONObject,
        using reader: inout PayloadReader
    ) -> AdapterResult {
        var trigger = trigger
        let destination: Destination
        switch trigger {
        case .dismiss:
            destination = .none
        case .button(let id, _):
            // Found by index: `first(where:)` would copy the button out, its destination
            // and strings retained and released again.
            if let i = buttons.firstIndex(where: { $0.id == id }) {
                trigger = .button(id: id, label: buttons[i].label)
                destination = buttons[i].destination
                if case .app = destination, let fallback = clickAction() {
                    reader.warn(
                        .androidDiffers,
                        "button '\(id)' has no destination of its own: the DashX iOS SDK does nothing, Android falls back to the top-level click_action '\(fallback)'"
                    )
                }
            } else {
                destination = .app
                let offered = buttons.isEmpty ? "there are no action buttons" : "no action button has that identifier"
                reader.warn(
                    .unknownButton,
                    "action '\(id)' matches no button (\(offered)): the DashX iOS SDK does nothing and Android would use the top-level fields; the app is opened"
                )
            }
        case .tap, .open:
            destination = tapped(&reader)
        }

        let tracking = messageId.flatMap { $0.isEmpty ? nil : JSONObject(key: "notificationId", value: .string($0)) } ?? [:]
        return AdapterResult(
            channel: channel,
            trigger: trigger,
            destination: destination,
            buttons: buttons,
            messageId: messageId,
            payload: payload,
            tracking: tracking,
            vendorBehavior: .sdkOpensURL
        )
    }

    /// The DashX block: a JSON string holding an object (as sent), or an object (recovered,
    /// with a warning). `nil`, with a warning, for anything else, including a string whose
    /// JSON nests deeper than `limits.maxDepth` allows.
    static func readBlock(_ raw: JSONValue, dismissed: Bool, using reader: inout PayloadReader) -> JSONObject? {
        let consequence =
            dismissed ? "the DashX SDKs ignore it" : "the DashX SDKs ignore the tap; the app is opened"
        switch reader.object(raw, heldAt: Limits.payloadDepth, kindOnly: kindOnlyKeys) {
        case .inString(let block, _):
            return block
        case .inPlace(let block):
            reader.warn(
                .dashxNotString,
                "userInfo.dashx is an object, not a JSON string: the DashX iOS SDK ignores it (no navigation, no tracking); read as intended"
            )
            return block
        case .stringHoldsWrongType(let value, _):
            reader.warn(
                .dashxUnreadable,
                "userInfo.dashx is a JSON string holding \(value.typeDescription), not an object: \(consequence)"
            )
        case .stringTooDeep(_, let clause):
            reader.warn(.dashxUnreadable, "userInfo.dashx is a JSON string that \(clause): \(consequence)")
        case .stringNotJSON:
            reader.warn(.dashxUnreadable, "userInfo.dashx is a string that is not valid JSON: \(consequence)")
        case .absent, .wrongType:
            reader.warn(.dashxUnreadable, "userInfo.dashx is \(raw.typeDescription), not a JSON string: \(consequence)")
        }
        return nil
    }

    /// The block's members the adapter reads only for their kind (present, `null`, a string
    /// or not): their text is never read, so the held JSON is parsed without building it.
    /// The notification's title and body are most of a block's text.
    static let kindOnlyKeys = SmallStringSet(["title", "body", "image", "interruption_level"])

    /// Warns about missing `id`, `title` and `body` (``FieldNames/requiredKeys``), which the
    /// iOS SDK requires (Android only `id`), from the block's ``FieldNames/marks(in:)``. A
    /// wrong-typed one was already reported by ``DashXFields/validate(marks:using:)``.
    static func checkRequired(marks: UInt64, using reader: inout PayloadReader) {
        for key in FieldNames.topLevel.missingRequiredKeys(marks) {
            let android =
                key == "id"
                ? "Android requires it too, and the tap cannot be tracked"
                : "the Android SDK still shows the notification"
            reader.warn(
                .iOSWouldDrop,
                "dashx.\(key) is missing: the DashX iOS SDK requires it and would drop the tap (\(android)); the destination is kept"
            )
        }
    }

    /// One readable action button.
    struct ActionButton {
        /// Its `identifier`.
        let id: String
        /// Its `label`, when it is a string.
        let label: String?
        /// Its navigation fields.
        let fields: DashXFields
    }

    /// The action buttons: an array, or a JSON string holding one (what the iOS SDK accepts;
    /// Android rejects the whole payload). Buttons without a string `identifier` are
    /// skipped; every problem is reported.
    static func readButtons(_ value: JSONValue?, using reader: inout PayloadReader) -> [ActionButton] {
        let ignored = "the buttons are ignored (the DashX iOS SDK ignores them, Android rejects the whole payload)"
        let elements: [JSONValue]
        switch reader.list(value, heldAt: blockDepth) {
        case .absent:
            return []
        case .inPlace(let array):
            elements = array
        case .inString(let array, _):
            reader.warn(
                .androidDiffers,
                "dashx.action_buttons is a JSON string: the DashX iOS SDK decodes it, the Android SDK rejects the whole payload; read as on iOS"
            )
            elements = array
        case .stringTooDeep(_, let clause):
            reader.warn(.invalidActionButtons, "dashx.action_buttons is a JSON string that \(clause): \(ignored)")
            return []
        case .stringNotJSON, .stringHoldsWrongType:
            reader.warn(.invalidActionButtons, "dashx.action_buttons is a string that is not a JSON array: \(ignored)")
            return []
        case .wrongType(let other):
            reader.warn(.invalidActionButtons, "dashx.action_buttons is \(other.typeDescription), not an array: \(ignored)")
            return []
        }
        let sdks = "the DashX iOS SDK drops every action button, Android the whole payload"
        var buttons: [ActionButton] = []
        for (index, element) in elements.enumerated() {
            // Built only for a warning.
            var location: String { "dashx.action_buttons[\(index)]" }
            guard case .object(let object) = element else {
                reader.warn(.invalidActionButtons, "\(location) is \(element.typeDescription), not an object: skipped (\(sdks))")
                continue
            }
            guard let id = object["identifier"]?.stringValue else {
                reader.warn(.invalidActionButtons, "\(location) has no string identifier: skipped (\(sdks))")
                continue
            }
            let label = object["label"]?.stringValue
            if label == nil {
                reader.warn(.invalidActionButtons, "\(location) ('\(id)') has no string label: kept without one (\(sdks))")
            }
            let fields = DashXFields(object: object, buttonIndex: index, names: .button, depth: buttonDepth)
            fields.validate(using: &reader)
            buttons.append(ActionButton(id: id, label: label, fields: fields))
        }
        return buttons
    }
}

extension DashXAdapter {
    /// `false`: the adapter never reads the text of a notification's alert (`aps.alert`).
    public var readsAlertText: Bool { false }
}
