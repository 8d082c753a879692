/// A route from URLs to a screen of the app (`routes` in `config.yaml`).
///
/// A pattern is a URL whose path segments may be `{name}` (captures one segment,
/// percent-decoded) and whose last segment may be `*` (matches the rest of the path, possibly
/// nothing):
///
/// - `campaigndemoapp://products/{id}` — `campaigndemoapp://products/42?ref=push` →
///   `id=42`, `ref=push`
/// - `https://web.taptalk.io/chat/{roomID}`
/// - `myapp://help/*`
///
/// Scheme and host compare case-insensitively, the path case-sensitively; empty segments
/// (`//`, a trailing `/`) are ignored. The URL's query items join the parameters after the
/// captures, and a capture wins over a query item of the same name.
public struct Route: Sendable, Hashable {
    /// The pattern as written.
    public let pattern: String
    /// The screen a matching URL leads to.
    public let screen: String

    private let scheme: String
    private let host: String?
    private let segments: [Segment]
    private let matchesRest: Bool

    private enum Segment: Sendable, Hashable {
        case literal(String)
        case capture(String)
    }

    /// Why a pattern is not a route: the rule it breaks (``kind``).
    public struct PatternError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The rules a pattern can break.
        public enum Kind: Sendable, Hashable {
            /// The pattern (its captures read as plain segments) is not a URL.
            case notAURL(URLParts.ParseFailure)
            /// A query or a fragment.
            case queryOrFragment
            /// User info or a port.
            case userOrPort
            /// A capture, a wildcard or a brace in the host.
            case patternInHost
            /// A `*` segment that is not the last one.
            case wildcardNotLast
            /// A segment with braces that is not a `{name}` capture (`{}`, `{a`).
            case notACapture(segment: String)
            /// The same capture name twice.
            case repeatedCapture(name: String)
            /// A segment mixing text with a capture or a wildcard (`x{a}`).
            case mixedSegment(String)
        }

        /// The rule broken.
        public let kind: Kind

        /// Creates an error.
        public init(_ kind: Kind) { self.kind = kind }

        /// What is wrong, derived from ``kind``.
        public var reason: String {
            switch kind {
            case .notAURL(let failure): "it \(failure.reason)"
            case .queryOrFragment: "a pattern has no query or fragment; query items always join the parameters"
            case .userOrPort: "a pattern has no user or port"
            case .patternInHost: "the host cannot be a capture or wildcard, nor contain a brace"
            case .wildcardNotLast: "'*' must be the last segment"
            case .notACapture(let segment): "'\(segment)' is not a capture; write {name}"
            case .repeatedCapture(let name): "capture '{\(name)}' appears twice"
            case .mixedSegment(let segment): "segment '\(segment)' mixes text with a capture or wildcard; a capture is a whole segment"
            }
        }

