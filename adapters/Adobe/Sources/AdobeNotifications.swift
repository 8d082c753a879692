import TapRoute

extension AdobeAdapter {
    /// The `userInfo` keys of a Campaign Standard push that are envelope, not payload.
    static let campaignPushEnvelopeKeys: [String] = ["aps", "media-attachment-url", "uri", "_mId", "_dId"]
    /// The `userInfo` keys of a Campaign local notification that are envelope, not payload.
    static let campaignLocalEnvelopeKeys: [String] = ["aps", "adb_deeplink", "broadlogId", "deliveryId"]

    /// A Campaign Standard push: `uri` is the destination, `_mId` the broadlog id (and message
    /// id), `_dId` the delivery id. The SDK never opens `uri`: built-in handling `app`.
    static func campaignPush(_ userInfo: JSONObject, channel: Channel, trigger: Trigger) -> Interaction {
        var warnings: [Warning] = []
        let fields = FieldReader(location: "userInfo", object: userInfo)
        let uri = fields.string("uri", warnings: &warnings)
        var tracking = JSONObject()
        let broadlogId = campaignIDs(fields, into: &tracking, warnings: &warnings)
        let destination = notificationDestination(
            trigger: trigger,
            url: uri,
            buttonsNote: "a Campaign Standard push gives buttons no destination",
            warnings: &warnings
        )
        return Interaction(
            vendor: id,
            channel: channel,
            trigger: trigger,
            destination: destination,
            handling: .app,
            messageId: broadlogId,
            payload: userInfo.removing(campaignPushEnvelopeKeys),
            tracking: tracking,
            warnings: warnings
        )
    }

    /// A Campaign local notification: `adb_deeplink` is the destination; the rule's
    /// `userData` sits beside it, `broadlogId` and `deliveryId` going to tracking and the rest
    /// to payload. The SDK never opens `adb_deeplink`: built-in handling `app`.
    static func campaignLocal(_ userInfo: JSONObject, trigger: Trigger) -> Interaction {
        var warnings: [Warning] = []
        let fields = FieldReader(location: "userInfo", object: userInfo)
        let deeplink = fields.string("adb_deeplink", warnings: &warnings)
        var tracking = JSONObject()
        let broadlogId = fields.string("broadlogId", warnings: &warnings)
        if let broadlogId { tracking["broadlogId"] = .string(broadlogId) }
        if let deliveryId = fields.string("deliveryId", warnings: &warnings) { tracking["deliveryId"] = .string(deliveryId) }
        let destination = notificationDestination(
            trigger: trigger,
            url: deeplink,
            buttonsNote: "a Campaign local notification gives buttons no destination",
            warnings: &warnings
        )
        return Interaction(
            vendor: id,
            channel: .local,
            trigger: trigger,
            destination: destination,
            handling: .app,
            messageId: broadlogId,
            payload: userInfo.removing(campaignLocalEnvelopeKeys),
            tracking: tracking,
            warnings: warnings
        )
    }

    /// `_mId` → `broadlogId`, `_dId` → `deliveryId`; returns the broadlog id.
    private static func campaignIDs(_ fields: FieldReader, into tracking: inout JSONObject, warnings: inout [Warning]) -> String? {
        let broadlogId = fields.string("_mId", warnings: &warnings)
        if let broadlogId { tracking["broadlogId"] = .string(broadlogId) }
        if let deliveryId = fields.string("_dId", warnings: &warnings) { tracking["deliveryId"] = .string(deliveryId) }
        return broadlogId
    }

