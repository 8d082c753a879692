import TapRoute
import TapRouteTestSupport
import Testing

@Suite struct RouteTests {
    private func parts(_ url: String) throws -> URLParts { try #require(URLParts(url)) }

    /// Matching reads the path in place; it must agree with the definition (the URL's
    /// non-empty ``URLParts/pathSegments``, literals byte for byte, captures decoded once, then
    /// the query items) on generated routes and URLs: doubled and trailing slashes, escapes,
    /// non-ASCII segments, too few and too many segments.
    @Test func matchingAgreesWithThePathSegmentsDefinition() throws {
        let patterns = [
            "myapp://p/{id}", "myapp://p/new", "myapp://p/{a}/{b}", "myapp://p/*", "myapp://p/{a}/x/*", "myapp:q/{id}",
            "myapp:{a}", "https://example.com/é/{x}", "https://example.com", "myapp://p",
        ]
        let pieces = ["/", "//", "p", "new", "x", "7", "%20", "%2F", "é", "e%CC%81", "新", "q", "/x"]
        let hosts = ["myapp://", "myapp:", "https://example.com", "https://EXAMPLE.com", "myapp://P"]
        var generator = SplitMix64(seed: 91)
        var matched = 0
        for pattern in patterns {
            let route = try Route(pattern: pattern, screen: "s")
            for _ in 0..<1_500 {
                var text = hosts[generator.below(hosts.count)]
                for _ in 0..<generator.below(6) { text += pieces[generator.below(pieces.count)] }
                if generator.below(4) == 0 { text += "?id=q&z=%41" }
                guard let url = URLParts(text) else { continue }
                let expected = Self.definitionMatch(pattern: pattern, url: url)
                #expect(route.match(url) == expected, "\(pattern) \(text)")
                if expected != nil { matched += 1 }
            }
        }
        #expect(matched > 300, "the generator should make matching URLs")
    }

    /// The definition of a match, from the pattern's text and the URL's parsed parts.
    static func definitionMatch(pattern: String, url: URLParts) -> ScreenParameters? {
        let parsedPattern = URLParts(pattern)!
        guard url.scheme == parsedPattern.scheme, url.hasAuthority == parsedPattern.hasAuthority else { return nil }
        if url.hasAuthority, url.normalizedHost != parsedPattern.normalizedHost { return nil }
        var wanted = parsedPattern.pathSegments.map(String.init)
        let rest = wanted.last == "*"
        if rest { wanted.removeLast() }
        let actual = url.pathSegments
        guard rest ? actual.count >= wanted.count : actual.count == wanted.count else { return nil }
        var parameters = ScreenParameters()
        for (segment, value) in zip(wanted, actual) {
            if segment.hasPrefix("{") {
                parameters[String(segment.dropFirst().dropLast())] = URLParts.percentDecoded(value)
            } else if !value.utf8.elementsEqual(segment.utf8) {
                return nil
            }
        }
        for item in url.queryItems where parameters[item.name] == nil { parameters[item.name] = item.value }
        return parameters
    }

    @Test func capturesAndQueryItems() throws {
        let route = try Route(pattern: "campaigndemoapp://products/{id}", screen: "product")
        let parameters = try #require(route.match(parts("campaigndemoapp://products/42?ref=push&id=9")))
        #expect(Array(parameters.names) == ["id", "ref"])
        #expect(parameters["id"] == "42")
        #expect(parameters["ref"] == "push")
    }

    @Test func hostsAndSchemesAreCaseInsensitivePathsAreNot() throws {
        let route = try Route(pattern: "https://web.taptalk.io/chat/{roomID}", screen: "chatRoom")
        #expect(route.match(try parts("HTTPS://Web.TapTalk.io/chat/r1"))?["roomID"] == "r1")
        #expect(route.match(try parts("https://web.taptalk.io/Chat/r1")) == nil)
        #expect(route.match(try parts("https://web.taptalk.io/chat/r1/extra")) == nil)
        #expect(route.match(try parts("https://other.io/chat/r1")) == nil)
    }

    @Test func captureIsPercentDecodedOnce() throws {
        let route = try Route(pattern: "myapp://p/{name}", screen: "p")
        #expect(route.match(try parts("myapp://p/a%2Fb%2520c"))?["name"] == "a/b%20c")
    }

    @Test func trailingWildcardMatchesTheRest() throws {
        let route = try Route(pattern: "myapp://help/*", screen: "help")
        #expect(route.match(try parts("myapp://help")) != nil)
        #expect(route.match(try parts("myapp://help/a/b/c")) != nil)
        #expect(route.match(try parts("myapp://other/a")) == nil)
    }

    @Test func emptySegmentsAreIgnored() throws {
        let route = try Route(pattern: "myapp://p/{id}", screen: "p")
        #expect(route.match(try parts("myapp://p//7/"))?["id"] == "7")
    }

    @Test(arguments: [
        "products/{id}", "myapp://p/*/x", "myapp://p/{}", "myapp://p/{a}/{a}", "myapp://p/x{a}", "myapp://p/{a}?q=1",
        "https://{host}/x", "1app://x",
    ])
    func badPatternsAreRejected(pattern: String) {
        #expect(throws: Route.PatternError.self) { try Route(pattern: pattern, screen: "s") }
    }
}

@Suite struct URLSafetyTests {
    let safety = URLSafety(settings: SecuritySettings(allowedSchemes: ["https", "http", "myapp", "tel"], maxURLLength: 64))

