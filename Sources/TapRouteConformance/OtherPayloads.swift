public import TapRoute

/// Payloads an adapter must leave alone: samples of every vendor TapRoute ships an adapter
/// for, and generic payloads no vendor owns.
///
/// The registry asks the enabled adapters in configuration order and uses the first whose
/// `recognizes` says yes, so an adapter that claims someone else's payload takes it from
/// them. ``AdapterConformanceTest`` checks every adapter against these, plus the vectors
/// given in ``AdapterConformanceTest/Options/otherVectors``.
public enum OtherPayloads {
    /// One payload and whose it is.
    public struct Sample: Sendable, Hashable {
        /// The adapter id the payload belongs to; `nil` for a payload no adapter owns.
        public var owner: String?
        /// What it is, for messages.
        public var description: String
        /// The input envelope.
        public var input: JSONValue

        /// Creates a sample.
        public init(owner: String?, description: String, input: JSONValue) {
            self.owner = owner
            self.description = description
            self.input = input
        }
    }

    /// Typical payloads of the vendors TapRoute ships adapters for (DashX, Adobe, Bird,
    /// TapTalk), as their SDKs and back ends send them.
    public static let builtInVendors: [Sample] = [
        Sample(
            owner: "dashx",
            description: "a DashX push (its block is a JSON string under 'dashx')",
            input: [
                "kind": "notification",
                "userInfo": [
                    "aps": ["alert": ["title": "Hello", "body": "World"]],
                    "dashx": #"{"id":"n-1","title":"Hello","body":"World","url":"https://shop.example.com/orders/7"}"#,
                ],
            ]
        ),
        Sample(
            owner: "adobe",
            description: "an Adobe Campaign Standard push (_mId, _dId, uri)",
            input: ["aps": ["alert": "Back in stock"], "_mId": "h99", "_dId": "d42", "uri": "https://shop.example.com/restock"]
        ),
        Sample(
            owner: "adobe",
            description: "an Adobe Journey Optimizer push (adb_uri, _xdm)",
            input: [
                "kind": "notification",
                "userInfo": [
                    "aps": ["alert": ["title": "Your cart", "body": "Still thinking?"]],
                    "adb_uri": "https://shop.example.com/cart",
                    "_xdm": ["cjm": ["_experience": ["customerJourneyManagement": ["messageExecution": ["messageID": "567"]]]]],
                ],
            ]
        ),
        Sample(
            owner: "adobe",
            description: "an Adobe Campaign local notification (adb_deeplink)",
            input: [
                "kind": "notification", "origin": "local",
                "userInfo": ["adb_deeplink": "campaigndemoapp://products/42", "broadlogId": "h87a1", "deliveryId": "b6f0"],
            ]
        ),
        Sample(
            owner: "adobe",
            description: "an Adobe in-app alert",
            input: [
                "kind": "inAppMessage", "action": "confirm",
                "message": [
                    "id": "c3e2f9a0", "type": "iam",
                    "detail": [
                        "template": "alert", "title": "Sale", "content": "20% off", "confirm": "Shop", "url": "https://www.adobe.com",
                    ],
                ],
            ]
        ),
        Sample(
            owner: "adobe",
            description: "an Adobe in-app click URL (adbinapp://)",
            input: ["kind": "url", "url": "adbinapp://confirm/?id=h153d80,a1f5,3&url=https%3A%2F%2Fwww.adobe.com%2Fsale"]
        ),
        Sample(
            owner: "bird",
            description: "a Bird interaction event",
            input: ["kind": "vendorEvent", "event": ["type": "Tap", "action": ["type": "URL", "uri": "https://shop.example.com/sale"]]]
        ),
        Sample(
            owner: "taptalk",
            description: "a TapTalk iOS push (data.message.room)",
            input: [
                "kind": "notification",
                "userInfo": [
                    "aps": ["alert": ["title": "Alice", "body": "Hi"]],
                    "data": ["message": ["messageID": "91823", "room": ["roomID": "2-4096", "type": 1], "user": ["userID": "4096"]]],
                ],
            ]
        ),
        Sample(
            owner: "taptalk",
            description: "a TapTalk Android push (identifier io.taptalk.TapTalk)",
            input: [
                "kind": "notification",
                "userInfo": ["identifier": "io.taptalk.TapTalk", "body": #"{"messageID":"55120","room":{"roomID":"g-77","type":2}}"#],
            ]
        ),
        Sample(
            owner: "taptalk",
            description: "a TapTalk web link",
            input: [
                "kind": "userActivity", "activityType": "NSUserActivityTypeBrowsingWeb", "webpageURL": "https://web.taptalk.io/chat/2-4096",
            ]
        ),
        Sample(owner: "taptalk", description: "a TapTalk custom-scheme link", input: ["kind": "url", "url": "taptalkio://room/2-4096"]),
    ]

    /// Payloads no vendor owns: pushes with only `aps` or only generic keys, empty
    /// `userInfo`s, links of other schemes and hosts, empty in-app messages and vendor
    /// events.
    public static let generic: [Sample] = [
        Sample(owner: nil, description: "an empty userInfo", input: [:]),
        Sample(
            owner: nil,
            description: "an empty userInfo, dismissed",
            input: [
                "kind": "notification", "userInfo": [:], "action": "com.apple.UNNotificationDismissActionIdentifier",
            ]
        ),
        Sample(
            owner: nil,
            description: "an empty local notification",
            input: ["kind": "notification", "origin": "local", "userInfo": [:]]
        ),
        Sample(owner: nil, description: "an aps-only push", input: ["aps": ["alert": "Hello"]]),
        Sample(
            owner: nil,
            description: "an aps-only push with every aps key",
            input: [
                "kind": "notification",
                "userInfo": [
                    "aps": [
                        "alert": ["title": "T", "subtitle": "S", "body": "B"], "badge": 1, "sound": "default", "category": "GENERAL",
                        "thread-id": "t1", "mutable-content": 1, "content-available": 1,
                    ]
                ],
            ]
        ),
        Sample(owner: nil, description: "a silent push", input: ["aps": ["content-available": 1]]),
        Sample(owner: nil, description: "a push with a generic url key", input: ["aps": ["alert": "Hi"], "url": "https://example.com/a"]),
        Sample(owner: nil, description: "a push with a generic link key", input: ["aps": ["alert": "Hi"], "link": "myapp://products/42"]),
        Sample(
            owner: nil,
            description: "a push with a generic id and data",
            input: [
                "aps": ["alert": "Hi"], "id": "5", "data": ["screen": "home"], "type": "promo",
            ]
        ),
        Sample(
            owner: nil,
            description: "a local notification with a generic id",
            input: [
                "kind": "notification", "origin": "local", "userInfo": ["id": "5", "title": "Reminder"],
            ]
        ),
        Sample(owner: nil, description: "a link of the app's own scheme", input: ["kind": "url", "url": "myapp://products/42"]),
        Sample(owner: nil, description: "a web link of another host", input: ["kind": "url", "url": "https://example.com/offers?id=1"]),
        Sample(owner: nil, description: "a tel: link", input: ["kind": "url", "url": "tel:+15555550100"]),
        Sample(owner: nil, description: "an empty link", input: ["kind": "url", "url": ""]),
        Sample(
            owner: nil,
            description: "a universal link of another host",
            input: [
                "kind": "userActivity", "activityType": "NSUserActivityTypeBrowsingWeb", "webpageURL": "https://example.com/promo",
            ]
        ),
        Sample(
            owner: nil,
            description: "a user activity of another type",
            input: [
                "kind": "userActivity", "activityType": "com.example.app.view-item", "webpageURL": "",
            ]
        ),
        Sample(owner: nil, description: "an empty in-app message", input: ["kind": "inAppMessage", "message": [:]]),
        Sample(
            owner: nil,
            description: "an in-app message without a type",
            input: [
                "kind": "inAppMessage", "message": ["id": "m1", "title": "Hi"], "action": "ok",
            ]
        ),
        Sample(owner: nil, description: "an empty vendor event", input: ["kind": "vendorEvent", "event": [:]]),
        Sample(
            owner: nil,
            description: "an analytics vendor event",
            input: [
                "kind": "vendorEvent", "event": ["name": "cart_viewed", "properties": ["items": 2]],
            ]
        ),
    ]
}
