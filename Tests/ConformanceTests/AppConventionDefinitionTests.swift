import Foundation
import TapRoute
import TapRouteAdapters
import TapRouteConformance
import TapRouteTestSupport
import TapRouteYAML
import Testing

/// The app's own push convention as a definition (`examples/app-convention/myapp.yaml`, the
/// walkthrough of docs/declarative-adapters.md): its vectors, and that it stays the "ten
/// lines" the walkthrough promises.
@Suite struct AppConventionDefinitionTests {
    static let definitionPath = "examples/app-convention/myapp.yaml"
    static let vectorsPath = "examples/app-convention/Vectors"

    /// The walkthrough's configuration: the app's scheme, only the app's definition enabled.
    static let base: JSONObject = ["app": ["schemes": ["myapp"]], "adapters": [["id": "myapp"]]]

    @Test func passesItsVectors() throws {
        let definition = try DefinitionFiles.load(Self.definitionPath)
        #expect(definition.id == "myapp")
        let vectors = try ConformanceVectors.directory(TestPaths.path(Self.vectorsPath))
        #expect(vectors.vectors.count >= 10)
        let registries = DefinitionRegistries(base: Self.base, adapterTypes: [], definitions: [definition])
        let failures = try registries.failures(vectors)
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    /// The conformance kit, exactly as for a Swift adapter: vectors, determinism,
    /// recognition, other vendors' payloads, round trip, hostile inputs, crash isolation.
    @Test func conformsThroughTheKit() async throws {
        try await AdapterConformanceTest(
            definition: DefinitionFiles.load(Self.definitionPath),
            vectors: .directory(TestPaths.path(Self.vectorsPath)),
            options: .init(
                baseConfiguration: .yaml("app: {schemes: [myapp]}\nadapters: [{id: myapp}]\n"),
                registryAdapters: AdapterRegistry.builtInAdapterTypes,
                otherVectors: ShippedVectors.all(),
                registryDefinitions: AdapterRegistry.builtInDefinitions()
            )
        ).run()
    }

    /// Next to every built-in adapter (the repository's config.yaml order, the definition
    /// last), the definition gets the same answers: no built-in claims the app's pushes, and
    /// the definition claims none of the built-ins' vectors.
    @Test func coexistsWithTheBuiltInAdapters() throws {
        let definition = try DefinitionFiles.load(Self.definitionPath)
        let configuration = try YAMLConfiguration.document(yaml: DefaultConfiguration.yaml, file: "config.yaml").0
        var base = configuration.objectValue ?? [:]
        base["app"] = ["schemes": ["myapp", "campaigndemoapp", "taptalkio"], "domains": ["web.taptalk.io"]]
        base["adapters"] = JSONValue.array((base["adapters"]?.arrayValue ?? []) + [["id": "myapp"]])
        base["routes"] = []
        let registries = DefinitionRegistries(
            base: base,
            adapterTypes: AdapterRegistry.builtInAdapterTypes,
            definitions: try AdapterRegistry.builtInDefinitions() + [definition]
        )
        let vectors = try ConformanceVectors.directory(TestPaths.path(Self.vectorsPath))
        let failures = try registries.failures(vectors)
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")

        let instance = try #require(registries.registry(for: vectors.vectors[0]).adapter(forVendor: "myapp"))
        for vector in try ShippedVectors.all().vectors {
            if case .interaction(let expected) = vector.expected, expected["vendor"] == "myapp" { continue }
            guard let event = try? InputEvent(json: vector.input) else { continue }
            #expect(!instance.recognizes(event), "\(vector.location)")
        }
    }

    /// The conformance kit's hostile inputs, derived from the example's vectors (every
    /// single-point mutation, then inputs generated from the kit's default seed): each gives
    /// an Interaction whose JSON reads back equal, or a typed error with a message and a `$`
    /// path, and the same answer twice.
    @Test func hostileInputsDerivedFromTheVectors() throws {
        let definition = try DefinitionFiles.load(Self.definitionPath)
        let vectors = try ConformanceVectors.directory(TestPaths.path(Self.vectorsPath))
        let registries = DefinitionRegistries(base: Self.base, adapterTypes: [], definitions: [definition])
        let registry = try registries.registry(for: vectors.vectors[0])
        var inputs: [JSONValue] = []
        var done: Set<String> = []
        for vector in vectors.vectors {
            inputs += Mutation.all(of: vector.input, skippingRepeatsIn: &done).map(\.input)
        }
        var generator = HostileJSON(seed: AdapterConformanceTest.defaultSeed, adapterID: "myapp", seeds: vectors.vectors.map(\.input))
        for _ in 0..<1000 { inputs.append(generator.input()) }
        #expect(inputs.count > 1000)
        var claimed = 0
        for input in inputs {
            let first = DefinitionRegistries.answer(registry, input)
            #expect(DefinitionRegistries.answer(registry, input) == first, "\(input.jsonString())")
            do {
                let interaction = try registry.normalize(json: input)
                if interaction.vendor == "myapp" { claimed += 1 }
                #expect(try Interaction(jsonValue: interaction.jsonValue) == interaction, "\(input.jsonString())")
            } catch let error as NormalizationError {
                #expect(!error.message.isEmpty && error.path.hasPrefix("$"), "\(input.jsonString()): \(error)")
            }
        }
        // The mutations keep most inputs the app's: the run exercised the definition.
        #expect(claimed > 100)
    }

    /// The walkthrough's example of a mistake: a located error naming the file, line,
    /// column and the path inside the definition.
    @Test func aMistakeIsLocatedInTheFileAndTheDefinition() throws {
        let text = try String(contentsOfFile: TestPaths.path(Self.definitionPath), encoding: .utf8)
        let broken = text.replacingOccurrences(of: "parameters: {orderId: orderId}", with: "parameters: {orderId: order..id}")
        #expect(broken != text)
        let (document, source) = try YAMLConfiguration.document(yaml: broken, file: "myapp.yaml")
        #expect(throws: ConfigurationError.self) {
            _ = try AdapterDefinition(json: document, source: source, origin: .file("myapp.yaml"))
        }
        do {
            _ = try AdapterDefinition(json: document, source: source, origin: .file("myapp.yaml"))
        } catch {
            #expect(
                error.description == "myapp.yaml:11:27: error: destination[1].parameters.orderId: 'order..id' is not a path: an empty key"
            )
        }
    }

    /// "The app's own convention in ten lines": the definition's reading part, comments aside
    /// (the optional `encode` section, which writes such pushes, follows it).
    @Test func isTenLines() throws {
        let text = try String(contentsOfFile: TestPaths.path(Self.definitionPath), encoding: .utf8)
        let reading = text.components(separatedBy: "\nencode:")[0]
        let lines = reading.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") }
        #expect(lines.count <= 10, "\(lines.count) lines")
        #expect(text.contains("\nencode:"), "the example shows how its pushes are written too")
    }
}
