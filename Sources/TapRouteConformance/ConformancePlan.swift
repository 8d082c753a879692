import TapRoute
import TapRouteYAML

/// Everything a conformance run needs, as plain values, so that a child process can repeat
/// the run: the registry's adapter types by mangled name, the base configuration and the
/// vectors as JSON text, the seed.
struct ConformanceJob: Codable, Sendable {
    var adapterID: String
    /// Filled in by ``CrashIsolation`` when the run goes to a child process.
    var registryTypes: [String]
    /// The registry's adapter definitions, as their documents' JSON text.
    var definitions: [String] = []
    var baseDocument: String
    var vectors: [String]
    var otherVectors: [String]
    var seed: UInt64
    var randomCount: Int
    var checksHostileInput: Bool
    /// The first step a child runs (after a crash, the one after the step that crashed).
    var firstStep: Int
}

/// The inputs a run tries, in a fixed order: the vectors, the payloads that are not the
/// adapter's, the mutations of every vector, the generated inputs. The parent and the child
/// build it from the same job, so a step number means the same input in both.
struct ConformancePlan {
    enum Kind {
        case vector(Int)
        case notMine(owner: String?)
        case hostile
    }

    struct Step {
        var kind: Kind
        /// What it is, for findings: `vector: 01-push.json (…)`.
        var subject: String
        var input: JSONValue
        var config: JSONValue?
        var directory: String?
    }

    let vectors: [ConformanceVector]
    private(set) var steps: [Step] = []

    init(job: ConformanceJob) throws(ConformanceError) {
        func decode(_ texts: [String]) throws(ConformanceError) -> [ConformanceVector] {
            var out: [ConformanceVector] = []
            for text in texts {
                let value: JSONValue
                do {
                    value = try JSONValue(parsing: text)
                } catch {
                    throw ConformanceError(.unreadableTransport(error), location: "<child process>")
                }
                out.append(try ConformanceVector(transport: value))
            }
            return out
        }
        vectors = try decode(job.vectors)
        let others = try decode(job.otherVectors)
        let adapterID = job.adapterID
        let seedText = AdapterConformanceTest.hex(job.seed)

        for (i, vector) in vectors.enumerated() {
            steps.append(
                Step(
                    kind: .vector(i),
                    subject: "vector: \(vector.location) (\(vector.description))",
                    input: vector.input,
                    config: vector.config,
                    directory: vector.directory
                )
            )
        }

        // Not mine: vectors expecting another vendor or `unrecognized`, the built-in
        // samples, the generic payloads.
        var seen: Set<String> = []
        func addNotMine(owner: String?, subject: String, input: JSONValue, config: JSONValue?, directory: String?) {
            guard let event = try? InputEvent(json: input), event.vendor == nil else { return }
            if adapterID == LinkAdapter.id, event.link != nil { return }  // the fallback may claim links
            guard seen.insert(input.jsonString() + "\u{0}" + (config?.jsonString() ?? "")).inserted else { return }
            steps.append(Step(kind: .notMine(owner: owner), subject: subject, input: input, config: config, directory: directory))
        }
        for vector in vectors + others {
            switch vector.expected {
            case .interaction(let expected):
                guard let owner = expected["vendor"]?.stringValue, owner != adapterID else { continue }
                addNotMine(
                    owner: owner,
                    subject: "'\(owner)' payload, vector: \(vector.location)",
                    input: vector.input,
                    config: vector.config,
                    directory: vector.directory
                )
            case .error(let code, _) where code == NormalizationError.Code.unrecognized.rawValue:
                addNotMine(
                    owner: nil,
                    subject: "a payload no adapter recognizes, vector: \(vector.location)",
                    input: vector.input,
                    config: vector.config,
                    directory: vector.directory
                )
            case .error:
                continue
            }
        }
        for sample in OtherPayloads.builtInVendors + OtherPayloads.generic where sample.owner != adapterID {
            let whose = sample.owner.map { "'\($0)' payload" } ?? "generic payload"
            addNotMine(owner: sample.owner, subject: "\(whose): \(sample.description)", input: sample.input, config: nil, directory: nil)
        }

        guard job.checksHostileInput else { return }

        // Every single-point mutation of every vector, under the vector's configuration;
        // a change of a value that several vectors share is tried once per configuration.
        var tried: Set<JSONValue> = Set(vectors.map(\.input))
        var done: [String: Set<String>] = [:]
        for vector in vectors {
            let configKey = vector.config?.jsonString() ?? ""
            for mutation in Mutation.all(of: vector.input, skippingRepeatsIn: &done[configKey, default: []])
            where tried.insert(mutation.input).inserted {
                steps.append(
                    Step(
                        kind: .hostile,
                        subject: "mutation of vector \(vector.location): \(mutation.description)",
                        input: mutation.input,
                        config: vector.config,
                        directory: vector.directory
                    )
                )
            }
        }

        // Inputs generated from the seed, mostly from the vectors' own keys and values.
        var generator = HostileJSON(seed: job.seed, adapterID: adapterID, seeds: vectors.map(\.input))
        for k in 0..<job.randomCount {
            steps.append(
                Step(
                    kind: .hostile,
                    subject: "generated input #\(k) (seed \(seedText))",
                    input: generator.input(),
                    config: nil,
                    directory: nil
                )
            )
        }
    }
}

