/// An error found while reading JSON text: what is wrong and where.
///
/// ``problem`` says what is wrong, with the data (what was expected, what was found, the
/// limit); ``reason`` and ``description`` are its sentence for people. Decide on
/// ``problem`` or ``kind``, never on the text.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The broad kinds of problem.
    public enum Kind: Sendable, Hashable {
        /// The text is not valid JSON.
        case invalid
        /// The text holds a complete JSON value followed by more than blanks — often several
        /// JSON Lines read as one document.
        case trailingData
        /// The text nests arrays and objects deeper than the parser's
        /// ``JSONParser/maximumDepth`` (a limit, not a syntax error).
        case tooDeep
    }

    /// What the reader expected where it found something else.
    public enum Expectation: Sendable, Hashable, CaseIterable {
        /// A JSON value.
        case value
        /// `,` or `]` after an element inside an array.
        case commaOrBracketInArray
        /// A string key in an object.
        case key
        /// `:` after an object key.
        case colon
        /// `,` or `}` after a member of an object.
        case commaOrBraceInObject
        /// The first element of a document's top-level array, or its `]`.
        case valueOrBracket
        /// An element after a `,` of a document's top-level array.
        case valueAfterComma
        /// `,` or `]` after an element of a document's top-level array.
        case commaOrBracketAfterElement
    }

    /// What the input was inside when it ended too early.
    public enum Context: Sendable, Hashable, CaseIterable {
        /// Where a value was expected.
        case value
        /// A number.
        case number
        /// An array.
        case array
        /// An object.
        case object
        /// A string.
        case string
        /// A `\u` escape.
        case unicodeEscape
        /// A document's top-level array (read element by element).
        case documentArray
    }

    /// What is wrong with a number.
    public enum NumberProblem: Sendable, Hashable, CaseIterable {
        /// No digit where the number's integer part should be (`-x`).
        case noDigit
        /// No digit after the decimal point (`1.`).
        case noDigitAfterPoint
        /// No digit in the exponent (`1e`).
        case noDigitInExponent
    }

    /// What is wrong with UTF-8 text.
    public enum UTF8Problem: Sendable, Hashable {
        /// A byte that cannot start a UTF-8 sequence.
        case invalidByte(UInt8)
        /// The input ends inside a sequence.
        case truncated
        /// A byte inside a sequence that is not a continuation byte.
        case badContinuation
        /// An overlong form, a surrogate, or a value past U+10FFFF.
        case invalidScalar
    }

    /// What is wrong, with its data.
    public enum Problem: Sendable, Hashable {
        /// The input ends inside something.
        case unexpectedEnd(Context)
        /// Something else than `expected` was found: the byte `found`, or the end of the
        /// input (`nil`).
        case unexpected(found: UInt8?, expected: Expectation)
        /// A cut-short or misspelt literal (`tru`, `nul`).
        case invalidLiteral(found: String, expected: String)
        /// A word that is no JSON value at all (`this line is not JSON`).
        case unexpectedWord(String)
        /// A malformed number.
        case invalidNumber(NumberProblem)
        /// Arrays and objects nest deeper than `limit` levels.
        case tooDeep(limit: Int)
        /// More than blanks after the value.
        case trailingData
        /// A string without its closing quote.
        case unterminatedString
        /// A control character (below U+0020) not escaped inside a string.
        case controlCharacterInString(UInt8)
        /// A backslash followed by a character that is not an escape.
        case invalidEscape(UInt8)
        /// Fewer than four hexadecimal digits left for a `\u` escape.
        case incompleteUnicodeEscape
        /// A character that is not a hexadecimal digit in a `\u` escape.
        case invalidHexDigit(UInt8)
        /// A `\u` high surrogate with no `\u` escape after it.
        case loneHighSurrogate
        /// A `\u` high surrogate followed by an escape that is not a low surrogate.
        case unpairedHighSurrogate
        /// A `\u` low surrogate with no high surrogate before it.
        case loneLowSurrogate
        /// Invalid UTF-8.
        case invalidUTF8(UTF8Problem)

        /// The broad kind of the problem.
        public var kind: Kind {
            switch self {
            case .tooDeep: .tooDeep
            case .trailingData: .trailingData
            default: .invalid
            }
        }

        /// The problem as a sentence fragment ("unterminated string").
        public var reason: String {
            switch self {
            case .unexpectedEnd(let context):
                switch context {
                case .value: "unexpected end of input, expected a value"
                case .number: "unexpected end of input in a number"
                case .array: "unexpected end of input in an array"
                case .object: "unexpected end of input in an object"
                case .string: "unterminated string"
                case .unicodeEscape: "incomplete \\u escape"
                case .documentArray: "unterminated array at the end of the input"
                }
            case .unexpected(let found, let expected):
                switch expected {
                case .value:
                    if let found {
                        "unexpected character '\(Reader.show(found))', expected a value"
                    } else {
                        "unexpected end of input, expected a value"
                    }
                case .commaOrBracketInArray: "expected ',' or ']' in an array"
                case .key: "expected a string key in an object"
                case .colon: "expected ':' after an object key"
                case .commaOrBraceInObject: "expected ',' or '}' in an object"
                case .valueOrBracket: "expected a value or ']'"
                case .valueAfterComma: "expected a value after ','"
                case .commaOrBracketAfterElement: "expected ',' or ']' after an array element"
                }
            case .invalidLiteral(let found, let expected): "invalid literal '\(found)', expected '\(expected)'"
            case .unexpectedWord(let found):
                "unexpected '\(found)', expected a JSON value (an object, array, string, number, true, false or null)"
            case .invalidNumber(.noDigit): "invalid number"
            case .invalidNumber(.noDigitAfterPoint): "invalid number: expected a digit after '.'"
            case .invalidNumber(.noDigitInExponent): "invalid number: expected a digit in the exponent"
            case .tooDeep(let limit): "nesting deeper than \(limit) levels"
            case .trailingData: "unexpected data after the JSON value"
            case .unterminatedString: "unterminated string"
            case .controlCharacterInString: "unescaped control character in a string"
            case .invalidEscape(let byte): "invalid escape '\\\(Reader.show(byte))' in a string"
            case .incompleteUnicodeEscape: "incomplete \\u escape"
            case .invalidHexDigit: "invalid hexadecimal digit in a \\u escape"
            case .loneHighSurrogate: "lone high surrogate in a \\u escape"
            case .unpairedHighSurrogate: "high surrogate not followed by a low surrogate"
            case .loneLowSurrogate: "lone low surrogate in a \\u escape"
            case .invalidUTF8(.invalidByte(let byte)): "invalid UTF-8 byte 0x\(String(byte, radix: 16))"
            case .invalidUTF8(.truncated): "truncated UTF-8 sequence"
            case .invalidUTF8(.badContinuation): "invalid UTF-8 continuation byte"
            case .invalidUTF8(.invalidScalar): "invalid UTF-8 sequence"
            }
        }
    }

    /// What is wrong, with its data.
    public let problem: Problem
    /// The 1-based line of the offending byte within the parsed text.
    public let line: Int
    /// The 1-based column (in bytes) of the offending byte within its line.
    public let column: Int
    /// The 0-based byte offset of the offending byte.
    public let offset: Int

    /// Creates an error.
    public init(_ problem: Problem, line: Int, column: Int, offset: Int) {
        self.problem = problem
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// What kind of problem it is.
    public var kind: Kind { problem.kind }

    /// What is wrong, as a sentence fragment ("unterminated string"), derived from
    /// ``problem``.
    public var reason: String { problem.reason }

    /// `reason at line L column C`.
    public var description: String { "\(reason) at line \(line) column \(column)" }

    /// The same error, for text that starts at `line`, `column` of a larger text (a record
    /// inside a document or a JSON Lines input): its line and column counted in that text.
    /// The offset stays the record's own.
    public func shifted(toLine line: Int, column: Int) -> JSONParseError {
        JSONParseError(
            problem,
            line: line + self.line - 1,
            column: self.line == 1 ? column + self.column - 1 : self.column,
            offset: offset
        )
    }
}

/// A strict, allocation-light JSON reader (RFC 8259) that builds ``JSONValue``s.
///
/// It reads UTF-8 bytes directly, keeps object key order, rejects invalid UTF-8, lone
/// surrogate escapes, control characters in strings, trailing garbage and nesting deeper than
/// ``maximumDepth``, and reports each problem with its line and column. A repeated key keeps its
/// last value.
public struct JSONParser: Sendable {
    /// The deepest nesting of arrays and objects accepted; deeper input is an error, not a
    /// stack overflow. Default 512.
    public var maximumDepth: Int

