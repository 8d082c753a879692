import TapRoute
import TapRouteTestSupport
import Testing

/// The matching rules of docs/universal-links.md as test vectors (domain `example.com`, app
/// `ABCDE12345.com.example.app`), from Apple's `applinks` documentation and recorded
/// `swcutil` answers.
@Suite("AASA matching vectors (docs/universal-links.md)")
struct AASASpecTests {
    /// Apple's overview file (the `applinks` example of Apple's `applinks` page).
    static let appleOverview = AASATestFiles.appleOverview

    @Test(arguments: [
        ("/buy/42", AASAMatch.Outcome.match, 1 as Int?),
        ("/buy/42#no_universal_links", .excluded, 0),
        ("/help/website/faq?articleNumber=4815", .excluded, 2),
        ("/help/123?articleNumber=4815", .match, 3),
        ("/help/123?articleNumber=481", .noMatch, nil),
        ("/help/123?articleNumber=48159", .noMatch, nil),
        ("/help/123", .noMatch, nil),
        ("/elsewhere", .noMatch, nil),
    ])
    func appleOverviewFile(path: String, expected: AASAMatch.Outcome, rule: Int?) throws {
        let result = try AASATest.match(Self.appleOverview, "https://example.com" + path)
        #expect(result.outcome == expected, "\(path)")
        #expect(result.rule?.index == rule, "\(path)")
    }

    @Test func appleOverviewFileForAnotherApp() throws {
        let result = try AASATest.match(Self.appleOverview, "https://example.com/buy/42", app: "ZZZZZ99999.com.other.app")
        #expect(result.outcome == .noMatch)
        #expect(result.rule == nil)
    }

