import TapRoute

extension AdobeAdapter {
    /// The `userInfo` keys of a Campaign Standard push that are envelope, not payload.
    static let campaignPushEnvelopeKeys: [String] = ["aps", "media-attachment-url", "uri", "_mId", "_dId"]
    /// The `userInfo` keys of a Campaign local notification that are envelope, not payload.
    static let campaignLocalEnvelopeKeys: [String] = ["aps", "adb_deeplink", "broadlogId", "deliveryId"]

    /// A Campaign Standard push: `uri` is the destination, `_mId` the broadlog id (and message
    /// id), `_dId` the delivery id. The SDK never opens `uri`: the app opens it.
    static func campaignPush(_ userInfo: JSONObject, channel: Channel, trigger: Trigger, reader: inout PayloadReader) -> AdapterResult {
        let uri = reader.nonEmptyString(userInfo["uri"], otherType: { ignoredField("userInfo.uri", $0) })
        var tracking = JSONObject()
        let broadlogId = campaignIDs(userInfo, into: &tracking, reader: &reader)
        let destination = notificationDestination(
            trigger: trigger,
            url: uri,
            buttonsNote: "a Campaign Standard push gives buttons no destination",
            reader: &reader
        )
        return AdapterResult(
            channel: channel,
            trigger: trigger,
            destination: destination,
            messageId: broadlogId,
            payload: userInfo.removing(campaignPushEnvelopeKeys),
            tracking: tracking,
            vendorBehavior: .appOpens
        )
    }

    /// A Campaign local notification: `adb_deeplink` is the destination; the rule's
    /// `userData` sits beside it, `broadlogId` and `deliveryId` going to tracking and the rest
    /// to payload. The SDK never opens `adb_deeplink`: the app opens it.
    static func campaignLocal(_ userInfo: JSONObject, trigger: Trigger, reader: inout PayloadReader) -> AdapterResult {
        let deeplink = reader.nonEmptyString(userInfo["adb_deeplink"], otherType: { ignoredField("userInfo.adb_deeplink", $0) })
        var tracking = JSONObject()
        let broadlogId = reader.nonEmptyString(userInfo["broadlogId"], otherType: { ignoredField("userInfo.broadlogId", $0) })
        if let broadlogId { tracking["broadlogId"] = .string(broadlogId) }
        if let deliveryId = reader.nonEmptyString(userInfo["deliveryId"], otherType: { ignoredField("userInfo.deliveryId", $0) }) {
            tracking["deliveryId"] = .string(deliveryId)
        }
        let destination = notificationDestination(
            trigger: trigger,
            url: deeplink,
            buttonsNote: "a Campaign local notification gives buttons no destination",
            reader: &reader
        )
        return AdapterResult(
            channel: .local,
            trigger: trigger,
            destination: destination,
            messageId: broadlogId,
            payload: userInfo.removing(campaignLocalEnvelopeKeys),
            tracking: tracking,
            vendorBehavior: .appOpens
        )
    }

    /// `_mId` → `broadlogId`, `_dId` → `deliveryId`; returns the broadlog id.
    private static func campaignIDs(_ userInfo: JSONObject, into tracking: inout JSONObject, reader: inout PayloadReader) -> String? {
        let broadlogId = reader.nonEmptyString(userInfo["_mId"], otherType: { ignoredField("userInfo._mId", $0) })
        if let broadlogId { tracking["broadlogId"] = .string(broadlogId) }
        if let deliveryId = reader.nonEmptyString(userInfo["_dId"], otherType: { ignoredField("userInfo._dId", $0) }) {
            tracking["deliveryId"] = .string(deliveryId)
        }
        return broadlogId
    }

    /// Campaign push and local: a tap goes to `url` (or the app), a dismiss nowhere, a button
    /// of the app's own category to the app.
    private static func notificationDestination(
        trigger: Trigger,
        url: String?,
        buttonsNote: String,
        reader: inout PayloadReader
    ) -> Destination {
        switch trigger {
        case .tap, .open:
            return url.map { .url($0, target: .external) } ?? .app
        case .dismiss:
            return .none
        case .button(let buttonID, _):
            reader.warn(
                .appDefinedAction,
                "button '\(buttonID)' is an action of the app's own notification category: \(buttonsNote), so the app decides"
            )
            return .app
        }
    }
}

// MARK: - Journey Optimizer push

extension AdobeAdapter {
    /// The values of `adb_a_type`.
    static let actionTypes: Set<String> = ["WEBURL", "DEEPLINK", "DISMISS", "OPENAPP"]