    /// Read every string with the reference reader (one byte at a time, in order) instead of
    /// the fast path: slower, the same result. For checking the fast path (the parser tests).
    package var readsStringsInOrder = false

    /// Members of the root object whose string values the caller reads only for their kind:
    /// such a value is checked as any string is (escapes, UTF-8, control bytes — an invalid one
    /// fails the parse at the same place) but read as the empty string, without building its
    /// text. For JSON held in a string whose long members an adapter never reads (DashX's
    /// `title` and `body`); `nil` reads every value.
    package var rootStringsReadForKind: SmallStringSet? = nil

    /// Read the text of a notification's alert for its kind only: the strings of `aps.alert`
    /// (the alert itself when it is a string, else its string members) where a record holds
    /// its notification's `userInfo` — under the root's `userInfo` in an envelope (a root with
    /// `kind`), or at the root of a bare `userInfo` — are checked as any string is but read
    /// as the empty string.
    /// For a registry none of whose adapters reads that text (``AdapterRegistry``'s
    /// normalizing reader): it is about a third of a typical push's bytes. Ignored with
    /// ``readsStringsInOrder`` (the reference reads everything).
    package var alertTextReadForKind = false

    /// Creates a parser.
    public init(maximumDepth: Int = 512) {
        self.maximumDepth = maximumDepth
    }

    /// Parses one JSON document from `text`.
    /// - Throws: ``JSONParseError`` naming the first problem and where it is.
    public func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        var copy = text
        let result = copy.withUTF8 { buffer in
            // A `String`'s bytes are valid UTF-8, and so is any piece of them cut at ASCII
            // bytes (quotes): the strings in it need no second check.
            Result { () throws(JSONParseError) -> JSONValue in try parse(buffer, knownValidUTF8: true) }
        }
        return try result.get()
    }

    /// Parses one JSON document from UTF-8 bytes.
    /// - Throws: ``JSONParseError`` naming the first problem and where it is.
    public func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONParseError) -> JSONValue in try parse(buffer) }
        }
        return try result.get()
    }

    /// Parses one JSON document from a buffer of UTF-8 bytes.
    /// - Throws: ``JSONParseError`` naming the first problem and where it is.
    public func parse(_ buffer: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> JSONValue {
        try parse(buffer, knownValidUTF8: false)
    }

    /// Parses one JSON document from a buffer of UTF-8 bytes, checking the UTF-8 of its
    /// strings unless the caller knows the whole buffer is valid.
    private func parse(
        _ buffer: UnsafeBufferPointer<UInt8>,
        knownValidUTF8: Bool
    ) throws(JSONParseError) -> JSONValue {
        guard let kindOnly = rootStringsReadForKind, !readsStringsInOrder else {
            if alertTextReadForKind, !readsStringsInOrder {
                return try parseRecord(buffer, knownValidUTF8: knownValidUTF8)
            }
            return try parse(buffer, knownValidUTF8: knownValidUTF8, kindOnly: nil)
        }
        // The root object's reading holds a pointer to the set, not the set (a copy of it
        // would retain and release its arrays).
        let result = withUnsafePointer(to: kindOnly) { pointer in
            Result { () throws(JSONParseError) -> JSONValue in
                try parse(buffer, knownValidUTF8: knownValidUTF8, kindOnly: pointer)
            }
        }
        return try result.get()
    }

    private func parse(
        _ buffer: UnsafeBufferPointer<UInt8>,
        knownValidUTF8: Bool,
        kindOnly: UnsafePointer<SmallStringSet>?
    ) throws(JSONParseError) -> JSONValue {
        var reader = Reader(
            bytes: buffer,
            maximumDepth: maximumDepth,
            readsStringsInOrder: readsStringsInOrder,
            knownValidUTF8: knownValidUTF8
        )
        reader.skipWhitespace()
        let value: JSONValue
        if let kindOnly, reader.nextIsObject {
            value = .object(try reader.readObject(depth: 1, values: KindOnlyStrings(keys: kindOnly)))
        } else {
            value = try reader.readValue(depth: 0)
        }
        return try reader.ending(value)
    }

    /// Parses a record with ``alertTextReadForKind``: the root object's members through
    /// ``RecordRootValues``, any other root as usual.
    private func parseRecord(_ buffer: UnsafeBufferPointer<UInt8>, knownValidUTF8: Bool) throws(JSONParseError) -> JSONValue {
        var reader = Reader(
            bytes: buffer,
            maximumDepth: maximumDepth,
            readsStringsInOrder: false,
            knownValidUTF8: knownValidUTF8
        )
        reader.skipWhitespace()
        guard reader.nextIsObject else {
            let value = try reader.readValue(depth: 0)
            return try reader.ending(value)
        }
        let root = try reader.readObject(depth: 1, values: RecordRootValues())
        // A root without `kind` is a bare `userInfo`: its own `userInfo` member is the
        // notification's custom data, not an envelope's, and its alert text is kept. Read
        // whole again (the record is valid: only the text was left out). The flags spare most
        // records the lookups; the decision is the final value's.
        if reader.alertReadUnderUserInfo, !reader.recordHasKind, Self.holdsAlert(root["userInfo"]) {
            return try parse(buffer, knownValidUTF8: knownValidUTF8, kindOnly: nil)
        }
        return try reader.ending(.object(root))
    }

    /// Parses a record for ``InputEvent``: when its root is an object whose first key is
    /// `kind`, written plainly (nearly every envelope), each member an envelope has is kept in
    /// `fields` as it is read — its last value, as an object keeps it — and the root object is
    /// not built, nor any other member's value kept: returns `nil`. Any other record is parsed
    /// as ``parse(_:)`` parses it, and its value returned. Every member is read and checked
    /// either way, so a record gives the same ``JSONParseError`` as from ``parse(_:)``. (The
    /// members are written in place: the fields, a dozen values, cost more to copy out than
    /// the object they save.)
    func parseEnvelope(_ buffer: UnsafeBufferPointer<UInt8>, into fields: inout EnvelopeFields) throws(JSONParseError) -> JSONValue? {
        guard !readsStringsInOrder, rootStringsReadForKind == nil else { return try parse(buffer) }
        var reader = Reader(bytes: buffer, maximumDepth: maximumDepth, readsStringsInOrder: false, knownValidUTF8: false)
        reader.skipWhitespace()
        guard reader.nextIsObject, reader.firstKeyIsKind() else { return try parse(buffer) }
        try reader.readEnvelope(into: &fields, alertTextReadForKind: alertTextReadForKind)
        reader.skipWhitespace()
        if reader.position < buffer.count { throw reader.error(.trailingData) }
        return nil
    }

    /// Whether `userInfo` is an object whose `aps.alert` is a string or an object: what
    /// ``RecordRootValues`` reads for its kind under a root's `userInfo`.
    private static func holdsAlert(_ userInfo: JSONValue?) -> Bool {
        guard case .object(let userInfo)? = userInfo, case .object(let aps)? = userInfo["aps"] else { return false }
        switch aps["alert"] {
        case .string?, .object?: return true
        default: return false
        }
    }
}

/// How ``Reader/readObject(depth:values:)`` reads a member's value: specialized for each
/// conforming type.
private protocol MemberValues {
    /// The value of the member `key`, at `reader.position` (past the colon).
    func read(_ reader: inout Reader, key: String, depth: Int) throws(JSONParseError) -> JSONValue
}

/// The root object's members with ``JSONParser/rootStringsReadForKind``: a string under one
/// of `keys` is checked and read as the empty string; anything else in full.
private struct KindOnlyStrings: MemberValues {
    /// The keys, kept alive by the caller for the parse.
    let keys: UnsafePointer<SmallStringSet>

    func read(_ reader: inout Reader, key: String, depth: Int) throws(JSONParseError) -> JSONValue {
        if reader.position < reader.bytes.count, reader.bytes[reader.position] == UInt8(ascii: "\""),
            keys.pointee.contains(key)
        {
            try reader.skipString()
            return .string("")
        }
        return try reader.readValue(depth: depth)
    }
}

/// A record's root members with ``JSONParser/alertTextReadForKind``: `userInfo` (an
/// envelope's notification) and `aps` (a bare `userInfo`'s) lead to the alert; every other
/// value is read in full. Whatever the envelope turns out to be: in an envelope of another
/// kind these members are not the notification's and nothing reads them, and an envelope of
/// a notification ignores a root `aps`. A root without `kind`, whose own `userInfo` member
/// is custom data, is read again whole (``JSONParser/parseRecord(_:knownValidUTF8:)``).
private struct RecordRootValues: MemberValues {
    @inline(__always)
    func read(_ reader: inout Reader, key: String, depth: Int) throws(JSONParseError) -> JSONValue {
        // Lengths first: most keys are none of these.
        let length = key.utf8.count
        if length == 4, key == "kind" {
            reader.recordHasKind = true
        } else if reader.nextIsObject {
            if length == 8, key == "userInfo" {
                return .object(try reader.readObject(depth: depth + 1, values: ObjectValues(level: .userInfo)))
            }
            if length == 3, key == "aps" {
                return .object(try reader.readObject(depth: depth + 1, values: ObjectValues(level: .aps(underUserInfo: false))))
            }
        }
        return try reader.readValue(depth: depth)
    }
}

