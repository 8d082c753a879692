import BirdAdapter
import Foundation
import TapRoute
import TapRouteAdapters
import TapRouteConformance
import TapRouteTestSupport
import TapRouteYAML
import Testing

/// The Bird adapter's vectors (`adapters/Bird/Vectors`) through the conformance kit, with the
/// full built-in registry on the repository's `config.yaml`, plus the adapter's own checks.
@Suite struct BirdConformanceTests {
    static let vectorsDirectory = TestPaths.path("adapters/Bird/Vectors")

    @Test func birdAdapterConforms() async throws {
        try await AdapterConformanceTest(
            adapter: BirdAdapter.self,
            vectors: .directory(Self.vectorsDirectory),
            options: .init(
                baseConfiguration: .yaml(DefaultConfiguration.yaml),
                registryAdapters: AdapterRegistry.builtInAdapterTypes,
                otherVectors: ShippedVectors.all(),
                registryDefinitions: AdapterRegistry.builtInDefinitions()
            )
        ).run()
    }

    @Test func birdVectorsAreEnough() throws {
        let vectors = try ConformanceVectors.directory(Self.vectorsDirectory)
        #expect(vectors.vectors.count >= 15)
    }

    @Test func recognizesOnlyBirdShapedVendorEvents() {
        let adapter = BirdAdapter()
        let bird: [JSONObject] = [
            ["type": "Tap", "action": ["type": "OPEN_APP"]],
            ["type": "received"],
            ["type": "BUTTON", "action": ["type": "openDeepLink"]],
            ["action": ["type": "DEEP_LINK", "uri": "campaigndemoapp://inbox"]],
            ["action": ["type": "open_url"]],
        ]
        for event in bird {
            #expect(adapter.recognizes(InputEvent(.vendorEvent(event))), "\(event)")
        }
        let other: [InputEvent] = [
            InputEvent(.vendorEvent(["name": "cart_viewed"])),
            InputEvent(.vendorEvent(["type": "Dismissed", "action": ["type": "CLOSE"]])),
            InputEvent(.vendorEvent(["type": 1, "action": "URL"])),
            InputEvent(.vendorEvent(["action": ["type": ["URL"]]])),
            .notification(userInfo: ["type": "Tap", "action": ["type": "URL", "uri": "https://example.com"]]),
            .url("campaigndemoapp://inbox"),
            .userActivity(webpageURL: "https://web.taptalk.io/chat/1"),
            InputEvent(.inAppMessage(message: ["type": "Tap"], action: nil)),
        ]
        for input in other {
            #expect(!adapter.recognizes(input), "\(input)")
        }
    }

    @Test func builtInHandlingOpensURLActionsButNotDeepLinks() throws {
        let adapter = BirdAdapter()
        func behavior(_ type: String) throws -> VendorBehavior {
            try adapter.read(
                InputEvent(.vendorEvent(["type": "Tap", "action": ["type": .string(type), "uri": "https://example.com/x"]]))
            ).vendorBehavior
        }
        // An "Open URL" action is opened by Bird's SDK whatever the app passed for the event;
        // a deep link is the app's, and the app's per-event flag governs it.
        #expect(try behavior("URL") == VendorBehavior(opensURL: true, followsEventOverride: false))
        #expect(try behavior("openURL") == VendorBehavior(opensURL: true, followsEventOverride: false))
        #expect(try behavior("DEEP_LINK") == VendorBehavior(opensURL: false))
        #expect(try behavior("OPEN_APP") == VendorBehavior(opensURL: false))
    }

    @Test func actionSpellings() throws {
        let adapter = BirdAdapter()
        let spellings: [(String, Destination)] = [
            ("OPEN_APP", .app), ("openApp", .app), ("open_app", .app), ("OPENAPP", .app),
            ("URL", .url("https://example.com/x", target: .external)),
            ("url", .url("https://example.com/x", target: .external)),
            ("openUrl", .url("https://example.com/x", target: .external)),
            ("OPEN_URL", .url("https://example.com/x", target: .external)),
            ("DEEP_LINK", .url("https://example.com/x", target: .external)),
            ("deepLink", .url("https://example.com/x", target: .external)),
            ("openDeepLink", .url("https://example.com/x", target: .external)),
            ("deep-link", .url("https://example.com/x", target: .external)),
        ]
        for (spelling, destination) in spellings {
            let interaction = try adapter.read(
                InputEvent(.vendorEvent(["type": "Tap", "action": ["type": .string(spelling), "uri": "https://example.com/x"]]))
            )
            #expect(interaction.destination == destination, "\(spelling)")
            #expect(interaction.warnings.isEmpty, "\(spelling)")
        }
        for spelling in ["app", "open", "link", "OPEN_DEEP", ""] {
            let interaction = try adapter.read(
                InputEvent(.vendorEvent(["type": "Tap", "action": ["type": .string(spelling), "uri": "https://example.com/x"]]))
            )
            #expect(interaction.destination == .app, "\(spelling)")
            #expect(interaction.warnings.map(\.code) == [.unknownActionType], "\(spelling)")
        }
    }

