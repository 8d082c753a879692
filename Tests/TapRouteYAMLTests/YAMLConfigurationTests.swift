import Foundation
import TapRoute
import TapRouteAdapters
import TapRouteTestSupport
import TapRouteYAML
import Testing

@Suite struct YAMLConfigurationTests {
    @Test func repositoryConfigIsTheEmbeddedDefault() throws {
        let onDisk = try String(contentsOfFile: TestPaths.path("config.yaml"), encoding: .utf8)
        #expect(onDisk == DefaultConfiguration.yaml, "config.yaml changed: run scripts/sync-default-config.sh")
    }

    @Test func defaultConfigurationLoadsAndBuildsTheBuiltInRegistry() throws {
        let configuration = try YAMLConfiguration.load(contentsOf: TestPaths.path("config.yaml"))
        #expect(configuration.app.schemes == ["campaigndemoapp", "taptalkio"])
        #expect(configuration.routes.map(\.pattern) == ["campaigndemoapp://products/{id}"])
        #expect(configuration.security.maxURLLength == 4096)
        let registry = try AdapterRegistry(
            configuration: configuration,
            adapterTypes: AdapterRegistry.builtInAdapterTypes,
            definitions: AdapterRegistry.builtInDefinitions()
        )
        #expect(registry.adapters.map(\.id) == configuration.adapters.map(\.id))
    }

    @Test func readsEveryKey() throws {
        let yaml = """
            version: 1
            app:
              schemes: [MyApp]
              domains: [Links.Example.com]
              appID: ABCDE12345.com.example.app
            defaults: {automaticallyOpenDeeplinks: false}
            adapters:
              - link
            routes:
              - url: "myapp://items/{id}"
                screen: item
            security:
              allowedSchemes: [https, myapp]
              allowedHosts: ["*.example.com"]
              maxURLLength: 2048
            limits: {maxRecordBytes: 4096, maxDepth: 16}
            """
        let c = try YAMLConfiguration.parse(yaml: yaml)
        #expect(c.app == AppSettings(schemes: ["myapp"], domains: ["links.example.com"], appID: "ABCDE12345.com.example.app"))
        #expect(c.defaults.automaticallyOpenDeeplinks == false)
        #expect(c.adapters == [AdapterSettings(id: "link")])
        #expect(c.routes.first?.screen == "item")
        #expect(c.security == SecuritySettings(allowedSchemes: ["https", "myapp"], allowedHosts: ["*.example.com"], maxURLLength: 2048))
        #expect(c.limits == Limits(maxRecordBytes: 4096, maxDepth: 16))
    }

    /// Each broken configuration, and the exact message it must produce:
    /// file:line:column, the key path, and what is wrong.
    static let broken: [(String, String)] = [
        (
            "version: 1\napp: [\n",
            "bad.yaml:3:1: error: YAML syntax error: did not find expected node content (while parsing a flow node at line 3, column 1)"
        ),
        (
            "version: 1\ncolour: blue\n",
            "bad.yaml:2:1: error: colour: unknown key 'colour'; expected one of: version, app, defaults, adapters, routes, security, limits"
        ),
        ("version: 2\n", "bad.yaml:1:10: error: version: unsupported version 2; only 1 exists"),
        ("app:\n  schemes: campaigndemoapp\n", "bad.yaml:2:12: error: app.schemes: expected a list, got a string"),
        (
            "app:\n  schemes: [ok, \"not ok\"]\n",
            "bad.yaml:2:17: error: app.schemes[1]: 'not ok' is not a URL scheme (a letter, then letters, digits, '+', '-' or '.'; no ':' or '//')"
        ),
        (
            "app:\n  domains: [\"https://web.taptalk.io\"]\n",
            "bad.yaml:2:13: error: app.domains[0]: 'https://web.taptalk.io' is not a host name (write the host alone, without scheme, port or path)"
        ),
        (
            "defaults:\n  automaticallyOpenDeeplinks: sometimes\n",
            "bad.yaml:2:31: error: defaults.automaticallyOpenDeeplinks: expected true or false, got a string"
        ),
        (
            "adapters:\n  - id: link\n  - id: link\n",
            "bad.yaml:3:9: error: adapters[1].id: duplicate adapter id 'link' (already listed at adapters[0])"
        ),
        ("adapters:\n  - id: acme\n", "bad.yaml:2:9: error: adapters[0].id: unknown adapter id 'acme'; known: \(AdapterRegistry.knownIDs)"),
        (
            "adapters:\n  - id: link\n    channels: {email: {automaticallyOpenDeeplinks: true}}\n",
            "bad.yaml:3:16: error: adapters[0].channels.email: unknown key 'email'; expected one of: push, local, inApp, universalLink, customScheme"
        ),
        (
            "adapters:\n  - id: link\n    colour: red\n",
            "bad.yaml:3:5: error: adapters[0].colour: unknown key 'colour' for adapter 'link'; expected one of: id, automaticallyOpenDeeplinks, channels, definition"
        ),
        (
            "routes:\n  - url: \"myapp://p/{id}/{id}\"\n    screen: p\n",
            "bad.yaml:2:10: error: routes[0].url: bad route pattern 'myapp://p/{id}/{id}': capture '{id}' appears twice"
        ),
        (
            "routes:\n  - url: \"products/{id}\"\n    screen: p\n",
            "bad.yaml:2:10: error: routes[0].url: bad route pattern 'products/{id}': it has no scheme"
        ),
        ("routes:\n  - url: \"myapp://p\"\n", "bad.yaml:2:5: error: routes[0]: missing required key 'screen'"),
        (
            "security:\n  allowedSchemes: [https, javascript]\n",
            "bad.yaml:2:27: error: security.allowedSchemes[1]: scheme 'javascript' is never allowed"
        ),
        ("security:\n  maxURLLength: 0\n", "bad.yaml:2:17: error: security.maxURLLength: 0 is out of range; expected 16...1000000"),
        ("app:\n  schemes: [a]\n  schemes: [b]\n", "bad.yaml:2:3: error: duplicate key 'schemes' in a mapping"),
        ("limits:\n  maxDepth: deep\n", "bad.yaml:2:13: error: limits.maxDepth: expected an integer, got a string"),
    ]

    @Test(arguments: 0..<YAMLConfigurationTests.broken.count)
    func brokenConfigurationsNameFileLineColumnAndKeyPath(index: Int) throws {
        let (yaml, expected) = Self.broken[index]
        do {
            let configuration = try YAMLConfiguration.parse(yaml: yaml, file: "bad.yaml")
            _ = try AdapterRegistry(
                configuration: configuration,
                adapterTypes: AdapterRegistry.builtInAdapterTypes,
                definitions: AdapterRegistry.builtInDefinitions()
            )
            Issue.record("expected an error for:\n\(yaml)")
        } catch {
            #expect(error.description == expected)
        }
    }

    @Test func unreadableFileIsAConfigurationError() {
        #expect(throws: ConfigurationError.self) { try YAMLConfiguration.load(contentsOf: "/nonexistent/config.yaml") }
    }

    @Test func emptyDocumentIsTheEmptyConfigurationWithEveryAdapter() throws {
        #expect(try YAMLConfiguration.parse(yaml: "") == Configuration(enablesEveryAdapter: true))
    }
}

extension AdapterRegistry {
    /// Every known adapter id, sorted, as the unknown-id message lists them.
    static var knownIDs: String {
        ((builtInAdapterTypes.map { $0.id } + [LinkAdapter.id]) + ((try? builtInDefinitions()) ?? []).map(\.id)).sorted()
            .joined(separator: ", ")
    }
}