/// How the members of every object but two kinds of root are read: in full (``Level/every``),
/// or, with ``JSONParser/alertTextReadForKind``, as the objects on the way to a
/// notification's alert — an envelope's `userInfo`, whose `aps` leads on; an `aps`, whose
/// `alert` (a string or an object) is read for its kind; an alert object, whose every string
/// member (`title`, `body`, `subtitle`, `loc-key`, …) is checked and read as the empty
/// string, any other value (`loc-args`' array, say) in full. One type for the four, told apart
/// by `level`, so that ``Reader/readObject(depth:values:)`` is specialized once for all of
/// them: with a copy of the object loop for each, a notification ran through four copies,
/// and the code of a record's path outgrew the instruction cache by more (docs/performance.md,
/// "Thirty-sixth round").
private struct ObjectValues: MemberValues {
    enum Level {
        /// Every value in full: any object not on the way to an alert.
        case every
        /// An envelope's `userInfo`.
        case userInfo
        /// An `aps`: under the root's `userInfo`, or at the root (a bare `userInfo`'s).
        case aps(underUserInfo: Bool)
        /// An alert object.
        case alert
    }

    let level: Level

    @inline(__always)
    func read(_ reader: inout Reader, key: String, depth: Int) throws(JSONParseError) -> JSONValue {
        switch level {
        case .every: break
        case .userInfo:
            if reader.nextIsObject, key.utf8.count == 3, key == "aps" {
                return .object(try reader.readObject(depth: depth + 1, values: ObjectValues(level: .aps(underUserInfo: true))))
            }
        case .aps(let underUserInfo):
            guard key.utf8.count == 5, key == "alert", reader.position < reader.bytes.count else { break }
            let first = reader.bytes[reader.position]
            guard first == UInt8(ascii: "\"") || first == UInt8(ascii: "{") else { break }
            if underUserInfo { reader.alertReadUnderUserInfo = true }
            if first == UInt8(ascii: "{") {
                return .object(try reader.readObject(depth: depth + 1, values: ObjectValues(level: .alert)))
            }
            try reader.skipString()
            return .string("")
        case .alert:
            if reader.position < reader.bytes.count, reader.bytes[reader.position] == UInt8(ascii: "\"") {
                try reader.skipString()
                return .string("")
            }
        }
        return try reader.readValue(depth: depth)
    }
}

