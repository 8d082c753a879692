import TapRoute

/// Hostile URLs from pieces that make readers disagree: backslashes, `@`, missing or extra
/// slashes, numeric and IPv6 hosts, percent-encoding, internationalized and Punycode labels,
/// forbidden and look-alike code points; each piece also appears where it does not belong.
public struct HostileURLGenerator: Sendable {
    private var generator: SplitMix64

    /// A generator of the URLs `seed` gives.
    public init(seed: UInt64) { generator = SplitMix64(seed: seed) }

    private mutating func random() -> UInt64 { generator.next() }

    private mutating func below(_ n: Int) -> Int { generator.below(n) }
    private mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
    private mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    static let schemes = ["https", "http", "HTTPS", "hTTp", "ws", "wss", "ftp", "myapp", "taptalkio", "mailto", "tel", "a+b.c", "file"]
    static let separators = [
        "//", "//", "//", "//", "//", "//", "//", "//", "//", "//", "//", "//", "/", "", "///", #"\\"#, #"/\"#, #"\/"#,
    ]
    static let userInfos = [
        "evil.com", #"evil.com\"#, "user:pass", "a@b", "", ":", "%40", "a;b", "x!y", "a:b:c", "%5C", "allowed.com", "evil.com%2F",
        "u\u{FF20}", "u%zz",
    ]
    static let asciiLabels = [
        "allowed", "evil", "com", "www", "ALLOWED", "a", "0", "1", "09", "0x", "0x7f", "255", "256", "127", "xn--bcher-kva",
        "XN--BCHER-KVA",
        "xn--zz", "xn--abc-", "xn--", "a_b", "a~b", "a!b", "a*b", "", "a%2Eb", "a%41", "%zz", "web", "taptalk", "io",
    ]
    static let unicodeLabels = [
        "b\u{FC}cher", "B\u{FC}cher", "\u{4F8B}\u{3048}", "\u{C4}", "\u{43E}\u{43E}", "\u{3B1}\u{3B2}", "\u{5D0}", "a\u{301}", "\u{E0}",
        "\u{301}a", "\u{FB01}", "\u{2603}", "caf\u{E9}", "\u{1F4A9}", "\u{3002}", "\u{FF0E}", "\u{FF41}", "\u{DF}", "\u{3C2}",
        "\u{915}\u{94D}",
    ]
    static let ipv6 = [
        "[::1]", "[0:0::1]", "[::FFFF:1.2.3.4]", "[1:2:3:4:5:6:7:8]", "[1::]", "[::]", "[1:0:0:2::3]", "[fe80::1%25eth0]", "[::1",
        "[1:2:3:4:5:6:7:8:9]", "[FE80::A]", "[1::2::3]", "[:1]", "[1:]",
    ]
    static let ports = ["", "", "", "", ":", ":80", ":443", ":0443", ":21", ":8080", ":65535", ":65536", ":x", ":-1", "::"]
    static let paths = [
        "", "/", "/x", "/a/b", "", "/", "/x", "/a/b", "/caf\u{E9}", "/%41", #"/a\b"#, "/%2e%2e/", "/@evil.com", #"/\evil.com"#,
        "/%E2%80%AE", "/%C2%85", "/%252E", "/\u{202E}",
        "/%0A", "/caf%C3%A9",
    ]
    static let queries = ["", "", "?q=1", #"?a=\"#, "?x=%E2%80%AE", "?u=https://evil.com", "?@x", "?body=a%0D%0Ab", "?t=%EF%B8%8F"]
    static let fragments = ["", "", "#f", #"#\@x"#, "#%E2%80%8B"]
    /// Single code points inserted at random places.
    static let intruders: [String] = [
        #"\"#, "@", ":", "/", "?", "#", "%", "[", "]", ".", "%2F", "%40", "%5C", "%00", "\u{202E}", "\u{A0}", "\u{200B}", "\u{FEFF}",
        "\u{85}", "\u{2028}", "\u{FF0E}", "\u{3002}", "\u{FF20}", "\u{FF3C}", "\u{2215}", "\u{2044}", "\u{E9}", "\u{FE0F}", "\u{E0041}",
        "\u{1}", " ", "\t", "<", "^", "|", "{", "`", "\"",
    ]

    private mutating func punycodeLabel() -> String {
        let ranges: [ClosedRange<UInt32>] = [
            0x80...0x24F, 0x370...0x3FF, 0x400...0x4FF, 0x590...0x6FF, 0x900...0x97F, 0x1100...0x11FF, 0x2000...0x206F, 0x3000...0x30FF,
            0x4E00...0x4EFF, 0xAC00...0xACFF, 0xFE00...0xFE0F, 0xFF00...0xFFEF, 0x1F300...0x1F64F, 0xE0000...0xE007F, 0x10D40...0x10D4F,
        ]
        var scalars: [Unicode.Scalar] = []
        for _ in 0..<(1 + below(4)) {
            if chance(30) {
                scalars.append(Unicode.Scalar(UInt8(pick(Array("abcxyz019-".utf8)))))
            } else {
                let range = pick(ranges)
                if let scalar = Unicode.Scalar(range.lowerBound + UInt32(below(Int(range.upperBound - range.lowerBound) + 1))) {
                    scalars.append(scalar)
                }
            }
        }
        return "xn--" + (Punycode.encode(scalars) ?? "a")
    }

    private mutating func host() -> String {
        switch below(10) {
        case 0: return pick(Self.ipv6)
        case 1:
            return (0..<4).map { _ in String(pick([0, 1, 10, 127, 255, 256, 1000, 8])) }.joined(separator: ".") + (chance(20) ? "." : "")
        default:
            var labels: [String] = []
            for _ in 0..<(1 + below(3)) {
                switch below(10) {
                case 0, 1: labels.append(pick(Self.unicodeLabels))
                case 2: labels.append(punycodeLabel())
                default: labels.append(pick(Self.asciiLabels))
                }
            }
            if chance(40) { labels.append(pick(["com", "allowed.com", "web.taptalk.io", "io"])) }
            return labels.joined(separator: ".")
        }
    }

    /// The next URL.
    public mutating func next() -> String {
        var url = pick(Self.schemes) + ":" + pick(Self.separators)
        if chance(15) { url += pick(Self.userInfos) + (chance(90) ? "@" : "") }
        url += host() + pick(Self.ports) + pick(Self.paths) + pick(Self.queries) + pick(Self.fragments)
        if chance(25) {
            var scalars = Array(url.unicodeScalars)
            let position = below(scalars.count + 1)
            scalars.insert(contentsOf: pick(Self.intruders).unicodeScalars, at: position)
            url = String(String.UnicodeScalarView(scalars))
        }
        return url
    }
}
