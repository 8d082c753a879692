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
            throw ConformanceError(.vectorNotAnObject(found: json.typeDescription), location: location)
        }
        for key in o.keys where !["description", "input", "config", "expected"].contains(key) {
            throw ConformanceError(.unknownVectorKey(key), location: location)
        }
        guard case .string(let description)? = o["description"], !description.isEmpty else {
            throw ConformanceError(.invalidVectorField(field: "description", requirement: "a non-empty string"), location: location)
        }
        guard let input = o["input"] else { throw ConformanceError(.missingInput, location: location) }
        guard case .object(let expected)? = o["expected"] else {
            throw ConformanceError(.invalidVectorField(field: "expected", requirement: "an object"), location: location)
        }
        if let config = o["config"] {
            switch config {
            case .object, .string: break
            default:
                throw ConformanceError(
                    .invalidVectorField(field: "config", requirement: "an object or a YAML string"),
                    location: location
                )
            }
        }
        let expectation: Expected
        if let error = expected["error"] {
            guard case .object(let e) = error, case .string(let code)? = e["code"] else {
                throw ConformanceError(.invalidVectorField(field: "expected.error.code", requirement: "a string"), location: location)
            }
            expectation = .error(code: code, path: e["path"]?.stringValue)
        } else {
            do {
                _ = try Interaction(jsonValue: .object(expected))
            } catch {
                throw ConformanceError(.notCanonical(error), location: location)
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
    /// The encode vectors (``EncodeVector``): the `encode/` folder of a vector directory.
    public var encodeVectors: [EncodeVector]

    /// Wraps vectors built in code.
    public init(_ vectors: [ConformanceVector], encodeVectors: [EncodeVector] = []) {
        self.vectors = vectors
        self.encodeVectors = encodeVectors
    }

    /// Reads every `*.json` file in a directory (not recursively), in file-name order, and the
    /// encode vectors of its `encode/` folder when there is one.
    /// - Throws: ``ConformanceError`` for an unreadable directory, an invalid file, or no
    ///   vectors at all.
    public static func directory(_ path: String) throws(ConformanceError) -> ConformanceVectors {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(".json") }.sorted()
        } catch {
            throw ConformanceError(.unreadableDirectory(reason: error.localizedDescription), location: path)
        }
        var vectors: [ConformanceVector] = []
        for name in names {
            vectors += try file(path + "/" + name).vectors
        }
        guard !vectors.isEmpty else { throw ConformanceError(.noVectors, location: path) }
        return ConformanceVectors(vectors, encodeVectors: try EncodeVector.directory(path + "/encode"))
    }

    /// Reads the vectors in one file: a vector object or an array of them.
    /// - Throws: ``ConformanceError``.
    public static func file(_ path: String) throws(ConformanceError) -> ConformanceVectors {
        let json = try jsonFile(path)
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

    /// The JSON document of a vector file.
    /// - Throws: ``ConformanceError`` for a file that cannot be read or is not JSON.
    static func jsonFile(_ path: String) throws(ConformanceError) -> JSONValue {
        let bytes: [UInt8]
        do {
            bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw ConformanceError(.unreadableFile(reason: error.localizedDescription), location: path)
        }
        do {
            return try JSONParser().parse(bytes)
        } catch {
            throw ConformanceError(.invalidJSON(error), location: path)
        }
    }

    /// Reads the vectors a bundle carries as resources in `subdirectory` (for adapters that
    /// ship vectors as test resources: `resources: [.copy("Vectors")]`, then
    /// `.bundled(in: .module, subdirectory: "Vectors")`).
    /// - Throws: ``ConformanceError``.
    public static func bundled(in bundle: Bundle, subdirectory: String = "Vectors") throws(ConformanceError) -> ConformanceVectors {
        guard let url = bundle.resourceURL?.appendingPathComponent(subdirectory) else {
            throw ConformanceError(.noResourceDirectory, location: subdirectory)
        }
        return try directory(url.path)
    }
}