    @Test(arguments: [
        // (rule, URL after the host, expected)
        (##"{"/":"abc","?":"def","#":"*"}"##, "/abc?def", AASAMatch.Outcome.match),
        (##"{"/":"abc","?":"def","#":"*"}"##, "/abc", .noMatch),
        (##"{"/":"abc","?":"def","#":"*"}"##, "?def", .noMatch),
        (#"{"/":"/buy/*"}"#, "/buy", .match),
        (#"{"/":"/buy/*"}"#, "/buy/", .match),
        (#"{"/":"/buy/*"}"#, "/buy/42", .match),
        (#"{"/":"/buy/*"}"#, "/buyer", .noMatch),
        (#"{"/":"/buy/*"}"#, "/bu", .noMatch),
        (#"{"/":"/buy/*"}"#, "/buy//", .match),
        (#"{"/":"/buy*"}"#, "/buy", .match),
        (#"{"/":"/a/*/c"}"#, "/a/c", .noMatch),
        (#"{"/":"/buy"}"#, "/buy/", .match),
        (#"{"/":"abc"}"#, "/abc", .match),
        (#"{"/":"abc"}"#, "/abcd", .noMatch),
        (#"{"/":"abc"}"#, "/xabc", .noMatch),
        (#"{"/":"/"}"#, "", .match),
        (#"{"?":{"b":"*"}}"#, "/x?a=1", .match),
        (#"{"?":{"b":"?*"}}"#, "/x?a=1", .noMatch),
        (#"{"?":{"b":""}}"#, "/x?a=1", .match),
        (#"{"?":{"b":"1"}}"#, "/x?a=1", .noMatch),
        (#"{"?":{"id":"42"}}"#, "/x?id=7&id=42", .noMatch),
        (#"{"?":{"id":"42"}}"#, "/x?id=42&id=7", .noMatch),
        (#"{"?":{"id":"*"}}"#, "/x?id=7&id=42", .match),
        (#"{"?":{"id":"?*"}}"#, "/x?id=7&id=42", .match),
        (#"{"?":{"id":""}}"#, "/x?id=7&id=42", .noMatch),
        (#"{"?":{"id":"7,42"}}"#, "/x?id=7&id=42", .noMatch),
        (#"{"?":{"a":"1","flag":true}}"#, "/x?a=2", .match),
        (#"{"?":"a=1"}"#, "/x?a=1", .match),
        (#"{"?":"a=1"}"#, "/x?a=1&b=2", .noMatch),
        (#"{"?":"a=1"}"#, "/x", .noMatch),
        (##"{"#":"?*"}"##, "/x", .noMatch),
        (##"{"#":""}"##, "/x", .match),
        (#"{"/":"/a%20b"}"#, "/a%20b", .match),
        (#"{"/":"/a b"}"#, "/a%20b", .noMatch),
        (#"{"/":"/a b","percentEncoded":false}"#, "/a%20b", .match),
        (#"{"/":"/a%20b","percentEncoded":false}"#, "/a%20b", .noMatch),
        (#"{"/":"/a/b"}"#, "/a%2Fb", .noMatch),
        (#"{"/":"/a/b","percentEncoded":false}"#, "/a%2Fb", .match),
        (#"{"/":"/caf%C3%A9"}"#, "/caf%c3%a9", .noMatch),
    ])
    func singleRule(rule: String, url: String, expected: AASAMatch.Outcome) throws {
        let result = try AASATest.match(AASATest.file(components: [rule]), "https://example.com" + url)
        #expect(result.outcome == expected, "\(rule) on \(url)")
    }

    @Test func appleCaseInsensitiveDefaults() throws {
        let file = """
            {"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"],
              "components": [{"/": "/buy/*", "#": "my_great_product_123"}],
              "defaults": {"caseSensitive": false}}]}}
            """
        #expect(try AASATest.match(file, "https://example.com/BUY/thing#MY_GREAT_PRODUCT_123").outcome == .match)
    }

    @Test(arguments: [
        ("/en_US/pizza/", AASAMatch.Outcome.match),
        ("/en_US/tacos/", .noMatch),
        ("/en-US/pizza/", .noMatch),
        ("/en_UK/pizza/", .noMatch),
    ])
    func appleSubstitutionVariables(path: String, expected: AASAMatch.Outcome) throws {
        let file = """
            {"applinks": {
              "substitutionVariables": {"food": ["burrito", "pizza", "sushi", "samosa"]},
              "details": [{"appIDs": ["ABCDE12345.com.example.app"],
                "components": [{"/": "/$(lang)_$(region)/$(food)/"}]}]}}
            """
        #expect(try AASATest.match(file, "https://example.com" + path).outcome == expected, "\(path)")
    }

    @Test(arguments: [
        ("/test/a", AASAMatch.Outcome.match),
        ("/path/1/a", .excluded),
        ("/elsewhere", .noMatch),
    ])
    func legacyPaths(path: String, expected: AASAMatch.Outcome) throws {
        let file = """
            {"applinks": {"apps": [], "details": [{"appID": "ABCDE12345.com.example.app",
              "paths": ["/test/*", "NOT /path/1/*"]}]}}
            """
        let result = try AASATest.match(file, "https://example.com" + path)
        #expect(result.outcome == expected, "\(path)")
        if expected != .noMatch { #expect(result.rule?.kind == .legacyPath) }
    }
}

/// Helpers shared by the AASA tests.
enum AASATest {
    static let app = AASATestFiles.app

    struct BadURL: Error, CustomStringConvertible {
        let url: String
        var description: String { "not a URL: \(url)" }
    }

    /// A file with one details entry for ``app``: ``AASATestFiles/file(components:domainDefaults:appDefaults:variables:)``.
    static func file(
        components: [String],
        domainDefaults: String? = nil,
        appDefaults: String? = nil,
        variables: String? = nil
    ) -> String {
        AASATestFiles.file(components: components, domainDefaults: domainDefaults, appDefaults: appDefaults, variables: variables)
    }

    static func document(_ text: String) throws -> AASADocument {
        try AASADocument(bytes: Array(text.utf8))
    }

    static func match(_ text: String, _ url: String, app: String = app) throws -> AASAMatch {
        guard let parts = URLParts(url) else { throw BadURL(url: url) }
        return AASAMatcher(document: try document(text), appID: app).match(parts)
    }

    static func outcome(rule: String, _ url: String, domainDefaults: String? = nil, appDefaults: String? = nil, variables: String? = nil)
        throws
        -> AASAMatch.Outcome
    {
        let text = file(components: [rule], domainDefaults: domainDefaults, appDefaults: appDefaults, variables: variables)
        return try match(text, "https://example.com" + url).outcome
    }
}
