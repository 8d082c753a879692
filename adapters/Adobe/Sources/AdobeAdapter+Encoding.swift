public import TapRoute

/// Writes a message as the Adobe Journey Optimizer (AEP Messaging) push the app receives: the
/// form whose SDK reads the most (a tap destination, buttons, the message id, custom data).
///
/// ```json
/// {"aps": {"alert": {"title": "Your cart", "body": "Still thinking?"}},
///  "adb_uri": "https://shop.example.com/cart", "adb_a_type": "WEBURL",
///  "adb_act": "[{\"label\":\"Later\",\"type\":\"DISMISS\"}]",
///  "_xdm": {"cjm": {"_experience": {"customerJourneyManagement": {
///     "messageExecution": {"messageID": "567"},
///     "messageProfile": {"channel": {"_id": "https://ns.adobe.com/xdm/channels/push"}},
///     "pushChannelContext": {"platform": "apns"}}}}},
///  "cartSize": 3}
/// ```
///
/// `adapters/Adobe/README.md` ("Encoding") gives the sources and what the payload cannot carry.
extension AdobeAdapter: MessageEncoding {
    /// A tap opens the app or a URL (`adb_uri`); buttons (`adb_act`) open the app, a URL or
    /// nothing (`DISMISS`), and are named by their label; the message id rides in `_xdm`; custom
    /// data sits at the root beside Adobe's own keys, which it may not use (`aps`, `_xdm`,
    /// `_mId`, `_dId`, `media-attachment-url`, every `adb_` key), nor `dashx`, which makes the
    /// DashX adapter, checked before Adobe's, claim the push.
    public var encodingCapabilities: EncodingCapabilities {
        EncodingCapabilities(
            destinations: [.app, .url],
            buttonDestinations: [.app, .url, .none],
            buttonLabels: true,
            buttonIDsAreLabels: true,
            messageId: true,
            data: true,
            reservedDataKeys: ["aps", "_xdm", "_mId", "_dId", "media-attachment-url", "dashx"],
            reservedDataKeyPrefixes: ["adb_"]
        )
    }

    /// The Journey Optimizer push for `message`, as a remote notification tapped with the
    /// default action.
    /// - Throws: `cannotExpress` for a button without a label or whose id is not its label
    ///   (Adobe names a button by its label alone), and for an empty URL (Adobe reads an empty
    ///   `adb_uri` or button `uri` as no URL).
    public func encode(_ message: OutgoingMessage) throws(EncodingError) -> InputEvent {
        var userInfo: JSONObject = ["aps": message.apsAlert]
        switch message.destination {
        case .url(let url, let target):
            userInfo["adb_uri"] = .string(try Self.nonEmptyURL(url, field: "$.destination"))
            userInfo["adb_a_type"] = .string(Self.actionType(url: url, target: target))
        default:
            userInfo["adb_a_type"] = "OPENAPP"
        }
        if !message.buttons.isEmpty {
            var buttons: [JSONValue] = []
            for (i, button) in message.buttons.enumerated() {
                buttons.append(try Self.actionButton(button, field: "$.buttons[\(i)]"))
            }
            userInfo["adb_act"] = .string(JSONValue.array(buttons).jsonString())
        }
        userInfo["_xdm"] = Self.trackingData(messageID: message.messageId)
        for (key, value) in message.data {
            userInfo[key] = value
        }
        return InputEvent(.notification(userInfo: userInfo, action: nil, origin: .remote))
    }

    /// `WEBURL` for a web page the system opens, `DEEPLINK` for a link into an app (any other
    /// scheme, or a URL the message says is the app's own): the two types with which Adobe's
    /// Android SDK opens `adb_uri` (its iOS SDK opens it whatever the type).
    private static func actionType(url: String, target: URLTarget) -> String {
        let web = URLParts.hasScheme("https", url) || URLParts.hasScheme("http", url)
        return web && target != .app ? "WEBURL" : "DEEPLINK"
    }

    /// One `adb_act` entry: `{label, uri?, type}`.
    private static func actionButton(_ button: Interaction.Button, field: String) throws(EncodingError) -> JSONValue {
        guard let label = button.label else {
            throw EncodingError(
                .cannotExpress,
                vendor: id,
                field: field + ".label",
                "an adb_act button is named by its label, which the notification shows; give the button a label equal to its id"
            )
        }
        guard label == button.id else {
            throw EncodingError(
                .cannotExpress,
                vendor: id,
                field: field + ".id",
                "an adb_act button has no id of its own: its label ('\(label)') is the action id Adobe's SDK reports, so the id must equal the label"
            )
        }
        var entry: JSONObject = ["label": .string(label)]
        switch button.destination {
        case .url(let url, let target):
            entry["uri"] = .string(try nonEmptyURL(url, field: field + ".destination"))
            entry["type"] = .string(actionType(url: url, target: target))
        case .none:
            entry["type"] = "DISMISS"
        default:
            entry["type"] = "OPENAPP"
        }
        return .object(entry)
    }

    private static func nonEmptyURL(_ url: String, field: String) throws(EncodingError) -> String {
        guard !url.isEmpty else {
            throw EncodingError(
                .cannotExpress,
                vendor: id,
                field: field,
                "the URL is empty; Adobe reads an empty uri as no URL (the app is opened): give the destination as {\"type\":\"app\"}"
            )
        }
        return url
    }

    /// `_xdm` as Journey Optimizer sends it to an APNs device, with `messageID` when there is
    /// one. It is always written: without a non-empty `_xdm` Adobe's iOS SDK reports
    /// `noTrackingData` and opens no URL.
    private static func trackingData(messageID: String?) -> JSONValue {
        var execution = JSONObject()
        if let messageID, !messageID.isEmpty { execution["messageID"] = .string(messageID) }
        let journey: JSONObject = [
            "messageExecution": .object(execution),
            "messageProfile": ["channel": ["_id": "https://ns.adobe.com/xdm/channels/push"]],
            "pushChannelContext": ["platform": "apns"],
        ]
        return ["cjm": ["_experience": ["customerJourneyManagement": .object(journey)]]]
    }
}
