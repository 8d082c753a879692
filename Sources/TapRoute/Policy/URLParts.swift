/// A URL split into its RFC 3986 components, without Foundation.
///
/// TapRoute parses untrusted URLs itself so that the result is the same on every platform
/// and so that nothing is silently re-encoded: each component is the text as it appeared
/// (percent-escapes intact). Use `percentDecoded(_:)` and ``queryItems`` to read values.
public struct URLParts: Sendable, Hashable {
    /// The scheme, lower-cased (`https`, `campaigndemoapp`).
    public var scheme: String
    /// Whether the URL has an authority (`scheme://…`).
    public var hasAuthority: Bool
    /// The user-info part of the authority, without the `@`.
    public var user: String?
    /// The host as written (IPv6 literals keep their brackets); empty when absent.
    public var host: String
    /// The port, when the authority has one.
    public var port: Int?
    /// The path, as written (may be empty).
    public var path: String
    /// The query without the `?`, or `nil` when there is no `?`.
    public var query: String?
    /// The fragment without the `#`, or `nil` when there is no `#`.
    public var fragment: String?

    /// The host as browsers and iOS read it, for comparisons: lower-cased (hosts compare
    /// case-insensitively), and an internationalized host of an http(s), ws(s) or ftp URL in
    /// its ASCII form (`bücher.de` → `xn--bcher-kva.de`, `IDNA`).
    public var normalizedHost: String {
        if host.utf8.contains(where: { $0 >= 0x80 }) {
            return (try? IDNA.asciiHost(Substring(host))) ?? host.lowercased()
        }
        return host.utf8.contains { $0 >= 0x41 && $0 <= 0x5A } ? host.lowercased() : host
    }

