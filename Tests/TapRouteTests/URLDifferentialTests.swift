import Foundation
import TapRoute
import TapRouteTestSupport
import Testing

/// TapRoute's URL reading against a WHATWG reading (Node's `URL` class, the parser of
/// browsers): generated hostile URLs, and for every one TapRoute's safety rules accept,
/// scheme, user, password, host and port must be what Node reads. One Node process reads
/// all URLs from one file. `TAPROUTE_URL_DIFF_SEED` and `TAPROUTE_URL_DIFF_COUNT` override
/// the seed and the count; the test is skipped, saying so, where `node` is not on `PATH`.
@Suite struct URLDifferentialTests {
    static let node: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/node"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }()

    /// The parse works out `normalizedHost` from the host's bytes; it must be what setting the
    /// host works out from the string, for every URL the parse accepts.
    @Test func normalizedHostAtParseIsTheOneSettingTheHostGives() {
        var generator = HostileURLGenerator(seed: 20_261_124)
        var accepted = 0
        var upper = 0
        for _ in 0..<20_000 {
            guard let parts = try? URLParts.parse(generator.next()) else { continue }
            accepted += 1
            if parts.host.utf8.contains(where: { $0 &- 0x41 < 26 }) { upper += 1 }
            var set = parts
            set.host = parts.host
            #expect(parts.normalizedHost == set.normalizedHost, "\(parts.host)")
        }
        #expect(accepted > 2_000 && upper > 100, "\(accepted) accepted, \(upper) with upper-case hosts")
    }

    /// `plainHost(of:)` lets an adapter skip the parse of a link whose host is plainly none of
    /// its hosts: whenever it answers and the parse accepts the URL, the parse's normalized
    /// host must be its answer (hostile URLs, and plain ones in mixed case with ports, paths,
    /// queries and fragments, so that both answers are common).
    @Test func plainHostIsTheHostTheParseNormalizes() {
        var generator = HostileURLGenerator(seed: 20_261_129)
        var random = SplitMix64(seed: 20_261_129)
        let hosts = ["web.taptalk.io", "WEB.TapTalk.IO", "a-b.example", "1.2.3.4", "0x7f.1", "xn--bcher-kva.de", "h", "a..b", "-a.", "1"]
        let tails = ["", "/", "/p/q", "?a=1", "#f", ":443", ":443/p", ":", ":x", "@x", "/p?q#f", "\\p", " /p", "%41"]
        var answered = 0
        var declinedAccepted = 0
        for n in 0..<40_000 {
            let url: String
            if n % 2 == 0 {
                url = generator.next()
            } else {
                let scheme = ["https", "HTTP", "ftp", "myapp", "https:"][random.below(5)]
                url = scheme + "://" + hosts[random.below(hosts.count)] + tails[random.below(tails.count)]
            }
            let parsed = try? URLParts.parse(url)
            guard let host = URLParts.plainHost(of: url) else {
                if parsed?.hasAuthority == true { declinedAccepted += 1 }
                continue
            }
            guard let parsed else { continue }
            answered += 1
            #expect(parsed.hasAuthority, "\(url)")
            #expect(parsed.normalizedHost == host, "\(url): parsed \(parsed.normalizedHost), plain \(host)")
        }
        #expect(answered > 5_000 && declinedAccepted > 1_000, "\(answered) answered, \(declinedAccepted) declined")
    }