    @Test(arguments: [
        ("javascript:alert(1)", "scheme 'javascript' is never allowed"),
        ("JavaScript:alert(1)", "scheme 'javascript' is never allowed"),
        ("data:text/html,x", "scheme 'data' is never allowed"),
        ("file:///etc/passwd", "scheme 'file' is never allowed"),
        ("vbscript:x", "scheme 'vbscript' is never allowed"),
        ("ftp://x.y/", "scheme 'ftp' is not in security.allowedSchemes"),
        ("", "is empty"),
        (" https://x.y/", "contains whitespace or control characters"),
        ("https://x.y/\u{7F}", "contains whitespace or control characters"),
        ("java\nscript:alert(1)", "contains whitespace or control characters"),
        ("//x.y/", "has no scheme"),
        ("https:/x", "has no host"),
        ("https://x.y:99999/", "has a bad port '99999'"),
        ("https://[::1/", "has an unterminated IPv6 host"),
        ("myapp://p/%00", "contains an encoded NUL byte (%00)"),
        ("https://example.com/" + String(repeating: "a", count: 60), "is longer than 64 bytes"),
    ])
    func rejects(url: String, reason: String) {
        let rejection = #expect(throws: URLSafety.Rejection.self) { try safety.check(url) }
        #expect(rejection?.reason == reason)
        #expect(rejection?.description == reason)
        #expect(rejection?.url == url)
    }

    /// Each rejection names its rule with the offending part, so callers decide on it, not on
    /// the reason's text.
    @Test(arguments: [
        ("javascript:alert(1)", URLSafety.Rejection.Rule.forbiddenScheme("javascript")),
        ("ftp://x.y/", .schemeNotAllowed("ftp")),
        ("https://x.y/\u{7F}", .malformed(URLParts.ParseFailure(.controlCharacter(offset: 12)))),
        ("https://a.com@b.com/", .malformed(URLParts.ParseFailure(.credentials(userInfo: "a.com")))),
        ("https://x.y:99999/", .malformed(URLParts.ParseFailure(.badPort("99999")))),
        ("myapp://p/%00", .encodedNUL),
        ("myapp://p/%E2%80%AE", .encodedForbiddenCharacter(codePoint: 0x202E, .bidiControl)),
        ("https://example.com/" + String(repeating: "a", count: 60), .tooLong(length: 80, limit: 64)),
    ])
    func rejectionsNameTheirRule(url: String, rule: URLSafety.Rejection.Rule) {
        #expect(throws: URLSafety.Rejection(rule, url: url)) { try safety.check(url) }
    }

