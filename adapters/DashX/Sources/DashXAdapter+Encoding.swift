public import TapRoute

/// DashX's device payload for an ``TapRoute/OutgoingMessage``: the APNs `aps` dictionary and
/// the `dashx` JSON string the DashX SDKs read (`adapters/DashX/README.md`, "Encoding").
///
/// ```json
/// {"aps": {"alert": {"title": "Order shipped", "body": "Track it"}, "category": "DASHX_NOTIFICATION", "mutable-content": 1},
///  "dashx": "{\"id\":\"m-1\",\"title\":\"Order shipped\",\"body\":\"Track it\",\"url\":\"https://shop.example.com/t/1\"}"}
/// ```
///
/// Every destination kind but `none` reaches the app, on the notification and on each
/// action button: `url` (with `rich_landing` for an in-app browser), `screen_name` with
/// `screen_data`, `click_action`, or nothing for the app. Custom data does not: DashX
/// documents no keys beside `dashx` that reach the device.
extension DashXAdapter: MessageEncoding {
    /// The destinations DashX's resolution reads (`DashXNotificationData.navigationAction`):
    /// app, url, inAppBrowser, screen and clickAction, on the notification and on buttons;
    /// button labels; the message id (`id`); no custom data.
    public var encodingCapabilities: EncodingCapabilities {
        let kinds: Set<DestinationKind> = [.app, .url, .inAppBrowser, .screen, .clickAction]
        return EncodingCapabilities(
            destinations: kinds,
            buttonDestinations: kinds,
            buttonLabels: true,
            requiresButtonLabels: true,
            messageId: true,
            data: false
        )
    }

    /// The DashX push for `message`: `aps` with the alert, DashX's category (its button set's
    /// `DASHX_CAT_…` name, or `DASHX_NOTIFICATION`) and `mutable-content` (DashX's
    /// Notification Service Extension registers the buttons), and `dashx`, the JSON string of
    /// `id`, `title`, `body`, the destination's fields and `action_buttons`.
    ///
    /// `id` and `title`, which the DashX iOS SDK requires, are empty strings when the message
    /// has none (an empty `id` reads back as no message id).
    /// - Throws: ``TapRoute/EncodingError`` `cannotExpress` for what DashX would read
    ///   differently: a URL, screen name or click action that is empty or has surrounding
    ///   whitespace (the SDKs trim them), a button without a label (both SDKs require one),
    ///   or a button whose id is one of iOS's own action identifiers.
    public func encode(_ message: OutgoingMessage) throws(EncodingError) -> InputEvent {
        var block = JSONObject()
        block["id"] = .string(message.messageId ?? "")
        block["title"] = .string(message.title ?? "")
        block["body"] = .string(message.body)
        try Self.write(message.destination, names: .topLevel, into: &block, field: "$.destination")

        var category: [(identifier: String, label: String)] = []
        if !message.buttons.isEmpty {
            var buttons: [JSONValue] = []
            for (i, button) in message.buttons.enumerated() {
                let field = "$.buttons[\(i)]"
                guard button.id != NotificationAction.defaultIdentifier, button.id != NotificationAction.dismissIdentifier else {
                    throw Self.cannotExpress(
                        field + ".id",
                        "'\(button.id)' is an action identifier of iOS itself; a DashX button with it would be read as a tap or a dismiss"
                    )
                }
                guard let label = button.label else {
                    throw Self.cannotExpress(
                        field + ".label",
                        "a DashX action button needs a label (both DashX SDKs reject a button without one)"
                    )
                }
                var object = JSONObject()
                object["identifier"] = .string(button.id)
                object["label"] = .string(label)
                try Self.write(button.destination, names: .button, into: &object, field: field + ".destination")
                buttons.append(.object(object))
                category.append((button.id, label))
            }
            block["action_buttons"] = .array(buttons)
        }

        var aps = message.apsAlert.objectValue ?? [:]
        aps["category"] = .string(DashXCategory.identifier(forButtons: category))
        aps["mutable-content"] = 1
        let userInfo: JSONObject = ["aps": .object(aps), "dashx": .string(JSONValue.object(block).jsonString())]
        return InputEvent(.notification(userInfo: userInfo, action: nil, origin: .remote))
    }

    /// Writes a destination's DashX fields into `object` (the notification's snake_case keys
    /// or a button's camelCase ones). A screen that carries the link it came from is written
    /// as that link, which the registry's routes read back as the screen.
    static func write(_ destination: Destination, names: FieldNames, into object: inout JSONObject, field: String)
        throws(EncodingError)
    {
        switch destination {
        case .app:
            return
        case .url(let url, let target):
            try checkTrimmed(url, what: "URL", field: field)
            object["url"] = .string(url)
            if target == .inAppBrowser { object[names.richLanding] = true }
        case .screen(_, _, let url?):
            try checkTrimmed(url, what: "screen's link", field: field)
            object["url"] = .string(url)
        case .screen(let name, let parameters, nil):
            try checkTrimmed(name, what: "screen name", field: field)
            object[names.screenName] = .string(name)
            if !parameters.isEmpty {
                object[names.screenData] = .object(JSONObject(parameters.map { ($0.name, JSONValue.string($0.value)) }))
            }
        case .clickAction(let action):
            try checkTrimmed(action, what: "click action", field: field)
            object[names.clickAction] = .string(action)
        case .none:
            throw cannotExpress(field, "a DashX notification or button always leads somewhere (at least the app)")
        }
    }

    /// Throws unless `text` is non-empty and has no surrounding whitespace: the DashX SDKs
    /// trim these fields and ignore an empty one, so anything else would read back changed.
    static func checkTrimmed(_ text: String, what: String, field: String) throws(EncodingError) {
        guard let trimmed = PayloadReader.trimmedNonEmpty(text) else {
            throw cannotExpress(field, "the \(what) is empty or blank, which the DashX SDKs ignore")
        }
        guard trimmed.utf8.count == text.utf8.count else {
            throw cannotExpress(field, "the \(what) '\(text)' has surrounding whitespace, which the DashX SDKs trim")
        }
    }

    /// A `cannotExpress` error for `field`.
    static func cannotExpress(_ field: String, _ message: String) -> EncodingError {
        EncodingError(.cannotExpress, vendor: id, field: field, message)
    }
}
