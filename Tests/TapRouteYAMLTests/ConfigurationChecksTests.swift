import Foundation
import TapRoute
import TapRouteAdapters
import TapRouteTestSupport
import TapRouteYAML
import Testing

/// A configuration does what it says: every error is reported at once, in file order and
/// typed; the app's own schemes and adapters' schemes are allowed by being declared; no
/// `adapters` list means every built-in adapter; routes no URL can reach are found.
@Suite struct ConfigurationChecksTests {
    func registry(_ yaml: String) throws -> AdapterRegistry {
        try AdapterRegistry(
            configuration: try YAMLConfiguration.parse(yaml: yaml, file: "c.yaml"),
            adapterTypes: AdapterRegistry.builtInAdapterTypes,
            definitions: AdapterRegistry.builtInDefinitions()
        )
    }

    static let dashXPush: JSONValue = [
        "kind": "notification",
        "userInfo": ["aps": ["alert": "x"], "dashx": #"{"id":"1","title":"t","body":"b","url":"https://example.com/x"}"#],
    ]

    // MARK: - Every error, in file order

    @Test func everyErrorOfADocumentIsReportedInFileOrderWithItsKind() throws {
        let yaml = """
            version: 2
            colour: blue
            app:
              schemes: [myapp, "not ok"]
              domian: [x.com]
            defaults: {automaticallyOpenDeeplinks: sometimes}
            adapters:
              - id: acme
              - id: bird
                colour: red
              - id: bird
            routes:
              - url: "products/{id}"
                screen: p
              - url: "myapp://p"
            security:
              allowedSchemes: [https, javascript]
              maxURLLength: 0
            limits: {maxDepth: deep, maxRecords: 3}
            """
        do {
            _ = try registry(yaml)
            Issue.record("expected errors")
        } catch let error as ConfigurationError {
            // Configuration errors are collected first; the registry's are reported with them
            // when check-config runs both (see the CLI tests). Here: the document's own.
            let kinds = error.errors.map(\.kind)
            #expect(
                kinds == [
                    .invalidValue, .unknownKey, .invalidValue, .unknownKey, .typeMismatch, .duplicateAdapter, .invalidValue,
                    .missingKey, .invalidValue, .invalidValue, .typeMismatch, .unknownKey,
                ],
                "\(error)"
            )
            let lines = error.errors.compactMap(\.line)
            #expect(lines.count == error.errors.count)
            #expect(lines == lines.sorted())
            #expect(error.errors.allSatisfy { $0.file == "c.yaml" && $0.column != nil })
            #expect(error.description.split(separator: "\n").count == error.errors.count)
            #expect(error.errors.first?.keyPath == ["version"])
        }
    }