    @Test func hostsOutsideTheAllowedHostsNameTheHost() {
        let strict = URLSafety(settings: SecuritySettings(allowedSchemes: ["https"], allowedHosts: ["example.com"]))
        #expect(throws: URLSafety.Rejection(.hostNotAllowed("evil.example"), url: "https://EVIL.example/")) {
            try strict.check("https://EVIL.example/")
        }
    }

    @Test(arguments: ["https://x.y/", "myapp://p/1", "tel:+1555", "https://[::1]:8080/", "https://例え.jp/"])
    func accepts(url: String) throws {
        _ = try safety.check(url)
    }

    @Test func allowedHostsWithWildcards() throws {
        let strict = URLSafety(settings: SecuritySettings(allowedSchemes: ["https", "tel"], allowedHosts: ["*.example.com", "a.io"]))
        _ = try strict.check("https://shop.example.com/")
        _ = try strict.check("https://example.com/")
        _ = try strict.check("https://A.IO/")
        _ = try strict.check("tel:1")  // no host: the host list does not apply
        #expect(throws: URLSafety.Rejection.self) { try strict.check("https://evilexample.com/") }
        #expect(throws: URLSafety.Rejection.self) { try strict.check("https://b.io/") }
    }
}

/// A minimal adapter used to check the registry's selection and policy.
private struct EchoAdapter: PayloadAdapter {
    static let id = "echo"
    static let configurationKeys = ["key"]
    let key: String

    init(configuration: AdapterConfiguration) throws(ConfigurationError) {
        key = try configuration.option("key")?.string() ?? "echo"
        if key.isEmpty { throw ConfigurationError("must not be empty", at: ["key"]) }
    }

    func recognizes(_ input: InputEvent) -> Bool {
        if case .notification(let userInfo, _, _) = input.kind { return userInfo[key] != nil }
        return false
    }

    func read(_ input: InputEvent, using reader: inout PayloadReader) throws(NormalizationError) -> AdapterResult {
        guard case .notification(let userInfo, let action, let origin) = input.kind, let url = userInfo[key]?.stringValue else {
            throw .invalidPayload("\(key) must be a string", path: "$.userInfo.\(key)")
        }
        return AdapterResult(
            channel: origin == .local ? .local : .push,
            trigger: Trigger(notificationAction: action),
            destination: .url(url, target: .external),
            buttons: [Interaction.Button(id: "b", destination: .url("javascript:x", target: .external))],
            vendorBehavior: .sdkOpensURL
        )
    }
}

@Suite struct RegistryAndPolicyTests {
    private func registry(_ document: JSONValue) throws -> AdapterRegistry {
        try AdapterRegistry(configuration: Configuration(json: document), adapterTypes: [EchoAdapter.self])
    }

    private let base: JSONValue = [
        "app": ["schemes": ["myapp"], "domains": ["app.example.com"]],
        "adapters": [["id": "echo"]],
        "routes": [["url": "myapp://items/{id}", "screen": "item"]],
        "security": ["allowedSchemes": ["https", "myapp", "tel"]],
    ]

