import Foundation
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
/// The contract, each part a separate check whose failures name the check and the input:
/// 1. **vector**: every vector's input, run through a registry built from the base
///    configuration plus the vector's `config`, gives exactly the expected Interaction JSON
///    (or an error with the expected code and path).
/// 2. **deterministic**: normalizing the same input twice gives the same JSON.
/// 3. **recognizes**: for every vector whose expected vendor is the adapter, `recognizes` is
///    true; whenever `recognizes` is true, normalizing with the adapter does not answer
///    `unrecognized`.
/// 4. **not mine**: `recognizes` is false for other vendors' payloads — the vectors in
///    ``Options/otherVectors`` and the adapter's own vectors that expect another vendor or
///    `unrecognized`, samples of every built-in vendor's payloads
///    (``OtherPayloads/builtInVendors``) — and for generic payloads
///    (``OtherPayloads/generic``). The `link` fallback, consulted only after every vendor
///    said no, may claim links.
/// 5. **round trip**: every Interaction's JSON text parses back to an equal Interaction.
/// 6. **Hostile input**, derived from the adapter's own vectors: every single-point
///    mutation of every vector's input (``Mutation/all(of:)``: each member removed, each
///    value emptied, nulled, retyped or replaced by a hostile string, each key respelled),
///    then ``Options/propertyCheckCount`` inputs generated from the seed (``HostileJSON``,
///    which writes mostly the vectors' own keys and values). Each gives an Interaction or a
///    typed `NormalizationError` with a message and a `$` path (**error form**);
///    no Interaction carries a URL destination that fails the safety rules (**safety**);
///    each answer is the same twice and round-trips through JSON; the input written as JSON
///    text and read back as a record (`normalize(record:)`, what the CLI does) gives the
///    same answer as the value (**record path**).
/// 7. **encode vector** and **encode round trip**, for an adapter that can encode
///    (`MessageEncoding`, or a definition with an `encode` section): every encode vector
///    (``ConformanceVectors/encodeVectors``) gives its payload or its error, and for each
///    vector's message and ``Options/encodeRoundTripCount`` messages generated from the seed
///    within the adapter's `EncodingCapabilities` (``MessageGenerator``), the payload
///    normalizes back to the message (``EncodeRoundTrip``).
/// 8. **crash**: the adapter never ends the process. The adapter runs in a child process
///    (a Swift Testing exit test); when the child dies, the kit names the input it died on,
///    the seed and the signal, and carries on with the next input in a new child (up to
///    ``Options/maximumCrashes`` crashes).
///
/// Generated inputs come from a fixed seed, ``defaultSeed``, so every run tries the same
/// inputs; set the environment variable `TAPROUTE_CONFORMANCE_SEED`
/// (``seedEnvironmentVariable``) to a number (decimal or `0x…`) or to `random` to try
/// others. ``run(sourceLocation:)`` prints the seed it used.
///
/// Fixtures an adopter must ship: at least one vector file.
public struct AdapterConformanceTest: Sendable {
    /// Options for a run.
    public struct Options: Sendable {
        /// The configuration vectors start from. Default: only the adapter enabled.
        public var baseConfiguration: BaseConfiguration
        /// Every adapter type the registry knows (the adapter under test is added when
        /// missing). Give the full list when vectors rely on detection order.
        public var registryAdapters: [any PayloadAdapter.Type]
        /// How many inputs the hostile-input check generates from the seed, after the
        /// mutations of every vector. Default 1000.
        public var propertyCheckCount: Int
        /// Whether to run the hostile-input check. Default true.
        public var checksHostileInput: Bool
        /// Other adapters' vectors: the adapter must not recognize the input of any of them
        /// that expects another vendor or `unrecognized` (those that force a `vendor` are
        /// skipped). Default: none besides the built-in samples.
        public var otherVectors: ConformanceVectors
        /// The seed of the generated inputs; `nil` (the default) takes
        /// `TAPROUTE_CONFORMANCE_SEED` or else ``AdapterConformanceTest/defaultSeed``.
        public var seed: UInt64?
        /// How many crashes to report before giving up on the remaining inputs. Default 3.
        public var maximumCrashes: Int
        /// Every adapter definition the registry knows besides the one under test, if any.
        public var registryDefinitions: [AdapterDefinition]
        /// How many generated messages the encode round trip tries, for an adapter that can
        /// encode. Default 1000.
        public var encodeRoundTripCount: Int

        /// Creates options.
        public init(
            baseConfiguration: BaseConfiguration = .adapterOnly,
            registryAdapters: [any PayloadAdapter.Type] = [],
            propertyCheckCount: Int = 1000,
            checksHostileInput: Bool = true,
            otherVectors: ConformanceVectors = ConformanceVectors([]),
            seed: UInt64? = nil,
            maximumCrashes: Int = 3,
            registryDefinitions: [AdapterDefinition] = [],
            encodeRoundTripCount: Int = 1000
        ) {
            self.registryDefinitions = registryDefinitions
            self.encodeRoundTripCount = encodeRoundTripCount
            self.baseConfiguration = baseConfiguration
            self.registryAdapters = registryAdapters
            self.propertyCheckCount = propertyCheckCount
            self.checksHostileInput = checksHostileInput
            self.otherVectors = otherVectors
            self.seed = seed
            self.maximumCrashes = maximumCrashes
        }
    }