/// A problem with the conformance kit's inputs (a vector file, a base configuration, the
/// seed variable) — not a conformance failure, which is a ``ConformanceFinding``.
public struct ConformanceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, with the data.
    public enum Kind: Sendable, Hashable {
        /// A vector that is not a JSON object; the JSON type found.
        case vectorNotAnObject(found: String)
        /// A key a vector does not have.
        case unknownVectorKey(String)
        /// A vector without its `input`.
        case missingInput
        /// A vector field of the wrong type or empty: the field, and what it must be.
        case invalidVectorField(field: String, requirement: String)
        /// An `expected` Interaction that is not canonical.
        case notCanonical(ModelDecodingError)
        /// A directory of vectors that cannot be listed; the system's reason.
        case unreadableDirectory(reason: String)
        /// A directory without any `*.json` vector.
        case noVectors
        /// A vector file that cannot be read; the system's reason.
        case unreadableFile(reason: String)
        /// A vector file that is not JSON.
        case invalidJSON(JSONParseError)
        /// A bundle without resources.
        case noResourceDirectory
        /// A base configuration that cannot be read; its errors.
        case invalidBaseConfiguration(ConfigurationError)
        /// A base configuration document handed to a child process that is not JSON.
        case invalidBaseDocument(JSONParseError)
        /// A base configuration that does not enable the adapter under test; its id.
        case adapterNotEnabled(String)
        /// A vector's `config` YAML that cannot be read; its errors.
        case invalidVectorConfigYAML(ConfigurationError)
        /// A vector's configuration (the base with its `config` over it) that gives no
        /// registry; its errors.
        case invalidVectorConfiguration(ConfigurationError)
        /// A vector handed to a child process that is not JSON.
        case unreadableTransport(JSONParseError)
        /// An adapter type a child process cannot find by name (private, fileprivate or
        /// local); the type.
        case adapterTypeNotNamed(String)
        /// A mangled adapter type name a child process cannot resolve.
        case adapterTypeNotFound(String)
        /// A vector handed to a child process without its description, location or input.
        case incompleteTransport
        /// A vector handed to a child process without its expectation.
        case missingExpectation
        /// A seed variable that is not a seed; its value.
        case invalidSeed(String)
        /// An adapter definition handed to a child process that no longer compiles.
        case invalidDefinition(ConfigurationError)
        /// An error a child process reported (already in words: it crossed a process).
        case childProcess(message: String)
    }

    /// The file (and index), or the variable, at fault.
    public var location: String
    /// What is wrong, with the data.
    public var kind: Kind

    /// Creates an error.
    public init(_ kind: Kind, location: String) {
        self.kind = kind
        self.location = location
    }

    /// What is wrong, as a sentence derived from ``kind``.
    public var message: String {
        switch kind {
        case .vectorNotAnObject(let found): "a vector must be a JSON object, got \(found)"
        case .unknownVectorKey(let key): "unknown key '\(key)' in a vector"
        case .missingInput: "'input' is missing"
        case .invalidVectorField(let field, let requirement): "'\(field)' must be \(requirement)"
        case .notCanonical(let error): "'expected' is not a canonical Interaction: \(error)"
        case .unreadableDirectory(let reason): "cannot list the directory: \(reason)"
        case .noVectors: "no vectors (*.json files) found"
        case .unreadableFile(let reason): "cannot read the file: \(reason)"
        case .invalidJSON(let error): "not valid JSON: \(error)"
        case .noResourceDirectory: "the bundle has no resource directory"
        case .invalidBaseConfiguration(let error): error.description
        case .invalidBaseDocument(let error): "\(error)"
        case .adapterNotEnabled(let id): "the adapter '\(id)' is not enabled"
        case .invalidVectorConfigYAML(let error): "config: \(error)"
        case .invalidVectorConfiguration(let error): "configuration: \(error)"
        case .unreadableTransport(let error): "a vector arrived unreadable: \(error)"
        case .adapterTypeNotNamed(let type):
            "the adapter type \(type) cannot be found by name in a child process, where the kit runs it to"
                + " catch crashes; declare it internal or public (not private, fileprivate or inside a function)"
        case .adapterTypeNotFound(let name): "cannot find the adapter type \(name)"
        case .incompleteTransport: "a vector arrived incomplete"
        case .missingExpectation: "a vector arrived without its expectation"
        case .invalidSeed(let text): "'\(text)' is not a seed; expected a decimal or 0x-hexadecimal 64-bit number, or 'random'"
        case .childProcess(let message): message
        case .invalidDefinition(let error): "definition: \(error)"
        }
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
                throw ConformanceError(.invalidBaseConfiguration(error), location: "<base configuration>")
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
        else { throw ConformanceError(.incompleteTransport, location: "<child process>") }
        let expected: Expected
        if let interaction = value["expected"] {
            expected = .interaction(interaction)
        } else if case .string(let code)? = value["error"]?["code"] {
            expected = .error(code: code, path: value["error"]?["path"]?.stringValue)
        } else {
            throw ConformanceError(.missingExpectation, location: location)
        }
        self.init(description: description, location: location, input: input, config: value["config"], expected: expected)
        directory = value["directory"]?.stringValue
    }
}
