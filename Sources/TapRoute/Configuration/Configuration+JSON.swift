extension Configuration {
    /// The top-level keys a configuration may have.
    package static let topLevelKeys: [String] = ["version", "app", "defaults", "adapters", "routes", "security", "limits"]

    /// Reads a configuration document (the `config.yaml` structure, as JSON).
    ///
    /// Every key is checked: unknown keys, wrong types, duplicate adapter ids, bad schemes,
    /// bad route patterns and out-of-range numbers are errors naming the key path (and, with
    /// a `source`, the file, line and column). Reading goes on after an error, so that the
    /// thrown error lists every problem of the document (``ConfigurationError/errors``), in
    /// file order. Adapter ids and adapter-specific keys are checked later, by
    /// ``AdapterRegistry``, which knows the adapters.
    ///
    /// A document without `adapters` enables every adapter the registry is given
    /// (``enablesEveryAdapter``); `adapters: []` enables none.
    ///
    /// - Parameters:
    ///   - json: the document; `null` or an empty object is the empty configuration.
    ///   - source: where it was read from, to locate errors.
    /// - Throws: ``ConfigurationError``.
    public init(json: JSONValue, source: ConfigurationSource? = nil) throws(ConfigurationError) {
        let (configuration, errors) = Configuration.reading(json: json, source: source)
        if let error = ConfigurationError(collecting: errors) { throw error }
        self = configuration
    }

    /// Reads as much of a configuration document as is valid: the configuration without
    /// the values that are wrong, and an error for each of them (located with `source`).
    package static func reading(json: JSONValue, source: ConfigurationSource?) -> (Configuration, [ConfigurationError]) {
        var errors = ConfigurationErrorList()
        var configuration = Configuration()
        configuration.enablesEveryAdapter = true
        configuration.read(json, errors: &errors)
        configuration.source = source
        return (configuration, errors.list.map { source?.locate($0) ?? $0 })
    }

    private mutating func read(_ json: JSONValue, errors: inout ConfigurationErrorList) {
        if json.isNull { return }
        guard let o = errors.attempt({ () throws(ConfigurationError) in try ConfigurationReader(json, at: []).object(allowedKeys: nil) })
        else {
            return
        }
        errors.append(ConfigurationReader(json, at: []).unknownKeys(in: o, allowedKeys: Configuration.topLevelKeys))
        if let v = o["version"] {
            errors.attempt { () throws(ConfigurationError) in
                let version = try ConfigurationReader(v, at: ["version"]).integer()
                guard version == 1 else { throw ConfigurationError("unsupported version \(version); only 1 exists", at: ["version"]) }
            }
        }
        if let v = o["app"] { app = Self.readApp(ConfigurationReader(v, at: ["app"]), errors: &errors) }
        if let v = o["defaults"] {
            defaults = Self.readPolicy(
                ConfigurationReader(v, at: ["defaults"]),
                allowedKeys: ["automaticallyOpenDeeplinks"],
                errors: &errors
            )
        }
        if let v = o["adapters"] {
            enablesEveryAdapter = false
            var seen: [String: Int] = [:]
            let elements: [ConfigurationReader] =
                errors.attempt { () throws(ConfigurationError) -> [ConfigurationReader] in
                    try ConfigurationReader(v, at: ["adapters"]).array()
                } ?? []
            for (i, element) in elements.enumerated() {
                guard let settings = Self.readAdapter(element, errors: &errors) else { continue }
                if let first = seen[settings.id] {
                    errors.append(
                        ConfigurationError(
                            "duplicate adapter id '\(settings.id)' (already listed at adapters[\(first)])",
                            kind: .duplicateAdapter,
                            at: element.path.appending("id")
                        )
                    )
                    continue
                }
                seen[settings.id] = i
                adapters.append(settings)
            }
        }
        if let v = o["routes"] {
            for element in errors.attempt({ () throws(ConfigurationError) in try ConfigurationReader(v, at: ["routes"]).array() }) ?? [] {
                let route = errors.attempt { () throws(ConfigurationError) -> Route? in
                    let r = try element.object(allowedKeys: nil)
                    var local = ConfigurationErrorList()
                    local.append(element.unknownKeys(in: r, allowedKeys: ["url", "screen"]))
                    let pattern = local.attempt { () throws(ConfigurationError) in try element.required(r, "url").string() }
                    let screen = local.attempt { () throws(ConfigurationError) -> String in
                        let screen = try element.required(r, "screen").string()
                        guard !screen.isEmpty else {
                            throw ConfigurationError("screen must not be empty", at: element.path.appending("screen"))
                        }
                        return screen
                    }
                    if let pattern, let screen {
                        do throws(Route.PatternError) {
                            return try Route(pattern: pattern, screen: screen)
                        } catch {
                            local.append(
                                ConfigurationError("bad route pattern '\(pattern)': \(error.reason)", at: element.path.appending("url"))
                            )
                        }
                    }
                    if let error = ConfigurationError(collecting: local.list) { throw error }
                    return nil
                }
                if let route = route ?? nil { routes.append(route) }
            }
        }
        if let v = o["security"] { security = Self.readSecurity(ConfigurationReader(v, at: ["security"]), errors: &errors) }
        if let v = o["limits"] {
            let reader = ConfigurationReader(v, at: ["limits"])
            let l = errors.attempt { () throws(ConfigurationError) in try reader.object(allowedKeys: nil) } ?? [:]
            errors.append(reader.unknownKeys(in: l, allowedKeys: ["maxRecordBytes", "maxDepth"]))
            if let n = l["maxRecordBytes"],
                let value = errors.attempt({ () throws(ConfigurationError) in
                    try ConfigurationReader(n, at: reader.path.appending("maxRecordBytes")).integer(in: 64...(1 << 30))
                })
            {
                limits.maxRecordBytes = value
            }
            if let n = l["maxDepth"],
                let value = errors.attempt({ () throws(ConfigurationError) in
                    try ConfigurationReader(n, at: reader.path.appending("maxDepth")).integer(in: 2...Limits.depthCeiling)
                })
            {
                limits.maxDepth = value
            }
        }
    }

    private static func readApp(_ reader: ConfigurationReader, errors: inout ConfigurationErrorList) -> AppSettings {
        var app = AppSettings()
        guard let o = errors.attempt({ () throws(ConfigurationError) in try reader.object(allowedKeys: nil) }) else { return app }
        errors.append(reader.unknownKeys(in: o, allowedKeys: ["schemes", "domains", "appID", "aasa"]))
        if let v = o["schemes"] {
            app.schemes = ConfigurationReader(v, at: reader.path.appending("schemes")).schemeList(allowForbidden: false, errors: &errors)
        }
        if let v = o["domains"] {
            app.domains = ConfigurationReader(v, at: reader.path.appending("domains")).hostList(allowWildcards: false, errors: &errors)
        }
        if let v = o["appID"] {
            app.appID = errors.attempt { () throws(ConfigurationError) in
                let id = try ConfigurationReader(v, at: reader.path.appending("appID")).string()
                guard id.contains("."), !id.hasPrefix("."), !id.contains(" ") else {
                    throw ConfigurationError(
                        "appID '\(id)' is not of the form TEAMID.bundle.identifier",
                        at: reader.path.appending("appID")
                    )
                }
                return id
            }
        }
        if let v = o["aasa"] {
            let r = ConfigurationReader(v, at: reader.path.appending("aasa"))
            let files: JSONObject = errors.attempt { () throws(ConfigurationError) -> JSONObject in try r.object(allowedKeys: nil) } ?? [:]
            for (domain, file) in files {
                if let path = errors.attempt({ () throws(ConfigurationError) in
                    try ConfigurationReader(file, at: r.path.appending(domain)).string()
                }) {
                    app.aasa[domain.lowercased()] = path
                }
            }
        }
        return app
    }

    private static func readPolicy(
        _ reader: ConfigurationReader,
        allowedKeys: [String],
        errors: inout ConfigurationErrorList
    ) -> PolicySettings {
        var policy = PolicySettings()
        guard let o = errors.attempt({ () throws(ConfigurationError) in try reader.object(allowedKeys: nil) }) else { return policy }
        errors.append(reader.unknownKeys(in: o, allowedKeys: allowedKeys))
        if let v = o["automaticallyOpenDeeplinks"] {
            policy.automaticallyOpenDeeplinks = errors.attempt { () throws(ConfigurationError) in
                try ConfigurationReader(v, at: reader.path.appending("automaticallyOpenDeeplinks")).bool()
            }
        }
        return policy
    }

    private static func readAdapter(_ reader: ConfigurationReader, errors: inout ConfigurationErrorList) -> AdapterSettings? {
        if case .string(let id) = reader.value {
            return errors.attempt { () throws(ConfigurationError) in AdapterSettings(id: try reader.identifier(id)) }
        }
        guard let o = errors.attempt({ () throws(ConfigurationError) in try reader.object(allowedKeys: nil) }) else { return nil }
        guard let id = errors.attempt({ () throws(ConfigurationError) in try reader.identifier(try reader.required(o, "id").string()) })
        else { return nil }
        var settings = AdapterSettings(id: id)
        var options = JSONObject()
        for (key, value) in o {
            switch key {
            case "id": continue
            case "automaticallyOpenDeeplinks":
                settings.policy.automaticallyOpenDeeplinks = errors.attempt { () throws(ConfigurationError) in
                    try ConfigurationReader(value, at: reader.path.appending(key)).bool()
                }
            case "channels":
                let channelsReader = ConfigurationReader(value, at: reader.path.appending(key))
                let channels = errors.attempt { () throws(ConfigurationError) in try channelsReader.object(allowedKeys: nil) } ?? [:]
                errors.append(channelsReader.unknownKeys(in: channels, allowedKeys: Channel.allCases.map(\.rawValue)))
                for (name, channelValue) in channels {
                    guard let channel = Channel(rawValue: name) else { continue }
                    settings.channels[channel] = readPolicy(
                        ConfigurationReader(channelValue, at: channelsReader.path.appending(name)),
                        allowedKeys: ["automaticallyOpenDeeplinks"],
                        errors: &errors
                    )
                }
            case "definition":
                settings.definitionFile = errors.attempt { () throws(ConfigurationError) in
                    let file = try ConfigurationReader(value, at: reader.path.appending(key)).string()
                    guard !file.isEmpty else {
                        throw ConfigurationError("definition must name a file", at: reader.path.appending(key))
                    }
                    return file
                }
            default:
                options[key] = value
            }
        }
        settings.options = options
        return settings
    }

    private static func readSecurity(_ reader: ConfigurationReader, errors: inout ConfigurationErrorList) -> SecuritySettings {
        var security = SecuritySettings()
        guard let o = errors.attempt({ () throws(ConfigurationError) in try reader.object(allowedKeys: nil) }) else { return security }
        errors.append(reader.unknownKeys(in: o, allowedKeys: ["allowedSchemes", "allowedHosts", "maxURLLength"]))
        if let v = o["allowedSchemes"] {
            security.allowedSchemes = ConfigurationReader(v, at: reader.path.appending("allowedSchemes"))
                .schemeList(allowForbidden: false, errors: &errors)
        }
        if let v = o["allowedHosts"] {
            security.allowedHosts = ConfigurationReader(v, at: reader.path.appending("allowedHosts")).hostList(
                allowWildcards: true,
                errors: &errors
            )
        }
        if let v = o["maxURLLength"] {
            if let value = errors.attempt({ () throws(ConfigurationError) in
                try ConfigurationReader(v, at: reader.path.appending("maxURLLength")).integer(in: 16...1_000_000)
            }) {
                security.maxURLLength = value
            }
        }
        return security
    }
}