    /// The interaction's destination and each button's are what ``HandlingPolicy/resolve(_:warnings:label:)``
    /// makes of them, whatever their kind: the policy passes a destination without a URL as it
    /// is, and reads every one with a URL — a screen routed from a link included — through the
    /// safety rules, routes and classification (a screen whose link is refused becomes the
    /// app, one the app's routes match is routed again).
    @Test func everyKindOfDestinationIsResolvedAsTheDestinationRuleSays() throws {
        let policy = try registry(base).policy
        let urls = [
            "https://app.example.com/x", "myapp://items/7", "javascript:alert(1)", "https://evil.example/a b",
            "ftp://files.example.com/f", "tel:+1555",
        ]
        var destinations: [Destination] = [.app, .none, .clickAction("OPEN"), .screen(name: "home")]
        destinations.append(.screen(name: "item", parameters: ["id": "7"]))
        for url in urls {
            destinations.append(.url(url, target: .external))
            destinations.append(.url(url, target: .inAppBrowser))
            destinations.append(.screen(name: "linked", parameters: ["k": "v"], url: url))
        }
        var changed = 0
        for destination in destinations {
            let result = AdapterResult(
                channel: .push,
                trigger: .tap,
                destination: destination,
                buttons: [Interaction.Button(id: "b", destination: destination), Interaction.Button(id: "other", destination: .app)]
            )
            let interaction = policy.resolve(result, vendor: "echo", input: .notification(userInfo: [:])).interaction
            var warnings: [Warning] = []
            let expected = policy.resolve(destination, warnings: &warnings, label: "destination url")
            if expected != destination { changed += 1 }
            #expect(interaction.destination == expected, "\(destination)")
            #expect(interaction.buttons.map(\.destination) == [expected, .app], "\(destination)")
            // Once for the destination, once for the button.
            #expect(interaction.warnings.count == 2 * warnings.count, "\(destination)")
        }
        // The policy changes some of them (refused, routed, classified): the comparison is
        // not of values it leaves alone.
        #expect(changed >= 6)
    }

    /// A button whose destination is the interaction's takes the interaction's resolution when
    /// that raised no warning (the URL is read once); either way the result is what resolving
    /// each place on its own gives — destinations, and warnings each naming its place — with
    /// other buttons before and between the ones that share it.
    @Test func buttonsSharingTheDestinationAreResolvedAsEachOnItsOwn() throws {
        let policy = try registry(base).policy
        let urls = [
            "https://app.example.com/x", "myapp://items/7", "myapp://items/7?ref=push", "javascript:alert(1)",
            "https://evil.example/a b", "ftp://files.example.com/f", "tel:+1555", "https://app.example.com/%00",
        ]
        for url in urls {
            for shared in [Destination.url(url, target: .external), .screen(name: "linked", parameters: ["k": "v"], url: url)] {
                let places: [(id: String, destination: Destination)] = [
                    ("first", .url("https://app.example.com/other", target: .external)), ("a", shared), ("b", .app),
                    ("c", shared), ("d", .url("myapp://items/8", target: .external)), ("e", shared),
                ]
                let result = AdapterResult(
                    channel: .push,
                    trigger: .tap,
                    destination: shared,
                    buttons: places.map { Interaction.Button(id: $0.id, destination: $0.destination) }
                )
                let resolution = policy.resolve(result, vendor: "echo", input: .notification(userInfo: [:]))
                var warnings: [Warning] = []
                let expected = policy.resolve(shared, warnings: &warnings, label: "destination url")
                let buttons = places.map { policy.resolve($0.destination, warnings: &warnings, label: "button \($0.id) url") }
                #expect(resolution.interaction.destination == expected, "\(shared)")
                #expect(resolution.interaction.buttons.map(\.destination) == buttons, "\(shared)")
                #expect(resolution.interaction.warnings == warnings, "\(shared)")
                #expect(resolution.rejectedURLs.map(\.warning) == warnings.filter { $0.code == .urlRejected }, "\(shared)")
            }
        }
    }

    @Test func picksTheAdapterAndAppliesPolicy() throws {
        let r = try registry(base)
        let interaction = try r.normalize(.notification(userInfo: ["echo": "https://app.example.com/x"], phase: .cold))
        #expect(interaction.vendor == "echo")
        #expect(interaction.destination == .url("https://app.example.com/x", target: .app))
        #expect(interaction.handling == .automatic)  // the adapter's built-in default
        #expect(interaction.phase == .cold)
        #expect(interaction.buttons.first?.destination == .app)
        #expect(interaction.warnings.map(\.code) == [.urlRejected])
        #expect(interaction.warnings.first?.message == "button b url 'javascript:x' scheme 'javascript' is never allowed")
    }

