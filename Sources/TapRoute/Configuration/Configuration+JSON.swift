extension Configuration {
    /// The top-level keys a configuration may have.
    public static let topLevelKeys: [String] = ["version", "app", "defaults", "adapters", "routes", "security", "limits"]

    /// Reads a configuration document (the `config.yaml` structure, as JSON).
    ///
    /// Every key is checked: unknown keys, wrong types, duplicate adapter ids, bad schemes,
    /// bad route patterns and out-of-range numbers are errors naming the key path (and, with
    /// a `source`, the file, line and column). Adapter ids and adapter-specific keys are
    /// checked later, by ``AdapterRegistry``, which knows the adapters.
    ///
    /// - Parameters:
    ///   - json: the document; `null` or an empty object is the empty configuration.
    ///   - source: where it was read from, to locate errors.
    /// - Throws: ``ConfigurationError``.
    public init(json: JSONValue, source: ConfigurationSource? = nil) throws(ConfigurationError) {
        do throws(ConfigurationError) {
            try self.init(decoding: json)
            self.source = source
        } catch {
            throw source?.locate(error) ?? error
        }
    }

    private init(decoding json: JSONValue) throws(ConfigurationError) {
        self.init()
        if json.isNull { return }
        let root = ConfigReader(json, at: [])
        let o = try root.object(allowedKeys: Configuration.topLevelKeys)
        if let v = o["version"] {
            let version = try ConfigReader(v, at: ["version"]).integer()
            guard version == 1 else { throw ConfigurationError("unsupported version \(version); only 1 exists", at: ["version"]) }
        }
        if let v = o["app"] { app = try Self.readApp(ConfigReader(v, at: ["app"])) }
        if let v = o["defaults"] {
            defaults = try Self.readPolicy(ConfigReader(v, at: ["defaults"]), allowedKeys: ["automaticallyOpenDeeplinks"])
        }
        if let v = o["adapters"] {
            let reader = ConfigReader(v, at: ["adapters"])
            var seen: [String: Int] = [:]
            for (i, element) in try reader.array().enumerated() {
                let settings = try Self.readAdapter(element)
                if let first = seen[settings.id] {
                    throw ConfigurationError(
                        "duplicate adapter id '\(settings.id)' (already listed at adapters[\(first)])",
                        at: element.path.appending("id")
                    )
                }
                seen[settings.id] = i
                adapters.append(settings)
            }
        }
        if let v = o["routes"] {
            for element in try ConfigReader(v, at: ["routes"]).array() {
                let r = try element.object(allowedKeys: ["url", "screen"])
                let pattern = try element.required(r, "url").string()
                let screen = try element.required(r, "screen").string()
                guard !screen.isEmpty else { throw ConfigurationError("screen must not be empty", at: element.path.appending("screen")) }
                do throws(Route.PatternError) {
                    routes.append(try Route(pattern: pattern, screen: screen))
                } catch {
                    throw ConfigurationError("bad route pattern '\(pattern)': \(error.reason)", at: element.path.appending("url"))
                }
            }
        }
        if let v = o["security"] { security = try Self.readSecurity(ConfigReader(v, at: ["security"])) }
        if let v = o["limits"] {
            let reader = ConfigReader(v, at: ["limits"])
            let l = try reader.object(allowedKeys: ["maxRecordBytes", "maxDepth"])
            if let n = l["maxRecordBytes"] {
                limits.maxRecordBytes = try ConfigReader(n, at: reader.path.appending("maxRecordBytes")).integer(in: 64...(1 << 30))
            }
            if let n = l["maxDepth"] {
                limits.maxDepth = try ConfigReader(n, at: reader.path.appending("maxDepth")).integer(in: 2...10_000)
            }
        }
    }

    private static func readApp(_ reader: ConfigReader) throws(ConfigurationError) -> AppSettings {
        let o = try reader.object(allowedKeys: ["schemes", "domains", "appID", "aasa"])
        var app = AppSettings()
        if let v = o["schemes"] {
            app.schemes = try ConfigReader(v, at: reader.path.appending("schemes")).schemeList(allowForbidden: false)
        }
        if let v = o["domains"] {
            app.domains = try ConfigReader(v, at: reader.path.appending("domains")).hostList(allowWildcards: false)
        }
        if let v = o["appID"] {
            let id = try ConfigReader(v, at: reader.path.appending("appID")).string()
            guard id.contains("."), !id.hasPrefix("."), !id.contains(" ") else {
                throw ConfigurationError(
                    "appID '\(id)' is not of the form TEAMID.bundle.identifier",
                    at: reader.path.appending("appID")
                )
            }
            app.appID = id
        }
        if let v = o["aasa"] {
            let r = ConfigReader(v, at: reader.path.appending("aasa"))
            for (domain, file) in try r.object(allowedKeys: nil) {
                app.aasa[domain.lowercased()] = try ConfigReader(file, at: r.path.appending(domain)).string()
            }
        }
        return app
    }

    private static func readPolicy(_ reader: ConfigReader, allowedKeys: [String]) throws(ConfigurationError) -> PolicySettings {
        let o = try reader.object(allowedKeys: allowedKeys)
        var policy = PolicySettings()
        if let v = o["automaticallyOpenDeeplinks"] {
            policy.automaticallyOpenDeeplinks = try ConfigReader(v, at: reader.path.appending("automaticallyOpenDeeplinks")).bool()
        }
        return policy
    }

    private static func readAdapter(_ reader: ConfigReader) throws(ConfigurationError) -> AdapterSettings {
        if case .string(let id) = reader.value {
            return AdapterSettings(id: try reader.identifier(id))
        }
        let o = try reader.object(allowedKeys: nil)
        let id = try reader.identifier(try reader.required(o, "id").string())
        var settings = AdapterSettings(id: id)
        var options = JSONObject()
        for (key, value) in o {
            switch key {
            case "id": continue
            case "automaticallyOpenDeeplinks":
                settings.policy.automaticallyOpenDeeplinks = try ConfigReader(value, at: reader.path.appending(key)).bool()
            case "channels":
                let channelsReader = ConfigReader(value, at: reader.path.appending(key))
                for (name, channelValue) in try channelsReader.object(allowedKeys: Channel.allCases.map(\.rawValue)) {
                    settings.channels[Channel(rawValue: name)!] = try readPolicy(
                        ConfigReader(channelValue, at: channelsReader.path.appending(name)),
                        allowedKeys: ["automaticallyOpenDeeplinks"]
                    )
                }
            default:
                options[key] = value
            }
        }
        settings.options = options
        return settings
    }

    private static func readSecurity(_ reader: ConfigReader) throws(ConfigurationError) -> SecuritySettings {
        let o = try reader.object(allowedKeys: ["allowedSchemes", "allowedHosts", "maxURLLength"])
        var security = SecuritySettings()
        if let v = o["allowedSchemes"] {
            security.allowedSchemes = try ConfigReader(v, at: reader.path.appending("allowedSchemes")).schemeList(allowForbidden: false)
        }
        if let v = o["allowedHosts"] {
            security.allowedHosts = try ConfigReader(v, at: reader.path.appending("allowedHosts")).hostList(allowWildcards: true)
        }
        if let v = o["maxURLLength"] {
            security.maxURLLength = try ConfigReader(v, at: reader.path.appending("maxURLLength")).integer(in: 16...1_000_000)
        }
        return security
    }
}

