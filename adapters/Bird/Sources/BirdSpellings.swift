import TapRoute

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

    /// Bird's names, in any letter case.
    private static let names = BirdNames<Self>([("tap", .tap), ("button", .button), ("received", .received)], match: .case)

    /// Reads a spelling: `Tap`, `tap`, `TAP`, … (case-insensitive).
    init?(spelling: String) {
        guard let type = Self.names.value(of: spelling) else { return nil }
        self = type
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

    /// Bird's names, in any letter case and without `_` or `-`.
    private static let names = BirdNames<Self>(
        [("openapp", .openApp), ("url", .url), ("openurl", .url), ("deeplink", .deepLink), ("opendeeplink", .deepLink)],
        match: .caseAndSeparators
    )

    /// Reads a spelling, or returns `nil` for an action type Bird does not document.
    init?(spelling: String) {
        guard let type = Self.names.value(of: spelling) else { return nil }
        self = type
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

/// Bird's names for one kind of spelling, compared with the definitions engine's folding
/// (`DFold`): ASCII is read without allocating, other text through `lowercased()` (whose
/// Unicode mappings can turn a letter that is not ASCII into one that is: the Kelvin sign `K`
/// into `k`).
struct BirdNames<Value: Sendable>: Sendable {
    /// Each name as folded, its short form, and what it names.
    private let names: [(folded: String, short: DShortFold?, value: Value)]
    /// How spellings compare with the names.
    private let match: DMatch

    /// `names` already folded under `match`.
    init(_ names: [(String, Value)], match: DMatch) {
        self.names = names.map { (folded: $0.0, short: DShortFold(folded: $0.0), value: $0.1) }
        self.match = match
    }

    /// What `spelling` names, if any.
    func value(of spelling: String) -> Value? {
        DFold.first(spelling, match, count: names.count, short: { names[$0].short }, literal: { names[$0].folded })
            .map { names[$0].value }
    }
}