private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    let maximumDepth: Int
    let readsStringsInOrder: Bool
    /// Whether `bytes` are known to be valid UTF-8 (they are a `String`'s).
    let knownValidUTF8: Bool
    /// The offset of the next byte to read. Positions are offsets into `bytes`, so a sum of
    /// a position and a few bytes cannot overflow: the fast paths add with `&+`, which spares
    /// each addition its overflow check (the in-order reference reader keeps the checked
    /// `+`).
    var position = 0
    /// ``SmallASCIIString/availableDiscriminator``, read once per parse rather than once per
    /// string (each read of a global is a call to `swift_once`).
    let smallStringDiscriminator: UInt8
    /// With ``JSONParser/alertTextReadForKind``: whether the root has a `kind` member, and
    /// whether an alert under a root `userInfo` member was read for its kind (what decides
    /// whether a record without `kind` is read again whole).
    var recordHasKind = false
    var alertReadUnderUserInfo = false

    init(
        bytes: UnsafeBufferPointer<UInt8>,
        maximumDepth: Int,
        readsStringsInOrder: Bool,
        knownValidUTF8: Bool
    ) {
        self.smallStringDiscriminator = SmallASCIIString.availableDiscriminator
        self.bytes = bytes
        self.maximumDepth = maximumDepth
        self.readsStringsInOrder = readsStringsInOrder
        self.knownValidUTF8 = knownValidUTF8
    }

    func error(_ problem: JSONParseError.Problem, at offset: Int? = nil) -> JSONParseError {
        let offset = min(offset ?? position, bytes.count)
        var line = 1
        var lineStart = 0
        var i = 0
        while i < offset {
            if bytes[i] == 0x0A {
                line += 1
                lineStart = i + 1
            }
            i += 1
        }
        return JSONParseError(problem, line: line, column: offset - lineStart + 1, offset: offset)
    }

    /// Moves past any whitespace at `position`. The first byte is looked at in line, the rest
    /// of a run out of line (``skipWhitespaceRun()``): records are mostly written without
    /// whitespace between tokens, and the loop, copied at each of the dozens of places that
    /// call this, spread the parser's code over more cache lines than it runs
    /// (docs/performance.md, "Forty-seventh round").
    @inline(__always)
    mutating func skipWhitespace() {
        if position < bytes.count, isJSONWhitespace(bytes[position]) { skipWhitespaceRun() }
    }

    /// Moves past the whitespace at `position` (at least one byte of it).
    @inline(never)
    mutating func skipWhitespaceRun() {
        repeat { position &+= 1 } while position < bytes.count && isJSONWhitespace(bytes[position])
    }

    /// Whether the next byte opens an object.
    @inline(__always)
    var nextIsObject: Bool { position < bytes.count && bytes[position] == UInt8(ascii: "{") }

    /// `value`, the document's root just read, when nothing but whitespace follows it.
    /// - Throws: ``JSONParseError`` (`trailingData`) otherwise.
    @inline(__always)
    mutating func ending(_ value: JSONValue) throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        if position < bytes.count { throw error(.trailingData) }
        return value
    }

    mutating func readValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard position < bytes.count else { throw error(.unexpectedEnd(.value)) }
        switch bytes[position] {
        case UInt8(ascii: "{"):
            return .object(try readObject(depth: depth + 1, values: ObjectValues(level: .every)))
        case UInt8(ascii: "["):
            return .array(try readArray(depth: depth + 1))
        case UInt8(ascii: "\""):
            return .string(try readAnyString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try readNumber())
        default:
            throw error(.unexpected(found: bytes[position], expected: .value))
        }
    }

    static func show(_ byte: UInt8) -> String {
        if byte >= 0x20 && byte < 0x7F { return String(UnicodeScalar(byte)) }
        return "\\u{" + String(byte, radix: 16) + "}"
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let start = position
        let count = literal.utf8CodeUnitCount
        let pointer = literal.utf8Start
        for i in 0..<count {
            guard position < bytes.count, bytes[position] == pointer[i] else {
                throw error(Self.literalProblem(found: word(at: start), expected: literal), at: start)
            }
            position &+= 1
        }
    }

    /// The letters and digits at `offset` (at most 24 bytes), for saying what was found.
    func word(at offset: Int) -> String {
        var end = offset
        while end < bytes.count, end - offset < 24 {
            let b = bytes[end]
            guard (b | 0x20) &- 0x61 < 26 || b &- 0x30 < 10 || b == UInt8(ascii: "_") else { break }
            end += 1
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<end]), as: UTF8.self)
    }

    /// What is wrong where `literal` was begun: a cut-short or misspelt literal, or a word
    /// that is no JSON at all (`this line is not JSON`).
    static func literalProblem(found: String, expected literal: StaticString) -> JSONParseError.Problem {
        let expected = "\(literal)"
        if expected.hasPrefix(found) || found.hasPrefix(expected) {
            return .invalidLiteral(found: found, expected: expected)
        }
        return .unexpectedWord(found)
    }

    mutating func readNumber() throws(JSONParseError) -> JSONNumber {
        let start = position
        @inline(__always) func isDigit(_ b: UInt8) -> Bool { b &- 0x30 < 10 }
        if bytes[position] == UInt8(ascii: "-") { position &+= 1 }
        guard position < bytes.count else { throw error(.unexpectedEnd(.number)) }
        if bytes[position] == UInt8(ascii: "0") {
            position &+= 1
        } else if isDigit(bytes[position]) {
            while position < bytes.count, isDigit(bytes[position]) { position &+= 1 }
        } else {
            throw error(.invalidNumber(.noDigit))
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position &+= 1
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw error(.invalidNumber(.noDigitAfterPoint))
            }
            while position < bytes.count, isDigit(bytes[position]) { position &+= 1 }
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            position &+= 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position &+= 1
            }
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw error(.invalidNumber(.noDigitInExponent))
            }
            while position < bytes.count, isDigit(bytes[position]) { position &+= 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        return JSONNumber(validatedText: text)
    }

    mutating func readArray(depth: Int) throws(JSONParseError) -> [JSONValue] {
        if depth > maximumDepth { throw error(.tooDeep(limit: maximumDepth)) }
        position &+= 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position &+= 1
            return elements
        }
        while true {
            skipWhitespace()
            elements.append(try readValue(depth: depth))
            skipWhitespace()
            guard position < bytes.count else { throw error(.unexpectedEnd(.array)) }
            switch bytes[position] {
            case UInt8(ascii: ","): position &+= 1
            case UInt8(ascii: "]"):
                position &+= 1
                return elements
            default: throw error(.unexpected(found: bytes[position], expected: .commaOrBracketInArray))
            }
        }
    }

    /// Whether the object opening at `position` has `"kind"`, written so, as its first key
    /// (`position` is left where it was).
    mutating func firstKeyIsKind() -> Bool {
        let start = position
        defer { position = start }
        position &+= 1
        skipWhitespace()
        let p = position
        guard p &+ 6 <= bytes.count else { return false }
        return bytes[p] == UInt8(ascii: "\"") && bytes[p &+ 1] == UInt8(ascii: "k") && bytes[p &+ 2] == UInt8(ascii: "i")
            && bytes[p &+ 3] == UInt8(ascii: "n") && bytes[p &+ 4] == UInt8(ascii: "d") && bytes[p &+ 5] == UInt8(ascii: "\"")
    }

    /// Reads the record's root object at `position` (its opening brace, at depth 1) as
    /// ``readObject(depth:values:)`` reads it through ``RecordRootValues`` — the same checks
    /// in the same order, so the same errors — keeping only the envelope's members in
    /// `fields`: a repeated one's last value, a `userInfo` object's alert text
    /// read for its kind with `alertTextReadForKind`, every other member read and dropped.
    mutating func readEnvelope(into fields: inout EnvelopeFields, alertTextReadForKind: Bool) throws(JSONParseError) {
        let depth = 1
        if depth > maximumDepth { throw error(.tooDeep(limit: maximumDepth)) }
        position &+= 1  // {
        repeat {
            let key = try readMemberKey()
            if key.utf8.count == 4, key == "kind" {
                fields.kind = try readValue(depth: depth)
            } else if let member = EnvelopeMember(key: key) {
                if member == .userInfo, alertTextReadForKind, nextIsObject {
                    fields.userInfo = .object(try readObject(depth: depth + 1, values: ObjectValues(level: .userInfo)))
                } else {
                    fields[member] = try readValue(depth: depth)
                }
            } else {
                _ = try readValue(depth: depth)
            }
        } while try !endsObject()
    }

    /// Reads a member's key — at `position`, after any whitespace — and the colon after it,
    /// leaving `position` at the value (as ``readObject(depth:values:)`` does, in line).
    @inline(__always)
    mutating func readMemberKey() throws(JSONParseError) -> String {
        skipWhitespace()
        guard position < bytes.count else { throw error(.unexpectedEnd(.object)) }
        guard bytes[position] == UInt8(ascii: "\"") else { throw error(.unexpected(found: bytes[position], expected: .key)) }
        let key = try readAnyString()
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
            throw error(.unexpected(found: position < bytes.count ? bytes[position] : nil, expected: .colon))
        }
        position &+= 1
        skipWhitespace()
        return key
    }

    /// Reads what follows an object's member: a comma (`false`, another member follows) or
    /// the closing brace (`true`), as ``readObject(depth:values:)`` does, in line.
    @inline(__always)
    mutating func endsObject() throws(JSONParseError) -> Bool {
        skipWhitespace()
        guard position < bytes.count else { throw error(.unexpectedEnd(.object)) }
        switch bytes[position] {
        case UInt8(ascii: ","):
            position &+= 1
            return false
        case UInt8(ascii: "}"):
            position &+= 1
            return true
        default: throw error(.unexpected(found: bytes[position], expected: .commaOrBraceInObject))
        }
    }

    mutating func readObject<Values: MemberValues>(depth: Int, values: Values) throws(JSONParseError) -> JSONObject {
        if depth > maximumDepth { throw error(.tooDeep(limit: maximumDepth)) }
        position &+= 1  // {
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position &+= 1
            return JSONObject()
        }
        // Room for eight members, once the object is known not to be empty. (Made by
        // `reserveCapacity`: `init(unsafeUninitializedCapacity:)` is not specialized here, and
        // looks the array's type up in the runtime on every call.)
        var members: [JSONObject.Member] = []
        members.reserveCapacity(8)
        // Duplicate keys: a 64-bit Bloom filter of the keys while the object is small (a
        // real comparison only on a hit), a hash index of the keys once it is not, so that
        // any number of keys costs linear time. A repeated key keeps its last value at the
        // first one's position.
        var seenKeys: UInt64 = 0
        // The key and the end of each member are read here as `readMemberKey()` and
        // `endsObject()` read them, on purpose: this loop reads every object of every record,
        // and calling them here (which the compiler did not inline) cost 1.2% of the
        // instructions a record.
        while true {
            skipWhitespace()
            guard position < bytes.count else { throw error(.unexpectedEnd(.object)) }
            guard bytes[position] == UInt8(ascii: "\"") else { throw error(.unexpected(found: bytes[position], expected: .key)) }
            let keyStart = position
            let key = try readAnyString()
            let keyEnd = position
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
                throw error(.unexpected(found: position < bytes.count ? bytes[position] : nil, expected: .colon))
            }
            position &+= 1
            skipWhitespace()
            let value = try values.read(&self, key: key, depth: depth)
            // An object that outgrows `JSONObject.indexThreshold` is read on out of line, with
            // an index of its keys: few are that large, and this loop's code, which every
            // object of every record runs, then takes fewer cache lines (docs/performance.md,
            // "Forty-seventh round").
            let keyBit = Self.bloomBit(bytes, from: keyStart + 1, to: keyEnd - 1, decodedCount: key.utf8.count)
            if seenKeys & keyBit != 0, let existing = members.firstIndex(where: { $0.key.hasSameUTF8(as: key) }) {
                members[existing].value = value
            } else {
                seenKeys |= keyBit
                // The key moves into the member: no retain for the member and release of
                // the local, a pair of atomic operations per member.
                members.append(JSONObject.Member(consume key, value))
                if members.count > JSONObject.indexThreshold {
                    return try readMembers(after: members, depth: depth, values: values)
                }
            }
            skipWhitespace()
            guard position < bytes.count else { throw error(.unexpectedEnd(.object)) }
            switch bytes[position] {
            case UInt8(ascii: ","): position &+= 1
            case UInt8(ascii: "}"):
                position &+= 1
                return JSONObject(uniqueMembers: members, index: nil)
            default: throw error(.unexpected(found: bytes[position], expected: .commaOrBraceInObject))
            }
        }
    }

    /// Reads the rest of an object whose first members, `members`, have just outgrown
    /// ``JSONObject/indexThreshold`` (the member just read followed by its comma or closing
    /// brace), as ``readObject(depth:values:)`` reads them but with a hash index of the keys
    /// instead of its Bloom filter, so that any number of keys costs linear time.
    @inline(never)
    mutating func readMembers<Values: MemberValues>(
        after members: consuming [JSONObject.Member],
        depth: Int,
        values: Values
    ) throws(JSONParseError) -> JSONObject {
        var members = members
        var index: [JSONObject.IndexKey: Int] = [:]
        index.reserveCapacity(members.count * 2)
        for (i, member) in members.enumerated() { index[JSONObject.IndexKey(member.key)] = i }
        while try !endsObject() {
            let key = try readMemberKey()
            let value = try values.read(&self, key: key, depth: depth)
            if let existing = index[JSONObject.IndexKey(key)] {
                members[existing].value = value
            } else {
                index[JSONObject.IndexKey(key)] = members.count
                members.append(JSONObject.Member(key, value))
            }
        }
        return JSONObject(uniqueMembers: members, index: index)
    }

    /// Reads the string at `position` (its opening quote), key or value: by the reference
    /// reader when ``readsStringsInOrder``, else a short one in place (``readSmallString()``)
    /// and any other by ``readString()``.
    @inline(__always)
    mutating func readAnyString() throws(JSONParseError) -> String {
        if readsStringsInOrder { return try readStringInOrder(from: position) }
        if let small = readSmallString() { return small }
        return try readString()
    }

    /// Reads the string at `position` (its opening quote) when it is at most 15 ASCII bytes
    /// with no escape and 16 bytes follow the quote (two words are read): those words are the
    /// standard library's small-string form of the text but for its last byte
    /// (``SmallASCIIString``), so the string is made in place, without the call that copies
    /// its bytes (``readString()``). Nearly every key is such a string, and so are most short
    /// values (`notification`, `remote`, ids, screen names). Returns `nil`, reading nothing,
    /// for any other string (an escape, a non-ASCII or control byte, 16 bytes or more, the end
    /// of the input within 16 bytes, a platform without that string form), which
    /// ``readString()`` then reads.
    @inline(__always)
    mutating func readSmallString() -> String? {
        let discriminator = smallStringDiscriminator
        guard discriminator != 0 else { return nil }
        let start = position &+ 1
        guard start + 16 <= bytes.count, let base = bytes.baseAddress else { return nil }
        let highs: UInt64 = 0x8080_8080_8080_8080
        let first = UInt64(littleEndian: UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self))
        // The lowest flagged byte of either mask is a true match, so the lowest of both is the
        // first quote, backslash, control or non-ASCII byte.
        let firstMarks = jsonStringSpecialBytes(first) | first & highs
        let length: Int
        let low: UInt64
        var high: UInt64 = 0
        if firstMarks != 0 {
            length = firstMarks.trailingZeroBitCount >> 3
            guard base[start + length] == UInt8(ascii: "\"") else { return nil }
            low = length == 0 ? 0 : first & (UInt64.max >> UInt64(64 - 8 * length))
        } else {
            let second = UInt64(littleEndian: UnsafeRawPointer(base + start + 8).loadUnaligned(as: UInt64.self))
            let secondMarks = jsonStringSpecialBytes(second) | second & highs
            guard secondMarks != 0 else { return nil }
            let rest = secondMarks.trailingZeroBitCount >> 3
            guard base[start + 8 + rest] == UInt8(ascii: "\"") else { return nil }
            length = 8 + rest
            low = first
            high = rest == 0 ? 0 : second & (UInt64.max >> UInt64(64 - 8 * rest))
        }
        position = start + length + 1
        return SmallASCIIString.make(low: low, high: high, count: length, discriminator: discriminator)
    }

    /// One bit of a 64-bit Bloom filter for a key, from its raw bytes between the quotes:
    /// their length and three of them (first, middle, last), so that the cost does not grow
    /// with the key. Equal keys written differently (`"a"` and `"\\u0061"`) may get different
    /// bits, so a key with an escape — one whose text is shorter than its raw bytes — sets
    /// every bit.
    @inline(__always)
    static func bloomBit(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int, decodedCount: Int) -> UInt64 {
        let length = to - from
        if decodedCount != length { return ~0 }
        guard length > 0 else { return 1 }
        var hash = UInt64(length) &* 0x9E37_79B9_7F4A_7C15
        hash ^= UInt64(bytes[from]) | UInt64(bytes[from + length / 2]) << 8 | UInt64(bytes[to - 1]) << 16
        hash = hash &* 0xBF58_476D_1CE4_E5B9
        return 1 << (hash >> 58)
    }

    /// Whether any of the 8 bytes in `word` is a quote, a backslash, a control character or
    /// not ASCII.
    @inline(__always)
    static func hasSpecialByte(_ word: UInt64) -> Bool {
        (jsonStringSpecialBytes(word) | (word & 0x8080_8080_8080_8080)) != 0
    }

    /// Moves `p` over plain string bytes, eight at a time, to the first quote, backslash or
    /// control byte in a whole word (or to the last seven bytes before `count`, which the
    /// caller reads one by one), noting the high bits of the bytes passed in `high`.
    @inline(__always)
    static func passPlainRun(_ base: UnsafePointer<UInt8>, _ p: inout Int, count: Int, high: inout UInt64) {
        let highs: UInt64 = 0x8080_8080_8080_8080
        // `p` is a position in a buffer of `count` bytes: the sums below cannot overflow.
        while p &+ 8 <= count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + p).loadUnaligned(as: UInt64.self))
            let special = jsonStringSpecialBytes(word)
            if special != 0 {
                // Jump to the first special byte, noting the high bits of those before it.
                let skipped = special.trailingZeroBitCount &>> 3
                high |= word & highs & ((1 &<< (UInt64(skipped) &<< 3)) &- 1)
                p &+= skipped
                return
            }
            high |= word & highs
            p &+= 8
        }
    }

    /// Moves past the string at `position` (its opening quote), checking it as
    /// ``readString()`` does but building nothing: plain runs eight bytes at a time, each
    /// escape checked (a `\u` escape's digits, and a surrogate's pair). Anything else — a
    /// control byte, an escape it does not take, UTF-8 to check, the end of the input — is
    /// read by ``readString()`` from the start, for its error or its (discarded) value, so
    /// that the outcome is always that of reading the string.
    mutating func skipString() throws(JSONParseError) {
        let start = position
        guard let base = bytes.baseAddress else {
            _ = try readString()
            return
        }
        let count = bytes.count
        var p = start + 1
        var high: UInt64 = 0
        while true {
            Self.passPlainRun(base, &p, count: count, high: &high)
            guard p < count else { break }
            let b = base[p]
            if b == UInt8(ascii: "\"") {
                let content = UnsafeBufferPointer(start: base + start + 1, count: p - start - 1)
                guard high == 0 || knownValidUTF8 || Self.isValidUTF8(content) else { break }
                position = p &+ 1
                return
            }
            if b == UInt8(ascii: "\\") {
                guard p &+ 1 < count else { break }
                let e = base[p &+ 1]
                if Self.standsForItself(e) || e == UInt8(ascii: "b") || e == UInt8(ascii: "f") || e == UInt8(ascii: "n")
                    || e == UInt8(ascii: "r") || e == UInt8(ascii: "t")
                {
                    p &+= 2
                    continue
                }
                guard e == UInt8(ascii: "u") else { break }
                // A run of `\u` escapes (text whose every non-ASCII character is escaped, as
                // Python's `json.dumps` writes it by default) is passed escape after escape.
                if !JSONEscape.passUnicodeEscapes(base, &p, count: count) { break }
                continue
            }
            if b < 0x20 { break }
            high |= UInt64(b & 0x80)
            p &+= 1
        }
        // Not taken here: read as any string is, for the error it gives.
        position = start
        _ = try readString()
    }

    /// Reads a string at `position` (its opening quote).
    ///
    /// The fast path finds the closing quote eight bytes at a time, noting whether any byte
    /// is not ASCII or is a backslash, then builds the string in one step: ASCII text
    /// directly, other text through the standard library's UTF-8 validation, escaped text
    /// decoded straight into the string's storage. Anything unusual — a control character,
    /// an invalid escape or UTF-8 sequence, the end of the input — is handed to
    /// ``readStringInOrder(from:)``, which reports the first problem exactly as it occurs.
    mutating func readString() throws(JSONParseError) -> String {
        let start = position
        guard let base = bytes.baseAddress else { return try readStringInOrder(from: start) }
        let count = bytes.count
        var p = start + 1
        var high: UInt64 = 0
        var escaped = false
        while true {
            Self.passPlainRun(base, &p, count: count, high: &high)
            guard p < count else { return try readStringInOrder(from: start) }
            let b = base[p]
            if b == UInt8(ascii: "\"") { break }
            if b == UInt8(ascii: "\\") {
                // The first escape: decode the rest while reading it, when it fits the buffer.
                if !escaped, let decoded = try readEscapedString(from: start, escapeAt: p) { return decoded }
                escaped = true
                p &+= 2
                continue
            }
            if b < 0x20 { return try readStringInOrder(from: start) }
            high |= UInt64(b & 0x80)
            p &+= 1
        }
        let content = UnsafeBufferPointer(start: base + start + 1, count: p - start - 1)
        if high != 0, !knownValidUTF8, !Self.isValidUTF8(content) { return try readStringInOrder(from: start) }
        if !escaped {
            position = p &+ 1
            return String(knownValidUTF8: content, isASCII: high == 0)
        }
        // Escapes never lengthen the text, so the escaped length bounds the decoded one.
        let decoded = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: content.count) { out -> String? in
            guard let length = Self.unescape(content, into: out) else { return nil }
            // `\u` escapes may add non-ASCII text to ASCII input.
            let text = UnsafeBufferPointer(rebasing: out[0..<length])
            return String(knownValidUTF8: text, isASCII: high == 0 && String.isASCII(text))
        }
        guard let decoded else { return try readStringInOrder(from: start) }
        position = p &+ 1
        return decoded
    }

    /// The most escaped bytes ``readEscapedString(from:escapeAt:)`` decodes in one pass into a
    /// buffer on the stack; a longer string is scanned to its end and then decoded
    /// (``readString()``).
    static let onePassCapacity = 1024

    /// Reads the string whose opening quote is at `start` and whose first escape is at
    /// `escapeAt` in one pass: the text is copied eight bytes at a time and each escape
    /// decoded as it is met, instead of scanning to the closing quote and then decoding.
    /// Returns `nil`, having moved nothing, when the string's escaped text is longer than
    /// ``onePassCapacity`` bytes (``readString()`` then scans it and decodes); anything the
    /// fast path does not take (a control byte, an invalid escape, invalid UTF-8, the end of
    /// the input) is read again by ``readStringInOrder(from:)``, for its value or its error.
    mutating func readEscapedString(from start: Int, escapeAt: Int) throws(JSONParseError) -> String? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        let contentStart = start + 1
        // Escapes never lengthen the text: the input left bounds the output too.
        let capacity = Swift.min(Self.onePassCapacity, count - contentStart)
        // The text before the escape, and the escape's bytes, must fit.
        guard escapeAt - contentStart + 6 <= capacity else { return nil }
        enum Outcome {
            case decoded(String, end: Int)
            case tooLong
            case slowPath
        }
        let outcome = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer -> Outcome in
            guard let out = buffer.baseAddress else { return .tooLong }
            // Escapes never lengthen the text, so `o <= i - contentStart` throughout: reading
            // no further than `end` keeps every write (a whole word, a `\u` escape's four
            // bytes) inside the buffer, with one bound for both, and the arithmetic below
            // cannot overflow. A string that goes on past `end` inside a longer input is
            // `.tooLong`; one that reaches the input's end is `.slowPath`, for its error.
            let end = contentStart &+ capacity
            let pastEnd: Outcome = end < count ? .tooLong : .slowPath
            var i = escapeAt
            var o = escapeAt &- contentStart
            // The text before the escape, as it is.
            out.update(from: base + contentStart, count: o)
            while true {
                // A run of plain bytes: whole words are stored, then the position moves to the
                // first quote, backslash or control byte (what lies past it is written over).
                while i &+ 8 <= end {
                    let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                    UnsafeMutableRawPointer(out + o).storeBytes(of: word, as: UInt64.self)
                    let special = jsonStringSpecialBytes(UInt64(littleEndian: word))
                    if special != 0 {
                        let skipped = special.trailingZeroBitCount &>> 3
                        i &+= skipped
                        o &+= skipped
                        break
                    }
                    i &+= 8
                    o &+= 8
                }
                guard i < end else { return pastEnd }
                let b = base[i]
                // The backslash first: in JSON held in a string (what this path mostly
                // reads) escapes outnumber closing quotes many times over.
                if b == UInt8(ascii: "\\") {
                    // The escape is decoded here as in `unescape(_:into:)` (the path of strings
                    // past this buffer), on purpose: measured on the 20,000-line prefix, a
                    // function for one escape shared by the two was not inlined here (+560
                    // instructions a record), and this whole decoder shared by both paths
                    // cost +168 (+340 when forced inline).
                    guard i &+ 1 < end else { return pastEnd }
                    let e = base[i &+ 1]
                    i &+= 2
                    // `\"`, `\\` and `\/` first, by one bit test: JSON held in a string is
                    // mostly these, and the `switch` below is a jump table, whose indirect
                    // jump mispredicts when they alternate (17% of this decoder's samples).
                    if Self.standsForItself(e) {
                        out[o] = e
                        o &+= 1
                        continue
                    }
                    switch e {
                    case UInt8(ascii: "b"): out[o] = 0x08
                    case UInt8(ascii: "f"): out[o] = 0x0C
                    case UInt8(ascii: "n"): out[o] = 0x0A
                    case UInt8(ascii: "r"): out[o] = 0x0D
                    case UInt8(ascii: "t"): out[o] = 0x09
                    case UInt8(ascii: "u"):
                        // A run of `\u` escapes (text whose every non-ASCII character is
                        // escaped, as Python's `json.dumps` writes it by default) is decoded
                        // escape after escape, without going back through the plain-run search.
                        while true {
                            guard var scalar = Self.hex4(base, at: i, count: end) else { return i &+ 4 <= end ? .slowPath : pastEnd }
                            i &+= 4
                            if scalar >= 0xD800 && scalar < 0xDC00 {
                                guard i &+ 6 <= end else { return pastEnd }
                                guard base[i] == UInt8(ascii: "\\"), base[i &+ 1] == UInt8(ascii: "u"),
                                    let low = Self.hex4(base, at: i &+ 2, count: end), low >= 0xDC00 && low < 0xE000
                                else { return .slowPath }
                                i &+= 6
                                scalar = 0x10000 &+ ((scalar &- 0xD800) &<< 10) &+ (low &- 0xDC00)
                            } else if scalar >= 0xDC00 && scalar < 0xE000 {
                                return .slowPath
                            }
                            o &+= Self.writeUTF8(scalar, to: out + o)
                            guard i &+ 1 < end, base[i] == UInt8(ascii: "\\"), base[i &+ 1] == UInt8(ascii: "u") else { break }
                            i &+= 2
                        }
                        continue
                    default:
                        return .slowPath
                    }
                    o &+= 1
                    continue
                }
                if b == UInt8(ascii: "\"") {
                    // Whether the text is ASCII is found once, from the decoded bytes, rather
                    // than by noting high bits word by word on the way (which cost more, with
                    // an escape every few bytes); text that is not is checked as UTF-8 (what
                    // `\u` escapes wrote is valid by construction, and checked again).
                    let text = UnsafeBufferPointer(start: out, count: o)
                    let isASCII = String.isASCII(text)
                    if !isASCII, !knownValidUTF8, !Self.isValidUTF8(text) { return .slowPath }
                    return .decoded(String(knownValidUTF8: text, isASCII: isASCII), end: i &+ 1)
                }
                if b < 0x20 { return .slowPath }
                // Near the end of the input or of the buffer: one byte at a time.
                out[o] = b
                i &+= 1
                o &+= 1
            }
        }
        switch outcome {
        case .decoded(let text, let end):
            position = end
            return text
        case .tooLong:
            return nil
        case .slowPath:
            return try readStringInOrder(from: start)
        }
    }

    /// Decodes the escapes of `text` (the bytes between a string's quotes, known to end
    /// before any unescaped quote) into `out`, which must have room for `text.count` bytes;
    /// returns the decoded length, or `nil` when an escape is invalid (a bad letter, a bad
    /// hexadecimal digit, a lone surrogate).
    static func unescape(_ text: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        precondition(out.count >= text.count, "unescape needs room for the escaped length")
        guard let source = text.baseAddress, let target = out.baseAddress else { return text.isEmpty ? 0 : nil }
        let count = text.count
        var i = 0
        var o = 0
        while i < count {
            // Copy the run up to the next backslash, eight bytes at a time. Whole words may be
            // stored past the run's end: escapes never lengthen the text, so `o <= i` and the
            // word fits in `out`, and what lies past the run is written over next.
            while i + 8 <= count {
                let word = UnsafeRawPointer(source + i).loadUnaligned(as: UInt64.self)
                UnsafeMutableRawPointer(target + o).storeBytes(of: word, as: UInt64.self)
                let backslashes = bytesEqual(UInt64(littleEndian: word), to: UInt8(ascii: "\\"))
                if backslashes != 0 {
                    let run = backslashes.trailingZeroBitCount >> 3
                    i += run
                    o += run
                    break
                }
                i += 8
                o += 8
            }
            while i < count, source[i] != UInt8(ascii: "\\") {
                target[o] = source[i]
                i += 1
                o += 1
            }
            guard i < count else { break }
            guard i + 1 < count else { return nil }
            let e = source[i + 1]
            i += 2
            // The common escapes first, as in `readEscapedString` (a bit test, not the jump
            // table's indirect jump).
            if standsForItself(e) {
                target[o] = e
                o += 1
                continue
            }
            switch e {
            // `\"`, `\\` and `\/` stand for the byte escaped.
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): target[o] = e
            case UInt8(ascii: "b"): target[o] = 0x08
            case UInt8(ascii: "f"): target[o] = 0x0C
            case UInt8(ascii: "n"): target[o] = 0x0A
            case UInt8(ascii: "r"): target[o] = 0x0D
            case UInt8(ascii: "t"): target[o] = 0x09
            case UInt8(ascii: "u"): break
            default: return nil
            }
            if e != UInt8(ascii: "u") {
                o += 1
                continue
            }
            guard var scalar = hex4(source, at: i, count: count) else { return nil }
            i += 4
            if scalar >= 0xD800 && scalar < 0xDC00 {
                guard i + 1 < count, source[i] == UInt8(ascii: "\\"), source[i + 1] == UInt8(ascii: "u"),
                    let low = hex4(source, at: i + 2, count: count), low >= 0xDC00 && low < 0xE000
                else { return nil }
                i += 6
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if scalar >= 0xDC00 && scalar < 0xE000 {
                return nil
            }
            o += writeUTF8(scalar, to: target + o)
        }
        return o
    }

    /// Whether the escape letter `e` stands for itself: `"`, `\` or `/`. One shift and mask
    /// (bits 0x22, 0x2F and 0x5C of a 128-bit set, split in two words), no jump table.
    @inline(__always)
    static func standsForItself(_ e: UInt8) -> Bool {
        // `"` (0x22) and `/` (0x2F) in the low word, `\` (0x5C) in the high one.
        let low: UInt64 = 1 << 0x22 | 1 << 0x2F
        let high: UInt64 = 1 << (0x5C - 64)
        let word = e < 64 ? low : high
        return e < 128 && (word >> UInt64(e & 63)) & 1 != 0
    }

    /// The value of four hexadecimal digits at `i`, or `nil` (``JSONEscape/hex4(_:at:count:)``).
    @inline(__always)
    static func hex4(_ source: UnsafePointer<UInt8>, at i: Int, count: Int) -> UInt32? {
        JSONEscape.hex4(source, at: i, count: count)
    }

    /// Writes `scalar` as UTF-8 at `target`; returns the number of bytes.
    @inline(__always)
    static func writeUTF8(_ scalar: UInt32, to target: UnsafeMutablePointer<UInt8>) -> Int {
        switch scalar {
        case 0..<0x80:
            target[0] = UInt8(scalar)
            return 1
        case 0x80..<0x800:
            target[0] = UInt8(0xC0 | (scalar >> 6))
            target[1] = UInt8(0x80 | (scalar & 0x3F))
            return 2
        case 0x800..<0x10000:
            target[0] = UInt8(0xE0 | (scalar >> 12))
            target[1] = UInt8(0x80 | ((scalar >> 6) & 0x3F))
            target[2] = UInt8(0x80 | (scalar & 0x3F))
            return 3
        default:
            target[0] = UInt8(0xF0 | (scalar >> 18))
            target[1] = UInt8(0x80 | ((scalar >> 12) & 0x3F))
            target[2] = UInt8(0x80 | ((scalar >> 6) & 0x3F))
            target[3] = UInt8(0x80 | (scalar & 0x3F))
            return 4
        }
    }

    /// Whether `bytes` is valid UTF-8 (no overlong forms, surrogates or values past
    /// U+10FFFF), skipping ASCII eight bytes at a time.
    ///
    /// Other bytes go through ``UTF8Automaton``: one table load and one shift a byte, with
    /// no branch on the byte's value, so text that mixes scripts (two-, three- and four-byte
    /// sequences in turn) costs no mispredicted branches.
    static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        return UTF8Automaton.rows.withUnsafeBufferPointer { rows in
            var state = UTF8Automaton.accept
            var i = 0
            // Eight bytes at a time: skipped when ASCII between sequences, else all eight
            // through the automaton, with no branch inside the word. (`i` is a position in
            // the buffer: the sums cannot overflow.)
            while i &+ 8 <= count {
                let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                if word & 0x8080_8080_8080_8080 != 0 || state & 63 != UTF8Automaton.accept {
                    for k in 0..<8 { state = rows[Int(base[i &+ k])] &>> state }
                }
                i &+= 8
            }
            while i < count {
                state = rows[Int(base[i])] &>> state
                i &+= 1
            }
            return state & 63 == UTF8Automaton.accept
        }
    }

    /// The reference reader: one byte at a time in order, so that it reports the first
    /// problem in a string exactly. ``readString()`` falls back to it for any string it
    /// cannot read on its fast path.
    mutating func readStringInOrder(from start: Int) throws(JSONParseError) -> String {
        position = start
        position += 1  // opening quote
        let contentStart = position
        guard let base = bytes.baseAddress else { throw error(.unterminatedString, at: start) }
        // Scan: skip plain ASCII eight bytes at a time, validate multi-byte UTF-8 in place,
        // and stop at the closing quote or the first escape.
        while true {
            while position + 8 <= bytes.count {
                let word = UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)
                if Self.hasSpecialByte(UInt64(littleEndian: word)) { break }
                position += 8
            }
            guard position < bytes.count else { throw error(.unterminatedString, at: start) }
            let b = bytes[position]
            if b == UInt8(ascii: "\"") {
                let s = String(decoding: UnsafeBufferPointer(rebasing: bytes[contentStart..<position]), as: UTF8.self)
                position += 1
                return s
            } else if b == UInt8(ascii: "\\") {
                break
            } else if b < 0x20 {
                throw error(.controlCharacterInString(b))
            } else if b < 0x80 {
                position += 1
            } else {
                position += try validateUTF8Sequence()
            }
        }
        // Escapes: build the string's bytes.
        var out: [UInt8] = []
        out.reserveCapacity(position - contentStart + 32)
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[contentStart..<position]))
        while true {
            guard position < bytes.count else { throw error(.unterminatedString, at: start) }
            let b = bytes[position]
            if b == UInt8(ascii: "\"") {
                position += 1
                return String(decoding: out, as: UTF8.self)
            } else if b == UInt8(ascii: "\\") {
                position += 1
                guard position < bytes.count else { throw error(.unterminatedString, at: start) }
                let e = bytes[position]
                position += 1
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    let escapeStart = position - 2
                    var scalar = try readHex4()
                    if scalar >= 0xD800 && scalar < 0xDC00 {
                        guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                            bytes[position + 1] == UInt8(ascii: "u")
                        else { throw error(.loneHighSurrogate, at: escapeStart) }
                        position += 2
                        let low = try readHex4()
                        guard low >= 0xDC00 && low < 0xE000 else {
                            throw error(.unpairedHighSurrogate, at: escapeStart)
                        }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if scalar >= 0xDC00 && scalar < 0xE000 {
                        throw error(.loneLowSurrogate, at: escapeStart)
                    }
                    Self.appendUTF8(scalar, to: &out)
                default:
                    throw error(.invalidEscape(e), at: position - 2)
                }
            } else if b < 0x20 {
                throw error(.controlCharacterInString(b))
            } else {
                // A run of ordinary bytes up to the next quote, backslash or control byte.
                let runStart = position
                while position < bytes.count {
                    let c = bytes[position]
                    if c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") || c < 0x20 { break }
                    if c < 0x80 { position += 1 } else { position += try validateUTF8Sequence() }
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<position]))
            }
        }
    }

    mutating func readHex4() throws(JSONParseError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw error(.incompleteUnicodeEscape) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[position]
            guard let digit = ASCIIHex.value(c) else { throw error(.invalidHexDigit(c)) }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    /// Validates one multi-byte UTF-8 sequence at `position` and returns its length.
    func validateUTF8Sequence() throws(JSONParseError) -> Int {
        guard let base = bytes.baseAddress else { throw error(.invalidUTF8(.truncated)) }
        switch Self.utf8Sequence(base, at: position, count: bytes.count) {
        case .valid(let length): return length
        case .badLead: throw error(.invalidUTF8(.invalidByte(bytes[position])))
        case .truncated: throw error(.invalidUTF8(.truncated))
        case .badContinuation: throw error(.invalidUTF8(.badContinuation))
        case .badScalar: throw error(.invalidUTF8(.invalidScalar))
        }
    }

    /// What the multi-byte UTF-8 sequence at `i` is.
    enum UTF8Sequence {
        /// A valid sequence of this many bytes.
        case valid(Int)
        /// The first byte cannot start a sequence.
        case badLead
        /// The input ends inside the sequence.
        case truncated
        /// A following byte is not a continuation byte.
        case badContinuation
        /// An overlong form, a surrogate, or a value past U+10FFFF.
        case badScalar
    }

    /// Checks the multi-byte UTF-8 sequence that starts at `i` (its first byte is not ASCII).
    @inline(__always)
    static func utf8Sequence(_ base: UnsafePointer<UInt8>, at i: Int, count: Int) -> UTF8Sequence {
        let b0 = base[i]
        let length: Int
        let minimum: UInt32
        var scalar: UInt32
        switch b0 {
        case 0xC2...0xDF:
            length = 2
            minimum = 0x80
            scalar = UInt32(b0 & 0x1F)
        case 0xE0...0xEF:
            length = 3
            minimum = 0x800
            scalar = UInt32(b0 & 0x0F)
        case 0xF0...0xF4:
            length = 4
            minimum = 0x10000
            scalar = UInt32(b0 & 0x07)
        default:
            return .badLead
        }
        guard i + length <= count else { return .truncated }
        for k in 1..<length {
            let b = base[i + k]
            guard b & 0xC0 == 0x80 else { return .badContinuation }
            scalar = scalar << 6 | UInt32(b & 0x3F)
        }
        if scalar < minimum || scalar > 0x10FFFF || (scalar >= 0xD800 && scalar < 0xE000) { return .badScalar }
        return .valid(length)
    }

    static func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            out.append(UInt8(scalar))
        case 0x80..<0x800:
            out.append(UInt8(0xC0 | (scalar >> 6)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        case 0x800..<0x10000:
            out.append(UInt8(0xE0 | (scalar >> 12)))
            out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        default:
            out.append(UInt8(0xF0 | (scalar >> 18)))
            out.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
            out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        }
    }
}