    @Test func registryErrorsOfEveryAdapterAreReportedTogether() throws {
        let yaml = "adapters:\n  - id: acme\n  - id: bird\n    colour: red\n  - id: taptalk\n    hosts: [\"https://x\"]\n"
        #expect {
            try registry(yaml)
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            return error.errors.map(\.kind) == [.unknownAdapter, .unknownKey, .invalidValue]
                && error.errors.map(\.line) == [2, 4, 6]
        }
    }

    @Test(arguments: [
        ("app: {domian: [x.com]}\n", "did you mean 'domains'?"),
        ("app: {Schemes: [x]}\n", "did you mean 'schemes'?"),
        ("secruity: {}\n", "did you mean 'security'?"),
        ("limits: {maxdepth: 3}\n", "did you mean 'maxDepth'?"),
        ("adapters: [{id: link, channels: {psuh: {}}}]\n", "did you mean 'push'?"),
        ("adapters: [{id: taptalk, scheme: [x]}]\n", "did you mean 'schemes'?"),
        ("routes: [{url: \"a://b\", screne: s}]\n", "did you mean 'screen'?"),
    ])
    func unknownKeysSuggestTheClosestKey(yaml: String, suggestion: String) throws {
        #expect {
            try registry(yaml)
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            return error.errors.contains { $0.kind == .unknownKey && $0.message.hasSuffix(suggestion) }
        }
    }

    @Test func unknownKeysFarFromEveryKeySuggestNothing() throws {
        #expect {
            try registry("server: {port: 8080}\n")
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            return error.kind == .unknownKey && !error.message.contains("did you mean") && error.line == 1
        }
    }

    @Test func aasaFilesForDomainsThatAreNotTheAppsAreErrorsAtTheirKey() throws {
        let yaml = "app:\n  appID: ABCDE12345.com.example.app\n  domains: [a.example]\n  aasa: {b.example: x.json, c.example: y.json}\n"
        #expect {
            try YAMLConfiguration.parse(yaml: yaml, file: "c.yaml")
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            return error.errors.map(\.kind) == [.aasaFile, .aasaFile]
                && error.errors.map(\.keyPath.description)
                    == ["app.aasa.b.example", "app.aasa.c.example"]
                && error.errors.allSatisfy { $0.line == 4 }
        }
    }

    // MARK: - Adapters

    @Test func withoutAnAdaptersListEveryBuiltInAdapterIsEnabledInOrder() throws {
        let registry = try registry("app: {schemes: [myapp]}\n")
        // The Swift adapters, then the built-in definitions in path order.
        let builtIn = try AdapterRegistry.builtInAdapterTypes.map { $0.id } + AdapterRegistry.builtInDefinitions().map(\.id)
        #expect(registry.adapters.map(\.id) == builtIn)
        #expect(try registry.normalize(json: Self.dashXPush).vendor == "dashx")
    }

    @Test func anEmptyAdaptersListEnablesNone() throws {
        let registry = try registry("adapters: []\n")
        #expect(registry.adapters.isEmpty)
        #expect(throws: NormalizationError.self) { try registry.normalize(json: Self.dashXPush) }
        let empty = try self.registry("")
        #expect(try empty.adapters.count == AdapterRegistry.builtInAdapterTypes.count + AdapterRegistry.builtInDefinitions().count)
    }

    // MARK: - Declared schemes are allowed

    @Test func theAppsOwnSchemesRouteWithoutASecuritySection() throws {
        let registry = try registry("app: {schemes: [myapp]}\nroutes:\n  - url: \"myapp://product/{id}\"\n    screen: product\n")
        let interaction = try registry.normalize(.url("myapp://product/42"))
        #expect(interaction.destination == .screen(name: "product", parameters: ["id": "42"], url: "myapp://product/42"))
        #expect(interaction.warnings.isEmpty)
        #expect(registry.unreachableRoutes().isEmpty)
        #expect(registry.allowedSchemes.first { $0.scheme == "myapp" }?.origins == [.app])
    }

    @Test func theAppsOwnSchemesAreAllowedEvenWithAnExplicitList() throws {
        let registry = try registry("app: {schemes: [myapp]}\nsecurity: {allowedSchemes: [https]}\n")
        #expect(try registry.normalize(.url("myapp://x")).warnings.isEmpty)
        // Other schemes are still refused.
        #expect(try registry.normalize(.url("http://example.com")).warnings.map(\.code) == [.urlRejected])
    }

    @Test func schemesAnAdapterClaimsAreAllowed() throws {
        let registry = try registry("adapters:\n  - id: taptalk\n    schemes: [chatapp]\nsecurity: {allowedSchemes: [https]}\n")
        let interaction = try registry.normalize(.url("chatapp://room/7"))
        #expect(interaction.vendor == "taptalk")
        #expect(!interaction.warnings.contains { $0.code == .urlRejected })
        #expect(
            registry.allowedSchemes == [
                AllowedScheme(scheme: "https", origins: [.security]), AllowedScheme(scheme: "chatapp", origins: [.adapter("taptalk")]),
            ]
        )
        // A scheme no adapter is configured for is not claimed.
        #expect(!registry.allowedSchemes.contains { $0.scheme == "taptalkio" })
    }

    @Test func allowedHostsDoNotApplyToTheAppsOwnSchemes() throws {
        let yaml = """
            app: {schemes: [myapp, https]}
            adapters: [{id: taptalk, schemes: [chatapp]}]
            routes: [{url: "myapp://product/{id}", screen: product}]
            security: {allowedHosts: [web.example]}
            """
        let registry = try registry(yaml)
        #expect(registry.unreachableRoutes().isEmpty)
        #expect(
            try registry.normalize(.url("myapp://product/1")).destination
                == .screen(name: "product", parameters: ["id": "1"], url: "myapp://product/1")
        )
        #expect(!(try registry.normalize(.url("chatapp://room/7")).warnings.contains { $0.code == .urlRejected }))
        // Web URLs stay held to the list, even with https among the app's schemes.
        #expect(try registry.normalize(.url("https://evil.example/")).warnings.map(\.code) == [.urlRejected])
        #expect(try registry.normalize(.url("https://web.example/")).warnings.isEmpty)
    }

    @Test func allowedSchemesNameEveryOrigin() throws {
        let registry = try registry("app: {schemes: [taptalkio, myapp]}\nadapters: [taptalk]\nsecurity: {allowedSchemes: [myapp, https]}\n")
        #expect(
            registry.allowedSchemes == [
                AllowedScheme(scheme: "myapp", origins: [.security, .app]),
                AllowedScheme(scheme: "https", origins: [.security]),
                AllowedScheme(scheme: "taptalkio", origins: [.app, .adapter("taptalk")]),
            ]
        )
    }

    // MARK: - Routes that can never match

    @Test(arguments: [
        // earlier, later, shadowed
        ("myapp://p/{id}", "myapp://p/new", true),
        ("myapp://p/new", "myapp://p/{id}", false),
        ("myapp://p/*", "myapp://p/{id}/x", true),
        ("myapp://p/*", "myapp://p", true),
        ("myapp://p/{id}", "myapp://p/*", false),
        ("myapp://p/*", "myapp://q/{id}", false),
        ("myapp://p/*", "myapp://p/*", true),
        ("myapp://p/{a}/{b}", "myapp://p/{id}/x", true),
        ("myapp://p/{a}/x", "myapp://p/y/{b}", false),
        ("MyApp://P/{id}", "myapp://p/1", true),
        ("myapp://p/{id}", "other://p/1", false),
        ("myapp://p/A", "myapp://p/a", false),
        ("myapp:p/{id}", "myapp://p/{id}", false),
        ("https://a.example/{x}", "https://b.example/y", false),
        ("myapp://p//{id}/", "myapp://p/1", true),
    ])
    func shadowingMeansEveryURLOfTheLaterRouteMatchesTheEarlier(earlier: String, later: String, shadowed: Bool) throws {
        let first = try Route(pattern: earlier, screen: "a")
        let second = try Route(pattern: later, screen: "b")
        #expect(first.matchesEveryURL(of: second) == shadowed)
        // The claim checked against URLs: the later route's example URL is matched by the
        // earlier one exactly when it is shadowed (or merely overlaps).
        if shadowed {
            let url = try URLParts.parse(second.exampleURL)
            #expect(second.match(url) != nil)
            #expect(first.match(url) != nil)
        }
    }

    @Test func theIndexedSearchFindsTheSameFirstShadowingRouteAsComparingEveryPair() throws {
        // Deterministic pseudo-random route lists over a small alphabet, so that routes
        // often share scheme, host and segments.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let segments = ["x", "y", "{c}", "e\u{301}", "\u{e9}"]
        for _ in 0..<300 {
            var routes: [Route] = []
            for _ in 0..<(1 + next(12)) {
                var pattern = ["a", "b"][next(2)] + (next(3) == 0 ? ":" : "://" + ["h", "H"][next(2)])
                var names = 0
                for _ in 0..<next(4) {
                    var segment = segments[next(segments.count)]
                    if segment == "{c}" {
                        segment = "{c\(names)}"
                        names += 1
                    }
                    pattern += (pattern.hasSuffix(":") ? "" : "/") + segment
                }
                if next(3) == 0 { pattern += pattern.hasSuffix(":") ? "*" : "/*" }
                routes.append(try Route(pattern: pattern, screen: "s"))
            }
            let pairwise = routes.indices.map { i in routes[..<i].firstIndex { $0.matchesEveryURL(of: routes[i]) } }
            #expect(Route.firstShadowing(in: routes) == pairwise, "\(routes.map(\.pattern))")
        }
    }

    @Test func shadowedAndUnreachableRoutesAreReportedAtTheirURL() throws {
        let yaml = """
            app: {schemes: [myapp]}
            routes:
              - url: "myapp://p/{id}"
                screen: p
              - url: "myapp://p/new"
                screen: new
              - url: "myapp://p/{id}/edit"
                screen: edit
              - url: "other://x"
                screen: other
              - url: "https://shop.example/{id}"
                screen: shop
              - url: "javascript://x"
                screen: js
            """
        let registry = try registry(yaml)
        let problems = registry.unreachableRoutes()
        #expect(problems.allSatisfy { $0.kind == .unreachableRoute && $0.file == "c.yaml" })
        #expect(problems.map(\.keyPath.description) == ["routes[1].url", "routes[3].url", "routes[5].url"])
        #expect(problems.map(\.line) == [5, 9, 13])
        // An http(s) pattern without `//host` cannot even be read as a route (URLParts reads
        // it as no URL a browser and iOS agree on): an error at load time, at its key.
        #expect(throws: ConfigurationError.self) {
            try self.registry("routes:\n  - url: \"https:/nohost/{id}\"\n    screen: nohost\n")
        }
    }

    @Test func aRouteOnAHostOutsideAllowedHostsCanNeverMatch() throws {
        let yaml = """
            routes:
              - url: "https://shop.example/{id}"
                screen: shop
              - url: "https://web.example/{id}"
                screen: web
              - url: "https://a.sub.example/{id}"
                screen: sub
            security: {allowedHosts: [web.example, "*.sub.example"]}
            """
        #expect(try registry(yaml).unreachableRoutes().map(\.keyPath.description) == ["routes[0].url"])
    }

    @Test func aRouteLongerThanTheURLLimitCanNeverMatch() throws {
        let long = String(repeating: "a", count: 40)
        let registry = try registry(
            "app: {schemes: [myapp]}\nroutes: [{url: \"myapp://\(long)\", screen: s}]\nsecurity: {maxURLLength: 16}\n"
        )
        #expect(registry.unreachableRoutes().map(\.kind) == [.unreachableRoute])
    }
}
