import TapRoute
import TapRouteTestSupport
import Testing

@testable import TapTalkAdapter

/// TapTalk's detection asks every URL input whether it is a TapTalk link; most web links are
/// answered without parsing the URL, from a host written plainly
/// (`TapTalkAdapter.hasPlainHost(_:notIn:)`). The shortcut must give the answer the full URL
/// reading gives — the same form and the same parts, or `nil` — on hostile URLs (numeric and
/// Punycode hosts, user info, backslashes, percent-escapes, letter case, stray characters)
/// and on plain ones, for hosts the URLs use and with a custom scheme of `http`.
@Suite struct TapTalkLinkShortcutTests {
    static let adapters = [
        TapTalkAdapter(
            hosts: ["web.taptalk.io", "allowed.com", "evil.com", "a", "www.allowed.com", "127.0.0.1", "0.0.0.1", "xn--bcher-kva.com"],
            schemes: ["taptalkio", "myapp"]
        ),
        TapTalkAdapter(hosts: TapTalkAdapter.defaultHosts),
        TapTalkAdapter(hosts: [], schemes: ["http"]),
    ]

    /// Plain URLs and near misses around the shortcut's rules.
    static let crafted = [
        "https://web.taptalk.io/2-4096", "https://web.taptalk.io", "http://web.taptalk.io:443/x", "https://web.taptalk.io:/x",
        "https://web.taptalk.io:x/1", "https://web.taptalk.io./1", "https://web..taptalk.io/1", "https://.web.taptalk.io/1",
        "https://WEB.taptalk.io/1", "HTTPS://web.taptalk.io/1", "https://xn--web-taptalk.io/1", "https://web.xn--taptalk.io/1",
        "https://evil.com\\@web.taptalk.io/1", "https://evil.com@web.taptalk.io/1", "https://web.taptalk.io@evil.com/1",
        "https://web.taptalk.io%2F@evil.com", "https://web.taptalk%2Eio/1", "https://web.taptalk.io\t/1", "https://web.tap\ttalk.io/1",
        "https://127.0.0.1/1", "https://0x7f.1/1", "https://web.taptalk.io.1/1", "https://a/1", "https://a.0/1", "https://a-/1",
        "https://-a/1", "https://a--b/1", "https:///web.taptalk.io/1", "https:/web.taptalk.io/1", "https:web.taptalk.io/1",
        "http://", "https://", "https://?", "https://#", "https://:80", "https://shop.example.com/track/1Z999",
        "https://shop.example.com?x=1", "https://shop.example.com#f", "https://shop.example.com:8080", "https://web.taptalk.io?x",
        " https://web.taptalk.io/1", "https://web.taptalk.io/1 ", "https://web.taptalk.ıo/1", "https://ｗｅｂ.taptalk.io/1",
        "https://web\u{3002}taptalk.io/1", "httpx://web.taptalk.io/1", "http:/\\web.taptalk.io/1",
    ]

    /// URLs near the shortcut's rules: lower-case hosts from labels that are words, numbers,
    /// hexadecimal, Punycode, hyphenated or empty, with or without a trailing dot, a port and
    /// a path.
    static func nearlyPlainURLs(count: Int, seed: UInt64) -> [String] {
        var random = SplitMix64(seed: seed)
        func pick(_ items: [String]) -> String { items[random.below(items.count)] }
        let labels = [
            "web", "taptalk", "io", "allowed", "com", "www", "a", "evil", "0", "127", "1", "0x7f", "09", "xn--bcher-kva", "xn--",
            "a-", "-a", "a--b", "", "shop", "example", "web1", "1web", "b\u{FC}cher",
        ]
        return (0..<count).map { _ in
            var host = (0..<(1 + random.below(4))).map { _ in pick(labels) }.joined(separator: ".")
            if random.below(4) == 0 { host = pick(["web.taptalk.io", "allowed.com", "www.allowed.com", "a", "evil.com"]) }
            if random.below(10) == 0 { host += "." }
            return pick(["https://", "http://", "https://", "HTTP://", "https:/"]) + host
                + pick(["", "", ":", ":443", ":8080", ":x", ":99999"]) + pick(["", "/", "/2-4096", "/chat/1", "?q=1", "#f", "/a@b", "\\x"])
        }
    }

    @Test func theShortcutAnswersAsTheFullReading() {
        var generator = HostileURLGenerator(seed: 20_261_125)
        let urls = Self.crafted + (0..<30_000).map { _ in generator.next() } + Self.nearlyPlainURLs(count: 20_000, seed: 20_261_126)
        var shortcuts = 0
        for adapter in Self.adapters {
            for url in urls {
                let quick = adapter.link(url)
                let full = adapter.parsedLink(url)
                #expect(quick?.form == full?.form, "\(url)")
                #expect(quick?.parts == full?.parts, "\(url)")
                // The shortcut is taken for http(s) links when the scheme is not one of the
                // adapter's custom schemes.
                let scheme = URLParts.scheme(of: url)
                if let scheme, !adapter.schemes.contains(scheme), TapTalkAdapter.hasPlainHost(url, notIn: adapter.hosts) {
                    shortcuts += 1
                    #expect(full == nil, "the shortcut refused a TapTalk link: \(url)")
                }
            }
        }
        // The generated URLs exercise the shortcut, not only the full reading.
        #expect(shortcuts > 5_000, "\(shortcuts) shortcuts")
    }
}
