public import TapRoute

/// Writes a message as the interaction object Bird's SDK hands the app when the user taps the
/// notification (a `vendorEvent`): Bird's SDKs read the raw push inside a closed binary, so
/// this object, not an APNs payload, is what the app (and the adapter) sees.
///
/// ```json
/// {"kind": "vendorEvent",
///  "event": {"type": "Tap", "payload": "{\"orderId\":\"409\"}",
///            "action": {"type": "DEEP_LINK", "uri": "campaigndemoapp://orders/409"}}}
/// ```
///
/// `adapters/Bird/README.md` ("Encoding") gives the sources and what the object cannot carry.
extension BirdAdapter: MessageEncoding {
    /// A tap opens the app (`OPEN_APP`) or a URL (`URL` or `DEEP_LINK`); custom data is the
    /// template's custom payload (a JSON string). A tap event names no buttons (only a button's
    /// own event names the one tapped), carries no message id and no alert text.
    public var encodingCapabilities: EncodingCapabilities {
        EncodingCapabilities(
            destinations: [.app, .url],
            buttonDestinations: [],
            buttonLabels: false,
            messageId: false,
            data: true
        )
    }

    /// The `Tap` interaction for `message`.
    /// - Throws: `cannotExpress` for an empty URL (Bird reads an action without a URI as
    ///   opening the app), and for data nesting deeper than the default
    ///   ``Limits/maxDepth`` allows the payload string (the adapter would keep it as text).
    public func encode(_ message: OutgoingMessage) throws(EncodingError) -> InputEvent {
        var action = JSONObject()
        switch message.destination {
        case .url(let url, let target):
            guard !url.isEmpty else {
                throw EncodingError(
                    .cannotExpress,
                    vendor: Self.id,
                    field: "$.destination",
                    "the URL is empty; Bird reads an action without a uri as opening the app: give the destination as {\"type\":\"app\"}"
                )
            }
            action["type"] = .string(Self.actionType(url: url, target: target).documentedName)
            action["uri"] = .string(url)
        default:
            action["type"] = .string(BirdActionType.openApp.documentedName)
        }
        var event: JSONObject = ["type": "Tap"]
        if !message.data.isEmpty {
            event["payload"] = .string(try Self.payloadText(message.data))
        }
        event["action"] = .object(action)
        return InputEvent(.vendorEvent(event))
    }

    /// `URL` for a web page (Bird's SDK opens it in the browser), `DEEP_LINK` for a link into
    /// an app: any other scheme, or a URL the message says is the app's own (Bird leaves a
    /// deep link to the app unless it passes `automaticallyOpenDeeplinks: true`).
    private static func actionType(url: String, target: URLTarget) -> BirdActionType {
        let web = URLParts.hasScheme("https", url) || URLParts.hasScheme("http", url)
        return web && target != .app ? .url : .deepLink
    }

    /// The data as the template's custom payload: JSON text of the object, which the adapter
    /// decodes back under the default limits.
    private static func payloadText(_ data: JSONObject) throws(EncodingError) -> String {
        let text = JSONValue.object(data).jsonString()
        let limits = Limits()
        do {
            _ = try limits.parseEmbeddedJSON(text, heldAt: Limits.payloadDepth)
        } catch {
            throw EncodingError(
                .cannotExpress,
                vendor: id,
                field: "$.data",
                "the data \(limits.embeddedDepthClause(heldAt: Limits.payloadDepth)); Bird's payload string would be read back as text"
            )
        }
        return text
    }
}
