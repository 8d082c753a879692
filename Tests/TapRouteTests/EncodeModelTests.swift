import TapRoute
import TapRouteTestSupport
import Testing

/// The outgoing message, the registry's checks against what a vendor can express, routes
/// read backwards, and a definition's `encode` template (docs/encode.md).
@Suite struct EncodeModelTests {
    // MARK: - The message

    @Test func aMessageReadsBackFromItsJSON() throws {
        let message = OutgoingMessage(
            title: "Shipped",
            body: "Order 42",
            destination: .screen(name: "order", parameters: ["orderId": "42"]),
            buttons: [
                .init(id: "track", label: "Track", destination: .url("https://shop.example.com/t/42", target: .inAppBrowser)),
                .init(id: "later", destination: .none),
            ],
            data: ["campaign": "autumn", "n": 3],
            messageId: "m-42"
        )
        #expect(try OutgoingMessage(jsonValue: message.jsonValue) == message)
        let text = message.jsonValue.jsonString()
        #expect(text.hasPrefix(#"{"messageId":"m-42","title":"Shipped","body":"Order 42","destination":"#))
    }

    @Test func aMessageHasDefaults() throws {
        let message = try OutgoingMessage(jsonValue: json(#"{"body": "Hi", "destination": {"type": "url", "url": "https://x.example/a"}}"#))
        #expect(message.destination == .url("https://x.example/a", target: .external))
        #expect(try OutgoingMessage(jsonValue: json(#"{"body": "Hi"}"#)).destination == .app)
    }

    @Test(arguments: [
        (#"{"title": "x"}"#, "$.body"),
        (#"{"body": 3}"#, "$.body"),
        (#"{"body": "x", "extra": 1}"#, "$.extra"),
        (#"{"body": "x", "destination": {"type": "page"}}"#, "$.destination.type"),
        (#"{"body": "x", "buttons": {}}"#, "$.buttons"),
        (#"{"body": "x", "buttons": [{"label": "a"}]}"#, "$.buttons[0].id"),
        (#"{"body": "x", "buttons": [{"id": ""}]}"#, "$.buttons[0].id"),
        (#"{"body": "x", "buttons": [{"id": "a"}, {"id": "a"}]}"#, "$.buttons[1].id"),
        (#"{"body": "x", "buttons": [{"id": "a", "destination": {"type": "url"}}]}"#, "$.buttons[0].destination.url"),
        (#"{"body": "x", "data": []}"#, "$.data"),
        (#"[]"#, "$"),
    ])
    func aBadMessageNamesTheField(text: String, path: String) throws {
        #expect {
            try OutgoingMessage(jsonValue: json(text))
        } throws: { error in
            (error as? ModelDecodingError)?.path == path
        }
    }

    // MARK: - What a vendor can express

    /// A vendor with URLs and the app only, buttons that open URLs, no data.
    static let narrow = try! DefinitionAdapter(
        definition: AdapterDefinition(
            json: json(
                #"""
                {"id": "narrow", "summary": "test", "reads": ["notification"], "recognize": {"nonEmpty": "n"},
                 "destination": [{"url": "n.u"}, {"app": true}], "messageId": "n.i",
                 "buttons": {"from": "n.b", "id": "id", "destination": [{"url": "u"}]},
                 "encode": {"destinations": ["app", "url"], "buttons": {"destinations": ["url"], "labels": false}, "messageId": true,
                            "payload": {"aps": {"alert": {"body": "{body}"}}, "n": {"u": "{url}", "i": "{messageId}", "x": 1,
                                        "b": {"$each": "buttons", "$item": {"id": "{button.id}", "u": "{button.url}"}}}}}}
                """#
            )
        )
    )

    static func registry(routes: String = "[]") throws -> AdapterRegistry {
        let configuration = try Configuration(
            json: json(#"{"app": {"schemes": ["myapp"]}, "adapters": [{"id": "narrow"}], "routes": \#(routes)}"#)
        )
        return try AdapterRegistry(configuration: configuration, adapterTypes: [], definitions: [Self.narrow.definition])
    }

    static func encodingError(
        _ message: OutgoingMessage,
        vendor: String = "narrow",
        routes: String = "[]",
        options: EncodeOptions = .init()
    )
        throws -> EncodingError?
    {
        let registry = try registry(routes: routes)
        do throws(EncodingError) {
            _ = try registry.encode(message, vendor: vendor, options: options)
            return nil
        } catch {
            return error
        }
    }

    @Test func whatAVendorCannotExpressIsAnErrorNamingTheField() throws {
        let screen = OutgoingMessage(body: "x", destination: .screen(name: "order"))
        #expect(try Self.encodingError(screen)?.field == "$.destination")
        #expect(try Self.encodingError(screen)?.code == .cannotExpress)
        #expect(try Self.encodingError(OutgoingMessage(body: "x", destination: .clickAction("OPEN")))?.field == "$.destination")
        #expect(
            try Self.encodingError(OutgoingMessage(body: "x", destination: .url("https://a.example", target: .inAppBrowser)))?.field
                == "$.destination"
        )
        let labelled = OutgoingMessage(
            body: "x",
            buttons: [.init(id: "a", label: "A", destination: .url("https://a.example", target: .external))]
        )
        #expect(try Self.encodingError(labelled)?.field == "$.buttons[0].label")
        let appButton = OutgoingMessage(
            body: "x",
            buttons: [.init(id: "a", destination: .url("https://a.example", target: .external)), .init(id: "b", destination: .app)]
        )
        #expect(try Self.encodingError(appButton)?.field == "$.buttons[1].destination")
        #expect(try Self.encodingError(OutgoingMessage(body: "x", data: ["k": 1]))?.field == "$.data")
        #expect(try Self.encodingError(OutgoingMessage(body: "x"), vendor: "other")?.code == .unknownVendor)
        #expect(try Self.encodingError(OutgoingMessage(body: "x", messageId: "m")) == nil)
    }

    /// A vendor whose SDK needs a message id and labelled buttons, and takes only https links.
    @Test func requiredFieldsAndURLSchemes() throws {
        let strict = try AdapterDefinition(
            json: json(
                #"""
                {"id": "strict", "summary": "t", "reads": ["notification"], "recognize": {"nonEmpty": "s.i"},
                 "destination": [{"url": "s.u"}, {"app": true}], "messageId": "s.i",
                 "buttons": {"from": "s.b", "id": "id", "label": "l", "destination": [{"url": "u"}]},
                 "encode": {"destinations": ["app", "url"], "urlSchemes": ["https"], "messageId": "required",
                            "buttons": {"destinations": ["url"], "labels": "required"},
                            "payload": {"s": {"u": "{url}", "i": "{messageId}", "b": {"$each": "buttons", "$item": {"id": "{button.id}", "l": "{button.label}", "u": "{button.url}"}}}}}}
                """#
            )
        )
        let configuration = try Configuration(json: json(#"{"adapters": [{"id": "strict"}]}"#))
        let registry = try AdapterRegistry(configuration: configuration, adapterTypes: [], definitions: [strict])
        func field(_ message: OutgoingMessage) -> String? {
            do throws(EncodingError) {
                _ = try registry.encode(message, vendor: "strict")
                return nil
            } catch {
                return error.field
            }
        }
        #expect(field(OutgoingMessage(body: "x")) == "$.messageId")
        #expect(field(OutgoingMessage(body: "x", messageId: "m")) == nil)
        #expect(field(OutgoingMessage(body: "x", destination: .url("myapp://a", target: .app), messageId: "m")) == "$.destination")
        #expect(field(OutgoingMessage(body: "x", destination: .url("HTTPS://a.example/x", target: .external), messageId: "m")) == nil)
        let unlabelled = OutgoingMessage(
            body: "x",
            buttons: [.init(id: "a", destination: .url("https://a.example", target: .external))],
            messageId: "m"
        )
        #expect(field(unlabelled) == "$.buttons[0].label")
        let httpButton = OutgoingMessage(
            body: "x",
            buttons: [.init(id: "a", label: "A", destination: .url("http://a.example", target: .external))],
            messageId: "m"
        )
        #expect(field(httpButton) == "$.buttons[0].destination")
    }

    @Test func aScreenBecomesItsRoutesURLWhenAsked() throws {
        let routes = #"[{"url": "myapp://orders/{orderId}", "screen": "order"}, {"url": "myapp://help/*", "screen": "help"}]"#
        let registry = try Self.registry(routes: routes)
        let message = OutgoingMessage(body: "x", destination: .screen(name: "order", parameters: ["orderId": "4 2/é", "tab": "a&b"]))
        let event = try registry.encode(message, vendor: "narrow", options: EncodeOptions(screens: .route))
        guard case .notification(let userInfo, _, _) = event.kind else { Issue.record("not a notification"); return }
        #expect(userInfo["n"]?["u"] == "myapp://orders/4%202%2F%C3%A9?tab=a%26b")
        let back = try registry.normalize(event)
        #expect(
            back.destination
                == .screen(name: "order", parameters: ["orderId": "4 2/é", "tab": "a&b"], url: "myapp://orders/4%202%2F%C3%A9?tab=a%26b")
        )
        // No route with that capture filled, or none to the screen: an error, not a guess.
        let noCapture = OutgoingMessage(body: "x", destination: .screen(name: "order"))
        #expect(try Self.encodingError(noCapture, routes: routes, options: .init(screens: .route))?.field == "$.destination")
        let noRoute = OutgoingMessage(body: "x", destination: .screen(name: "profile"))
        #expect(try Self.encodingError(noRoute, routes: routes, options: .init(screens: .route))?.code == .cannotExpress)
        // A screen that carries its link: written as the link only when the link routes back to it.
        let linked = OutgoingMessage(body: "x", destination: .screen(name: "order", parameters: ["orderId": "9"], url: "myapp://orders/9"))
        let linkedEvent = try registry.encode(linked, vendor: "narrow")
        #expect(
            try registry.normalize(linkedEvent).destination == .screen(name: "order", parameters: ["orderId": "9"], url: "myapp://orders/9")
        )
        let stray = OutgoingMessage(body: "x", destination: .screen(name: "home", url: "myapp://home"))
        #expect(try Self.encodingError(stray, routes: routes)?.field == "$.destination")
        // A wildcard route fits a screen without parameters.
        let help = try registry.encode(
            OutgoingMessage(body: "x", destination: .screen(name: "help")),
            vendor: "narrow",
            options: .init(screens: .route)
        )
        #expect(try registry.normalize(help).destination == .screen(name: "help", url: "myapp://help"))
    }

    /// A route read backwards gives a URL the route reads as the same parameters, for any
    /// parameter text.
    @Test func routesReadBackwardsGiveTheirParameters() throws {
        let route = try Route(pattern: "myapp://item/{id}/v/{v}", screen: "item")
        var rng = SplitMix64(seed: 19)
        let alphabet = Array("aZ09-._~ %/?#&=+é😀\u{0}\"'<>")
        for _ in 0..<2_000 {
            func text() -> String {
                String((0..<Int.random(in: 1...8, using: &rng)).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &rng)] })
            }
            var parameters: ScreenParameters = ["id": text(), "v": text()]
            if Bool.random(using: &rng) { parameters["q" + text()] = text() }
            guard let url = route.url(for: parameters) else {
                Issue.record("no URL for \(parameters)")
                continue
            }
            let parts = try URLParts.parse(url)
            #expect(route.match(parts) == parameters, "\(url)")
        }
        #expect(route.url(for: ["id": "1"]) == nil)
        #expect(route.url(for: ["id": "", "v": "2"]) == nil)
    }

    // MARK: - A definition's encode template

    static func encoded(_ template: String, _ message: OutgoingMessage, extra: String = "") throws -> JSONObject {
        let adapter = try DefinitionAdapter(
            definition: AdapterDefinition(
                json: json(
                    #"""
                    {"id": "t", "summary": "t", "reads": ["notification"], "recognize": {"all": []},
                     "encode": {"destinations": ["app", "url", "inAppBrowser", "screen", "clickAction", "none"],
                                "buttons": {"destinations": ["app", "url", "screen"]}, "messageId": true, "data": true \#(extra),
                                "payload": \#(template)}}
                    """#
                )
            )
        )
        guard case .notification(let userInfo, _, _) = try adapter.encode(message).kind else { return [:] }
        return userInfo
    }

    @Test func templatesFillFieldsAndLeaveOutAbsentOnes() throws {
        let message = OutgoingMessage(
            title: nil,
            body: "B",
            destination: .url("https://a.example/x", target: .inAppBrowser),
            messageId: "m"
        )
        let out = try Self.encoded(
            #"{"t": "{title}", "b": "{body}", "u": "{url}", "s": "{screen}", "link": "go to {url}!", "no": "see {screen}", "brace": "{{x}}", "n": 3, "k": {"$case": "destinationType", "inAppBrowser": "web", "url": "browser"}, "j": {"$json": {"id": "{messageId}", "u": "{url}"}}}"#,
            message
        )
        #expect(out["t"] == nil)
        #expect(out["b"] == "B")
        #expect(out["u"] == "https://a.example/x")
        #expect(out["s"] == nil)
        #expect(out["link"] == "go to https://a.example/x!")
        #expect(out["no"] == nil)
        #expect(out["brace"] == "{x}")
        #expect(out["n"] == 3)
        #expect(out["k"] == "web")
        #expect(out["j"] == #"{"id":"m","u":"https://a.example/x"}"#)
    }

    @Test func templatesWalkButtonsAndSpreadData() throws {
        let message = OutgoingMessage(
            body: "B",
            destination: .screen(name: "order", parameters: ["id": "4"]),
            buttons: [
                .init(id: "a", label: "A", destination: .url("https://a.example", target: .external)), .init(id: "b", destination: .app),
            ],
            data: ["k": "v", "own": "data"]
        )
        let out = try Self.encoded(
            #"{"own": "mine", "p": "{parameters}", "list": {"$each": "buttons", "$item": {"i": "{button.index}", "id": "{button.id}", "l": "{button.label}", "u": "{button.url}", "t": "{button.destinationType}"}}, "byId": {"$each": "buttons", "$key": "{button.id}", "$item": "{button.destinationType}"}, "$merge": "{data}"}"#,
            message
        )
        #expect(out["p"] == ["id": "4"])
        #expect(out["list"] == [["i": 0, "id": "a", "l": "A", "u": "https://a.example", "t": "url"], ["i": 1, "id": "b", "t": "app"]])
        #expect(out["byId"] == ["a": "url", "b": "app"])
        #expect(out["k"] == "v")
        #expect(out["own"] == "mine", "a key the template sets wins over the data's")
        #expect(try Self.encoded(#"{"list": {"$each": "buttons", "$item": "{button.id}"}}"#, OutgoingMessage(body: "x"))["list"] == nil)
    }

    @Test(arguments: [
        (#"{"a": "{nope}"}"#, "encode.payload.a", "unknown message field 'nope'"),
        (#"{"a": "{button.id}"}"#, "encode.payload.a", "inside $each"),
        (#"{"a": "{url"}"#, "encode.payload.a", "unclosed"),
        (#"{"a": "x}y"}"#, "encode.payload.a", "'}' must be written '}}'"),
        (#"{"a": {"$each": "buttons", "$item": {"b": {"$each": "buttons", "$item": 1}}}}"#, "encode.payload.a.$item.b", "cannot nest"),
        (#"{"a": {"$each": "data", "$item": 1}}"#, "encode.payload.a.$each", "buttons"),
        (#"{"a": {"$each": "buttons"}}"#, "encode.payload.a", "$item"),
        (#"{"a": {"$json": 1, "b": 2}}"#, "encode.payload.a", "stands alone"),
        (#"{"a": {"$if": "url"}}"#, "encode.payload.a.$if", "unknown template construct"),
        (#"{"$merge": "data"}"#, "encode.payload.$merge", "{data}"),
        (#"[]"#, "encode.payload", "a mapping"),
    ])
    func aBrokenTemplateIsLocated(template: String, path: String, message: String) throws {
        do {
            _ = try Self.encoded(template, OutgoingMessage(body: "x"))
            Issue.record("compiled: \(template)")
        } catch let error as ConfigurationError {
            let problem = error.errors.first { $0.keyPath.description == path }
            #expect(problem != nil, "\(error)")
            #expect(problem?.message.contains(message) == true, "\(error)")
        }
    }

    @Test func theEncodeSectionIsChecked() throws {
        for (extra, path) in [
            (#", "reads": "url""#, "encode.reads"),
            (#", "destinations": ["page"]"#, "encode.destinations[0]"),
            (#", "buttons": {"labels": true}"#, "encode.buttons"),
            (#", "extra": 1"#, "encode.extra"),
        ] {
            do {
                _ = try Self.encoded(#"{"a": 1}"#, OutgoingMessage(body: "x"), extra: extra)
                Issue.record("compiled with \(extra)")
            } catch let error as ConfigurationError {
                #expect(error.errors.contains { $0.keyPath.description == path }, "\(extra): \(error)")
            }
        }
    }

    @Test func aDefinitionWithoutEncodeCannotEncode() throws {
        let configuration = try Configuration(json: json(#"{"adapters": [{"id": "plain"}]}"#))
        let plain = try AdapterDefinition(
            json: json(#"{"id": "plain", "summary": "t", "reads": ["notification"], "recognize": {"all": []}}"#)
        )
        let registry = try AdapterRegistry(configuration: configuration, adapterTypes: [], definitions: [plain])
        #expect(!registry.canEncode(vendor: "plain"))
        #expect(throws: EncodingError.self) { try registry.encode(OutgoingMessage(body: "x"), vendor: "plain") }
        do {
            _ = try registry.encode(OutgoingMessage(body: "x"), vendor: "plain")
        } catch {
            #expect(error.code == .noEncoder)
        }
    }
}
