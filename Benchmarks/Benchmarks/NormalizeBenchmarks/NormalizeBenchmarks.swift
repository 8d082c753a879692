import Benchmark
import BenchmarkInputs
import Foundation
import TapRoute
import TapRouteAdapters
import TapRouteYAML

/// The typical push (`Sources/BenchmarkInputs`, shared with PushInstructions), in a global of
/// this module.
let typicalPush = BenchmarkInputs.typicalPush
/// A plain custom-scheme link that matches a route.
let routedLink = BenchmarkInputs.routedLink
/// The default registry.
let registry = BenchmarkInputs.makeRegistry()

/// The repository's checkout, for the definition files.
let repository = BenchmarkInputs.repository

/// Every definition the repository ships as YAML text, by path: the built-in vendors
/// (`adapters/<Vendor>/<id>.yaml`), Bird re-expressed as a definition (the test-only proof)
/// and the app-convention example.
let definitionTexts: [(path: String, text: String)] =
    (builtInDefinitionPaths() + [
        "Tests/ConformanceTests/Definitions/bird.yaml", "examples/app-convention/myapp.yaml",
    ]).map { path in
        guard let text = try? String(contentsOfFile: repository + "/" + path, encoding: .utf8) else {
            fatalError("cannot read \(repository)/\(path)")
        }
        return (path, text)
    }

/// The built-in definition files, `adapters/<Vendor>/<id>.yaml`, in path order.
func builtInDefinitionPaths() -> [String] {
    func list(_ directory: String) -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: repository + "/" + directory).sorted()
        } catch {
            fatalError("cannot list \(repository)/\(directory): \(error)")
        }
    }
    return list("adapters").flatMap { folder in
        list("adapters/" + folder).filter { $0.hasSuffix(".yaml") }.map { "adapters/\(folder)/\($0)" }
    }
}

/// Compiles every shipped definition from its YAML text.
func compileDefinitions() throws -> [AdapterDefinition] {
    try definitionTexts.map { file in
        let (document, source) = try YAMLConfiguration.document(yaml: file.text, file: file.path)
        return try AdapterDefinition(json: document, source: source, origin: .file(file.path))
    }
}

/// Every shipped definition as JSON text: how a built-in definition is compiled into the
/// library (no YAML reader at run time).
let definitionJSONTexts: [String] = {
    do {
        return try definitionTexts.map { try YAMLConfiguration.document(yaml: $0.text, file: $0.path).0.jsonString() }
    } catch {
        fatalError("a definition does not parse: \(error)")
    }
}()

/// Bird interactions as a back end receives them (`Sources/BenchmarkInputs`).
let birdRecords = BenchmarkInputs.birdRecords

/// The default configuration with the definition-based Bird in place of the Swift adapter.
let definitionBirdRegistry = BenchmarkInputs.makeDefinitionBirdRegistry()

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .throughput],
        timeUnits: .nanoseconds,
        maxDuration: .seconds(2)
    )

    Benchmark("normalize a typical 500-byte push: bytes to Interaction") { benchmark in
        for _ in benchmark.scaledIterations {
            let interaction = typicalPush.withUnsafeBufferPointer { bytes in
                try? registry.normalize(record: bytes)
            }
            blackHole(interaction)
        }
    }

    Benchmark("normalize a typical push and write its JSON") { benchmark in
        var out: [UInt8] = []
        out.reserveCapacity(2048)
        for _ in benchmark.scaledIterations {
            out.removeAll(keepingCapacity: true)
            if let interaction = typicalPush.withUnsafeBufferPointer({ try? registry.normalize(record: $0) }) {
                interaction.writeJSON(into: &out)
            }
            blackHole(out)
        }
    }

    Benchmark("normalize a routed custom-scheme link") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(routedLink.withUnsafeBufferPointer { try? registry.normalize(record: $0) })
        }
    }

    Benchmark("parse a typical push (JSON only)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(typicalPush.withUnsafeBufferPointer { try? JSONParser().parse($0) })
        }
    }

    Benchmark("load the default configuration and build the registry") { benchmark in
        for _ in benchmark.scaledIterations {
            let configuration = try YAMLConfiguration.parse(yaml: DefaultConfiguration.yaml)
            blackHole(
                try AdapterRegistry(
                    configuration: configuration,
                    adapterTypes: AdapterRegistry.builtInAdapterTypes,
                    definitions: AdapterRegistry.builtInDefinitions()
                )
            )
        }
    }

    // Declarative adapters (docs/declarative-adapters.md): the same Bird records through the
    // Swift BirdAdapter and through Bird re-expressed as a definition; each iteration
    // normalizes all three records, so divide by 3 for the time per record.
    Benchmark("Bird, Swift adapter: 3 records to Interaction") { benchmark in
        for _ in benchmark.scaledIterations {
            for record in birdRecords {
                blackHole(record.withUnsafeBufferPointer { try? registry.normalize(record: $0) })
            }
        }
    }

    Benchmark("Bird, definition: 3 records to Interaction") { benchmark in
        for _ in benchmark.scaledIterations {
            for record in birdRecords {
                blackHole(record.withUnsafeBufferPointer { try? definitionBirdRegistry.normalize(record: $0) })
            }
        }
    }

    // The adapters alone, on the same three records already parsed into InputEvents: what
    // the engine costs next to the Swift code, without parsing, detection and the policy.
    Benchmark("Bird, Swift adapter: read 3 events") { benchmark in
        guard let adapter = registry.adapters.first(where: { $0.id == "bird" }) else { fatalError("no bird adapter") }
        let events = try birdRecords.map { try InputEvent(json: JSONValue(parsing: String(decoding: $0, as: UTF8.self))) }
        for _ in benchmark.scaledIterations {
            for event in events {
                var reader = PayloadReader()
                blackHole(try? adapter.read(event, using: &reader))
            }
        }
    }

    Benchmark("Bird, definition: read 3 events") { benchmark in
        guard let adapter = definitionBirdRegistry.adapters.first(where: { $0.id == "bird" }) else { fatalError("no bird definition") }
        let events = try birdRecords.map { try InputEvent(json: JSONValue(parsing: String(decoding: $0, as: UTF8.self))) }
        for _ in benchmark.scaledIterations {
            for event in events {
                var reader = PayloadReader()
                blackHole(try? adapter.read(event, using: &reader))
            }
        }
    }

    Benchmark("build the registry with every definition compiled from JSON text") { benchmark in
        let configuration = try YAMLConfiguration.parse(yaml: DefaultConfiguration.yaml)
        for _ in benchmark.scaledIterations {
            let definitions = try definitionJSONTexts.map { try AdapterDefinition(json: JSONValue(parsing: $0), origin: .builtIn) }
            blackHole(
                try AdapterRegistry(
                    configuration: configuration,
                    adapterTypes: AdapterRegistry.builtInAdapterTypes.filter { type in !definitions.contains { $0.id == type.id } },
                    definitions: definitions
                )
            )
        }
    }

    Benchmark("load the default configuration, compile every definition from YAML and build the registry") { benchmark in
        for _ in benchmark.scaledIterations {
            let configuration = try YAMLConfiguration.parse(yaml: DefaultConfiguration.yaml)
            let definitions = try compileDefinitions()
            blackHole(
                try AdapterRegistry(
                    configuration: configuration,
                    adapterTypes: AdapterRegistry.builtInAdapterTypes.filter { type in !definitions.contains { $0.id == type.id } },
                    definitions: definitions
                )
            )
        }
    }
}