    /// A Journey Optimizer (AEP Messaging) push: `adb_uri` is the destination and the SDK
    /// opens it itself when `_xdm` is there (``VendorBehavior/sdkOpensURL``); `_xdm` goes to
    /// tracking; `adb_act` lists the buttons.
    static func journeyOptimizerPush(
        _ userInfo: JSONObject,
        channel: Channel,
        trigger: Trigger,
        reader: inout PayloadReader
    ) -> AdapterResult {
        let uri = reader.nonEmptyString(userInfo["adb_uri"], otherType: { ignoredField("userInfo.adb_uri", $0) })
        var tracking = JSONObject()
        _ = campaignIDs(userInfo, into: &tracking, reader: &reader)
        let xdm = readXDM(userInfo["_xdm"], reader: &reader)
        if let object = xdm.object { tracking["_xdm"] = .object(object) }
        let actionType = reader.nonEmptyString(userInfo["adb_a_type"], otherType: { ignoredField("userInfo.adb_a_type", $0) })
        let buttons = readActionButtons(userInfo["adb_act"], reader: &reader)

        // Adobe's iOS SDK opens adb_uri for a tap only when _xdm is a dictionary.
        var behavior: VendorBehavior = xdm.iOSOpensURL ? .sdkOpensURL : .appOpens
        let destination: Destination
        var resolvedTrigger = trigger
        switch trigger {
        case .tap, .open:
            if let uri {
                destination = .url(uri, target: .external)
                if let note = androidBodyDifference(actionType) {
                    reader.warn(.androidDiffers, note)
                }
            } else {
                destination = .app
            }
        case .dismiss:
            destination = .none
        case .button(let actionID, _):
            // A custom action never opens a URL in Adobe's iOS SDK.
            behavior = .appOpens
            if let button = buttons.first(where: { $0.id == actionID }) {
                resolvedTrigger = .button(id: actionID, label: button.label)
                destination = button.destination
                if let url = button.destination.url {
                    reader.warn(
                        .iOSWouldDrop,
                        "button '\(actionID)' opens '\(url)' on Android, but Adobe's iOS SDK opens no URL for a custom action; TapRoute keeps it as the destination and leaves opening it to the app"
                    )
                }
            } else if buttons.isEmpty {
                destination = .app
                reader.warn(
                    .appDefinedAction,
                    "button '\(actionID)' is an action of the app's own notification category: adb_act lists no buttons, so the app decides"
                )
            } else {
                destination = .app
                let labels = buttons.map { "'\($0.id)'" }.joined(separator: ", ")
                reader.warn(
                    .unknownButton,
                    "action '\(actionID)' matches no adb_act button label (\(labels)); the destination is the app"
                )
            }
        }
        return AdapterResult(
            channel: channel,
            trigger: resolvedTrigger,
            destination: destination,
            buttons: buttons,
            messageId: xdm.messageID,
            payload: journeyOptimizerPayload(userInfo),
            tracking: tracking,
            vendorBehavior: behavior
        )
    }

    /// Everything but `aps`, `_xdm`, `_mId`, `_dId`, `media-attachment-url` and Adobe's
    /// reserved `adb_` keys — except `adb_iam_id`, which names the in-app message a
    /// push-to-in-app campaign shows and which no other field carries.
    private static func journeyOptimizerPayload(_ userInfo: JSONObject) -> JSONObject {
        userInfo.removing { key in
            journeyOptimizerEnvelopeKeys.contains(key) || (hasReservedPrefix(key) && key != "adb_iam_id")
        }
    }

    /// The `userInfo` keys of a Journey Optimizer push that are envelope, not payload, besides
    /// the reserved `adb_` ones.
    static let journeyOptimizerEnvelopeKeys: [String] = ["aps", "_xdm", "_mId", "_dId", "media-attachment-url"]

    /// `key.hasPrefix("adb_")`, read from the bytes when the byte after the prefix is ASCII
    /// or there is none (then `_` is a character of its own); `hasPrefix` otherwise.
    static func hasReservedPrefix(_ key: String) -> Bool {
        // No other spelling of the ASCII prefix is canonically equivalent to it.
        guard key.hasUTF8Prefix("adb_") else { return false }
        guard let next = key.utf8.dropFirst(4).first, next >= 0x80 else { return true }
        return key.hasPrefix("adb_")
    }

    /// Why Adobe's Android SDK does not open `adb_uri` for a tap on the notification body
    /// (it opens it only for `WEBURL` and `DEEPLINK`), or `nil` when it does or when the
    /// payload, like every iOS payload, states no `adb_a_type`.
    private static func androidBodyDifference(_ actionType: String?) -> String? {
        let stated: String
        switch actionType {
        case nil, "WEBURL"?, "DEEPLINK"?:
            return nil
        case let type? where actionTypes.contains(type):
            stated = "adb_a_type is '\(type)'"
        case let type?:
            stated = "adb_a_type '\(type)' is not WEBURL, DEEPLINK, DISMISS or OPENAPP"
        }
        return "\(stated): Adobe's Android SDK opens only the app for a tap on the notification, while its iOS SDK opens adb_uri"
    }

