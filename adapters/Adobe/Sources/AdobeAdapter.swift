public import TapRoute

/// Adobe's click-through conventions: Campaign Standard (ACP/AEP Campaign) push, local
/// notifications and in-app messages, and Journey Optimizer (AEP Messaging) push and in-app
/// links. The last column is what Adobe's SDK does with a URL destination itself; the
/// registry decides `handling` from it and the configuration.
///
/// | input | flavour | destination | `VendorBehavior` |
/// | --- | --- | --- | --- |
/// | notification with `_mId` / `_dId` | Campaign Standard push | `uri` | `appOpens` (the SDK never opens `uri`) |
/// | notification with `_xdm` / `adb_uri` / another `adb_` push key | Journey Optimizer push | `adb_uri`, `adb_act` buttons | `sdkOpensURL` (the SDK opens `adb_uri`) when `_xdm` is a dictionary; `appOpens` for a button |
/// | notification with `adb_deeplink`, or `origin: local` with `broadlogId` / `deliveryId` | Campaign local notification | `adb_deeplink` | `appOpens` |
/// | `inAppMessage` whose message has `"type":"iam"` and template `alert` | Campaign alert | `url` on confirm, `none` on cancel | `sdkOpensURL` |
/// | `url` with scheme `adbinapp` | Campaign fullscreen (`confirm`, `cancel`) or Journey Optimizer (`dismiss`) click | `url` / `link` query item | `sdkOpensURL` |
///
/// `adapters/Adobe/README.md` lists every convention with its source and every deliberate
/// difference from Adobe's SDKs.
public struct AdobeAdapter: PayloadAdapter {
    /// `adobe`.
    public static let id = "adobe"
    /// One line for `normalize adapters`.
    public static let summary =
        "Adobe Campaign Standard push (uri, _mId, _dId), Journey Optimizer push (adb_uri, _xdm, adb_act), local notifications (adb_deeplink), alert messages and adbinapp:// in-app click URLs"

    /// Creates the adapter; it has no options of its own. `_xdm` and `adb_act` (JSON strings)
    /// are read under the reader's `limits.maxDepth`, counted from the record's root.
    public init(configuration: AdapterConfiguration) throws(ConfigurationError) {}

    /// Creates the adapter.
    public init() {}

    /// Whether the input is Adobe's: a notification with Adobe's keys, an `adbinapp:` URL, or
    /// an in-app message whose `type` is `iam`.
    public func recognizes(_ input: InputEvent) -> Bool {
        switch input.kind {
        case .notification(let userInfo, _, let origin):
            return NotificationFlavour(userInfo: userInfo, origin: origin) != nil
        case .url(let url, _):
            return Self.hasInAppScheme(url)
        case .inAppMessage(let message, _):
            return message["type"] == .string("iam")
        case .userActivity, .vendorEvent:
            return false
        }
    }

    /// Reads an Adobe notification, in-app message or in-app click URL.
    /// - Throws: `invalidPayload` where Adobe's SDK declines the input too (an alert without
    ///   title, content or cancel text; an `adbinapp:` link with an unsupported host or an
    ///   empty query), `invalidEnvelope` for an alert action other than its buttons, and
    ///   `unrecognized` for input that is not Adobe's.
    public func read(_ input: InputEvent, using reader: inout PayloadReader) throws(NormalizationError) -> AdapterResult {
        switch input.kind {
        case .notification(let userInfo, let action, let origin):
            guard let flavour = NotificationFlavour(userInfo: userInfo, origin: origin) else { break }
            let trigger = Trigger(notificationAction: action)
            switch flavour {
            case .campaignPush(let channel):
                return Self.campaignPush(userInfo, channel: channel, trigger: trigger, reader: &reader)
            case .journeyOptimizerPush(let channel):
                return Self.journeyOptimizerPush(userInfo, channel: channel, trigger: trigger, reader: &reader)
            case .campaignLocal:
                return Self.campaignLocal(userInfo, trigger: trigger, reader: &reader)
            }
        case .url(let url, let messageId):
            guard Self.hasInAppScheme(url) else { break }
            return try Self.inAppURL(url, messageId: messageId, reader: &reader)
        case .inAppMessage(let message, let action):
            guard message["type"] == .string("iam") else { break }
            return try Self.inAppMessage(message, action: action, reader: &reader)
        case .userActivity, .vendorEvent:
            break
        }
        throw NormalizationError(.unrecognized, "the adobe adapter does not recognize this \(input.kind.name)")
    }

