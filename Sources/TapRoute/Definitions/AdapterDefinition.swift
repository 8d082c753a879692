/// A compiled declarative adapter: a vendor's (or an app's own) payload conventions, written
/// as data (docs/declarative-adapters.md) and compiled once into an immutable plan.
///
/// A registry knows a definition by its ``id`` exactly like an adapter type, and enables it by
/// id from the configuration; the adapter it builds (``DefinitionAdapter``) reads inputs
/// through the same ``PayloadReader`` as Swift adapters and returns the same
/// ``AdapterResult``.
///
/// ```swift
/// let definition = try AdapterDefinition(json: JSONValue(parsing: text))
/// let registry = try AdapterRegistry(configuration: configuration, adapterTypes: [], definitions: [definition])
/// ```
public struct AdapterDefinition: Sendable, Hashable {
    /// The adapter id (`config.yaml`, envelopes' `vendor`, ``Interaction/vendor``).
    public let id: String
    /// One line saying what the definition reads, for `normalize adapters`.
    public let summary: String
    /// Where a definition comes from, for listings.
    public enum Origin: Sendable, Hashable {
        /// Shipped compiled into the library (`adapters/<Vendor>/<id>.yaml`).
        case builtIn
        /// Read from the file at this path.
        case file(String)
        /// Given as text or a value by the host.
        case text
    }
    /// Where it comes from.
    public let origin: Origin
    /// The document it was compiled from.
    public let document: JSONValue
    /// The compiled plan.
    let plan: DefinitionPlan

    /// Compiles a definition document (the YAML already turned into JSON by TapRouteYAML, or
    /// parsed JSON text).
    ///
    /// - Parameters:
    ///   - json: the document.
    ///   - source: where each key of the document was written, to locate errors at
    ///     `file:line:column`.
    ///   - origin: where the definition comes from.
    /// - Throws: ``ConfigurationError`` for every mistake found (``ConfigurationError/errors``),
    ///   each naming the key path inside the definition (`destination[1].url`) and located
    ///   through `source` when given; ``ConfigurationError/Kind/limitExceeded`` for a document
    ///   over the format's bounds (``DefinitionBounds``).
    public init(json: JSONValue, source: ConfigurationSource? = nil, origin: Origin = .text) throws(ConfigurationError) {
        var errors = ConfigurationErrorList()
        let compiled = DefinitionCompiler.compile(json, errors: &errors)
        if let error = ConfigurationError(collecting: errors.list) {
            throw source?.locate(error) ?? error
        }
        guard let compiled else {
            throw ConfigurationError("the definition could not be compiled", kind: .invalidValue)
        }
        self.id = compiled.id
        self.summary = compiled.summary
        self.origin = origin
        self.document = json
        self.plan = compiled.plan
    }

    /// Where it comes from, for messages: `built in`, `from <file>`, `given as text`.
    public var originDescription: String {
        switch origin {
        case .builtIn: "built in"
        case .file(let path): "from \(path)"
        case .text: "given as text"
        }
    }

    /// Definitions are equal when they have the same id, summary, origin and document.
    public static func == (lhs: AdapterDefinition, rhs: AdapterDefinition) -> Bool {
        lhs.id == rhs.id && lhs.summary == rhs.summary && lhs.origin == rhs.origin && lhs.document == rhs.document
    }

    /// Hashes the id, origin and document.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(origin)
        hasher.combine(document)
    }
}

/// The bounds a definition document must stay within, so that a hostile definition cannot
/// make compiling or running it slow or large.
public enum DefinitionBounds {
    /// The deepest nesting of the document (mappings and lists).
    public static let maxDocumentDepth = 48
    /// The most nodes (every mapping, list and scalar) in the document.
    public static let maxNodes = 10_000
    /// The deepest nesting of predicates (`all`, `any`, `not`).
    public static let maxPredicateDepth = 16
    /// The most steps in one path.
    public static let maxPathSteps = 32
    /// The most rules, literals, paths or spellings in one list.
    public static let maxListLength = 256
    /// The most list searches (`[field=…]` steps) and, separately, the most JSON decodings
    /// (`as: json`) in one definition: each may read the whole input once per record.
    public static let maxSearches = 64
    /// The longest message template or path, in UTF-8 bytes.
    public static let maxTextBytes = 1024
}
