import Foundation
import TapRoute
import TapRouteAdapters
import TapRouteConformance
import TapRouteTestSupport
import TapRouteYAML
import TapTalkAdapter
import Testing

/// The TapTalk adapter against its vectors (`adapters/TapTalk/Vectors`) and the adapter
/// contract, through the full built-in registry configured by the repository's `config.yaml`.
@Suite struct TapTalkConformanceTests {
    /// `adapters/TapTalk/Vectors`.
    static let vectorsDirectory = TestPaths.path("adapters/TapTalk/Vectors")

    @Test func tapTalkConforms() async throws {
        try await AdapterConformanceTest(
            adapter: TapTalkAdapter.self,
            vectors: .directory(Self.vectorsDirectory),
            options: .init(
                baseConfiguration: .yaml(DefaultConfiguration.yaml),
                registryAdapters: AdapterRegistry.builtInAdapterTypes,
                otherVectors: ShippedVectors.all(),
                registryDefinitions: AdapterRegistry.builtInDefinitions()
            )
        ).run()
    }

    @Test func vectorsCoverEveryCaseTheIssueLists() throws {
        let vectors = try ConformanceVectors.directory(Self.vectorsDirectory).vectors
        #expect(vectors.count >= 20)
        let inputs = vectors.map { $0.input.jsonString() }
        // Bare and hosted custom-scheme forms, iOS and Android pushes, another SDK's push.
        for needle in [
            #""url":"taptalkio://""#, #""url":"taptalkio://2-4096""#, "taptalkio://room/", #""data":{"message":{"#,
            #""identifier":"io.taptalk.TapTalk""#, "WEB.TapTalk.IO", "%2F", "?utm_source", "//chat//", "/2-4096/",
        ] {
            #expect(inputs.contains { $0.contains(needle) }, "no vector input contains \(needle)")
        }
    }
}

/// The adapter's own `config.yaml` keys: what they accept and how bad values are reported.
@Suite struct TapTalkConfigurationTests {
    func registry(_ yaml: String) throws(ConfigurationError) -> AdapterRegistry {
        let configuration = try YAMLConfiguration.parse(yaml: yaml, file: "test.yaml")
        return try AdapterRegistry(
            configuration: configuration,
            adapterTypes: AdapterRegistry.builtInAdapterTypes,
            definitions: AdapterRegistry.builtInDefinitions()
        )
    }

    @Test func theRepositoryConfigurationEnablesTapTalkWithItsDefaults() throws {
        let registry = try registry(DefaultConfiguration.yaml)
        let adapter = try #require(registry.adapter(forVendor: "taptalk") as? TapTalkAdapter)
        #expect(adapter.hosts == ["web.taptalk.io"])
        #expect(adapter.schemes == ["taptalkio"])
        #expect(adapter.screens == TapTalkAdapter.ScreenNames(chatRoom: "chatRoom", roomList: "roomList"))
    }

    @Test func theShippedAASAFileIsTheDocsExampleAsValidJSON() throws {
        let text = try String(
            contentsOfFile: TestPaths.path("adapters/TapTalk/apple-app-site-association.json"),
            encoding: .utf8
        )
        let details = try #require(try JSONValue(parsing: text)["applinks"]?["details"]?.arrayValue)
        #expect(details.count == 1)
        #expect(details.first?["appID"] == "ABCDE12345.com.example.app")
        #expect(details.first?["paths"] == ["NOT /e/*", "*", "/"])
        // config.yaml shows how to enable it.
        #expect(DefaultConfiguration.yaml.contains("aasa: {web.taptalk.io: adapters/TapTalk/apple-app-site-association.json}"))
    }

