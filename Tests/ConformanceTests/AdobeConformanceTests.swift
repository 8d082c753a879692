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
                registryAdapters: AdapterRegistry.builtInAdapterTypes
            )
        ).run()
    }

    @Test func adobeVectorsAreEnough() throws {
        let vectors = try ConformanceVectors.directory(Self.vectorDirectory)
        #expect(vectors.vectors.count >= 30)
    }
}
