/// The enabled adapters, in detection order, with the policy that applies to what they
/// produce.
///
/// A registry is a value: build it once from a ``Configuration`` and the adapter types the
/// host knows, then share it freely (it is immutable and `Sendable`).
///
/// ```swift
/// let registry = try AdapterRegistry(configuration: configuration, adapterTypes: [DashXAdapter.self])
/// let interaction = try registry.normalize(.url("campaigndemoapp://products/42"))
/// ```
///
/// For each input the registry picks one adapter: the envelope's `vendor` if given, else the
/// first enabled adapter (in configuration order) that recognizes the input, else the
/// ``LinkAdapter`` fallback for links, else an `unrecognized` error. The adapter reads the
/// input into an ``AdapterResult``; the ``HandlingPolicy`` builds the ``Interaction`` from it.
public struct AdapterRegistry: Sendable {
    /// The configuration it was built from.
    public let configuration: Configuration
    /// The enabled adapters, in detection order (the `link` fallback is not among them
    /// unless the configuration lists it; it is always consulted last for links).
    public let adapters: [any PayloadAdapter]
    /// The policy applied after the adapter.
    public let policy: HandlingPolicy
    /// Every adapter type the registry knows, enabled or not, by id.
    public let knownAdapterTypes: [any PayloadAdapter.Type]
    /// Every adapter definition the registry knows, enabled or not, in the order given.
    public let knownDefinitions: [AdapterDefinition]
    /// The schemes a destination URL may have, and where each comes from:
    /// `security.allowedSchemes`, the app's own schemes, and the schemes enabled adapters
    /// claim.
    public let allowedSchemes: [AllowedScheme]

    private let detectionOrder: [any PayloadAdapter]
    /// The root filters of the definitions in ``detectionOrder``, asked in one pass; `nil`
    /// when no definition there has one.
    private let prefilter: DetectionPrefilter?
    /// For each position in ``detectionOrder``, the definition there when the prefilter
    /// answers for it.
    private let filteredDefinitions: [DefinitionAdapter?]
    private let byID: [String: any PayloadAdapter]
    private let link: LinkAdapter
    /// What the registry was built from besides its configuration, for ``replica()``.
    private let inputs: Inputs
    /// Whether no enabled adapter reads the text of a notification's alert
    /// (``PayloadAdapter/readsAlertText``; `link` reads none): ``normalizingReader`` then
    /// skips it.
    private let alertTextUnread: Bool

    /// The adapter types, definitions and classifier a registry was given.
    private struct Inputs: Sendable {
        let adapterTypes: [any PayloadAdapter.Type]
        let definitions: [AdapterDefinition]
        let classifier: URLClassifier?
    }

    /// Builds a registry.
    ///
    /// A configuration without an `adapters` list (``Configuration/enablesEveryAdapter``)
    /// enables every type of `adapterTypes`, in that order.
    ///
    /// URLs with the app's own schemes (`app.schemes`) and with the schemes an enabled
    /// adapter claims (``PayloadAdapter/claimedSchemes``, such as TapTalk's `schemes`) are
    /// allowed without being listed in `security.allowedSchemes`: declaring them trusts them.
    /// ``allowedSchemes`` lists the effective set and where each entry comes from.
    ///
    /// - Parameters:
    ///   - configuration: which adapters are on, in what order, and the policy.
    ///   - adapterTypes: the adapter types that may be enabled (``LinkAdapter`` is always
    ///     known).
    ///   - definitions: the adapter definitions that may be enabled, each known by its id
    ///     exactly like an adapter type (docs/declarative-adapters.md). A configuration
    ///     without an `adapters` list enables them after the types, in this order.
    ///   - classifier: a universal-link classifier to use instead of the one the
    ///     configuration's app settings give (for AASA rules).
    /// - Throws: ``ConfigurationError`` for an unknown adapter id, an id registered twice
    ///   (across types and definitions) or listed twice, an
    ///   adapter-specific key the adapter does not accept, or an adapter that refuses its
    ///   options — every such error of the configuration, in file order; located in the
    ///   configuration's source when it has one.
    public init(
        configuration: Configuration,
        adapterTypes: [any PayloadAdapter.Type],
        definitions: [AdapterDefinition] = [],
        classifier: URLClassifier? = nil
    ) throws(ConfigurationError) {
        var errors = ConfigurationErrorList()
        self.init(
            configuration: configuration,
            adapterTypes: adapterTypes,
            definitions: definitions,
            classifier: classifier,
            errors: &errors
        )
        if let error = ConfigurationError(collecting: errors.list) { throw error }
    }

