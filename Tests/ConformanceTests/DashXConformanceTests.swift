import DashXAdapter
import TapRoute
import TapRouteAdapters
import TapRouteConformance
import TapRouteTestSupport
import TapRouteYAML
import Testing

@Suite struct DashXConformanceTests {
    private static let vectorDirectory = "adapters/DashX/Vectors"

    @Test func dashxAdapterConforms() async throws {
        try await AdapterConformanceTest(
            adapter: DashXAdapter.self,
            vectors: .directory(TestPaths.path(Self.vectorDirectory)),
            options: .init(
                baseConfiguration: .yaml(DefaultConfiguration.yaml),
                registryAdapters: AdapterRegistry.builtInAdapterTypes,
                otherVectors: ShippedVectors.all(),
                registryDefinitions: AdapterRegistry.builtInDefinitions()
            )
        ).run()
    }

    @Test func dashxVectorsAreEnough() throws {
        let vectors = try ConformanceVectors.directory(TestPaths.path(Self.vectorDirectory))
        #expect(vectors.vectors.count >= 30)
    }
}

/// Behaviour checked directly against the adapter and the default registry, independent of
/// the vector files.
@Suite struct DashXAdapterTests {
    private let registry: AdapterRegistry

    init() throws {
        registry = try AdapterRegistry(
            configuration: YAMLConfiguration.parse(yaml: DefaultConfiguration.yaml, file: "config.yaml"),
            adapterTypes: AdapterRegistry.builtInAdapterTypes,
            definitions: AdapterRegistry.builtInDefinitions()
        )
    }

    /// A remote notification whose `dashx` is the JSON text of `block`.
    private func push(_ block: JSONValue, action: String? = nil, extra: JSONObject = [:]) -> InputEvent {
        var userInfo: JSONObject = ["aps": ["alert": ["title": "T", "body": "B"]], "dashx": .string(block.jsonString())]
        for (key, value) in extra { userInfo[key] = value }
        return .notification(userInfo: userInfo, action: action)
    }

    private func codes(_ interaction: Interaction) -> [String] {
        interaction.warnings.map(\.code.rawValue)
    }

    @Test func detectsOnlyNotificationsWithADashXKey() {
        let adapter = DashXAdapter()
        #expect(adapter.recognizes(push(["id": "1"])))
        #expect(adapter.recognizes(.notification(userInfo: ["dashx": 5])))
        #expect(!adapter.recognizes(.notification(userInfo: ["_xdm": ["a": 1], "adb_uri": "https://x.example"])))
        #expect(!adapter.recognizes(.url("campaigndemoapp://inbox")))
        #expect(!adapter.recognizes(.userActivity(webpageURL: "https://example.com/a")))
        #expect(throws: NormalizationError.self) { try adapter.read(.url("campaigndemoapp://inbox")) }
    }

    @Test func precedenceIsScreenRichLandingURLClickAction() throws {
        let full: JSONObject = [
            "id": "1", "title": "T", "body": "B", "screen_name": "S", "url": "https://example.com/r",
            "rich_landing": true, "click_action": "C",
        ]
        let steps: [(remove: String?, expected: Destination)] = [
            (nil, .screen(name: "S")),
            ("screen_name", .url("https://example.com/r", target: .inAppBrowser)),
            ("rich_landing", .url("https://example.com/r", target: .external)),
            ("url", .clickAction("C")),
            ("click_action", .app),
        ]
        var block = full
        for step in steps {
            if let key = step.remove { block[key] = nil }
            let result = try registry.normalize(push(.object(block)))
            #expect(result.destination == step.expected, "after removing \(step.remove ?? "nothing")")
            #expect(result.warnings.isEmpty)
        }
    }