    /// The non-empty path segments, still percent-encoded.
    public var pathSegments: [Substring] {
        path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true).map { Substring($0) }
    }

    /// The query items with `URLComponents.queryItems` semantics: split on `&` and on the
    /// first `=`, names and values percent-decoded once, `+` kept as `+`; an item without
    /// `=` has the value `""`. Empty items (`a=1&&b=2`) are skipped.
    public var queryItems: [(name: String, value: String)] {
        guard let query, !query.isEmpty else { return [] }
        var items: [(String, String)] = []
        for bytes in query.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let part = Substring(bytes)
            if let eq = part.utf8.firstIndex(of: UInt8(ascii: "=")) {
                items.append(
                    (
                        URLParts.percentDecoded(part[part.startIndex..<eq]),
                        URLParts.percentDecoded(part[part.index(after: eq)...])
                    )
                )
            } else {
                items.append((URLParts.percentDecoded(part), ""))
            }
        }
        return items
    }

    /// The first value of the query item `name`.
    public func queryValue(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }

    /// Parses `string`, or returns `nil` when it is not a URL, or not one that browsers
    /// (WHATWG URL) and iOS read alike (the rules of ``parse(_:)``).
    public init?(_ string: String) {
        guard let parts = try? URLParts.parse(string) else { return nil }
        self = parts
    }

    init(
        scheme: String,
        hasAuthority: Bool,
        user: String?,
        host: String,
        port: Int?,
        path: String,
        query: String?,
        fragment: String?
    ) {
        self.scheme = scheme
        self.hasAuthority = hasAuthority
        self.user = user
        self.host = host
        self.port = port
        self.path = path
        self.query = query
        self.fragment = fragment
    }

    /// Why a string is not a URL.
    public struct ParseFailure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The reason, phrased to follow "the URL …" (e.g. "has no scheme").
        public let reason: String
        /// The reason.
        public var description: String { reason }
    }

    /// Parses `string`, explaining a failure.
    ///
    /// This is TapRoute's one reading of a URL. It accepts only URLs whose scheme, user
    /// info, host and port browsers (WHATWG URL) and iOS read the same way, and refuses:
    /// - whitespace, control characters and the other code points of `URLCharacters`;
    /// - for `http`, `https`, `ws`, `wss` and `ftp` (WHATWG's special schemes): a `\\`
    ///   before the query (also for `file`), no `//` or an empty host, any user info
    ///   (`https://a.com@b.com`), a host that ends in a number but is not a dotted-decimal
    ///   IPv4 address (`0x7f.1`, `1.2.3.4.`);
    /// - for other schemes: user info with more than one `:` or characters beyond
    ///   unreserved, `!$&'()*+,` and `%XX`; a non-ASCII host; user info or a port without a
    ///   host;
    /// - hosts with characters beyond RFC 3986 `unreserved` and `sub-delims`, or with a `%`
    ///   (custom schemes: one not starting an escape `%XX`);
    ///   IPv6 hosts not in canonical form; internationalized labels `IDNA` refuses.
    /// - Throws: ``ParseFailure`` saying what is malformed.
    public static func parse(_ string: String) throws(ParseFailure) -> URLParts {
        var copy = string
        let result = copy.withUTF8 { bytes in
            Result { () throws(ParseFailure) -> URLParts in try parse(bytes: bytes) }
        }
        return try result.get()
    }

    /// Parses the UTF-8 bytes of a URL in one pass over the bytes, without `String.Index`
    /// arithmetic.
    private static func parse(bytes: UnsafeBufferPointer<UInt8>) throws(ParseFailure) -> URLParts {
        let count = bytes.count
        if count == 0 { throw ParseFailure(reason: "is empty") }
        var colon = -1
        var hash = -1
        var question = -1
        var nonASCII = -1
        for i in 0..<count {
            let b = bytes[i]
            if b <= 0x20 || b == 0x7F { throw ParseFailure(reason: "contains whitespace or control characters") }
            if b >= 0x80, nonASCII < 0 { nonASCII = i }
            if colon < 0, b == UInt8(ascii: ":") { colon = i }
            if hash < 0, b == UInt8(ascii: "#") { hash = i }
            if hash < 0, question < 0, b == UInt8(ascii: "?") { question = i }
        }
        if nonASCII >= 0, let (value, forbidden) = URLCharacters.firstForbiddenNonASCII(in: bytes, from: nonASCII) {
            throw ParseFailure(reason: "contains \(URLCharacters.describe(value, forbidden))")
        }
        // The scheme ends at the first ':' that comes before any '/', '?' or '#'.
        guard colon > 0, isAlpha(bytes[0]) else { throw ParseFailure(reason: "has no scheme") }
        for i in 1..<colon {
            let b = bytes[i]
            guard isAlpha(b) || isDigit(b) || b == UInt8(ascii: "+") || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")
            else { throw ParseFailure(reason: "has no scheme") }
        }
        func text(_ from: Int, _ to: Int) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<to]), as: UTF8.self)
        }
        var scheme = text(0, colon)
        if scheme.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) { scheme = scheme.lowercased() }

        let fragment = hash >= 0 ? text(hash + 1, count) : nil
        let beforeFragment = hash >= 0 ? hash : count
        let query = question >= 0 && question > colon ? text(question + 1, beforeFragment) : nil
        let hierarchyEnd = question >= 0 && question > colon ? question : beforeFragment
        guard question < 0 || question > colon, hash < 0 || hash > colon else {
            throw ParseFailure(reason: "has no scheme")
        }
        let special = specialSchemes.contains(scheme)
        if special || scheme == "file" {
            // WHATWG URL readers (browsers, WebKit) take `\` for `/` before the query of these
            // schemes; iOS's URL reads it as `%5C`. The two would see different hosts and paths.
            for i in (colon + 1)..<hierarchyEnd where bytes[i] == UInt8(ascii: "\\") {
                throw ParseFailure(reason: "has a backslash before its query, which browsers read as '/' and iOS as '%5C'")
            }
        }

        var position = colon + 1
        var hasAuthority = false
        var user: String?
        var host = ""
        var port: Int?
        if position + 1 < hierarchyEnd, bytes[position] == UInt8(ascii: "/"), bytes[position + 1] == UInt8(ascii: "/") {
            hasAuthority = true
            position += 2
            var authorityEnd = position
            while authorityEnd < hierarchyEnd, bytes[authorityEnd] != UInt8(ascii: "/") { authorityEnd += 1 }
            var hostStart = position
            var at = authorityEnd - 1
            while at >= position, bytes[at] != UInt8(ascii: "@") { at -= 1 }
            if at >= position {
                let userInfo = text(position, at)
                if special {
                    throw ParseFailure(
                        reason: "has user info ('\(userInfo)@'), which browsers hide and which disguises the host"
                    )
                }
                try checkUserInfo(UnsafeBufferPointer(rebasing: bytes[position..<at]), shown: userInfo)
                user = userInfo
                hostStart = at + 1
            }
            var hostEnd = authorityEnd
            var portStart = -1
            if hostStart < authorityEnd, bytes[hostStart] == UInt8(ascii: "[") {
                var close = hostStart
                while close < authorityEnd, bytes[close] != UInt8(ascii: "]") { close += 1 }
                guard close < authorityEnd else { throw ParseFailure(reason: "has an unterminated IPv6 host") }
                hostEnd = close + 1
                if hostEnd < authorityEnd {
                    guard bytes[hostEnd] == UInt8(ascii: ":") else { throw ParseFailure(reason: "has a malformed host") }
                    portStart = hostEnd + 1
                }
                guard IPv6.isCanonical(UnsafeBufferPointer(rebasing: bytes[(hostStart + 1)..<close])) else {
                    throw ParseFailure(
                        reason: "has IPv6 host '\(text(hostStart, hostEnd))' not in its canonical form (RFC 5952, as browsers write it)"
                    )
                }
            } else {
                var c = authorityEnd - 1
                while c >= hostStart, bytes[c] != UInt8(ascii: ":") { c -= 1 }
                if c >= hostStart {
                    hostEnd = c
                    portStart = c + 1
                }
                for i in hostStart..<hostEnd where bytes[i] == UInt8(ascii: "[") || bytes[i] == UInt8(ascii: "]") {
                    throw ParseFailure(reason: "has a malformed host")
                }
                try checkHost(UnsafeBufferPointer(rebasing: bytes[hostStart..<hostEnd]), special: special)
            }
            host = text(hostStart, hostEnd)
            if host.isEmpty, user != nil || portStart >= 0 {
                throw ParseFailure(reason: "has no host")
            }
            if portStart >= 0, portStart < authorityEnd {
                var value = 0
                let digits = authorityEnd - portStart
                var valid = digits <= 5
                for i in portStart..<authorityEnd where valid {
                    let b = bytes[i]
                    if isDigit(b) { value = value * 10 + Int(b - 0x30) } else { valid = false }
                }
                guard valid, value <= 65535 else {
                    throw ParseFailure(reason: "has a bad port '\(text(portStart, authorityEnd))'")
                }
                port = value
            }
            position = authorityEnd
        }
        // Browsers find a host in `https:x`, `https:/x` and `https:///x`; iOS finds none.
        if special, host.isEmpty { throw ParseFailure(reason: "has no host") }
        return URLParts(
            scheme: scheme,
            hasAuthority: hasAuthority,
            user: user,
            host: host,
            port: port,
            path: text(position, hierarchyEnd),
            query: query,
            fragment: fragment
        )
    }

    /// The schemes WHATWG URL calls special (`file` aside, which is never allowed): their
    /// hosts are domains or IP addresses, and readers differ on anything else.
    static let specialSchemes: Set<String> = ["http", "https", "ws", "wss", "ftp"]

    /// Checks user info of a non-special scheme: RFC 3986 `userinfo` characters that WHATWG
    /// URL keeps as they are (unreserved, `!$&'()*+,`, one `:`, `%XX`).
    private static func checkUserInfo(_ bytes: UnsafeBufferPointer<UInt8>, shown: String) throws(ParseFailure) {
        var colons = 0
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: ":") {
                colons += 1
            } else if b == UInt8(ascii: "%") {
                guard i + 2 < bytes.count, URLCharacters.hexValue(bytes[i + 1]) != nil, URLCharacters.hexValue(bytes[i + 2]) != nil
                else { throw ParseFailure(reason: "has user info '\(shown)' with a '%' that is not an escape") }
                i += 2
            } else if !(isUnreserved(b) || b == UInt8(ascii: "!") || b == UInt8(ascii: "$") || b == UInt8(ascii: "&")
                || b == UInt8(ascii: "'") || (b >= UInt8(ascii: "(") && b <= UInt8(ascii: ",")))
            {
                throw ParseFailure(reason: "has user info '\(shown)' with a character readers treat differently")
            }
            i += 1
        }
        if colons > 1 { throw ParseFailure(reason: "has user info '\(shown)' with more than one ':'") }
    }

    /// Checks a host that is not an IPv6 literal: RFC 3986 `reg-name` characters
    /// (unreserved, sub-delimiters, and `%XX` escapes only in custom schemes); internationalized labels as `IDNA` allows them
    /// (non-ASCII only in special schemes); a special host that ends in a number is an IPv4
    /// address in its canonical dotted-decimal form.
    private static func checkHost(_ bytes: UnsafeBufferPointer<UInt8>, special: Bool) throws(ParseFailure) {
        var ascii = true
        var punycode = false
        var labelStart = 0
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            defer { i += 1 }
            if b >= 0x80 {
                ascii = false
                continue
            }
            // A custom scheme's host is opaque to WHATWG URL and iOS alike: escapes stay as
            // written (`taptalkio://room%20one`). A special host is decoded by browsers only.
            if b == UInt8(ascii: "%"), !special, i + 2 < bytes.count, URLCharacters.hexValue(bytes[i + 1]) != nil,
                URLCharacters.hexValue(bytes[i + 2]) != nil
            {
                i += 2
                continue
            }
            if b == UInt8(ascii: ".") {
                labelStart = i + 1
                continue
            }
            if i == labelStart + 3, b == UInt8(ascii: "-"), bytes[i - 1] == UInt8(ascii: "-"), bytes[i - 2] | 0x20 == UInt8(ascii: "n"),
                bytes[i - 3] | 0x20 == UInt8(ascii: "x")
            {
                punycode = true
            }
            guard isUnreserved(b) || isSubDelimiter(b) else {
                let shown = String(decoding: bytes, as: UTF8.self)
                if b == UInt8(ascii: "%") {
                    throw ParseFailure(reason: "has a percent-encoded host '\(shown)'")
                }
                throw ParseFailure(reason: "has host '\(shown)' with '\(Character(Unicode.Scalar(b)))', which readers treat differently")
            }
        }
        let hostText = Substring(String(decoding: bytes, as: UTF8.self))
        if !ascii, !special {
            throw ParseFailure(reason: "has a non-ASCII host '\(hostText)'; a custom scheme's host must be ASCII")
        }
        if ascii, !punycode {
            if special { try checkNumericHost(hostText.lowercased()) }
            return
        }
        let asciiHost: String
        do {
            asciiHost = try IDNA.asciiHost(hostText)
        } catch {
            throw ParseFailure(reason: "has a host label \(error)")
        }
        if special { try checkNumericHost(asciiHost) }
    }

    /// WHATWG URL reads a special host whose last label is a number (`1`, `0x1f`) as an IPv4
    /// address and rewrites it (`0x7f.1` → `127.0.0.1`); iOS keeps the text. Such a host is
    /// accepted only in the form both read the same: four decimal numbers 0–255 without
    /// leading zeros and without a trailing dot.
    private static func checkNumericHost(_ host: String) throws(ParseFailure) {
        var labels = host.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        if labels.count > 1, labels.last?.isEmpty == true { labels.removeLast() }
        guard let last = labels.last, !last.isEmpty else { return }
        let decimal = last.allSatisfy(isDigit)
        let hex =
            last.count >= 2 && last.first == UInt8(ascii: "0") && last.dropFirst().first.map({ $0 | 0x20 }) == UInt8(ascii: "x")
            && last.dropFirst(2).allSatisfy { URLCharacters.hexValue($0) != nil }
        guard decimal || hex else { return }
        let parts = host.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        let canonical =
            parts.count == 4
            && parts.allSatisfy { part in
                guard !part.isEmpty, part.count <= 3, part.allSatisfy(isDigit) else { return false }
                if part.count > 1, part.first == UInt8(ascii: "0") { return false }
                return part.reduce(0) { $0 * 10 + Int($1 - 0x30) } <= 255
            }
        guard canonical else {
            throw ParseFailure(
                reason: "has host '\(host)' that ends in a number but is not a dotted-decimal IPv4 address; browsers rewrite such hosts"
            )
        }
    }

    /// The scheme of `string`, lower-cased, without parsing the rest: the text before the
    /// first `:` when it is RFC 3986 scheme syntax, else `nil`. A cheap first test for
    /// adapters that only claim some schemes.
    public static func scheme(of string: String) -> String? {
        var length = 0
        for byte in string.utf8 {
            if byte == UInt8(ascii: ":") { break }
            let valid =
                length == 0
                ? isAlpha(byte)
                : isAlpha(byte) || isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
                    || byte == UInt8(ascii: ".")
            guard valid else { return nil }
            length += 1
        }
        guard length > 0, length < string.utf8.count else { return nil }
        let scheme = String(decoding: string.utf8.prefix(length), as: UTF8.self)
        return scheme.utf8.contains { $0 >= 0x41 && $0 <= 0x5A } ? scheme.lowercased() : scheme
    }

    /// Decodes percent-escapes once (`%2F` → `/`); `+` stays `+`; a `%` not followed by two
    /// hexadecimal digits stays as it is; bytes that do not form UTF-8 become U+FFFD.
    public static func percentDecoded<S: StringProtocol>(_ text: S) -> String {
        if let decoded = text.utf8.withContiguousStorageIfAvailable({ decode($0) ?? String(text) }) { return decoded }
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { decode($0) } ?? String(text)
    }

    /// Decodes percent-escapes once; the same as the generic overload,
    /// without generic dispatch.
    public static func percentDecoded(_ text: Substring) -> String {
        var text = text
        return text.withUTF8 { decode($0) } ?? String(text)
    }

    /// Decodes percent-escapes once; the same as the generic overload,
    /// without generic dispatch.
    public static func percentDecoded(_ text: String) -> String {
        var copy = text
        return copy.withUTF8 { decode($0) } ?? text
    }

    /// The decoded text, or `nil` when `bytes` holds no `%` (the text is its own decoding).
    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard let base = bytes.baseAddress, let first = memoryIndex(of: UInt8(ascii: "%"), in: bytes) else { return nil }
        let count = bytes.count
        return String(unsafeUninitializedCapacity: count) { out in
            guard let target = out.baseAddress else { return 0 }
            target.update(from: base, count: first)
            var o = first
            var i = first
            while i < count {
                let b = base[i]
                if b == UInt8(ascii: "%"), i + 2 < count, let h = hex(base[i + 1]), let l = hex(base[i + 2]) {
                    target[o] = h << 4 | l
                    i += 3
                } else {
                    target[o] = b
                    i += 1
                }
                o += 1
            }
            return o
        }
    }

    /// The index of the first `byte` in `bytes`.
    @inline(__always)
    static func memoryIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        var i = 0
        while i < bytes.count {
            if base[i] == byte { return i }
            i += 1
        }
        return nil
    }

    private static func hex(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): b - 0x30
        case UInt8(ascii: "a")...UInt8(ascii: "f"): b - 0x61 + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): b - 0x41 + 10
        default: nil
        }
    }
}