/// Decodes the escapes of a string's text as the parser does (``Reader``'s
/// `unescape(_:into:)`): `out` must have room for `text.count` bytes; the decoded length, or
/// `nil` for an escape the parser refuses. For ``PlainJSONScanner``.
func jsonUnescape(_ text: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>) -> Int? {
    Reader.unescape(text, into: out)
}

/// The high bit of each of the 8 bytes in `word` (little-endian) that equals `byte` (SWAR:
/// the classic "has a zero byte" trick on `word ^ byte…`). Bytes above a match may be flagged
/// falsely (the borrow), but the lowest flagged byte is always the first true match, and no
/// match means no flag. The parser, the writer and the URL reader search words with it.
@inline(__always)
func bytesEqual(_ word: UInt64, to byte: UInt8) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let x = word ^ (ones &* UInt64(byte))
    return (x &- ones) & ~x & 0x8080_8080_8080_8080
}

/// Whether `byte` is JSON whitespace: a space, a tab, a line feed or a carriage return. The
/// parser and ``PlainJSONScanner`` skip it.
@inline(__always)
func isJSONWhitespace(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x20, 0x0A, 0x0D, 0x09: true
    default: false
    }
}

/// The high bit of each of the 8 bytes in `word` (little-endian) that a JSON string cannot
/// hold as it is: a quote, a backslash or an ASCII control character (SWAR: the classic "has
/// a zero byte" / "has a byte less than n" tricks). Bytes of multi-byte UTF-8 (high bit set)
/// never match. Bytes above a match may be flagged falsely (borrows), but the lowest flagged
/// byte is always a true match. The parser scans strings with it and the writer finds what
/// to escape.
@inline(__always)
func jsonStringSpecialBytes(_ word: UInt64) -> UInt64 {
    // Written out rather than through `bytesEqual`: the parser's string loop compiles tighter
    // this way (4 M fewer instructions on the 20,000-line profile).
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    let quote = word ^ (ones &* 0x22)
    let backslash = word ^ (ones &* 0x5C)
    let hasQuote = (quote &- ones) & ~quote & highs
    let hasBackslash = (backslash &- ones) & ~backslash & highs
    let hasControl = (word &- ones &* 0x20) & ~word & highs
    return hasQuote | hasBackslash | hasControl
}

