import TapRoute
import Testing

/// AASA rules wired into the URL classifier and the registry's policy.
@Suite("AASA classification")
struct AASAClassifierTests {
    private func app(aasa: [String: AASADocument]) -> AppSettings {
        AppSettings(
            schemes: ["exampleapp"],
            domains: ["example.com", "links.example.com"],
            appID: AASATest.app,
            aasa: aasa.mapValues { _ in "aasa.json" },
            aasaDocuments: aasa
        )
    }

    private func classify(_ url: String, _ classifier: URLClassifier) throws -> URLClassifier.Classification {
        guard let parts = URLParts(url) else { throw AASATest.BadURL(url: url) }
        return classifier.classify(parts)
    }

    @Test func rulesDecideOnTheirDomainOnly() throws {
        let document = try AASATest.document(AASASpecTests.appleOverview)
        let settings = app(aasa: ["Example.com": document])
        let classifier = URLClassifier(app: settings, aasa: settings.aasaDocuments)

        let buy = try classify("https://example.com/buy/42", classifier)
        #expect(buy.target == .app)
        #expect(buy.decidedByRules)
        #expect(buy.warning == nil)

        let excluded = try classify("https://EXAMPLE.com/buy/42#no_universal_links", classifier)
        #expect(excluded.target == .external)
        #expect(excluded.excludedByRules)
        #expect(excluded.warning?.code == .universalLinkExcluded)
        #expect(
            excluded.warning?.message
                == ##"the apple-app-site-association of example.com excludes this URL for ABCDE12345.com.example.app: rule $.applinks.details[0].components[0] {"#":"no_universal_links","exclude":true}; iOS opens it in Safari, not the app"##
        )

        let unmatched = try classify("https://example.com/elsewhere", classifier)
        #expect(unmatched.target == .external)
        #expect(unmatched.decidedByRules)
        #expect(unmatched.warning == nil)

        // A domain without a file: the domain alone decides, as before.
        #expect(try classify("https://links.example.com/elsewhere", classifier).target == .app)
        // Only https is a universal link; custom schemes stay the app's.
        #expect(try classify("http://example.com/buy/42", classifier).target == .external)
        #expect(try classify("exampleapp://anything", classifier).target == .app)
    }

    @Test func withoutAnAppIDNoRuleApplies() throws {
        let document = try AASATest.document(AASASpecTests.appleOverview)
        var settings = app(aasa: ["example.com": document])
        settings.appID = nil
        let classifier = URLClassifier(app: settings, aasa: settings.aasaDocuments)
        #expect(try classify("https://example.com/buy/42", classifier).target == .external)
    }

    @Test func registryAppliesLoadedRulesToDestinations() throws {
        let document = try AASATest.document(AASASpecTests.appleOverview)
        let route = try Route(pattern: "https://example.com/help/{id}", screen: "help")
        let configuration = Configuration(app: app(aasa: ["example.com": document]), routes: [route])
        let registry = try AdapterRegistry(configuration: configuration, adapterTypes: [])

        let allowed = try registry.normalize(.url("https://example.com/help/123?articleNumber=4815"))
        #expect(
            allowed.destination
                == .screen(
                    name: "help",
                    parameters: ["id": "123", "articleNumber": "4815"],
                    url: "https://example.com/help/123?articleNumber=4815"
                )
        )

        // Refused by the file: not routed inside the app, opened externally, rule named.
        let refused = try registry.normalize(.url("https://example.com/help/website/faq?articleNumber=4815"))
        #expect(refused.destination == .url("https://example.com/help/website/faq?articleNumber=4815", target: .external))
        #expect(refused.warnings.map(\.code) == [.universalLinkExcluded])
        #expect(refused.warnings.first?.message.contains("$.applinks.details[0].components[2]") == true)

        // No rule matched: external, no warning.
        let unmatched = try registry.normalize(.url("https://example.com/help/123"))
        #expect(unmatched.destination == .url("https://example.com/help/123", target: .external))
        #expect(unmatched.warnings.isEmpty)

        let buy = try registry.normalize(.url("https://example.com/buy/1"))
        #expect(buy.destination == .url("https://example.com/buy/1", target: .app))
    }
}
