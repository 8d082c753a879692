import Foundation
import TapRoute
import TapRouteAdapters
import TapRouteConformance
import TapRouteTestSupport
import TapRouteYAML

/// Loads definition files and runs conformance vectors through registries that hold
/// definitions, for the declarative-adapter tests.
enum DefinitionFiles {
    /// Compiles the definition at a path relative to the repository root, located in that file.
    static func load(_ relativePath: String) throws -> AdapterDefinition {
        let text = try String(contentsOfFile: TestPaths.path(relativePath), encoding: .utf8)
        let (document, source) = try YAMLConfiguration.document(yaml: text, file: relativePath)
        return try AdapterDefinition(json: document, source: source, origin: .file(relativePath))
    }

    /// Compiles a definition written in the test.
    static func parse(_ yaml: String) throws -> AdapterDefinition {
        let (document, source) = try YAMLConfiguration.document(yaml: yaml, file: "<test>")
        return try AdapterDefinition(json: document, source: source, origin: .file("<test>"))
    }

    /// Every definition the repository ships: the built-in ones, Bird re-expressed as one
    /// (the test-only proof) and the example app's own convention.
    static func shipped() throws -> [AdapterDefinition] {
        try AdapterRegistry.builtInDefinitions() + [
            load(BirdDefinitionTests.definitionPath),
            load(AppConventionDefinitionTests.definitionPath),
        ]
    }

    /// The `.yaml` files of a folder relative to the repository root, sorted.
    static func yamlFiles(in relativeDirectory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: TestPaths.path(relativeDirectory))
            .filter { $0.hasSuffix(".yaml") }
            .sorted()
            .map { relativeDirectory + "/" + $0 }
    }
}

/// A registry for each vector: the base configuration document with the vector's `config`
/// over it (top-level keys replaced, as the conformance kit layers them), holding the given
/// adapter types and definitions.
struct DefinitionRegistries {
    var base: JSONObject
    var adapterTypes: [any PayloadAdapter.Type]
    var definitions: [AdapterDefinition]

    func registry(for vector: ConformanceVector) throws -> AdapterRegistry {
        var merged = base
        if let config = vector.config {
            let overlay: JSONValue
            if case .string(let yaml) = config {
                overlay = try YAMLConfiguration.document(yaml: yaml, file: vector.location).0
            } else {
                overlay = config
            }
            for (key, value) in overlay.objectValue ?? [:] { merged[key] = value }
        }
        return try AdapterRegistry(
            configuration: Configuration(json: .object(merged)),
            adapterTypes: adapterTypes,
            definitions: definitions
        )
    }

    /// What normalizing a vector's input gives: the Interaction's JSON text, or the error's
    /// code, path and message.
    func answer(for vector: ConformanceVector) throws -> String {
        Self.answer(try registry(for: vector), vector.input)
    }

    static func answer(_ registry: AdapterRegistry, _ input: JSONValue) -> String {
        do {
            return try registry.normalize(json: input).jsonString()
        } catch {
            return "error \(error.code.rawValue) at \(error.path): \(error.message)"
        }
    }

    /// The vectors whose answer is not what they expect, each with what it gave.
    func failures(_ vectors: ConformanceVectors) throws -> [String] {
        var failures: [String] = []
        for vector in vectors.vectors {
            let registry = try registry(for: vector)
            let result = Result { () throws(NormalizationError) -> Interaction in try registry.normalize(json: vector.input) }
            switch (vector.expected, result) {
            case (.interaction(let expected), .success(let interaction)):
                if interaction.jsonValue != expected {
                    failures.append("\(vector.location): expected \(expected.jsonString())\n  actual \(interaction.jsonString())")
                }
            case (.error(let code, let path), .failure(let error)):
                if error.code.rawValue != code || (path != nil && path != error.path) {
                    failures.append("\(vector.location): expected error \(code) at \(path ?? "-"), got \(error)")
                }
            case (_, .success(let interaction)):
                failures.append("\(vector.location): expected an error, got \(interaction.jsonString())")
            case (_, .failure(let error)):
                failures.append("\(vector.location): expected an interaction, got \(error)")
            }
        }
        return failures
    }
}