/// The high bit of each of the 16 bytes of `bytes` that a JSON string cannot hold as it is
/// (``jsonStringSpecialBytes(_:)``), as two little-endian words (bytes 0–7, then 8–15).
///
/// Lane by lane, so each flag is exact (no borrow crosses into the next byte): the same tests
/// on one 16-byte vector, which the compiler keeps in vector registers (SSE2, NEON), in about
/// two thirds of the instructions of two words' tests. The writer copies plain text 16 bytes
/// at a time with it, then finishes with the word test. (The parser's string scan with it
/// cost more than it saved, measured: its strings are mostly shorter than two vectors, and
/// the larger loop kept the compiler from inlining the string's creation.)
@inline(__always)
package func jsonStringSpecialBytes(_ bytes: SIMD16<UInt8>) -> (UInt64, UInt64) {
    let one = SIMD16<UInt8>(repeating: 1)
    let quote = bytes ^ SIMD16(repeating: 0x22)
    let backslash = bytes ^ SIMD16(repeating: 0x5C)
    // Per lane: x - 1 has its high bit and ~x too only for x == 0; b - 0x20 and ~b only for
    // b < 0x20.
    let flags =
        ((quote &- one) & ~quote | (backslash &- one) & ~backslash | (bytes &- SIMD16(repeating: 0x20)) & ~bytes)
        & SIMD16(repeating: 0x80)
    let words = unsafeBitCast(flags, to: (UInt64, UInt64).self)
    return (UInt64(littleEndian: words.0), UInt64(littleEndian: words.1))
}

