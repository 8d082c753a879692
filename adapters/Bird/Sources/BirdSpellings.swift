/// The kinds of Bird notification interaction (`type` of the interaction object).
///
/// The web SDK documents `Received`, `Tap` and `Button`; the iOS SDK exposes the same as a
/// raw-valued enum whose raw values are not public, so any letter case is accepted.
enum BirdInteractionType: Sendable, Hashable {
    /// The notification was delivered; not a user interaction.
    case received
    /// The user tapped the notification body.
    case tap
    /// The user tapped one of the notification's buttons.
    case button

    /// Reads a spelling: `Tap`, `tap`, `TAP`, … (case-insensitive).
    init?(spelling: String) {
        switch BirdSpelling.folded(spelling, droppingSeparators: false) {
        case "tap": self = .tap
        case "button": self = .button
        case "received": self = .received
        default: return nil
        }
    }
}

/// What a Bird template action does (`action.type`).
///
/// The web SDK documents `OPEN_APP`, `URL` and `DEEP_LINK`; the iOS SDK's enum cases read
/// `openApp`, `openUrl` (or `openURL`) and `openDeepLink`. Spellings are compared without
/// letter case, `_` or `-`, so `open_app`, `deepLink`, `deep_link`, `OPEN_URL` and `url` are
/// accepted too.
enum BirdActionType: Sendable, Hashable {
    /// "Open App": just open the app.
    case openApp
    /// "Open URL": open the app, then the URL (the system picks the handler).
    case url
    /// "Open Deep Link": open the app; the SDK opens the link only when told to.
    case deepLink

    /// Reads a spelling, or returns `nil` for an action type Bird does not document.
    init?(spelling: String) {
        switch BirdSpelling.folded(spelling, droppingSeparators: true) {
        case "openapp": self = .openApp
        case "url", "openurl": self = .url
        case "deeplink", "opendeeplink": self = .deepLink
        default: return nil
        }
    }

    /// The web SDK's (documented) spelling, for messages.
    var documentedName: String {
        switch self {
        case .openApp: "OPEN_APP"
        case .url: "URL"
        case .deepLink: "DEEP_LINK"
        }
    }
}

/// How a spelling is folded before it is compared with Bird's names.
enum BirdSpelling {
    /// `spelling` as `lowercased()` gives it, without its `_` and `-` when
    /// `droppingSeparators`. ASCII text of at most 15 bytes (every name Bird has, and what
    /// payloads send) is folded byte by byte into a small string, with no allocation: on
    /// ASCII, `lowercased()` maps `A`–`Z` and nothing else. Other text goes through
    /// `lowercased()` itself, whose Unicode mappings can turn a letter that is not ASCII into
    /// one that is (the Kelvin sign `K` into `k`).
    static func folded(_ spelling: String, droppingSeparators: Bool) -> String {
        let ascii = spelling.utf8.withContiguousStorageIfAvailable { bytes -> String? in
            guard bytes.count <= 15 else { return nil }
            var high: UInt8 = 0
            for byte in bytes { high |= byte }
            guard high < 0x80 else { return nil }
            return String(unsafeUninitializedCapacity: bytes.count) { out in
                var count = 0
                for byte in bytes {
                    if droppingSeparators, byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") { continue }
                    out[count] = byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
                    count &+= 1
                }
                return count
            }
        }
        if let ascii = ascii ?? nil { return ascii }
        let lowered = spelling.lowercased()
        guard droppingSeparators else { return lowered }
        return String(lowered.unicodeScalars.filter { $0 != "_" && $0 != "-" })
    }
}
