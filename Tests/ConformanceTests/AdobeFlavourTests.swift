import TapRoute
import TapRouteTestSupport
import Testing

@testable import AdobeAdapter

/// Detection reads a notification's Adobe keys in one pass over its keys; the flavour must be
/// what a lookup of each key gives, whatever other keys (of the same lengths) sit beside them.
@Suite struct AdobeFlavourTests {
    /// The flavour by one lookup per key, in the documented order.
    static func byLookup(_ userInfo: JSONObject, _ origin: InputEvent.NotificationOrigin) -> NotificationFlavour? {
        if userInfo["adb_deeplink"] != nil { return .campaignLocal }
        if origin == .local, userInfo["broadlogId"] != nil || userInfo["deliveryId"] != nil { return .campaignLocal }
        let channel: Channel = origin == .local ? .local : .push
        if NotificationFlavour.journeyOptimizerKeys.contains(where: { userInfo[$0] != nil }) {
            return .journeyOptimizerPush(channel)
        }
        if userInfo["_mId"] != nil || userInfo["_dId"] != nil { return .campaignPush(channel) }
        return nil
    }

    @Test func oneKeyPassAgreesWithLookups() {
        let adobeKeys = NotificationFlavour.journeyOptimizerKeys + ["adb_deeplink", "broadlogId", "deliveryId", "_mId", "_dId"]
        // Keys of the same lengths that are not Adobe's, and near misses.
        let others = ["aps", "data", "_xdn", "_MID", "adb_url", "adb_ac", "adb_mediA", "broadlogid", "adb_deeplinK", "uri", "x"]
        var generator = SplitMix64(seed: 2026_11_24)
        for _ in 0..<4_000 {
            var members: [(String, JSONValue)] = []
            for _ in 0..<generator.below(6) {
                let pool = generator.below(3) == 0 ? adobeKeys : others
                members.append((pool[generator.below(pool.count)], generator.below(4) == 0 ? .null : "v"))
            }
            let userInfo = JSONObject(members)
            for origin in [InputEvent.NotificationOrigin.remote, .local] {
                #expect(NotificationFlavour(userInfo: userInfo, origin: origin) == Self.byLookup(userInfo, origin), "\(userInfo.keys)")
            }
        }
        // Every Adobe key alone is recognized.
        for key in adobeKeys {
            #expect(NotificationFlavour(userInfo: [key: "v"], origin: .local) != nil, "\(key)")
        }
    }
}