/// Errors collected while reading, so that one run reports them all.
package struct ConfigurationErrorList {
    /// The errors, in the order found.
    package var list: [ConfigurationError] = []

    /// Creates an empty list.
    package init() {}

    /// Adds `error` (and the errors it carries), if any.
    package mutating func append(_ error: ConfigurationError?) {
        if let error { list += error.errors }
    }

    /// Runs `body`, keeping its error and returning `nil` when it throws.
    @discardableResult
    package mutating func attempt<T>(_ body: () throws(ConfigurationError) -> T) -> T? {
        do throws(ConfigurationError) {
            return try body()
        } catch {
            append(error)
            return nil
        }
    }
}

/// Reads one value of a configuration document, throwing errors that name its key path.
///
/// Adapters use it to read their own keys from ``AdapterConfiguration/options``.
public struct ConfigurationReader: Sendable {
    /// The value being read.
    public let value: JSONValue
    /// Its key path in the document.
    public let path: ConfigurationError.KeyPath

    /// Creates a reader for `value` found at `path`.
    public init(_ value: JSONValue, at path: ConfigurationError.KeyPath) {
        self.value = value
        self.path = path
    }

    private func mismatch(_ expected: String) -> ConfigurationError {
        ConfigurationError("expected \(expected), got \(value.typeDescription)", kind: .typeMismatch, at: path)
    }

