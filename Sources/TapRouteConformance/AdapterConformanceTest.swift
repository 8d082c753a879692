import PropertyBased
public import TapRoute
import TapRouteYAML
public import Testing

/// Checks that a `PayloadAdapter` honours the adapter contract.
///
/// Run it from the adapter's own test target:
///
/// ```swift
/// import Testing
/// import TapRouteConformance
///
/// @Test func acmeConforms() async throws {
///     try await AdapterConformanceTest(
///         adapter: AcmeAdapter.self,
///         vectors: .directory("Tests/AcmeTests/Vectors")
///     ).run()
/// }
/// ```
///
/// The contract, each part a separate check whose failures name the check and the vector:
/// 1. **Vectors**: every vector's input, run through a registry built from the base
///    configuration plus the vector's `config`, gives exactly the expected Interaction JSON
///    (or an error with the expected code and path).
/// 2. **Deterministic**: normalizing the same input twice gives the same JSON.
/// 3. **Recognizes is consistent with normalize**: for every vector whose expected vendor is
///    the adapter, `recognizes` is true; whenever `recognizes` is true, normalizing with the
///    adapter does not answer `unrecognized`.
/// 4. **Round trip**: every Interaction's JSON text parses back to an equal Interaction.
/// 5. **Hostile input** (property-based, swift-property-based): arbitrary JSON values,
///    envelopes of every kind filled with arbitrary content, and random mutations of the
///    vectors' inputs give an Interaction or a typed `NormalizationError` with a
///    message and a `$` path — never a trap; no Interaction carries a URL destination that
///    fails the safety rules; each answer is the same twice and round-trips through JSON; and
///    the input written as JSON text and read back as a record (`normalize(record:)`, what
///    the CLI does) gives the same answer as the value.
///
/// Fixtures an adopter must ship: at least one vector file. A failing property check prints
/// a seed; pin it with `@Test(.fixedSeed("…"))` to reproduce.
public struct AdapterConformanceTest: Sendable {
    /// Options for a run.
    public struct Options: Sendable {
        /// The configuration vectors start from. Default: only the adapter enabled.
        public var baseConfiguration: BaseConfiguration
        /// Every adapter type the registry knows (the adapter under test is added when
        /// missing). Give the full list when vectors rely on detection order.
        public var registryAdapters: [any PayloadAdapter.Type]
        /// How many arbitrary inputs the hostile-input check tries. Default 1000.
        public var propertyCheckCount: Int
        /// Whether to run the hostile-input check. Default true.
        public var checksHostileInput: Bool

        /// Creates options.
        public init(
            baseConfiguration: BaseConfiguration = .adapterOnly,
            registryAdapters: [any PayloadAdapter.Type] = [],
            propertyCheckCount: Int = 1000,
            checksHostileInput: Bool = true
        ) {
            self.baseConfiguration = baseConfiguration
            self.registryAdapters = registryAdapters
            self.propertyCheckCount = propertyCheckCount
            self.checksHostileInput = checksHostileInput
        }
    }

    /// The adapter type under test.
    public let adapter: any PayloadAdapter.Type
    /// The vectors it must pass.
    public let vectors: ConformanceVectors
    /// The run's options.
    public let options: Options

    /// Creates a conformance test.
    /// - Parameters:
    ///   - adapter: the adapter type under test.
    ///   - vectors: its vectors (``ConformanceVectors/directory(_:)`` and friends).
    ///   - options: base configuration, registry and property-check settings.
    public init(adapter: any PayloadAdapter.Type, vectors: ConformanceVectors, options: Options = Options()) {
        self.adapter = adapter
        self.vectors = vectors
        self.options = options
    }

    /// Runs every check, recording a test issue for each failure.
    /// - Throws: ``ConformanceError`` when the base configuration or a vector's
    ///   configuration cannot be used (a broken fixture, not a conformance failure).
    public func run(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let base = try options.baseConfiguration.document(adapterID: adapter.id)
        var types = options.registryAdapters
        if !types.contains(where: { $0.id == adapter.id }) { types.append(adapter) }
        let baseRegistry = try makeRegistry(document: base, overrides: nil, types: types, location: "<base configuration>")

        var produced: [(String, InputEvent?, Interaction)] = []
        for vector in vectors.vectors {
            let registry =
                vector.config == nil
                ? baseRegistry
                : try makeRegistry(
                    document: base,
                    overrides: vector.config,
                    types: types,
                    location: vector.location,
                    directory: vector.directory
                )
            if let interaction = checkVector(vector, registry: registry, sourceLocation: sourceLocation) {
                produced.append((vector.location, try? InputEvent(json: vector.input), interaction))
            }
            checkDeterministic(vector.input, registry: registry, context: "vector: \(vector.location)", sourceLocation: sourceLocation)
            checkRecognizes(vector, registry: registry, sourceLocation: sourceLocation)
        }
        for (location, _, interaction) in produced {
            checkRoundTrip(interaction, context: "vector: \(location)", sourceLocation: sourceLocation)
        }
        if options.checksHostileInput {
            await checkHostileInput(registry: baseRegistry, sourceLocation: sourceLocation)
        }
    }

