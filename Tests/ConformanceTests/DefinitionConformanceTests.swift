import BirdAdapter
import Foundation
import TapRoute
import TapRouteAdapters
import TapRouteConformance
import TapRouteTestSupport
import TapRouteYAML
import Testing

/// A definition-based adapter through the conformance kit, and the proof that the format
/// expresses a whole vendor: Bird written as a definition answers exactly as the Swift
/// `BirdAdapter`, on every Bird vector and every single-point mutation of them.
@Suite struct DefinitionConformanceTests {
    static let vectorsDirectory = TestPaths.path("adapters/Bird/Vectors")

    @Test func birdDefinitionPassesTheBirdVectorsThroughTheKit() async throws {
        try await AdapterConformanceTest(
            definition: try DefinitionFixtures.bird(),
            // Bird's reading vectors; its encode vectors are the Swift adapter's (the
            // definition re-expresses reading only).
            vectors: ConformanceVectors(ConformanceVectors.directory(Self.vectorsDirectory).vectors),
            options: .init(
                baseConfiguration: .yaml(DefaultConfiguration.yaml),
                registryAdapters: AdapterRegistry.builtInAdapterTypes.filter { $0.id != BirdAdapter.id },
                propertyCheckCount: 300,
                otherVectors: ShippedVectors.all(),
                registryDefinitions: AdapterRegistry.builtInDefinitions()
            )
        ).run()
    }

    /// The definition and the Swift adapter give the same result, warnings and error (code,
    /// path and message) for every vector input and every mutation of one.
    @Test func birdDefinitionMatchesTheSwiftAdapterOnMutations() throws {
        let definition = DefinitionAdapter(definition: try DefinitionFixtures.bird())
        let swift = BirdAdapter()
        var inputs: [JSONValue] = []
        var seen = Set<String>()
        for vector in try ConformanceVectors.directory(Self.vectorsDirectory).vectors {
            inputs.append(vector.input)
            inputs += Mutation.all(of: vector.input, skippingRepeatsIn: &seen).map(\.input)
        }
        #expect(inputs.count > 500)
        var compared = 0
        for input in inputs {
            guard let event = try? InputEvent(json: input) else { continue }
            #expect(definition.recognizes(event) == swift.recognizes(event), "recognizes: \(input.jsonString())")
            guard case .vendorEvent = event.kind else { continue }
            let expected = Result { () throws(NormalizationError) in try swift.read(event) }
            let actual = Result { () throws(NormalizationError) in try definition.read(event) }
            compared += 1
            switch (expected, actual) {
            case (.success(let e), .success(let a)):
                #expect(e == a, "\(input.jsonString())")
            case (.failure(let e), .failure(let a)):
                #expect(e.code == a.code && e.path == a.path && e.message == a.message, "\(input.jsonString()): \(e) vs \(a)")
            default:
                Issue.record("\(input.jsonString()): Swift \(expected), definition \(actual)")
            }
        }
        #expect(compared > 400)
    }

    @Test func aBrokenDefinitionIsAFixtureErrorNotAFinding() throws {
        // The kit hands definitions to its child process as JSON text; one that compiles
        // arrives intact, so the only failures are the adapter's.
        let definition = try DefinitionFixtures.bird()
        let again = try AdapterDefinition(json: JSONValue(parsing: definition.document.jsonString()))
        #expect(again == definition)
    }
}
