/// Writes ``JSONValue``s as JSON text, keeping object key order.
///
/// Output is UTF-8 with no escaping beyond what RFC 8259 requires (quotes, backslashes and
/// control characters), so non-ASCII text stays readable. Compact output has no spaces;
/// pretty output indents by two spaces.
public struct JSONWriter: Sendable {
    /// Whether to indent nested values on separate lines.
    public var pretty: Bool

    /// Creates a writer.
    public init(pretty: Bool = false) {
        self.pretty = pretty
    }

    /// Appends the JSON text of `value` to `out`.
    public func write(_ value: JSONValue, into out: inout [UInt8]) {
        write(value, into: &out, indent: 0)
    }

    /// Returns the JSON text of `value`.
    public func string(_ value: JSONValue) -> String {
        var out: [UInt8] = []
        write(value, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private func newline(_ out: inout [UInt8], _ indent: Int) {
        out.append(0x0A)
        for _ in 0..<indent { out.append(0x20) }
    }

    private func write(_ value: JSONValue, into out: inout [UInt8], indent: Int) {
        switch value {
        case .null: out.appendLiteral("null")
        case .bool(let b): if b { out.appendLiteral("true") } else { out.appendLiteral("false") }
        case .number(let n): out.appendUTF8(n.text)
        case .string(let s): JSONWriter.writeString(s, into: &out)
        case .array(let elements):
            if elements.isEmpty {
                out.appendLiteral("[]")
                return
            }
            out.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                if pretty { newline(&out, indent + 2) }
                write(element, into: &out, indent: indent + 2)
            }
            if pretty { newline(&out, indent) }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            if object.isEmpty {
                out.appendLiteral("{}")
                return
            }
            out.append(UInt8(ascii: "{"))
            var first = true
            for (key, member) in object {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                if pretty { newline(&out, indent + 2) }
                JSONWriter.writeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                if pretty { out.append(0x20) }
                write(member, into: &out, indent: indent + 2)
            }
            if pretty { newline(&out, indent) }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Whether any of the 8 bytes in `word` is a quote, a backslash or a control character.
    @inline(__always)
    private static func needsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        // The "less than 0x20" test is exact only for bytes below 0x80, so bytes of
        // multi-byte UTF-8 are excluded with `& ~word`.
        let control = (word &- ones &* 0x20) & ~word & highs
        return ((quote &- ones) & ~quote & highs) | ((backslash &- ones) & ~backslash & highs) | control != 0
    }

    /// Appends `string` as a quoted, escaped JSON string.
    public static func writeString(_ string: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var s = string
        s.withUTF8 { buffer in
            var runStart = 0
            var i = 0
            while i < buffer.count {
                // Skip eight bytes at a time while none needs escaping.
                if let base = buffer.baseAddress {
                    while i + 8 <= buffer.count,
                        !Self.needsEscape(UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)))
                    {
                        i += 8
                    }
                }
                guard i < buffer.count else { break }
                let b = buffer[i]
                i += 1
                guard b < 0x20 || b == 0x22 || b == 0x5C else { continue }
                let position = i - 1
                if runStart < position { out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[runStart..<position])) }
                runStart = position + 1
                switch b {
                case 0x22: out.append(contentsOf: [0x5C, 0x22])
                case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
                case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
                case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
                case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
                case 0x08: out.append(contentsOf: [0x5C, UInt8(ascii: "b")])
                case 0x0C: out.append(contentsOf: [0x5C, UInt8(ascii: "f")])
                default:
                    out.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30])
                    out.append(hexDigits[Int(b >> 4)])
                    out.append(hexDigits[Int(b & 0x0F)])
                }
            }
            if runStart < buffer.count {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[runStart..<buffer.count]))
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

extension JSONValue {
    /// The compact JSON text of this value, keys in order.
    public func jsonString(pretty: Bool = false) -> String {
        JSONWriter(pretty: pretty).string(self)
    }

    /// Parses JSON text into a value.
    /// - Throws: ``JSONParseError`` when `text` is not one valid JSON document.
    public init(parsing text: String) throws(JSONParseError) {
        self = try JSONParser().parse(text)
    }
}

extension Array where Element == UInt8 {
    /// Appends the UTF-8 bytes of a literal with one copy.
    @inline(__always)
    mutating func appendLiteral(_ literal: StaticString) {
        append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Appends the UTF-8 bytes of `string` with one copy.
    @inline(__always)
    mutating func appendUTF8(_ string: String) {
        var string = string
        string.withUTF8 { append(contentsOf: $0) }
    }
}
