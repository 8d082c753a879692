import TapRoute
import TapRouteAdapters
import TapRouteConformance
import TapRouteTestSupport
import Testing

@Suite struct LinkConformanceTests {
    @Test func linkAdapterConforms() async throws {
        try await AdapterConformanceTest(
            adapter: LinkAdapter.self,
            vectors: .directory(TestPaths.path("Tests/ConformanceTests/Vectors/link")),
            options: .init(
                baseConfiguration: .yaml(DefaultConfiguration.yaml),
                registryAdapters: AdapterRegistry.builtInAdapterTypes,
                otherVectors: ShippedVectors.all(),
                registryDefinitions: AdapterRegistry.builtInDefinitions()
            )
        ).run()
    }

    @Test func linkVectorsAreEnough() throws {
        let vectors = try ConformanceVectors.directory(TestPaths.path("Tests/ConformanceTests/Vectors/link"))
        #expect(vectors.vectors.count >= 15)
    }
}
