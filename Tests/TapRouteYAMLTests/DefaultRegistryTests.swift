import Foundation
import TapRoute
import TapRouteAdapters
import TapRouteTestSupport
import TapRouteYAML
import Testing

/// The adapter of the DocC article "Writing an adapter" (TapRoute.docc/WritingAnAdapter.md),
/// word for word.
private struct AcmeAdapter: PayloadAdapter {
    static let id = "acme"  // config.yaml, envelopes' vendor, Interaction.vendor
    static let summary = "Acme push notifications"
    static let configurationKeys = ["hosts"]  // the adapter's own config.yaml keys

    let hosts: [String]

    init(configuration: AdapterConfiguration) throws(ConfigurationError) {
        let hosts = try configuration.option("hosts")?.stringList() ?? ["acme.example"]
        for (i, host) in hosts.enumerated() where host.contains("/") {
            throw ConfigurationError("a host has no '/': '\(host)'", at: ["hosts", .index(i)])
        }
        self.hosts = hosts
    }

    func recognizes(_ input: InputEvent) -> Bool {
        guard case .notification(let userInfo, _, _) = input.kind else { return false }
        return userInfo["acme"] != nil  // cheap: look for a key, a scheme, a host
    }

    func read(_ input: InputEvent, using reader: inout PayloadReader) throws(NormalizationError) -> AdapterResult {
        guard case .notification(let userInfo, let action, _) = input.kind,
            case .object(let acme)? = userInfo["acme"],
            let link = reader.nonEmptyString(acme["link"])
        else {
            throw NormalizationError.invalidPayload("acme.link is missing, empty or not a string", path: "$.userInfo.acme.link")
        }
        return AdapterResult(
            channel: .push,
            trigger: Trigger(notificationAction: action),
            destination: .url(link, target: .external),
            messageId: reader.nonEmptyString(acme["id"]),
            vendorBehavior: .sdkOpensURL  // Acme's SDK opens the link itself
        )
    }
}

@Suite struct DefaultRegistryTests {
    @Test func embeddedDefaultIsTheRepositoryConfiguration() throws {
        let onDisk = try YAMLConfiguration.load(contentsOf: TestPaths.path("config.yaml"))
        let embedded = try Configuration.embeddedDefault()
        #expect(embedded == onDisk)
        #expect(embedded.source?.file == DefaultConfiguration.fileName)
    }

    /// The embedded JSON is config.yaml as TapRouteYAML reads it, value for value and key for
    /// key in order (scripts/sync-default-config.sh writes it with another YAML reader).
    @Test func embeddedJSONIsConfigYAMLReadByTapRouteYAML() throws {
        let yaml = try YAMLConfiguration.read(contentsOf: TestPaths.path("config.yaml"))
        let (document, _) = try YAMLConfiguration.document(yaml: yaml, file: "config.yaml")
        let embedded = try JSONParser().parse(DefaultConfiguration.json)
        #expect(embedded == document, "config.yaml changed: run scripts/sync-default-config.sh")
        #expect(JSONWriter().string(embedded) == JSONWriter().string(document))
    }

    @Test func builtInRegistryNormalizesWithoutAnyFile() throws {
        let registry = try AdapterRegistry.builtIn()
        #expect(
            registry.adapters.map(\.id) == [
                "dashx", "adobe", "bird", "taptalk", "onesignal", "braze", "airship", "iterable", "clevertap", "customerio", "klaviyo",
                "pushwoosh", "fcm",
            ]
        )
        let interaction = try registry.normalize(.url("campaigndemoapp://products/42?ref=push"))
        #expect(
            interaction.destination
                == .screen(name: "product", parameters: ["id": "42", "ref": "push"], url: "campaigndemoapp://products/42?ref=push")
        )
    }

    @Test func builtInRegistryTakesAThirdPartyAdapterBesideTheBuiltIns() throws {
        let configuration = try YAMLConfiguration.parse(
            yaml: """
                adapters:
                  - id: dashx
                  - id: acme
                    hosts: [go.acme.example]
                """
        )
        let registry = try AdapterRegistry.builtIn(configuration: configuration, additionalAdapterTypes: [AcmeAdapter.self])
        #expect(registry.adapters.map { type(of: $0).id } == ["dashx", "acme"])
        #expect(registry.knownAdapterTypes.map { $0.id } == ["dashx", "adobe", "bird", "taptalk", "acme", "link"])
        let interaction = try registry.normalize(json: json(#"{"acme": {"link": "https://go.acme.example/sale"}}"#))
        #expect(interaction.vendor == "acme")
        #expect(interaction.destination == .url("https://go.acme.example/sale", target: .external))
        #expect(interaction.handling == .automatic)
    }

    @Test func aThirdPartyAdapterWithABuiltInIdIsRefused() throws {
        #expect(throws: ConfigurationError.self) {
            try AdapterRegistry.builtIn(additionalAdapterTypes: AdapterRegistry.builtInAdapterTypes)
        }
    }

    /// An adapter's error at `["hosts", .index(i)]`, i known only at run time, is located at
    /// that element of the file.
    @Test func adapterErrorsAtRunTimeIndicesNameTheFileLineAndColumn() throws {
        let yaml = """
            adapters:
              - id: dashx
              - id: acme
                hosts: [go.acme.example, bad/host]
            """
        let configuration = try YAMLConfiguration.parse(yaml: yaml, file: "app.yaml")
        do {
            _ = try AdapterRegistry.builtIn(configuration: configuration, additionalAdapterTypes: [AcmeAdapter.self])
            Issue.record("a host with '/' was accepted")
        } catch {
            #expect(error.keyPath == ["adapters", 1, "hosts", 1])
            #expect(error.description == "app.yaml:4:30: error: adapters[1].hosts[1]: a host has no '/': 'bad/host'")
        }
    }

    /// The DocC article "Writing an adapter" shows the adapter these tests run, word for word.
    @Test func theArticleShowsTheTestedAdapter() throws {
        func adapter(in text: String) -> Substring? {
            guard let start = text.range(of: "struct AcmeAdapter: PayloadAdapter {") else { return nil }
            guard let end = text.range(of: "\n}\n", range: start.upperBound..<text.endIndex) else { return nil }
            return text[start.lowerBound..<end.upperBound]
        }
        let article = try String(
            contentsOfFile: TestPaths.path("Sources/TapRoute/TapRoute.docc/WritingAnAdapter.md"),
            encoding: .utf8
        )
        let tests = try String(contentsOfFile: TestPaths.path("Tests/TapRouteYAMLTests/DefaultRegistryTests.swift"), encoding: .utf8)
        let shown = try #require(adapter(in: article))
        #expect(shown == adapter(in: tests))
    }

    @Test func keyPathsFromRunTimeValuesEqualLiteralOnes() {
        let key = "hosts"
        let index = 3
        let runTime: ConfigurationError.KeyPath = [.key(key), .index(index)]
        #expect(runTime == ["hosts", 3])
        #expect(ConfigurationError.KeyPath().appending(key).appending(index) == runTime)
        #expect(runTime.description == "hosts[3]")
    }
}