    private func makeRegistry(
        document: JSONValue,
        overrides: JSONValue?,
        types: [any PayloadAdapter.Type],
        location: String,
        directory: String? = nil
    ) throws(ConformanceError) -> AdapterRegistry {
        var merged = document.objectValue ?? [:]
        if let overrides {
            let overlay: JSONValue
            switch overrides {
            case .string(let yaml):
                do {
                    overlay = try YAMLConfiguration.document(yaml: yaml, file: location).0
                } catch {
                    throw ConformanceError(location: location, message: "config: \(error)")
                }
            default:
                overlay = overrides
            }
            for (key, value) in overlay.objectValue ?? [:] { merged[key] = value }
        }
        do {
            var configuration = try Configuration(json: .object(merged))
            if !configuration.app.aasa.isEmpty {
                // AASA files named in a vector's configuration are read relative to the vector.
                configuration = try YAMLConfiguration.loadingAASAFiles(configuration, relativeTo: directory ?? ".")
            }
            return try AdapterRegistry(configuration: configuration, adapterTypes: types)
        } catch {
            throw ConformanceError(location: location, message: "configuration: \(error)")
        }
    }

    // MARK: - Checks

    private func checkVector(
        _ vector: ConformanceVector,
        registry: AdapterRegistry,
        sourceLocation: SourceLocation
    ) -> Interaction? {
        let context = "check: vector, vector: \(vector.location) (\(vector.description))"
        let result = Result { () throws(NormalizationError) -> Interaction in try registry.normalize(json: vector.input) }
        switch (vector.expected, result) {
        case (.interaction(let expected), .success(let interaction)):
            let actual = interaction.jsonValue
            if actual != expected {
                Issue.record(
                    "\(context)\nexpected: \(expected.jsonString())\n  actual: \(actual.jsonString())",
                    sourceLocation: sourceLocation
                )
            }
            return interaction
        case (.interaction(let expected), .failure(let error)):
            Issue.record("\(context)\nexpected: \(expected.jsonString())\n  actual error: \(error)", sourceLocation: sourceLocation)
        case (.error(let code, let path), .failure(let error)):
            if error.code.rawValue != code || (path != nil && path != error.path) {
                Issue.record(
                    "\(context)\nexpected error \(code)\(path.map { " at \($0)" } ?? "")\n  actual error: \(error)",
                    sourceLocation: sourceLocation
                )
            }
            if error.message.isEmpty {
                Issue.record("\(context)\nthe error has no message", sourceLocation: sourceLocation)
            }
        case (.error(let code, _), .success(let interaction)):
            Issue.record("\(context)\nexpected error \(code)\n  actual: \(interaction.jsonString())", sourceLocation: sourceLocation)
            return interaction
        }
        return nil
    }

    private func checkDeterministic(_ input: JSONValue, registry: AdapterRegistry, context: String, sourceLocation: SourceLocation) {
        let first = Result { () throws(NormalizationError) -> String in try registry.normalize(json: input).jsonString() }
        let second = Result { () throws(NormalizationError) -> String in try registry.normalize(json: input).jsonString() }
        if first != second {
            Issue.record("check: deterministic, \(context)\nfirst: \(first)\nsecond: \(second)", sourceLocation: sourceLocation)
        }
    }

    private func checkRecognizes(_ vector: ConformanceVector, registry: AdapterRegistry, sourceLocation: SourceLocation) {
        guard let event = try? InputEvent(json: vector.input),
            let instance = registry.adapter(forVendor: adapter.id)
        else { return }
        let context = "check: recognizes, vector: \(vector.location)"
        if case .interaction(let expected) = vector.expected, expected["vendor"]?.stringValue == adapter.id,
            !instance.recognizes(event)
        {
            Issue.record(
                "\(context)\nthe vector expects vendor '\(adapter.id)' but recognizes(_:) is false",
                sourceLocation: sourceLocation
            )
        }
        if instance.recognizes(event) {
            do throws(NormalizationError) {
                _ = try instance.normalize(event)
            } catch  where error.code == .unrecognized {
                Issue.record("\(context)\nrecognizes(_:) is true but normalize(_:) says: \(error)", sourceLocation: sourceLocation)
            } catch {}
        }
    }