    /// Builds a registry from the adapters that can be built, collecting an error (located
    /// in the configuration's source) for each that cannot.
    package init(
        configuration: Configuration,
        adapterTypes: [any PayloadAdapter.Type],
        definitions: [AdapterDefinition] = [],
        classifier: URLClassifier? = nil,
        errors: inout ConfigurationErrorList
    ) {
        var found = ConfigurationErrorList()
        /// What an id stands for: an adapter type or a definition.
        enum Known {
            case type(any PayloadAdapter.Type)
            case definition(AdapterDefinition)
        }
        var byKnownID: [String: Known] = [LinkAdapter.id: .type(LinkAdapter.self)]
        var known: [any PayloadAdapter.Type] = []
        var knownDefinitions: [AdapterDefinition] = []
        var order: [String] = []
        for type in adapterTypes {
            if type.id == LinkAdapter.id { continue }
            guard byKnownID[type.id] == nil else {
                found.append(ConfigurationError("adapter id '\(type.id)' is registered twice", kind: .duplicateAdapter))
                continue
            }
            byKnownID[type.id] = .type(type)
            known.append(type)
            order.append(type.id)
        }
        for definition in definitions {
            guard byKnownID[definition.id] == nil else {
                found.append(
                    ConfigurationError(
                        "adapter id '\(definition.id)' is registered twice (the definition \(definition.originDescription) and another adapter)",
                        kind: .duplicateAdapter
                    )
                )
                continue
            }
            byKnownID[definition.id] = .definition(definition)
            knownDefinitions.append(definition)
            order.append(definition.id)
        }
        known.append(LinkAdapter.self)
        let entries: [(settings: AdapterSettings, path: ConfigurationError.KeyPath)] =
            configuration.enablesEveryAdapter
            ? order.map { (AdapterSettings(id: $0), [.key("adapters")]) }
            : configuration.adapters.enumerated().map { ($0.element, [.key("adapters"), .index($0.offset)]) }
        var adapters: [any PayloadAdapter] = []
        var byID: [String: any PayloadAdapter] = [:]
        for (settings, path) in entries {
            let entry: Known
            if let definition = settings.definition {
                // The entry brings its own definition (a `definition:` file): it must not
                // take an id the registry already knows, and must be the entry's adapter.
                if let other = byKnownID[settings.id] {
                    let what: String
                    switch other {
                    case .type: what = "an adapter type"
                    case .definition(let known): what = "the definition \(known.originDescription)"
                    }
                    found.append(
                        ConfigurationError(
                            "adapter id '\(settings.id)' is already \(what); the definition \(definition.originDescription) needs an id of its own",
                            kind: .duplicateAdapter,
                            at: path.appending("id")
                        )
                    )
                    continue
                }
                guard definition.id == settings.id else {
                    found.append(
                        ConfigurationError(
                            "the definition \(definition.originDescription) has id '\(definition.id)', not '\(settings.id)': an entry's id must be its definition's",
                            at: path.appending("definition")
                        )
                    )
                    continue
                }
                knownDefinitions.append(definition)
                entry = .definition(definition)
            } else if let file = settings.definitionFile {
                found.append(
                    ConfigurationError(
                        "the definition file '\(file)' was not loaded: read the configuration with TapRouteYAML (YAMLConfiguration.load), or set AdapterSettings.definition",
                        at: path.appending("definition")
                    )
                )
                continue
            } else if let known = byKnownID[settings.id] {
                entry = known
            } else {
                let names = byKnownID.keys.sorted().joined(separator: ", ")
                found.append(
                    ConfigurationError(
                        "unknown adapter id '\(settings.id)'; known: \(names)",
                        kind: .unknownAdapter,
                        at: path.appending("id")
                    )
                )
                continue
            }
            let accepted: [String]
            switch entry {
            case .type(let type): accepted = type.configurationKeys
            case .definition: accepted = []
            }
            if let error = ConfigurationReader(.null, at: path).unknownKeys(
                in: settings.options,
                allowedKeys: ["id", "automaticallyOpenDeeplinks", "channels", "definition"] + accepted,
                adapter: settings.id
            ) {
                found.append(error)
                continue
            }
            let adapterConfiguration = AdapterConfiguration(
                id: settings.id,
                options: settings.options,
                app: configuration.app,
                limits: configuration.limits
            )
            let adapter: any PayloadAdapter
            switch entry {
            case .type(let type):
                do throws(ConfigurationError) {
                    adapter = try type.init(configuration: adapterConfiguration)
                } catch {
                    found.append(error.prefixed(by: path))
                    continue
                }
            case .definition(let definition):
                adapter = DefinitionAdapter(definition: definition)
            }
            adapters.append(adapter)
            byID[settings.id] = adapter
        }
        errors.list += found.list.map { configuration.source?.locate($0) ?? $0 }
        self.configuration = configuration
        self.adapters = adapters
        self.byID = byID
        self.alertTextUnread = !adapters.contains { $0.readsAlertText }
        let detectionOrder = adapters.filter { !($0 is LinkAdapter) }
        self.detectionOrder = detectionOrder
        let definitionsInOrder = detectionOrder.map { $0 as? DefinitionAdapter }
        let prefilter = DetectionPrefilter(
            definitionsInOrder.map { definition in
                definition?.plan.rootRequirement?.requirement
            }
        )
        self.prefilter = prefilter.isEmpty ? nil : prefilter
        self.filteredDefinitions = zip(definitionsInOrder, prefilter.bits).map { $1 == 0 ? nil : $0 }
        self.link = LinkAdapter()
        self.inputs = Inputs(adapterTypes: adapterTypes, definitions: definitions, classifier: classifier)
        self.knownAdapterTypes = known
        self.knownDefinitions = knownDefinitions
        let allowed = AllowedScheme.effective(configuration: configuration, adapters: adapters)
        self.allowedSchemes = allowed
        self.policy = HandlingPolicy(
            configuration: configuration,
            classifier: classifier,
            trustedSchemes: adapters.flatMap(\.claimedSchemes)
        )
    }

