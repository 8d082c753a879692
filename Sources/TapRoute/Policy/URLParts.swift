/// A URL split into its RFC 3986 components, without Foundation.
///
/// TapRoute parses untrusted URLs itself so that the result is the same on every platform
/// and so that nothing is silently re-encoded: each component is the text as it appeared
/// (percent-escapes intact). Use ``percentDecoded(_:)`` and ``queryItems`` to read values.
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
    public var normalizedHost: String { host.lowercased() }

    /// The non-empty path segments, still percent-encoded.
    public var pathSegments: [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: true)
    }

    /// The query items with `URLComponents.queryItems` semantics: split on `&` and on the
    /// first `=`, names and values percent-decoded once, `+` kept as `+`; an item without
    /// `=` has the value `""`. Empty items (`a=1&&b=2`) are skipped.
    public var queryItems: [(name: String, value: String)] {
        guard let query, !query.isEmpty else { return [] }
        var items: [(String, String)] = []
        for part in query.split(separator: "&", omittingEmptySubsequences: true) {
            if let eq = part.firstIndex(of: "=") {
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
        let utf8 = string.utf8
        if utf8.isEmpty { throw ParseFailure(reason: "is empty") }
        for b in utf8 where b <= 0x20 || b == 0x7F {
            throw ParseFailure(reason: "contains whitespace or control characters")
        }
        guard let colon = utf8.firstIndex(of: UInt8(ascii: ":")) else { throw ParseFailure(reason: "has no scheme") }
        let schemeBytes = utf8[utf8.startIndex..<colon]
        guard let first = schemeBytes.first, isAlpha(first),
            schemeBytes.allSatisfy({
                isAlpha($0) || isDigit($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
            })
        else { throw ParseFailure(reason: "has no scheme") }
        let scheme = String(string[string.startIndex..<colon]).lowercased()
        var rest = string[string.index(after: colon)...]

        var fragment: String?
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[rest.startIndex..<hash]
        }
        var query: String?
        if let q = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: q)...])
            rest = rest[rest.startIndex..<q]
        }
        var hasAuthority = false
        var user: String?
        var host = ""
        var port: Int?
        if rest.hasPrefix("//") {
            hasAuthority = true
            rest = rest.dropFirst(2)
            let end = rest.firstIndex(of: "/") ?? rest.endIndex
            var authority = rest[rest.startIndex..<end]
            rest = rest[end...]
            if let at = authority.lastIndex(of: "@") {
                user = String(authority[authority.startIndex..<at])
                authority = authority[authority.index(after: at)...]
            }
            var portText: Substring?
            if authority.hasPrefix("[") {
                guard let close = authority.firstIndex(of: "]") else {
                    throw ParseFailure(reason: "has an unterminated IPv6 host")
                }
                host = String(authority[authority.startIndex...close])
                let after = authority[authority.index(after: close)...]
                if !after.isEmpty {
                    guard after.hasPrefix(":") else { throw ParseFailure(reason: "has a malformed host") }
                    portText = after.dropFirst()
                }
            } else if let c = authority.lastIndex(of: ":") {
                host = String(authority[authority.startIndex..<c])
                portText = authority[authority.index(after: c)...]
            } else {
                host = String(authority)
            }
            if let portText, !portText.isEmpty {
                guard portText.utf8.allSatisfy(isDigit), portText.utf8.count <= 5, let p = Int(portText), p <= 65535
                else { throw ParseFailure(reason: "has a bad port '\(portText)'") }
                port = p
            }
            if !host.hasPrefix("["), host.contains("[") || host.contains("]") {
                throw ParseFailure(reason: "has a malformed host")
            }
        }
        return URLParts(
            scheme: scheme,
            hasAuthority: hasAuthority,
            user: user,
            host: host,
            port: port,
            path: String(rest),
            query: query,
            fragment: fragment
        )
    }

    /// Decodes percent-escapes once (`%2F` → `/`); `+` stays `+`; a `%` not followed by two
    /// hexadecimal digits stays as it is; bytes that do not form UTF-8 become U+FFFD.
    public static func percentDecoded<S: StringProtocol>(_ text: S) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        let bytes = Array(text.utf8)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.count, let h = hex(bytes[i + 1]), let l = hex(bytes[i + 2]) {
                out.append(h << 4 | l)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
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