    private func checkRoundTrip(_ interaction: Interaction, context: String, sourceLocation: SourceLocation) {
        let text = interaction.jsonString()
        do {
            let parsed = try JSONValue(parsing: text)
            let decoded = try Interaction(jsonValue: parsed)
            if decoded != interaction || parsed != interaction.jsonValue {
                Issue.record("check: round trip, \(context)\n\(text)\ndecodes to \(decoded.jsonString())", sourceLocation: sourceLocation)
            }
        } catch {
            Issue.record("check: round trip, \(context)\n\(text)\ndoes not decode: \(error)", sourceLocation: sourceLocation)
        }
    }

    private func checkSafety(_ interaction: Interaction, registry: AdapterRegistry, context: String, sourceLocation: SourceLocation) {
        let destinations = [interaction.destination] + interaction.buttons.map(\.destination)
        for destination in destinations {
            var url: String?
            switch destination {
            case .url(let u, _): url = u
            case .screen(_, _, let u): url = u
            default: break
            }
            guard let url else { continue }
            do {
                _ = try registry.policy.safety.check(url)
            } catch {
                Issue.record(
                    "check: safety, \(context)\nthe destination url '\(url)' \(error.reason) but was not rejected",
                    sourceLocation: sourceLocation
                )
            }
        }
    }

    /// The input as JSON text, read back as a record, must give the same answer as the value.
    private func checkRecordPath(
        _ input: JSONValue,
        expected: Result<Interaction, NormalizationError>,
        registry: AdapterRegistry,
        context: String,
        sourceLocation: SourceLocation
    ) {
        let bytes = Array(input.jsonString().utf8)
        let viaRecord = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(NormalizationError) -> Interaction in try registry.normalize(record: buffer) }
        }
        let same: Bool
        switch (expected, viaRecord) {
        case (.success(let a), .success(let b)): same = a.jsonString() == b.jsonString()
        case (.failure(let a), .failure(let b)): same = a == b
        case (.success, .failure(let error)):
            // A generated value may be deeper or larger than the record limits allow.
            same = error.code == .limitExceeded
        default: same = false
        }
        if !same {
            Issue.record(
                "check: record path, \(context)\nnormalize(json:) gives \(expected)\nnormalize(record:) gives \(viaRecord)",
                sourceLocation: sourceLocation
            )
        }
    }

    private func checkHostileInput(registry: AdapterRegistry, sourceLocation: SourceLocation) async {
        let seeds = vectors.vectors.map(\.input)
        let adapterID = adapter.id
        let instance = registry.adapter(forVendor: adapterID)
        await propertyCheck(count: options.propertyCheckCount, input: Gen.uint64(in: 0...UInt64.max)) { seed in
            var generator = HostileJSON(seed: seed, adapterID: adapterID, seeds: seeds)
            let input = generator.input()
            let context = "input: \(input.jsonString().prefix(600))"
            let result = Result { () throws(NormalizationError) -> Interaction in try registry.normalize(json: input) }
            if case .success(let interaction) = result {
                checkSafety(interaction, registry: registry, context: context, sourceLocation: sourceLocation)
                checkRoundTrip(interaction, context: context, sourceLocation: sourceLocation)
            }
            if case .failure(let error) = result, error.message.isEmpty || !error.path.hasPrefix("$") {
                Issue.record(
                    "check: error form, \(context)\nan error needs a message and a $ path: \(error)",
                    sourceLocation: sourceLocation
                )
            }
            checkDeterministic(input, registry: registry, context: context, sourceLocation: sourceLocation)
            checkRecordPath(input, expected: result, registry: registry, context: context, sourceLocation: sourceLocation)
            if let instance, let event = try? InputEvent(json: input), instance.recognizes(event) {
                do throws(NormalizationError) {
                    _ = try instance.normalize(event)
                } catch  where error.code == .unrecognized {
                    Issue.record(
                        "check: recognizes, \(context)\nrecognizes(_:) is true but normalize(_:) says: \(error)",
                        sourceLocation: sourceLocation
                    )
                } catch {}
            }
        }
    }
}