        /// What is wrong.
        public var description: String { reason }
    }

    /// Creates a route.
    /// - Throws: ``PatternError`` when the pattern has no scheme, a query or fragment, a
    ///   `*` that is not the last segment, an empty or repeated `{name}`, or braces inside a
    ///   segment.
    public init(pattern: String, screen: String) throws(PatternError) {
        self.pattern = pattern
        self.screen = screen
        let parts: URLParts
        do {
            parts = try URLParts.parse(pattern.replacingBraces())
        } catch {
            throw PatternError(.notAURL(error))
        }
        guard parts.query == nil, parts.fragment == nil else {
            throw PatternError(.queryOrFragment)
        }
        guard parts.user == nil, parts.port == nil else {
            throw PatternError(.userOrPort)
        }
        scheme = parts.scheme
        host = parts.hasAuthority ? parts.normalizedHost : nil
        // Any brace in the host, not just `{`: `}` alone was accepted and never matched (the
        // pattern is parsed with braces replaced).
        // The braces were replaced byte for byte, so the pattern's host is at the same place.
        if parts.hasAuthority,
            Route.authority(of: pattern).contains(where: { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "}") || $0 == UInt8(ascii: "*") })
        {
            throw PatternError(.patternInHost)
        }
        let rawSegments = Route.splitPath(of: pattern, hasAuthority: parts.hasAuthority)
        var segments: [Segment] = []
        var matchesRest = false
        var names: Set<String> = []
        // Bytes, not Characters: a combining mark after `{` or `*` must not hide it.
        let open = UInt8(ascii: "{")
        let close = UInt8(ascii: "}")
        let star = UInt8(ascii: "*")
        for (i, raw) in rawSegments.enumerated() {
            let bytes = raw.utf8
            if bytes.count == 1 && bytes.first == star {
                guard i == rawSegments.count - 1 else { throw PatternError(.wildcardNotLast) }
                matchesRest = true
            } else if bytes.count >= 2 && bytes.first == open && bytes.last == close {
                let name = String(decoding: bytes.dropFirst().dropLast(), as: UTF8.self)
                guard !name.isEmpty, !name.utf8.contains(open), !name.utf8.contains(close) else {
                    throw PatternError(.notACapture(segment: String(raw)))
                }
                guard names.insert(name).inserted else { throw PatternError(.repeatedCapture(name: String(name))) }
                segments.append(.capture(name))
            } else {
                guard !bytes.contains(where: { $0 == open || $0 == close || $0 == star }) else {
                    throw PatternError(.mixedSegment(String(raw)))
                }
                segments.append(.literal(raw))
            }
        }
        self.segments = segments
        self.matchesRest = matchesRest
    }

    /// The bytes between `scheme://` and the next `/` of a pattern that has an authority.
    private static func authority(of pattern: String) -> Substring.UTF8View {
        var rest = Substring(pattern).utf8
        if let colon = rest.firstIndex(of: UInt8(ascii: ":")) { rest = rest[rest.index(after: colon)...] }
        rest = rest.dropFirst(2)
        return rest[..<(rest.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex)]
    }

    /// The pattern's path segments, split byte by byte exactly as ``URLParts`` splits a
    /// URL's path: searching by Character would miss a `:` or `/` followed by a combining
    /// mark (one Character with it), and the route would never match its own URLs.
    private static func splitPath(of pattern: String, hasAuthority: Bool) -> [String] {
        var rest = Substring(pattern).utf8
        if let colon = rest.firstIndex(of: UInt8(ascii: ":")) { rest = rest[rest.index(after: colon)...] }
        if hasAuthority {
            rest = rest.dropFirst(2)
            rest = rest[(rest.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex)...]
        }
        return rest.split(separator: UInt8(ascii: "/")).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The parameters when `url` matches this route: captures first, then query items.
    @inline(__always)
    public func match(_ url: URLParts) -> ScreenParameters? {
        // Inlined into the policy's loop over the routes, which then reads each route in place
        // instead of copying it for the call.
        guard url.scheme == scheme else { return nil }
        if let host {
            guard url.hasAuthority, url.normalizedHost == host else { return nil }
        } else if url.hasAuthority {
            return nil
        }
        // The path's non-empty segments (``URLParts/pathSegments``), read in place (no copy
        // of the path when its bytes are contiguous, as a native string's are).
        let captured: ScreenParameters?
        if let inPlace = url.path.utf8.withContiguousStorageIfAvailable({ captures($0) }) {
            captured = inPlace
        } else {
            var path = url.path
            captured = path.withUTF8 { captures($0) }
        }
        guard var parameters = captured else { return nil }
        for item in url.queryItems where parameters[item.name] == nil {
            parameters[item.name] = item.value
        }
        return parameters
    }

    /// The captures of the path whose bytes are `bytes`, or `nil` when it does not match.
    private func captures(_ bytes: UnsafeBufferPointer<UInt8>) -> ScreenParameters? {
        var count = 0
        var previous = UInt8(ascii: "/")
        for b in bytes {
            if previous == UInt8(ascii: "/"), b != UInt8(ascii: "/") { count += 1 }
            previous = b
        }
        guard matchesRest ? count >= segments.count : count == segments.count else { return nil }
        var parameters = ScreenParameters()
        var i = 0
        // By index: each segment is read in place, not copied.
        for index in segments.indices {
            while bytes[i] == UInt8(ascii: "/") { i += 1 }
            var end = i
            while end < bytes.count, bytes[end] != UInt8(ascii: "/") { end += 1 }
            let actual = UnsafeBufferPointer(rebasing: bytes[i..<end])
            switch segments[index] {
            case .literal(let literal):
                // Byte for byte, as URLs compare: not by Unicode canonical equivalence.
                guard actual.elementsEqual(literal.utf8) else { return nil }
            case .capture(let name):
                parameters[name] = URLParts.percentDecoded(bytes: actual)
            }
            i = end
        }
        return parameters
    }

    /// The shortest URL this route matches: each capture is `x`, a trailing `*` matches
    /// nothing. It is the URL most likely to pass the safety rules (the shortest, with no
    /// encoded bytes), so a route whose example is rejected can match no allowed URL.
    package var exampleURL: String {
        var url = scheme + ":"
        let path = segments.map { segment -> String in
            switch segment {
            case .literal(let literal): literal
            case .capture: "x"
            }
        }
        if let host {
            url += "//" + host
            for segment in path { url += "/" + segment }
        } else {
            url += path.joined(separator: "/")
        }
        return url
    }

    /// Whether this route matches every URL `other` matches — so that, listed before
    /// `other`, it leaves `other` nothing to match (it shadows it).
    ///
    /// True when both have the same scheme and host (or both none), and position by
    /// position each of this route's segments is a capture or the same literal as
    /// `other`'s; without a trailing `*` both must have the same number of segments and
    /// `other` no `*`; with one, `other` has at least as many segments. Routes that merely
    /// overlap (`p/{id}` and a later `p/new` is shadowed; `p/new` and a later `p/{id}` is
    /// not) are not reported.
    package func matchesEveryURL(of other: Route) -> Bool {
        guard scheme == other.scheme, host == other.host else { return false }
        if matchesRest {
            guard other.segments.count >= segments.count else { return false }
        } else {
            guard !other.matchesRest, other.segments.count == segments.count else { return false }
        }
        for (mine, theirs) in zip(segments, other.segments) {
            switch (mine, theirs) {
            case (.capture, _): continue
            case (.literal(let a), .literal(let b)) where a.utf8.elementsEqual(b.utf8): continue
            default: return false
            }
        }
        return true
    }

    /// Whether `scheme` is RFC 3986 scheme syntax: a letter, then letters, digits, `+`, `-`
    /// or `.`.
    package static func isValidScheme(_ scheme: String) -> Bool {
        URLParts.isSchemeName(scheme)
    }
}

