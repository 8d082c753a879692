public import TapRoute

/// TapTalk's iOS chat push for an ``TapRoute/OutgoingMessage``: the APNs alert and
/// `data.message`, the chat message whose room the SDK opens
/// (`adapters/TapTalk/README.md`, "Encoding").
///
/// ```json
/// {"aps": {"alert": {"title": "Alice", "body": "Hi"}},
///  "data": {"message": {"messageID": "91823", "localID": "91823", "type": 1001, "body": "", "room": {"roomID": "2-4096"}}}}
/// ```
///
/// A TapTalk push is a chat message, so the only destination it expresses is the room it
/// belongs to: the `chatRoom` screen (as the adapter's `screens` names it) with exactly a
/// `roomID`. It has no buttons, no URL and no custom data.
extension TapTalkAdapter: MessageEncoding {
    /// A screen destination (only the chat room with its `roomID`); the message id
    /// (`messageID`); no buttons, no URL destinations, no custom data.
    public var encodingCapabilities: EncodingCapabilities {
        EncodingCapabilities(
            destinations: [.screen],
            buttonLabels: false,
            screens: [screens.chatRoom: ["roomID"]],
            messageId: true,
            data: false
        )
    }

    /// The iOS push for `message`: `aps.alert` and `data.message` with `messageID` (the
    /// message id, when there is one), `localID` (the same id, or empty: TapTalk's iOS SDK
    /// drops a message without the key), `type` 1001 (a text message), an empty `body` (the
    /// chat text is encrypted with a key derived from the sender's `localID`, which a
    /// message does not have; the alert shows the text) and `room.roomID`.
    /// - Throws: ``TapRoute/EncodingError`` `cannotExpress` at `$.destination` for any screen
    ///   but the chat room with exactly a usable `roomID` (no control characters, not only
    ///   whitespace) and no link: a push always names its message's room, and carries no link.
    public func encode(_ message: OutgoingMessage) throws(EncodingError) -> InputEvent {
        let roomID = try chatRoomID(of: message.destination)
        var chat = JSONObject()
        if let messageId = message.messageId { chat["messageID"] = .string(messageId) }
        chat["localID"] = .string(message.messageId ?? "")
        chat["type"] = 1001
        chat["body"] = ""
        chat["room"] = .object(["roomID": .string(roomID)])
        let userInfo: JSONObject = ["aps": message.apsAlert, "data": .object(["message": .object(chat)])]
        return InputEvent(.notification(userInfo: userInfo, action: nil, origin: .remote))
    }

    /// The room ID of a `chatRoom` destination a push can carry, or a `cannotExpress` error
    /// saying why the destination is not one.
    func chatRoomID(of destination: Destination) throws(EncodingError) -> String {
        func refuse(_ why: String) -> EncodingError {
            EncodingError(
                .cannotExpress,
                vendor: Self.id,
                field: "$.destination",
                "a TapTalk push opens the room of its chat message, so its destination must be the screen '\(screens.chatRoom)' with a '\(Self.roomIDParameter)' parameter alone; \(why)"
            )
        }
        guard case .screen(let name, let parameters, let url) = destination else {
            throw refuse("this is not a screen")
        }
        guard name == screens.chatRoom else {
            throw refuse(
                name == screens.roomList
                    ? "the room list is reached by TapTalk links, not pushes (a push without a room is an error the adapter warns about)"
                    : "'\(name)' is not a TapTalk screen"
            )
        }
        guard url == nil else { throw refuse("a push carries no link, so the screen's url '\(url ?? "")' cannot reach the app") }
        guard parameters.count == 1, let roomID = parameters[Self.roomIDParameter] else {
            throw refuse("the parameters are \(parameters.names.isEmpty ? "empty" : parameters.names.joined(separator: ", "))")
        }
        guard !roomID.isEmpty else { throw refuse("the room ID is empty") }
        if let problem = Self.roomIDProblem(roomID) { throw refuse("the room ID \(problem)") }
        return roomID
    }
}
