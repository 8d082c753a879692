import TapRoute
import TapRouteTestSupport
import Testing

/// TapRoute's one reading of a URL (``URLParts/parse(_:)``) and the Unicode-aware safety
/// rules (``URLSafety``, ``URLCharacters``, ``IDNA``).
@Suite struct URLReadingTests {
    let open = URLSafety(
        settings: SecuritySettings(allowedSchemes: ["https", "http", "ws", "wss", "ftp", "myapp", "mailto", "tel"])
    )
    let allowed = URLSafety(settings: SecuritySettings(allowedSchemes: ["https"], allowedHosts: ["allowed.com"]))
    let wildcard = URLSafety(settings: SecuritySettings(allowedSchemes: ["https"], allowedHosts: ["*.allowed.com"]))

    private func rejected(_ safety: URLSafety, _ url: String) -> String? {
        do {
            _ = try safety.check(url)
            return nil
        } catch {
            return error.reason
        }
    }

    // MARK: - Item 1: the host a browser reads

    /// The issue's reproduction: browsers read `\` as `/`, so the host is `evil.com`.
    @Test(arguments: [
        #"https://evil.com\@allowed.com/x"#,
        #"https://evil.com\\@allowed.com/x"#,
        #"https://evil.com\@www.allowed.com/x"#,
        #"https:\\evil.com\@allowed.com/x"#,
        #"https://evil.com\.allowed.com/"#,
        #"HTTPS://evil.com\@allowed.com"#,
        #"https://evil.com%5C@allowed.com/"#,
        #"https://evil.com%2F@allowed.com/"#,
        "https://allowed.com@evil.com/",
        "https://allowed.com:x@evil.com/",
        "https://@allowed.com/",
        "https://evil.com\u{FF3C}@allowed.com/",
        "https:evil.com/",
        "https:/evil.com/",
        "https:///evil.com/",
    ])
    func backslashAndUserInfoTricksAreRejected(url: String) {
        #expect(rejected(allowed, url) != nil, "\(url)")
        #expect(rejected(wildcard, url) != nil, "\(url)")
        #expect(rejected(open, url) != nil, "\(url)")
    }

