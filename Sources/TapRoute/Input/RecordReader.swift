/// Turns one record's bytes into a ``JSONValue`` under the configuration's ``Limits``: the one
/// reader of records, for JSON Lines, for the records of a document (an array's elements, or
/// the whole document), and for ``AdapterRegistry/normalize(record:)``, so that the same record
/// gives the same value or the same error whichever way it arrives.
///
/// A record is refused with a ``NormalizationError`` whose ``NormalizationError/cause`` says
/// why:
/// - more than `limits.maxRecordBytes` bytes: `limitExceeded`,
///   ``LimitExceeded/recordBytes(size:limit:)``;
/// - arrays and objects nested deeper than `limits.maxDepth`: `limitExceeded`,
///   ``LimitExceeded/depth(limit:line:column:)``;
/// - anything else that is not one JSON value: `invalidJSON`, with the parser's
///   ``JSONParseError``.
///
/// Every line and column is counted in the input the record came from: pass where the record
/// starts (`line`, `column`).
public struct RecordReader: Sendable {
    /// The limits applied.
    public let limits: Limits
    /// Read every string with the parser's reference reader (one byte at a time): slower,
    /// the same result. For checking the fast path.
    package var readsStringsInOrder = false
    /// Read the text of a notification's alert for its kind only
    /// (``JSONParser/alertTextReadForKind``): for a registry none of whose adapters reads it
    /// (``AdapterRegistry/normalizingReader``); the record's value is then not the whole
    /// record, so only that registry's normalizing reads it.
    package var alertTextReadForKind = false

    /// A reader applying `limits`.
    public init(limits: Limits) {
        self.limits = limits
    }

    /// Reads one record.
    /// - Parameters:
    ///   - record: the record's bytes (a JSON line without its newline, an element of an
    ///     array, a whole document).
    ///   - line: the 1-based line of the input on which the record starts.
    ///   - column: the 1-based column (in bytes) of the input at which the record starts.
    /// - Throws: ``NormalizationError`` (`limitExceeded` or `invalidJSON`, with its cause).
    public func read(_ record: UnsafeBufferPointer<UInt8>, line: Int = 1, column: Int = 1) throws(NormalizationError) -> JSONValue {
        if record.count > limits.maxRecordBytes {
            throw .limitExceeded(oversized(size: record.count))
        }
        let parser = self.parser
        let parsed = Result { () throws(JSONParseError) -> JSONValue in try parser.parse(record) }
        switch parsed {
        case .success(let value):
            return value
        case .failure(let error):
            throw Self.refusal(error, record: record, line: line, column: column)
        }
    }

    /// Reads one record as the input event it holds: the same event, or the same error, as
    /// `InputEvent(json:)` of ``read(_:line:column:)``'s value, without building the root
    /// object of an envelope whose first key is `kind` (``JSONParser``'s envelope reading).
    /// - Throws: ``NormalizationError`` (`limitExceeded`, `invalidJSON`, `notAnObject` or
    ///   `invalidEnvelope`).
    package func readEvent(_ record: UnsafeBufferPointer<UInt8>, line: Int = 1, column: Int = 1) throws(NormalizationError) -> InputEvent {
        if record.count > limits.maxRecordBytes {
            throw .limitExceeded(oversized(size: record.count))
        }
        var fields = EnvelopeFields()
        let value: JSONValue?
        do throws(JSONParseError) {
            value = try parser.parseEnvelope(record, into: &fields)
        } catch {
            throw Self.refusal(error, record: record, line: line, column: column)
        }
        if let value { return try InputEvent(json: value) }
        let kind = fields.kind
        return try InputEvent(kind: kind, members: &fields)
    }

    /// The parser this reader reads with.
    private var parser: JSONParser {
        var parser = JSONParser(maximumDepth: limits.maxDepth)
        parser.readsStringsInOrder = readsStringsInOrder
        parser.alertTextReadForKind = alertTextReadForKind
        return parser
    }

    /// The error for a record the parser refused with `error`, located in the input.
    private static func refusal(_ error: JSONParseError, record: UnsafeBufferPointer<UInt8>, line: Int, column: Int) -> NormalizationError {
        let located = error.shifted(toLine: line, column: column)
        if case .tooDeep(let limit) = located.problem {
            return .limitExceeded(.depth(limit: limit, line: located.line, column: located.column))
        }
        return NormalizationError(.invalidJSON, located.description + Self.hint(for: record), cause: .invalidJSON(located))
    }

    /// What a record of `size` bytes, over `limits.maxRecordBytes`, exceeds: for a record the
    /// reader never holds (a JSON line or an array element skipped as it streams past).
    public func oversized(size: Int) -> LimitExceeded {
        .recordBytes(size: size, limit: limits.maxRecordBytes)
    }

    /// For a record that is not JSON at all — it does not start as an object or array — what
    /// a record should look like, to add to its `invalidJSON` message; otherwise empty.
    static func hint(for record: UnsafeBufferPointer<UInt8>) -> String {
        let first = record.first { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D && $0 != 0x0A }
        guard let first, first != UInt8(ascii: "{"), first != UInt8(ascii: "[") else { return "" }
        return #"; a record is one JSON object, an input envelope such as {"kind":"url","url":"https://example.com/x"}"#
    }
}