extension Route {
    /// A URL this route matches with exactly `parameters`: each capture filled with its
    /// parameter (percent-encoded), the parameters no capture takes as query items in order,
    /// and nothing for a trailing `*`. `nil` when a capture has no parameter or an empty one
    /// (an empty path segment is ignored, so it cannot carry a value).
    ///
    /// `campaigndemoapp://products/{id}` with `id=42`, `ref=push` →
    /// `campaigndemoapp://products/42?ref=push`.
    public func url(for parameters: ScreenParameters) -> String? {
        var url = scheme + ":"
        if let host { url += "//" + host }
        var used: Set<String> = []
        for segment in segments {
            switch segment {
            case .literal(let literal): url += "/" + literal
            case .capture(let name):
                guard let value = parameters[name], !value.isEmpty else { return nil }
                used.insert(name)
                url += "/" + Self.percentEncoded(value)
            }
        }
        let query = parameters.filter { !used.contains($0.name) }
        if !query.isEmpty {
            url += "?" + query.map { Self.percentEncoded($0.name) + "=" + Self.percentEncoded($0.value) }.joined(separator: "&")
        }
        return url
    }

    /// `text` with every byte but RFC 3986's unreserved ones percent-encoded.
    static func percentEncoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for b in text.utf8 {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(b)
            default:
                out += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 0x0F)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension String {
    /// The pattern with `{` and `}` replaced by harmless characters, so it parses as a URL.
    fileprivate func replacingBraces() -> String {
        String(String.UnicodeScalarView(unicodeScalars.map { $0 == "{" || $0 == "}" ? "_" : $0 }))
    }
}

extension Route {
    /// For each route of `routes`, the index of the first earlier route that matches every
    /// URL it matches (``matchesEveryURL(of:)``), or `nil`.
    ///
    /// The earlier routes are kept in a tree of their segments per scheme and host, so a
    /// route is compared only with the earlier routes whose segments agree with its own
    /// position by position — not with every earlier route.
    package static func firstShadowing(in routes: [Route]) -> [Int?] {
        final class Node {
            var literals: [[UInt8]: Node] = [:]
            var capture: Node?
            var exact: Int?
            var rest: Int?
        }
        struct Key: Hashable {
            var scheme: String
            var host: String?
        }
        var roots: [Key: Node] = [:]
        var result: [Int?] = []
        result.reserveCapacity(routes.count)
        for (index, route) in routes.enumerated() {
            let key = Key(scheme: route.scheme, host: route.host)
            let root: Node
            if let existing = roots[key] {
                root = existing
            } else {
                root = Node()
                roots[key] = root
            }
            var first: Int?
            var pending: [(node: Node, depth: Int)] = [(root, 0)]
            while let (node, depth) = pending.popLast() {
                if let rest = node.rest { first = min(first ?? rest, rest) }
                guard depth < route.segments.count else {
                    if !route.matchesRest, let exact = node.exact { first = min(first ?? exact, exact) }
                    continue
                }
                if let capture = node.capture { pending.append((capture, depth + 1)) }
                if case .literal(let literal) = route.segments[depth], let child = node.literals[Array(literal.utf8)] {
                    pending.append((child, depth + 1))
                }
            }
            result.append(first)
            var node = root
            for segment in route.segments {
                switch segment {
                case .capture:
                    let child = node.capture ?? Node()
                    node.capture = child
                    node = child
                case .literal(let literal):
                    let bytes = Array(literal.utf8)
                    let child = node.literals[bytes] ?? Node()
                    node.literals[bytes] = child
                    node = child
                }
            }
            if route.matchesRest {
                if node.rest == nil { node.rest = index }
            } else if node.exact == nil {
                node.exact = index
            }
        }
        return result
    }
}
