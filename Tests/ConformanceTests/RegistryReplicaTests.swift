import TapRouteAdapters
import TapRouteConformance
import TapRouteTestSupport
import TapRouteYAML
import Testing

@testable import TapRoute

/// `normalize --jobs` gives each thread a replica of the registry (`AdapterRegistry.replica()`)
/// so that the threads share no adapter objects. A replica must normalize every input exactly
/// as the registry it copies, whatever that was built from, and must build its adapters anew.
@Suite struct RegistryReplicaTests {
    /// An adapter that is a class, so that a test can tell one instance from another; it
    /// recognizes vendor events whose `probe` is a string.
    final class ProbeAdapter: PayloadAdapter {
        static let id = "probe"

        init(configuration: AdapterConfiguration) {}

        func recognizes(_ input: InputEvent) -> Bool {
            if case .vendorEvent(let event) = input.kind, event["probe"]?.stringValue != nil { return true }
            return false
        }

        func read(_ input: InputEvent, using reader: inout PayloadReader) throws(NormalizationError) -> AdapterResult {
            guard case .vendorEvent(let event) = input.kind, let url = event["probe"]?.stringValue else {
                throw NormalizationError(.unrecognized, "not a probe event", path: "$")
            }
            return AdapterResult(channel: .push, trigger: .tap, destination: .url(url, target: .external))
        }
    }

    /// The registries the replica is checked against: the built-in one; and one built from
    /// the app-convention example's configuration (an entry bringing its own definition),
    /// with routes, an extra adapter type, an extra definition and a classifier of its own.
    static func registries() throws -> [(name: String, registry: AdapterRegistry)] {
        var configuration = try YAMLConfiguration.load(contentsOf: TestPaths.path("examples/app-convention/config.yaml"))
        configuration.adapters.append(AdapterSettings(id: "probe"))
        configuration.adapters.append(AdapterSettings(id: "bird-definition"))
        configuration.routes.append(try Route(pattern: "https://shop.example.com/p/{id}", screen: "product"))
        var birdJSON = try DefinitionFiles.load("Tests/ConformanceTests/Definitions/bird.yaml").document.objectValue ?? [:]
        birdJSON["id"] = "bird-definition"
        let classifier = URLClassifier(
            app: AppSettings(schemes: ["myapp"], domains: ["shop.example.com"]),
            universalLinkRules: ["shop.example.com": { parts in UniversalLinkDecision(opensApp: !parts.path.hasPrefix("/help")) }]
        )
        let custom = try AdapterRegistry(
            configuration: configuration,
            adapterTypes: AdapterRegistry.builtInAdapterTypes + [ProbeAdapter.self],
            definitions: AdapterRegistry.builtInDefinitions() + [AdapterDefinition(json: .object(birdJSON))],
            classifier: classifier
        )
        return [("built-in", try AdapterRegistry.builtIn()), ("custom", custom)]
    }

    /// What a registry makes of an input: the interaction's JSON, or the error's code and
    /// message.
    static func outcome(_ registry: AdapterRegistry, _ input: InputEvent) -> String {
        do throws(NormalizationError) {
            return try registry.normalize(input).jsonValue.jsonString()
        } catch {
            return "\(error.code.rawValue): \(error.message) at \(error.path)"
        }
    }

    @Test func aReplicaNormalizesEveryShippedInputAsTheOriginalDoes() throws {
        var inputs: [InputEvent] = []
        for vector in try ShippedVectors.all().vectors {
            guard let input = try? InputEvent(json: vector.input) else { continue }
            inputs.append(input)
            inputs += RecognitionInPlaceTests.mutations(of: input)
        }
        let probes: [JSONValue] = [
            ["kind": "vendorEvent", "event": ["probe": "https://shop.example.com/p/7"]],
            ["kind": "vendorEvent", "event": ["probe": "https://shop.example.com/help/7"]],
            ["kind": "vendorEvent", "event": ["probe": "myapp://inbox"]],
            ["kind": "vendorEvent", "event": ["probe": "javascript:alert(1)"]],
        ]
        inputs += try probes.map { try InputEvent(json: $0) }
        #expect(inputs.count > 1000)
        for (name, registry) in try Self.registries() {
            let replica = registry.replica()
            #expect(replica.adapters.map(\.id) == registry.adapters.map(\.id), "\(name)")
            #expect(replica.allowedSchemes == registry.allowedSchemes, "\(name)")
            var interactions = 0
            var outcomes: Set<String> = []
            for input in inputs {
                let expected = Self.outcome(registry, input)
                #expect(Self.outcome(replica, input) == expected, "\(name): \(input)")
                if !expected.hasPrefix("unrecognized") { interactions += 1 }
                outcomes.insert(expected)
            }
            #expect(interactions > 500 && outcomes.count > 200, "\(name): \(interactions), \(outcomes.count)")
        }
    }

    @Test func aReplicaBuildsItsAdaptersAnew() throws {
        let custom = try #require(try Self.registries().last?.registry)
        let original = try #require(custom.adapter(forVendor: "probe") as? ProbeAdapter)
        let replica = try #require(custom.replica().adapter(forVendor: "probe") as? ProbeAdapter)
        #expect(original !== replica)
        // The classifier given to the registry is the replica's too: its universal-link rule
        // still decides.
        let help = try InputEvent(json: ["kind": "vendorEvent", "event": ["probe": "https://shop.example.com/help/1"]])
        let product = try InputEvent(json: ["kind": "vendorEvent", "event": ["probe": "https://shop.example.com/p/1"]])
        #expect(try custom.replica().normalize(help).destination == .url("https://shop.example.com/help/1", target: .external))
        guard case .screen(let screen, _, _) = try custom.replica().normalize(product).destination else {
            Issue.record("the route did not match: \(Self.outcome(custom, product))")
            return
        }
        #expect(screen == "product")
    }
}
