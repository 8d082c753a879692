/// Why an input could not become an ``Interaction``.
///
/// Every error has a stable ``code``, a sentence ``message`` that quotes the offending
/// value, and the JSONPath-style ``path`` of the key at fault (`$` for the whole record). The
/// CLI writes it as `{"error":{"code":…,"message":…,"line":…,"path":…}}`.
///
/// The errors TapRoute itself raises while reading a record or choosing an adapter also carry
/// a typed ``cause`` with their data (the limit and the sizes, the JSON syntax problem and its
/// line and column, the vendor id): decide on ``code`` and ``cause``, never on ``message``.
public struct NormalizationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable camelCase identifier.
    public var code: Code
    /// A sentence for people.
    public var message: String
    /// Where in the input record the problem is, such as `$.userInfo.dashx`.
    public var path: String
    /// What went wrong, with its data, for the errors the reader and the registry raise;
    /// `nil` for an adapter's error, which its ``code`` and ``path`` describe.
    public var cause: Cause?

    /// Creates an error.
    public init(_ code: Code, _ message: String, path: String = "$", cause: Cause? = nil) {
        self.code = code
        self.message = message
        self.path = path
        self.cause = cause
    }

    /// What went wrong, with its data: the typed form of the errors TapRoute raises itself.
    public enum Cause: Sendable, Hashable {
        /// The record is not valid JSON (``Code/invalidJSON``), with the parser's problem and
        /// where it is in the input.
        case invalidJSON(JSONParseError)
        /// The record exceeds a limit (``Code/limitExceeded``).
        case limitExceeded(LimitExceeded)
        /// The record is valid JSON but not an object (``Code/notAnObject``); the JSON type
        /// found ("an array").
        case notAnObject(found: String)
        /// The envelope names a vendor no enabled adapter has (``Code/unknownVendor``).
        case unknownVendor(String)
        /// No adapter recognizes the input (``Code/unrecognized``): `vendor` is the adapter
        /// the envelope named, `nil` when none did and detection found none.
        case unrecognized(vendor: String?)
    }

    /// The ``Code/limitExceeded`` error for `limit`, with its message.
    public static func limitExceeded(_ limit: LimitExceeded, path: String = "$") -> NormalizationError {
        NormalizationError(.limitExceeded, limit.message, path: path, cause: .limitExceeded(limit))
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

/// A limit of ``Limits`` that a record exceeds, with the numbers.
public enum LimitExceeded: Sendable, Hashable {
    /// A record (a JSON line, an element of a document's array) of `size` bytes, more than
    /// `limit` (`limits.maxRecordBytes`).
    case recordBytes(size: Int, limit: Int)
    /// A document that is not an array, longer than `limit` (`limits.maxRecordBytes`): it is
    /// one record, and it is read only up to the limit, so its whole size is not known.
    case documentBytes(limit: Int)
    /// A record nesting arrays and objects deeper than `limit` (`limits.maxDepth`) levels;
    /// `line` and `column` locate the first bracket too deep, in the input.
    case depth(limit: Int, line: Int, column: Int)

    /// The setting exceeded: `limits.maxRecordBytes` or `limits.maxDepth`.
    public var setting: String {
        switch self {
        case .recordBytes, .documentBytes: "limits.maxRecordBytes"
        case .depth: "limits.maxDepth"
        }
    }

    /// The setting's value.
    public var limit: Int {
        switch self {
        case .recordBytes(_, let limit), .documentBytes(let limit), .depth(let limit, _, _): limit
        }
    }

    /// The sentence the error record shows.
    public var message: String {
        switch self {
        case .recordBytes(let size, let limit): "record is \(size) bytes; limits.maxRecordBytes is \(limit)"
        case .documentBytes(let limit):
            "the document is longer than limits.maxRecordBytes (\(limit) bytes); a document that is not an array is one record"
        case .depth(let limit, let line, let column):
            "nesting deeper than \(limit) levels (limits.maxDepth) at line \(line) column \(column)"
        }
    }
}