    /// The value as a mapping; with `allowedKeys`, any other key is an error naming it (one
    /// error listing every unknown key, each with a suggestion when one is close).
    public func object(allowedKeys: [String]?) throws(ConfigurationError) -> JSONObject {
        if value.isNull { return [:] }
        guard case .object(let o) = value else { throw mismatch("a mapping") }
        if let allowedKeys, let error = unknownKeys(in: o, allowedKeys: allowedKeys) { throw error }
        return o
    }

    /// An ``ConfigurationError/Kind/unknownKey`` error for each key of `object` (this
    /// value) that is not in `allowedKeys`, with "did you mean" when an allowed key is
    /// close; `nil` when there is none.
    public func unknownKeys(in object: JSONObject, allowedKeys: [String], adapter: String? = nil) -> ConfigurationError? {
        var errors: [ConfigurationError] = []
        for (key, _) in object where !allowedKeys.contains(key) {
            var message = "unknown key '\(key)'"
            if let adapter { message += " for adapter '\(adapter)'" }
            message += "; expected one of: \(allowedKeys.joined(separator: ", "))"
            if let suggestion = Self.closest(to: key, in: allowedKeys) { message += "; did you mean '\(suggestion)'?" }
            errors.append(ConfigurationError(message, kind: .unknownKey, at: path.appending(key), isAboutKey: true))
        }
        return ConfigurationError(collecting: errors)
    }