/// Runs the steps of a plan against registries built from the job, and says what broke.
struct ConformanceExecutor {
    private let adapterID: String
    private let types: [any PayloadAdapter.Type]
    private let definitions: [AdapterDefinition]
    private let base: JSONValue
    private let vectors: [ConformanceVector]
    private var registries: [String: AdapterRegistry] = [:]

    /// Builds the base registry (running the adapters' initializers).
    /// - Throws: ``ConformanceError`` when the base configuration does not give a registry
    ///   with the adapter enabled.
    init(job: ConformanceJob, vectors: [ConformanceVector], types: [any PayloadAdapter.Type]) throws(ConformanceError) {
        self.adapterID = job.adapterID
        self.types = types
        var definitions: [AdapterDefinition] = []
        for text in job.definitions {
            do {
                let document = try JSONValue(parsing: text)
                definitions.append(try AdapterDefinition(json: document))
            } catch let error as ConfigurationError {
                throw ConformanceError(.invalidDefinition(error), location: "<adapter definition>")
            } catch {
                throw ConformanceError(
                    .childProcess(message: "an adapter definition arrived unreadable: \(error)"),
                    location: "<adapter definition>"
                )
            }
        }
        self.definitions = definitions
        self.vectors = vectors
        do {
            base = try JSONValue(parsing: job.baseDocument)
        } catch {
            throw ConformanceError(.invalidBaseDocument(error), location: "<base configuration>")
        }
        let registry = try registry(config: nil, directory: nil, location: "<base configuration>")
        guard registry.adapter(forVendor: adapterID) != nil else {
            throw ConformanceError(.adapterNotEnabled(adapterID), location: "<base configuration>")
        }
    }

    mutating func registry(config: JSONValue?, directory: String?, location: String) throws(ConformanceError) -> AdapterRegistry {
        let key = (config?.jsonString() ?? "") + "\u{0}" + (directory ?? "")
        if let registry = registries[key] { return registry }
        var merged = base.objectValue ?? [:]
        if let config {
            let overlay: JSONValue
            switch config {
            case .string(let yaml):
                do {
                    overlay = try YAMLConfiguration.document(yaml: yaml, file: location).0
                } catch {
                    throw ConformanceError(.invalidVectorConfigYAML(error), location: location)
                }
            default:
                overlay = config
            }
            for (key, value) in overlay.objectValue ?? [:] { merged[key] = value }
        }
        let registry: AdapterRegistry
        do throws(ConfigurationError) {
            var configuration = try Configuration(json: .object(merged))
            if !configuration.app.aasa.isEmpty {
                // AASA files named in a vector's configuration are read relative to the vector.
                configuration = try YAMLConfiguration.loadingAASAFiles(configuration, relativeTo: directory ?? ".")
            }
            registry = try AdapterRegistry(configuration: configuration, adapterTypes: types, definitions: definitions)
        } catch {
            throw ConformanceError(.invalidVectorConfiguration(error), location: location)
        }
        registries[key] = registry
        return registry
    }

