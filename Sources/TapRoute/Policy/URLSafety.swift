/// The URL safety rules: which URLs from payloads may be used at all.
///
/// URLs in payloads are untrusted (Apple: "validate all URL parameters and discard any
/// malformed URLs"). A URL is rejected when it does not parse or browsers and iOS could read
/// it differently (``URLParts/parse(_:)``: whitespace, control and invisible characters, a
/// backslash, user info or a missing host in http(s), odd hosts, a bad port), is longer than
/// ``SecuritySettings/maxURLLength``, has a scheme outside
/// ``SecuritySettings/allowedSchemes`` or one that is never allowed (`javascript`, `data`,
/// `file`, `vbscript`, `blob`, `filesystem`), contains an encoded NUL (`%00`), hides a
/// forbidden code point (`URLCharacters`) or an overlong UTF-8 form behind percent-encoding
/// at any depth (`%E2%80%AE`, `%252500`), or has a host outside
/// ``SecuritySettings/allowedHosts`` when that list is set (compared in the host's ASCII
/// form, as browsers read it).
public struct URLSafety: Sendable {
    /// The rules.
    public let settings: SecuritySettings
    private let allowedSchemes: SmallStringSet

    private static let forbidden = SmallStringSet(SecuritySettings.forbiddenSchemes)

    /// Custom schemes whose URLs are not held to ``SecuritySettings/allowedHosts``.
    private let ownSchemes: SmallStringSet

    /// Creates the checker.
    /// - Parameters:
    ///   - settings: the rules.
    ///   - ownSchemes: the app's own custom schemes (and those its adapters claim): their
    ///     URLs are not held to ``SecuritySettings/allowedHosts``, whose entries are web
    ///     hosts — the first part of `myapp://product/1` names a screen of the app, not a
    ///     host. `http` and `https` are always held to it.
    public init(settings: SecuritySettings, ownSchemes: [String] = []) {
        self.settings = settings
        self.allowedSchemes = SmallStringSet(settings.allowedSchemes)
        self.ownSchemes = SmallStringSet(ownSchemes.map { $0.lowercased() }.filter { $0 != "http" && $0 != "https" })
    }

    /// A URL that was rejected, and the rule that rejected it.
    public struct Rejection: Error, Sendable, Hashable, CustomStringConvertible {
        /// The rules that reject a URL, with the offending part.
        public enum Rule: Sendable, Hashable {
            /// Longer than ``SecuritySettings/maxURLLength``: `length` bytes, `limit` allowed.
            case tooLong(length: Int, limit: Int)
            /// Not a URL, or not one browsers and iOS read alike (``URLParts/parse(_:)``):
            /// whitespace and control characters, credentials, a bad host or port, ….
            case malformed(URLParts.ParseFailure)
            /// A scheme that is never allowed (`javascript`, `data`, `file`, …).
            case forbiddenScheme(String)
            /// A scheme that is not in ``SecuritySettings/allowedSchemes``.
            case schemeNotAllowed(String)
            /// An http(s) URL without a host.
            case noHost
            /// An encoded NUL byte (`%00`).
            case encodedNUL
            /// A forbidden code point behind percent-encoding, at any depth.
            case encodedForbiddenCharacter(codePoint: UInt32, ForbiddenCharacterClass)
            /// An overlong or surrogate UTF-8 form behind percent-encoding.
            case encodedOverlongUTF8
            /// A host (in its ASCII form) that is not in ``SecuritySettings/allowedHosts``.
            case hostNotAllowed(String)
        }

        /// The rule that rejected the URL.
        public let rule: Rule
        /// The URL rejected, as given.
        public let url: String

        /// Creates a rejection of `url` by `rule`.
        public init(_ rule: Rule, url: String) {
            self.rule = rule
            self.url = url
        }

        /// The reason, phrased to follow the URL ("scheme 'javascript' is never allowed"),
        /// derived from ``rule``.
        public var reason: String {
            switch rule {
            case .tooLong(_, let limit): "is longer than \(limit) bytes"
            case .malformed(let failure): failure.reason
            case .forbiddenScheme(let scheme): "scheme '\(scheme)' is never allowed"
            case .schemeNotAllowed(let scheme): "scheme '\(scheme)' is not in security.allowedSchemes"
            case .noHost: "has no host"
            case .encodedNUL: "contains an encoded NUL byte (%00)"
            case .encodedForbiddenCharacter(let value, let forbidden): "contains an encoded \(URLCharacters.describe(value, forbidden))"
            case .encodedOverlongUTF8: "contains an encoded overlong or surrogate UTF-8 sequence"
            case .hostNotAllowed(let host): "host '\(host)' is not in security.allowedHosts"
            }
        }