    /// The candidate closest to `key` by edit distance (case-insensitive), when it is close
    /// enough to be a likely typo: at most one edit per three characters, at least one.
    static func closest(to key: String, in candidates: [String]) -> String? {
        let word = Array(key.lowercased().unicodeScalars)
        guard word.count <= 64 else { return nil }
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let other = Array(candidate.lowercased().unicodeScalars)
            let distance = editDistance(word, other)
            if distance <= max(1, min(word.count, other.count) / 3), distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.name
    }

    /// Levenshtein distance, with a swap of two neighbours counted as one edit.
    private static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }

    /// The member `key` of `object`, or an error saying it is required.
    public func required(_ object: JSONObject, _ key: String) throws(ConfigurationError) -> ConfigurationReader {
        guard let v = object[key] else { throw ConfigurationError("missing required key '\(key)'", kind: .missingKey, at: path) }
        return ConfigurationReader(v, at: path.appending(key))
    }

    /// The value as a list of readers, one per element.
    public func array() throws(ConfigurationError) -> [ConfigurationReader] {
        if value.isNull { return [] }
        guard case .array(let a) = value else { throw mismatch("a list") }
        return a.enumerated().map { ConfigurationReader($0.element, at: path.appending($0.offset)) }
    }

    /// The value as a string.
    public func string() throws(ConfigurationError) -> String {
        guard case .string(let s) = value else { throw mismatch("a string") }
        return s
    }

    /// The value as a list of strings.
    public func stringList() throws(ConfigurationError) -> [String] {
        var out: [String] = []
        for element in try array() { out.append(try element.string()) }
        return out
    }

    /// The value as a Boolean.
    public func bool() throws(ConfigurationError) -> Bool {
        guard case .bool(let b) = value else { throw mismatch("true or false") }
        return b
    }

    /// The value as an integer, optionally within `range`.
    public func integer(in range: ClosedRange<Int>? = nil) throws(ConfigurationError) -> Int {
        guard case .number(let n) = value, let i = n.intValue else { throw mismatch("an integer") }
        if let range, !range.contains(i) {
            throw ConfigurationError("\(i) is out of range; expected \(range.lowerBound)...\(range.upperBound)", at: path)
        }
        return i
    }

    func identifier(_ id: String) throws(ConfigurationError) -> String {
        guard !id.isEmpty,
            id.utf8.allSatisfy({ ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x5F })
        else { throw ConfigurationError("'\(id)' is not an adapter id (letters, digits, '-' and '_')", at: path.appending("id")) }
        return id
    }

    /// The value as a list of URL schemes, lower-cased; each must be RFC 3986 scheme syntax
    /// and, unless `allowForbidden`, not one of `SecuritySettings.forbiddenSchemes` (`javascript`, `data`, `file`, `vbscript`, `blob`, `filesystem`).
    /// - Throws: one ``ConfigurationError`` listing every bad entry.
    public func schemeList(allowForbidden: Bool) throws(ConfigurationError) -> [String] {
        var errors = ConfigurationErrorList()
        let out = schemeList(allowForbidden: allowForbidden, errors: &errors)
        if let error = ConfigurationError(collecting: errors.list) { throw error }
        return out
    }

    /// ``schemeList(allowForbidden:)``, keeping the good entries and collecting the errors.
    package func schemeList(allowForbidden: Bool, errors: inout ConfigurationErrorList) -> [String] {
        var out: [String] = []
        for element in errors.attempt({ () throws(ConfigurationError) in try array() }) ?? [] {
            let scheme = errors.attempt { () throws(ConfigurationError) -> String in
                let scheme = try element.string()
                guard Route.isValidScheme(scheme) else {
                    throw ConfigurationError(
                        "'\(scheme)' is not a URL scheme (a letter, then letters, digits, '+', '-' or '.'; no ':' or '//')",
                        at: element.path
                    )
                }
                if !allowForbidden, SecuritySettings.forbiddenSchemes.contains(scheme.lowercased()) {
                    throw ConfigurationError("scheme '\(scheme)' is never allowed", at: element.path)
                }
                return scheme.lowercased()
            }
            if let scheme { out.append(scheme) }
        }
        return out
    }

    /// The value as a list of host names in the form URLs are compared in (lower-cased,
    /// internationalized labels as `xn--` A-labels, `IDNA`); with `allowWildcards`, an
    /// entry may start with `*.`.
    /// - Throws: one ``ConfigurationError`` listing every bad entry.
    public func hostList(allowWildcards: Bool) throws(ConfigurationError) -> [String] {
        var errors = ConfigurationErrorList()
        let out = hostList(allowWildcards: allowWildcards, errors: &errors)
        if let error = ConfigurationError(collecting: errors.list) { throw error }
        return out
    }

    /// ``hostList(allowWildcards:)``, keeping the good entries and collecting the errors.
    package func hostList(allowWildcards: Bool, errors: inout ConfigurationErrorList) -> [String] {
        var out: [String] = []
        for element in errors.attempt({ () throws(ConfigurationError) in try array() }) ?? [] {
            guard let host = errors.attempt({ () throws(ConfigurationError) in try element.string() }) else { continue }
            var bare = Substring(host)
            if allowWildcards, bare.hasPrefix("*.") { bare = bare.dropFirst(2) }
            let valid =
                !bare.isEmpty
                && bare.utf8.allSatisfy {
                    $0 >= 0x80 || ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D
                        || $0 == 0x2E
                } && !bare.hasPrefix(".") && !bare.hasSuffix(".")
            guard valid else {
                errors.append(
                    ConfigurationError(
                        "'\(host)' is not a host name (write the host alone, without scheme, port or path)",
                        at: element.path
                    )
                )
                continue
            }
            // Hosts compare in the form browsers read them: lower-cased, with
            // internationalized labels as A-labels (`bücher.de` → `xn--bcher-kva.de`).
            let ascii: String
            do {
                ascii = try IDNA.asciiHost(bare)
            } catch {
                errors.append(ConfigurationError("'\(host)' has a host label \(error)", at: element.path))
                continue
            }
            out.append(bare.startIndex == host.startIndex ? ascii : "*." + ascii)
        }
        return out
    }
}
