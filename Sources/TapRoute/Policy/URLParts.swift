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
    public var host: String {
        didSet { normalizedHost = Self.normalized(host: host) }
    }
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
    ///
    /// Worked out once, when the URL is parsed or its host set: routes, the app's domains
    /// and the allowed hosts all compare it.
    public private(set) var normalizedHost: String

    private static func normalized(host: String) -> String {
        var text = host
        let (upper, nonASCII) = text.withUTF8 { bytes in
            var upper = false
            var nonASCII = false
            for b in bytes {
                nonASCII = nonASCII || b >= 0x80
                upper = upper || b &- 0x41 < 26
            }
            return (upper, nonASCII)
        }
        if nonASCII {
            return (try? IDNA.asciiHost(Substring(host))) ?? host.lowercased()
        }
        return upper ? host.lowercased() : host
    }

    /// The non-empty path segments, still percent-encoded.
    public var pathSegments: [Substring] {
        path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true).map { Substring($0) }
    }

    /// The query items with `URLComponents.queryItems` semantics: split on `&` and on the
    /// first `=`, names and values percent-decoded once, `+` kept as `+`; an item without
    /// `=` has the value `""`. Empty items (`a=1&&b=2`) are skipped. Each keeps its raw value
    /// too (``QueryItem/rawValue``).
    public var queryItems: [QueryItem] {
        QueryItem.items(of: query)
    }

    /// The first value of the query item `name`.
    public func queryValue(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }

    /// Why a string is not a URL: the rule it breaks (``kind``), with the offending part.
    public struct ParseFailure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The rules a URL can break.
        public enum Kind: Sendable, Hashable {
            /// The string is empty.
            case empty
            /// An ASCII control character or space, at byte `offset`.
            case controlCharacter(offset: Int)
            /// A forbidden non-ASCII code point (``ForbiddenCharacterClass``).
            case forbiddenCharacter(codePoint: UInt32, ForbiddenCharacterClass)
            /// No scheme, or not one RFC 3986 allows, before the first `:`.
            case noScheme
            /// A `\` before the query of a special scheme or `file`, at byte `offset`.
            case backslash(offset: Int)
            /// User info (`user@`) in a special scheme's URL: credentials that disguise the
            /// host.
            case credentials(userInfo: String)
            /// User info of a custom scheme with a `%` that does not start an escape.
            case userInfoBadEscape(userInfo: String)
            /// User info of a custom scheme with a character readers treat differently.
            case userInfoCharacter(userInfo: String)
            /// User info of a custom scheme with more than one `:`.
            case userInfoColons(userInfo: String)
            /// An IPv6 host without its `]`.
            case unterminatedIPv6Host
            /// A bracket where a host cannot have one, or text after an IPv6 host that is not
            /// a port.
            case malformedHost
            /// An IPv6 host not in its canonical form (RFC 5952).
            case nonCanonicalIPv6Host(String)
            /// No host where one is needed (http(s), or with user info or a port).
            case noHost
            /// A port that is not a number from 0 to 65535.
            case badPort(String)
            /// A percent-encoded special host.
            case percentEncodedHost(String)
            /// A host with a character outside RFC 3986 `unreserved` and `sub-delims`.
            case hostCharacter(host: String, character: Character)
            /// A non-ASCII host of a custom scheme.
            case nonASCIICustomHost(String)
            /// An internationalized host label the IDNA rules refuse (``HostLabelProblem``).
            case hostLabel(HostLabelProblem)
            /// A special host that ends in a number but is not a dotted-decimal IPv4 address.
            case numericHost(String)
        }

        /// The rule broken.
        public let kind: Kind

        /// Creates a failure.
        public init(_ kind: Kind) { self.kind = kind }

        /// The reason, phrased to follow "the URL …" (e.g. "has no scheme"), derived from
        /// ``kind``.
        public var reason: String {
            switch kind {
            case .empty: "is empty"
            case .controlCharacter: "contains whitespace or control characters"
            case .forbiddenCharacter(let value, let forbidden): "contains \(URLCharacters.describe(value, forbidden))"
            case .noScheme: "has no scheme"
            case .backslash: "has a backslash before its query, which browsers read as '/' and iOS as '%5C'"
            case .credentials(let userInfo): "has user info ('\(userInfo)@'), which browsers hide and which disguises the host"
            case .userInfoBadEscape(let userInfo): "has user info '\(userInfo)' with a '%' that is not an escape"
            case .userInfoCharacter(let userInfo): "has user info '\(userInfo)' with a character readers treat differently"
            case .userInfoColons(let userInfo): "has user info '\(userInfo)' with more than one ':'"
            case .unterminatedIPv6Host: "has an unterminated IPv6 host"
            case .malformedHost: "has a malformed host"
            case .nonCanonicalIPv6Host(let host):
                "has IPv6 host '\(host)' not in its canonical form (RFC 5952, as browsers write it)"
            case .noHost: "has no host"
            case .badPort(let port): "has a bad port '\(port)'"
            case .percentEncodedHost(let host): "has a percent-encoded host '\(host)'"
            case .hostCharacter(let host, let character): "has host '\(host)' with '\(character)', which readers treat differently"
            case .nonASCIICustomHost(let host): "has a non-ASCII host '\(host)'; a custom scheme's host must be ASCII"
            case .hostLabel(let problem): "has a host label \(problem)"
            case .numericHost(let host):
                "has host '\(host)' that ends in a number but is not a dotted-decimal IPv4 address; browsers rewrite such hosts"
            }
        }

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
        var failure = ParseFailure(.empty)
        let parts = copy.withUTF8 { bytes -> URLParts? in
            do throws(ParseFailure) {
                return try parse(bytes: bytes)
            } catch {
                failure = error
                return nil
            }
        }
        guard let parts else { throw failure }
        return parts
    }

    /// Parses the UTF-8 bytes of a URL in one pass over the bytes, without `String.Index`
    /// arithmetic.
    private static func parse(bytes: UnsafeBufferPointer<UInt8>) throws(ParseFailure) -> URLParts {
        let count = bytes.count
        if count == 0 { throw ParseFailure(.empty) }
        var colon = -1
        var hash = -1
        var question = -1
        var nonASCII = -1
        var i = 0
        while i < count {
            // Eight bytes at a time: most words hold no control byte, space, DEL, non-ASCII
            // byte, `:`, `#` or `?`, and the others are read through a mask of each (the lowest
            // set bit marks the first). The last few bytes of a URL of eight or more are read
            // as a word too, topped up with letters (``tailWord(_:from:count:fill:)``).
            if count >= 8, let base = bytes.baseAddress {
                let word =
                    i + 8 <= count
                    ? UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
                    : tailWord(base, from: i, count: count, fill: UInt8(ascii: "a"))
                let marks = WordMarks(word)
                if marks.any {
                    if marks.control != 0 {
                        throw ParseFailure(.controlCharacter(offset: i + marks.control.trailingZeroBitCount >> 3))
                    }
                    if nonASCII < 0, marks.nonASCII != 0 { nonASCII = i + marks.nonASCII.trailingZeroBitCount >> 3 }
                    if colon < 0, marks.colon != 0 { colon = i + marks.colon.trailingZeroBitCount >> 3 }
                    if hash < 0 {
                        // A `?` counts only before the first `#`.
                        if question < 0, marks.question != 0,
                            marks.hash == 0 || marks.question.trailingZeroBitCount < marks.hash.trailingZeroBitCount
                        {
                            question = i + marks.question.trailingZeroBitCount >> 3
                        }
                        if marks.hash != 0 { hash = i + marks.hash.trailingZeroBitCount >> 3 }
                    }
                }
                i += 8
                continue
            }
            while i < count {
                let b = bytes[i]
                if b <= 0x20 || b == 0x7F { throw ParseFailure(.controlCharacter(offset: i)) }
                if b >= 0x80, nonASCII < 0 { nonASCII = i }
                if colon < 0, b == UInt8(ascii: ":") { colon = i }
                if hash < 0, b == UInt8(ascii: "#") { hash = i }
                if hash < 0, question < 0, b == UInt8(ascii: "?") { question = i }
                i += 1
            }
        }
        if nonASCII >= 0, let (value, forbidden) = URLCharacters.firstForbiddenNonASCII(in: bytes, from: nonASCII) {
            throw ParseFailure(.forbiddenCharacter(codePoint: value, forbidden))
        }
        // The scheme ends at the first ':' (which then comes before any '/', '?' or '#'); its
        // syntax (``schemeLength(_:)``) and case are read in one pass.
        guard colon > 0 else { throw ParseFailure(.noScheme) }
        var upperInScheme = false
        for i in 0..<colon {
            guard isSchemeByte(bytes[i], first: i == 0) else { throw ParseFailure(.noScheme) }
            upperInScheme = upperInScheme || bytes[i] &- 0x41 < 26
        }
        // The bytes are a `String`'s, and every cut below is at an ASCII byte.
        let isASCII = nonASCII < 0
        func text(_ from: Int, _ to: Int) -> String {
            String(knownValidUTF8: UnsafeBufferPointer(rebasing: bytes[from..<to]), isASCII: isASCII)
        }
        var scheme = text(0, colon)
        if upperInScheme { scheme = scheme.lowercased() }

        let fragment = hash >= 0 ? text(hash + 1, count) : nil
        let beforeFragment = hash >= 0 ? hash : count
        let query = question >= 0 && question > colon ? text(question + 1, beforeFragment) : nil
        let hierarchyEnd = question >= 0 && question > colon ? question : beforeFragment
        guard question < 0 || question > colon, hash < 0 || hash > colon else {
            throw ParseFailure(.noScheme)
        }
        let special = isSpecialScheme(scheme)
        if special || scheme == "file" {
            // WHATWG URL readers (browsers, WebKit) take `\` for `/` before the query of these
            // schemes; iOS's URL reads it as `%5C`. The two would see different hosts and paths.
            if let i = firstIndex(of: UInt8(ascii: "\\"), in: bytes, from: colon + 1, to: hierarchyEnd) {
                throw ParseFailure(.backslash(offset: i))
            }
        }

        var position = colon + 1
        var hasAuthority = false
        var user: String?
        var host = ""
        var normalizedHost: String?
        var port: Int?
        if position + 1 < hierarchyEnd, bytes[position] == UInt8(ascii: "/"), bytes[position + 1] == UInt8(ascii: "/") {
            hasAuthority = true
            position += 2
            // The searches below go eight bytes at a time (`memoryIndex`).
            let authorityEnd = firstIndex(of: UInt8(ascii: "/"), in: bytes, from: position, to: hierarchyEnd) ?? hierarchyEnd
            var hostStart = position
            if let at = lastIndex(of: UInt8(ascii: "@"), in: bytes, from: position, to: authorityEnd) {
                let userInfo = text(position, at)
                if special {
                    throw ParseFailure(.credentials(userInfo: userInfo))
                }
                try checkUserInfo(UnsafeBufferPointer(rebasing: bytes[position..<at]), shown: userInfo)
                user = userInfo
                hostStart = at + 1
            }
            var hostEnd = authorityEnd
            var portStart = -1
            // Whether the host has an upper-case letter, noted as its bytes are checked (a host
            // that is not ASCII comes back from ``checkHost(_:special:upper:)`` normalized).
            var hostHasUpper = false
            if hostStart < authorityEnd, bytes[hostStart] == UInt8(ascii: "[") {
                guard let close = firstIndex(of: UInt8(ascii: "]"), in: bytes, from: hostStart, to: authorityEnd) else {
                    throw ParseFailure(.unterminatedIPv6Host)
                }
                hostEnd = close + 1
                if hostEnd < authorityEnd {
                    guard bytes[hostEnd] == UInt8(ascii: ":") else { throw ParseFailure(.malformedHost) }
                    portStart = hostEnd + 1
                }
                guard IPv6.isCanonical(UnsafeBufferPointer(rebasing: bytes[(hostStart + 1)..<close])) else {
                    throw ParseFailure(.nonCanonicalIPv6Host(text(hostStart, hostEnd)))
                }
                // Hexadecimal digits and colons only, in either case.
                for i in hostStart..<hostEnd where bytes[i] &- 0x41 < 26 { hostHasUpper = true }
            } else {
                if let c = lastIndex(of: UInt8(ascii: ":"), in: bytes, from: hostStart, to: authorityEnd) {
                    hostEnd = c
                    portStart = c + 1
                }
                if firstIndex(of: UInt8(ascii: "["), in: bytes, from: hostStart, to: hostEnd) != nil
                    || firstIndex(of: UInt8(ascii: "]"), in: bytes, from: hostStart, to: hostEnd) != nil
                {
                    throw ParseFailure(.malformedHost)
                }
                normalizedHost = try checkHost(
                    UnsafeBufferPointer(rebasing: bytes[hostStart..<hostEnd]),
                    special: special,
                    upper: &hostHasUpper
                )
            }
            host = text(hostStart, hostEnd)
            if normalizedHost == nil { normalizedHost = hostHasUpper ? host.lowercased() : host }
            if host.isEmpty, user != nil || portStart >= 0 {
                throw ParseFailure(.noHost)
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
                    throw ParseFailure(.badPort(text(portStart, authorityEnd)))
                }
                port = value
            }
            position = authorityEnd
        }
        // Browsers find a host in `https:x`, `https:/x` and `https:///x`; iOS finds none.
        if special, host.isEmpty { throw ParseFailure(.noHost) }
        return URLParts(
            scheme: scheme,
            hasAuthority: hasAuthority,
            user: user,
            host: host,
            port: port,
            path: text(position, hierarchyEnd),
            query: query,
            fragment: fragment,
            normalizedHost: normalizedHost ?? Self.normalized(host: host)
        )
    }

    /// The bytes of an eight-byte word that ``parse(_:)``'s first scan looks for, one mask
    /// each: the high bit of every such byte is set, and possibly of bytes after the first one
    /// (the borrow of the "has a byte less than / equal to" tricks), so the lowest set bit of a
    /// mask marks the first such byte exactly.
    package struct WordMarks {
        /// Control bytes, space and DEL.
        package let control: UInt64
        /// Bytes that are not ASCII.
        package let nonASCII: UInt64
        /// `:`.
        package let colon: UInt64
        /// `#`.
        package let hash: UInt64
        /// `?`.
        package let question: UInt64

        /// The marks of `word` (its first byte in the low eight bits).
        @inline(__always)
        package init(_ word: UInt64) {
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            control = ((word &- ones &* 0x21) & ~word & highs) | bytesEqual(word, to: 0x7F)
            nonASCII = word & highs
            colon = bytesEqual(word, to: UInt8(ascii: ":"))
            hash = bytesEqual(word, to: UInt8(ascii: "#"))
            question = bytesEqual(word, to: UInt8(ascii: "?"))
        }

        /// Whether the word holds any such byte — exactly: a flag set by a borrow always sits
        /// above a true match, so there is no false positive or negative.
        @inline(__always)
        package var any: Bool { (control | nonASCII | colon | hash | question) != 0 }
    }

    /// Whether the lower-case `scheme` is one WHATWG URL calls special — `http`, `https`, `ws`,
    /// `wss`, `ftp` (`file` aside, which is never allowed): their hosts are domains or IP
    /// addresses, and readers differ on anything else. Compared by length and bytes, without
    /// hashing.
    @inline(__always)
    static func isSpecialScheme(_ scheme: String) -> Bool {
        switch scheme.utf8.count {
        case 2: scheme == "ws"
        case 3: scheme == "wss" || scheme == "ftp"
        case 4: scheme == "http"
        case 5: scheme == "https"
        default: false
        }
    }

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
                guard i + 2 < bytes.count, ASCIIHex.value(bytes[i + 1]) != nil, ASCIIHex.value(bytes[i + 2]) != nil
                else { throw ParseFailure(.userInfoBadEscape(userInfo: shown)) }
                i += 2
            } else if !(isUnreserved(b) || b == UInt8(ascii: "!") || b == UInt8(ascii: "$") || b == UInt8(ascii: "&")
                || b == UInt8(ascii: "'") || (b >= UInt8(ascii: "(") && b <= UInt8(ascii: ",")))
            {
                throw ParseFailure(.userInfoCharacter(userInfo: shown))
            }
            i += 1
        }
        if colons > 1 { throw ParseFailure(.userInfoColons(userInfo: shown)) }
    }

    /// Checks a host that is not an IPv6 literal: RFC 3986 `reg-name` characters
    /// (unreserved, sub-delimiters, and `%XX` escapes only in custom schemes); internationalized labels as `IDNA` allows them
    /// (non-ASCII only in special schemes); a special host that ends in a number is an IPv4
    /// address in its canonical dotted-decimal form. Returns the ASCII form `IDNA` gave a
    /// non-ASCII host (its ``normalizedHost``, not worked out again), else `nil`; sets `upper`
    /// when an ASCII byte of the host is an upper-case letter (so that the caller need not read
    /// the host again to lower-case it).
    private static func checkHost(
        _ bytes: UnsafeBufferPointer<UInt8>,
        special: Bool,
        upper: inout Bool
    ) throws(ParseFailure) -> String? {
        var ascii = true
        var punycode = false
        var labelStart = 0
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            // Lower-case letters and digits, nearly every byte of a host, pass every test
            // below (ASCII, not upper-case, not `%`, `.` or `-`, unreserved): one range test
            // each instead of the chain.
            if b &- 0x61 < 26 || b &- 0x30 < 10 {
                i += 1
                continue
            }
            defer { i += 1 }
            if b >= 0x80 {
                ascii = false
                continue
            }
            // Upper-case letters, noted for the caller (`A`–`Z` are 0x41–0x5A).
            upper = upper || b &- 0x41 < 26
            // A custom scheme's host is opaque to WHATWG URL and iOS alike: escapes stay as
            // written (`taptalkio://room%20one`). A special host is decoded by browsers only.
            if b == UInt8(ascii: "%"), !special, i + 2 < bytes.count, ASCIIHex.value(bytes[i + 1]) != nil,
                ASCIIHex.value(bytes[i + 2]) != nil
            {
                upper = upper || bytes[i + 1] &- 0x41 < 26 || bytes[i + 2] &- 0x41 < 26
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
                    throw ParseFailure(.percentEncodedHost(shown))
                }
                throw ParseFailure(.hostCharacter(host: shown, character: Character(Unicode.Scalar(b))))
            }
        }
        if ascii, !punycode {
            if special { try checkNumericHost(bytes) }
            return nil
        }
        let hostText = Substring(String(decoding: bytes, as: UTF8.self))
        if !ascii, !special {
            throw ParseFailure(.nonASCIICustomHost(String(hostText)))
        }
        var asciiHost: String
        do {
            asciiHost = try IDNA.asciiHost(hostText)
        } catch {
            throw ParseFailure(.hostLabel(error))
        }
        if special {
            let result = asciiHost.withUTF8 { host in
                Result { () throws(ParseFailure) in try checkNumericHost(host) }
            }
            try result.get()
        }
        return ascii ? nil : asciiHost
    }

    /// WHATWG URL reads a special host whose last label is a number (`1`, `0x1f`) as an IPv4
    /// address and rewrites it (`0x7f.1` → `127.0.0.1`); iOS keeps the text. Such a host is
    /// accepted only in the form both read the same: four decimal numbers 0–255 without
    /// leading zeros and without a trailing dot.
    private static func checkNumericHost(_ host: UnsafeBufferPointer<UInt8>) throws(ParseFailure) {
        // The last label, without one trailing dot.
        var end = host.count
        if end > 0, host[end - 1] == UInt8(ascii: ".") { end -= 1 }
        var start = end
        while start > 0, host[start - 1] != UInt8(ascii: ".") { start -= 1 }
        guard start < end else { return }
        let last = UnsafeBufferPointer(rebasing: host[start..<end])
        let decimal = last.allSatisfy(isDigit)
        let hex =
            last.count >= 2 && last[0] == UInt8(ascii: "0") && last[1] | 0x20 == UInt8(ascii: "x")
            && last.dropFirst(2).allSatisfy { ASCIIHex.value($0) != nil }
        guard decimal || hex else { return }
        // Four dot-separated decimal numbers 0–255, each without a leading zero.
        var parts = 0
        var digits = 0
        var value = 0
        var canonical = true
        for i in 0...host.count {
            if i == host.count || host[i] == UInt8(ascii: ".") {
                parts += 1
                if digits == 0 || value > 255 { canonical = false }
                digits = 0
                value = 0
                continue
            }
            let b = host[i]
            guard isDigit(b), digits < 3, !(digits == 1 && value == 0) else {
                canonical = false
                break
            }
            digits += 1
            value = value * 10 + Int(b - 0x30)
        }
        guard canonical, parts == 4 else {
            throw ParseFailure(.numericHost(String(decoding: host, as: UTF8.self).lowercased()))
        }
    }

    /// The length of the scheme that `bytes` start with: RFC 3986 scheme syntax (a letter,
    /// then letters, digits, `+`, `-` or `.`) up to the first `:`; `nil` when the bytes do not
    /// start so (no `:`, an empty scheme, or another byte before the `:`). The one scheme
    /// reader of the package.
    @inline(__always)
    package static func schemeLength<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Int? {
        var length = 0
        for byte in bytes {
            if byte == UInt8(ascii: ":") { return length > 0 ? length : nil }
            guard isSchemeByte(byte, first: length == 0) else { return nil }
            length += 1
        }
        return nil
    }

    /// Whether `byte` may appear in a scheme (`first`: as its first byte, a letter).
    @inline(__always)
    package static func isSchemeByte(_ byte: UInt8, first: Bool) -> Bool {
        // The bytes after the first as a 128-bit set, one word for 0x00–0x3F (`+`, `-`, `.`,
        // digits) and one for 0x40–0x7F (letters): a shift and a mask, not five comparisons.
        let low: UInt64 = 1 << 0x2B | 1 << 0x2D | 1 << 0x2E | 0x3FF << 0x30
        let high: UInt64 = 0x3FF_FFFF << (0x41 - 64) | 0x3FF_FFFF << (0x61 - 64)
        if first { return isAlpha(byte) }
        return byte < 128 && ((byte < 64 ? low : high) &>> UInt64(byte & 63)) & 1 != 0
    }

    /// Whether `string` is a scheme name in RFC 3986 syntax (without the `:`).
    public static func isSchemeName(_ string: String) -> Bool {
        var first = true
        for byte in string.utf8 {
            guard isSchemeByte(byte, first: first) else { return false }
            first = false
        }
        return !first
    }

    /// Whether `url` has the scheme `scheme` (given in lower case), in any letter case,
    /// without allocating: `hasScheme("adbinapp", "ADBINAPP://cancel")` is true.
    public static func hasScheme(_ scheme: String, _ url: String) -> Bool {
        var bytes = url.utf8.makeIterator()
        for expected in scheme.utf8 {
            guard let b = bytes.next(), b | (isAlpha(b) ? 0x20 : 0) == expected else { return false }
        }
        return bytes.next() == UInt8(ascii: ":")
    }

    /// The scheme of `string`, lower-cased, without parsing the rest: the text before the
    /// first `:` when it is RFC 3986 scheme syntax, else `nil`. A cheap first test for
    /// adapters that only claim some schemes.
    public static func scheme(of string: String) -> String? {
        // Over the bytes in place when the text is contiguous (native and small strings are).
        let contiguous = string.utf8.withContiguousStorageIfAvailable { bytes -> String? in
            guard let length = schemeLength(bytes) else { return nil }
            var upper = false
            for i in 0..<length where bytes[i] &- 0x41 < 26 { upper = true }
            let scheme = String(knownValidUTF8: UnsafeBufferPointer(rebasing: bytes[0..<length]), isASCII: true)
            return upper ? scheme.lowercased() : scheme
        }
        if let contiguous { return contiguous }
        guard let length = schemeLength(string.utf8) else { return nil }
        let scheme = String(decoding: string.utf8.prefix(length), as: UTF8.self)
        return scheme.utf8.contains { $0 >= 0x41 && $0 <= 0x5A } ? scheme.lowercased() : scheme
    }

    /// The host of `url` when its authority is plain — `scheme://`, then ASCII letters, digits,
    /// `.` and `-`, then at most a `:` and digits, up to the first `/`, `?` or `#` — lower-cased:
    /// the ``normalizedHost`` ``parse(_:)`` gives such a URL whenever it accepts it. `nil` for
    /// any other URL, whose host only a parse can tell. A cheap first test for adapters that
    /// claim some hosts: a plain host that is none of theirs needs no parse.
    package static func plainHost(of url: String) -> String? {
        let host = url.utf8.withContiguousStorageIfAvailable { bytes -> String? in
            guard let schemeLength = schemeLength(bytes) else { return nil }
            var i = schemeLength + 1
            guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "/"), bytes[i + 1] == UInt8(ascii: "/") else { return nil }
            i += 2
            let start = i
            var upper = false
            // The host: letters (most bytes), digits, `.` and `-`.
            while i < bytes.count {
                let b = bytes[i]
                if (b | 0x20) &- 0x61 < 26 {
                    upper = upper || b < 0x61
                } else if !(b &- 0x30 < 10 || b == UInt8(ascii: ".") || b == UInt8(ascii: "-")) {
                    break
                }
                i += 1
            }
            let hostEnd = i
            // The port, then the authority's end.
            if i < bytes.count, bytes[i] == UInt8(ascii: ":") {
                i += 1
                while i < bytes.count, bytes[i] &- 0x30 < 10 { i += 1 }
            }
            if i < bytes.count {
                let b = bytes[i]
                guard b == UInt8(ascii: "/") || b == UInt8(ascii: "?") || b == UInt8(ascii: "#") else { return nil }
            }
            guard hostEnd > start else { return nil }
            let host = String(knownValidUTF8: UnsafeBufferPointer(rebasing: bytes[start..<hostEnd]), isASCII: true)
            return upper ? host.lowercased() : host
        }
        return host ?? nil
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

    /// Decodes the percent-escapes of `bytes`, the UTF-8 of a string cut at ASCII bytes (so
    /// valid UTF-8 itself).
    static func percentDecoded(bytes: UnsafeBufferPointer<UInt8>) -> String {
        decode(bytes) ?? String(knownValidUTF8: bytes, isASCII: String.isASCII(bytes))
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
                if b == UInt8(ascii: "%"), i + 2 < count, let h = ASCIIHex.value(base[i + 1]), let l = ASCIIHex.value(base[i + 2]) {
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

    /// The index of the first `byte` in `bytes[from..<to]`.
    @inline(__always)
    static func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int? {
        guard from < to else { return nil }
        return memoryIndex(of: byte, in: UnsafeBufferPointer(rebasing: bytes[from..<to])).map { from + $0 }
    }

    /// The index of the last `byte` in `bytes[from..<to]`: one pass, eight bytes at a time,
    /// linear in the range however many matches it holds.
    @inline(__always)
    package static func lastIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int? {
        guard from < to, let base = bytes.baseAddress else { return nil }
        // The exact test flags every match and nothing else, so the highest flag of a word is
        // its last match.
        var last = -1
        var i = from
        while i &+ 8 <= to {
            let found = exactBytesEqual(UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)), to: byte)
            if found != 0 { last = i &+ (63 &- found.leadingZeroBitCount) &>> 3 }
            i &+= 8
        }
        if i < to {
            if to >= 8 {
                let found = exactBytesEqual(tailWord(base, from: i, count: to, fill: ~byte), to: byte)
                if found != 0 { last = i &+ (63 &- found.leadingZeroBitCount) &>> 3 }
            } else {
                while i < to {
                    if base[i] == byte { last = i }
                    i &+= 1
                }
            }
        }
        return last >= 0 ? last : nil
    }

    /// The high bit of each byte of `word` that is `byte`, and of no other: unlike
    /// `bytesEqual(_:to:)`, whose borrows may flag bytes above a match, no flag depends on
    /// another byte (each byte's low seven bits plus 0x7F cannot carry out of it), so the
    /// highest flag is the last match.
    @inline(__always)
    static func exactBytesEqual(_ word: UInt64, to byte: UInt8) -> UInt64 {
        let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let x = word ^ (0x0101_0101_0101_0101 &* UInt64(byte))
        return ~(((x & lows) &+ lows) | x | lows)
    }

    /// The bytes `from..<count` of a buffer of `count` bytes (at least eight, and fewer than
    /// eight left) as a little-endian word, the first in the low eight bits, topped up with
    /// `fill`: one load of the buffer's last eight bytes, shifted past those already read, in
    /// place of a loop over the last bytes one at a time. The word's bytes past the text are
    /// `fill`, so a search whose masks flag no `fill` byte finds only what the text holds.
    @inline(__always)
    static func tailWord(_ base: UnsafePointer<UInt8>, from i: Int, count: Int, fill: UInt8) -> UInt64 {
        // 1 to 7 bytes left: shifts of 8 to 56 bits, never the whole word.
        let left = UInt64(truncatingIfNeeded: count &- i)
        let last = UInt64(littleEndian: UnsafeRawPointer(base + (count &- 8)).loadUnaligned(as: UInt64.self))
        let ones: UInt64 = 0x0101_0101_0101_0101
        return last &>> ((8 &- left) &* 8) | (ones &* UInt64(fill)) &<< (left &* 8)
    }

    /// The index of the first `byte` in `bytes`, eight bytes at a time (the lowest bit the
    /// "has a zero byte" trick sets marks the first match exactly).
    @inline(__always)
    package static func memoryIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        var i = 0
        while i + 8 <= count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
            let found = bytesEqual(word, to: byte)
            if found != 0 { return i + found.trailingZeroBitCount >> 3 }
            i += 8
        }
        while i < count {
            if base[i] == byte { return i }
            i += 1
        }
        return nil
    }
}

extension URLParts {
    // Initializers live in extensions so that the compiler synthesizes the memberwise one,
    // which ``parse(bytes:)`` uses: an initializer written in the type's body, assigning
    // each property, made Swift 6.3 copy the whole new value once more and destroy the first
    // (a retain and a release for each of its strings) on every parse.

    /// Parses `string`, or returns `nil` when it is not a URL, or not one that browsers
    /// (WHATWG URL) and iOS read alike (the rules of ``parse(_:)``).
    public init?(_ string: String) {
        guard let parts = try? URLParts.parse(string) else { return nil }
        self = parts
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
            while length < 4, p < n, let digit = ASCIIHex.value(bytes[p]) {
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
