import ArgumentParser
import Foundation
import TapRoute
import TapRouteTestSupport
import Testing

@testable import normalize

/// `normalize aasa match` and `normalize aasa lint` on the shipped example files.
@Suite("normalize aasa")
struct AASACommandTests {
    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    private static let appleExample = repository + "/examples/aasa/apple-example.json"

    @Test func matchOnAppleExample() throws {
        let document = try AASAFiles.load(Self.appleExample)
        let result = AASAMatchCommand.evaluate(
            document: document,
            appID: "ABCDE12345.com.example.app",
            domain: "example.com",
            urls: [
                "https://example.com/buy/42",
                "https://example.com/buy/42#no_universal_links",
                "https://example.com/help/website/faq?articleNumber=4815",
                "https://example.com/help/123?articleNumber=481",
                "https://other.example/buy/42",
                "http://example.com/buy/42",
                "not a url",
            ]
        )
        #expect(result.failed)
        #expect(
            result.lines == [
                #"{"url":"https://example.com/buy/42","match":true,"excluded":false,"rule":1}"#,
                #"{"url":"https://example.com/buy/42#no_universal_links","match":false,"excluded":true,"rule":0}"#,
                #"{"url":"https://example.com/help/website/faq?articleNumber=4815","match":false,"excluded":true,"rule":2}"#,
                #"{"url":"https://example.com/help/123?articleNumber=481","match":false,"excluded":false}"#,
                #"{"url":"https://other.example/buy/42","match":false,"excluded":false,"reason":"the host is not example.com"}"#,
                #"{"url":"http://example.com/buy/42","match":false,"excluded":false,"reason":"only https URLs are universal links"}"#,
                #"{"url":"not a url","error":"the URL contains whitespace or control characters"}"#,
            ]
        )
    }

    @Test func matchNamesTheDetailWhenTheAppIsListedTwice() throws {
        let text =
            #"{"applinks": {"details": [{"appIDs": ["A1.app"], "components": [{"/": "/a"}]}, {"appIDs": ["A1.app"], "components": [{"/": "/b"}]}]}}"#
        let document = try AASADocument(bytes: Array(text.utf8))
        let result = AASAMatchCommand.evaluate(document: document, appID: "A1.app", domain: nil, urls: ["https://any.host/b"])
        #expect(!result.failed)
        #expect(result.lines == [#"{"url":"https://any.host/b","match":true,"excluded":false,"rule":0,"detail":1}"#])
    }

    @Test func lintAppleExampleIsClean() {
        let result = AASALintCommand.lint(file: Self.appleExample, json: false)
        #expect(!result.hasErrors)
        #expect(result.lines == ["\(Self.appleExample): valid, no problems found"])
    }

    @Test func lintReportsErrorsAndWarnings() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("taproute-lint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let bad = folder.appendingPathComponent("apple-app-site-association").path
        try Data(
            ##"{"applinks": {"details": [{"appIDs": ["A1.app"], "components": [{"/": "*"}, {"#": "*", "exclude": true}, {"/": 3}]}]}}"##
                .utf8
        )
        .write(to: URL(fileURLWithPath: bad))
        let text = AASALintCommand.lint(file: bad, json: false)
        #expect(text.hasErrors)
        #expect(
            text.lines == [
                #"\#(bad): error: $.applinks.details[0].components[2]["/"]: expected a string, got a number [invalidType]"#,
                ##"\##(bad): warning: $.applinks.details[0].components[1]: "#": "*" on an exclude also matches URLs without a fragment, so this rule excludes every URL its other keys match; write "#": "?*" to require a fragment [excludeFragmentWildcard]"##,
                #"\#(bad): warning: $.applinks.details[0].components[1]: this exclude never applies: $.applinks.details[0].components[0] {"/":"*"} comes first and matches every URL it matches (the first match wins); move the exclude before it [unreachableExclude]"#,
                "\(bad): INVALID, 1 error, 2 warnings",
            ]
        )
        let json = AASALintCommand.lint(file: bad, json: true)
        #expect(json.lines.count == 3)
        #expect(
            json.lines.first
                == #"{"file":"\#(bad)","severity":"error","code":"invalidType","path":"$.applinks.details[0].components[2][\"/\"]","message":"expected a string, got a number"}"#
        )
    }

    private static let tapTalkFile = repository + "/adapters/TapTalk/apple-app-site-association.json"

    /// The TapTalk adapter ships its sample file (legacy `paths`); this runs once it is in the tree.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: tapTalkFile)))
    func matchAndLintOnTapTalkExample() throws {
        #expect(AASALintCommand.lint(file: Self.tapTalkFile, json: false).hasErrors == false)
        let document = try AASAFiles.load(Self.tapTalkFile)
        let result = AASAMatchCommand.evaluate(
            document: document,
            appID: "ABCDE12345.com.example.app",
            domain: "web.taptalk.io",
            urls: ["https://web.taptalk.io/chat/room/1", "https://web.taptalk.io/e/1", "https://web.taptalk.io/"]
        )
        #expect(
            result.lines == [
                #"{"url":"https://web.taptalk.io/chat/room/1","match":true,"excluded":false,"rule":1}"#,
                #"{"url":"https://web.taptalk.io/e/1","match":false,"excluded":true,"rule":0}"#,
                #"{"url":"https://web.taptalk.io/","match":true,"excluded":false,"rule":1}"#,
            ]
        )
    }

    @Test func lintOfAMissingFileIsAnError() {
        let result = AASALintCommand.lint(file: "/nonexistent/apple-app-site-association", json: false)
        #expect(result.hasErrors)
        #expect(result.lines.last == "/nonexistent/apple-app-site-association: INVALID, 1 error, 0 warnings")
    }

    @Test func matchRefusesAnInvalidFile() {
        #expect(throws: ConfigurationFailure.self) { try AASAFiles.load("/nonexistent/aasa.json") }
    }

    @Test func commandLineParses() throws {
        let command = try Normalize.parseAsRoot(["aasa", "match", "--file", "f.json", "--app-id", "A1.app", "https://example.com/x"])
        let match = try #require(command as? AASAMatchCommand)
        #expect(match.appID == "A1.app")
        #expect(match.urls == ["https://example.com/x"])
        #expect(try Normalize.parseAsRoot(["aasa", "lint", "a.json", "b.json"]) is AASALintCommand)
        #expect(throws: (any Error).self) { try Normalize.parseAsRoot(["aasa", "match", "--file", "f.json", "--app-id", "A1.app"]) }
    }

    @Test func routeReportsTheAASADecision() throws {
        let document = try AASAFiles.load(Self.appleExample)
        let app = AppSettings(domains: ["example.com"], appID: "ABCDE12345.com.example.app", aasaDocuments: ["example.com": document])
        let configuration = Configuration(app: app)
        let report = AASAFiles.reporter(for: configuration)
        #expect(
            report("https://example.com/help/website/x")?.jsonString()
                == #"{"domain":"example.com","appID":"ABCDE12345.com.example.app","match":false,"excluded":true,"rule":2,"location":"$.applinks.details[0].components[2]","pattern":"{\"/\":\"/help/website/*\",\"exclude\":true}"}"#
        )
        #expect(report("https://other.com/x") == nil)
        #expect(report("http://example.com/x") == nil)
    }

    // MARK: End to end (the built binary)

    @Test func binaryMatchLintAndRoute() throws {
        let match = try normalize([
            "aasa", "match", "--file", "examples/aasa/apple-example.json", "--app-id", "ABCDE12345.com.example.app",
            "https://example.com/help/123?articleNumber=4815", "https://example.com/help/website/x",
        ])
        #expect(match.status == 0, "\(match.stderr)")
        #expect(
            match.lines == [
                #"{"url":"https://example.com/help/123?articleNumber=4815","match":true,"excluded":false,"rule":3}"#,
                #"{"url":"https://example.com/help/website/x","match":false,"excluded":true,"rule":2}"#,
            ]
        )
        let badURL = try normalize(["aasa", "match", "--file", "examples/aasa/apple-example.json", "--app-id", "A1.app", "::"])
        #expect(badURL.status == 1)
        let missing = try normalize(["aasa", "match", "--file", "nonexistent.json", "--app-id", "A1.app", "https://example.com/"])
        #expect(missing.status == 2)
        #expect(missing.stderr.hasPrefix("nonexistent.json: error: cannot read AASA file"))

        let lint = try normalize(["aasa", "lint", "examples/aasa/apple-example.json"])
        #expect(lint.status == 0)
        #expect(lint.lines == ["examples/aasa/apple-example.json: valid, no problems found"])
        let lintMissing = try normalize(["aasa", "lint", "nonexistent.json"])
        #expect(lintMissing.status == 1)

        let route = try normalize([
            "route", "--config", "examples/aasa/config.yaml", "https://example.com/buy/42", "https://example.com/buy/42#no_universal_links",
        ])
        #expect(route.status == 0, "\(route.stderr)")
        let values = try route.lines.map { try JSONValue(parsing: $0) }
        #expect(values.count == 2)
        #expect(values.first?["destination"]?["type"] == "screen")
        #expect(values.first?["universalLink"]?["rule"] == 1)
        #expect(values.last?["destination"]?["target"] == "external")
        #expect(values.last?["warnings"]?.arrayValue?.first?["code"] == "universalLinkExcluded")
        #expect(values.last?["universalLink"]?["excluded"] == true)
    }
}
