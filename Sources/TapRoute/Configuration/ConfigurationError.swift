/// A configuration that cannot be used: what is wrong, at which key, and — when it was read
/// from a file — the file, line and column.
///
/// Reading a configuration reports **every** error it finds, not just the first: the thrown
/// value is the first error in file order, and ``errors`` lists all of them (this one
/// first), each with its own ``kind``, location and message. Its ``description`` reads like
/// compiler diagnostics, one line per error:
/// `config.yaml:7:11: error: adapters[1].id: unknown adapter id 'acme'; known: adobe, bird, dashx, link, taptalk`.
///
/// ```swift
/// do {
///     _ = try YAMLConfiguration.load(contentsOf: "config.yaml")
/// } catch {
///     for problem in error.errors where problem.kind == .unknownKey { print(problem.keyPath) }
/// }
/// ```
public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem it is, to switch on (the message is for people).
    public enum Kind: Sendable, Hashable {
        /// The file cannot be read, or is not UTF-8 text.
        case unreadable
        /// The text is not valid YAML.
        case syntax
        /// A mapping has the same key twice.
        case duplicateKey
        /// A YAML anchor, alias or merge key (`&a`, `*a`, `<<`): not accepted, so that a
        /// small file cannot expand into a huge document.
        case aliasNotAccepted
        /// The document is over a reading limit (its size in bytes, its number of nodes,
        /// its nesting depth).
        case limitExceeded
        /// A key that is not one of the keys allowed at its place.
        case unknownKey
        /// A required key is missing.
        case missingKey
        /// A value of the wrong type (a string where a list is expected, …).
        case typeMismatch
        /// A value of the right type that is not acceptable (a bad scheme, host, pattern,
        /// version, or a number out of range).
        case invalidValue
        /// An adapter id that no registered adapter has.
        case unknownAdapter
        /// An adapter listed twice.
        case duplicateAdapter
        /// A route no URL can reach: its scheme is not allowed, or an earlier route matches
        /// every URL it matches.
        case unreachableRoute
        /// An AASA file that cannot be read or is not valid, or is for a domain that is not
        /// one of `app.domains`.
        case aasaFile
    }

    /// What kind of problem it is.
    public var kind: Kind
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
    /// The errors found after this one, in file order.
    private var rest: [ConfigurationError]

    /// Creates an error.
    public init(
        _ message: String,
        kind: Kind = .invalidValue,
        at keyPath: KeyPath = KeyPath(),
        isAboutKey: Bool = false,
        file: String? = nil,
        line: Int? = nil,
        column: Int? = nil
    ) {
        self.kind = kind
        self.message = message
        self.keyPath = keyPath
        self.isAboutKey = isAboutKey
        self.file = file
        self.line = line
        self.column = column
        self.rest = []
    }

    /// One error that stands for all of `errors`: the first in file order, carrying the
    /// others in ``errors``. `nil` when `errors` is empty.
    ///
    /// Errors are grouped by file, the files in the order they first appear in `errors`
    /// (a configuration's own errors, then those of the definition files it names); within
    /// a file, errors with a line come first, in line and column order, and those without
    /// keep their order.
    public init?(collecting errors: [ConfigurationError]) {
        let flat = errors.flatMap(\.errors)
        var fileOrder: [String?: Int] = [:]
        for error in flat where fileOrder[error.file] == nil { fileOrder[error.file] = fileOrder.count }
        let ordered = flat.enumerated().sorted { a, b in
            let l = (fileOrder[a.element.file] ?? 0, a.element.line ?? .max, a.element.column ?? .max, a.offset)
            let r = (fileOrder[b.element.file] ?? 0, b.element.line ?? .max, b.element.column ?? .max, b.offset)
            return l < r
        }.map(\.element)
        guard var first = ordered.first else { return nil }
        first.rest = Array(ordered.dropFirst())
        self = first
    }

    /// Every error, in file order: this one, then the others found with it.
    public var errors: [ConfigurationError] {
        var head = self
        head.rest = []
        return [head] + rest
    }

    /// Applies `transform` to every error, keeping the order.
    public func map(_ transform: (ConfigurationError) -> ConfigurationError) -> ConfigurationError {
        ConfigurationError(collecting: errors.map(transform)) ?? self
    }

    /// `file:line:column: error: keyPath: message`, leaving out what is unknown; one line
    /// per error when there are several.
    public var description: String {
        errors.map(\.singleLine).joined(separator: "\n")
    }

    /// The description of this error alone.
    private var singleLine: String {
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

    /// This error (and each of ``errors``) with `prefix` put in front of its key path.
    public func prefixed(by prefix: KeyPath) -> ConfigurationError {
        map { error in
            var copy = error
            copy.keyPath = prefix + error.keyPath
            return copy
        }
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

        /// The last step and the steps before it, or `nil` at the root: a shared chain, so
        /// that ``appending(_:)-(String)`` is one small allocation however deep the path is
        /// (the definition compiler and the YAML reader extend a path at every node).
        private var last: Step?

        /// One step and the path before it.
        private final class Step: Sendable {
            let component: Component
            let parent: Step?
            /// How many steps from the root to this one, this one included.
            let count: Int

            init(_ component: Component, after parent: Step?) {
                self.component = component
                self.parent = parent
                self.count = (parent?.count ?? 0) + 1
            }
        }

        private init(last: Step?) { self.last = last }

        /// The steps, from the root.
        public var components: [Component] {
            get {
                var out: [Component] = []
                out.reserveCapacity(count)
                var step = last
                while let current = step {
                    out.append(current.component)
                    step = current.parent
                }
                out.reverse()
                return out
            }
            set { self = KeyPath(newValue) }
        }

        /// How many steps the path has.
        public var count: Int { last?.count ?? 0 }

        /// Creates a key path.
        public init(_ components: [Component] = []) {
            var last: Step?
            for component in components { last = Step(component, after: last) }
            self.last = last
        }

        /// Creates a key path from a literal list of components.
        public init(arrayLiteral elements: Component...) { self.init(elements) }

        /// Whether this is the root.
        public var isEmpty: Bool { last == nil }

        /// This path followed by `key`.
        public func appending(_ key: String) -> KeyPath { KeyPath(last: Step(.key(key), after: last)) }

        /// This path followed by `index`.
        public func appending(_ index: Int) -> KeyPath { KeyPath(last: Step(.index(index), after: last)) }

        /// This path without its last step; the root stays the root.
        public func removingLast() -> KeyPath { KeyPath(last: last?.parent) }

        /// Whether both paths have the same steps.
        public static func == (lhs: KeyPath, rhs: KeyPath) -> Bool {
            guard lhs.count == rhs.count else { return false }
            var left = lhs.last
            var right = rhs.last
            while let l = left, let r = right {
                if l === r { return true }
                if l.component != r.component { return false }
                left = l.parent
                right = r.parent
            }
            return true
        }

        /// Hashes the steps (from the last to the first, the same order for equal paths).
        public func hash(into hasher: inout Hasher) {
            hasher.combine(count)
            var step = last
            while let current = step {
                hasher.combine(current.component)
                step = current.parent
            }
        }

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
        public static func + (lhs: KeyPath, rhs: KeyPath) -> KeyPath {
            var last = lhs.last
            for component in rhs.components { last = Step(component, after: last) }
            return KeyPath(last: last)
        }
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

    /// Fills in the file, line and column of `error` (and of each of its ``ConfigurationError/errors``)
    /// from the longest known prefix of its key path, and puts them in file order.
    public func locate(_ error: ConfigurationError) -> ConfigurationError {
        error.map(locateOne)
    }

    private func locateOne(_ error: ConfigurationError) -> ConfigurationError {
        var located = error
        if located.file == nil { located.file = file }
        guard located.line == nil else { return located }
        if error.isAboutKey, let mark = keyMarks[error.keyPath] {
            located.line = mark.line
            located.column = mark.column
            return located
        }
        var path = error.keyPath
        while true {
            if let mark = marks[path] {
                located.line = mark.line
                located.column = mark.column
                return located
            }
            if path.isEmpty { return located }
            path = path.removingLast()
        }
    }
}
