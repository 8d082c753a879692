import Foundation
import PropertyBased
import TapRoute
import TapRouteAdapters
import TapRouteConformance
import TapRouteTestSupport
import TapRouteYAML
import Testing

extension AcmeTestAdapter: MessageEncoding {
    var encodingCapabilities: EncodingCapabilities { EncodingCapabilities(destinations: [.app, .url]) }

    func encode(_ message: OutgoingMessage) throws(EncodingError) -> InputEvent {
        var acme = JSONObject()
        if let id = message.messageId { acme["id"] = .string(id) }
        if case .url(let url, _) = message.destination { acme["target"] = .string(url) }
        return InputEvent(.notification(userInfo: ["aps": message.apsAlert, "acme": .object(acme)], action: nil, origin: .remote))
    }
}

/// Acme's encoder as a careless third party writes it: the link goes under a key the reader
/// does not read, so every URL comes back as "open the app".
struct MisspelledAcmeEncoder: PayloadAdapter, MessageEncoding {
    static let id = "acme"
    static let summary = "Acme pushes, written under the wrong key"
    static let configurationKeys: [String] = []
    init(configuration: AdapterConfiguration) throws(ConfigurationError) {}
    func recognizes(_ input: InputEvent) -> Bool { AcmeTestAdapter.isAcme(input) }
    func read(_ input: InputEvent, using reader: inout PayloadReader) throws(NormalizationError) -> AdapterResult {
        try AcmeTestAdapter.interaction(for: input)
    }
    var encodingCapabilities: EncodingCapabilities { EncodingCapabilities(destinations: [.app, .url]) }
    func encode(_ message: OutgoingMessage) throws(EncodingError) -> InputEvent {
        var acme = JSONObject()
        if let id = message.messageId { acme["id"] = .string(id) }
        if case .url(let url, _) = message.destination { acme["link"] = .string(url) }
        return InputEvent(.notification(userInfo: ["aps": message.apsAlert, "acme": .object(acme)], action: nil, origin: .remote))
    }
}

/// Encoding (docs/encode.md): the conformance kit's round trip catches a broken encoder, every
/// encoder of the repository round-trips 1,000 generated messages (property-based), and the
/// registry refuses what a vendor cannot express with a typed error naming the field.
@Suite struct EncodeTests {
    static let acmeVectors = ConformanceVectors([
        ConformanceVector(
            description: "a push with a link",
            location: "acme[0]",
            input: ["acme": ["id": "m-1", "target": "https://acme.example/promo/1"]],
            expected: .interaction([
                "vendor": "acme", "channel": "push", "trigger": ["type": "tap"],
                "destination": ["type": "url", "url": "https://acme.example/promo/1", "target": "external"],
                "handling": "app", "messageId": "m-1",
            ])
        )
    ])

    static func kit(_ adapter: any PayloadAdapter.Type) -> AdapterConformanceTest {
        AdapterConformanceTest(
            adapter: adapter,
            vectors: acmeVectors,
            options: .init(propertyCheckCount: 0, checksHostileInput: false, encodeRoundTripCount: 200)
        )
    }

    @Test func theKitPassesACorrectEncoder() async throws {
        let report = try await Self.kit(AcmeTestAdapter.self).report()
        #expect(report.findings.isEmpty, "\(report.findings.map(\.description).joined(separator: "\n"))")
    }

    @Test func theKitsRoundTripFailsABrokenEncoder() async throws {
        let report = try await Self.kit(MisspelledAcmeEncoder.self).report()
        let roundTrip = report.findings.filter { $0.check == .encodeRoundTrip }
        #expect(!roundTrip.isEmpty)
        #expect(roundTrip.allSatisfy { $0.detail.contains("destination {\"type\":\"app\"}") }, "\(roundTrip.map(\.detail))")
        #expect(roundTrip.first?.subject.contains("seed") == true)
    }

    /// The repository's configuration with every built-in adapter and definition: each vendor
    /// that can encode, 1,000 generated messages within its capabilities, each round-tripping.
    @Test func everyEncoderRoundTripsGeneratedMessages() async throws {
        let registry = try AdapterRegistry.builtIn(configuration: YAMLConfiguration.parse(yaml: DefaultConfiguration.yaml))
        try await Self.roundTrips(registry: registry)
    }

    /// The app's own convention (examples/app-convention), which writes its pushes too.
    @Test func theAppConventionRoundTripsGeneratedMessages() async throws {
        let definition = try DefinitionFiles.load("examples/app-convention/myapp.yaml")
        let configuration = try Configuration(json: ["app": ["schemes": ["myapp"]], "adapters": [["id": "myapp"]]])
        let registry = try AdapterRegistry(configuration: configuration, adapterTypes: [], definitions: [definition])
        #expect(registry.canEncode(vendor: "myapp"))
        try await Self.roundTrips(registry: registry)
    }

    /// Custom data that carries another vendor's keys would hand the payload to that vendor:
    /// the registry refuses it, naming the data, instead of writing a push that lands elsewhere.
    @Test func aPayloadAnotherVendorWouldClaimIsRefused() throws {
        let registry = try AdapterRegistry.builtIn(configuration: YAMLConfiguration.parse(yaml: DefaultConfiguration.yaml))
        let message = OutgoingMessage(
            body: "x",
            destination: .url("https://example.com/a", target: .external),
            data: ["ab": ["c": "campaign"]],
            messageId: "m-1"
        )
        do throws(EncodingError) {
            let event = try registry.encode(message, vendor: "iterable")
            Issue.record("encoded: \(event.jsonValue.jsonString()), normalized by \((try? registry.normalize(event))?.vendor ?? "none")")
        } catch {
            #expect(error.code == .cannotExpress)
            #expect(error.field == "$.data")
            #expect(error.message.contains("braze"))
        }
    }

    static func roundTrips(registry: AdapterRegistry) async throws {
        for vendor in registry.adapters.map(\.id) {
            guard let capabilities = registry.encodingCapabilities(vendor: vendor) else { continue }
            let schemes = registry.configuration.app.schemes
            let messages = Gen.uint64().map { seed in
                var rng = SeededGenerator(seed: seed)
                return MessageGenerator.message(within: capabilities, appSchemes: schemes, using: &rng)
            }
            await propertyCheck(count: 1000, input: messages) { message in
                let problems = EncodeRoundTrip.problems(message, vendor: vendor, registry: registry)
                #expect(problems.isEmpty, "\(vendor): \(message.jsonValue.jsonString())\n\(problems.joined(separator: "\n"))")
            }
        }
    }
}
