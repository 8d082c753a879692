import Foundation
import TapRoute
import TapRouteAdapters
import TapRouteConformance
import TapRouteTestSupport
import TapRouteYAML
import Testing

/// The canonical JSON form has one source: `Interaction.writeJSON`, which the CLI uses; the
/// `jsonValue` tree is its bytes read back. On every vector of every adapter and on thousands
/// of hostile inputs the tree must be a fixed point — `JSONWriter` writes it back to the same
/// bytes, the pretty form reads back to the same tree — and read back into the same
/// interaction.
@Suite struct FastPathTests {
    private static let registry: AdapterRegistry? = {
        guard let configuration = try? YAMLConfiguration.parse(yaml: DefaultConfiguration.yaml) else { return nil }
        return try? AdapterRegistry(
            configuration: configuration,
            adapterTypes: AdapterRegistry.builtInAdapterTypes,
            definitions: AdapterRegistry.builtInDefinitions()
        )
    }()

    private func vectorInputs() throws -> [JSONValue] {
        var directories = try FileManager.default.contentsOfDirectory(atPath: TestPaths.path("adapters"))
            .map { "adapters/\($0)/Vectors" }
        directories.append("Tests/ConformanceTests/Vectors/link")
        var inputs: [JSONValue] = []
        for directory in directories where FileManager.default.fileExists(atPath: TestPaths.path(directory)) {
            inputs += try ConformanceVectors.directory(TestPaths.path(directory)).vectors.map(\.input)
        }
        return inputs
    }

    private func expectSameBytes(_ input: JSONValue, registry: AdapterRegistry) {
        guard let interaction = try? registry.normalize(json: input) else { return }
        var fast: [UInt8] = []
        interaction.writeJSON(into: &fast)
        let tree = interaction.jsonValue
        var plain: [UInt8] = []
        JSONWriter().write(tree, into: &plain)
        #expect(fast == plain, "input: \(input.jsonString().prefix(300))")
        #expect(Array(interaction.jsonString().utf8) == fast)
        #expect((try? JSONValue(parsing: interaction.jsonString(pretty: true))) == tree)
        #expect((try? Interaction(jsonValue: tree)) == interaction, "input: \(input.jsonString().prefix(300))")
    }

    @Test func aPayloadDeeperThanTheParsersDefaultLimitKeepsItsTree() throws {
        var payload: JSONValue = "leaf"
        for _ in 0..<(JSONParser().maximumDepth + 100) { payload = ["a": payload] }
        guard case .object(let object) = payload else { Issue.record("not an object"); return }
        let interaction = Interaction(vendor: "v", channel: .push, trigger: .tap, destination: .app, handling: .app, payload: object)
        #expect(interaction.jsonValue["payload"] == payload)
    }

    @Test func fastAndPlainPathsAgreeOnEveryVector() throws {
        let registry = try #require(Self.registry)
        let inputs = try vectorInputs()
        #expect(inputs.count > 200)
        for input in inputs { expectSameBytes(input, registry: registry) }
    }

    @Test func fastAndPlainPathsAgreeOnHostileInputs() throws {
        let registry = try #require(Self.registry)
        let seeds = try vectorInputs()
        var generator = HostileJSON(seed: 0x9E37_79B9, adapterID: "dashx", seeds: seeds)
        for _ in 0..<5_000 {
            expectSameBytes(generator.input(), registry: registry)
        }
    }
}