    @Test func routesTurnURLsIntoScreens() throws {
        let interaction = try registry(base).normalize(.notification(userInfo: ["echo": "myapp://items/7?x=1"]))
        #expect(interaction.destination == .screen(name: "item", parameters: ["id": "7", "x": "1"], url: "myapp://items/7?x=1"))
        #expect(interaction.handling == .app)
    }

    @Test func handlingPrecedence() throws {
        var document = base.objectValue!
        let userInfo: JSONObject = ["echo": "https://other.example/"]
        #expect(try registry(.object(document)).normalize(.notification(userInfo: userInfo)).handling == .automatic)

        document["defaults"] = ["automaticallyOpenDeeplinks": false]
        #expect(try registry(.object(document)).normalize(.notification(userInfo: userInfo)).handling == .app)

        document["adapters"] = [["id": "echo", "automaticallyOpenDeeplinks": true]]
        #expect(try registry(.object(document)).normalize(.notification(userInfo: userInfo)).handling == .automatic)

        document["adapters"] = [
            ["id": "echo", "automaticallyOpenDeeplinks": true, "channels": ["push": ["automaticallyOpenDeeplinks": false]]]
        ]
        let r = try registry(.object(document))
        #expect(try r.normalize(.notification(userInfo: userInfo)).handling == .app)
        #expect(try r.normalize(.notification(userInfo: userInfo, origin: .local)).handling == .automatic)

        var event = InputEvent.notification(userInfo: userInfo)
        event.automaticallyOpenDeeplinks = true
        #expect(try r.normalize(event).handling == .automatic)
    }

    @Test func fallsBackToTheLinkAdapterAndReportsUnrecognized() throws {
        let r = try registry(base)
        #expect(try r.normalize(.url("tel:1")).vendor == "link")
        #expect(
            throws: NormalizationError(.unrecognized, "no enabled adapter recognizes this notification", cause: .unrecognized(vendor: nil))
        ) {
            try r.normalize(.notification(userInfo: ["other": 1]))
        }
        var unknown = InputEvent.url("myapp://x")
        unknown.vendor = "nosuch"
        #expect(
            throws: NormalizationError(
                .unknownVendor,
                "no enabled adapter has id 'nosuch'; enabled: echo, link",
                path: "$.vendor",
                cause: .unknownVendor("nosuch")
            )
        ) {
            try r.normalize(unknown)
        }
        var forced = InputEvent.url("myapp://x")
        forced.vendor = "echo"
        #expect(
            throws: NormalizationError(
                .unrecognized,
                "adapter 'echo' does not recognize this url",
                path: "$.vendor",
                cause: .unrecognized(vendor: "echo")
            )
        ) {
            try r.normalize(forced)
        }
    }

    @Test func richLandingThatIsNotWebIsAPlainURL() throws {
        let policy = HandlingPolicy(configuration: try Configuration(json: base))
        var warnings: [Warning] = []
        #expect(
            policy.resolve(.url("https://x.y/", target: .inAppBrowser), warnings: &warnings, label: "d")
                == .url("https://x.y/", target: .inAppBrowser)
        )
        #expect(policy.resolve(.url("tel:1", target: .inAppBrowser), warnings: &warnings, label: "d") == .url("tel:1", target: .external))
        #expect(warnings.map(\.code) == [.richLandingNotWeb])
    }

    @Test func adapterConfigurationErrorsNameTheKeyPath() throws {
        let unknownKey: JSONValue = ["adapters": [["id": "echo", "colour": "red"]]]
        #expect(
            throws: ConfigurationError(
                "unknown key 'colour' for adapter 'echo'; expected one of: id, automaticallyOpenDeeplinks, channels, definition, key",
                kind: .unknownKey,
                at: ["adapters", 0, "colour"],
                isAboutKey: true
            )
        ) {
            try registry(unknownKey)
        }
        let badValue: JSONValue = ["adapters": [["id": "echo", "key": ""]]]
        #expect(throws: ConfigurationError("must not be empty", at: ["adapters", 0, "key"])) { try registry(badValue) }
        let unknownID: JSONValue = ["adapters": [["id": "acme"]]]
        #expect(
            throws: ConfigurationError("unknown adapter id 'acme'; known: echo, link", kind: .unknownAdapter, at: ["adapters", 0, "id"])
        ) {
            try registry(unknownID)
        }
    }

    @Test func limitsAreEnforced() throws {
        var document = base.objectValue!
        document["limits"] = ["maxRecordBytes": 64, "maxDepth": 3]
        let r = try registry(.object(document))
        let long = Array(#"{"kind":"url","url":"myapp://\#(String(repeating: "a", count: 80))"}"#.utf8)
        #expect(throws: NormalizationError.limitExceeded(.recordBytes(size: long.count, limit: 64))) {
            try long.withUnsafeBufferPointer { buffer throws(NormalizationError) in try r.normalize(record: buffer) }
        }
        let deep = Array(#"{"a":{"b":{"c":{"d":1}}}}"#.utf8)
        #expect(throws: NormalizationError.limitExceeded(.depth(limit: 3, line: 1, column: 16))) {
            try deep.withUnsafeBufferPointer { buffer throws(NormalizationError) in try r.normalize(record: buffer) }
        }
        let broken = Array(#"{"a":tru}"#.utf8)
        let error = #expect(throws: NormalizationError.self) {
            try broken.withUnsafeBufferPointer { buffer throws(NormalizationError) in try r.normalize(record: buffer) }
        }
        #expect(
            error?.cause == .invalidJSON(JSONParseError(.invalidLiteral(found: "tru", expected: "true"), line: 1, column: 6, offset: 5))
        )
        #expect(error?.message == "invalid literal 'tru', expected 'true' at line 1 column 6")
    }
}

