import BirdAdapter
import Foundation
import TapRoute
import TapRouteAdapters
import TapRouteConformance
import TapRouteTestSupport
import TapRouteYAML
import Testing

/// Proof of expressiveness (issue 14): the Bird adapter re-expressed as a definition
/// (`Tests/ConformanceTests/Definitions/bird.yaml`) gives byte-identical answers to the Swift
/// `BirdAdapter` — on every Bird vector and on every single-point mutation of them (the
/// conformance kit's hostile inputs) — in a registry where the definition replaces the Swift
/// adapter.
@Suite struct BirdDefinitionTests {
    static let definitionPath = "Tests/ConformanceTests/Definitions/bird.yaml"

    /// The repository's configuration document.
    static func base() throws -> JSONObject {
        try YAMLConfiguration.document(yaml: DefaultConfiguration.yaml, file: "config.yaml").0.objectValue ?? [:]
    }

    static func registries() throws -> (swift: DefinitionRegistries, definition: DefinitionRegistries) {
        let definition = try DefinitionFiles.load(definitionPath)
        let base = try base()
        let others = AdapterRegistry.builtInAdapterTypes.filter { $0.id != BirdAdapter.id }
        return (
            DefinitionRegistries(base: base, adapterTypes: AdapterRegistry.builtInAdapterTypes, definitions: []),
            DefinitionRegistries(base: base, adapterTypes: others, definitions: [definition])
        )
    }

    @Test func passesEveryBirdVector() throws {
        let vectors = try ConformanceVectors.directory(BirdConformanceTests.vectorsDirectory)
        #expect(vectors.vectors.count >= 30)
        let failures = try Self.registries().definition.failures(vectors)
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    @Test func answersEveryBirdVectorByteForByteAsTheSwiftAdapter() throws {
        let (swift, definition) = try Self.registries()
        let vectors = try ConformanceVectors.directory(BirdConformanceTests.vectorsDirectory)
        for vector in vectors.vectors {
            let expected = try swift.answer(for: vector)
            let actual = try definition.answer(for: vector)
            #expect(actual == expected, "\(vector.location)\n  swift:      \(expected)\n  definition: \(actual)")
        }
    }

    /// Every mutation of every Bird vector's input (each member removed, emptied, nulled,
    /// retyped, given a hostile string, its key respelled): the definition answers as the
    /// Swift adapter does, interaction or error, message included.
    @Test func answersEveryMutationAsTheSwiftAdapter() throws {
        let (swift, definition) = try Self.registries()
        let vectors = try ConformanceVectors.directory(BirdConformanceTests.vectorsDirectory)
        var done: Set<String> = []
        var tried = 0
        var differences: [String] = []
        for vector in vectors.vectors {
            let swiftRegistry = try swift.registry(for: vector)
            let definitionRegistry = try definition.registry(for: vector)
            for mutation in Mutation.all(of: vector.input, skippingRepeatsIn: &done) {
                tried += 1
                let expected = DefinitionRegistries.answer(swiftRegistry, mutation.input)
                let actual = DefinitionRegistries.answer(definitionRegistry, mutation.input)
                if actual != expected {
                    differences.append("\(vector.location) \(mutation.description)\n  swift:      \(expected)\n  definition: \(actual)")
                }
            }
        }
        #expect(tried > 500)
        #expect(differences.isEmpty, "\(differences.count) of \(tried):\n\(differences.prefix(20).joined(separator: "\n"))")
    }

    /// The definition replaces the Swift adapter under the same id; both at once is a
    /// configuration error, not a silent choice.
    @Test func definitionAndSwiftAdapterWithOneIDIsAnError() throws {
        let definition = try DefinitionFiles.load(Self.definitionPath)
        #expect(throws: ConfigurationError.self) {
            _ = try AdapterRegistry(
                configuration: Configuration(json: .object(try Self.base())),
                adapterTypes: AdapterRegistry.builtInAdapterTypes,
                definitions: [definition]
            )
        }
    }
}
