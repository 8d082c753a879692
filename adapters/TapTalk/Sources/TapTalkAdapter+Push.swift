import TapRoute

extension TapTalkAdapter {
    /// Where a push carries its TapTalk message.
    enum PushFormat {
        /// iOS: `userInfo.data.message`, a dictionary.
        case iOS(message: JSONObject)
        /// Android FCM data: `identifier` is ``TapTalkAdapter/androidIdentifier`` and `body`
        /// should be a JSON string of the message.
        case android(body: JSONValue?)
    }

    /// The keys a TapTalk push has at least one of: `data` (iOS, bit 1) and `identifier`
    /// (Android, bit 2).
    static let pushKeys = KeyMarks([(key: "data", bits: 1), (key: "identifier", bits: 2)])

    /// The format of a TapTalk push, or `nil` when `userInfo` is not TapTalk's. Cheap: the
    /// Android `body` string is not parsed here.
    static func pushFormat(of userInfo: JSONObject) -> PushFormat? {
        // Detection asks this of most notifications, most of which have neither key:
        // one pass over the keys, read in place, answers those before any lookup.
        let marks = pushKeys.marks(in: userInfo)
        if marks == 0 { return nil }
        if marks & 1 != 0, case .object(let data)? = userInfo["data"], case .object(let message)? = data["message"],
            message.hasMember("room") || message.hasMember("localID") || message.hasMember("messageID")
        {
            return .iOS(message: message)
        }
        if marks & 2 != 0, case .string(androidIdentifier)? = userInfo["identifier"] {
            return .android(body: userInfo["body"])
        }
        return nil
    }

    /// Reads a TapTalk push tapped, dismissed, or answered with an action button.
    func readPush(_ format: PushFormat, action: String?, origin: InputEvent.NotificationOrigin, using reader: inout PayloadReader)
        -> AdapterResult
    {
        // nil: the Android body holds no message (already warned about).
        let message: JSONObject?
        let location: String
        switch format {
        case .iOS(let m):
            message = m
            location = "data.message"
        case .android(let body):
            location = "body"
            message = Self.androidMessage(body, using: &reader)
        }

        let trigger = Trigger(notificationAction: action)
        let destination: Destination
        switch trigger {
        case .dismiss:
            destination = .none
        case .button(let id, _):
            destination = .app
            reader.warn(
                .unknownButton,
                "TapTalk chat notifications offer no action buttons, so the action '\(id)' leads nowhere TapTalk defines; the destination is the app"
            )
        case .tap, .open:
            var roomID = message.map { Self.roomID(in: $0, location: location, using: &reader) } ?? ""
            if !roomID.isEmpty, let problem = Self.roomIDProblem(roomID) {
                reader.warn(.invalidRoomID, "the room ID at \(location).room.roomID \(problem); the room list is shown instead")
                roomID = ""
            }
            destination = roomDestination(roomID, url: nil)
            if !roomID.isEmpty, case .iOS(let m) = format, !m.hasMember("localID") {
                reader.warn(Self.missingLocalIDWarning(m))
            }
        }

        return AdapterResult(
            channel: origin == .local ? .local : .push,
            trigger: trigger,
            destination: destination,
            messageId: reader.nonEmptyString(message?["messageID"]) ?? reader.nonEmptyString(message?["localID"]),
            payload: message.map(Self.payload(of:)) ?? [:]
        )
    }

    /// The ``Warning/Code/iOSWouldDrop`` warning for an iOS push whose message has no
    /// `localID`: TapTalk's iOS SDK (`TAPEncryptorManager decryptToMessageModelFromDictionary:`)
    /// returns nil without one, so `handleTappedNotificationWithUserInfo:` returns before
    /// opening anything; its Android SDK (`TAPEncryptorManager.decryptMessage`) fails, and
    /// shows no notification, when the message's `body` or `data` is not empty.
    static func missingLocalIDWarning(_ message: JSONObject) -> Warning {
        func isEmptyOrAbsent(_ value: JSONValue?) -> Bool {
            switch value {
            case nil, .null?, .string("")?: true
            default: false
            }
        }
        let android =
            isEmptyOrAbsent(message["body"]) && isEmptyOrAbsent(message["data"])
            ? "its Android SDK would open the room (the message's body and data are empty)"
            : "its Android SDK drops it too (decryptMessage fails on the message's body or data without a localID)"
        return Warning(
            .iOSWouldDrop,
            "the TapTalk message at data.message has no localID: TapTalk's iOS SDK (decryptToMessageModelFromDictionary: returns nil) opens no room for this tap, and \(android); TapRoute opens the room the message names"
        )
    }

