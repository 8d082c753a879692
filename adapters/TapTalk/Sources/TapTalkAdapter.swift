public import TapRoute

/// Normalises TapTalk.io (PowerTalk) chat links and chat pushes into screen destinations.
///
/// TapTalk's destinations are chat rooms, not URLs. Every input becomes one of two screens
/// (names configurable with `screens`):
/// - `chatRoom` with the parameter `roomID`;
/// - `roomList`, when the input names no room.
///
/// What it reads (see `adapters/TapTalk/README.md` for each rule's source):
/// - **Universal links** on ``hosts`` (default `web.taptalk.io`), from `url` or browsing-web
///   `userActivity` envelopes: the room ID is the last non-empty path segment,
///   percent-decoded, as the Android sample's `Uri.getPathSegments()` gives it; no segment
///   is the room list.
/// - **Custom-scheme links** with one of ``schemes`` (default `taptalkio`): `taptalkio://`
///   is the room list; `taptalkio://<roomID>` and `taptalkio://room/<roomID>` open the room
///   (TapRoute's own convention: the vendor's iOS parsing code is not public).
/// - **iOS chat pushes**: `userInfo.data.message`, the message dictionary with `room` and
///   `user`.
/// - **Android FCM data pushes**: `identifier == "io.taptalk.TapTalk"` with `body`, a JSON
///   string of the message.
///
/// A link keeps its URL in the screen destination's `url`. The adapter never checks that a
/// user is logged in (the vendor's sample does); the app's handler decides.
public struct TapTalkAdapter: PayloadAdapter {
    /// `taptalk`.
    public static let id = "taptalk"
    /// One line for `normalize adapters`.
    public static let summary =
        "TapTalk.io chat: universal links on its hosts, its custom scheme, iOS data.message and Android FCM pushes → chatRoom / roomList screens"
    /// `hosts`, `schemes` and `screens`.
    public static let configurationKeys = ["hosts", "schemes", "screens"]

    /// The `identifier` value of TapTalk's Android FCM data messages
    /// (`TapTalk.isTapTalkNotification`).
    public static let androidIdentifier = "io.taptalk.TapTalk"
    /// The universal-link hosts used when the configuration sets none: the vendor's
    /// `web.taptalk.io`.
    public static let defaultHosts = ["web.taptalk.io"]
    /// The custom schemes used when the configuration sets none: the docs' `taptalkio`.
    public static let defaultSchemes = ["taptalkio"]
    /// The name of the screen destination's parameter that carries the room ID.
    public static let roomIDParameter = "roomID"

    /// Universal-link hosts whose links name a room, lower-cased.
    public let hosts: [String]
    /// Custom URL schemes whose links name a room, lower-cased.
    public let schemes: [String]
    /// The screen names the adapter produces.
    public let screens: ScreenNames
    /// ``schemes``: links with them are allowed destinations without being listed in
    /// `security.allowedSchemes`.
    public var claimedSchemes: [String] { schemes }

    /// ``hosts`` as a set.
    let hostSet: SmallStringSet
    /// ``schemes`` as a set.
    let schemeSet: SmallStringSet

    /// The names of the two screens TapTalk links and pushes lead to.
    public struct ScreenNames: Sendable, Hashable {
        /// The screen of one chat room, with the parameter `roomID`. Default `chatRoom`.
        public var chatRoom: String
        /// The list of the user's rooms. Default `roomList`.
        public var roomList: String

        /// Creates screen names.
        public init(chatRoom: String = "chatRoom", roomList: String = "roomList") {
            self.chatRoom = chatRoom
            self.roomList = roomList
        }
    }

    /// Creates the adapter with explicit settings.
    ///
    /// - Parameters:
    ///   - hosts: universal-link hosts (compared case-insensitively).
    ///   - schemes: custom URL schemes (compared case-insensitively).
    ///   - screens: the screen names to produce.
    ///
    /// An Android `body` (a JSON string) is read under the registry's `limits.maxDepth`,
    /// counted from the record's root, through the ``TapRoute/PayloadReader`` each input is
    /// read with.
    public init(
        hosts: [String] = TapTalkAdapter.defaultHosts,
        schemes: [String] = TapTalkAdapter.defaultSchemes,
        screens: ScreenNames = ScreenNames()
    ) {
        self.hosts = hosts.map { $0.lowercased() }
        self.schemes = schemes.map { $0.lowercased() }
        self.screens = screens
        self.hostSet = SmallStringSet(self.hosts)
        self.schemeSet = SmallStringSet(self.schemes)
    }