    /// What `_xdm` gives.
    struct XDM {
        /// The tracking object, when there is one.
        var object: JSONObject?
        /// The message id inside it (`cjm` or `mixins` →
        /// `_experience.customerJourneyManagement.messageExecution.messageID`).
        var messageID: String?
        /// Whether Adobe's iOS SDK would track the tap and open `adb_uri`.
        var iOSOpensURL: Bool
    }

    /// Reads `_xdm`: a non-empty dictionary is what Adobe's iOS SDK needs; a string holding
    /// one is how FCM delivers it on Android (read under `limits.maxDepth` from the record's
    /// root); anything else means no tracking data.
    static func readXDM(_ value: JSONValue?, reader: inout PayloadReader) -> XDM {
        let consequence =
            "Adobe's iOS SDK (handleNotificationResponse) reports noTrackingData and opens no URL; TapRoute keeps the destination and leaves it to the app"
        switch reader.object(value, heldAt: Limits.payloadDepth) {
        case .inPlace(let object) where !object.isEmpty:
            return XDM(object: object, messageID: messageID(in: object), iOSOpensURL: true)
        case .inPlace:
            reader.warn(.noTrackingData, "_xdm is empty: \(consequence)")
        case .inString(let object, _) where !object.isEmpty:
            reader.warn(
                .androidDiffers,
                "_xdm is a JSON string, as FCM delivers it on Android; Adobe's iOS SDK reads only a dictionary, so it would report noTrackingData and open no URL"
            )
            return XDM(object: object, messageID: messageID(in: object), iOSOpensURL: false)
        case .stringTooDeep(_, let clause):
            reader.warn(.noTrackingData, "_xdm is a JSON string that \(clause): \(consequence)")
        case .inString, .stringNotJSON, .stringHoldsWrongType:
            reader.warn(.noTrackingData, "_xdm is a string that holds no JSON object: \(consequence)")
        case .absent:
            reader.warn(.noTrackingData, "_xdm is missing: \(consequence)")
        case .wrongType(let other):
            reader.warn(.noTrackingData, "_xdm is \(other.typeDescription), not an object: \(consequence)")
        }
        return XDM(object: nil, messageID: nil, iOSOpensURL: false)
    }

    private static func messageID(in xdm: JSONObject) -> String? {
        for root in ["cjm", "mixins"] {
            let id = xdm[root]?["_experience"]?["customerJourneyManagement"]?["messageExecution"]?["messageID"]
            if let id = PayloadReader.nonEmptyString(id) { return id }
        }
        return nil
    }

    /// Reads `adb_act`, a JSON string (or an array) of `{label, uri, type}`, as Adobe's
    /// Android SDK does: a button needs a non-empty `label` (its id) and a `type`; only
    /// `WEBURL` and `DEEPLINK` buttons use their `uri`; `DISMISS` closes the notification;
    /// anything else opens the app. The string is read under `limits.maxDepth` from the
    /// record's root.
    static func readActionButtons(_ value: JSONValue?, reader: inout PayloadReader) -> [Interaction.Button] {
        let elements: [JSONValue]
        switch reader.list(value, heldAt: Limits.payloadDepth) {
        case .absent:
            return []
        case .inPlace(let array), .inString(let array, _):
            elements = array
        case .stringTooDeep(_, let clause):
            reader.warn(
                .invalidActionButtons,
                "adb_act is a JSON string that \(clause): no buttons are listed, as Adobe's Android SDK shows none"
            )
            return []
        case .stringNotJSON, .stringHoldsWrongType:
            reader.warn(
                .invalidActionButtons,
                "adb_act is not a JSON array of buttons: no buttons are listed, as Adobe's Android SDK shows none"
            )
            return []
        case .wrongType(let other):
            reader.warn(
                .invalidActionButtons,
                "adb_act is \(other.typeDescription), not a JSON array of buttons: no buttons are listed, as Adobe's Android SDK shows none"
            )
            return []
        }
        var buttons: [Interaction.Button] = []
        for (i, element) in elements.enumerated() {
            guard let object = element.objectValue,
                let label = reader.nonEmptyString(object["label"]),
                let type = object["type"]?.stringValue
            else {
                reader.warn(
                    .invalidActionButtons,
                    "adb_act[\(i)] has no non-empty label or no type: skipped, as Adobe's Android SDK skips it"
                )
                continue
            }
            let destination: Destination
            switch type {
            case "WEBURL", "DEEPLINK":
                destination = reader.nonEmptyString(object["uri"]).map { .url($0, target: .external) } ?? .app
            case "DISMISS":
                destination = .none
            default:
                destination = .app
            }
            buttons.append(Interaction.Button(id: label, label: label, destination: destination))
        }
        return buttons
    }
}
