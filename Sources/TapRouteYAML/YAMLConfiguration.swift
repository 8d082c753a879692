import Foundation
public import TapRoute
import Yams

/// Reads `config.yaml` into a ``TapRoute/Configuration``.
///
/// Every error is a ``TapRoute/ConfigurationError`` that names the file, line and column and
/// the key path: YAML syntax errors, duplicate keys, unknown keys, wrong types, duplicate
/// adapter ids, bad route patterns and bad schemes here; unknown adapter ids and
/// adapter-specific keys when the registry is built (the returned configuration carries a
/// source map so those are located too).
///
/// ```swift
/// let configuration = try YAMLConfiguration.load(contentsOf: "config.yaml")
/// let registry = try AdapterRegistry.builtIn(configuration: configuration)   // TapRouteAdapters
/// ```
public enum YAMLConfiguration {
    /// The largest configuration accepted, in bytes of UTF-8: 1 MiB (a real one is a few
    /// kilobytes). A file is read no further than this.
    public static let maximumBytes = 1 << 20
    /// The most nodes a document may have — every scalar, list and mapping, keys included:
    /// 100,000.
    public static let maximumNodes = 100_000
    /// The deepest nesting of lists and mappings: 64.
    public static let maximumDepth = 64

    /// Reads and parses the configuration file at `path`.
    /// - Throws: ``TapRoute/ConfigurationError`` (an unreadable file, or every problem in it).
    public static func load(contentsOf path: String) throws(ConfigurationError) -> Configuration {
        try parse(yaml: try read(contentsOf: path), file: path)
    }

