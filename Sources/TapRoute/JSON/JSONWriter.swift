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
        out.appendWritten { write(value, into: &$0, indent: 0) }
    }

    /// Appends the JSON text of `value` to `out`.
    package func write(_ value: JSONValue, into out: inout JSONOutputBuffer) {
        write(value, into: &out, indent: 0)
    }

    /// Returns the JSON text of `value`.
    public func string(_ value: JSONValue) -> String {
        var out: [UInt8] = []
        write(value, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The deepest indentation of pretty output, in spaces (32 levels): deeper values are
    /// indented like the 32nd level, so that the output grows linearly with the input's depth
    /// instead of with its square.
    package static let maximumIndent = 64

    private func newline(_ out: inout JSONOutputBuffer, _ indent: Int) {
        out.append(0x0A)
        for _ in 0..<min(indent, Self.maximumIndent) { out.append(0x20) }
    }

    /// Appends the JSON text of the object `object` to `out` (as `write(.object(object))`,
    /// without wrapping it in a value: that copy would retain and release its members).
    package func write(object: JSONObject, into out: inout JSONOutputBuffer) {
        write(object: object, into: &out, indent: 0)
    }

    private func write(_ value: JSONValue, into out: inout JSONOutputBuffer, indent: Int) {
        switch value {
        case .null: out.append(literal: "null")
        case .bool(let b): if b { out.append(literal: "true") } else { out.append(literal: "false") }
        case .number(let n): out.append(utf8: n.text)
        case .string(let s): JSONWriter.writeString(s, into: &out)
        case .array(let elements):
            if elements.isEmpty {
                out.append(literal: "[]")
                return
            }
            out.append(UInt8(ascii: "["))
            // Read in place: iterating, or reading an element out of the array, copies it (a
            // retain and a release of what it holds).
            elements.withUnsafeBufferPointer { elements in
                for i in elements.indices {
                    if i > 0 { out.append(UInt8(ascii: ",")) }
                    if pretty { newline(&out, indent + 2) }
                    write(elements[i], into: &out, indent: indent + 2)
                }
            }
            if pretty { newline(&out, indent) }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            write(object: object, into: &out, indent: indent)
        }
    }

    private func write(object: JSONObject, into out: inout JSONOutputBuffer, indent: Int) {
        if object.isEmpty {
            out.append(literal: "{}")
            return
        }
        out.append(UInt8(ascii: "{"))
        // Read in place: the object's iterator, or a member read out of its storage, copies
        // each key and value.
        object.storage.withUnsafeBufferPointer { members in
            for i in members.indices {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                if pretty { newline(&out, indent + 2) }
                JSONWriter.writeString(members[i].key, into: &out)
                out.append(UInt8(ascii: ":"))
                if pretty { out.append(0x20) }
                write(members[i].value, into: &out, indent: indent + 2)
            }
        }
        if pretty { newline(&out, indent) }
        out.append(UInt8(ascii: "}"))
    }

    /// Whether any of the 8 bytes in `word` is a quote, a backslash or a control character.
    @inline(__always)
    private static func needsEscape(_ word: UInt64) -> Bool {
        jsonStringSpecialBytes(word) != 0
    }

    /// Whether any of the 16 bytes in `bytes` is a quote, a backslash or a control character.
    @inline(__always)
    private static func needsEscape(_ bytes: SIMD16<UInt8>) -> Bool {
        let special = jsonStringSpecialBytes(bytes)
        return special.0 | special.1 != 0
    }

    /// Appends `string` as a quoted, escaped JSON string.
    package static func writeString(_ string: String, into out: inout [UInt8]) {
        out.appendWritten { writeString(string, into: &$0) }
    }

    /// Appends `string` as a quoted, escaped JSON string.
    package static func writeString(_ string: String, into out: inout JSONOutputBuffer) {
        // A string of at most 15 ASCII bytes (most keys and short values) is held in its own
        // two words (see `JSONObject.smallASCIITag`): when none of its bytes needs an escape,
        // the words are stored as they are, with no call for the text.
        if let tag = JSONObject.smallASCIITag {
            let bits = unsafeBitCast(string, to: (UInt64, UInt64).self)
            if bits.1 & JSONObject.tagMask == tag {
                let count = Int(truncatingIfNeeded: bits.1 >> 56) & 0x0F
                // The bytes past the text are made spaces, which need no escape.
                let spaces: UInt64 = 0x2020_2020_2020_2020
                let lowText: UInt64 = count >= 8 ? ~0 : (1 << UInt64(8 * count)) &- 1
                let highText: UInt64 = count <= 8 ? 0 : (1 << UInt64(8 * (count - 8))) &- 1
                let low = bits.0 & lowText | spaces & ~lowText
                let high = bits.1 & highText | spaces & ~highText
                // Both words as one vector: one lane test for the 16 bytes.
                if !needsEscape(unsafeBitCast((low, high), to: SIMD16<UInt8>.self)) {
                    // 18 bytes of room: the quote, both words, and the closing quote written
                    // over what follows the text.
                    out.append(maximum: 18) { target in
                        target[0] = UInt8(ascii: "\"")
                        UnsafeMutableRawPointer(target + 1).storeBytes(of: bits.0, as: UInt64.self)
                        UnsafeMutableRawPointer(target + 9).storeBytes(of: bits.1, as: UInt64.self)
                        target[count + 1] = UInt8(ascii: "\"")
                        return count + 2
                    }
                    return
                }
            }
        }
        // In place when the text is contiguous UTF-8 (native and small strings are), without
        // the copy `withUTF8` needs.
        if string.utf8.withContiguousStorageIfAvailable({ writeEscaped($0, into: &out) }) != nil { return }
        var s = string
        s.withUTF8 { writeEscaped($0, into: &out) }
    }

    /// Appends the UTF-8 text `source` as a quoted, escaped JSON string.
    private static func writeEscaped(_ source: UnsafeBufferPointer<UInt8>, into out: inout JSONOutputBuffer) {
        // At most six bytes (\u00XX) per byte, and the quotes.
        out.append(maximum: source.count * 6 + 2) { target in
            target[0] = UInt8(ascii: "\"")
            var o = 1
            guard let base = source.baseAddress else {
                target[1] = UInt8(ascii: "\"")
                return 2
            }
            let count = source.count
            // Writes byte `b`, escaped when JSON needs it.
            @inline(__always) func put(_ b: UInt8) {
                guard b < 0x20 || b == 0x22 || b == 0x5C else {
                    target[o] = b
                    o &+= 1
                    return
                }
                target[o] = 0x5C
                switch b {
                case 0x22: target[o &+ 1] = 0x22
                case 0x5C: target[o &+ 1] = 0x5C
                case 0x0A: target[o &+ 1] = UInt8(ascii: "n")
                case 0x0D: target[o &+ 1] = UInt8(ascii: "r")
                case 0x09: target[o &+ 1] = UInt8(ascii: "t")
                case 0x08: target[o &+ 1] = UInt8(ascii: "b")
                case 0x0C: target[o &+ 1] = UInt8(ascii: "f")
                default:
                    target[o &+ 1] = UInt8(ascii: "u")
                    target[o &+ 2] = 0x30
                    target[o &+ 3] = 0x30
                    target[o &+ 4] = ASCIIHex.lowerDigit(b >> 4)
                    target[o &+ 5] = ASCIIHex.lowerDigit(b & 0x0F)
                    o &+= 4
                }
                o &+= 2
            }
            var i = 0
            // Positions are offsets into the two buffers: their sums use `&+`, which cannot
            // overflow here and spares each its overflow check. Sixteen bytes at a time while
            // none needs an escape, stored whole (the output has room for six bytes per input
            // byte, so `o + 16` never passes its end while `i + 16 <= count`) ...
            while i &+ 16 <= count {
                let bytes = UnsafeRawPointer(base + i).loadUnaligned(as: SIMD16<UInt8>.self)
                if Self.needsEscape(bytes) { break }
                UnsafeMutableRawPointer(target + o).storeBytes(of: bytes, as: SIMD16<UInt8>.self)
                o &+= 16
                i &+= 16
            }
            // ... then eight: a word with nothing to escape is stored whole; a word with
            // something to escape is written byte by byte.
            while i &+ 8 <= count {
                let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                if !Self.needsEscape(UInt64(littleEndian: word)) {
                    UnsafeMutableRawPointer(target + o).storeBytes(of: word, as: UInt64.self)
                    o &+= 8
                } else {
                    for k in 0..<8 { put(base[i &+ k]) }
                }
                i &+= 8
            }
            // The last bytes, when none needs an escape, as whole words too. Past eight bytes:
            // the string's last eight, stored over the output of those already written — which
            // is those bytes as they are, since none needs an escape. Four to seven: the first
            // and the last four, overlapping. The output has room (six bytes per input byte).
            if i < count, count >= 4 {
                if count >= 8 {
                    let word = UnsafeRawPointer(base + count - 8).loadUnaligned(as: UInt64.self)
                    if !Self.needsEscape(UInt64(littleEndian: word)) {
                        UnsafeMutableRawPointer(target + o - (8 - (count - i))).storeBytes(of: word, as: UInt64.self)
                        o &+= count - i
                        i = count
                    }
                } else {
                    let first = UnsafeRawPointer(base).loadUnaligned(as: UInt32.self)
                    let last = UnsafeRawPointer(base + count - 4).loadUnaligned(as: UInt32.self)
                    if !Self.needsEscape(UInt64(UInt32(littleEndian: first)) | UInt64(UInt32(littleEndian: last)) << 32) {
                        UnsafeMutableRawPointer(target + o).storeBytes(of: first, as: UInt32.self)
                        UnsafeMutableRawPointer(target + (o &+ count &- 4)).storeBytes(of: last, as: UInt32.self)
                        o &+= count
                        i = count
                    }
                }
            }
            while i < count {
                put(base[i])
                i &+= 1
            }
            target[o] = UInt8(ascii: "\"")
            return o + 1
        }
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
