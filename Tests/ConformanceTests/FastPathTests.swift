import Foundation
import TapRoute
import TapRouteAdapters
import TapRouteConformance
import TapRouteTestSupport
import TapRouteYAML
import Testing

/// The CLI's fast path writes Interactions straight to bytes (`Interaction.writeJSON`); the
/// plain path builds the `jsonValue` tree and writes it with `JSONWriter`. They must agree
/// byte for byte on every vector of every adapter and on thousands of hostile inputs.
@Suite struct FastPathTests {
    private static let registry: AdapterRegistry? = {
        guard let configuration = try? YAMLConfiguration.parse(yaml: DefaultConfiguration.yaml) else { return nil }
        return try? AdapterRegistry(configuration: configuration, adapterTypes: AdapterRegistry.builtInAdapterTypes)
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
        var plain: [UInt8] = []
        JSONWriter().write(interaction.jsonValue, into: &plain)
        #expect(fast == plain, "input: \(input.jsonString().prefix(300))")
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