    /// Whether `url` starts with `adbinapp:` (any letter case), the scheme of Adobe's in-app
    /// message click URLs.
    static func hasInAppScheme(_ url: String) -> Bool {
        URLParts.hasScheme("adbinapp", url)
    }
}

/// Which of Adobe's notification conventions a `userInfo` follows.
enum NotificationFlavour: Equatable {
    /// Campaign Standard push: `uri`, `_mId`, `_dId`.
    case campaignPush(Channel)
    /// Journey Optimizer (AEP Messaging) push: `adb_uri`, `_xdm`, `adb_a_type`, `adb_act`.
    case journeyOptimizerPush(Channel)
    /// A Campaign local notification: `adb_deeplink` plus the rule's `userData`.
    case campaignLocal

    /// Keys only Journey Optimizer pushes carry.
    static let journeyOptimizerKeys = ["_xdm", "adb_uri", "adb_a_type", "adb_act", "adb_iam_id", "adb_media"]

    /// The flavour of `userInfo`, or `nil` when it is not Adobe's.
    ///
    /// `adb_deeplink` marks a Campaign local notification whatever the origin (Adobe's own
    /// handler sample tells local from push by that key alone); a local notification without
    /// it is still Campaign's when its `userData` carries `broadlogId` or `deliveryId`. Then
    /// Journey Optimizer keys, then Campaign Standard's `_mId` / `_dId`.
    init?(userInfo: borrowing JSONObject, origin: InputEvent.NotificationOrigin) {
        // Detection asks this of every notification: one pass over the keys, read in place,
        // not a lookup for each of Adobe's eleven.
        let marks = Marks(rawValue: UInt8(truncatingIfNeeded: Marks.keys.marks(in: userInfo)))
        if marks.contains(.deeplink) {
            self = .campaignLocal
            return
        }
        if origin == .local, marks.contains(.campaignUserData) {
            self = .campaignLocal
            return
        }
        let channel: Channel = origin == .local ? .local : .push
        if marks.contains(.journeyOptimizer) {
            self = .journeyOptimizerPush(channel)
            return
        }
        if marks.contains(.campaignStandard) {
            self = .campaignPush(channel)
            return
        }
        return nil
    }

    /// Which kinds of Adobe key a `userInfo` has.
    struct Marks: OptionSet {
        let rawValue: UInt8
        /// `adb_deeplink`.
        static let deeplink = Marks(rawValue: 1)
        /// `broadlogId` or `deliveryId`.
        static let campaignUserData = Marks(rawValue: 2)
        /// One of ``NotificationFlavour/journeyOptimizerKeys``.
        static let journeyOptimizer = Marks(rawValue: 4)
        /// `_mId` or `_dId`.
        static let campaignStandard = Marks(rawValue: 8)

        /// Each Adobe key with its mark, matched by bytes as lookups match keys.
        static let keys = KeyMarks(
            [
                ("adb_deeplink", deeplink.rawValue), ("broadlogId", campaignUserData.rawValue),
                ("deliveryId", campaignUserData.rawValue), ("_mId", campaignStandard.rawValue),
                ("_dId", campaignStandard.rawValue),
            ].map { (key: $0.0, bits: UInt64($0.1)) }
                + NotificationFlavour.journeyOptimizerKeys.map { (key: $0, bits: UInt64(journeyOptimizer.rawValue)) }
        )
    }
}

extension AdobeAdapter {
    /// `false`: the adapter never reads the text of a notification's alert (`aps.alert`).
    public var readsAlertText: Bool { false }
}
