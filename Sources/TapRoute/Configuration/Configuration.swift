/// The registry's configuration: which adapters are on and in what order, the app's own
/// schemes and domains, the automatic-open policy, routes, URL safety rules and input limits.
///
/// It is a plain value. `TapRouteYAML` reads it from `config.yaml`; ``init(json:source:)``
/// reads the same document as JSON. Every key is documented in `docs/configuration.md`.
public struct Configuration: Sendable, Equatable {
    /// The format version; only `1` exists.
    public var version: Int
    /// The app's own URL schemes and domains.
    public var app: AppSettings
    /// Policy that applies to every adapter unless the adapter says otherwise.
    public var defaults: PolicySettings
    /// The enabled adapters, in detection order.
    public var adapters: [AdapterSettings]
    /// Whether the configuration leaves the choice of adapters to the registry: true when a
    /// document has no `adapters` list. The registry then enables every adapter type it is
    /// given, in the given order, with default settings; ``adapters`` is empty. A document
    /// with `adapters: []` enables none.
    public var enablesEveryAdapter: Bool
    /// Routes from URLs to screens; the first match wins.
    public var routes: [Route]
    /// URL safety rules.
    public var security: SecuritySettings
    /// Input limits.
    public var limits: Limits
    /// Where the configuration was read from, for locating errors found later.
    public var source: ConfigurationSource?

    /// Creates a configuration.
    public init(
        version: Int = 1,
        app: AppSettings = AppSettings(),
        defaults: PolicySettings = PolicySettings(),
        adapters: [AdapterSettings] = [],
        enablesEveryAdapter: Bool = false,
        routes: [Route] = [],
        security: SecuritySettings = SecuritySettings(),
        limits: Limits = Limits(),
        source: ConfigurationSource? = nil
    ) {
        self.version = version
        self.app = app
        self.defaults = defaults
        self.adapters = adapters
        self.enablesEveryAdapter = enablesEveryAdapter
        self.routes = routes
        self.security = security
        self.limits = limits
        self.source = source
    }

    /// Configurations are equal when their settings are; where they were read from does
    /// not matter.
    public static func == (lhs: Configuration, rhs: Configuration) -> Bool {
        lhs.version == rhs.version && lhs.app == rhs.app && lhs.defaults == rhs.defaults
            && lhs.adapters == rhs.adapters && lhs.enablesEveryAdapter == rhs.enablesEveryAdapter && lhs.routes == rhs.routes
            && lhs.security == rhs.security
            && lhs.limits == rhs.limits
    }

    /// The settings of the adapter `id`, when it is enabled.
    public func adapter(_ id: String) -> AdapterSettings? {
        adapters.first { $0.id == id }
    }
}

/// The app's own URL schemes and universal-link domains (`app` in `config.yaml`).
public struct AppSettings: Sendable, Hashable {
    /// Custom URL schemes the app registers (`CFBundleURLSchemes`), lower-cased.
    public var schemes: [String]
    /// Domains the app has associated (`applinks:`), lower-cased.
    public var domains: [String]
    /// The app's identifier, `TEAMID.bundle.id`, used to read AASA files.
    public var appID: String?
    /// AASA file paths by domain, as written in the configuration.
    public var aasa: [String: String]
    /// The AASA files of ``aasa``, read and parsed, by lower-cased domain (`TapRouteYAML`
    /// fills this in when it loads a configuration file). The default classifier applies
    /// their rules.
    public var aasaDocuments: [String: AASADocument]

    /// Creates app settings.
    public init(
        schemes: [String] = [],
        domains: [String] = [],
        appID: String? = nil,
        aasa: [String: String] = [:],
        aasaDocuments: [String: AASADocument] = [:]
    ) {
        self.schemes = schemes.map { $0.lowercased() }
        self.domains = domains.map { $0.lowercased() }
        self.appID = appID
        self.aasa = aasa
        self.aasaDocuments = aasaDocuments
    }
}

/// Automatic-open policy at one level (`defaults`, an adapter, or one of its channels).
public struct PolicySettings: Sendable, Hashable {
    /// Whether TapRoute opens URL destinations itself unless the app's handler claims them;
    /// `nil` defers to the next level.
    public var automaticallyOpenDeeplinks: Bool?

    /// Creates policy settings.
    public init(automaticallyOpenDeeplinks: Bool? = nil) {
        self.automaticallyOpenDeeplinks = automaticallyOpenDeeplinks
    }
}

/// One enabled adapter (an entry of `adapters` in `config.yaml`).
public struct AdapterSettings: Sendable, Hashable {
    /// The adapter id.
    public var id: String
    /// The adapter-wide automatic-open setting.
    public var policy: PolicySettings
    /// Per-channel automatic-open settings.
    public var channels: [Channel: PolicySettings]
    /// The adapter's own keys (everything but `id`, `automaticallyOpenDeeplinks`,
    /// `channels` and `definition`), checked by the adapter.
    public var options: JSONObject
    /// The definition file the entry names (`definition:`), as written: a path relative to
    /// the configuration file. `TapRouteYAML` reads it into ``definition``.
    public var definitionFile: String?
    /// The adapter this entry enables, compiled from ``definitionFile`` (or set by the app):
    /// the registry runs it under the entry's id instead of looking the id up among the
    /// adapters it knows. Its id must be the entry's.
    public var definition: AdapterDefinition?

