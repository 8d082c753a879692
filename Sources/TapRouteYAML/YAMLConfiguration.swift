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
/// let registry = try AdapterRegistry(configuration: configuration, adapterTypes: AdapterRegistry.builtInAdapterTypes)
/// ```
public enum YAMLConfiguration {
    /// Reads and parses the configuration file at `path`.
    /// - Throws: ``TapRoute/ConfigurationError`` (an unreadable file, or any problem in it).
    public static func load(contentsOf path: String) throws(ConfigurationError) -> Configuration {
        let text: String
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            guard let decoded = String(data: data, encoding: .utf8) else {
                throw ConfigurationError("the file is not UTF-8 text", file: path)
            }
            text = decoded
        } catch let error as ConfigurationError {
            throw error
        } catch {
            throw ConfigurationError("cannot read the file: \(error.localizedDescription)", file: path)
        }
        return try parse(yaml: text, file: path)
    }

    /// Parses configuration YAML, and reads the AASA files `app.aasa` names (relative to
    /// `file`'s folder; see ``loadingAASAFiles(_:relativeTo:)``).
    /// - Parameters:
    ///   - yaml: the document.
    ///   - file: the name to use in error messages.
    /// - Throws: ``TapRoute/ConfigurationError``.
    public static func parse(yaml: String, file: String = "<config>") throws(ConfigurationError) -> Configuration {
        let (document, source) = try self.document(yaml: yaml, file: file)
        let configuration = try Configuration(json: document, source: source)
        return try loadingAASAFiles(configuration, relativeTo: (file as NSString).deletingLastPathComponent)
    }

    /// Parses YAML into a JSON value and a source map of where each key path was written,
    /// without interpreting it as a configuration (for layering documents).
    /// - Throws: ``TapRoute/ConfigurationError`` for YAML syntax errors and duplicate keys.
    public static func document(yaml: String, file: String = "<config>") throws(ConfigurationError) -> (JSONValue, ConfigurationSource) {
        let node: Node?
        do {
            node = try Yams.compose(yaml: yaml)
        } catch let error as YamlError {
            throw convert(error, file: file)
        } catch {
            throw ConfigurationError("cannot parse YAML: \(error)", file: file)
        }
        var source = ConfigurationSource(file: file)
        guard let node else { return (.null, source) }
        let value = try convert(node, path: ConfigurationError.KeyPath(), source: &source, depth: 0)
        return (value, source)
    }

    private static func convert(_ error: YamlError, file: String) -> ConfigurationError {
        switch error {
        case .scanner(let context, let problem, let mark, _),
            .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            var message = "YAML syntax error: \(problem)"
            if let context { message += " (\(context.text) at line \(context.mark.line), column \(context.mark.column))" }
            return ConfigurationError(message, file: file, line: mark.line, column: mark.column)
        case .duplicatedKeysInMapping(let duplicates, let context):
            return ConfigurationError(
                "duplicate key \(duplicates.map { "'\($0)'" }.joined(separator: ", ")) in a mapping",
                file: file,
                line: context.mark.line,
                column: context.mark.column
            )
        case .reader(let problem, _, _, _):
            return ConfigurationError("cannot read YAML: \(problem)", file: file)
        default:
            return ConfigurationError("cannot parse YAML: \(error)", file: file)
        }
    }

    private static func convert(
        _ node: Node,
        path: ConfigurationError.KeyPath,
        source: inout ConfigurationSource,
        depth: Int
    ) throws(ConfigurationError) -> JSONValue {
        if let mark = node.mark { source.marks[path] = (mark.line, mark.column) }
        guard depth < 64 else {
            throw source.locate(ConfigurationError("nesting deeper than 64 levels", at: path))
        }
        switch node {
        case .scalar(let scalar):
            switch Tag.Name(rawValue: node.tag.description) {
            case .null: return .null
            case .bool: if let b = node.bool { return .bool(b) }
            case .int:
                if let i = node.int { return .number(JSONNumber(i)) }
                throw source.locate(ConfigurationError("'\(scalar.string)' is too large an integer", at: path))
            case .float:
                if let d = node.float, d.isFinite { return .number(JSONNumber(d)) }
                throw source.locate(ConfigurationError("'\(scalar.string)' is not a finite number", at: path))
            default: break
            }
            return .string(scalar.string)
        case .sequence(let sequence):
            var elements: [JSONValue] = []
            for (i, element) in sequence.enumerated() {
                elements.append(try convert(element, path: path.appending(i), source: &source, depth: depth + 1))
            }
            return .array(elements)
        case .mapping(let mapping):
            var object = JSONObject()
            for (keyNode, valueNode) in mapping {
                guard case .scalar(let keyScalar) = keyNode else {
                    throw source.locate(ConfigurationError("a mapping key must be a plain scalar", at: path))
                }
                let key = keyScalar.string
                let childPath = path.appending(key)
                if let mark = keyNode.mark {
                    source.marks[childPath] = (mark.line, mark.column)
                    source.keyMarks[childPath] = (mark.line, mark.column)
                }
                let value = try convert(valueNode, path: childPath, source: &source, depth: depth + 1)
                // Point errors about a value at the value itself when it has a position.
                if let mark = valueNode.mark, case .scalar = valueNode { source.marks[childPath] = (mark.line, mark.column) }
                object[key] = value
            }
            return .object(object)
        case .alias:
            throw source.locate(ConfigurationError("YAML aliases are not supported in a configuration", at: path))
        }
    }
}