@inline(__always) private func isAlpha(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }
@inline(__always) private func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
/// RFC 3986 `unreserved`: letters, digits, `-`, `.`, `_`, `~`.
@inline(__always) private func isUnreserved(_ b: UInt8) -> Bool {
    isAlpha(b) || isDigit(b) || b == UInt8(ascii: "-") || b == UInt8(ascii: ".") || b == UInt8(ascii: "_") || b == UInt8(ascii: "~")
}
/// RFC 3986 `sub-delims`: `!$&'()*+,;=`.
@inline(__always) private func isSubDelimiter(_ b: UInt8) -> Bool {
    b == UInt8(ascii: "!") || b == UInt8(ascii: "$") || (b >= UInt8(ascii: "&") && b <= UInt8(ascii: ",")) || b == UInt8(ascii: ";")
        || b == UInt8(ascii: "=")
}

/// IPv6 literals as WHATWG URL writes them.
enum IPv6 {
    /// Whether `bytes` (between the brackets) is an IPv6 address written exactly as WHATWG
    /// URL serializes it, ignoring letter case: eight 16-bit pieces in hexadecimal without
    /// leading zeros, the first longest run of two or more zero pieces written `::`, no
    /// embedded IPv4 part, no zone.
    static func isCanonical(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let pieces = parse(bytes) else { return false }
        let canonical = serialize(pieces)
        return canonical.utf8.elementsEqual(bytes.lazy.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 })
    }

    /// The eight pieces, or `nil` when `bytes` is not an IPv6 address without an IPv4 part.
    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt16]? {
        var pieces = [UInt16](repeating: 0, count: 8)
        var index = 0
        var compress: Int?
        var p = 0
        let n = bytes.count
        if p < n, bytes[p] == UInt8(ascii: ":") {
            guard p + 1 < n, bytes[p + 1] == UInt8(ascii: ":") else { return nil }
            p += 2
            index = 1
            compress = 1
        }
        while p < n {
            guard index < 8 else { return nil }
            if bytes[p] == UInt8(ascii: ":") {
                guard compress == nil else { return nil }
                p += 1
                index += 1
                compress = index
                continue
            }
            var value: UInt16 = 0
            var length = 0
            while length < 4, p < n, let digit = URLCharacters.hexValue(bytes[p]) {
                value = value << 4 | UInt16(digit)
                p += 1
                length += 1
            }
            guard length > 0 else { return nil }
            if p < n {
                guard bytes[p] == UInt8(ascii: ":") else { return nil }
                p += 1
                guard p < n else { return nil }
            }
            pieces[index] = value
            index += 1
        }
        if let compress {
            var swaps = index - compress
            index = 7
            while index != 0, swaps > 0 {
                pieces.swapAt(index, compress + swaps - 1)
                index -= 1
                swaps -= 1
            }
        } else if index != 8 {
            return nil
        }
        return pieces
    }

    /// WHATWG URL's IPv6 serializer.
    private static func serialize(_ pieces: [UInt16]) -> String {
        var bestStart = -1
        var bestLength = 1
        var i = 0
        while i < 8 {
            if pieces[i] == 0 {
                var j = i
                while j < 8, pieces[j] == 0 { j += 1 }
                if j - i > bestLength {
                    bestStart = i
                    bestLength = j - i
                }
                i = j
            } else {
                i += 1
            }
        }
        var out = ""
        var ignore0 = false
        for k in 0..<8 {
            if ignore0, pieces[k] == 0 { continue }
            ignore0 = false
            if k == bestStart {
                out += k == 0 ? "::" : ":"
                ignore0 = true
                continue
            }
            out += String(pieces[k], radix: 16)
            if k != 7 { out += ":" }
        }
        return out
    }
}
