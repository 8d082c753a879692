/// The repair `URL(string:)` makes on iOS 17 and later, for URLs TapRoute's one reading
/// rejects only because of characters iOS now percent-encodes.
///
/// Since iOS 17 (apps built with the iOS 17 SDK or later), `URL(string:)` parses RFC 3986
/// with `encodingInvalidCharacters: true`: when its path, query or fragment holds a
/// character RFC 3986 does not allow there (a space, `"`, `<`, `>`, `\`, `^`, a backtick, `{`,
/// `|`, `}`, `[`, `]`, a `%` that does not start an escape, non-ASCII text, and `#` or `?`
/// where they cannot stand), it percent-encodes that whole component, `%` included, and
/// opens the result; before iOS 17 it returns `nil` and a vendor SDK drops the tap
/// (<https://developer.apple.com/documentation/foundation/url/init(string:)>; the
/// implementation is `RFC3986Parser.parse(urlString:encodingInvalidCharacters:)` in
/// swiftlang/swift-foundation, `Sources/FoundationEssentials/URL/URLParser.swift`).
///
/// `repaired(_:)` makes exactly that repair, narrowly: it never touches the scheme or the
/// authority (user info, host, port), and it declines URLs holding a control character or
/// any other code point of `URLCharacters` (those stay rejected), and http(s), ws(s),
/// ftp and file URLs with a `\` before the query (browsers read it as `/`). The policy
/// runs the full safety check (``URLSafety``) on the repaired URL; only a URL that then
/// passes is used, with a `urlRepaired` warning.
package enum URLRepair {
    /// A repaired URL and what the repair encoded.
    package struct Repair: Sendable, Hashable {
        /// The URL as iOS 17 and later read it.
        package let url: String
        /// Each distinct character the repair percent-encoded, in order of first
        /// appearance, with its encoding (`" " → "%20"`, `"é" → "%C3%A9"`).
        package let encoded: [Encoded]
        /// The components the repair encoded, in URL order (`path`, `query`, `fragment`).
        package let components: [String]
    }

    /// One character the repair percent-encoded.
    package struct Encoded: Sendable, Hashable {
        /// The character as it stood.
        package let character: String
        /// Its percent-encoding (UTF-8).
        package let escape: String
    }

    /// The URL `URL(string:)` on iOS 17 and later makes of `url`, when that differs from `url`
    /// and the repair is one TapRoute accepts (see the type's summary); else `nil`.
    package static func repaired(_ url: String) -> Repair? {
        var copy = url
        return copy.withUTF8 { repaired(bytes: $0) }
    }

    private static func repaired(bytes: UnsafeBufferPointer<UInt8>) -> Repair? {
        let count = bytes.count
        var nonASCII = -1
        for i in 0..<count {
            let b = bytes[i]
            if b < 0x20 || b == 0x7F { return nil }
            if b >= 0x80, nonASCII < 0 { nonASCII = i }
        }
        if nonASCII >= 0, URLCharacters.firstForbiddenNonASCII(in: bytes, from: nonASCII) != nil { return nil }
        guard let colon = URLParts.memoryIndex(of: UInt8(ascii: ":"), in: bytes) else { return nil }
        guard URLParts.schemeLength(bytes) == colon else { return nil }
        var scheme = String(decoding: UnsafeBufferPointer(rebasing: bytes[0..<colon]), as: UTF8.self)
        if scheme.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) { scheme = scheme.lowercased() }

        // RFC 3986 component boundaries, as URLParts.parse and Foundation find them.
        var hierarchyEnd = count
        for i in (colon + 1)..<count where bytes[i] == UInt8(ascii: "?") || bytes[i] == UInt8(ascii: "#") {
            hierarchyEnd = i
            break
        }
        var pathStart = colon + 1
        if pathStart + 1 < hierarchyEnd, bytes[pathStart] == UInt8(ascii: "/"), bytes[pathStart + 1] == UInt8(ascii: "/") {
            pathStart += 2
            while pathStart < hierarchyEnd, bytes[pathStart] != UInt8(ascii: "/") { pathStart += 1 }
        }
        if URLParts.isSpecialScheme(scheme) || scheme == "file" {
            for i in (colon + 1)..<hierarchyEnd where bytes[i] == UInt8(ascii: "\\") { return nil }
        }
        var queryRange: Range<Int>?
        var fragmentRange: Range<Int>?
        if hierarchyEnd < count {
            if bytes[hierarchyEnd] == UInt8(ascii: "?") {
                var hash = count
                for i in (hierarchyEnd + 1)..<count where bytes[i] == UInt8(ascii: "#") {
                    hash = i
                    break
                }
                queryRange = (hierarchyEnd + 1)..<hash
                if hash < count { fragmentRange = (hash + 1)..<count }
            } else {
                fragmentRange = (hierarchyEnd + 1)..<count
            }
        }

        var out: [UInt8] = []
        out.reserveCapacity(count * 3)
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[0..<pathStart]))
        var encoded: [Encoded] = []
        var seen: Set<String> = []
        var components: [String] = []
        func emit(_ range: Range<Int>, name: String, allowed: Mask, firstSegment: Mask?) {
            let component = UnsafeBufferPointer(rebasing: bytes[range])
            guard !isValid(component, allowed: allowed) else {
                out.append(contentsOf: component)
                return
            }
            components.append(name)
            var mask = firstSegment ?? allowed
            var i = range.lowerBound
            while i < range.upperBound {
                let b = bytes[i]
                if b == UInt8(ascii: "/") { mask = allowed }
                if mask.contains(b) {
                    out.append(b)
                    i += 1
                    continue
                }
                // Encode the whole UTF-8 sequence of a non-ASCII character, naming it once.
                let length = b < 0x80 ? 1 : max(1, URLCharacters.decodeScalar(bytes, at: i).1)
                let end = min(i + length, range.upperBound)
                var escape = ""
                for k in i..<end {
                    let byte = bytes[k]
                    out.append(UInt8(ascii: "%"))
                    out.append(ASCIIHex.upperDigit(byte >> 4))
                    out.append(ASCIIHex.upperDigit(byte & 0xF))
                    escape += "%" + String(decoding: [ASCIIHex.upperDigit(byte >> 4), ASCIIHex.upperDigit(byte & 0xF)], as: UTF8.self)
                }
                let character = String(decoding: UnsafeBufferPointer(rebasing: bytes[i..<end]), as: UTF8.self)
                if seen.insert(character).inserted {
                    encoded.append(Encoded(character: character, escape: escape))
                }
                i = end
            }
        }
        let pathEnd = queryRange.map { $0.lowerBound - 1 } ?? fragmentRange.map { $0.lowerBound - 1 } ?? count
        let path = pathStart..<pathEnd
        let rootless = !path.isEmpty && bytes[pathStart] != UInt8(ascii: "/")
        emit(path, name: "path", allowed: .path, firstSegment: rootless ? .pathFirstSegment : nil)
        if let queryRange {
            out.append(UInt8(ascii: "?"))
            emit(queryRange, name: "query", allowed: .queryOrFragment, firstSegment: nil)
        }
        if let fragmentRange {
            out.append(UInt8(ascii: "#"))
            emit(fragmentRange, name: "fragment", allowed: .queryOrFragment, firstSegment: nil)
        }
        guard !components.isEmpty else { return nil }
        return Repair(url: String(decoding: out, as: UTF8.self), encoded: encoded, components: components)
    }

    /// Foundation's validity test for a component: ASCII only, every byte allowed, and each
    /// `%` followed by two hexadecimal digits.
    private static func isValid(_ bytes: UnsafeBufferPointer<UInt8>, allowed: Mask) -> Bool {
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "%") {
                guard i + 2 < bytes.count else { return false }
                guard ASCIIHex.value(bytes[i + 1]) != nil, ASCIIHex.value(bytes[i + 2]) != nil else { return false }
                i += 3
                continue
            }
            guard allowed.contains(b) else { return false }
            i += 1
        }
        return true
    }

    /// The ASCII bytes RFC 3986 allows raw in a component (Foundation's
    /// `URLComponentAllowedMask`): unreserved, sub-delims, `:`, `@`, and `/` (and `?` in a
    /// query or fragment); a rootless path's first segment has no `:`.
    struct Mask {
        let low: UInt64
        let high: UInt64

        func contains(_ b: UInt8) -> Bool {
            b < 64 ? low & (1 << UInt64(b)) != 0 : b < 128 && high & (1 << UInt64(b - 64)) != 0
        }

        static let path = Mask(allowing: "/:@")
        static let pathFirstSegment = Mask(allowing: "/@")
        static let queryOrFragment = Mask(allowing: "/:@?")

        private init(allowing extra: String) {
            var low: UInt64 = 0
            var high: UInt64 = 0
            let unreservedAndSubDelims = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;="
            for b in (unreservedAndSubDelims + extra).utf8 {
                if b < 64 { low |= 1 << UInt64(b) } else { high |= 1 << UInt64(b - 64) }
            }
            self.low = low
            self.high = high
        }
    }
}