@Suite struct ScreenLinkClassificationTests {
    private let configuration = Configuration(app: AppSettings(schemes: ["myapp"], domains: ["chat.example.com"]))

    @Test func anAdapterScreenWhoseLinkTheAASARulesExcludeOpensInSafari() {
        let classifier = URLClassifier(
            app: configuration.app,
            universalLinkRules: [
                "chat.example.com": { parts in
                    parts.path.hasPrefix("/e/")
                        ? UniversalLinkDecision(opensApp: false, explanation: "excluded by rule 0 (NOT /e/*)")
                        : UniversalLinkDecision(opensApp: true)
                }
            ]
        )
        let policy = HandlingPolicy(configuration: configuration, classifier: classifier)
        var warnings: [Warning] = []
        let excluded = Destination.screen(name: "chatRoom", parameters: ["roomID": "x"], url: "https://chat.example.com/e/x")
        #expect(
            policy.resolve(excluded, warnings: &warnings, label: "destination url")
                == .url("https://chat.example.com/e/x", target: .external)
        )
        #expect(warnings == [Warning(.universalLinkExcluded, "excluded by rule 0 (NOT /e/*)")])
        let accepted = Destination.screen(name: "chatRoom", parameters: ["roomID": "x"], url: "https://chat.example.com/chat/x")
        #expect(policy.resolve(accepted, warnings: &warnings, label: "destination url") == accepted)
    }

    @Test func anEmptyMessageIdIsAbsent() {
        let policy = HandlingPolicy(configuration: configuration)
        let result = AdapterResult(channel: .push, trigger: .tap, destination: .app, messageId: "")
        #expect(policy.resolve(result, vendor: "x", input: .url("myapp://x")).interaction.messageId == nil)
    }

    @Test func theRegistryAssignsVendorPhaseAndHandlingOnce() {
        let policy = HandlingPolicy(configuration: configuration)
        let result = AdapterResult(
            channel: .push,
            trigger: .tap,
            destination: .url("https://example.com/a", target: .external),
            messageId: "m",
            vendorBehavior: .sdkOpensURL
        )
        let cold = policy.resolve(result, vendor: "acme", input: InputEvent(.url("x", messageId: nil), phase: .cold)).interaction
        #expect(cold.vendor == "acme")
        #expect(cold.phase == .cold)
        #expect(cold.handling == .automatic)
        #expect(cold.messageId == "m")
        // A vendor whose per-call flag does not govern this destination ignores the event's value.
        var fixed = result
        fixed.vendorBehavior = VendorBehavior(opensURL: true, followsEventOverride: false)
        let event = InputEvent(.url("x", messageId: nil), automaticallyOpenDeeplinks: false)
        #expect(policy.resolve(fixed, vendor: "acme", input: event).interaction.handling == .automatic)
        #expect(policy.resolve(result, vendor: "acme", input: event).interaction.handling == .app)
        // Destinations that are not URLs are always the app's.
        var screen = result
        screen.destination = .screen(name: "home")
        #expect(policy.resolve(screen, vendor: "acme", input: .url("x")).interaction.handling == .app)
    }

    @Test func refusedURLsAreReportedAsStructuredRecords() {
        let policy = HandlingPolicy(configuration: configuration)
        let result = AdapterResult(
            channel: .push,
            trigger: .tap,
            destination: .url("javascript:alert(1)", target: .external),
            buttons: [
                Interaction.Button(id: "ok", destination: .url("https://example.com/", target: .external)),
                Interaction.Button(id: "bad", destination: .url("data:text/html,x", target: .external)),
            ]
        )
        let resolution = policy.resolve(result, vendor: "acme", input: .url("x"))
        #expect(resolution.rejectedURLs.map(\.place) == [.destination, .button(id: "bad")])
        #expect(resolution.rejectedURLs.map(\.url) == ["javascript:alert(1)", "data:text/html,x"])
        #expect(resolution.rejectedURLs.map(\.warning) == resolution.interaction.warnings.filter { $0.code == .urlRejected })
        #expect(resolution.interaction.destination == .app)
    }
}

