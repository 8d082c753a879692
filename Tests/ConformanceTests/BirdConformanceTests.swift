import BirdAdapter
import Foundation
import TapRoute
import TapRouteAdapters
import Testing

/// The Bird adapter's vectors (`adapters/Bird/Vectors`), run through the full built-in
/// registry, plus the adapter's own contract checks.
@Suite struct BirdConformanceTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let vectorsDirectory = repository.appendingPathComponent("adapters/Bird/Vectors")

    static let vectorFiles: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: vectorsDirectory.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }()

    /// The base configuration: the repository's `config.yaml` as JSON. Interim, until the
    /// conformance kit (which reads `config.yaml` itself) is on main.
    static let baseConfiguration: JSONObject = [
        "version": 1,
        "app": ["schemes": ["campaigndemoapp", "taptalkio"], "domains": ["web.taptalk.io"]],
        "defaults": [:],
        "adapters": [["id": "bird"]],
        "routes": [["url": "campaigndemoapp://products/{id}", "screen": "product"]],
        "security": [
            "allowedSchemes": ["https", "http", "campaigndemoapp", "taptalkio", "tel", "mailto"],
            "allowedHosts": [],
            "maxURLLength": 4096,
        ],
        "limits": ["maxRecordBytes": 1_048_576, "maxDepth": 128],
    ]

    static func registry(replacing overrides: JSONObject = [:]) throws -> AdapterRegistry {
        var document = baseConfiguration
        for (key, value) in overrides { document[key] = value }
        return try AdapterRegistry(
            configuration: Configuration(json: .object(document)),
            adapterTypes: AdapterRegistry.builtInAdapterTypes
        )
    }

    static func load(_ url: URL) throws -> JSONValue {
        try JSONParser().parse([UInt8](Data(contentsOf: url)))
    }

    @Test func thereAreAtLeastFifteenVectors() {
        #expect(Self.vectorFiles.count >= 15)
    }

    @Test(arguments: vectorFiles)
    func vector(_ name: String) throws {
        let vector = try #require(try Self.load(Self.vectorsDirectory.appendingPathComponent(name)).objectValue)
        #expect(Set(vector.keys).isSubset(of: ["description", "input", "config", "expected"]), "\(name)")
        let description = vector["description"]?.stringValue ?? ""
        #expect(!description.isEmpty, "\(name) needs a description")
        let input = try #require(vector["input"], "\(name) has no input")
        let expected = try #require(vector["expected"], "\(name) has no expected")
        let registry = try Self.registry(replacing: vector["config"]?.objectValue ?? [:])
        if let expectedError = expected["error"]?.objectValue {
            do {
                let produced = try registry.normalize(json: input)
                Issue.record("\(name): expected an error, got \(produced.jsonString())")
            } catch {
                #expect(error.code.rawValue == expectedError["code"]?.stringValue, "\(name): \(error)")
                if let path = expectedError["path"]?.stringValue {
                    #expect(error.path == path, "\(name): \(error)")
                }
            }
        } else {
            let produced = try registry.normalize(json: input)
            #expect(produced.jsonValue == expected, "\(name): got \(produced.jsonString())")
            // The expected output is itself a valid canonical Interaction.
            #expect(try Interaction(jsonValue: expected) == produced, "\(name)")
        }
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
        func handling(_ type: String) throws -> Handling {
            try adapter.normalize(
                InputEvent(.vendorEvent(["type": "Tap", "action": ["type": .string(type), "uri": "https://example.com/x"]]))
            ).handling
        }
        #expect(try handling("URL") == .automatic)
        #expect(try handling("openURL") == .automatic)
        #expect(try handling("DEEP_LINK") == .app)
        #expect(try handling("OPEN_APP") == .app)
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
            let interaction = try adapter.normalize(
                InputEvent(.vendorEvent(["type": "Tap", "action": ["type": .string(spelling), "uri": "https://example.com/x"]]))
            )
            #expect(interaction.destination == destination, "\(spelling)")
            #expect(interaction.warnings.isEmpty, "\(spelling)")
        }
        for spelling in ["app", "open", "link", "OPEN_DEEP", ""] {
            let interaction = try adapter.normalize(
                InputEvent(.vendorEvent(["type": "Tap", "action": ["type": .string(spelling), "uri": "https://example.com/x"]]))
            )
            #expect(interaction.destination == .app, "\(spelling)")
            #expect(interaction.warnings.map(\.code) == [.unknownActionType], "\(spelling)")
        }
    }

    @Test func payloadStrings() throws {
        let adapter = BirdAdapter()
        func payload(_ value: JSONValue) throws -> JSONObject {
            try adapter.normalize(InputEvent(.vendorEvent(["type": "Tap", "payload": value, "action": ["type": "OPEN_APP"]]))).payload
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
                let interaction = try adapter.normalize(InputEvent(.vendorEvent(event)))
                Issue.record("\(event): expected an error, got \(interaction.jsonString())")
            } catch {
                #expect(error.code == .invalidPayload, "\(event): \(error)")
                #expect(error.path == path, "\(event): \(error)")
            }
        }
        #expect(throws: NormalizationError.self) { try adapter.normalize(.url("campaigndemoapp://inbox")) }
    }

    @Test func normalizationIsDeterministic() throws {
        let registry = try Self.registry()
        for name in Self.vectorFiles {
            let vector = try Self.load(Self.vectorsDirectory.appendingPathComponent(name))
            let input = try #require(vector["input"])
            func outcome() -> JSONValue {
                do { return try registry.normalize(json: input).jsonValue } catch { return ["error": error.jsonValue] }
            }
            #expect(outcome() == outcome(), "\(name)")
        }
    }

    @Test func exampleEnvelopeNormalizes() throws {
        let example = try Self.load(Self.repository.appendingPathComponent("examples/bird-deep-link.json"))
        let interaction = try Self.registry().normalize(json: example)
        #expect(interaction.vendor == "bird")
        #expect(interaction.destination.url != nil)
        #expect(interaction.handling == .app)
    }

    @Test func birdIsABuiltInAdapter() {
        #expect(AdapterRegistry.builtInAdapterTypes.contains { $0.id == "bird" })
        #expect(DefaultConfiguration.yaml.contains("\n  - id: bird\n"))
    }
}
