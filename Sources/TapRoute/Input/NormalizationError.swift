/// Why an input could not become an ``Interaction``.
///
/// Every error has a stable ``code``, a sentence ``message`` that quotes the offending
/// value, and the JSONPath-style ``path`` of the key at fault (`$` for the whole record). The
/// CLI writes it as `{"error":{"code":…,"message":…,"line":…,"path":…}}`.
public struct NormalizationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable camelCase identifier.
    public var code: Code
    /// A sentence for people.
    public var message: String
    /// Where in the input record the problem is, such as `$.userInfo.dashx`.
    public var path: String

    /// Creates an error.
    public init(_ code: Code, _ message: String, path: String = "$") {
        self.code = code
        self.message = message
        self.path = path
    }

    /// `code at path: message`.
    public var description: String { "\(code.rawValue) at \(path): \(message)" }

    /// The JSON form written by the CLI (without the line number, which only the reader knows).
    public var jsonValue: JSONValue {
        ["code": .string(code.rawValue), "message": .string(message), "path": .string(path)]
    }

    /// A stable error identifier.
    public struct Code: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// The camelCase identifier.
        public let rawValue: String
        /// Creates a code.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Creates a code from a literal.
        public init(stringLiteral value: String) { self.rawValue = value }
        /// The identifier.
        public var description: String { rawValue }

        /// The record is not valid JSON.
        public static let invalidJSON: Code = "invalidJSON"
        /// The record is valid JSON but not an object.
        public static let notAnObject: Code = "notAnObject"
        /// The envelope is malformed (unknown `kind`, a missing or mistyped field).
        public static let invalidEnvelope: Code = "invalidEnvelope"
        /// The envelope names a vendor no enabled adapter has.
        public static let unknownVendor: Code = "unknownVendor"
        /// No adapter recognizes the input (and it is not a link).
        public static let unrecognized: Code = "unrecognized"
        /// The adapter recognized the input, but the vendor's payload is invalid in a way
        /// the vendor's own SDK rejects too.
        public static let invalidPayload: Code = "invalidPayload"
        /// The input is a vendor event that is not a user interaction (e.g. "received").
        public static let notAnInteraction: Code = "notAnInteraction"
        /// The record exceeds a configured limit (size, nesting depth).
        public static let limitExceeded: Code = "limitExceeded"
    }
}

extension NormalizationError {
    /// An ``Code/invalidPayload`` error.
    public static func invalidPayload(_ message: String, path: String = "$") -> NormalizationError {
        NormalizationError(.invalidPayload, message, path: path)
    }

    /// An ``Code/invalidEnvelope`` error.
    public static func invalidEnvelope(_ message: String, path: String = "$") -> NormalizationError {
        NormalizationError(.invalidEnvelope, message, path: path)
    }
}
