import Foundation
import TapRoute
import TapRouteTestSupport
import TapRouteYAML
import Testing

/// `app.aasa` in a configuration file: the AASA files are read relative to it, bad ones are
/// configuration errors at the key, and the registry applies their rules.
@Suite("AASA files in the configuration")
struct AASAConfigurationTests {
    private static let appleExample = """
        {"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [
          {"#": "no_universal_links", "exclude": true}, {"/": "/buy/*"},
          {"/": "/help/website/*", "exclude": true}, {"/": "/help/*", "?": {"articleNumber": "????"}}]}]}}
        """

    /// A fresh folder holding `files`, removed after `body`.
    private func withFolder<T>(_ files: [String: String], _ body: (String) throws -> T) throws -> T {
        try TemporaryFolder.with(files, prefix: "taproute-aasa") { try body($0.path) }
    }

    private func config(aasa: String, appID: String? = "ABCDE12345.com.example.app", domains: String = "[example.com]") -> String {
        var text = "version: 1\napp:\n  domains: \(domains)\n"
        if let appID { text += "  appID: \(appID)\n" }
        text += "  aasa:\n    example.com: \(aasa)\n"
        return text
    }

    @Test func filesAreReadRelativeToTheConfiguration() throws {
        let configuration = try withFolder([
            "config.yaml": config(aasa: "well-known/apple-app-site-association"),
            "well-known/apple-app-site-association": Self.appleExample,
        ]) { folder in
            try YAMLConfiguration.load(contentsOf: folder + "/config.yaml")
        }
        let document = try #require(configuration.app.aasaDocuments["example.com"])
        #expect(document.details.first?.components?.count == 4)

        let registry = try AdapterRegistry(configuration: configuration, adapterTypes: [])
        #expect(try registry.normalize(.url("https://example.com/buy/1")).destination == .url("https://example.com/buy/1", target: .app))
        let refused = try registry.normalize(.url("https://example.com/buy/1#no_universal_links"))
        #expect(refused.destination == .url("https://example.com/buy/1#no_universal_links", target: .external))
        #expect(refused.warnings.map(\.code) == [.universalLinkExcluded])
    }

    @Test func absolutePathsAreUsedAsGiven() throws {
        try withFolder(["aasa.json": Self.appleExample]) { folder in
            let configuration = try YAMLConfiguration.parse(yaml: config(aasa: folder + "/aasa.json"), file: "elsewhere/config.yaml")
            #expect(configuration.app.aasaDocuments.keys.sorted() == ["example.com"])
        }
    }

    @Test func missingFileIsAnErrorAtTheKey() throws {
        let error = try withFolder(["config.yaml": config(aasa: "missing.json")]) { folder in
            #expect(throws: ConfigurationError.self) { try YAMLConfiguration.load(contentsOf: folder + "/config.yaml") }
        }
        #expect(error?.keyPath.description == "app.aasa.example.com")
        #expect(error?.line == 6)
        #expect(error?.file?.hasSuffix("/config.yaml") == true)
        #expect(error?.message.hasPrefix("cannot read AASA file '") == true)
    }

    /// The file is built inside the test from this short descriptor, so that the test's
    /// name in the output stays short (the oversized file is 131 KB).
    @Test(arguments: [
        ("not json", "not valid JSON"),
        (#"{"applinks": {"details": [{"appIDs": ["A.b"], "components": [{"/": 1}]}]}}"#, #"components[0]["/"]: expected a string"#),
        ("<131,072 padding bytes>", "Apple accepts at most 131072"),
    ])
    func invalidFileIsAnErrorAtTheKey(descriptor: String, expected: String) throws {
        let text =
            descriptor == "<131,072 padding bytes>"
            ? "{\"applinks\": {}, \"pad\": \"" + String(repeating: "x", count: 131_072) + "\"}" : descriptor
        let error = try withFolder(["config.yaml": config(aasa: "aasa.json"), "aasa.json": text]) { folder in
            #expect(throws: ConfigurationError.self) { try YAMLConfiguration.load(contentsOf: folder + "/config.yaml") }
        }
        #expect(error?.keyPath.description == "app.aasa.example.com")
        #expect(error?.line == 6)
        #expect(error?.message.contains(expected) == true, "\(error?.message ?? "")")
    }

    @Test func lintWarningsDoNotStopLoading() throws {
        let warned =
            #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "*"}, {"/": "/x", "exclude": true}]}]}}"#
        let configuration = try withFolder(["config.yaml": config(aasa: "aasa.json"), "aasa.json": warned]) { folder in
            try YAMLConfiguration.load(contentsOf: folder + "/config.yaml")
        }
        #expect(configuration.app.aasaDocuments.count == 1)
    }

    @Test func aasaNeedsAnAppIDAndAnAppDomain() throws {
        let noAppID = #expect(throws: ConfigurationError.self) {
            try YAMLConfiguration.parse(yaml: config(aasa: "x.json", appID: nil), file: "c.yaml")
        }
        #expect(noAppID?.keyPath.description == "app.aasa")
        #expect(noAppID?.message.contains("app.appID") == true)
        let foreign = #expect(throws: ConfigurationError.self) {
            try YAMLConfiguration.parse(yaml: config(aasa: "x.json", domains: "[other.com]"), file: "c.yaml")
        }
        #expect(foreign?.keyPath.description == "app.aasa.example.com")
        #expect(foreign?.message.contains("not one of app.domains") == true)
    }

    @Test func theShippedExampleLoads() throws {
        let configuration = try YAMLConfiguration.load(contentsOf: Self.repository + "/examples/aasa/config.yaml")
        #expect(configuration.app.aasaDocuments["example.com"]?.details.first?.appIDs.contains("ABCDE12345.com.example.app") == true)
    }

    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
}