    @Test func buttonTapUsesOnlyTheButtonsFields() throws {
        let block: JSONValue = [
            "id": "1", "title": "T", "body": "B", "url": "https://example.com/top",
            "action_buttons": [
                ["identifier": "a", "label": "A", "screenName": " Cart ", "screenData": ["n": 2]],
                ["identifier": "b", "label": "B"],
            ],
        ]
        let a = try registry.normalize(push(block, action: "a"))
        #expect(a.trigger == .button(id: "a", label: "A"))
        #expect(a.destination == .screen(name: "Cart", parameters: ["n": "2"]))
        #expect(codes(a) == ["androidDiffers"])  // the number in screenData
        let b = try registry.normalize(push(block, action: "b"))
        #expect(b.destination == .app)
        #expect(b.buttons.map(\.id) == ["a", "b"])
        let unknown = try registry.normalize(push(block, action: "zzz"))
        #expect(unknown.destination == .app)
        #expect(unknown.trigger == .button(id: "zzz", label: nil))
        #expect(codes(unknown).contains("unknownButton"))
    }

    @Test func dismissGoesNowhere() throws {
        let result = try registry.normalize(
            push(["id": "1", "title": "T", "body": "B", "url": "https://example.com"], action: NotificationAction.dismissIdentifier)
        )
        #expect(result.trigger == .dismiss)
        #expect(result.destination == .none)
        #expect(result.handling == .app)
    }

    @Test func wrongTypedDecidingFieldIsSkipped() throws {
        let result = try registry.normalize(
            push(["id": "1", "title": "T", "body": "B", "screen_name": ["x"], "url": 42, "click_action": " Go "])
        )
        #expect(result.destination == .clickAction("Go"))
        #expect(codes(result) == ["dashxInvalidField", "dashxInvalidField"])
    }

    /// `id`, `title` and `body` count as missing when absent or `null` (the iOS SDK decodes
    /// them as required strings), each with its own warning; a wrong-typed one is reported as
    /// such, not as missing; present ones, whatever else the block holds, give none.
    @Test func requiredFieldsAreMissingWhenAbsentOrNull() throws {
        let fields = ["id", "title", "body"]
        for mask in 0..<8 {
            for missing: JSONValue? in [nil, .null] {
                var block: JSONObject = ["click_action": "C", "extra": nil]
                for (i, key) in fields.enumerated() {
                    block[key] = mask & (1 << i) != 0 ? "x" : missing
                }
                let result = try registry.normalize(push(.object(block)))
                let expected = fields.indices.filter { mask & (1 << $0) == 0 }.map { _ in "iOSWouldDrop" }
                #expect(codes(result) == expected, "present \(mask), missing as \(String(describing: missing))")
                #expect(result.destination == .clickAction("C"))
            }
        }
        let wrongType = try registry.normalize(push(["id": 1, "title": "T", "body": "B", "click_action": "C"]))
        #expect(codes(wrongType) == ["dashxInvalidField"])
    }

    @Test func objectBlockIsRecoveredAndUnreadableBlockOpensTheApp() throws {
        let object = try registry.normalize(
            .notification(userInfo: ["dashx": ["id": "1", "title": "T", "body": "B", "click_action": "C"]])
        )
        #expect(object.destination == .clickAction("C"))
        #expect(object.messageId == "1")
        #expect(codes(object) == ["dashxNotString"])
        for raw: JSONValue in ["{oops", "[1]", 7, nil, true] {
            let result = try registry.normalize(.notification(userInfo: ["dashx": raw, "k": "v"]))
            #expect(result.destination == .app)
            #expect(result.payload == ["k": "v"])
            #expect(codes(result) == ["dashxUnreadable"])
        }
    }