@Suite struct URLSchemeTests {
    @Test(arguments: [
        ("https://x.y/", "https"), ("TapTalkIO://room/1", "taptalkio"), ("tel:1", "tel"), ("a+b.c-d:x", "a+b.c-d"),
    ])
    func schemeOfAURL(url: String, scheme: String) {
        #expect(URLParts.scheme(of: url) == scheme)
        #expect(URLParts(url)?.scheme == scheme)
    }

    @Test(arguments: ["", ":x", "1a:x", "no scheme", "products/42", "https", "a b:c"])
    func noScheme(url: String) {
        #expect(URLParts.scheme(of: url) == nil)
    }

    /// The scheme as RFC 3986 defines it (a letter, then letters, digits, `+`, `-`, `.`,
    /// before the first `:`), lower-cased, on generated text.
    @Test func schemeOfGeneratedText() {
        let pieces = ["a", "Z", "1", "+", "-", ".", ":", "/", " ", "é", "%", "https", "TapTalkIO", "://"]
        var generator = SplitMix64(seed: 12)
        func isSchemeText(_ text: Substring) -> Bool {
            guard let first = text.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
            return text.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0))
            }
        }
        var found = 0
        for _ in 0..<20_000 {
            var text = ""
            for _ in 0..<generator.below(6) { text += pieces[generator.below(pieces.count)] }
            let expected = text.firstIndex(of: ":").flatMap { isSchemeText(text[..<$0]) ? text[..<$0].lowercased() : nil }
            if expected != nil { found += 1 }
            #expect(URLParts.scheme(of: text) == expected, "\(text)")
        }
        #expect(found > 500)
    }
}
