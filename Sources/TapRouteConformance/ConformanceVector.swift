public import Foundation
public import TapRoute
import TapRouteYAML

/// One conformance vector: an input envelope, optional configuration overrides, and the
/// expected result.
///
/// On disk a vector is a JSON file (or one element of a JSON array in a file):
///
/// ```json
/// {
///   "description": "DashX url wins over click_action",
///   "input": {"kind": "notification", "userInfo": {"dashx": "{…}"}},
///   "config": {"defaults": {"automaticallyOpenDeeplinks": false}},
///   "expected": {"vendor": "dashx", "channel": "push", …}
/// }
/// ```
///
/// `config` is optional: a JSON object or a YAML string whose top-level keys replace those
/// of the base configuration. `expected` is either the complete canonical `Interaction` JSON
/// or `{"error": {"code": …, "path": …?}}`.
public struct ConformanceVector: Sendable, Hashable {
    /// What the vector proves.
    public var description: String
    /// Where it was read from (`file` or `file[index]`), for messages.
    public var location: String
    /// The input envelope.
    public var input: JSONValue
    /// Configuration overrides (top-level keys replace the base configuration's).
    public var config: JSONValue?
    /// The expected result.
    public var expected: Expected
    /// The folder the vector was read from; relative paths in its `config` (such as
    /// `app.aasa` files) are resolved against it.
    public var directory: String?

    /// What a vector expects.
    public enum Expected: Sendable, Hashable {
        /// This canonical Interaction JSON.
        case interaction(JSONValue)
        /// An error with this code and, when given, this path.
        case error(code: String, path: String?)
    }

    /// Creates a vector.
    public init(description: String, location: String, input: JSONValue, config: JSONValue? = nil, expected: Expected) {
        self.description = description
        self.location = location
        self.input = input
        self.config = config
        self.expected = expected
    }

    /// Reads a vector from its JSON form.
    /// - Throws: ``ConformanceError`` naming the location and key that is wrong.
    public init(json: JSONValue, location: String) throws(ConformanceError) {
        guard case .object(let o) = json else {
            throw ConformanceError(location: location, message: "a vector must be a JSON object, got \(json.typeDescription)")
        }
        for key in o.keys where !["description", "input", "config", "expected"].contains(key) {
            throw ConformanceError(location: location, message: "unknown key '\(key)' in a vector")
        }
        guard case .string(let description)? = o["description"], !description.isEmpty else {
            throw ConformanceError(location: location, message: "'description' must be a non-empty string")
        }
        guard let input = o["input"] else { throw ConformanceError(location: location, message: "'input' is missing") }
        guard case .object(let expected)? = o["expected"] else {
            throw ConformanceError(location: location, message: "'expected' must be an object")
        }
        if let config = o["config"] {
            switch config {
            case .object, .string: break
            default: throw ConformanceError(location: location, message: "'config' must be an object or a YAML string")
            }
        }
        let expectation: Expected
        if let error = expected["error"] {
            guard case .object(let e) = error, case .string(let code)? = e["code"] else {
                throw ConformanceError(location: location, message: "'expected.error.code' must be a string")
            }
            expectation = .error(code: code, path: e["path"]?.stringValue)
        } else {
            do {
                _ = try Interaction(jsonValue: .object(expected))
            } catch {
                throw ConformanceError(location: location, message: "'expected' is not a canonical Interaction: \(error)")
            }
            expectation = .interaction(.object(expected))
        }
        self.init(description: description, location: location, input: input, config: o["config"], expected: expectation)
    }
}

/// A set of conformance vectors.
public struct ConformanceVectors: Sendable {
    /// The vectors, in file-name order.
    public var vectors: [ConformanceVector]

    /// Wraps vectors built in code.
    public init(_ vectors: [ConformanceVector]) {
        self.vectors = vectors
    }