/// Reads one value of a configuration document, throwing errors that name its key path.
///
/// Adapters use it to read their own keys from ``AdapterConfiguration/options``.
public struct ConfigReader: Sendable {
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
        ConfigurationError("expected \(expected), got \(value.typeDescription)", at: path)
    }

    /// The value as a mapping; with `allowedKeys`, any other key is an error naming it.
    public func object(allowedKeys: [String]?) throws(ConfigurationError) -> JSONObject {
        if value.isNull { return [:] }
        guard case .object(let o) = value else { throw mismatch("a mapping") }
        if let allowedKeys {
            for key in o.keys where !allowedKeys.contains(key) {
                throw ConfigurationError(
                    "unknown key '\(key)'; expected one of: \(allowedKeys.joined(separator: ", "))",
                    at: path.appending(key),
                    isAboutKey: true
                )
            }
        }
        return o
    }

    /// The member `key` of `object`, or an error saying it is required.
    public func required(_ object: JSONObject, _ key: String) throws(ConfigurationError) -> ConfigReader {
        guard let v = object[key] else { throw ConfigurationError("missing required key '\(key)'", at: path) }
        return ConfigReader(v, at: path.appending(key))
    }

    /// The value as a list of readers, one per element.
    public func array() throws(ConfigurationError) -> [ConfigReader] {
        if value.isNull { return [] }
        guard case .array(let a) = value else { throw mismatch("a list") }
        return a.enumerated().map { ConfigReader($0.element, at: path.appending($0.offset)) }
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
    /// and, unless `allowForbidden`, not one of ``SecuritySettings/forbiddenSchemes``.
    public func schemeList(allowForbidden: Bool) throws(ConfigurationError) -> [String] {
        var out: [String] = []
        for element in try array() {
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
            out.append(scheme.lowercased())
        }
        return out
    }

    /// The value as a list of host names in the form URLs are compared in (lower-cased,
    /// internationalized labels as `xn--` A-labels, ``IDNA``); with `allowWildcards`, an
    /// entry may start with `*.`.
    public func hostList(allowWildcards: Bool) throws(ConfigurationError) -> [String] {
        var out: [String] = []
        for element in try array() {
            let host = try element.string()
            var bare = Substring(host)
            if allowWildcards, bare.hasPrefix("*.") { bare = bare.dropFirst(2) }
            let valid =
                !bare.isEmpty
                && bare.utf8.allSatisfy {
                    $0 >= 0x80 || ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D
                        || $0 == 0x2E
                } && !bare.hasPrefix(".") && !bare.hasSuffix(".")
            guard valid else {
                throw ConfigurationError(
                    "'\(host)' is not a host name (write the host alone, without scheme, port or path)",
                    at: element.path
                )
            }
            // Hosts compare in the form browsers read them: lower-cased, with
            // internationalized labels as A-labels (`bücher.de` → `xn--bcher-kva.de`).
            let ascii: String
            do {
                ascii = try IDNA.asciiHost(bare)
            } catch {
                throw ConfigurationError("'\(host)' has a host label \(error)", at: element.path)
            }
            out.append(bare.startIndex == host.startIndex ? ascii : "*." + ascii)
        }
        return out
    }
}
