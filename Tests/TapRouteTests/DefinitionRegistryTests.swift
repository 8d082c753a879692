import TapRoute
import TapRouteTestSupport
import Testing

/// Definitions in a registry: known by id next to adapter types, enabled by id, normalized
/// through the policy exactly like a Swift adapter.
@Suite struct DefinitionRegistryTests {
    static let acmeJSON = #"""
        {"id": "acme", "summary": "Acme pushes: userInfo.acme {link, id}", "reads": ["notification"],
         "recognize": {"isObject": "acme"},
         "destination": [{"url": "acme.link"}], "messageId": "acme.id",
         "behavior": {"opensURL": true}, "payload": {"without": ["aps", "acme"]}}
        """#

    static func acme() throws -> AdapterDefinition { try AdapterDefinition(json: json(acmeJSON)) }

    /// A Swift adapter whose id collides with the definition's.
    struct SwiftAcme: PayloadAdapter {
        static let id = "acme"
        init(configuration: AdapterConfiguration) throws(ConfigurationError) {}
        func recognizes(_ input: InputEvent) -> Bool { false }
        func read(_ input: InputEvent, using reader: inout PayloadReader) throws(NormalizationError) -> AdapterResult {
            AdapterResult(channel: .push, trigger: .tap, destination: .app)
        }
    }

    static func configuration(_ text: String) throws -> Configuration { try Configuration(json: json(text)) }

    @Test func aDefinitionNormalizesThroughThePolicyLikeASwiftAdapter() throws {
        let registry = try AdapterRegistry(
            configuration: Self.configuration(#"{"version": 1, "app": {"schemes": ["myapp"]}, "adapters": [{"id": "acme"}]}"#),
            adapterTypes: [],
            definitions: [Self.acme()]
        )
        let push = InputEvent.notification(
            userInfo: ["aps": ["alert": "Hi"], "acme": ["link": "myapp://orders/42", "id": ""], "orderId": "42"],
            phase: .cold
        )
        let interaction = try registry.normalize(push)
        #expect(interaction.vendor == "acme")
        #expect(interaction.phase == .cold)
        #expect(interaction.destination == .url("myapp://orders/42", target: .app))  // the policy's target
        #expect(interaction.handling == .automatic)  // the definition's behaviour
        #expect(interaction.messageId == nil)  // an empty id is dropped by the policy
        #expect(interaction.payload == ["orderId": "42"])
        // URL safety applies to what a definition reads too.
        let unsafe = try registry.normalize(.notification(userInfo: ["acme": ["link": "javascript:alert(1)"]]))
        #expect(unsafe.destination == .app)
        #expect(unsafe.warnings.map(\.code) == [.urlRejected])
        // The envelope's vendor names it by its id.
        var named = InputEvent.notification(userInfo: ["acme": [:]])
        named.vendor = "acme"
        #expect(try registry.normalize(named).vendor == "acme")
        #expect(registry.adapter(forVendor: "acme")?.id == "acme")
        #expect(registry.adapter(forVendor: "acme")?.summary == "Acme pushes: userInfo.acme {link, id}")
    }

    @Test func theConfigurationSettingsApplyToADefinition() throws {
        let registry = try AdapterRegistry(
            configuration: Self.configuration(#"{"version": 1, "adapters": [{"id": "acme", "automaticallyOpenDeeplinks": false}]}"#),
            adapterTypes: [],
            definitions: [Self.acme()]
        )
        #expect(try registry.normalize(.notification(userInfo: ["acme": ["link": "https://a.example/x"]])).handling == .app)
    }

    @Test func everyAdapterIncludesDefinitionsAfterTheTypes() throws {
        let configuration = try Self.configuration(#"{"version": 1}"#)
        #expect(configuration.enablesEveryAdapter)
        let registry = try AdapterRegistry(configuration: configuration, adapterTypes: [], definitions: [Self.acme()])
        #expect(registry.adapters.map(\.id) == ["acme"])
        #expect(registry.knownDefinitions.map(\.id) == ["acme"])
        #expect(try registry.normalize(.notification(userInfo: ["acme": [:]])).vendor == "acme")
    }

    @Test func aDisabledDefinitionIsKnownButNotUsed() throws {
        let registry = try AdapterRegistry(
            configuration: Self.configuration(#"{"version": 1, "adapters": []}"#),
            adapterTypes: [],
            definitions: [Self.acme()]
        )
        #expect(registry.adapters.isEmpty)
        #expect(registry.knownDefinitions.count == 1)
        #expect(throws: NormalizationError.self) { try registry.normalize(.notification(userInfo: ["acme": [:]])) }
    }

    @Test func duplicateIdsAcrossTypesAndDefinitionsAreErrors() throws {
        let configuration = try Self.configuration(#"{"version": 1, "adapters": [{"id": "acme"}]}"#)
        #expect {
            _ = try AdapterRegistry(configuration: configuration, adapterTypes: [SwiftAcme.self], definitions: [Self.acme()])
        } throws: { error in
            (error as? ConfigurationError)?.kind == .duplicateAdapter
        }
        #expect {
            _ = try AdapterRegistry(configuration: configuration, adapterTypes: [], definitions: [Self.acme(), Self.acme()])
        } throws: { error in
            (error as? ConfigurationError)?.errors.map(\.kind) == [.duplicateAdapter]
        }
    }

    @Test func unknownIdsAndOptionsNameTheDefinitions() throws {
        let unknown = try Self.configuration(#"{"version": 1, "adapters": [{"id": "acne"}]}"#)
        #expect {
            _ = try AdapterRegistry(configuration: unknown, adapterTypes: [], definitions: [Self.acme()])
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            return error.kind == .unknownAdapter && error.message.contains("acme") && error.keyPath == ["adapters", 0, "id"]
        }
        let option = try Self.configuration(#"{"version": 1, "adapters": [{"id": "acme", "schemes": ["x"]}]}"#)
        #expect {
            _ = try AdapterRegistry(configuration: option, adapterTypes: [], definitions: [Self.acme()])
        } throws: { error in
            (error as? ConfigurationError)?.kind == .unknownKey
        }
    }

    @Test func swiftAdaptersKeepTheirTypesIdAsInstanceId() {
        #expect(LinkAdapter().id == LinkAdapter.id)
        #expect(LinkAdapter().summary == LinkAdapter.summary)
    }

    @Test func definitionsCompareByDocumentAndOrigin() throws {
        let a = try Self.acme()
        let b = try AdapterDefinition(json: json(Self.acmeJSON), origin: .file("acme.yaml"))
        #expect(a == (try Self.acme()))
        #expect(a != b)
        #expect(b.originDescription == "from acme.yaml")
    }

    /// `as: json` decodes JSON held in a string under `limits.maxDepth`, counted from the
    /// record's root (docs/declarative-adapters.md), wherever the value is read: a named value
    /// and the trigger read through a reader of their own, which must carry the registry's
    /// limits, not the defaults. With `maxDepth: 8`, a string held in `userInfo.acme` (depth
    /// 3) may hold 5 levels: 5 are kept, named or read directly, 6 and 30 are dropped by both.
    @Test func aNamedValueReadAsJSONIsBoundedByTheConfiguredDepth() throws {
        let definition = try AdapterDefinition(
            json: json(
                #"""
                {"id": "acme", "summary": "Acme pushes with a JSON blob", "reads": ["notification"],
                 "recognize": {"isObject": "acme"},
                 "values": {"blob": {"path": "acme.blob", "as": "json"}},
                 "destination": [{"app": true}],
                 "tracking": {"named": "@blob", "direct": {"path": "acme.blob", "as": "json"}}}
                """#
            )
        )
        let registry = try AdapterRegistry(
            configuration: Self.configuration(#"{"version": 1, "limits": {"maxDepth": 8}, "adapters": [{"id": "acme"}]}"#),
            adapterTypes: [],
            definitions: [definition]
        )
        for levels in [1, 5, 6, 30] {
            let blob = String(repeating: #"{"a":"#, count: levels) + "1" + String(repeating: "}", count: levels)
            let interaction = try registry.normalize(.notification(userInfo: ["acme": ["blob": .string(blob)]]))
            let kept = levels <= 5
            #expect((interaction.tracking["direct"] != nil) == kept, "\(levels) levels, read directly")
            #expect((interaction.tracking["named"] != nil) == kept, "\(levels) levels, as a named value")
            #expect(interaction.tracking["named"] == interaction.tracking["direct"])
        }
    }
}
