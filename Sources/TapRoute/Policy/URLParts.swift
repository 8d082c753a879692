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

    /// The host lower-cased, for comparisons (hosts compare case-insensitively).
    public var normalizedHost: String {
        host.utf8.contains { $0 >= 0x41 && $0 <= 0x5A || $0 >= 0x80 } ? host.lowercased() : host
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

    /// Parses `string`, or returns `nil` when it is not a URL: no scheme, a bad port, an
    /// unterminated IPv6 literal, or whitespace or control characters anywhere.
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
        for i in 0..<count {
            let b = bytes[i]
            if b <= 0x20 || b == 0x7F { throw ParseFailure(reason: "contains whitespace or control characters") }
            if colon < 0, b == UInt8(ascii: ":") { colon = i }
            if hash < 0, b == UInt8(ascii: "#") { hash = i }
            if hash < 0, question < 0, b == UInt8(ascii: "?") { question = i }
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
                user = text(position, at)
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
            }
            host = text(hostStart, hostEnd)
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