    /// Creates adapter settings.
    public init(
        id: String,
        policy: PolicySettings = PolicySettings(),
        channels: [Channel: PolicySettings] = [:],
        options: JSONObject = [:],
        definitionFile: String? = nil,
        definition: AdapterDefinition? = nil
    ) {
        self.id = id
        self.policy = policy
        self.channels = channels
        self.options = options
        self.definitionFile = definitionFile
        self.definition = definition
    }
}

/// URL safety rules (`security` in `config.yaml`).
public struct SecuritySettings: Sendable, Hashable {
    /// Schemes a destination URL may have, lower-cased. `javascript`, `data`, `file`,
    /// `vbscript`, `blob` and `filesystem` are never allowed, whatever this says.
    public var allowedSchemes: [String]
    /// Hosts a destination URL may have; empty means any host. An entry `*.example.com`
    /// allows every subdomain of `example.com`.
    public var allowedHosts: [String]
    /// The longest URL accepted, in bytes of UTF-8.
    public var maxURLLength: Int

    /// The schemes that are never allowed.
    package static let forbiddenSchemes: Set<String> = ["javascript", "data", "file", "vbscript", "blob", "filesystem"]

    /// Creates security settings. The defaults allow http, https, tel and mailto, any host,
    /// and URLs up to 4096 bytes.
    public init(allowedSchemes: [String] = ["https", "http", "tel", "mailto"], allowedHosts: [String] = [], maxURLLength: Int = 4096) {
        self.allowedSchemes = allowedSchemes.map { $0.lowercased() }
        self.allowedHosts = allowedHosts.map { $0.lowercased() }
        self.maxURLLength = maxURLLength
    }
}

/// Limits on input records (`limits` in `config.yaml`); exceeding one is a
/// `limitExceeded` error record, never a crash or a silent truncation.
public struct Limits: Sendable, Hashable {
    /// The largest input record, in bytes. Default 1 MiB.
    public var maxRecordBytes: Int
    /// The deepest nesting of arrays and objects in a record. Default 128; at least 1 and at
    /// most ``depthCeiling`` (512): a value outside that range is read as the nearest end.
    public var maxDepth: Int {
        get { depth }
        set { depth = Swift.min(Swift.max(newValue, 1), Self.depthCeiling) }
    }
    private var depth: Int

    /// The highest ``maxDepth``: 512, as Foundation's JSON reader allows. Reading, comparing
    /// and writing JSON recurse once per level, so the ceiling keeps the deepest record the
    /// limits accept inside the stack of the threads that read it (the `normalize` CLI's, in
    /// debug and sanitizer builds too); a deeper limit let a hostile record exhaust it.
    public static let depthCeiling = 512

    /// Creates limits.
    public init(maxRecordBytes: Int = 1 << 20, maxDepth: Int = 128) {
        self.maxRecordBytes = maxRecordBytes
        self.depth = Swift.min(Swift.max(maxDepth, 1), Self.depthCeiling)
    }

    /// The depth at which an input event's vendor object sits: an envelope's `userInfo`,
    /// `message` or `event` is an object inside the envelope, depth 2. A record that is a
    /// bare `userInfo` counts the same, so a payload reads the same in either form.
    public static let payloadDepth = 2

    /// Parses JSON that a record carries inside a string, under ``maxDepth`` counted from
    /// the record's root.
    ///
    /// The string is a value of an object or array at `depth` (the record's top level is
    /// 1; see ``payloadDepth``), so the JSON it holds may nest at most `maxDepth − depth`
    /// levels: the record with the string replaced by the value it holds nests at most
    /// ``maxDepth``, as if the value had been written in place. An adapter that places the
    /// value no deeper in its Interaction than it was held keeps the Interaction within
    /// ``maxDepth`` too.
    /// - Parameters:
    ///   - text: the string's contents.
    ///   - depth: the depth of the object or array that holds the string.
    /// - Throws: ``JSONParseError``, of kind ``JSONParseError/Kind/tooDeep`` when the value
    ///   nests deeper than that.
    public func parseEmbeddedJSON(_ text: String, heldAt depth: Int) throws(JSONParseError) -> JSONValue {
        try JSONParser(maximumDepth: Swift.max(0, maxDepth - depth)).parse(text)
    }

    /// ``parseEmbeddedJSON(_:heldAt:)``, reading the root object's string members named in
    /// `kindOnly` as empty strings (``JSONParser/rootStringsReadForKind``): the same
    /// outcome but for their text.
    package func parseEmbeddedJSON(
        _ text: String,
        heldAt depth: Int,
        kindOnly: SmallStringSet?
    ) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(maximumDepth: Swift.max(0, maxDepth - depth))
        parser.rootStringsReadForKind = kindOnly
        return try parser.parse(text)
    }

    /// The clause for a warning about JSON in a string that nests deeper than
    /// ``parseEmbeddedJSON(_:heldAt:)`` allows: "nests deeper than limits.maxDepth (8) allows
    /// at this depth (6 levels)".
    public func embeddedDepthClause(heldAt depth: Int) -> String {
        "nests deeper than limits.maxDepth (\(maxDepth)) allows at this depth (\(Swift.max(0, maxDepth - depth)) levels)"
    }
}