    /// Campaign push and local: a tap goes to `url` (or the app), a dismiss nowhere, a button
    /// of the app's own category to the app.
    private static func notificationDestination(
        trigger: Trigger,
        url: String?,
        buttonsNote: String,
        warnings: inout [Warning]
    ) -> Destination {
        switch trigger {
        case .tap, .open:
            return url.map { .url($0, target: .external) } ?? .app
        case .dismiss:
            return .none
        case .button(let buttonID, _):
            warnings.append(
                Warning(
                    .appDefinedAction,
                    "button '\(buttonID)' is an action of the app's own notification category: \(buttonsNote), so the app decides"
                )
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
    /// opens it itself (built-in handling `automatic`) when `_xdm` is there; `_xdm` goes to
    /// tracking; `adb_act` lists the buttons.
    static func journeyOptimizerPush(_ userInfo: JSONObject, channel: Channel, trigger: Trigger, limits: Limits) -> Interaction {
        var warnings: [Warning] = []
        let fields = FieldReader(location: "userInfo", object: userInfo)
        let uri = fields.string("adb_uri", warnings: &warnings)
        var tracking = JSONObject()
        _ = campaignIDs(fields, into: &tracking, warnings: &warnings)
        let xdm = readXDM(userInfo["_xdm"], limits: limits, warnings: &warnings)
        if let object = xdm.object { tracking["_xdm"] = .object(object) }
        let actionType = fields.string("adb_a_type", warnings: &warnings)
        let buttons = readActionButtons(userInfo["adb_act"], limits: limits, warnings: &warnings)

        // Adobe's iOS SDK opens adb_uri for a tap only when _xdm is a dictionary.
        var handling: Handling = xdm.iOSOpensURL ? .automatic : .app
        let destination: Destination
        var resolvedTrigger = trigger
        switch trigger {
        case .tap, .open:
            if let uri {
                destination = .url(uri, target: .external)
                if let note = androidBodyDifference(actionType) {
                    warnings.append(Warning(.androidDiffers, note))
                }
            } else {
                destination = .app
            }
        case .dismiss:
            destination = .none
        case .button(let actionID, _):
            // A custom action never opens a URL in Adobe's iOS SDK.
            handling = .app
            if let button = buttons.first(where: { $0.id == actionID }) {
                resolvedTrigger = .button(id: actionID, label: button.label)
                destination = button.destination
                if let url = button.destination.url {
                    warnings.append(
                        Warning(
                            .iOSWouldDrop,
                            "button '\(actionID)' opens '\(url)' on Android, but Adobe's iOS SDK opens no URL for a custom action; TapRoute keeps it as the destination and leaves opening it to the app"
                        )
                    )
                }
            } else if buttons.isEmpty {
                destination = .app
                warnings.append(
                    Warning(
                        .appDefinedAction,
                        "button '\(actionID)' is an action of the app's own notification category: adb_act lists no buttons, so the app decides"
                    )
                )
            } else {
                destination = .app
                let labels = buttons.map { "'\($0.id)'" }.joined(separator: ", ")
                warnings.append(
                    Warning(
                        .unknownButton,
                        "action '\(actionID)' matches no adb_act button label (\(labels)); the destination is the app"
                    )
                )
            }
        }
        return Interaction(
            vendor: id,
            channel: channel,
            trigger: resolvedTrigger,
            destination: destination,
            handling: handling,
            messageId: xdm.messageID,
            payload: journeyOptimizerPayload(userInfo),
            tracking: tracking,
            buttons: buttons,
            warnings: warnings
        )
    }

    /// Everything but `aps`, `_xdm`, `_mId`, `_dId`, `media-attachment-url` and Adobe's
    /// reserved `adb_` keys — except `adb_iam_id`, which names the in-app message a
    /// push-to-in-app campaign shows and which no other field carries.
    private static func journeyOptimizerPayload(_ userInfo: JSONObject) -> JSONObject {
        var keys = ["aps", "_xdm", "_mId", "_dId", "media-attachment-url"]
        for key in userInfo.keys where key.hasPrefix("adb_") && key != "adb_iam_id" {
            keys.append(key)
        }
        return userInfo.removing(keys)
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
    static func readXDM(_ value: JSONValue?, limits: Limits, warnings: inout [Warning]) -> XDM {
        let consequence =
            "Adobe's iOS SDK (handleNotificationResponse) reports noTrackingData and opens no URL; TapRoute keeps the destination and leaves it to the app"
        switch value {
        case .object(let object) where !object.isEmpty:
            return XDM(object: object, messageID: messageID(in: object), iOSOpensURL: true)
        case .string(let text):
            let parsed = Result { () throws(JSONParseError) in try limits.parseEmbeddedJSON(text, heldAt: Limits.payloadDepth) }
            if case .failure(let error) = parsed, error.kind == .tooDeep {
                warnings.append(
                    Warning(
                        .noTrackingData,
                        "_xdm is a JSON string that \(limits.embeddedDepthClause(heldAt: Limits.payloadDepth)): \(consequence)"
                    )
                )
                return XDM(object: nil, messageID: nil, iOSOpensURL: false)
            }
            if case .success(.object(let object)) = parsed, !object.isEmpty {
                warnings.append(
                    Warning(
                        .androidDiffers,
                        "_xdm is a JSON string, as FCM delivers it on Android; Adobe's iOS SDK reads only a dictionary, so it would report noTrackingData and open no URL"
                    )
                )
                return XDM(object: object, messageID: messageID(in: object), iOSOpensURL: false)
            }
            warnings.append(Warning(.noTrackingData, "_xdm is a string that holds no JSON object: \(consequence)"))
        case .object:
            warnings.append(Warning(.noTrackingData, "_xdm is empty: \(consequence)"))
        case nil, .null?:
            warnings.append(Warning(.noTrackingData, "_xdm is missing: \(consequence)"))
        case let other?:
            warnings.append(Warning(.noTrackingData, "_xdm is \(other.typeDescription), not an object: \(consequence)"))
        }
        return XDM(object: nil, messageID: nil, iOSOpensURL: false)
    }

    private static func messageID(in xdm: JSONObject) -> String? {
        for root in ["cjm", "mixins"] {
            let id = xdm[root]?["_experience"]?["customerJourneyManagement"]?["messageExecution"]?["messageID"]
            if let id = id?.stringValue, !id.isEmpty { return id }
        }
        return nil
    }

    /// Reads `adb_act`, a JSON string (or an array) of `{label, uri, type}`, as Adobe's
    /// Android SDK does: a button needs a non-empty `label` (its id) and a `type`; only
    /// `WEBURL` and `DEEPLINK` buttons use their `uri`; `DISMISS` closes the notification;
    /// anything else opens the app.
    static func readActionButtons(_ value: JSONValue?, limits: Limits, warnings: inout [Warning]) -> [Interaction.Button] {
        let elements: [JSONValue]
        switch value {
        case nil, .null?:
            return []
        case .array(let array)?:
            elements = array
        case .string(let text)?:
            let parsed = Result { () throws(JSONParseError) in try limits.parseEmbeddedJSON(text, heldAt: Limits.payloadDepth) }
            guard case .success(.array(let array)) = parsed else {
                let problem =
                    if case .failure(let error) = parsed, error.kind == .tooDeep {
                        "a JSON string that \(limits.embeddedDepthClause(heldAt: Limits.payloadDepth))"
                    } else {
                        "not a JSON array of buttons"
                    }
                warnings.append(
                    Warning(
                        .invalidActionButtons,
                        "adb_act is \(problem): no buttons are listed, as Adobe's Android SDK shows none"
                    )
                )
                return []
            }
            elements = array
        case let other?:
            warnings.append(
                Warning(
                    .invalidActionButtons,
                    "adb_act is \(other.typeDescription), not a JSON array of buttons: no buttons are listed, as Adobe's Android SDK shows none"
                )
            )
            return []
        }
        var buttons: [Interaction.Button] = []
        for (i, element) in elements.enumerated() {
            guard let object = element.objectValue,
                let label = object["label"]?.stringValue, !label.isEmpty,
                let type = object["type"]?.stringValue
            else {
                warnings.append(
                    Warning(
                        .invalidActionButtons,
                        "adb_act[\(i)] has no non-empty label or no type: skipped, as Adobe's Android SDK skips it"
                    )
                )
                continue
            }
            let destination: Destination
            switch type {
            case "WEBURL", "DEEPLINK":
                if let uri = object["uri"]?.stringValue, !uri.isEmpty {
                    destination = .url(uri, target: .external)
                } else {
                    destination = .app
                }
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