    /// The adapter folds ASCII spellings byte by byte and other text with `lowercased()`;
    /// both must accept exactly what `lowercased()` with `_` and `-` dropped names. Thousands
    /// of generated spellings — Bird's names in mixed case with separators, near misses,
    /// 15 and 16 bytes, and letters outside ASCII whose lower case is ASCII (the Kelvin sign
    /// `K`, U+212A, lower-cases to `k`; `İ` does not to `i`) — against that reference.
    @Test func spellingsFoldAsLowercasedDoes() {
        let adapter = BirdAdapter()
        let actionNames: Set = ["openapp", "url", "openurl", "deeplink", "opendeeplink"]
        let typeNames: Set = ["tap", "button", "received"]
        let pieces = [
            "open", "OPEN", "Open", "app", "APP", "url", "URL", "Url", "deep", "DEEP", "link", "LINK", "lin\u{212A}",
            "_", "-", "__", "tap", "TAP", "Button", "received", "RECEIVED", "x", "İ", "é", "\u{212A}", " ", "ta", "p",
        ]
        var generator = SplitMix64(seed: 2_026_113_032)
        var spellings = ["", "deeplin\u{212A}", "DEEPLIN\u{212A}", "open_deep_link_", "OPEN-DEEP-LINK", "t\u{0130}ap"]
        for _ in 0..<4_000 {
            let count = Int.random(in: 1...5, using: &generator)
            spellings.append((0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined())
        }
        for spelling in spellings {
            let lowered = spelling.lowercased()
            let folded = String(lowered.unicodeScalars.filter { $0 != "_" && $0 != "-" })
            let action = InputEvent(.vendorEvent(["action": ["type": .string(spelling)]]))
            #expect(adapter.recognizes(action) == actionNames.contains(folded), "action type \(spelling.debugDescription)")
            let type = InputEvent(.vendorEvent(["type": .string(spelling)]))
            #expect(adapter.recognizes(type) == typeNames.contains(lowered), "type \(spelling.debugDescription)")
        }
    }

    @Test func longUnknownValuesAreShortenedInMessages() throws {
        let long = String(repeating: "X", count: 5000)
        let interaction = try BirdAdapter().read(InputEvent(.vendorEvent(["type": "Tap", "action": ["type": .string(long)]])))
        let message = try #require(interaction.warnings.first?.message)
        #expect(message.utf8.count < 300)
        #expect(message.contains("(5000 bytes)"))
        do {
            _ = try BirdAdapter().read(InputEvent(.vendorEvent(["type": .string(long), "action": ["type": "URL"]])))
            Issue.record("expected an error")
        } catch {
            #expect(error.message.utf8.count < 300)
        }
    }

    @Test func payloadStrings() throws {
        let adapter = BirdAdapter()
        func payload(_ value: JSONValue) throws -> JSONObject {
            try adapter.read(InputEvent(.vendorEvent(["type": "Tap", "payload": value, "action": ["type": "OPEN_APP"]]))).payload
        }
        #expect(try payload(" {\"a\": {\"b\": [1, 2]}} ") == ["a": ["b": [1, 2]]])
        #expect(try payload("{}").isEmpty)
        #expect(try payload("") == ["value": ""])
        #expect(try payload("42") == ["value": "42"])
        #expect(try payload("\"quoted\"") == ["value": "\"quoted\""])
        #expect(try payload(.null).isEmpty)
        for bad: JSONValue in [1, true, ["a"]] {
            #expect(throws: NormalizationError.self) { try payload(bad) }
        }
    }

    @Test func malformedEventsAreTypedErrors() {
        let adapter = BirdAdapter()
        let cases: [(JSONObject, String)] = [
            (["action": ["type": "URL"]], "$.event.type"),
            (["type": 3, "action": ["type": "URL"]], "$.event.type"),
            (["type": "Swipe", "action": ["type": "URL"]], "$.event.type"),
            (["type": "Tap"], "$.event.action"),
            (["type": "Tap", "action": [1]], "$.event.action"),
            (["type": "Tap", "action": ["uri": "https://example.com"]], "$.event.action.type"),
            (["type": "Tap", "action": ["type": false]], "$.event.action.type"),
            (["type": "Button", "action": ["type": "OPEN_APP", "identifier": 7]], "$.event.action.identifier"),
            (["type": "Button", "action": ["type": "OPEN_APP", "identifier": ""]], "$.event.action.identifier"),
            (["type": "Tap", "payload": 5, "action": ["type": "OPEN_APP"]], "$.event.payload"),
        ]
        for (event, path) in cases {
            do {
                let interaction = try adapter.read(InputEvent(.vendorEvent(event)))
                Issue.record("\(event): expected an error, got \(interaction)")
            } catch {
                #expect(error.code == .invalidPayload, "\(event): \(error)")
                #expect(error.path == path, "\(event): \(error)")
            }
        }
        #expect(throws: NormalizationError.self) { try adapter.read(.url("campaigndemoapp://inbox")) }
    }

    @Test func exampleEnvelopeNormalizes() throws {
        let registry = try AdapterRegistry(
            configuration: YAMLConfiguration.parse(yaml: DefaultConfiguration.yaml),
            adapterTypes: AdapterRegistry.builtInAdapterTypes,
            definitions: AdapterRegistry.builtInDefinitions()
        )
        let text = try String(contentsOfFile: TestPaths.path("examples/bird-deep-link.json"), encoding: .utf8)
        let example = try JSONValue(parsing: text)
        let interaction = try registry.normalize(json: example)
        // The envelope says automaticallyOpenDeeplinks: false, the deep link is the app's
        // scheme, and the payload string holds a JSON object.
        let expected = try JSONValue(
            parsing: #"""
                {"vendor":"bird","channel":"push","trigger":{"type":"button","id":"btn-shop"},
                 "destination":{"type":"url","url":"campaigndemoapp://search?q=caf%C3%A9%20au%20lait","target":"app"},
                 "handling":"app","payload":{"orderId":"409","source":"push"}}
                """#
        )
        #expect(interaction.jsonValue == expected, "\(interaction.jsonString())")
    }

    @Test func birdIsABuiltInAdapter() {
        #expect(AdapterRegistry.builtInAdapterTypes.contains { $0.id == "bird" })
        #expect(DefaultConfiguration.yaml.contains("\n  - id: bird\n"))
    }
}