    /// The same registry built a second time — from the same configuration, adapter types,
    /// definitions and classifier — for another thread.
    ///
    /// It normalizes every input exactly as this one does, but its adapters, policy and
    /// detection tables are objects of its own: threads that each normalize with their own
    /// registry do not take turns on the reference counts of shared objects (each retain or
    /// release of an object another core just touched moves its cache line between the cores).
    /// `normalize --jobs` gives each thread one. The configuration's values and the compiled
    /// definitions' plans stay shared with this registry.
    package func replica() -> AdapterRegistry {
        // Building is deterministic: the same inputs give the same adapters, and the same
        // errors (already reported for this registry) for any that could not be built.
        var errors = ConfigurationErrorList()
        return AdapterRegistry(
            configuration: configuration,
            adapterTypes: inputs.adapterTypes,
            definitions: inputs.definitions,
            classifier: inputs.classifier,
            errors: &errors
        )
    }

    /// The enabled adapter with this id (`link` is always available).
    public func adapter(forVendor id: String) -> (any PayloadAdapter)? {
        if let adapter = byID[id] { return adapter }
        return id == LinkAdapter.id ? link : nil
    }

    /// The adapter that would normalize `input`.
    /// - Throws: `unknownVendor` when the envelope names a vendor that is not enabled,
    ///   `unrecognized` when no adapter recognizes the input.
    public func adapter(for input: InputEvent) throws(NormalizationError) -> any PayloadAdapter {
        if let vendor = input.vendor {
            guard let adapter = adapter(forVendor: vendor) else { throw unknownVendor(vendor) }
            guard adapter.recognizes(input) else { throw Self.unrecognized(input, vendor: vendor) }
            return adapter
        }
        // By index: each adapter is asked in place, and only the one that answers is copied.
        let order = detectionOrder
        if let prefilter, let root = input.kind.rootObject {
            // The first filtered definition reached asks its own filter (an app's own
            // definition, first in the order, usually answers); from the second on, the
            // filters of all of them are asked at once, when first needed.
            var admitted: UInt64?
            var firstAsked = false
            for i in order.indices {
                let bit = prefilter.bits[i]
                if bit != 0 {
                    // A filtered position holds a definition (`filteredDefinitions`, built with
                    // `prefilter`). It is copied out of its list (a retain and a release) only
                    // to be asked: not for each one whose filter turns the root away.
                    guard firstAsked else {
                        firstAsked = true
                        if let definition = filteredDefinitions[i], definition.recognizes(input, rootAdmitted: false) {
                            return order[i]
                        }
                        continue
                    }
                    let known = admitted ?? prefilter.admitted(root)
                    admitted = known
                    if known & bit != 0, let definition = filteredDefinitions[i], definition.recognizes(input, rootAdmitted: true) {
                        return order[i]
                    }
                } else if order[i].recognizes(input) {
                    return order[i]
                }
            }
        } else {
            for i in order.indices where order[i].recognizes(input) {
                return order[i]
            }
        }
        if link.recognizes(input) { return link }
        throw Self.unrecognized(input, vendor: nil)
    }