    @Test func theReasonsSayWhatIsAmbiguous() {
        #expect(
            rejected(open, #"https://evil.com\@allowed.com/x"#)
                == "has a backslash before its query, which browsers read as '/' and iOS as '%5C'"
        )
        #expect(
            rejected(open, "https://allowed.com@evil.com/")
                == "has user info ('allowed.com@'), which browsers hide and which disguises the host"
        )
        #expect(rejected(open, "ws:evil.com") == "has no host")
        #expect(rejected(open, "https://a%2Eb.com/") == "has a percent-encoded host 'a%2Eb.com'")
    }

    @Test func backslashesInAPathOfASpecialSchemeAreRejectedButNotInItsQuery() throws {
        #expect(rejected(open, #"https://a.com/x\y"#) != nil)
        #expect(rejected(open, #"ftp://a.com/\x"#) != nil)
        _ = try open.check(#"https://a.com/x?q=a\b#f\g"#)
        _ = try open.check(#"myapp://a/x\y"#)
    }

    @Test(arguments: [
        "https://0x7f.1/", "https://1.2.3.4./", "https://01.2.3.4/", "https://256.1.1.1/", "https://1.2.3/", "https://127.1/",
        "https://2130706433/", "https://a.09/", "https://a.0x/", "https://a.0x1F/", "https://1.2.3.4.5/",
    ])
    func hostsEndingInANumberMustBeDottedDecimalIPv4(url: String) {
        #expect(rejected(open, url) != nil, "\(url)")
    }

    @Test(arguments: ["https://1.2.3.4/", "https://0.0.0.0/", "https://255.255.255.255:8080/", "https://a.b1/", "https://1a.com/"])
    func canonicalIPv4AndOrdinaryHostsPass(url: String) throws {
        _ = try open.check(url)
    }

    @Test(arguments: [
        "https://[0:0::1]/", "https://[::FFFF:1.2.3.4]/", "https://[1::2:0:0:0:3]/", "https://[::1%25eth0]/", "myapp://[0::1]/",
    ])
    func ipv6HostsMustBeCanonical(url: String) {
        #expect(rejected(open, url) != nil, "\(url)")
    }

    @Test(arguments: ["https://[::1]/", "https://[1::2:0:0:3]/", "https://[1:2:3:4:5:6:7:8]:443/", "https://[FE80::1]/", "myapp://[::1]/"])
    func canonicalIPv6HostsPass(url: String) throws {
        let parts = try open.check(url)
        // Lower-cased as it is read, as setting the host lower-cases it.
        var set = parts
        set.host = parts.host
        #expect(parts.normalizedHost == parts.host.lowercased() && parts.normalizedHost == set.normalizedHost)
    }

    @Test(arguments: [
        "myapp://a@b@c/", #"myapp://a\b@c/"#, "myapp://a;b@c/", "myapp://a:b:c@d/", "myapp://@/x", "myapp://u@/x", "myapp://:80/",
        "myapp://caf\u{E9}/", "myapp://a<b/", "myapp://a%zz/", "https://a<b.com/", "https://a%41.com/",
    ])
    func customSchemeAuthoritiesAreStrictToo(url: String) {
        #expect(rejected(open, url) != nil, "\(url)")
    }

    @Test func customSchemeUserInfoAndEscapedHostsPass() throws {
        let parts = try open.check("myapp://me:pw@room%20one/x")
        #expect(parts.user == "me:pw")
        #expect(parts.host == "room%20one")
    }

    @Test func allowedHostsStillWork() throws {
        _ = try allowed.check("https://ALLOWED.com/x")
        _ = try wildcard.check("https://www.allowed.com/x")
        _ = try wildcard.check("https://allowed.com/")
        #expect(rejected(wildcard, "https://evilallowed.com/") != nil)
    }

    // MARK: - Internationalized hosts

    @Test func internationalizedHostsAreComparedInTheirASCIIForm() throws {
        let parts = try open.check("https://B\u{FC}cher.de/")
        #expect(parts.normalizedHost == "xn--bcher-kva.de")
        #expect(try open.check("https://\u{4F8B}\u{3048}.jp/").normalizedHost == "xn--r8jz45g.jp")
        #expect(try open.check("https://XN--BCHER-KVA.de/").normalizedHost == "xn--bcher-kva.de")
        let idnAllowed = URLSafety(settings: SecuritySettings(allowedSchemes: ["https"], allowedHosts: ["xn--bcher-kva.de"]))
        _ = try idnAllowed.check("https://b\u{FC}cher.de/")
        // Worked out once, and again whenever the host is set.
        var changed = parts
        changed.host = "Example.COM"
        #expect(changed.normalizedHost == "example.com")
        #expect(changed != parts)
        changed.host = "B\u{FC}cher.de"
        #expect(changed.normalizedHost == "xn--bcher-kva.de")
        #expect(changed == parts)
    }

    @Test func configuredHostsAreComparedInTheirASCIIFormToo() throws {
        let configuration = try Configuration(
            json: ["security": ["allowedSchemes": ["https"], "allowedHosts": ["B\u{FC}cher.de", "*.\u{4F8B}\u{3048}.jp"]]]
        )
        #expect(configuration.security.allowedHosts == ["xn--bcher-kva.de", "*.xn--r8jz45g.jp"])
        let safety = URLSafety(settings: configuration.security)
        _ = try safety.check("https://b\u{FC}cher.de/")
        _ = try safety.check("https://www.xn--r8jz45g.jp/")
        #expect(throws: ConfigurationError.self) {
            try Configuration(json: ["security": ["allowedHosts": ["a\u{200B}b.com"]]])
        }
    }

    @Test(arguments: [
        "https://xn--zz.com/",  // not Punycode
        "https://xn--abc-.com/",  // decodes to ASCII only
        "https://\u{C4}.com/",  // upper case: readers map it
        "https://a\u{FF0E}com/",  // fullwidth full stop: readers map it to '.'
        "https://a\u{3002}com/",  // ideographic full stop
        "https://\u{2603}.com/",  // a symbol
        "https://\u{5D0}.com/",  // right-to-left
        "https://a\u{301}.com/",  // not NFC
        "https://\u{301}a.com/",  // starts with a mark
        "https://\u{FB01}.com/",  // a compatibility ligature
    ])
    func internationalizedLabelsReadersMapOrRefuseAreRejected(url: String) {
        #expect(rejected(open, url) != nil, "\(url)")
    }

    // MARK: - Item 2: Unicode-aware safety

    /// Several members of every class.
    static let forbidden: [(UInt32, URLCharacters.ForbiddenClass)] = [
        (0x01, .control), (0x1B, .control), (0x7F, .control), (0x80, .control), (0x85, .control), (0x9F, .control),
        (0xA0, .space), (0x1680, .space), (0x2000, .space), (0x2007, .space), (0x202F, .space), (0x3000, .space),
        (0x2028, .lineSeparator), (0x2029, .lineSeparator),
        (0x061C, .bidiControl), (0x200E, .bidiControl), (0x200F, .bidiControl), (0x202A, .bidiControl),
        (0x202E, .bidiControl), (0x2066, .bidiControl), (0x2069, .bidiControl),
        (0xAD, .invisibleFormatting), (0x180E, .invisibleFormatting), (0x200B, .invisibleFormatting),
        (0x200C, .invisibleFormatting), (0x200D, .invisibleFormatting), (0x2060, .invisibleFormatting),
        (0x2064, .invisibleFormatting), (0xFEFF, .invisibleFormatting), (0xE0001, .invisibleFormatting),
        (0xE0041, .invisibleFormatting), (0xE007F, .invisibleFormatting), (0x034F, .invisibleFormatting),
        (0x3164, .invisibleFormatting), (0xFFA0, .invisibleFormatting), (0x115F, .invisibleFormatting),
    ]

    /// U+0080–U+02FF (Latin-1 and the Latin extensions) are classified without a property
    /// lookup: every one of them must get the class its Unicode properties give.
    @Test func latinLettersAreClassifiedAsTheirPropertiesSay() throws {
        for value in UInt32(0x80)...0x2FF {
            let scalar = try #require(Unicode.Scalar(value))
            #expect(URLCharacters.forbiddenClass(of: scalar) == URLCharacters.classByProperties(scalar), "U+\(String(value, radix: 16))")
        }
    }

    @Test(arguments: forbidden)
    func everyClassIsForbiddenRawEncodedAndInPunycode(value: UInt32, expected: URLCharacters.ForbiddenClass) throws {
        let scalar = try #require(Unicode.Scalar(value))
        #expect(URLCharacters.forbiddenClass(of: scalar) == expected)
        let raw = String(Character(scalar))
        let encoded = raw.utf8.map { "%" + String($0, radix: 16, uppercase: true).leftPadded }.joined()
        let doubly = encoded.replacingPercent()
        for url in [
            "https://a.com/" + raw, "https://a.com/?q=x" + raw, "https://a.com/#" + raw, "myapp://p/" + raw, "mailto:a@b.c?body=" + raw,
            "https://a.com/" + encoded, "https://a.com/?q=" + encoded, "https://a.com/#" + encoded, "myapp://p" + encoded + "/",
            "https://a.com/?q=" + doubly, "https://a" + raw + ".com/", "https://a" + encoded + ".com/",
        ] {
            #expect(rejected(open, url) != nil, "\(url.unicodeScalars.map { $0.escaped(asASCII: true) }.joined())")
        }
        if value >= 0x80 {
            let label = "xn--" + (try #require(Punycode.encode(["a", scalar, "b"])))
            #expect(rejected(open, "https://\(label).com/") != nil, "\(label)")
            #expect(rejected(open, "myapp://\(label)/") != nil, "\(label)")
        }
    }

    @Test func reasonsNameTheCodePointAndItsClass() {
        #expect(rejected(open, "https://a.com/\u{202E}") == "contains U+202E (a bidi control)")
        #expect(rejected(open, "https://a.com/%E2%80%AE") == "contains an encoded U+202E (a bidi control)")
        #expect(rejected(open, "https://a.com/%C2%85") == "contains an encoded U+0085 (a control character)")
        #expect(rejected(open, "https://a.com/%252500") == "contains an encoded U+0000 (a control character)")
        #expect(rejected(open, "https://a.com/%C0%AF") == "contains an encoded overlong or surrogate UTF-8 sequence")
        #expect(rejected(open, "https://a.com/%ED%A0%80") == "contains an encoded overlong or surrogate UTF-8 sequence")
    }

    @Test func variationSelectorsEncodedSpacesAndLegacyBytesPassOutsideHosts() throws {
        _ = try open.check("https://a.com/?t=%E2%9D%A4%EF%B8%8F")  // ❤️ with U+FE0F
        _ = try open.check("https://a.com/?t=\u{2764}\u{FE0F}")
        _ = try open.check("https://a.com/?q=a%20b&r=caf%E9")  // %20, and Latin-1 é
        _ = try open.check("https://a.com/%25zz%2")
    }

    /// RFC 6068 §5: line breaks in a mailto body are `%0D%0A`; nowhere else, and not encoded twice.
    @Test func mailtoBodiesKeepTheirLineBreaks() throws {
        _ = try open.check("mailto:a@b.com?subject=Hi&body=line%201%0D%0Aline%202")
        #expect(rejected(open, "mailto:a@b.com%0A?body=x") != nil)
        #expect(rejected(open, "mailto:a@b.com?body=x%250A") != nil)
        #expect(rejected(open, "mailto:a@b.com?body=x%09") != nil)
        #expect(rejected(open, "https://a.com/?body=x%0A") != nil)
    }

    // MARK: - Linear time

    /// Time grows with the URL, not its square: for hostile shapes, checking an 8× longer URL
    /// (from 20,000 units, past the sizes that fit in a cache and distort the ratio)
    /// takes well under 64× as long (a ratio, never a wall-clock bound; the fastest of three).
    @Test(arguments: ["idn host", "punycode-like host", "nested escapes", "encoded text", "many labels", "custom user info"])
    func checkingIsLinear(shape: String) {
        func make(_ n: Int) -> String {
            switch shape {
            case "idn host": "https://" + String(repeating: "\u{4F8B}", count: n) + ".com/"
            case "punycode-like host": "https://xn--" + String(repeating: "a", count: n) + ".com/"
            case "nested escapes": "https://a.com/%" + String(repeating: "25", count: n) + "41"
            case "encoded text": "https://a.com/?q=" + String(repeating: "%E2%9D%A4", count: n)
            case "many labels": "https://" + String(repeating: "a.", count: n) + "com/"
            default: "myapp://" + String(repeating: "%41", count: n) + "@h/"
            }
        }
        let safety = URLSafety(settings: SecuritySettings(allowedSchemes: ["https", "myapp"], maxURLLength: 1_000_000))
        func fastest(_ url: String) -> Duration {
            var best = Duration.seconds(1000)
            for _ in 0..<3 {
                let start = ContinuousClock.now
                _ = try? safety.check(url)
                best = min(best, ContinuousClock.now - start)
            }
            return best
        }
        let small = fastest(make(20_000))
        let large = fastest(make(160_000))
        let ratio = large / max(small, .microseconds(50))
        #expect(ratio < 32, "\(shape): 8× the size took \(ratio)× the time")
    }

    // MARK: - Punycode

    /// RFC 3492 §7.1 samples (A), (B), (L: upper case kept), (S: ASCII only).
    static let punycodeSamples: [(String, [UInt32])] = [
        (
            "egbpdaj6bu4bxfgehfvwxn",
            [
                0x0644, 0x064A, 0x0647, 0x0645, 0x0627, 0x0628, 0x062A, 0x0643, 0x0644, 0x0645, 0x0648, 0x0634, 0x0639, 0x0631, 0x0628,
                0x064A, 0x061F,
            ]
        ),
        ("ihqwcrb4cv8a8dqg056pqjye", [0x4ED6, 0x4EEC, 0x4E3A, 0x4EC0, 0x4E48, 0x4E0D, 0x8BF4, 0x4E2D, 0x6587]),
        (
            "Proprostnemluvesky-uyb24dma41a",
            [
                0x0050, 0x0072, 0x006F, 0x010D, 0x0070, 0x0072, 0x006F, 0x0073, 0x0074, 0x011B, 0x006E, 0x0065, 0x006D, 0x006C, 0x0075,
                0x0076, 0x00ED, 0x010D, 0x0065, 0x0073, 0x006B, 0x0079,
            ]
        ),
        ("-> $1.00 <--", [0x002D, 0x003E, 0x0020, 0x0024, 0x0031, 0x002E, 0x0030, 0x0030, 0x0020, 0x003C, 0x002D]),
    ]

    @Test(arguments: punycodeSamples)
    func punycodeMatchesTheRFCSamples(encoded: String, values: [UInt32]) throws {
        let scalars = values.compactMap(Unicode.Scalar.init)
        #expect(Punycode.decode(encoded.utf8) == scalars)
        #expect(Punycode.encode(scalars) == encoded)
    }

    @Test(arguments: ["99999999999", "a-9", "zzzzzzzzzzzzzzzzzzzz", "\u{E9}-a"])
    func brokenPunycodeIsRefused(text: String) {
        #expect(Punycode.decode(text.utf8) == nil)
    }
}

extension String {
    /// Two hexadecimal digits.
    fileprivate var leftPadded: String { utf8.count < 2 ? "0" + self : self }
    /// Every `%` written `%25`: the text encoded once more.
    fileprivate func replacingPercent() -> String {
        String(unicodeScalars.flatMap { $0 == "%" ? Array("%25".unicodeScalars) : [$0] }.map(Character.init))
    }
}

/// The URL reader skips eight bytes at a time when none of them matters to it; the word test
/// must flag exactly the words holding such a byte.
@Suite struct URLWordScanTests {
    static func matters(_ b: UInt8) -> Bool {
        b <= 0x20 || b == 0x7F || b >= 0x80 || b == UInt8(ascii: ":") || b == UInt8(ascii: "#") || b == UInt8(ascii: "?")
    }

    static func word(_ bytes: [UInt8]) -> UInt64 {
        bytes.enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
    }

    @Test func everyByteAtEveryPlace() {
        for value in 0...255 {
            for place in 0..<8 {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 8)
                bytes[place] = UInt8(value)
                #expect(URLParts.WordMarks(Self.word(bytes)).any == Self.matters(UInt8(value)), "\(value) at \(place)")
            }
        }
    }

    /// The first byte of each kind, as the byte-at-a-time scan finds it.
    static func firsts(_ bytes: [UInt8]) -> [Int?] {
        [
            bytes.firstIndex { $0 <= 0x20 || $0 == 0x7F }, bytes.firstIndex { $0 >= 0x80 },
            bytes.firstIndex(of: UInt8(ascii: ":")), bytes.firstIndex(of: UInt8(ascii: "#")),
            bytes.firstIndex(of: UInt8(ascii: "?")),
        ]
    }

    static func firsts(_ marks: URLParts.WordMarks) -> [Int?] {
        [marks.control, marks.nonASCII, marks.colon, marks.hash, marks.question].map { $0 == 0 ? nil : $0.trailingZeroBitCount >> 3 }
    }

    @Test func wordMarksFindTheFirstByteOfEachKind() {
        var generator = SplitMix64(seed: 9)
        let alphabet: [UInt8] = Array("aZ09/%&=+@[]".utf8) + [0x00, 0x1F, 0x20, 0x21, 0x7E, 0x7F, 0x80, 0xC3, 0xFF, 0x3A, 0x23, 0x3F]
        for _ in 0..<200_000 {
            let bytes = (0..<8).map { _ in generator.below(3) == 0 ? alphabet[generator.below(alphabet.count)] : UInt8(ascii: "q") }
            #expect(Self.firsts(URLParts.WordMarks(Self.word(bytes))) == Self.firsts(bytes), "\(bytes)")
        }
        for value in 0...255 {
            for place in 0..<8 {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 8)
                bytes[place] = UInt8(value)
                #expect(Self.firsts(URLParts.WordMarks(Self.word(bytes))) == Self.firsts(bytes), "\(value) at \(place)")
            }
        }
    }

    @Test func memoryIndexLastIndexAndEncodedNULAgreeWithByteScans() {
        var generator = SplitMix64(seed: 10)
        let alphabet: [UInt8] = Array("%00a0%".utf8) + [0x00, 0x25, 0x30, 0x80, 0xA5, 0xFF]
        for _ in 0..<50_000 {
            let bytes = (0..<generator.below(40)).map { _ in
                generator.below(3) == 0 ? alphabet[generator.below(alphabet.count)] : UInt8(ascii: "q")
            }
            let byte = alphabet[generator.below(alphabet.count)]
            let index = bytes.withUnsafeBufferPointer { URLParts.memoryIndex(of: byte, in: $0) }
            #expect(index == bytes.firstIndex(of: byte), "\(bytes) \(byte)")
            // The last match in any range of the buffer, among bytes that differ from the one
            // sought in their lowest bit only (where a borrowing test flags a byte falsely).
            let near: [UInt8] = [0x40, 0x41, 0x3A, 0x3B, 0x00, 0x01, 0x80, 0x81]
            let mixed = bytes.map { $0 == UInt8(ascii: "q") ? $0 : near[generator.below(near.count)] }
            let sought = near[generator.below(near.count)]
            let from = generator.below(mixed.count + 1)
            let to = from + generator.below(mixed.count - from + 1)
            let last = mixed.withUnsafeBufferPointer { URLParts.lastIndex(of: sought, in: $0, from: from, to: to) }
            #expect(last == mixed[from..<to].lastIndex(of: sought), "\(mixed) \(sought) \(from)..<\(to)")
            let text = String(decoding: bytes, as: UTF8.self)
            let utf8 = Array(text.utf8)
            let naive =
                utf8.count >= 3 && (0..<(utf8.count - 2)).contains { utf8[$0] == 0x25 && utf8[$0 + 1] == 0x30 && utf8[$0 + 2] == 0x30 }
            #expect(URLSafety.containsEncodedNUL(text) == naive, "\(text)")
        }
    }

    /// The last bytes of a URL (after its last whole word) are read as one word topped up with
    /// letters: each byte the scan looks for, at every place of every tail length, is found
    /// where a byte-by-byte reading finds it — the control character's offset, the first `#`
    /// and the first `?` before it, a forbidden non-ASCII character, a backslash before the
    /// query, the last `@` and `:` of the authority.
    @Test func theLastBytesOfAURLAreReadAsTheOthers() throws {
        for length in 8...24 {
            for place in 0..<length {
                // `https://` then letters up to `length` bytes, one of them changed.
                var base = Array("https://".utf8) + [UInt8](repeating: UInt8(ascii: "q"), count: 16)
                base = Array(base[0..<max(length, 9)])
                guard place >= 9, place < base.count else { continue }
                func text(_ byte: UInt8) -> String {
                    var bytes = base
                    bytes[place] = byte
                    return String(decoding: bytes, as: UTF8.self)
                }
                #expect(throws: URLParts.ParseFailure(.controlCharacter(offset: place))) { try URLParts.parse(text(0x20)) }
                #expect(throws: URLParts.ParseFailure(.controlCharacter(offset: place))) { try URLParts.parse(text(0x7F)) }
                let split = String(decoding: base[(place + 1)...], as: UTF8.self)
                let before = String(decoding: base[8..<place], as: UTF8.self)
                let fragment = try URLParts.parse(text(UInt8(ascii: "#")))
                #expect(fragment.fragment == split && fragment.query == nil && fragment.host == before)
                let query = try URLParts.parse(text(UInt8(ascii: "?")))
                #expect(query.query == split && query.fragment == nil && query.host == before)
                #expect(throws: URLParts.ParseFailure(.backslash(offset: place))) { try URLParts.parse(text(UInt8(ascii: "\\"))) }
                #expect(throws: URLParts.ParseFailure(.credentials(userInfo: before))) { try URLParts.parse(text(UInt8(ascii: "@"))) }
                let port = try? URLParts.parse(text(UInt8(ascii: ":")))
                #expect(port == nil || port?.host == before)
                // A no-break space (forbidden: it reads as a space), two bytes in UTF-8.
                var nbsp = base
                nbsp.replaceSubrange(place..<(place + 1), with: [0xC2, 0xA0])
                #expect(throws: URLParts.ParseFailure.self) { try URLParts.parse(String(decoding: nbsp, as: UTF8.self)) }
            }
        }
    }

    @Test func randomWords() {
        var generator = SplitMix64(seed: 8)
        let alphabet: [UInt8] =
            Array("aZ09-._~/%&=+@!$'()*,;[]".utf8) + [0x00, 0x1F, 0x20, 0x21, 0x7E, 0x7F, 0x80, 0xC3, 0xFF, 0x3A, 0x23, 0x3F]
        for _ in 0..<200_000 {
            let bytes = (0..<8).map { _ in generator.below(4) == 0 ? alphabet[generator.below(alphabet.count)] : UInt8(ascii: "q") }
            #expect(URLParts.WordMarks(Self.word(bytes)).any == bytes.contains(where: Self.matters))
        }
    }
}
