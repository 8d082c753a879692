import TapRoute
import TapRouteTestSupport
import Testing

/// Inputs the libFuzzer harnesses (Fuzz/, scripts/fuzz.sh) found, kept as regressions.
/// docs/reliability.md lists each finding and its fix.
@Suite struct FuzzRegressionTests {
    private func parts(_ url: String) throws -> URLParts { try #require(URLParts(url)) }

    /// RouteFuzzer: `s-s5:` followed by U+0485 (a combining mark, one Character with the
    /// colon). The pattern's path was split by Character and never matched its own URL.
    @Test func routeWithACombiningMarkAfterTheColonMatchesItsOwnURL() throws {
        let pattern = "s-s5:\u{485}~\u{FFFD}"
        let route = try Route(pattern: pattern, screen: "s")
        #expect(route.match(try parts(pattern)) == ScreenParameters())
        let afterSlash = try Route(pattern: "myapp://p/\u{301}/{id}", screen: "s")
        #expect(afterSlash.match(try parts("myapp://p/\u{301}/7"))?["id"] == "7")
        let capture = try Route(pattern: "myapp://p/{\u{301}x}", screen: "s")
        #expect(capture.match(try parts("myapp://p/7"))?["\u{301}x"] == "7")
    }

    /// RouteFuzzer: a `}` in the host was accepted (only `{` and `*` were refused), and the
    /// route could never match, since the pattern is parsed with braces replaced.
    @Test func braceInTheHostIsRefused() {
        #expect(throws: Route.PatternError.self) { try Route(pattern: "campaigndemoapp://producta}b/x", screen: "s") }
        #expect(throws: Route.PatternError.self) { try Route(pattern: "myapp://a{b/x", screen: "s") }
    }

    /// Path literals compare byte for byte, as URLs do, not by Unicode canonical equivalence.
    @Test func pathLiteralsCompareByteForByte() throws {
        let route = try Route(pattern: "myapp://p/caf\u{E9}", screen: "s")
        #expect(route.match(try parts("myapp://p/caf\u{E9}")) != nil)
        #expect(route.match(try parts("myapp://p/cafe\u{301}")) == nil)
    }
}
