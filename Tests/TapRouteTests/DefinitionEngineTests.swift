import TapRoute
import TapRouteTestSupport
import Testing

/// Every construct of the definition format (docs/declarative-adapters.md) on small
/// definitions and inputs.
@Suite struct DefinitionEngineTests {
    /// Compiles a definition from JSON text, with `reads` and `summary` filled in.
    static func adapter(_ text: String, reads: String = #"["notification"]"#) throws -> DefinitionAdapter {
        var document = try json(text).objectValue ?? [:]
        if document["id"] == nil { document["id"] = "acme" }
        if document["summary"] == nil { document["summary"] = "test" }
        if document["reads"] == nil { document["reads"] = try json(reads) }
        if document["recognize"] == nil { document["recognize"] = ["nonEmpty": "acme"] }
        return DefinitionAdapter(definition: try AdapterDefinition(json: .object(document)))
    }

    static func push(_ userInfo: String, action: String? = nil, origin: InputEvent.NotificationOrigin = .remote) throws -> InputEvent {
        InputEvent(.notification(userInfo: try json(userInfo).objectValue ?? [:], action: action, origin: origin))
    }

    // MARK: - Paths

    @Test func pathsReadQuotedKeysIndicesAndFoundElements() throws {
        let adapter = try Self.adapter(
            #"""
            {"recognize": {"exists": "['gcm.app_link']"},
             "tracking": {"link": "['gcm.app_link']", "caret": "data['^d']", "dashed": "CIO-Delivery-ID",
                          "second": "list[1]", "found": "list[kind='b'].v", "quote": "['it\\'s']",
                          "tapped": "buttons[id=@action].title", "past": "list[9]"}}
            """#
        )
        let input = try Self.push(
            #"""
            {"gcm.app_link": "https://a.example/x", "data": {"^d": 4}, "CIO-Delivery-ID": "d1",
             "list": [{"kind": "a", "v": 1}, {"kind": "b", "v": 2}], "it's": true,
             "buttons": [{"id": "no", "title": "No"}, {"id": "yes", "title": "Yes"}]}
            """#,
            action: "yes"
        )
        #expect(adapter.recognizes(input))
        let result = try adapter.read(input)
        #expect(
            result.tracking
                == [
                    "link": "https://a.example/x", "caret": 4, "dashed": "d1", "second": ["kind": "b", "v": 2], "found": 2,
                    "quote": true, "tapped": "Yes",
                ]
        )
    }

    // MARK: - Recognition

    @Test func predicatesCombine() throws {
        func recognizes(_ predicate: String, _ userInfo: String, origin: InputEvent.NotificationOrigin = .remote) throws -> Bool {
            try Self.adapter(#"{"recognize": \#(predicate)}"#).recognizes(Self.push(userInfo, origin: origin))
        }
        #expect(try recognizes(#"{"exists": "a"}"#, #"{"a": ""}"#))
        #expect(try !recognizes(#"{"exists": "a"}"#, #"{"a": null}"#))
        for absent in [#"null"#, #""""#, "{}", "[]"] {
            #expect(try !recognizes(#"{"nonEmpty": "a"}"#, #"{"a": \#(absent)}"#))
        }
        #expect(try recognizes(#"{"nonEmpty": "a"}"#, #"{"a": 0}"#))
        #expect(try recognizes(#"{"isNumber": "a"}"#, #"{"a": 1}"#))
        #expect(try !recognizes(#"{"isString": "a"}"#, #"{"a": 1}"#))
        #expect(try recognizes(#"{"isArray": "a"}"#, #"{"a": []}"#))
        #expect(try recognizes(#"{"isTrue": "a"}"#, #"{"a": "YES"}"#))
        #expect(try !recognizes(#"{"isTrue": "a"}"#, #"{"a": "0"}"#))
        #expect(try recognizes(#"{"equals": {"path": "a", "to": 3}}"#, #"{"a": 3}"#))
        #expect(try !recognizes(#"{"equals": {"path": "a", "to": "3"}}"#, #"{"a": 3}"#))
        #expect(try recognizes(#"{"equals": {"path": "a", "to": "open_app", "match": "caseAndSeparators"}}"#, #"{"a": "Open-App"}"#))
        #expect(try !recognizes(#"{"equals": {"path": "a", "to": "open_app", "match": "case"}}"#, #"{"a": "openapp"}"#))
        #expect(try recognizes(#"{"oneOf": {"path": "a", "values": ["x", "Y"], "match": "case"}}"#, #"{"a": "y"}"#))
        #expect(try recognizes(#"{"anyKeyHasPrefix": {"prefix": "gcm."}}"#, #"{"gcm.x": 1}"#))
        #expect(try !recognizes(#"{"anyKeyHasPrefix": {"path": "d", "prefix": "gcm."}}"#, #"{"gcm.x": 1, "d": {"x": 1}}"#))
        #expect(try recognizes(#"{"hasScheme": {"path": "u", "schemes": ["myapp"]}}"#, #"{"u": "MyApp://x"}"#))
        #expect(try !recognizes(#"{"hasScheme": {"path": "u", "schemes": ["myapp"]}}"#, #"{"u": "https://x"}"#))
        #expect(try recognizes(#"{"all": [{"exists": "a"}, {"not": {"exists": "b"}}]}"#, #"{"a": 1}"#))
        #expect(try !recognizes(#"{"any": []}"#, #"{"a": 1}"#))
        #expect(try recognizes(#"{"all": []}"#, #"{"a": 1}"#))
        #expect(try recognizes(#"{"origin": "local"}"#, #"{}"#, origin: .local))
        #expect(try !recognizes(#"{"origin": "local"}"#, #"{}"#))
    }