    // The errors of `adapter(for:)`, made out of line as an envelope's are (`EnvelopeError`):
    // a message's string interpolation is not inlined among the code every record runs
    // (docs/performance.md, "Forty-sixth round").

    /// The error for an envelope that names `vendor`, which no enabled adapter has as its id.
    @inline(never)
    private func unknownVendor(_ vendor: String) -> NormalizationError {
        let names = (adapters.map(\.id) + [LinkAdapter.id]).joined(separator: ", ")
        return NormalizationError(
            .unknownVendor,
            "no enabled adapter has id '\(vendor)'; enabled: \(names)",
            path: "$.vendor",
            cause: .unknownVendor(vendor)
        )
    }

    /// The error for `input` when the adapter `vendor` names (or, with `nil`, every enabled
    /// adapter) does not recognize it.
    @inline(never)
    private static func unrecognized(_ input: InputEvent, vendor: String?) -> NormalizationError {
        guard let vendor else {
            return NormalizationError(
                .unrecognized,
                "no enabled adapter recognizes this \(input.kind.name)",
                cause: .unrecognized(vendor: nil)
            )
        }
        return NormalizationError(
            .unrecognized,
            "adapter '\(vendor)' does not recognize this \(input.kind.name)",
            path: "$.vendor",
            cause: .unrecognized(vendor: vendor)
        )
    }

    /// Normalizes one input: picks the adapter, reads the input with it, and builds the
    /// interaction with the policy (``HandlingPolicy/resolve(_:vendor:input:)``).
    /// - Throws: ``NormalizationError``.
    public func normalize(_ input: InputEvent) throws(NormalizationError) -> Interaction {
        // The interaction as the policy builds it, not copied out of a `Resolution`.
        var rejected: [RejectedURL] = []
        return try resolve(input) { result, vendor in
            policy.interaction(taking: &result, vendor: vendor, input: input, rejected: &rejected)
        }
    }

    /// ``normalize(_:)``, with each URL the safety rules refused as a structured record
    /// (``Resolution/rejectedURLs``), for hosts that report them (the dispatcher does).
    /// - Throws: ``NormalizationError``.
    public func resolve(_ input: InputEvent) throws(NormalizationError) -> Resolution {
        try resolve(input) { result, vendor in
            policy.resolve(result, vendor: vendor, input: input)
        }
    }