    /// Creates the adapter from its `config.yaml` entry.
    ///
    /// ```yaml
    /// - id: taptalk
    ///   hosts: [web.taptalk.io]        # universal-link hosts; [] turns universal links off
    ///   schemes: [taptalkio]           # custom schemes; [] turns them off
    ///   screens: {chatRoom: conversation, roomList: inbox}   # optional renames
    /// ```
    /// - Throws: ``ConfigurationError`` for a host that is not a host name, a scheme that is
    ///   not a scheme (or is `http`, `https`, or one that is never allowed), an unknown key
    ///   under `screens`, or an empty screen name.
    public init(configuration: AdapterConfiguration) throws(ConfigurationError) {
        var hosts = Self.defaultHosts
        var schemes = Self.defaultSchemes
        var screens = ScreenNames()
        if let reader = configuration.option("hosts") {
            hosts = try reader.hostList(allowWildcards: false)
        }
        if let reader = configuration.option("schemes") {
            schemes = try reader.schemeList(allowForbidden: false)
            for (i, scheme) in schemes.enumerated() where scheme == "http" || scheme == "https" {
                throw ConfigurationError(
                    "scheme '\(scheme)' cannot be a TapTalk custom scheme; list web hosts under 'hosts' instead",
                    at: reader.path.appending(i)
                )
            }
        }
        if let reader = configuration.option("screens") {
            let names = try reader.object(allowedKeys: ["chatRoom", "roomList"])
            for (key, value) in names {
                let nameReader = ConfigurationReader(value, at: reader.path.appending(key))
                let name = try nameReader.string()
                guard !name.isEmpty else { throw ConfigurationError("screen name must not be empty", at: nameReader.path) }
                if key == "chatRoom" { screens.chatRoom = name } else { screens.roomList = name }
            }
        }
        self.init(hosts: hosts, schemes: schemes, screens: screens)
    }

    /// Recognizes links on ``hosts`` or with one of ``schemes`` (as `url` envelopes or
    /// browsing-web user activities), iOS pushes whose `data.message` is a TapTalk message
    /// object, and Android FCM data whose `identifier` is ``androidIdentifier``.
    public func recognizes(_ input: InputEvent) -> Bool {
        switch input.kind {
        case .notification(let userInfo, _, _):
            return Self.pushFormat(of: userInfo) != nil
        case .url(let url, _):
            return link(url) != nil
        case .userActivity(let activityType, let url):
            return activityType == InputEvent.browsingWebActivityType && link(url) != nil
        case .inAppMessage, .vendorEvent:
            return false
        }
    }

    /// Reads a TapTalk link or push as a `chatRoom` or `roomList` screen, left to the app
    /// (TapTalk's SDKs open no URL themselves).
    /// - Throws: ``NormalizationError`` with code `unrecognized` for an input
    ///   ``recognizes(_:)`` rejects.
    public func read(_ input: InputEvent, using reader: inout PayloadReader) throws(NormalizationError) -> AdapterResult {
        switch input.kind {
        case .notification(let userInfo, let action, let origin):
            guard let format = Self.pushFormat(of: userInfo) else {
                throw NormalizationError(
                    .unrecognized,
                    "not a TapTalk notification: no data.message object and no identifier '\(Self.androidIdentifier)'",
                    path: reader.location
                )
            }
            return readPush(format, action: action, origin: origin, using: &reader)
        case .url(let url, let messageId):
            return try readLink(url, messageId: messageId, using: &reader)
        case .userActivity(let activityType, let url):
            guard activityType == InputEvent.browsingWebActivityType else {
                throw NormalizationError(
                    .unrecognized,
                    "the taptalk adapter reads browsing-web user activities, not '\(activityType)'",
                    path: "$.activityType"
                )
            }
            return try readLink(url, messageId: nil, using: &reader)
        case .inAppMessage, .vendorEvent:
            throw NormalizationError(
                .unrecognized,
                "the taptalk adapter reads notifications, url and userActivity envelopes, not \(input.kind.name)",
                path: "$.kind"
            )
        }
    }

    /// The screen for a room ID: `chatRoom {roomID}`, or `roomList` when the ID is empty.
    func roomDestination(_ roomID: String, url: String?) -> Destination {
        if roomID.isEmpty { return .screen(name: screens.roomList, url: url) }
        return .screen(name: screens.chatRoom, parameters: [Self.roomIDParameter: roomID], url: url)
    }

    /// Why a room ID cannot be used, or `nil` when it can: control characters, or nothing
    /// but whitespace.
    static func roomIDProblem(_ roomID: String) -> String? {
        if roomID.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "contains control characters"
        }
        if roomID.unicodeScalars.allSatisfy({ $0.properties.isWhitespace }) {
            return "is only whitespace"
        }
        return nil
    }
}

extension Warning.Code {
    /// A link's only path segment is one of the words TapTalk's link forms use (`chat`,
    /// `room`); it is used as the room ID, as the vendor's sample does, but is almost
    /// certainly not a room.
    public static let reservedPathSegment: Self = "reservedPathSegment"
    /// A TapTalk push names no room; the destination is the room list.
    public static let missingRoomID: Self = "missingRoomID"
    /// A room ID from a link or push cannot be used (control characters, only whitespace);
    /// the destination is the room list.
    public static let invalidRoomID: Self = "invalidRoomID"
    /// A TapTalk Android push whose `body` is not a JSON object; the destination is the room
    /// list.
    public static let missingMessage: Self = "missingMessage"
}

extension TapTalkAdapter {
    /// `false`: the adapter never reads the text of a notification's alert (`aps.alert`).
    public var readsAlertText: Bool { false }
}