    @Test func payloadTrackingAndChannel() throws {
        var event = push(["id": "abc", "title": "T", "body": "B"], extra: ["campaign": "spring"])
        event.kind = .notification(
            userInfo: ["aps": [:], "dashx": #"{"id":"abc","title":"T","body":"B"}"#, "campaign": "spring"],
            action: nil,
            origin: .local
        )
        let result = try registry.normalize(event)
        #expect(result.vendor == "dashx")
        #expect(result.channel == .local)
        #expect(result.messageId == "abc")
        #expect(result.tracking == ["notificationId": "abc"])
        #expect(result.payload == ["campaign": "spring"])
    }

    @Test func builtInHandlingIsAutomaticAndConfigurable() throws {
        let event = push(["id": "1", "title": "T", "body": "B", "url": "https://example.com"])
        #expect(try registry.normalize(event).handling == .automatic)
        var claimed = event
        claimed.automaticallyOpenDeeplinks = false
        #expect(try registry.normalize(claimed).handling == .app)
        let configured = try AdapterRegistry(
            configuration: YAMLConfiguration.parse(
                yaml: "version: 1\nadapters:\n  - id: dashx\n    channels: {push: {automaticallyOpenDeeplinks: false}}\n",
                file: "test.yaml"
            ),
            adapterTypes: AdapterRegistry.builtInAdapterTypes,
            definitions: AdapterRegistry.builtInDefinitions()
        )
        #expect(try configured.normalize(event).handling == .app)
    }
}

/// The analytics mapping documented in `docs/adapters/dashx.md`.
@Suite struct DashXAnalyticsTests {
    private let registry: AdapterRegistry

    init() throws {
        registry = try AdapterRegistry(
            configuration: YAMLConfiguration.parse(yaml: DefaultConfiguration.yaml, file: "config.yaml"),
            adapterTypes: AdapterRegistry.builtInAdapterTypes,
            definitions: AdapterRegistry.builtInDefinitions()
        )
    }

    private func tap(_ block: String, action: String? = nil, origin: InputEvent.NotificationOrigin = .remote) throws
        -> Interaction
    {
        try registry.normalize(
            .notification(userInfo: ["dashx": .string(#"{"id":"1","title":"T","body":"B","# + block + "}")], action: action, origin: origin)
        )
    }

    @Test func navigationTypes() throws {
        typealias T = DashXAnalytics.NavigationType
        let cases: [(String, T?)] = [
            (#""url":"https://example.com""#, .deepLink),
            (#""url":"https://example.com","rich_landing":true"#, .richLanding),
            (#""screen_name":"Inbox""#, .screen),
            (#""url":"campaigndemoapp://products/9""#, .deepLink),  // routed to a screen, from a URL
            (#""click_action":"C""#, .clickAction),
            (#""image":"x""#, .default),
            (#""url":"javascript:alert(1)""#, .default),  // rejected by the policy
        ]
        for (fields, expected) in cases {
            #expect(DashXAnalytics.navigationType(of: try tap(fields)) == expected, "\(fields)")
        }
        let dismissed = try tap(#""url":"https://example.com""#, action: NotificationAction.dismissIdentifier)
        #expect(DashXAnalytics.navigationType(of: dismissed) == nil)
        let link = try registry.normalize(.url("campaigndemoapp://inbox"))
        #expect(DashXAnalytics.navigationType(of: link) == nil)
    }

    @Test func deepLinkSourcesFollowChannelAndTrigger() throws {
        typealias S = DashXAnalytics.DeepLinkSource
        #expect(DashXAnalytics.deepLinkSource(of: try tap(#""url":"https://example.com""#)) == .notification)
        #expect(
            DashXAnalytics.deepLinkSource(of: try tap(#""url":"https://example.com""#, origin: .local)) == .notification
        )
        #expect(DashXAnalytics.deepLinkSource(of: try tap(#""screen_name":"Inbox""#)) == nil)
        #expect(
            DashXAnalytics.deepLinkSource(
                of: try tap(#""url":"https://example.com""#, action: NotificationAction.dismissIdentifier)
            ) == nil
        )
        let custom = try registry.normalize(.url("campaigndemoapp://inbox"))
        #expect(DashXAnalytics.deepLinkSource(of: custom) == .sceneURL)
        #expect(DashXAnalytics.openedURL(of: custom) == "campaigndemoapp://inbox")
        let universal = try registry.normalize(.userActivity(webpageURL: "https://www.example.com/a"))
        #expect(DashXAnalytics.deepLinkSource(of: universal) == .universalLink)
        #expect(S.allCases.map(\.rawValue) == ["notification", "universal_link", "scene_url"])
        #expect(
            DashXAnalytics.NavigationType.allCases.map(\.rawValue)
                == ["deep_link", "screen", "rich_landing", "click_action", "default"]
        )
    }
}