    /// The adapter type under test (`DefinitionAdapter` for a definition).
    public let adapter: any PayloadAdapter.Type
    /// The adapter definition under test, when the test was made from one.
    public let definition: AdapterDefinition?
    /// The id of the adapter under test.
    public var adapterID: String { definition?.id ?? adapter.id }
    /// The vectors it must pass.
    public let vectors: ConformanceVectors
    /// The run's options.
    public let options: Options

    /// The environment variable that chooses the seed of the generated inputs:
    /// `TAPROUTE_CONFORMANCE_SEED`, a decimal or `0x` hexadecimal 64-bit number, or `random`.
    public static let seedEnvironmentVariable = "TAPROUTE_CONFORMANCE_SEED"

    /// The seed used when neither the options nor the environment choose one.
    public static let defaultSeed: UInt64 = 0x5441_5052_4F55_5445

    /// Creates a conformance test.
    /// - Parameters:
    ///   - adapter: the adapter type under test.
    ///   - vectors: its vectors (``ConformanceVectors/directory(_:)`` and friends).
    ///   - options: base configuration, registry, seed and hostile-input settings.
    public init(adapter: any PayloadAdapter.Type, vectors: ConformanceVectors, options: Options = Options()) {
        self.adapter = adapter
        self.definition = nil
        self.vectors = vectors
        self.options = options
    }

    /// Creates a conformance test of a definition-based adapter: the registry knows the
    /// definition next to ``Options/registryAdapters`` and ``Options/registryDefinitions``,
    /// and every check runs as for a Swift adapter.
    /// - Parameters:
    ///   - definition: the definition under test.
    ///   - vectors: its vectors.
    ///   - options: base configuration, registry, seed and hostile-input settings.
    public init(definition: AdapterDefinition, vectors: ConformanceVectors, options: Options = Options()) {
        self.adapter = DefinitionAdapter.self
        self.definition = definition
        self.vectors = vectors
        self.options = options
    }

    /// Runs every check, prints the seed, and records a test issue for each finding.
    /// - Throws: ``ConformanceError`` when the base configuration, a vector's configuration
    ///   or `TAPROUTE_CONFORMANCE_SEED` cannot be used (a broken fixture, not a conformance
    ///   failure).
    public func run(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let seed = try resolvedSeed()
        let clock = ContinuousClock()
        let start = clock.now
        let report = try await report(seed: seed, sourceLocation: sourceLocation)
        let children = report.childProcesses == 1 ? "1 child process" : "\(report.childProcesses) child processes"
        print(
            "TapRouteConformance: adapter '\(adapterID)': \(report.triedInputs) inputs in \(children),"
                + " \(start.duration(to: clock.now).formatted(.units(allowed: [.seconds], fractionalPart: .show(length: 2))));"
                + " seed \(Self.hex(seed)) (\(Self.seedEnvironmentVariable)=\(Self.hex(seed)) repeats this run)"
        )
        for finding in report.findings {
            Issue.record(Comment(rawValue: finding.description), sourceLocation: sourceLocation)
        }
    }

    /// Runs every check and returns what it found, recording no test issue and printing
    /// nothing (for tests of adapters that are meant to fail, and of the kit itself).
    /// - Throws: ``ConformanceError`` as ``run(sourceLocation:)`` does.
    public func report(sourceLocation: SourceLocation = #_sourceLocation) async throws(ConformanceError) -> ConformanceReport {
        try await report(seed: resolvedSeed(), sourceLocation: sourceLocation)
    }

    /// The seed this run uses: the options', else the environment's, else the default.
    /// - Throws: ``ConformanceError`` for a `TAPROUTE_CONFORMANCE_SEED` that is not a seed.
    public func resolvedSeed() throws(ConformanceError) -> UInt64 {
        if let seed = options.seed { return seed }
        return try Self.seed(environmentValue: ProcessInfo.processInfo.environment[Self.seedEnvironmentVariable]) ?? Self.defaultSeed
    }

    /// Reads a `TAPROUTE_CONFORMANCE_SEED` value: `nil` or empty for none, a decimal or
    /// `0x` hexadecimal 64-bit number, or `random` for a new random seed.
    /// - Throws: ``ConformanceError`` naming the variable for anything else.
    public static func seed(environmentValue value: String?) throws(ConformanceError) -> UInt64? {
        guard let text = value?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        if text.lowercased() == "random" { return UInt64.random(in: 0...UInt64.max) }
        let digits = text.replacingOccurrences(of: "_", with: "")
        let parsed =
            digits.lowercased().hasPrefix("0x") ? UInt64(digits.dropFirst(2), radix: 16) : UInt64(digits, radix: 10)
        guard let parsed else {
            throw ConformanceError(.invalidSeed(text), location: seedEnvironmentVariable)
        }
        return parsed
    }