    /// Runs one step. `willNormalize` is told which adapter is about to run, so that a
    /// crash can be blamed on it.
    mutating func run(_ step: ConformancePlan.Step, willNormalize: (String) -> Void) throws(ConformanceError) -> [ConformanceFinding] {
        switch step.kind {
        case .vector(let index):
            let vector = vectors[index]
            let registry = try registry(config: vector.config, directory: vector.directory, location: vector.location)
            return checkVector(vector, step: step, registry: registry, willNormalize: willNormalize)
        case .notMine(let owner):
            // A configuration this run cannot build (another vendor's adapter it does not
            // know) or one without the adapter cannot make it claim anything.
            guard let registry = try? registry(config: step.config, directory: step.directory, location: step.subject),
                let instance = registry.adapter(forVendor: adapterID),
                let event = try? InputEvent(json: step.input)
            else { return [] }
            willNormalize(adapterID)
            guard instance.recognizes(event) else { return [] }
            let why =
                owner.map { "the registry asks adapters in configuration order, so '\(adapterID)' would take '\($0)' payloads" }
                ?? "no adapter owns this payload; claiming it takes it from the link fallback or the app"
            return [
                ConformanceFinding(
                    check: .notMine,
                    subject: step.subject,
                    input: step.input,
                    detail: "recognizes(_:) is true for a payload that is not '\(adapterID)''s: \(why)"
                )
            ]
        case .hostile:
            let registry = try registry(config: step.config, directory: step.directory, location: step.subject)
            return checkHostile(step, registry: registry, willNormalize: willNormalize)
        }
    }

    // MARK: - Checks

    private func checkVector(
        _ vector: ConformanceVector,
        step: ConformancePlan.Step,
        registry: AdapterRegistry,
        willNormalize: (String) -> Void
    ) -> [ConformanceFinding] {
        var findings: [ConformanceFinding] = []
        func record(_ check: ConformanceFinding.Check, _ detail: String) {
            findings.append(ConformanceFinding(check: check, subject: step.subject, detail: detail))
        }
        let result = normalize(vector.input, registry: registry, willNormalize: willNormalize)
        var interaction: Interaction?
        switch (vector.expected, result) {
        case (.interaction(let expected), .success(let produced)):
            interaction = produced
            let actual = produced.jsonValue
            if actual != expected {
                record(.vector, "expected: \(expected.jsonString())\n  actual: \(actual.jsonString())")
            }
        case (.interaction(let expected), .failure(let error)):
            record(.vector, "expected: \(expected.jsonString())\n  actual error: \(error)")
        case (.error(let code, let path), .failure(let error)):
            if error.code.rawValue != code || (path != nil && path != error.path) {
                record(.vector, "expected error \(code)\(path.map { " at \($0)" } ?? "")\n  actual error: \(error)")
            }
            if error.message.isEmpty { record(.vector, "the error has no message") }
        case (.error(let code, _), .success(let produced)):
            interaction = produced
            record(.vector, "expected error \(code)\n  actual: \(produced.jsonString())")
        }
        findings += checkDeterministic(vector.input, first: result, registry: registry, subject: step.subject, input: nil)
        // The vector as a record too (as `normalize` reads it, without the alert's text
        // when no enabled adapter reads it).
        findings += checkRecordPath(vector.input, expected: result, registry: registry, subject: step.subject)
        if let interaction {
            findings += checkRoundTrip(interaction, subject: step.subject, input: nil)
        }
        if let event = try? InputEvent(json: vector.input), let instance = registry.adapter(forVendor: adapterID) {
            if case .interaction(let expected) = vector.expected, expected["vendor"]?.stringValue == adapterID,
                !instance.recognizes(event)
            {
                record(.recognizes, "the vector expects vendor '\(adapterID)' but recognizes(_:) is false")
            }
            findings += checkRecognizedIsNormalized(event, instance: instance, subject: step.subject, input: nil)
        }
        return findings
    }