    /// The message in an Android FCM `body`: a JSON string holding the message object,
    /// nesting no deeper than `limits.maxDepth` allows from the record's root. `nil`, with a
    /// ``Warning/Code/missingMessage`` warning saying why, for anything else, an object
    /// written in place included.
    static func androidMessage(_ body: JSONValue?, using reader: inout PayloadReader) -> JSONObject? {
        let problem: String
        switch reader.object(body, heldAt: Limits.payloadDepth) {
        case .inString(let message, _):
            return message
        case .absent:
            problem = "is missing"
        case .inPlace(let object):
            problem = "is \(JSONValue.object(object).typeDescription), not a JSON string"
        case .wrongType(let other):
            problem = "is \(other.typeDescription), not a JSON string"
        case .stringTooDeep(_, let clause):
            problem = "is a JSON string that \(clause)"
        case .stringNotJSON(_, let error):
            problem = "is not JSON (\(error.description))"
        case .stringHoldsWrongType(let value, _):
            problem = "holds \(value.typeDescription), not a message object"
        }
        reader.warn(.missingMessage, "the TapTalk Android push's body \(problem); no room can be read")
        return nil
    }

    /// The message's `room.roomID`, or `""` with a `missingRoomID` warning saying why there
    /// is none. A number is read as its text, with an `iOSWouldDrop` warning.
    static func roomID(in message: JSONObject, location: String, using reader: inout PayloadReader) -> String {
        // Made only for a warning.
        var path: String { "\(location).room.roomID" }
        func missing(_ why: String) -> String {
            reader.warn(.missingRoomID, "the TapTalk message has no room ID (\(path) \(why)); the room list is shown instead")
            return ""
        }
        let room: JSONObject
        switch message["room"] {
        case nil, .null?:
            return missing("is absent")
        case .object(let o)?:
            room = o
        case let other?:
            return missing("is absent: \(location).room is \(other.typeDescription), not an object")
        }
        switch room["roomID"] {
        case nil, .null?:
            return missing("is absent")
        case .string(let id)?:
            return id.isEmpty ? missing("is empty") : id
        case .number(let n)?:
            reader.warn(
                .iOSWouldDrop,
                "\(path) is the number \(n.text), not a string; the iOS SDK expects a string, Android's Gson reads the number as text, and so does TapRoute"
            )
            return n.text
        case let other?:
            return missing("is \(other.typeDescription), not a string")
        }
    }

    /// The custom data kept from a message: the room's type and external ID, and the
    /// sender's IDs.
    static func payload(of message: JSONObject) -> JSONObject {
        var payload = JSONObject()
        if case .object(let room)? = message["room"] {
            switch room["type"] {
            case .number(let n)? where n.intValue != nil:
                payload["roomType"] = .number(n)
            case .string(let s)?:
                if let i = Int(s) { payload["roomType"] = .number(JSONNumber(i)) }
            default:
                break
            }
            if let xcRoomID = PayloadReader.nonEmptyString(room["xcRoomID"]) { payload["xcRoomID"] = .string(xcRoomID) }
        }
        if case .object(let user)? = message["user"] {
            if let userID = PayloadReader.nonEmptyString(user["userID"]) { payload["senderUserID"] = .string(userID) }
            if let xcUserID = PayloadReader.nonEmptyString(user["xcUserID"]) { payload["senderXCUserID"] = .string(xcUserID) }
        }
        return payload
    }
}