    /// Detects the adapter, reads `input` with it and hands the result, its reader's
    /// warnings first, to `finish` with the adapter's id.
    private func resolve<Resolved>(
        _ input: InputEvent,
        _ finish: (inout AdapterResult, String) -> Resolved
    ) throws(NormalizationError) -> Resolved {
        let adapter = try adapter(for: input)
        var reader = PayloadReader(limits: configuration.limits, for: input)
        var result = try adapter.read(input, using: &reader)
        // Most records have no warnings: `+` on two empty arrays still costs a call through
        // the generic `append(contentsOf:)` (about 140 instructions a record).
        let readerWarnings = reader.takeWarnings()
        if !readerWarnings.isEmpty {
            result.warnings = result.warnings.isEmpty ? readerWarnings : readerWarnings + result.warnings
        }
        return finish(&result, adapter.id)
    }

    /// Normalizes one envelope given as JSON.
    /// - Throws: ``NormalizationError`` (`notAnObject`, `invalidEnvelope`, or the adapter's).
    public func normalize(json: JSONValue) throws(NormalizationError) -> Interaction {
        try normalize(InputEvent(json: json))
    }

    /// Normalizes one record of JSON text given as UTF-8 bytes, enforcing the
    /// configuration's ``Limits`` (``recordReader``): the same Interaction, or the same
    /// error, as ``normalize(json:)`` of ``parse(record:)``'s value. When no enabled adapter
    /// reads the text of a notification's alert, that text is checked but not built.
    /// - Throws: ``NormalizationError`` (`limitExceeded`, `invalidJSON`, or as
    ///   ``normalize(json:)``).
    public func normalize(record: UnsafeBufferPointer<UInt8>) throws(NormalizationError) -> Interaction {
        try normalize(normalizingReader.readEvent(record))
    }

    /// Normalizes one record as ``normalize(record:)`` does — the alert's text checked but
    /// not built when no enabled adapter reads it — for a service that reads records under
    /// limits of its own: `limits` in place of the configuration's, positions in errors
    /// counted from `line` of the input, and an envelope that names no vendor read by the
    /// adapter `vendor` (detection skipped, as `normalize --vendor` does). The same
    /// Interaction, or the same error, as ``normalize(json:)`` of `RecordReader(limits:)`'s
    /// value with that vendor set.
    /// - Throws: ``NormalizationError`` (`limitExceeded` under `limits`, `invalidJSON`, or as
    ///   ``normalize(json:)``).
    public func normalize(
        record: UnsafeBufferPointer<UInt8>,
        limits: Limits,
        line: Int = 1,
        vendor: String? = nil
    ) throws(NormalizationError) -> Interaction {
        var event = try normalizingReader(limits: limits).readEvent(record, line: line)
        if event.vendor == nil, let vendor { event.vendor = vendor }
        return try normalize(event)
    }

    /// The reader of records this registry normalizes: ``recordReader``, but when no enabled
    /// adapter reads the text of a notification's alert (`aps.alert`: none of this package's
    /// does), that text is checked and not built (``JSONParser/alertTextReadForKind``). The
    /// same Interaction or the same error as reading the whole record; the value read is not
    /// the whole record, so it is for ``normalize(_:)`` only.
    package var normalizingReader: RecordReader { normalizingReader(limits: configuration.limits) }

    /// ``normalizingReader`` under `limits` instead of the configuration's.
    package func normalizingReader(limits: Limits) -> RecordReader {
        var reader = RecordReader(limits: limits)
        reader.alertTextReadForKind = alertTextUnread
        return reader
    }

    /// The reader of records under the configuration's ``Limits``: the one JSON Lines, the
    /// records of a document and ``normalize(record:)`` all use.
    public var recordReader: RecordReader { RecordReader(limits: configuration.limits) }

    /// Parses one record of JSON text with ``recordReader``, enforcing the configuration's
    /// ``Limits``; lines and columns are counted from the record's start.
    /// - Throws: ``NormalizationError`` (`limitExceeded` or `invalidJSON`, with its cause).
    public func parse(record: UnsafeBufferPointer<UInt8>) throws(NormalizationError) -> JSONValue {
        try recordReader.read(record)
    }
}
