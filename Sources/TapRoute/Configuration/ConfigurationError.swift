/// A configuration that cannot be used: what is wrong, at which key, and — when it was read
/// from a file — the file, line and column.
///
/// Its ``description`` reads like a compiler diagnostic:
/// `config.yaml:7:11: error: adapters[1].id: unknown adapter id 'acme'; known: adobe, bird, dashx, link, taptalk`.
public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, as a sentence.
    public var message: String
    /// The key path of the offending value, such as `adapters[1].channels.push`.
    public var keyPath: KeyPath
    /// The file it was read from, when known.
    public var file: String?
    /// The 1-based line, when known.
    public var line: Int?
    /// The 1-based column, when known.
    public var column: Int?
    /// Whether the error is about the key itself (an unknown key) rather than its value;
    /// it is then located at the key.
    public var isAboutKey: Bool

    /// Creates an error.
    public init(
        _ message: String,
        at keyPath: KeyPath = KeyPath(),
        isAboutKey: Bool = false,
        file: String? = nil,
        line: Int? = nil,
        column: Int? = nil
    ) {
        self.message = message
        self.keyPath = keyPath
        self.isAboutKey = isAboutKey
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column: error: keyPath: message`, leaving out what is unknown.
    public var description: String {
        var location = ""
        if let file {
            location = file
            if let line {
                location += ":\(line)"
                if let column { location += ":\(column)" }
            }
            location += ": "
        }
        let path = keyPath.isEmpty ? "" : "\(keyPath): "
        return "\(location)error: \(path)\(message)"
    }

    /// This error with `prefix` put in front of its key path.
    public func prefixed(by prefix: KeyPath) -> ConfigurationError {
        var copy = self
        copy.keyPath = prefix + keyPath
        return copy
    }

    /// A key path into a configuration document: keys and array indices.
    public struct KeyPath: Sendable, Hashable, CustomStringConvertible, ExpressibleByArrayLiteral {
        /// One step of a key path.
        public enum Component: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
            /// A key in a mapping.
            case key(String)
            /// An index in a sequence.
            case index(Int)

            /// A key.
            public init(stringLiteral value: String) { self = .key(value) }
            /// An index.
            public init(integerLiteral value: Int) { self = .index(value) }
        }

        /// The steps, from the root.
        public var components: [Component]

        /// Creates a key path.
        public init(_ components: [Component] = []) { self.components = components }

        /// Creates a key path from a literal list of components.
        public init(arrayLiteral elements: Component...) { self.components = elements }

        /// Whether this is the root.
        public var isEmpty: Bool { components.isEmpty }

        /// This path followed by `key`.
        public func appending(_ key: String) -> KeyPath { KeyPath(components + [.key(key)]) }

        /// This path followed by `index`.
        public func appending(_ index: Int) -> KeyPath { KeyPath(components + [.index(index)]) }

        /// `a.b[2].c`.
        public var description: String {
            var out = ""
            for component in components {
                switch component {
                case .key(let key):
                    if !out.isEmpty { out += "." }
                    out += key
                case .index(let i): out += "[\(i)]"
                }
            }
            return out
        }

        /// Concatenates two key paths.
        public static func + (lhs: KeyPath, rhs: KeyPath) -> KeyPath { KeyPath(lhs.components + rhs.components) }
    }
}

/// Where each key of a configuration document was written, so that errors found after
/// parsing (by the registry, by an adapter) can name the file, line and column.
public struct ConfigurationSource: Sendable {
    /// The file name as the user gave it (or a description such as `<embedded default>`).
    public var file: String
    /// The line and column of each key path's value.
    public var marks: [ConfigurationError.KeyPath: (line: Int, column: Int)]
    /// The line and column of each key path's key, for errors about the key itself.
    public var keyMarks: [ConfigurationError.KeyPath: (line: Int, column: Int)]

    /// Creates a source map.
    public init(
        file: String,
        marks: [ConfigurationError.KeyPath: (line: Int, column: Int)] = [:],
        keyMarks: [ConfigurationError.KeyPath: (line: Int, column: Int)] = [:]
    ) {
        self.file = file
        self.marks = marks
        self.keyMarks = keyMarks
    }

    /// Fills in `error`'s file, line and column from the longest known prefix of its key
    /// path.
    public func locate(_ error: ConfigurationError) -> ConfigurationError {
        var located = error
        if located.file == nil { located.file = file }
        guard located.line == nil else { return located }
        if error.isAboutKey, let mark = keyMarks[error.keyPath] {
            located.line = mark.line
            located.column = mark.column
            return located
        }
        var components = error.keyPath.components
        while true {
            if let mark = marks[ConfigurationError.KeyPath(components)] {
                located.line = mark.line
                located.column = mark.column
                return located
            }
            if components.isEmpty { return located }
            components.removeLast()
        }
    }
}