extension String {
    /// Whether every byte of `bytes` is ASCII (eight bytes at a time).
    @inline(__always)
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        var high: UInt64 = 0
        if count >= 8 {
            var i = 0
            while i &+ 8 <= count {
                high |= UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                i &+= 8
            }
            // The last eight bytes, overlapping what was read: no byte-by-byte tail.
            high |= UnsafeRawPointer(base + (count &- 8)).loadUnaligned(as: UInt64.self)
        } else {
            for i in 0..<count { high |= UInt64(base[i]) }
        }
        return high & 0x8080_8080_8080_8080 == 0
    }

    /// A string of `bytes`, which the caller knows are valid UTF-8 (the parser has checked
    /// them, or they are a slice of a `String` cut at ASCII bytes): up to 15 ASCII bytes
    /// built in place as a small string (``SmallASCIIString``), longer text copied without
    /// the standard library validating it a second time where the platform offers that
    /// (`UTF8Span`, Swift 6.2), else decoded as usual.
    @inline(__always)
    init(knownValidUTF8 bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool) {
        if isASCII, bytes.count <= SmallASCIIString.capacity {
            let discriminator = SmallASCIIString.availableDiscriminator
            if discriminator != 0 {
                self = SmallASCIIString.make(bytes, discriminator: discriminator)
                return
            }
        }
        if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
            self = String(copying: UTF8Span(unchecked: bytes.span, isKnownASCII: isASCII))
        } else {
            self = String(decoding: bytes, as: UTF8.self)
        }
    }
}

