import FuzzSupport
import TapRoute
import TapRouteAdapters
import TapRouteYAML

/// Envelopes of every input kind, shaped like the payloads definitions read (an app's own
/// push keys, Bird's interaction object, vendor keys with dots, dashes and symbols, buttons
/// in lists and dictionaries, JSON held in strings), run through every definition that
/// compiles.
private let probes: [JSONValue] = [
    [
        "kind": "notification",
        "userInfo": ["aps": ["alert": "x"], "deep_link": "myapp://orders/42", "screen": "orders", "orderId": "42", "messageId": "m-1"],
    ],
    ["kind": "notification", "userInfo": ["aps": ["alert": "x"], "screen": "orders", "orderId": "42"], "action": "track"],
    [
        "kind": "notification",
        "userInfo": [
            "gcm.app_link": " https://example.com/a ", "CIO-Delivery-ID": "d-1", "^d": "1",
            "buttons": [["id": "b1", "label": "Open", "url": "myapp://b1"], ["id": "b2", "label": "Later"]],
            "actions": ["b1": ["url": "https://example.com/b1"]],
            "data": #"{"url":"myapp://inner","nested":{"a":[1,2,{"b":"c"}]}}"#, "flag": "YES", "count": "12",
        ],
        "action": "b1",
    ],
    ["kind": "vendorEvent", "event": ["type": "Tap", "action": ["type": "URL", "uri": "https://example.com/bird"]]],
    [
        "kind": "vendorEvent", "automaticallyOpenDeeplinks": true,
        "event": [
            "type": "Button", "payload": #"{"orderId":"409"}"#,
            "action": ["type": "DEEP_LINK", "identifier": "btn", "uri": "myapp://x"],
        ],
    ],
    ["kind": "inAppMessage", "message": ["id": "iam-1", "buttons": [["id": "ok", "url": "javascript:alert(1)"]]], "action": "ok"],
    ["kind": "url", "url": "myapp://orders/42?ref=push"],
    ["kind": "userActivity", "activityType": "NSUserActivityTypeBrowsingWeb", "webpageURL": "https://example.com/e/1"],
]

/// Bytes → YAML (or JSON, which is YAML) → `AdapterDefinition` → a registry holding it →
/// the probes.
///
/// A definition that does not compile is a typed ``ConfigurationError`` with a message,
/// never a crash; one that compiles is enabled in a registry next to the built-in adapters
/// (or the registry says why not: a duplicate id is a configuration error), and that
/// registry's answers to the probes pass ``FuzzSupport``'s checks (typed errors with `$`
/// paths, safe destinations, JSON round trip, the same answer twice). libFuzzer's
/// `-timeout` and `-rss_limit_mb` (scripts/fuzz.sh) turn a definition that makes the
/// engine hang or exhaust memory into a failure.
@_cdecl("LLVMFuzzerTestOneInput")
public func definitionFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = FuzzSupport.text(data, size)
    let definition: AdapterDefinition
    do {
        let (document, source) = try YAMLConfiguration.document(yaml: text, file: "fuzz.yaml")
        definition = try AdapterDefinition(json: document, source: source, origin: .file("fuzz.yaml"))
    } catch {
        if error.message.isEmpty { FuzzSupport.fail("a definition error without a message: \(error)") }
        return 0
    }
    let registry: AdapterRegistry
    do {
        let configuration = try Configuration(
            json: [
                "app": ["schemes": ["myapp"]],
                "adapters": [["id": .string(definition.id)], ["id": "bird"]],
            ]
        )
        registry = try AdapterRegistry(
            configuration: configuration,
            adapterTypes: AdapterRegistry.builtInAdapterTypes,
            definitions: [definition]
        )
    } catch {
        if error.message.isEmpty { FuzzSupport.fail("a registry error without a message: \(error)") }
        return 0
    }
    for probe in probes {
        FuzzSupport.normalizeChecked(probe, registry: registry)
    }
    // A definition with an `encode` section: every message gives a payload or a typed error
    // naming a field, never a crash or a hang.
    if registry.canEncode(vendor: definition.id) {
        for message in messages {
            do throws(EncodingError) {
                let event = try registry.encode(message, vendor: definition.id, options: EncodeOptions(screens: .route))
                _ = event.jsonValue.jsonString()
            } catch {
                if error.message.isEmpty || !error.field.hasPrefix("$") {
                    FuzzSupport.fail("an encoding error without a message or a field: \(error)")
                }
            }
        }
    }
    return 0
}

/// Messages of every destination kind, with buttons and data, for a definition that encodes.
let messages: [OutgoingMessage] = [
    OutgoingMessage(body: "b"),
    OutgoingMessage(
        title: "t",
        body: "b",
        destination: .url("https://example.com/a?b=c", target: .external),
        buttons: [
            .init(id: "x", label: "X", destination: .url("myapp://x", target: .app)),
            .init(id: "y", destination: .screen(name: "s", parameters: ["p": "1"])),
        ],
        data: ["k": "v", "n": 1, "o": ["deep": ["er": true]]],
        messageId: "m"
    ),
    OutgoingMessage(body: "b", destination: .url("https://example.com/w", target: .inAppBrowser), messageId: "m"),
    OutgoingMessage(body: "b", destination: .screen(name: "s", parameters: ["id": "4 2"]), messageId: "m"),
    OutgoingMessage(body: "b", destination: .clickAction("OPEN"), buttons: [.init(id: "z", label: "Z", destination: .none)]),
    OutgoingMessage(body: "b", destination: .none, data: ["aps": "x"]),
]