    @Test func keysAreOptionalAndCaseIsFolded() throws {
        let bare = try #require(try registry("adapters: [taptalk]").adapter(forVendor: "taptalk") as? TapTalkAdapter)
        #expect(bare.hosts == TapTalkAdapter.defaultHosts && bare.schemes == TapTalkAdapter.defaultSchemes)
        let custom = try #require(
            try registry(
                """
                adapters:
                  - id: taptalk
                    hosts: [Chat.Example.com]
                    schemes: [MyChat]
                    screens: {roomList: inbox}
                """
            ).adapter(forVendor: "taptalk") as? TapTalkAdapter
        )
        #expect(custom.hosts == ["chat.example.com"] && custom.schemes == ["mychat"])
        #expect(custom.screens == TapTalkAdapter.ScreenNames(chatRoom: "chatRoom", roomList: "inbox"))
    }

    @Test func emptyListsTurnLinkFormsOff() throws {
        let registry = try registry(
            """
            app: {schemes: [taptalkio], domains: [web.taptalk.io]}
            adapters: [{id: taptalk, hosts: [], schemes: []}]
            security: {allowedSchemes: [https, taptalkio]}
            """
        )
        for link in ["https://web.taptalk.io/2-4096", "taptalkio://2-4096"] {
            #expect(try registry.normalize(.url(link)).vendor == "link")
        }
    }

    @Test(arguments: [
        ("hosts: [https://web.taptalk.io]", "adapters[0].hosts[0]", "is not a host name"),
        ("hosts: web.taptalk.io", "adapters[0].hosts", "expected a list, got a string"),
        ("schemes: [taptalkio, https]", "adapters[0].schemes[1]", "cannot be a TapTalk custom scheme"),
        ("schemes: [javascript]", "adapters[0].schemes[0]", "is never allowed"),
        ("screens: {room: x}", "adapters[0].screens.room", "unknown key 'room'"),
        ("screens: {chatRoom: ''}", "adapters[0].screens.chatRoom", "must not be empty"),
        ("screens: {chatRoom: 3}", "adapters[0].screens.chatRoom", "expected a string"),
        ("reserved: [chat]", "adapters[0].reserved", "unknown key 'reserved' for adapter 'taptalk'"),
    ])
    func badValuesNameTheirKeyAndLine(entry: String, keyPath: String, message: String) {
        #expect {
            _ = try registry("adapters:\n  - id: taptalk\n    \(entry)\n")
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            return error.keyPath.description == keyPath && error.message.contains(message) && error.file == "test.yaml"
                && error.line == 3
        }
    }
}

/// Behaviour that vectors show only indirectly.
@Suite struct TapTalkAdapterTests {
    let adapter = TapTalkAdapter()

    @Test func recognizesOnlyItsOwnInputs() {
        #expect(adapter.recognizes(.userActivity(webpageURL: "https://web.taptalk.io/a")))
        #expect(!adapter.recognizes(InputEvent(.userActivity(activityType: "com.example.handoff", webpageURL: "https://web.taptalk.io/a"))))
        #expect(!adapter.recognizes(.url("https://web.taptalk.io.evil.example/a")))
        #expect(!adapter.recognizes(.url("ftp://web.taptalk.io/a")))
        #expect(!adapter.recognizes(.url("web.taptalk.io/a")))
        #expect(!adapter.recognizes(.notification(userInfo: ["data": ["message": ["text": "hi"]]])))
        #expect(!adapter.recognizes(.notification(userInfo: ["identifier": "io.taptalk.tapTalk", "body": "{}"])))
        #expect(!adapter.recognizes(InputEvent(.inAppMessage(message: ["room": ["roomID": "1"]], action: nil))))
        #expect(!adapter.recognizes(InputEvent(.vendorEvent(["identifier": "io.taptalk.TapTalk"]))))
    }

    @Test func refusesWhatItDoesNotRecognize() {
        #expect(throws: NormalizationError.self) { try adapter.read(.url("https://example.com/a")) }
        #expect(throws: NormalizationError.self) { try adapter.read(.notification(userInfo: ["aps": [:]])) }
    }

    @Test(arguments: [
        (JSONValue.null, "is missing"),
        (JSONValue.number(JSONNumber(3)), "is a number, not a JSON string"),
        (JSONValue.string("[1]"), "holds an array, not a message object"),
    ])
    func androidBodiesThatHoldNoMessageLeadToTheRoomList(body: JSONValue, reason: String) throws {
        let interaction = try adapter.read(.notification(userInfo: ["identifier": "io.taptalk.TapTalk", "body": body]))
        #expect(interaction.destination == .screen(name: "roomList"))
        #expect(interaction.warnings.map(\.code) == [.missingMessage])
        #expect(interaction.warnings.first?.message.contains("body \(reason);") == true)
    }

    @Test(arguments: [
        (JSONValue.object(["roomID": ""]), "data.message.room.roomID is empty"),
        (JSONValue.object(["roomID": ["x"]]), "data.message.room.roomID is an array, not a string"),
        (JSONValue.string("2-4096"), "data.message.room is a string, not an object"),
    ])
    func iOSRoomsWithoutAUsableIDLeadToTheRoomList(room: JSONValue, why: String) throws {
        let interaction = try adapter.read(.notification(userInfo: ["data": ["message": ["room": room]]]))
        #expect(interaction.destination == .screen(name: "roomList"))
        #expect(interaction.warnings.map(\.code) == [.missingRoomID])
        #expect(interaction.warnings.first?.message.contains(why) == true)
    }

    @Test func aWhitespaceRoomIDIsNotUsed() throws {
        let interaction = try adapter.read(.url("taptalkio://room/%20%20"))
        #expect(interaction.destination == .screen(name: "roomList", url: "taptalkio://room/%20%20"))
        #expect(interaction.warnings.map(\.code) == [.invalidRoomID])
    }
}