    /// The text of the configuration file at `path`, read no further than
    /// ``maximumBytes`` (so that a huge file or a device is refused without being read).
    /// - Throws: ``TapRoute/ConfigurationError`` of kind `unreadable` or `limitExceeded`.
    public static func read(contentsOf path: String) throws(ConfigurationError) -> String {
        let data: Data
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            data = try handle.read(upToCount: maximumBytes + 1) ?? Data()
        } catch {
            throw ConfigurationError("cannot read the file: \(error.localizedDescription)", kind: .unreadable, file: path)
        }
        guard data.count <= maximumBytes else {
            throw ConfigurationError(
                "the file is larger than \(maximumBytes) bytes; a configuration is far smaller",
                kind: .limitExceeded,
                file: path
            )
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigurationError("the file is not UTF-8 text", kind: .unreadable, file: path)
        }
        return text
    }

    /// Parses configuration YAML, and reads the AASA files `app.aasa` names and the
    /// definition files adapter entries name (relative to `file`'s folder; see
    /// ``loadingAASAFiles(_:relativeTo:)`` and ``loadingDefinitionFiles(_:relativeTo:)``).
    /// - Parameters:
    ///   - yaml: the document.
    ///   - file: the name to use in error messages.
    /// - Throws: ``TapRoute/ConfigurationError``: every problem of the document, in file
    ///   order (``TapRoute/ConfigurationError/errors``).
    public static func parse(yaml: String, file: String = "<config>") throws(ConfigurationError) -> Configuration {
        let (configuration, errors) = try reading(yaml: yaml, file: file)
        if let error = ConfigurationError(collecting: errors) { throw error }
        return configuration
    }

    /// Reads as much of a configuration as is valid, with an error for each problem
    /// (configuration keys, AASA files and definition files).
    /// - Throws: the errors that stop reading altogether (YAML syntax, aliases, limits).
    package static func reading(yaml: String, file: String) throws(ConfigurationError) -> (Configuration, [ConfigurationError]) {
        let (document, source) = try self.document(yaml: yaml, file: file)
        var (configuration, errors) = Configuration.reading(json: document, source: source)
        var list = ConfigurationErrorList()
        let directory = (file as NSString).deletingLastPathComponent
        configuration = loadingAASAFiles(configuration, relativeTo: directory, errors: &list)
        configuration = loadingDefinitionFiles(configuration, relativeTo: directory, errors: &list)
        return (configuration, errors + list.list)
    }

    /// Parses YAML into a JSON value and a source map of where each key path was written,
    /// without interpreting it as a configuration (for layering documents).
    ///
    /// Reading is bounded before anything is expanded: a document over ``maximumBytes`` is
    /// refused unread; YAML anchors, aliases and merge keys (`&a`, `*a`, `<<`) are refused
    /// — an alias is found by a parse in which no anchor exists, so it is never expanded;
    /// and a document over ``maximumNodes`` nodes or ``maximumDepth`` levels is refused
    /// at the first node over the limit.
    /// - Throws: ``TapRoute/ConfigurationError`` for YAML syntax errors, duplicate keys,
    ///   anchors, aliases and merge keys, and the limits.
    public static func document(yaml: String, file: String = "<config>") throws(ConfigurationError) -> (JSONValue, ConfigurationSource) {
        guard yaml.utf8.count <= maximumBytes else {
            throw ConfigurationError(
                "the document is larger than \(maximumBytes) bytes; a configuration is far smaller",
                kind: .limitExceeded,
                file: file
            )
        }
        try refuseAliases(in: yaml, file: file)
        let parser: Parser
        let node: Node?
        do {
            // `.basic`: untagged plain scalars are typed by `PlainScalarResolution`, without
            // the regular expressions of `Resolver.default`.
            parser = try Parser(yaml: yaml, resolver: .basic)
            node = try parser.singleRoot()
        } catch let error as YamlError {
            throw convert(error, file: file)
        } catch {
            throw ConfigurationError("cannot parse YAML: \(error)", kind: .syntax, file: file)
        }
        var source = ConfigurationSource(file: file)
        guard let node else { return (.null, source) }
        // The parser keeps the anchors alive, so that anchored nodes can be told apart.
        return try withExtendedLifetime(parser) { () throws(ConfigurationError) in
            var budget = maximumNodes
            let value = try convert(node, path: ConfigurationError.KeyPath(), source: &source, depth: 0, budget: &budget)
            return (value, source)
        }
    }

    /// Throws at the first alias of `yaml`, without expanding anything.
    ///
    /// ``AliasScanner`` finds every place where an anchor or alias may start (a superset:
    /// it also finds `&name` inside strings and comments). With every possible anchor
    /// blanked out, the text has no anchor, so each real alias makes the parser stop with
    /// an undefined alias at its own position — nothing is ever expanded. Anchors
    /// themselves are refused later, where the real parse marks them.
    private static func refuseAliases(in yaml: String, file: String) throws(ConfigurationError) {
        let candidates = AliasScanner.candidates(in: yaml)
        guard !candidates.isEmpty else { return }
        do {
            _ = try Parser(yaml: AliasScanner.blankingAnchors(candidates, in: yaml), resolver: .basic).singleRoot()
        } catch let error as YamlError {
            guard let mark = error.mark else { throw convert(error, file: file) }
            if let alias = candidates.first(where: { !$0.isAnchor && $0.line == mark.line && $0.column == mark.column }) {
                throw ConfigurationError(
                    "YAML aliases are not accepted in a configuration (*\(alias.name)): write the value out",
                    kind: .aliasNotAccepted,
                    file: file,
                    line: mark.line,
                    column: mark.column
                )
            }
            // A blanked anchor can make the rest unparsable (`[&a , b]`): name the anchor.
            if let anchor = candidates.last(where: { $0.isAnchor && $0.line == mark.line && $0.column <= mark.column }) {
                throw anchorError(anchor.name, file: file, line: anchor.line, column: anchor.column)
            }
            throw convert(error, file: file)
        } catch {
            throw ConfigurationError("cannot parse YAML: \(error)", kind: .syntax, file: file)
        }
    }

    private static func anchorError(_ name: String, file: String, line: Int, column: Int) -> ConfigurationError {
        ConfigurationError(
            "YAML anchors are not accepted in a configuration (&\(name)): write each value out",
            kind: .aliasNotAccepted,
            file: file,
            line: line,
            column: column
        )
    }

    private static func convert(_ error: YamlError, file: String) -> ConfigurationError {
        switch error {
        case .scanner(let context, let problem, let mark, _),
            .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            var message = "YAML syntax error: \(problem)"
            if let context { message += " (\(context.text) at line \(context.mark.line), column \(context.mark.column))" }
            return ConfigurationError(message, kind: .syntax, file: file, line: mark.line, column: mark.column)
        case .duplicatedKeysInMapping(let duplicates, let context):
            return ConfigurationError(
                "duplicate key \(duplicates.map { "'\($0)'" }.joined(separator: ", ")) in a mapping",
                kind: .duplicateKey,
                file: file,
                line: context.mark.line,
                column: context.mark.column
            )
        case .reader(let problem, _, _, _):
            return ConfigurationError("cannot read YAML: \(problem)", kind: .syntax, file: file)
        default:
            return ConfigurationError("cannot parse YAML: \(error)", kind: .syntax, file: file)
        }
    }

    private static func convert(
        _ node: Node,
        path: ConfigurationError.KeyPath,
        source: inout ConfigurationSource,
        depth: Int,
        budget: inout Int
    ) throws(ConfigurationError) -> JSONValue {
        if let mark = node.mark { source.marks[path] = (mark.line, mark.column) }
        budget -= 1
        guard budget >= 0 else {
            throw source.locate(
                ConfigurationError("the document has more than \(maximumNodes) nodes", kind: .limitExceeded, at: path)
            )
        }
        guard depth < maximumDepth else {
            throw source.locate(
                ConfigurationError("nesting deeper than \(maximumDepth) levels", kind: .limitExceeded, at: path)
            )
        }
        if let anchor = node.anchor {
            throw anchorError(anchor.rawValue, file: source.file, line: node.mark?.line ?? 0, column: node.mark?.column ?? 0)
        }
        switch node {
        case .scalar(let scalar):
            // An untagged plain scalar's tag reads as empty until something resolves it (the
            // parser resolves only mapping keys, which are read as strings below).
            let resolution: PlainScalarResolution
            if scalar.tag.description.isEmpty {
                resolution = PlainScalarResolution(scalar.string)
            } else {
                switch Tag.Name(rawValue: node.tag.description) {
                case .null: resolution = .null
                case .bool: resolution = Bool.construct(from: scalar).map(PlainScalarResolution.bool) ?? .string
                case .int: resolution = .int
                case .float: resolution = .float
                default: resolution = .string
                }
            }
            switch resolution {
            case .null: return .null
            case .bool(let b): return .bool(b)
            case .int:
                if let i = Int.construct(from: scalar) { return .number(JSONNumber(i)) }
                throw source.locate(ConfigurationError("'\(scalar.string)' is too large an integer", at: path))
            case .float:
                if let d = Double.construct(from: scalar), d.isFinite { return .number(JSONNumber(d)) }
                throw source.locate(ConfigurationError("'\(scalar.string)' is not a finite number", at: path))
            case .string: return .string(scalar.string)
            }
        case .sequence(let sequence):
            var elements: [JSONValue] = []
            for (i, element) in sequence.enumerated() {
                elements.append(try convert(element, path: path.appending(i), source: &source, depth: depth + 1, budget: &budget))
            }
            return .array(elements)
        case .mapping(let mapping):
            var members: [JSONObject.Element] = []
            var keys: Set<String> = []
            for (keyNode, valueNode) in mapping {
                guard case .scalar(let keyScalar) = keyNode else {
                    throw source.locate(ConfigurationError("a mapping key must be a plain scalar", kind: .syntax, at: path))
                }
                let key = keyScalar.string
                let childPath = path.appending(key)
                if let mark = keyNode.mark {
                    source.marks[childPath] = (mark.line, mark.column)
                    source.keyMarks[childPath] = (mark.line, mark.column)
                }
                if keyScalar.style == .plain, key == "<<" {
                    throw source.locate(
                        ConfigurationError(
                            "YAML merge keys (<<) are not accepted in a configuration: write the keys out",
                            kind: .aliasNotAccepted,
                            at: childPath,
                            isAboutKey: true
                        )
                    )
                }
                // YAML tells `1` and `"1"` apart; a configuration's keys are strings.
                guard keys.insert(key).inserted else {
                    throw source.locate(
                        ConfigurationError("duplicate key '\(key)' in a mapping", kind: .duplicateKey, at: childPath, isAboutKey: true)
                    )
                }
                budget -= 1
                if let anchor = keyNode.anchor {
                    throw anchorError(anchor.rawValue, file: source.file, line: keyNode.mark?.line ?? 0, column: keyNode.mark?.column ?? 0)
                }
                let value = try convert(valueNode, path: childPath, source: &source, depth: depth + 1, budget: &budget)
                // Point errors about a value at the value itself when it has a position.
                if let mark = valueNode.mark, case .scalar = valueNode { source.marks[childPath] = (mark.line, mark.column) }
                members.append((key, value))
            }
            let object = JSONObject(uniqueMembers: members)
            return .object(object)
        case .alias:
            throw source.locate(ConfigurationError("YAML aliases are not accepted in a configuration", kind: .aliasNotAccepted, at: path))
        }
    }
}