    static func hex(_ seed: UInt64) -> String { "0x" + String(seed, radix: 16, uppercase: true) }

    private func report(seed: UInt64, sourceLocation: SourceLocation) async throws(ConformanceError) -> ConformanceReport {
        var types = options.registryAdapters
        var definitions = options.registryDefinitions
        if let definition {
            types.removeAll { $0.id == definition.id }
            definitions.removeAll { $0.id == definition.id }
            definitions.append(definition)
        } else if !types.contains(where: { $0.id == adapter.id }) {
            types.append(adapter)
        }
        let base = try options.baseConfiguration.document(adapterID: adapterID)
        var job = ConformanceJob(
            adapterID: adapterID,
            registryTypes: [],
            baseDocument: base.jsonString(),
            vectors: vectors.vectors.map { $0.transport.jsonString() },
            otherVectors: options.otherVectors.vectors.map { $0.transport.jsonString() },
            seed: seed,
            randomCount: max(0, options.propertyCheckCount),
            checksHostileInput: options.checksHostileInput,
            firstStep: 0
        )
        job.definitions = definitions.map { $0.document.jsonString() }
        var report = try await CrashIsolation.run(
            job: job,
            adapter: adapter,
            types: types,
            maximumCrashes: max(1, options.maximumCrashes),
            sourceLocation: sourceLocation
        )
        report.findings += try encodingFindings(job: job, types: types, seed: seed)
        return report
    }

    /// What an encode vector breaks: its expected payload or error, then the round trip of
    /// its message.
    static func problems(of vector: EncodeVector, vendor: String, registry: AdapterRegistry) -> [(ConformanceFinding.Check, String)] {
        let message: OutgoingMessage
        do {
            message = try OutgoingMessage(jsonValue: vector.message)
        } catch {
            return [(.encodeVector, "the message does not read: \(error)")]
        }
        let encoded = Result { () throws(EncodingError) in try registry.encode(message, vendor: vendor, options: vector.options) }
        switch (vector.expected, encoded) {
        case (.error(let code, _), .success(let event)):
            return [(.encodeVector, "expected error \(code), got the payload \(event.jsonValue.jsonString())")]
        case (.error(let code, let field), .failure(let error)):
            guard error.code.rawValue != code || (field != nil && field != error.field) else { return [] }
            return [
                (
                    .encodeVector,
                    "expected error \(code) at \(field ?? "any field"), got \(error.code.rawValue) at \(error.field): \(error.message)"
                )
            ]
        case (.payload, .failure(let error)):
            return [(.encodeVector, "encoding failed: \(error)")]
        case (.payload(let payload), .success(let event)):
            var problems: [(ConformanceFinding.Check, String)] = []
            if event.jsonValue != payload {
                problems.append((.encodeVector, "expected \(payload.jsonString())\n     got \(event.jsonValue.jsonString())"))
            }
            for problem in EncodeRoundTrip.problems(message, vendor: vendor, registry: registry, options: vector.options) {
                problems.append((.encodeRoundTrip, problem))
            }
            return problems
        }
    }

    /// The encode checks, in this process (an encoder only builds JSON).
    private func encodingFindings(job: ConformanceJob, types: [any PayloadAdapter.Type], seed: UInt64) throws(ConformanceError)
        -> [ConformanceFinding]
    {
        var executor = try ConformanceExecutor(job: job, vectors: [], types: types)
        let base = try executor.registry(config: nil, directory: nil, location: "<base configuration>")
        guard let capabilities = base.encodingCapabilities(vendor: adapterID) else {
            if !vectors.encodeVectors.isEmpty {
                return [
                    ConformanceFinding(
                        check: .encodeVector,
                        subject: "adapter '\(adapterID)'",
                        detail:
                            "\(vectors.encodeVectors.count) encode vectors, but the adapter cannot encode (no MessageEncoding, or no encode section)"
                    )
                ]
            }
            return []
        }
        var findings: [ConformanceFinding] = []
        for vector in vectors.encodeVectors {
            let registry = try executor.registry(config: vector.config, directory: nil, location: vector.location)
            for (check, detail) in Self.problems(of: vector, vendor: adapterID, registry: registry) {
                findings.append(
                    ConformanceFinding(
                        check: check,
                        subject: "encode vector: \(vector.location) (\(vector.description))",
                        input: vector.message,
                        detail: detail
                    )
                )
            }
        }
        var rng = SeededGenerator(seed: seed)
        for i in 0..<max(0, options.encodeRoundTripCount) {
            let message = MessageGenerator.message(within: capabilities, appSchemes: base.configuration.app.schemes, using: &rng)
            let problems = EncodeRoundTrip.problems(message, vendor: adapterID, registry: base)
            if let first = problems.first {
                findings.append(
                    ConformanceFinding(
                        check: .encodeRoundTrip,
                        subject: "generated message #\(i) (seed \(Self.hex(seed)))",
                        input: message.jsonValue,
                        detail: first
                    )
                )
                // One finding per broken rule is enough to fix it; stop at a few.
                if findings.count(where: { $0.check == .encodeRoundTrip }) >= 5 { break }
            }
        }
        return findings
    }
}
