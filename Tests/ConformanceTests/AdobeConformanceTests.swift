import TapRoute
import TapRouteAdapters
import TapRouteConformance
import TapRouteTestSupport
import Testing

@Suite struct AdobeConformanceTests {
    private static let vectorDirectory = TestPaths.path("adapters/Adobe/Vectors")

    @Test func adobeAdapterConforms() async throws {
        let adobe = try #require(AdapterRegistry.builtInAdapterTypes.first { $0.id == "adobe" })
        try await AdapterConformanceTest(
            adapter: adobe,
            vectors: .directory(Self.vectorDirectory),
            options: .init(
                baseConfiguration: .yaml(DefaultConfiguration.yaml),
                registryAdapters: AdapterRegistry.builtInAdapterTypes,
                otherVectors: ShippedVectors.all(),
                registryDefinitions: AdapterRegistry.builtInDefinitions()
            )
        ).run()
    }

    @Test func adobeVectorsAreEnough() throws {
        let vectors = try ConformanceVectors.directory(Self.vectorDirectory)
        #expect(vectors.vectors.count >= 30)
    }
}

/// Detection beyond the vectors: `recognizes` must leave other vendors' payloads alone, since
/// the registry asks adapters in configuration order and Adobe comes before Bird and TapTalk.
@Suite struct AdobeDetectionTests {
    private static func adobe() throws -> any PayloadAdapter {
        let configuration = try Configuration(json: ["adapters": [["id": "adobe"]]])
        let registry = try AdapterRegistry(
            configuration: configuration,
            adapterTypes: AdapterRegistry.builtInAdapterTypes,
            definitions: AdapterRegistry.builtInDefinitions()
        )
        return try #require(registry.adapter(forVendor: "adobe"))
    }

    @Test(arguments: [
        // DashX push: its block is a JSON string under `dashx`.
        #"{"aps":{"alert":{"title":"Hi","body":"x"}},"dashx":"{\"id\":\"1\",\"title\":\"Hi\",\"body\":\"x\",\"url\":\"https://a.example\"}"}"#,
        // TapTalk iOS push: data.message.room.
        #"{"kind":"notification","userInfo":{"aps":{"alert":"m"},"data":{"message":{"room":{"roomID":"r1"}}}}}"#,
        // TapTalk Android push data.
        #"{"kind":"notification","userInfo":{"identifier":"io.taptalk.TapTalk","body":"{}"}}"#,
        // Bird SDK interaction.
        #"{"kind":"vendorEvent","event":{"type":"Tap","action":{"type":"URL","uri":"https://a.example"}}}"#,
        // A plain push whose only link is a generic `uri`, and a local one with a generic key.
        #"{"aps":{"alert":"x"},"uri":"https://a.example"}"#,
        #"{"kind":"notification","origin":"local","userInfo":{"uri":"https://a.example","id":"5"}}"#,
        // Links that merely mention Adobe.
        #"{"kind":"url","url":"https://www.adobe.com/adbinapp://confirm"}"#,
        #"{"kind":"url","url":"adbinapp"}"#,
        #"{"kind":"userActivity","webpageURL":"adbinapp://confirm?id=a,b,3"}"#,
        // An in-app message of another type.
        #"{"kind":"inAppMessage","message":{"id":"m","type":"modal","detail":{"template":"alert"}},"action":"confirm"}"#,
    ])
    func leavesOtherPayloadsAlone(envelope: String) throws {
        let input = try InputEvent(json: json(envelope))
        #expect(try !Self.adobe().recognizes(input))
    }

    @Test func schemeIsCaseInsensitive() throws {
        let adobe = try Self.adobe()
        let input = InputEvent.url("ADBINAPP://cancel?id=h1,d1,5")
        #expect(adobe.recognizes(input))
        let interaction = try adobe.read(input)
        #expect(interaction.channel == .inApp)
        #expect(interaction.trigger == .button(id: "cancel"))
        #expect(interaction.destination == Destination.none)
        #expect(interaction.tracking == ["broadlogId": "h1", "deliveryId": "d1", "action": "5"])
    }

    @Test func localOriginWithAJOKeysIsChannelLocal() throws {
        // Adobe's own test app schedules local notifications carrying _xdm for
        // handleNotificationResponse; they are Journey Optimizer taps on the local channel.
        let adobe = try Self.adobe()
        let input = InputEvent.notification(
            userInfo: ["_xdm": ["cjm": ["_experience": ["customerJourneyManagement": ["messageExecution": ["messageID": "567"]]]]]],
            origin: .local
        )
        let interaction = try adobe.read(input)
        #expect(interaction.channel == .local)
        #expect(interaction.messageId == "567")
        #expect(interaction.destination == .app)
    }
}