    private func checkHostile(_ step: ConformancePlan.Step, registry: AdapterRegistry, willNormalize: (String) -> Void)
        -> [ConformanceFinding]
    {
        let input = step.input
        var findings: [ConformanceFinding] = []
        let result = normalize(input, registry: registry, willNormalize: willNormalize)
        switch result {
        case .success(let interaction):
            findings += checkSafety(interaction, registry: registry, subject: step.subject, input: input)
            findings += checkRoundTrip(interaction, subject: step.subject, input: input)
        case .failure(let error):
            if error.message.isEmpty || !error.path.hasPrefix("$") {
                findings.append(
                    ConformanceFinding(
                        check: .errorForm,
                        subject: step.subject,
                        input: input,
                        detail: "an error needs a message and a $ path: \(error)"
                    )
                )
            }
        }
        findings += checkDeterministic(input, first: result, registry: registry, subject: step.subject, input: input)
        findings += checkRecordPath(input, expected: result, registry: registry, subject: step.subject)
        if let instance = registry.adapter(forVendor: adapterID), let event = try? InputEvent(json: input) {
            willNormalize(adapterID)
            findings += checkRecognizedIsNormalized(event, instance: instance, subject: step.subject, input: input)
        }
        return findings
    }

    private func normalize(_ input: JSONValue, registry: AdapterRegistry, willNormalize: (String) -> Void)
        -> Result<Interaction, NormalizationError>
    {
        if let event = try? InputEvent(json: input), let chosen = try? registry.adapter(for: event) {
            willNormalize(chosen.id)
        }
        return Result { () throws(NormalizationError) -> Interaction in try registry.normalize(json: input) }
    }

    private func checkDeterministic(
        _ input: JSONValue,
        first: Result<Interaction, NormalizationError>,
        registry: AdapterRegistry,
        subject: String,
        input shown: JSONValue?
    ) -> [ConformanceFinding] {
        let firstText = first.map { $0.jsonString() }
        let second = Result { () throws(NormalizationError) -> String in try registry.normalize(json: input).jsonString() }
        guard firstText != second else { return [] }
        return [ConformanceFinding(check: .deterministic, subject: subject, input: shown, detail: "first: \(firstText)\nsecond: \(second)")]
    }

    private func checkRecognizedIsNormalized(_ event: InputEvent, instance: any PayloadAdapter, subject: String, input: JSONValue?)
        -> [ConformanceFinding]
    {
        guard instance.recognizes(event) else { return [] }
        do throws(NormalizationError) {
            _ = try instance.read(event)
        } catch  where error.code == .unrecognized {
            return [
                ConformanceFinding(
                    check: .recognizes,
                    subject: subject,
                    input: input,
                    detail: "recognizes(_:) is true but read(_:using:) says: \(error)"
                )
            ]
        } catch {}
        return []
    }

    private func checkRoundTrip(_ interaction: Interaction, subject: String, input: JSONValue?) -> [ConformanceFinding] {
        let text = interaction.jsonString()
        let detail: String
        do {
            let parsed = try JSONValue(parsing: text)
            let decoded = try Interaction(jsonValue: parsed)
            if decoded == interaction && parsed == interaction.jsonValue { return [] }
            detail = "\(text)\ndecodes to \(decoded.jsonString())"
        } catch {
            detail = "\(text)\ndoes not decode: \(error)"
        }
        return [ConformanceFinding(check: .roundTrip, subject: subject, input: input, detail: detail)]
    }

    private func checkSafety(_ interaction: Interaction, registry: AdapterRegistry, subject: String, input: JSONValue)
        -> [ConformanceFinding]
    {
        var findings: [ConformanceFinding] = []
        for destination in [interaction.destination] + interaction.buttons.map(\.destination) {
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
                findings.append(
                    ConformanceFinding(
                        check: .safety,
                        subject: subject,
                        input: input,
                        detail: "the destination url '\(url)' \(error.reason) but was not rejected"
                    )
                )
            }
        }
        return findings
    }

    /// The input as JSON text, read back as a record, must give the same answer as the value.
    private func checkRecordPath(
        _ input: JSONValue,
        expected: Result<Interaction, NormalizationError>,
        registry: AdapterRegistry,
        subject: String
    ) -> [ConformanceFinding] {
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
            if case .limitExceeded? = error.cause { same = true } else { same = false }
        default: same = false
        }
        if same { return [] }
        return [
            ConformanceFinding(
                check: .recordPath,
                subject: subject,
                input: input,
                detail: "normalize(json:) gives \(expected)\nnormalize(record:) gives \(viaRecord)"
            )
        ]
    }
}