    @Test func foldingComparesNonASCIIAsUnicodeLowerCasing() throws {
        let adapter = try Self.adapter(#"{"recognize": {"equals": {"path": "a", "to": "straße", "match": "case"}}}"#)
        #expect(adapter.recognizes(try Self.push(#"{"a": "STRAßE"}"#)))
        #expect(!adapter.recognizes(try Self.push(#"{"a": "STRASSE"}"#)))
    }

    /// `oneOf` and a value's `map` fold the text once and compare it with every spelling; the
    /// answer must be the one comparing spelling by spelling gives, for every kind of text.
    @Test func oneOfAndMapsAnswerAsComparingEachSpellingWould() throws {
        let long = String(repeating: "a", count: 64)
        let values = #"[1, null, "\#(long)", "open_app", "x", "straße", true]"#
        let cases: [(match: String, text: String, expected: Bool)] = [
            ("caseAndSeparators", "Open-App", true), ("caseAndSeparators", "OPENAPP", true),
            ("caseAndSeparators", "open app", false), ("case", "Open-App", false), ("case", "OPEN_APP", true),
            ("exact", "OPEN_APP", false), ("exact", "open_app", true),
            ("case", long.uppercased(), true), ("case", long + "a", false), ("caseAndSeparators", "_" + long + "-", true),
            ("case", "STRAßE", true), ("case", "x\\u0000", false), ("case", "", false), ("case", "1", false),
            ("case", "true", false),
        ]
        for c in cases {
            let adapter = try Self.adapter(#"{"recognize": {"oneOf": {"path": "a", "values": \#(values), "match": "\#(c.match)"}}}"#)
            #expect(adapter.recognizes(try Self.push(#"{"a": "\#(c.text)"}"#)) == c.expected, "\(c.match) \(c.text)")
        }
        let adapter = try Self.adapter(#"{"recognize": {"oneOf": {"path": "a", "values": \#(values)}}}"#)
        #expect(adapter.recognizes(try Self.push(#"{"a": 1}"#)))
        #expect(adapter.recognizes(try Self.push(#"{"a": true}"#)))
        #expect(!adapter.recognizes(try Self.push(#"{"a": 2}"#)))
        // A map folds once too: the first spelling that matches gives the value.
        let mapped = try Self.adapter(
            #"""
            {"recognize": {"all": []},
             "values": {"kind": {"path": "k", "map": {"OPEN": ["open-app", "OPEN_APP"], "URL": ["url"]}, "match": "caseAndSeparators"}},
             "destination": [{"when": {"equals": {"path": "@kind", "to": "URL"}}, "url": "u"}, {"app": true}]}
            """#
        )
        #expect(try mapped.read(Self.push(#"{"k": "U-R-L", "u": "https://example.com/x"}"#)).destination.url == "https://example.com/x")
        #expect(try mapped.read(Self.push(#"{"k": "ü-r-l", "u": "https://example.com/x"}"#)).destination == .app)
    }

    /// Texts of up to 15 ASCII bytes are folded a word at a time and others byte by byte:
    /// `equals`, `oneOf` and a map must answer as folding both texts with `lowercased()`
    /// (and dropping `_` and `-`) and comparing the bytes, on either side of the 8- and
    /// 16-byte word edges, at the bytes next to `A` and `Z`, and for text that is not ASCII.
    @Test func foldedComparisonsAgreeWithLowercasingAcrossWordEdges() throws {
        func folded(_ s: String, _ match: String) -> [UInt8] {
            let lower = Array(s.lowercased().utf8)
            return match == "case" ? lower : lower.filter { $0 != UInt8(ascii: "_") && $0 != UInt8(ascii: "-") }
        }
        let literals = [
            "", "a", "open_app", "abcdefg", "abcdefgh", "abcdefghi", "abcdefghijklmno", "abcdefghijklmnop",
            "abcdefghijklmnopq", "a_b-c", "@[`{", "straße", "\u{212A}elvin", "zz-top_",
        ]
        var subjects: Set<String> = ["_", "--", "@[`{", "`{@[", "AZ", "az", "@Z[", "STRAßE", "KELVIN", "kelvin", "É"]
        for literal in literals {
            subjects.formUnion([literal, literal.uppercased(), "_" + literal, literal + "-", literal + "x", "X" + literal])
            if !literal.isEmpty {
                subjects.insert(String(literal.dropLast()))
                subjects.insert(String(literal.uppercased().filter { $0 != "_" && $0 != "-" }))
                subjects.insert(literal.prefix(1).uppercased() + "-" + literal.dropFirst())
            }
        }
        let url = "https://example.com/x"
        for match in ["case", "caseAndSeparators"] {
            for literal in literals {
                let equals = try Self.adapter(
                    #"""
                    {"recognize": {"equals": {"path": "a", "to": "\#(literal)", "match": "\#(match)"}},
                     "destination": [{"when": {"equals": {"path": "a", "to": "\#(literal)", "match": "\#(match)"}}, "url": "u"}, {"app": true}]}
                    """#
                )
                let oneOf = try Self.adapter(
                    #"{"recognize": {"oneOf": {"path": "a", "values": [1, null, "\#(literal)", true], "match": "\#(match)"}}}"#
                )
                let mapped = try Self.adapter(
                    #"""
                    {"recognize": {"all": []},
                     "values": {"kind": {"path": "a", "map": {"HIT": ["\#(literal)"]}, "match": "\#(match)"}},
                     "destination": [{"when": {"equals": {"path": "@kind", "to": "HIT"}}, "url": "u"}, {"app": true}]}
                    """#
                )
                for subject in subjects {
                    let expected = folded(subject, match) == folded(literal, match)
                    let input = try Self.push(#"{"a": "\#(subject)", "u": "\#(url)"}"#)
                    let what = "\(match): '\(subject)' against '\(literal)'"
                    #expect(equals.recognizes(input) == expected, "equals, \(what)")
                    #expect(oneOf.recognizes(input) == expected, "oneOf, \(what)")
                    // A value reads an empty string as absent: it never reaches the map.
                    let mappedURL = expected && !subject.isEmpty ? url : nil
                    #expect(try mapped.read(input).destination.url == mappedURL, "map, \(what)")
                    if expected {
                        #expect(try equals.read(input).destination.url == url, "equals in a rule, \(what)")
                    }
                }
            }
        }
    }

    @Test func onlyTheKindsItReadsAreRecognized() throws {
        let adapter = try Self.adapter(#"{"recognize": {"all": []}}"#, reads: #"["inAppMessage"]"#)
        #expect(!adapter.recognizes(try Self.push("{}")))
        #expect(adapter.recognizes(InputEvent(.inAppMessage(message: [:], action: nil))))
        #expect(!adapter.recognizes(.url("myapp://x")))
        #expect(throws: NormalizationError.self) { try adapter.read(try Self.push("{}")) }
    }

    // MARK: - Values

    @Test func firstNonEmptySkipsEveryAbsentForm() throws {
        let adapter = try Self.adapter(#"{"messageId": ["a", "b", "c", "d", "e", "f"]}"#)
        let result = try adapter.read(try Self.push(#"{"acme": 1, "b": null, "c": "", "d": {}, "e": [], "f": 409}"#))
        #expect(result.messageId == "409")
        let present = try Self.adapter(#"{"tracking": {"t": {"firstPresent": ["b", "c", "f"]}}}"#)
        let tracking = try present.read(try Self.push(#"{"acme": 1, "b": null, "c": "", "f": 1}"#)).tracking
        #expect(tracking == [:], "\(tracking)")
    }

    @Test func conversions() throws {
        let adapter = try Self.adapter(
            #"""
            {"tracking": {
               "json": {"path": "j", "as": "json"}, "obj": {"path": "o", "as": "json"}, "bad": {"path": "b", "as": "json"},
               "yes": {"path": "y", "as": "boolean"}, "no": {"path": "n", "as": "boolean"}, "maybe": {"path": "m", "as": "boolean"},
               "num": {"path": "num", "as": "text"}, "str": {"path": "num", "as": "string"},
               "mapped": {"path": "t", "map": {"inAppBrowser": ["web_view", "in app"]}, "match": "caseAndSeparators"},
               "unmapped": {"path": "u", "map": {"x": ["y"]}, "default": "fallback"},
               "lit": {"literal": [1, 2]}},
             "destination": [{"url": {"path": "link", "as": "url"}}]}
            """#
        )
        var reader = PayloadReader()
        let input = try Self.push(
            #"""
            {"acme": 1, "j": "{\"a\":[1]}", "o": {"k": 1}, "b": "{nope", "y": "YES", "n": 0, "m": "perhaps", "num": 42,
             "t": "WebView", "u": "z", "link": "  https://a.example/x \n"}
            """#
        )
        let result = try adapter.read(input, using: &reader)
        #expect(
            result.tracking
                == [
                    "json": ["a": [1]], "obj": ["k": 1], "yes": true, "no": false, "num": "42", "mapped": "inAppBrowser",
                    "unmapped": "fallback", "lit": [1, 2],
                ]
        )
        #expect(result.destination == .url("https://a.example/x", target: .external))
        #expect(reader.warnings.map(\.code) == ["urlTrimmed"])
    }

    @Test func jsonInAStringIsBoundedByTheRecordDepth() throws {
        let adapter = try Self.adapter(#"{"tracking": {"deep": {"path": "a.b", "as": "json"}}}"#)
        let nested = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        let input = InputEvent(.notification(userInfo: ["acme": 1, "a": ["b": .string(nested)]], action: nil, origin: .remote))
        #expect(try adapter.read(input, limits: Limits(maxDepth: 128)).tracking["deep"] != nil)
        // held at depth 3 ($.userInfo.a): 40 levels more exceed 42 but not 43.
        #expect(try adapter.read(input, limits: Limits(maxDepth: 42)).tracking["deep"] == nil)
        #expect(try adapter.read(input, limits: Limits(maxDepth: 43)).tracking["deep"] != nil)
    }

    // MARK: - Trigger and buttons

    @Test func buttonsFromAListWithTheTappedOnesLabelAndDestination() throws {
        let adapter = try Self.adapter(
            #"""
            {"buttons": {"from": "acme.buttons", "id": ["id", "label"], "label": "label",
                         "destination": [{"url": "link"}, {"screen": "screen", "parameters": {"id": "$.acme.orderId"}}, "app"]},
             "destination": ["button", "none"]}
            """#
        )
        let input = try Self.push(
            #"""
            {"acme": {"orderId": 7, "buttons": "[{\"id\": \"open\", \"label\": \"Open\", \"link\": \"https://a.example\"}, {\"label\": \"Track\", \"screen\": \"track\"}, {\"x\": 1}]"}}
            """#,
            action: "Track"
        )
        var reader = PayloadReader()
        let result = try adapter.read(input, using: &reader)
        #expect(
            result.buttons == [
                Interaction.Button(id: "open", label: "Open", destination: .url("https://a.example", target: .external)),
                Interaction.Button(id: "Track", label: "Track", destination: .screen(name: "track", parameters: ["id": "7"])),
            ]
        )
        #expect(result.trigger == .button(id: "Track", label: "Track"))
        #expect(result.destination == .screen(name: "track", parameters: ["id": "7"]))
        #expect(reader.warnings.map(\.code) == [.invalidActionButtons])
        let untapped = try adapter.read(try Self.push(#"{"acme": {"buttons": []}}"#))
        #expect(untapped.destination == .none)
        #expect(untapped.trigger == .tap)
    }

    /// The buttons are read by the run state itself, its base moved to each button: what a
    /// rule reads after them reads the root again — paths of one or two keys, read from the
    /// root's members, and longer ones, walked from the run's base — and the results of the
    /// predicates kept before them still hold after.
    @Test func whatFollowsTheButtonsReadsTheRootAgain() throws {
        let adapter = try Self.adapter(
            #"""
            {"buttons": {"from": "acme.buttons", "id": "id",
                         "destination": [{"when": {"exists": "data.links.main"}, "url": "data.links.main"}, "none"]},
             "destination": [{"when": {"exists": "data.links.main"}, "url": "data.links.main"}, "app"],
             "messageId": "id",
             "warnings": [{"when": {"exists": "flag"}, "code": "w", "message": "first"},
                          {"when": {"exists": "flag"}, "code": "w", "message": "second {data.links.main}"}],
             "tracking": {"which": "id", "flagged": "flag", "main": "data.links.main"}}
            """#
        )
        let input = try Self.push(
            #"""
            {"acme": {"buttons": [{"id": "a", "data": {"links": {"main": "https://a.example/1"}}},
                                  {"id": "b", "data": {"links": {"main": "https://b.example/2"}}, "flag": true}]},
             "id": "root", "data": {"links": {"main": "https://root.example/"}}, "flag": 1}
            """#
        )
        var reader = PayloadReader()
        let result = try adapter.read(input, using: &reader)
        #expect(
            result.buttons == [
                Interaction.Button(id: "a", label: nil, destination: .url("https://a.example/1", target: .external)),
                Interaction.Button(id: "b", label: nil, destination: .url("https://b.example/2", target: .external)),
            ]
        )
        #expect(result.destination == .url("https://root.example/", target: .external))
        #expect(result.messageId == "root")
        #expect(result.tracking == ["which": "root", "flagged": 1, "main": "https://root.example/"])
        #expect(reader.warnings.map(\.message) == ["first", "second https://root.example/"])
        // Without a root link, the root's rule falls through to the app (a base left at the
        // last button would find that button's link).
        let noRootLink = try adapter.read(
            try Self.push(#"{"acme": {"buttons": [{"id": "a", "data": {"links": {"main": "https://a.example/1"}}}]}, "id": "root"}"#)
        )
        #expect(noRootLink.destination == .app)
        #expect(noRootLink.tracking == ["which": "root"])
    }

    @Test func buttonsFromADictionaryByKey() throws {
        let adapter = try Self.adapter(
            #"{"buttons": {"from": "acme.actions", "label": "title", "destination": [{"inAppBrowser": "url"}]}, "destination": ["button"]}"#
        )
        let result = try adapter.read(
            try Self.push(
                #"{"acme": {"actions": {"yes": {"title": "Yes", "url": "https://a.example"}, "no": {"title": "No"}}}}"#,
                action: "yes"
            )
        )
        #expect(result.buttons.map(\.id) == ["yes", "no"])
        #expect(result.destination == .url("https://a.example", target: .inAppBrowser))
        #expect(result.buttons[1].destination == .app)
    }

    @Test func triggerRules() throws {
        let adapter = try Self.adapter(
            #"""
            {"trigger": [{"when": {"equals": {"path": "acme", "to": "d"}}, "dismiss": true},
                         {"when": {"exists": "btn"}, "button": {"id": "btn", "label": "lbl"}},
                         {"when": {"equals": {"path": "acme", "to": "o"}}, "open": true},
                         "action"]}
            """#
        )
        #expect(try adapter.read(Self.push(#"{"acme": "d"}"#)).trigger == .dismiss)
        #expect(try adapter.read(Self.push(#"{"acme": "x", "btn": 5, "lbl": "Five"}"#)).trigger == .button(id: "5", label: "Five"))
        #expect(try adapter.read(Self.push(#"{"acme": "o"}"#)).trigger == .open)
        #expect(try adapter.read(Self.push(#"{"acme": "x"}"#, action: "b1")).trigger == .button(id: "b1"))
        #expect(try adapter.read(Self.push(#"{"acme": "x"}"#, action: NotificationAction.dismissIdentifier)).trigger == .dismiss)
        let byDefault = try Self.adapter("{}", reads: #"["vendorEvent"]"#)
        #expect(try byDefault.read(InputEvent(.vendorEvent(["acme": 1]))).trigger == .tap)
    }

    // MARK: - Destinations

    @Test func destinationRulesInOrderWithTargetsScreensAndClickActions() throws {
        let adapter = try Self.adapter(
            #"""
            {"destination": [
               {"url": "web", "target": {"path": "open_in", "map": {"inAppBrowser": ["webview"], "external": ["browser"]}, "default": "external"}},
               {"screen": "screen", "parameters": {"id": "id", "missing": "nope"}, "screenURL": "deep"},
               {"clickAction": "click"},
               {"when": {"exists": "none"}, "none": true},
               {"url": "never", "ifAbsent": "app"},
               {"url": "unreached"}]}
            """#
        )
        #expect(
            try adapter.read(Self.push(#"{"acme": 1, "web": "https://a", "open_in": "webview"}"#)).destination
                == .url("https://a", target: .inAppBrowser)
        )
        #expect(
            try adapter.read(Self.push(#"{"acme": 1, "web": "https://a", "open_in": "?"}"#)).destination
                == .url("https://a", target: .external)
        )
        #expect(
            try adapter.read(Self.push(#"{"acme": 1, "screen": "orders", "id": 42, "deep": "myapp://o/42"}"#)).destination
                == .screen(name: "orders", parameters: ["id": "42"], url: "myapp://o/42")
        )
        #expect(try adapter.read(Self.push(#"{"acme": 1, "click": "OPEN_ORDERS"}"#)).destination == .clickAction("OPEN_ORDERS"))
        #expect(try adapter.read(Self.push(#"{"acme": 1, "none": 0}"#)).destination == .none)
        #expect(try adapter.read(Self.push(#"{"acme": 1, "unreached": "https://b"}"#)).destination == .app)
        #expect(try Self.adapter("{}").read(Self.push(#"{"acme": 1}"#)).destination == .app)
    }

    @Test func urlProblemsWarnWithTheKeyAndType() throws {
        let adapter = try Self.adapter(
            #"""
            {"destination": [{"url": {"firstPresent": ["uri", "url"]}, "ifAbsent": "app",
               "problems": {"missing": {"code": "missingURL", "message": "no link"},
                            "empty": {"code": "missingURL", "message": "{@key} is empty"},
                            "wrongType": {"code": "invalidURL", "message": "{@key} is {@value|type}: {@value}"}}}]}
            """#
        )
        func warnings(_ userInfo: String) throws -> [Warning] { try adapter.read(Self.push(userInfo)).warnings }
        #expect(try warnings(#"{"acme": 1}"#) == [Warning("missingURL", "no link")])
        #expect(try warnings(#"{"acme": 1, "url": ""}"#) == [Warning("missingURL", "url is empty")])
        #expect(try warnings(#"{"acme": 1, "uri": 409, "url": "x:y"}"#) == [Warning("invalidURL", "uri is a number: 409")])
        #expect(try adapter.read(Self.push(#"{"acme": 1, "uri": null, "url": "x:y"}"#)).destination == .url("x:y", target: .external))
    }

    @Test func behaviorByRuleAndByDefault() throws {
        let adapter = try Self.adapter(
            #"""
            {"behavior": [{"when": {"isTrue": "auto"}, "opensURL": true}, {"opensURL": false, "followsEventOverride": false}],
             "destination": [{"when": {"exists": "sdk"}, "url": "sdk", "behavior": {"opensURL": true}}, {"url": "link"}]}
            """#
        )
        #expect(try adapter.read(Self.push(#"{"acme": 1, "sdk": "https://a"}"#)).vendorBehavior == VendorBehavior(opensURL: true))
        #expect(
            try adapter.read(Self.push(#"{"acme": 1, "link": "https://a", "auto": "1"}"#)).vendorBehavior == VendorBehavior(opensURL: true)
        )
        #expect(
            try adapter.read(Self.push(#"{"acme": 1, "link": "https://a"}"#)).vendorBehavior
                == VendorBehavior(opensURL: false, followsEventOverride: false)
        )
    }

    // MARK: - Payload, messageId, tracking, channel

    @Test func payloadProjections() throws {
        let minus = try Self.adapter(#"{"payload": {"without": ["aps", "acme"], "withoutPrefixes": ["gcm.", "google."]}}"#)
        let result = try minus.read(Self.push(#"{"aps": {}, "acme": 1, "gcm.a": 1, "google.c": 2, "gcmx": 3, "orderId": "42"}"#))
        #expect(result.payload == ["gcmx": 3, "orderId": "42"])
        let subtree = try Self.adapter(#"{"payload": {"from": "acme.data", "without": ["secret"]}}"#)
        #expect(try subtree.read(Self.push(#"{"acme": {"data": {"a": 1, "secret": 2}}}"#)).payload == ["a": 1])
        #expect(try subtree.read(Self.push(#"{"acme": {"data": "{\"a\": 1}"}}"#)).payload == ["a": 1])
        #expect(try subtree.read(Self.push(#"{"acme": {"data": "plain"}}"#)).payload == [:])
    }

    @Test func payloadCasesKeepWarnOrReject() throws {
        let adapter = try Self.adapter(
            #"""
            {"payload": {"from": "p", "text": {"keepAs": "value"},
               "broken": {"keepAs": "raw", "warn": {"code": "payloadNotJSON", "message": "broken {{…}}"}},
               "tooDeep": {"warn": {"code": "payloadTooDeep", "message": "a string that {@clause}"}},
               "inPlace": {"warn": {"code": "payloadNotString", "message": "in place"}},
               "wrongType": {"reject": {"error": "invalidPayload", "message": "p is {@value|type}"}}}}
            """#
        )
        func read(_ userInfo: String, limits: Limits = Limits()) throws(NormalizationError) -> AdapterResult {
            try adapter.read(try! Self.push(userInfo), limits: limits)
        }
        #expect(try read(#"{"acme": 1, "p": "hello"}"#).payload == ["value": "hello"])
        #expect(try read(#"{"acme": 1, "p": "[1]"}"#).payload == ["value": "[1]"])
        let broken = try read(#"{"acme": 1, "p": " {nope"}"#)
        #expect(broken.payload == ["raw": " {nope"])
        #expect(broken.warnings == [Warning("payloadNotJSON", "broken {…}")])
        let deep = try read(#"{"acme": 1, "p": "{\"a\":{\"b\":{}}}"}"#, limits: Limits(maxDepth: 4))
        #expect(deep.payload == [:])
        #expect(deep.warnings.map(\.code) == ["payloadTooDeep"])
        #expect(deep.warnings[0].message.hasPrefix("a string that "))
        #expect(try read(#"{"acme": 1, "p": {"a": 1}}"#).warnings == [Warning("payloadNotString", "in place")])
        #expect(throws: NormalizationError.invalidPayload("p is a number", path: "$.userInfo.p")) { try read(#"{"acme": 1, "p": 3}"#) }
    }

    @Test func messageIdTrackingAndChannel() throws {
        let adapter = try Self.adapter(
            #"{"messageId": {"first": ["_id", "acme.id"], "as": "text"}, "tracking": {"c": "acme.campaign", "n": "absent"}}"#
        )
        let result = try adapter.read(Self.push(#"{"acme": {"id": 12, "campaign": {"k": 1}}}"#, origin: .local))
        #expect(result.messageId == "12")
        #expect(result.tracking == ["c": ["k": 1]])
        #expect(result.channel == .local)
        let inApp = try Self.adapter(#"{"recognize": {"all": []}}"#, reads: #"["inAppMessage"]"#)
        #expect(try inApp.read(InputEvent(.inAppMessage(message: [:], action: nil))).channel == .inApp)
        let fixed = try Self.adapter(#"{"channel": "universalLink"}"#)
        #expect(try fixed.read(Self.push(#"{"acme": 1}"#)).channel == .universalLink)
    }

    /// A definition that reads ten or more root keys tells a missing one by the root's key
    /// bits (`JSONObject.keyBits()`): every key it reads is found however the record holds
    /// it — as the parser does, on the heap though short, among long and non-ASCII keys and
    /// among more keys than an object indexes — and a missing one is missing.
    @Test func manyRootKeysAreFoundHoweverTheRecordHoldsThem() throws {
        let read = [
            "acme", "gcm.app_link", "google.c.a.e", "google.c.a.ts", "google.c.a.tc", "wzrk_dl", "W$id", "a",
            "123456789012345", "1234567890123456", "google.c.sender.id", "clé",
        ]
        let tracking = read.enumerated().map { i, key in "\"t\(i)\": \"['\(key)']\"" }.joined(separator: ", ")
        let adapter = try Self.adapter(#"{"tracking": {\#(tracking)}}"#)
        let others = ["b", "gcm.n.link", "google.c.a.udt", "com.urbanairship.metadata", "x1", "x2", "x3", "x4", "x5", "x6"]
        var generator = SplitMix64(seed: 20_261_203)
        for round in 0..<300 {
            var members: [(String, JSONValue)] = [("acme", 1)]
            var expected: JSONObject = ["t0": 1]
            for (i, key) in read.enumerated().dropFirst() where generator.below(2) == 0 {
                members.append((key, .number(JSONNumber(i))))
                expected["t\(i)"] = .number(JSONNumber(i))
            }
            let extra = round % 20 == 0 ? others.count : generator.below(4)
            members += others.prefix(extra).map { ($0, "other") }
            members.shuffle(using: &generator)
            if round % 2 == 1 {
                members = members.map { key, value in (generator.below(2) == 0 ? heap(key) : key, value) }
            }
            let input = InputEvent(.notification(userInfo: JSONObject(members), action: nil, origin: .remote))
            #expect(try adapter.read(input).tracking == expected, "\(members.map(\.0))")
        }
    }

    @Test func linksReadTheirQueryItems() throws {
        let adapter = try Self.adapter(
            #"""
            {"recognize": {"hasScheme": {"path": "@url", "schemes": ["acme"]}},
             "destination": [{"screen": "screen", "parameters": {"id": "id"}, "screenURL": "@url"}], "messageId": "mid"}
            """#,
            reads: #"["url"]"#
        )
        let input = InputEvent.url("acme://x?screen=orders&id=4%202&mid=a&mid=b#frag")
        #expect(adapter.recognizes(input))
        #expect(!adapter.recognizes(.url("other://x?screen=orders")))
        let result = try adapter.read(input)
        #expect(
            result.destination
                == .screen(name: "orders", parameters: ["id": "4 2"], url: "acme://x?screen=orders&id=4%202&mid=a&mid=b#frag")
        )
        #expect(result.messageId == "b")
        #expect(result.channel == .customScheme)
    }

    // MARK: - Recognition

    /// Detection first checks that the root has a key `recognize` needs (a key it tests, or
    /// one with a prefix it looks for) and answers no without evaluating it otherwise. What is
    /// needed must follow `not`, `origin`, `all` and `any` exactly: a part that needs nothing
    /// makes an `any` need nothing.
    @Test func recognitionChecksOnlyKeysThePredicateNeeds() throws {
        let cases: [(recognize: String, userInfo: String, origin: InputEvent.NotificationOrigin, holds: Bool)] = [
            (#"{"any": [{"exists": "a"}, {"origin": "local"}]}"#, "{}", .local, true),
            (#"{"any": [{"exists": "a"}, {"origin": "local"}]}"#, "{}", .remote, false),
            (#"{"any": [{"exists": "a"}, {"origin": "local"}]}"#, #"{"a": 1}"#, .remote, true),
            (#"{"all": [{"not": {"exists": "x"}}, {"exists": "b.c"}]}"#, #"{"b": {"c": 1}}"#, .remote, true),
            (#"{"all": [{"not": {"exists": "x"}}, {"exists": "b.c"}]}"#, #"{"x": 1, "b": {"c": 1}}"#, .remote, false),
            (#"{"all": [{"not": {"exists": "x"}}, {"exists": "b.c"}]}"#, #"{"c": 1}"#, .remote, false),
            (#"{"anyKeyHasPrefix": {"prefix": "zz_"}}"#, #"{"zz_a": 1}"#, .remote, true),
            (#"{"anyKeyHasPrefix": {"prefix": "zz_"}}"#, #"{"zz": 1, "z_zz_": 2}"#, .remote, false),
            (#"{"anyKeyHasPrefix": {"path": "o", "prefix": "p"}}"#, #"{"o": {"px": 1}}"#, .remote, true),
            (#"{"anyKeyHasPrefix": {"path": "o", "prefix": "p"}}"#, #"{"px": 1, "o": {}}"#, .remote, false),
            (#"{"not": {"exists": "a"}}"#, "{}", .remote, true),
            (#"{"any": [{"exists": "a"}, {"not": {"exists": "b"}}]}"#, "{}", .remote, true),
            (#"{"any": [{"exists": "a"}, {"isNull": "n"}]}"#, #"{"n": null}"#, .remote, true),
            (#"{"any": [{"exists": "a"}, {"isNull": "n"}]}"#, #"{"m": null}"#, .remote, false),
        ]
        for (recognize, userInfo, origin, holds) in cases {
            let adapter = try Self.adapter(#"{"recognize": \#(recognize)}"#)
            #expect(adapter.recognizes(try Self.push(userInfo, origin: origin)) == holds, "\(recognize) on \(userInfo)")
        }
    }

    // MARK: - Warnings and rejects

    @Test func softWarningsAndRejectRulesWithTemplates() throws {
        let adapter = try Self.adapter(
            #"""
            {"values": {"kind": {"path": "acme.kind", "map": {"promo": ["PROMO", "promotion"]}, "match": "case"}},
             "reject": [{"when": {"equals": {"path": "@kind", "to": "promo"}}, "error": "notAnInteraction", "at": "acme.kind",
                         "message": "{acme.kind|quoted} is a {acme.kind|type} {{not a tap}}"}],
             "warnings": [{"when": {"exists": "['gcm.n.link_android']"}, "code": "androidDiffers",
                           "message": "Android opens {['gcm.n.link_android']|quoted}; {missing|type} {missing|quoted} '{missing}'"}]}
            """#
        )
        #expect(throws: NormalizationError(.notAnInteraction, "'Promotion' is a a string {not a tap}", path: "$.userInfo.acme.kind")) {
            try adapter.read(Self.push(#"{"acme": {"kind": "Promotion"}}"#))
        }
        let long = String(repeating: "é", count: 120)
        let result = try adapter.read(Self.push(#"{"acme": {}, "gcm.n.link_android": "\#(long)"}"#))
        #expect(
            result.warnings == [
                Warning(.androidDiffers, "Android opens '\(String(repeating: "é", count: 100))…' (240 bytes); missing missing ''")
            ]
        )
    }

    // MARK: - Bounded work

    /// A definition reading many buttons, searching lists and projecting the payload runs in
    /// time linear in the input: the same work on inputs 8 times larger takes less than 32
    /// times as long.
    @Test func runningADefinitionIsLinearInTheInput() throws {
        let adapter = try Self.adapter(
            #"""
            {"buttons": {"from": "acme.buttons", "label": "labels[lang='en'].text",
                         "destination": [{"url": "links[kind='web'].url"}, {"screen": "$.acme.screen"}]},
             "destination": ["button"], "tracking": {"tapped": "acme.buttons[id=@action].labels[1].text"},
             "payload": {"without": ["acme"], "withoutPrefixes": ["gcm.", "k1"]}}
            """#
        )
        func input(_ n: Int) -> InputEvent {
            let buttons = (0..<n).map { i -> JSONValue in
                [
                    "id": .string("b\(i)"), "labels": [["lang": "de", "text": "x"], ["lang": "en", "text": .string("B\(i)")]],
                    "links": [["kind": "app", "url": "myapp://x"]],
                ]
            }
            var userInfo: JSONObject = ["acme": ["screen": "home", "buttons": .array(buttons)]]
            for i in 0..<n { userInfo["k\(i)"] = .number(JSONNumber(i)) }
            return InputEvent(.notification(userInfo: userInfo, action: "b\(n - 1)", origin: .remote))
        }
        let small = 2_000
        let inputs = [small: input(small), small * TimeRatio.factor: input(small * TimeRatio.factor)]
        let result = try adapter.read(inputs[small]!)
        #expect(result.buttons.count == small)
        #expect(result.trigger == .button(id: "b\(small - 1)", label: "B\(small - 1)"))
        #expect(result.tracking == ["tapped": .string("B\(small - 1)")])
        #expect(result.destination == .screen(name: "home"))
        let ratio = TimeRatio.ratio(small: small) { n in _ = try? adapter.read(inputs[n]!) }
        #expect(ratio < TimeRatio.maximumRatio, "time ratio \(ratio)")
    }
}