        /// The reason (without the URL).
        public var description: String { reason }
    }

    /// Checks `url` and returns its parts when it may be used.
    /// - Throws: ``Rejection`` saying why it may not.
    public func check(_ url: String) throws(Rejection) -> URLParts {
        if url.utf8.count > settings.maxURLLength {
            throw Rejection(.tooLong(length: url.utf8.count, limit: settings.maxURLLength), url: url)
        }
        let parts: URLParts
        do {
            parts = try URLParts.parse(url)
        } catch {
            throw Rejection(.malformed(error), url: url)
        }
        if Self.forbidden.contains(parts.scheme) {
            throw Rejection(.forbiddenScheme(parts.scheme), url: url)
        }
        guard allowedSchemes.contains(parts.scheme) else {
            throw Rejection(.schemeNotAllowed(parts.scheme), url: url)
        }
        if parts.scheme == "http" || parts.scheme == "https" {
            guard parts.hasAuthority, !parts.host.isEmpty else { throw Rejection(.noHost, url: url) }
        }
        // The two checks below read percent-escapes only: most URLs have none, which one
        // search tells (a string without contiguous UTF-8 is checked in full).
        if url.utf8.withContiguousStorageIfAvailable({ URLParts.memoryIndex(of: UInt8(ascii: "%"), in: $0) != nil }) ?? true {
            if url.utf8.count >= 3, Self.containsEncodedNUL(url) {
                throw Rejection(.encodedNUL, url: url)
            }
            if let problem = Self.encodedProblem(url, parts: parts) {
                switch problem {
                case .forbidden(let value, let forbidden):
                    throw Rejection(.encodedForbiddenCharacter(codePoint: value, forbidden), url: url)
                case .overlong:
                    throw Rejection(.encodedOverlongUTF8, url: url)
                }
            }
        }
        if !settings.allowedHosts.isEmpty, !parts.host.isEmpty, !ownSchemes.contains(parts.scheme),
            !hostIsAllowed(parts.normalizedHost)
        {
            throw Rejection(.hostNotAllowed(parts.normalizedHost), url: url)
        }
        return parts
    }

    private func hostIsAllowed(_ host: String) -> Bool {
        for allowed in settings.allowedHosts {
            if allowed.hasPrefix("*.") {
                let suffix = allowed.dropFirst(1)  // ".example.com"
                if host.hasSuffix(suffix) || host == allowed.dropFirst(2) { return true }
            } else if host == allowed {
                return true
            }
        }
        return false
    }

    /// What the URL's fully percent-decoded form hides. In the query of a `mailto:` URL,
    /// `%0D` and `%0A` are line breaks of the message (RFC 6068 §5) and pass.
    private static func encodedProblem(_ url: String, parts: URLParts) -> URLCharacters.EncodedProblem? {
        var copy = url
        return copy.withUTF8 { bytes -> URLCharacters.EncodedProblem? in
            var exempt: Range<Int>?
            if parts.scheme == "mailto", let question = URLParts.memoryIndex(of: UInt8(ascii: "?"), in: bytes) {
                let end = URLParts.memoryIndex(of: UInt8(ascii: "#"), in: bytes) ?? bytes.count
                if question < end { exempt = question..<end }
            }
            return URLCharacters.firstEncodedProblem(in: bytes, exempt: exempt)
        }
    }

    /// Whether `url` holds `%00` anywhere.
    package static func containsEncodedNUL(_ url: String) -> Bool {
        var copy = url
        return copy.withUTF8 { bytes in
            // From one `%` to the next.
            var start = 0
            while start < bytes.count,
                let found = URLParts.memoryIndex(of: UInt8(ascii: "%"), in: UnsafeBufferPointer(rebasing: bytes[start...]))
            {
                let i = start + found
                guard i + 2 < bytes.count else { return false }
                if bytes[i + 1] == UInt8(ascii: "0"), bytes[i + 2] == UInt8(ascii: "0") { return true }
                start = i + 1
            }
            return false
        }
    }
}