    /// Reads every `*.json` file in a directory (not recursively), in file-name order.
    /// - Throws: ``ConformanceError`` for an unreadable directory, an invalid file, or no
    ///   vectors at all.
    public static func directory(_ path: String) throws(ConformanceError) -> ConformanceVectors {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(".json") }.sorted()
        } catch {
            throw ConformanceError(location: path, message: "cannot list the directory: \(error.localizedDescription)")
        }
        var vectors: [ConformanceVector] = []
        for name in names {
            vectors += try file(path + "/" + name).vectors
        }
        guard !vectors.isEmpty else { throw ConformanceError(location: path, message: "no vectors (*.json files) found") }
        return ConformanceVectors(vectors)
    }

    /// Reads the vectors in one file: a vector object or an array of them.
    /// - Throws: ``ConformanceError``.
    public static func file(_ path: String) throws(ConformanceError) -> ConformanceVectors {
        let bytes: [UInt8]
        do {
            bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw ConformanceError(location: path, message: "cannot read the file: \(error.localizedDescription)")
        }
        let json: JSONValue
        do {
            json = try JSONParser().parse(bytes)
        } catch {
            throw ConformanceError(location: path, message: "not valid JSON: \(error)")
        }
        let name = (path as NSString).lastPathComponent
        let directory = (path as NSString).deletingLastPathComponent
        var vectors: [ConformanceVector] = []
        if case .array(let elements) = json {
            for (i, element) in elements.enumerated() {
                vectors.append(try ConformanceVector(json: element, location: "\(name)[\(i)]"))
            }
        } else {
            vectors.append(try ConformanceVector(json: json, location: name))
        }
        for i in vectors.indices { vectors[i].directory = directory }
        return ConformanceVectors(vectors)
    }

    /// Reads the vectors a bundle carries as resources in `subdirectory` (for adapters that
    /// ship vectors as test resources: `resources: [.copy("Vectors")]`, then
    /// `.bundled(in: .module, subdirectory: "Vectors")`).
    /// - Throws: ``ConformanceError``.
    public static func bundled(in bundle: Bundle, subdirectory: String = "Vectors") throws(ConformanceError) -> ConformanceVectors {
        guard let url = bundle.resourceURL?.appendingPathComponent(subdirectory) else {
            throw ConformanceError(location: subdirectory, message: "the bundle has no resource directory")
        }
        return try directory(url.path)
    }
}

/// A problem with the conformance kit's inputs (a vector file, a base configuration, the
/// seed variable) — not a conformance failure, which is a ``ConformanceFinding``.
public struct ConformanceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file (and index), or the variable, at fault.
    public var location: String
    /// What is wrong.
    public var message: String

    /// Creates an error.
    public init(location: String, message: String) {
        self.location = location
        self.message = message
    }

    /// `location: message`.
    public var description: String { "\(location): \(message)" }
}

/// The configuration a conformance run starts from, before each vector's overrides.
public enum BaseConfiguration: Sendable {
    /// A configuration that enables only the adapter under test, with no app schemes,
    /// domains or routes, and the default security settings.
    case adapterOnly
    /// A configuration document in YAML (e.g. the repository's `config.yaml`).
    case yaml(String)
    /// A configuration document as JSON.
    case json(JSONValue)

    func document(adapterID: String) throws(ConformanceError) -> JSONValue {
        switch self {
        case .adapterOnly:
            return ["version": 1, "adapters": [["id": .string(adapterID)]]]
        case .json(let value):
            return value
        case .yaml(let text):
            do {
                return try YAMLConfiguration.document(yaml: text, file: "<base configuration>").0
            } catch {
                throw ConformanceError(location: "<base configuration>", message: error.description)
            }
        }
    }
}

extension ConformanceVector {
    /// The vector with its location and folder as JSON, to hand it to a child process.
    var transport: JSONValue {
        var o: JSONObject = ["description": .string(description), "location": .string(location), "input": input]
        if let config { o["config"] = config }
        if let directory { o["directory"] = .string(directory) }
        switch expected {
        case .interaction(let interaction):
            o["expected"] = interaction
        case .error(let code, let path):
            var error: JSONObject = ["code": .string(code)]
            if let path { error["path"] = .string(path) }
            o["error"] = .object(error)
        }
        return .object(o)
    }

    /// Reads ``transport`` back.
    init(transport value: JSONValue) throws(ConformanceError) {
        guard case .string(let description)? = value["description"], case .string(let location)? = value["location"],
            let input = value["input"]
        else { throw ConformanceError(location: "<child process>", message: "a vector arrived incomplete") }
        let expected: Expected
        if let interaction = value["expected"] {
            expected = .interaction(interaction)
        } else if case .string(let code)? = value["error"]?["code"] {
            expected = .error(code: code, path: value["error"]?["path"]?.stringValue)
        } else {
            throw ConformanceError(location: location, message: "a vector arrived without its expectation")
        }
        self.init(description: description, location: location, input: input, config: value["config"], expected: expected)
        directory = value["directory"]?.stringValue
    }
}