    @Test(.enabled(if: node != nil, "node is not on PATH: the WHATWG differential URL test needs Node's URL class"))
    func tapRouteReadsEveryAcceptedURLAsWHATWGDoes() throws {
        let environment = ProcessInfo.processInfo.environment
        let seed = environment["TAPROUTE_URL_DIFF_SEED"].flatMap { UInt64($0) } ?? 20_261_123
        let count = environment["TAPROUTE_URL_DIFF_COUNT"].flatMap { Int($0) } ?? 100_000
        let started = Date()
        var generator = HostileURLGenerator(seed: seed)
        let safety = URLSafety(
            settings: SecuritySettings(
                allowedSchemes: ["https", "http", "ws", "wss", "ftp", "myapp", "taptalkio", "mailto", "tel", "a+b.c"],
                maxURLLength: 1_000_000
            )
        )
        var accepted: [(url: String, parts: URLParts)] = []
        for _ in 0..<count {
            let url = generator.next()
            if let parts = try? safety.check(url) { accepted.append((url, parts)) }
        }
        // Both outcomes must be common, or the test proves little.
        #expect(accepted.count >= count / 20, "only \(accepted.count) of \(count) accepted")
        #expect(accepted.count <= count * 9 / 10, "\(accepted.count) of \(count) accepted")

        // Every hard shape must be among the accepted URLs, or the agreement proves little.
        let special: Set<String> = ["http", "https", "ws", "wss", "ftp"]
        let coverage: [(String, (String, URLParts) -> Bool)] = [
            ("internationalized host", { _, p in p.host.utf8.contains { $0 >= 0x80 } }),
            ("xn-- label", { url, p in !p.host.utf8.contains { $0 >= 0x80 } && p.normalizedHost.contains("xn--") }),
            ("IPv6 host", { _, p in p.host.hasPrefix("[") }),
            ("IPv4 host", { _, p in special.contains(p.scheme) && p.host.utf8.allSatisfy { $0 == 0x2E || ($0 >= 0x30 && $0 <= 0x39) } }),
            ("upper-case host", { _, p in p.host.utf8.contains { $0 >= 0x41 && $0 <= 0x5A } }),
            ("custom-scheme user info", { _, p in p.user != nil }),
            ("port", { _, p in p.port != nil }),
            ("backslash in query or fragment", { url, _ in url.contains("\\") }),
            ("percent-encoding", { url, _ in url.contains("%") }),
            ("non-ASCII outside the host", { url, p in !p.host.utf8.contains { $0 >= 0x80 } && url.utf8.contains { $0 >= 0x80 } }),
            ("custom scheme", { _, p in !special.contains(p.scheme) }),
            ("special scheme", { _, p in special.contains(p.scheme) }),
        ]
        var covered: [String] = []
        for (name, test) in coverage {
            let n = accepted.count { test($0.url, $0.parts) }
            covered.append("\(name) \(n)")
            #expect(n >= count / 1000, "only \(n) accepted URLs with \(name)")
        }

        let readings = try Self.whatwgReadings(of: accepted.map(\.url))
        try #require(readings.count == accepted.count, "node printed \(readings.count) lines for \(accepted.count) URLs")
        var disagreements: [String] = []
        for (i, (url, parts)) in accepted.enumerated() {
            let ours = Self.reading(of: parts)
            if readings[i] != ours {
                disagreements.append("\(Self.shown(url)): TapRoute \(ours), WHATWG \(readings[i])")
            }
        }
        let seconds = Date().timeIntervalSince(started)
        print(
            "URLDifferentialTests: seed \(seed), \(count) URLs generated, \(accepted.count) accepted, \(disagreements.count) disagreements, \(String(format: "%.1f", seconds)) s; accepted with: \(covered.joined(separator: ", "))"
        )
        #expect(
            disagreements.isEmpty,
            "\(disagreements.count) disagreements (seed \(seed)), first: \(disagreements.prefix(20).joined(separator: "\n"))"
        )
    }

    /// `scheme|user|password|host|port` as TapRoute reads it, in WHATWG's terms: the host
    /// lower-cased (WHATWG keeps the case of a custom scheme's host; hosts compare
    /// case-insensitively), the port empty when absent or the scheme's default.
    static func reading(of parts: URLParts) -> String {
        var user = ""
        var password = ""
        if let info = parts.user {
            if let colon = info.firstIndex(of: ":") {
                user = String(info[..<colon])
                password = String(info[info.index(after: colon)...])
            } else {
                user = info
            }
        }
        let defaults = ["http": 80, "https": 443, "ws": 80, "wss": 443, "ftp": 21]
        let port = parts.port.map { defaults[parts.scheme] == $0 ? "" : String($0) } ?? ""
        return [parts.scheme, user, password, parts.normalizedHost.lowercased(), port].joined(separator: "|")
    }

    /// Node's reading of each URL, in the same form, or `FAIL` where `new URL` throws.
    static func whatwgReadings(of urls: [String]) throws -> [String] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("taproute-url-diff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("urls.hex")
        let output = directory.appendingPathComponent("readings.txt")
        // Hex lines: a URL may hold any code point, a newline included.
        var text = ""
        text.reserveCapacity(urls.reduce(0) { $0 + $1.utf8.count * 2 + 1 })
        let digits = Array("0123456789abcdef")
        for url in urls {
            for byte in url.utf8 {
                text.append(digits[Int(byte >> 4)])
                text.append(digits[Int(byte & 15)])
            }
            text.append("\n")
        }
        try text.write(to: input, atomically: true, encoding: .utf8)
        let script = """
            const fs = require('fs');
            const lines = fs.readFileSync(process.argv[1], 'utf8').split('\\n');
            lines.pop();
            const out = [];
            for (const line of lines) {
              const url = Buffer.from(line, 'hex').toString('utf8');
              try {
                const u = new URL(url);
                out.push([u.protocol.slice(0, -1), u.username, u.password, u.hostname.toLowerCase(), u.port].join('|'));
              } catch (e) { out.push('FAIL'); }
            }
            fs.writeFileSync(process.argv[2], out.join('\\n') + '\\n');
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(node))
        process.arguments = ["-e", script, input.path, output.path]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "node exited with \(process.terminationStatus)")
        let result = try String(contentsOf: output, encoding: .utf8)
        var lines = result.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    static func shown(_ url: String) -> String {
        url.unicodeScalars.map { $0.escaped(asASCII: true) }.joined()
    }
}

/// Hostile URLs from pieces that make readers disagree: backslashes, `@`, missing or extra
/// slashes, numeric and IPv6 hosts, percent-encoding, internationalized and Punycode labels,
/// forbidden and look-alike code points; each piece also appears where it does not belong.
struct HostileURLGenerator {
    private var generator: SplitMix64

    init(seed: UInt64) { generator = SplitMix64(seed: seed) }

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
    mutating func next() -> String {
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