/// A UTF-8 validator as a shift automaton: each state is a shift amount (a multiple of 6),
/// and each byte has one 64-bit row holding, at bit `state`, the six bits of the next state.
/// Reading a byte is `state = rows[byte] &>> state` (the shift uses only the low six bits of
/// `state`, so the rest need not be cleared); the text is valid when the state ends as
/// ``accept``. The transitions are RFC 3629's table of well-formed sequences (§4): the lead
/// byte fixes the length and, for `E0`, `ED`, `F0` and `F4`, the range of the second byte,
/// which is how overlong forms, surrogates and values past U+10FFFF are refused.
enum UTF8Automaton {
    /// The state after a byte that no sequence allows; it never changes again (every row's
    /// low six bits are zero).
    static let error: UInt64 = 0
    /// Between sequences: the text so far is valid.
    static let accept: UInt64 = 6
    /// Expecting one, two or three more continuation bytes (`80`–`BF`).
    static let needs1: UInt64 = 12
    static let needs2: UInt64 = 18
    static let needs3: UInt64 = 24
    /// After `E0` (second byte `A0`–`BF`), `ED` (`80`–`9F`), `F0` (`90`–`BF`) and `F4`
    /// (`80`–`8F`).
    static let afterE0: UInt64 = 30
    static let afterED: UInt64 = 36
    static let afterF0: UInt64 = 42
    static let afterF4: UInt64 = 48

    /// The next state from `state` on `byte`.
    static func next(_ state: UInt64, _ byte: UInt8) -> UInt64 {
        switch state {
        case accept:
            switch byte {
            case 0x00...0x7F: accept
            case 0xC2...0xDF: needs1
            case 0xE0: afterE0
            case 0xED: afterED
            case 0xE1...0xEF: needs2
            case 0xF0: afterF0
            case 0xF1...0xF3: needs3
            case 0xF4: afterF4
            default: error
            }
        case needs1, needs2, needs3:
            byte & 0xC0 == 0x80 ? state - 6 : error
        case afterE0: (0xA0...0xBF).contains(byte) ? needs1 : error
        case afterED: (0x80...0x9F).contains(byte) ? needs1 : error
        case afterF0: (0x90...0xBF).contains(byte) ? needs2 : error
        case afterF4: (0x80...0x8F).contains(byte) ? needs2 : error
        default: error
        }
    }

    /// One row a byte value.
    static let rows: [UInt64] = (0...255).map { byte in
        var row: UInt64 = 0
        for state in [accept, needs1, needs2, needs3, afterE0, afterED, afterF0, afterF4] {
            row |= next(state, UInt8(byte)) << state
        }
        return row
    }
}
