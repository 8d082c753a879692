/// The code points a URL may never contain, raw or percent-encoded, and the scans that
/// find them.
///
/// The classes (docs/configuration.md, `security`):
/// - **controls**: C0 (U+0000–U+001F), DEL (U+007F), C1 (U+0080–U+009F);
/// - **non-ASCII spaces**: every `Zs` code point but U+0020 (U+00A0, U+1680, U+2000–U+200A,
///   U+202F, U+205F, U+3000);
/// - **line and paragraph separators**: U+2028, U+2029;
/// - **bidi controls**: U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069;
/// - **invisible formatting**: every `Cf` code point (U+00AD, U+200B–U+200D, U+2060–U+2064,
///   U+FEFF, U+180E, the tags U+E0001 and U+E0020–U+E007F, …) and every other
///   Default_Ignorable_Code_Point (U+034F, the Hangul fillers U+115F, U+1160, U+3164,
///   U+FFA0, …) except the variation selectors (U+FE00–U+FE0F, U+E0100–U+E01EF,
///   U+180B–U+180D, U+180F), which only pick a glyph for the character before them and
///   which emoji need (U+FE0F). Hosts refuse them too (``IDNA``).
package enum URLCharacters {
    /// The class of code points `scalar` belongs to when a URL may not contain it, else `nil`.
    /// U+0020 is not in a class: a raw space is refused by the parser, an encoded one (`%20`)
    /// is ordinary text.
    package static func forbiddenClass(of scalar: Unicode.Scalar) -> ForbiddenClass? {
        let v = scalar.value
        if v < 0x20 || v == 0x7F { return .control }
        if v < 0x80 { return nil }
        if v <= 0x9F { return .control }
        // The rest of Latin-1 and the Latin extensions up to U+02FF, where the letters of most
        // Latin-script text in URLs come from, without looking up properties: of U+00A0–U+02FF
        // only the no-break space (Zs) and the soft hyphen (Cf) are in a class (a test
        // compares every one with its properties).
        if v <= 0x2FF {
            if v == 0xA0 { return .space }
            return v == 0xAD ? .invisibleFormatting : nil
        }
        return classByProperties(scalar)
    }

    /// ``forbiddenClass(of:)`` for a code point that is not ASCII, from its Unicode properties
    /// (what it answers above U+02FF).
    package static func classByProperties(_ scalar: Unicode.Scalar) -> ForbiddenClass? {
        let v = scalar.value
        if v == 0x2028 || v == 0x2029 { return .lineSeparator }
        let properties = scalar.properties
        if properties.isBidiControl { return .bidiControl }
        switch properties.generalCategory {
        case .spaceSeparator: return .space
        case .format: return .invisibleFormatting
        case .lineSeparator, .paragraphSeparator: return .lineSeparator
        case .control: return .control
        default: break
        }
        if properties.isDefaultIgnorableCodePoint, !properties.isVariationSelector { return .invisibleFormatting }
        return nil
    }

    /// A class of code points no URL may contain.
    package typealias ForbiddenClass = ForbiddenCharacterClass

    /// `U+XXXX (class)`, as the reasons name a forbidden code point.
    static func describe(_ value: UInt32, _ forbidden: ForbiddenClass) -> String {
        "\(codePoint(value)) (\(forbidden))"
    }

    /// `U+XXXX`, at least four hexadecimal digits.
    static func codePoint(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.utf8.count)) + hex
    }

    /// The first forbidden non-ASCII code point in valid UTF-8 `bytes`, from `start`.
    static func firstForbiddenNonASCII(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (UInt32, ForbiddenClass)? {
        var i = start
        while i < bytes.count {
            let b = bytes[i]
            if b < 0x80 {
                i += 1
                continue
            }
            let (value, length) = decodeScalar(bytes, at: i)
            i += max(length, 1)
            guard let value, let scalar = Unicode.Scalar(value), let forbidden = forbiddenClass(of: scalar) else { continue }
            return (value, forbidden)
        }
        return nil
    }

    /// The code point of the UTF-8 sequence at `i` and its length; `nil` (length 1) when the
    /// bytes there are not well-formed UTF-8.
    @inline(__always)
    static func decodeScalar(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (UInt32?, Int) {
        let b0 = bytes[i]
        let count = bytes.count
        func continuation(_ k: Int) -> UInt32? {
            guard i + k < count, bytes[i + k] & 0xC0 == 0x80 else { return nil }
            return UInt32(bytes[i + k] & 0x3F)
        }
        switch b0 {
        case 0xC2...0xDF:
            guard let c1 = continuation(1) else { return (nil, 1) }
            return (UInt32(b0 & 0x1F) << 6 | c1, 2)
        case 0xE0...0xEF:
            guard let c1 = continuation(1), let c2 = continuation(2) else { return (nil, 1) }
            let value = UInt32(b0 & 0x0F) << 12 | c1 << 6 | c2
            guard value >= 0x800, !(0xD800...0xDFFF).contains(value) else { return (nil, 1) }
            return (value, 3)
        case 0xF0...0xF4:
            guard let c1 = continuation(1), let c2 = continuation(2), let c3 = continuation(3) else { return (nil, 1) }
            let value = UInt32(b0 & 0x07) << 18 | c1 << 12 | c2 << 6 | c3
            guard value >= 0x10000, value <= 0x10FFFF else { return (nil, 1) }
            return (value, 4)
        default:
            return (nil, 1)
        }
    }

    /// What the fully percent-decoded form of a URL hides.
    enum EncodedProblem: Equatable {
        /// A forbidden code point.
        case forbidden(UInt32, ForbiddenClass)
        /// An overlong or surrogate UTF-8 form (`%C0%AF`, `%ED%A0%80`): not UTF-8, but a
        /// lenient decoder reads a code point from it.
        case overlong
    }

    /// Decodes `bytes` repeatedly until no `%XX` escape is left (`%252E` → `%2E` → `.`) and
    /// returns the first forbidden code point or overlong form the result holds. One pass:
    /// a decoded byte that completes an escape with the bytes before it is decoded at once,
    /// which reaches the same fixed point as decoding the whole text again and again.
    ///
    /// Escapes `%0D` and `%0A` written as such (not themselves encoded) inside `exempt` are
    /// read as ordinary text: RFC 6068 §5 makes them the line breaks of a `mailto:` body.
    static func firstEncodedProblem(in bytes: UnsafeBufferPointer<UInt8>, exempt: Range<Int>?) -> EncodedProblem? {
        guard let first = URLParts.memoryIndex(of: UInt8(ascii: "%"), in: bytes) else { return nil }
        var out = [UInt8]()
        out.reserveCapacity(bytes.count - first)
        // Escapes decoded at least once are what matter; text before the first `%` was
        // checked raw. Keep a marker so the stack never reaches into it.
        var i = first
        var decodedAny = false
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "%"), let exempt, exempt.contains(i), i + 2 < bytes.count, bytes[i + 1] == UInt8(ascii: "0"),
                bytes[i + 2] | 0x20 == UInt8(ascii: "a") || bytes[i + 2] | 0x20 == UInt8(ascii: "d")
            {
                out.append(UInt8(ascii: "_"))
                i += 3
                continue
            }
            out.append(b)
            i += 1
            while out.count >= 3, out[out.count - 3] == UInt8(ascii: "%"), let h = ASCIIHex.value(out[out.count - 2]),
                let l = ASCIIHex.value(out[out.count - 1])
            {
                out.removeLast(3)
                out.append(h << 4 | l)
                decodedAny = true
            }
        }
        guard decodedAny else { return nil }
        return out.withUnsafeBufferPointer { decoded -> EncodedProblem? in
            var k = 0
            while k < decoded.count {
                let b = decoded[k]
                if b < 0x20 || b == 0x7F { return .forbidden(UInt32(b), .control) }
                if b < 0x80 {
                    k += 1
                    continue
                }
                if isOverlongOrSurrogate(decoded, at: k) { return .overlong }
                let (value, length) = decodeScalar(decoded, at: k)
                k += length
                if let value, let scalar = Unicode.Scalar(value), let forbidden = forbiddenClass(of: scalar) {
                    return .forbidden(value, forbidden)
                }
            }
            return nil
        }
    }

    /// Whether the bytes at `k` are an overlong or surrogate UTF-8 form: `C0`/`C1` before a
    /// continuation byte, `E0` before `80`–`9F`, `ED` before `A0`–`BF`, `F0` before `80`–`8F`.
    private static func isOverlongOrSurrogate(_ bytes: UnsafeBufferPointer<UInt8>, at k: Int) -> Bool {
        guard k + 1 < bytes.count else { return false }
        let next = bytes[k + 1]
        switch bytes[k] {
        case 0xC0, 0xC1: return next & 0xC0 == 0x80
        case 0xE0: return next >= 0x80 && next <= 0x9F
        case 0xED: return next >= 0xA0 && next <= 0xBF
        case 0xF0: return next >= 0x80 && next <= 0x8F
        default: return false
        }
    }
}

/// A class of code points no URL may contain.
public enum ForbiddenCharacterClass: Sendable, Hashable, CustomStringConvertible {
    /// C0 controls, DEL and C1 controls.
    case control
    /// Non-ASCII spaces (Unicode `Zs` but U+0020).
    case space
    /// U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR.
    case lineSeparator
    /// Bidi controls: U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069.
    case bidiControl
    /// Invisible formatting characters (`Cf`, other default-ignorable code points).
    case invisibleFormatting

    /// The class, as a warning names it ("a bidi control").
    public var description: String {
        switch self {
        case .control: "a control character"
        case .space: "a non-ASCII space"
        case .lineSeparator: "a line or paragraph separator"
        case .bidiControl: "a bidi control"
        case .invisibleFormatting: "an invisible formatting character"
        }
    }
}
