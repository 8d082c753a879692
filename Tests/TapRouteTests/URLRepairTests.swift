import TapRoute
import Testing

/// URLs iOS 17 and later repair (`URL(string:)` percent-encodes what RFC 3986 does not allow
/// in a path, query or fragment) are used repaired, with a `urlRepaired` warning; hostile
/// characters stay rejected.
@Suite struct URLRepairTests {
    /// `(input, repaired, encoded components)`, each as swift-foundation's
    /// `RFC3986Parser.parse(urlString:encodingInvalidCharacters: true)` builds it: every
    /// invalid component is percent-encoded whole (a `%` in it included), valid ones are kept.
    static let repairs: [(String, String, [String])] = [
        ("https://a.example/my file", "https://a.example/my%20file", ["path"]),
        ("https://a.example/p?q=a b&r=<x>", "https://a.example/p?q=a%20b&r=%3Cx%3E", ["query"]),
        ("https://a.example/p#top of page", "https://a.example/p#top%20of%20page", ["fragment"]),
        ("https://a.example/caf\u{E9} menu", "https://a.example/caf%C3%A9%20menu", ["path"]),
        ("https://a.example/a b%20c", "https://a.example/a%20b%2520c", ["path"]),
        ("https://a.example/x y?ok=1#also ok", "https://a.example/x%20y?ok=1#also%20ok", ["path", "fragment"]),
        ("https://a.example/q?x=\\ \"y\" ^`{|}", "https://a.example/q?x=%5C%20%22y%22%20%5E%60%7B%7C%7D", ["query"]),
        ("https://a.example/p?emoji=\u{2764}\u{FE0F} x", "https://a.example/p?emoji=%E2%9D%A4%EF%B8%8F%20x", ["query"]),
        ("myapp://product/{id} x", "myapp://product/%7Bid%7D%20x", ["path"]),
        ("myapp://p/a\\b c", "myapp://p/a%5Cb%20c", ["path"]),
        ("mailto:a b@example.com", "mailto:a%20b@example.com", ["path"]),
        ("myapp:a:b c/d:e", "myapp:a%3Ab%20c/d:e", ["path"]),
        ("tel:+1 555 0100", "tel:+1%20555%200100", ["path"]),
    ]

    @Test(arguments: repairs)
    func repairsAsIOS17Does(_ input: String, _ expected: String, _ components: [String]) throws {
        let repair = try #require(URLRepair.repaired(input))
        #expect(repair.url == expected)
        #expect(repair.components == components)
    }

    @Test func namesEachEncodedCharacterOnce() throws {
        let repair = try #require(URLRepair.repaired("https://a.example/a b c\u{E9}<\u{E9}"))
        #expect(repair.encoded.map(\.character) == [" ", "\u{E9}", "<"])
        #expect(repair.encoded.map(\.escape) == ["%20", "%C3%A9", "%3C"])
    }

    @Test(arguments: [
        "https://a.example/x%20y",  // already valid
        "https://a b.example/x",  // the authority is never touched
        "https://a.example/x\ty",  // controls are never repaired
        "https://evil.example\\@a.example/x y",  // a backslash before an http(s) query
        "https://a.example/x y\u{202E}",  // a forbidden code point
        "no scheme here",
    ])
    func declines(_ input: String) {
        #expect(URLRepair.repaired(input) == nil)
    }

    private func policy(maxURLLength: Int = 4096) -> HandlingPolicy {
        HandlingPolicy(
            configuration: Configuration(
                app: AppSettings(schemes: ["myapp"]),
                security: SecuritySettings(maxURLLength: maxURLLength)
            )
        )
    }

    @Test func policyUsesTheRepairedURLAndWarns() {
        var warnings: [Warning] = []
        let destination = policy().resolve(
            .url("https://a.example/spring sale", target: .external),
            warnings: &warnings,
            label: "destination url"
        )
        #expect(destination == .url("https://a.example/spring%20sale", target: .external))
        #expect(warnings.map(\.code) == [.urlRepaired])
        let message = warnings.first?.message ?? ""
        #expect(message.hasPrefix("destination url 'https://a.example/spring sale' holds characters iOS 17 and later percent-encode"))
        #expect(message.contains("' ' as %20"))
        #expect(message.contains("'https://a.example/spring%20sale'"))
        #expect(message.contains("before iOS 17 URL(string:) returns nil and the vendor's SDK drops the tap"))
    }

    @Test func aRepairedLinkIsRoutedAndClassified() throws {
        let route = try Route(pattern: "myapp://product/{id}", screen: "product")
        let policy = HandlingPolicy(
            configuration: Configuration(app: AppSettings(schemes: ["myapp"]), routes: [route])
        )
        var warnings: [Warning] = []
        let destination = policy.resolve(.url("myapp://product/red shoe", target: .external), warnings: &warnings, label: "d")
        #expect(destination == .screen(name: "product", parameters: ["id": "red shoe"], url: "myapp://product/red%20shoe"))
        #expect(warnings.map(\.code) == [.urlRepaired])
    }

    @Test func aScreenKeepsItsRepairedLink() {
        var warnings: [Warning] = []
        let destination = policy().resolve(
            .screen(name: "chat", parameters: ["id": "1"], url: "myapp://chat/a b"),
            warnings: &warnings,
            label: "d"
        )
        #expect(destination == .screen(name: "chat", parameters: ["id": "1"], url: "myapp://chat/a%20b"))
        #expect(warnings.map(\.code) == [.urlRepaired])
    }

    /// The hardening rules win over the repair: each URL holds a space and a character or
    /// form the rules refuse, so its repair is refused too, and the rejection names the URL
    /// as written with the reason it was first refused for (its raw space).
    static let stillRejected: [String] = [
        "https://a.example/x y\tz",
        "https://a.example/x y\nz",
        "https://a.example/x y\u{7F}",
        "https://a.example/x y\u{85}",
        "https://a.example/x y\u{A0}",
        "https://a.example/x y\u{2028}",
        "https://a.example/x y\u{202E}",
        "https://a.example/x y\u{2066}",
        "https://a.example/x y\u{200B}",
        "https://a.example/x y\u{FEFF}",
        "https://evil.example\\@a.example/x y",
        "https:\\\\evil.example/x y",
        "https://a.example@evil.example/x y",
        "https://a b.example/x",
        "javascript:alert(1) //x",
        "data:text/html,<b> x",
        "https://a.example/x y%00",
        "https://a.example/x y%2500",
        "https://a.example/x y%E2%80%AE",
        "https://a.example/x y%C0%AF",
        "https://a.example:99999/x y",
    ]

    @Test(arguments: stillRejected)
    func hostileCharactersStayRejected(_ url: String) {
        var warnings: [Warning] = []
        let destination = policy().resolve(.url(url, target: .external), warnings: &warnings, label: "d")
        #expect(destination == .app)
        #expect(warnings.map(\.code) == [.urlRejected])
        #expect(warnings.first?.message == "d '\(url)' contains whitespace or control characters")
    }

    @Test func aRepairThatOutgrowsTheLengthLimitIsRejected() {
        // 40 bytes as written, 62 repaired: over a 48-byte limit.
        let url = "https://a.example/" + String(repeating: "a ", count: 11)
        var warnings: [Warning] = []
        #expect(policy(maxURLLength: 48).resolve(.url(url, target: .external), warnings: &warnings, label: "d") == .app)
        #expect(warnings.map(\.code) == [.urlRejected])
    }
}
