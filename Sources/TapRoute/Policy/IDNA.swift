import Foundation

/// Internationalized host labels, read as browsers (WHATWG URL, UTS #46) and iOS read them,
/// but strictly: a label TapRoute accepts is one every reader maps to the same ASCII form.
///
/// A label is *internationalized* when it has a non-ASCII code point, or when it is an
/// A-label (`xn--…`, RFC 3492 Punycode). Either way its Unicode form must be a label no
/// reader maps or refuses: only lower-case letters (`Ll`, `Lo`, `Lm`), combining marks
/// (`Mn`, `Mc`, not first) and decimal digits (`Nd`) assigned in Unicode 15.0 or earlier,
/// none that NFKC case folding changes (so no upper case, no compatibility forms, no
/// default-ignorable code point), no right-to-left letters (default bidi class R or AL:
/// their display order is what bidi spoofing exploits), in NFC, with ASCII only `a`–`z`,
/// `0`–`9` and `-`, not starting with `xn--`, and an A-label of at most 63 bytes.
/// Everything else is refused: hosts with forbidden code points (``URLCharacters``),
/// upper-case or symbol labels, broken Punycode.
package enum IDNA {
    /// Why a label is refused.
    package typealias LabelProblem = HostLabelProblem

    /// The ASCII form of a host whose labels are separated by `.`: ASCII letters
    /// lower-cased, internationalized labels as checked A-labels (`xn--…`).
    /// - Throws: ``LabelProblem`` for the first label refused.
    package static func asciiHost(_ host: Substring) throws(LabelProblem) -> String {
        var labels: [String] = []
        for label in host.split(separator: ".", omittingEmptySubsequences: false) {
            labels.append(try asciiLabel(label))
        }
        return labels.joined(separator: ".")
    }

    /// One label's ASCII form (see ``asciiHost(_:)``).
    static func asciiLabel(_ label: Substring) throws(LabelProblem) -> String {
        var ascii = true
        for b in label.utf8 where b >= 0x80 {
            ascii = false
            break
        }
        if ascii {
            let lower = label.utf8.contains { $0 >= 0x41 && $0 <= 0x5A } ? label.lowercased() : String(label)
            guard lower.hasPrefix("xn--") else { return lower }
            guard lower.utf8.count <= 63, let decoded = Punycode.decode(lower.utf8.dropFirst(4)) else {
                throw .badPunycode(lower)
            }
            guard decoded.contains(where: { $0.value >= 0x80 }) else { throw .asciiPunycode(lower) }
            try check(decoded, shown: lower)
            return lower
        }
        // Each non-ASCII code point costs at least one byte of the A-label, which has at most
        // 63: a longer label is refused before Punycode's quadratic encoding sees it.
        var scalars: [Unicode.Scalar] = []
        for scalar in label.unicodeScalars {
            guard scalars.count < 60 else { throw .badPunycode(String(label.prefix(20)) + "…") }
            let v = scalar.value
            scalars.append(v >= 0x41 && v <= 0x5A ? Unicode.Scalar(UInt8(v + 0x20)) : scalar)
        }
        let shown = String(String.UnicodeScalarView(scalars))
        try check(scalars, shown: shown)
        guard let encoded = Punycode.encode(scalars), encoded.utf8.count + 4 <= 63 else { throw .badPunycode(shown) }
        return "xn--" + encoded
    }

    /// Checks the Unicode form of an internationalized label.
    private static func check(_ scalars: [Unicode.Scalar], shown: String) throws(LabelProblem) {
        if scalars.count >= 4, scalars[0] == "x", scalars[1] == "n", scalars[2] == "-", scalars[3] == "-" {
            throw .badPunycode(shown)
        }
        for (i, scalar) in scalars.enumerated() {
            let v = scalar.value
            if v < 0x80 {
                let b = UInt8(v)
                guard (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2D else {
                    if let forbidden = URLCharacters.forbiddenClass(of: scalar) {
                        throw .forbidden(label: shown, codePoint: v, forbidden)
                    }
                    throw .notAllowed(label: shown, codePoint: v)
                }
                continue
            }
            if let forbidden = URLCharacters.forbiddenClass(of: scalar) {
                throw .forbidden(label: shown, codePoint: v, forbidden)
            }
            let properties = scalar.properties
            switch properties.generalCategory {
            case .lowercaseLetter, .otherLetter, .modifierLetter, .decimalNumber: break
            case .nonspacingMark, .spacingMark:
                if i == 0 { throw .leadingMark(shown) }
            default: throw .notAllowed(label: shown, codePoint: v)
            }
            guard let age = properties.age, age.major < 15 || (age.major == 15 && age.minor == 0),
                !properties.changesWhenNFKCCaseFolded, !isRightToLeft(v)
            else { throw .notAllowed(label: shown, codePoint: v) }
        }
        let text = String(String.UnicodeScalarView(scalars))
        guard text.precomposedStringWithCanonicalMapping.unicodeScalars.elementsEqual(text.unicodeScalars) else {
            throw .notNFC(shown)
        }
    }

    /// Whether `v` is in a block whose default bidi class is R or AL (Hebrew, Arabic,
    /// Syriac, Thaana, NKo, Samaritan, Mandaic, their supplements and presentation forms,
    /// and the right-to-left ranges of plane 1).
    private static func isRightToLeft(_ v: UInt32) -> Bool {
        (0x0590...0x08FF).contains(v) || (0xFB1D...0xFDFF).contains(v) || (0xFE70...0xFEFF).contains(v)
            || (0x10800...0x10FFF).contains(v) || (0x1E800...0x1EFFF).contains(v)
    }
}

/// RFC 3492 Punycode, the encoding of A-labels (`xn--…`).
package enum Punycode {
    private static let base = 36
    private static let tMin = 1
    private static let tMax = 26
    private static let skew = 38
    private static let damp = 700
    private static let initialBias = 72
    private static let initialN = 128
    /// Above any code point; sums past it have failed.
    private static let limit = 0x7FFF_FFFF

    /// Decodes Punycode (the text after `xn--`), or `nil` when it is not valid: a
    /// non-ASCII basic code point, a bad digit, an overflow, a value past U+10FFFF or a
    /// surrogate.
    package static func decode<C: Collection>(_ input: C) -> [Unicode.Scalar]? where C.Element == UInt8 {
        let bytes = Array(input)
        var output: [Unicode.Scalar] = []
        var start = 0
        if let delimiter = bytes.lastIndex(of: UInt8(ascii: "-")) {
            for b in bytes[..<delimiter] {
                guard b < 0x80 else { return nil }
                output.append(Unicode.Scalar(b))
            }
            start = delimiter + 1
        }
        var n = initialN
        var i = 0
        var bias = initialBias
        var position = start
        while position < bytes.count {
            let oldI = i
            var w = 1
            var k = base
            while true {
                guard position < bytes.count, let digit = digitValue(bytes[position]) else { return nil }
                position += 1
                guard digit <= (limit - i) / w else { return nil }
                i += digit * w
                let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                if digit < t { break }
                guard w <= limit / (base - t) else { return nil }
                w *= base - t
                k += base
            }
            let count = output.count + 1
            bias = adapt(i - oldI, count, oldI == 0)
            guard i / count <= limit - n else { return nil }
            n += i / count
            i %= count
            guard n <= 0x10FFFF, let scalar = Unicode.Scalar(UInt32(n)) else { return nil }
            output.insert(scalar, at: i)
            i += 1
        }
        return output
    }

    /// Encodes code points as Punycode (without `xn--`), or `nil` on overflow.
    package static func encode(_ input: [Unicode.Scalar]) -> String? {
        var output: [UInt8] = []
        for scalar in input where scalar.value < 0x80 { output.append(UInt8(scalar.value)) }
        let basicCount = output.count
        var handled = basicCount
        if basicCount > 0 { output.append(UInt8(ascii: "-")) }
        var n = initialN
        var delta = 0
        var bias = initialBias
        while handled < input.count {
            var m = Int.max
            for scalar in input where Int(scalar.value) >= n && Int(scalar.value) < m { m = Int(scalar.value) }
            guard (m - n) <= (limit - delta) / (handled + 1) else { return nil }
            delta += (m - n) * (handled + 1)
            n = m
            for scalar in input {
                let c = Int(scalar.value)
                if c < n {
                    delta += 1
                    guard delta < limit else { return nil }
                }
                if c == n {
                    var q = delta
                    var k = base
                    while true {
                        let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                        if q < t { break }
                        output.append(digitByte(t + (q - t) % (base - t)))
                        q = (q - t) / (base - t)
                        k += base
                    }
                    output.append(digitByte(q))
                    bias = adapt(delta, handled + 1, handled == basicCount)
                    delta = 0
                    handled += 1
                }
            }
            delta += 1
            n += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func adapt(_ delta: Int, _ count: Int, _ first: Bool) -> Int {
        var delta = first ? delta / damp : delta / 2
        delta += delta / count
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }

    private static func digitValue(_ b: UInt8) -> Int? {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(b - UInt8(ascii: "a"))
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(b - UInt8(ascii: "A"))
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(b - UInt8(ascii: "0")) + 26
        default: nil
        }
    }

    private static func digitByte(_ d: Int) -> UInt8 {
        d < 26 ? UInt8(ascii: "a") + UInt8(d) : UInt8(ascii: "0") + UInt8(d - 26)
    }
}

/// Why a URL's internationalized host label is refused (browsers and iOS could read it
/// differently).
public enum HostLabelProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// An `xn--` label that is not valid Punycode, or a label longer than 63 bytes as an
    /// A-label.
    case badPunycode(String)
    /// An `xn--` label whose Punycode holds only ASCII (it was never needed).
    case asciiPunycode(String)
    /// A label with a forbidden code point (a control, a bidi control, …).
    case forbidden(label: String, codePoint: UInt32, ForbiddenCharacterClass)
    /// A label with a code point readers map, refuse or order differently.
    case notAllowed(label: String, codePoint: UInt32)
    /// A label that starts with a combining mark.
    case leadingMark(String)
    /// A label that is not in Unicode Normalization Form C.
    case notNFC(String)

    /// The problem, phrased to follow "the URL has a host label ".
    public var description: String {
        switch self {
        case .badPunycode(let label): "'\(label)' that is not valid Punycode or is over 63 bytes"
        case .asciiPunycode(let label): "'\(label)' whose Punycode decodes to ASCII only"
        case .forbidden(let label, let value, let forbidden):
            "'\(label)' with \(URLCharacters.describe(value, forbidden))"
        case .notAllowed(let label, let value):
            "'\(label)' with \(URLCharacters.codePoint(value)), which browsers map, refuse or reorder"
        case .leadingMark(let label): "'\(label)' that starts with a combining mark"
        case .notNFC(let label): "'\(label)' that is not in Unicode normalization form C"
        }
    }
}
