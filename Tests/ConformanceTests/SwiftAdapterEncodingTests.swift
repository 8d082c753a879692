import DashXAdapter
import Foundation
import TapRoute
import TapRouteAdapters
import TapRouteTestSupport
import TapRouteYAML
import TapTalkAdapter
import Testing

/// The DashX and TapTalk encoders against their encode vectors (`adapters/<Vendor>/Vectors/encode`)
/// and the round trip: reading an encoded payload back gives the message's destination,
/// buttons, data and message id.
@Suite struct SwiftAdapterEncodingTests {
    /// The built-in registry configured by the repository's `config.yaml`.
    static func registry() throws -> AdapterRegistry {
        try AdapterRegistry(
            configuration: YAMLConfiguration.parse(yaml: DefaultConfiguration.yaml, file: "config.yaml"),
            adapterTypes: AdapterRegistry.builtInAdapterTypes,
            definitions: AdapterRegistry.builtInDefinitions()
        )
    }

    /// The encode vectors of one vendor folder, by file name.
    static func vectors(_ folder: String) throws -> [(name: String, vector: JSONValue)] {
        let directory = TestPaths.path("adapters/\(folder)/Vectors/encode")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".json") }.sorted()
        return try names.map { name in
            let text = try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
            return (name, try JSONValue(parsing: text))
        }
    }

    /// Checks that `interaction` carries `message`'s destination, buttons, data and message
    /// id, the message's destinations resolved by the registry's policy as the read ones are.
    static func expectRoundTrip(_ message: OutgoingMessage, _ interaction: Interaction, registry: AdapterRegistry, _ name: String) {
        func resolved(_ destination: Destination, as read: Destination) -> Destination {
            var warnings: [Warning] = []
            let expected = registry.policy.resolve(destination, warnings: &warnings, label: "x")
            // A screen's url is not compared when the message's screen has none.
            if case .screen(let name, let parameters, nil) = expected, case .screen(name, parameters, _?) = read { return read }
            return expected
        }
        #expect(interaction.destination == resolved(message.destination, as: interaction.destination), "\(name): destination")
        #expect(interaction.buttons.count == message.buttons.count, "\(name): buttons")
        for (sent, read) in zip(message.buttons, interaction.buttons) {
            #expect(read.id == sent.id && read.label == sent.label, "\(name): button \(sent.id)")
            #expect(read.destination == resolved(sent.destination, as: read.destination), "\(name): button \(sent.id) destination")
        }
        #expect(interaction.payload == message.data, "\(name): payload")
        #expect(interaction.messageId == message.messageId, "\(name): messageId")
        #expect(interaction.warnings.isEmpty, "\(name): warnings \(interaction.warnings)")
    }

    @Test(arguments: [("DashX", "dashx"), ("TapTalk", "taptalk")])
    func encodeVectorsGiveTheirPayloadOrErrorAndRoundTrip(folder: String, vendor: String) throws {
        let registry = try Self.registry()
        let vectors = try Self.vectors(folder)
        #expect(vectors.count >= 6)
        #expect(vectors.filter { $0.vector["error"] != nil }.count >= 2)
        for (name, vector) in vectors {
            #expect(vector["source"]?.stringValue?.isEmpty == false, "\(name): source")
            let message = try OutgoingMessage(jsonValue: try #require(vector["message"]))
            let screens = vector["options"]?["screens"]?.stringValue.flatMap(EncodeOptions.ScreenFallback.init(rawValue:)) ?? .error
            let options = EncodeOptions(screens: screens)
            if let payload = vector["payload"] {
                let event = try registry.encode(message, vendor: vendor, options: options)
                #expect(event.jsonValue == payload, "\(name): payload\n\(event.jsonValue.jsonString())")
                let interaction = try registry.normalize(event)
                #expect(interaction.vendor == vendor, "\(name): vendor")
                Self.expectRoundTrip(message, interaction, registry: registry, name)
            } else {
                let error = try #require(vector["error"], "\(name): neither payload nor error")
                do {
                    let event = try registry.encode(message, vendor: vendor, options: options)
                    Issue.record("\(name): encoded \(event.jsonValue.jsonString()), expected \(error.jsonString())")
                } catch {
                    #expect(error.code.rawValue == vector["error"]?["code"]?.stringValue, "\(name): \(error)")
                    #expect(error.field == vector["error"]?["field"]?.stringValue, "\(name): \(error)")
                    #expect(error.vendor == vendor)
                }
            }
        }
    }

    /// DashX's `aps.category` for a button set is `DASHX_CAT_` and the first 14 hex digits of
    /// the SHA-256 of `identifier|label` joined with U+001F; the expected names were computed
    /// with Python's `hashlib`, for canonical texts of 54, 55 and 56 bytes (one SHA-256 block
    /// or two), an empty label, and non-ASCII text.
    @Test func dashXCategoriesAreTheBackendsHashOfTheButtons() throws {
        let registry = try Self.registry()
        let cases: [([(String, String)], String)] = [
            ([], "DASHX_NOTIFICATION"),
            ([("a", "")], "DASHX_CAT_c683fc436ca8ce"),
            ([(String(repeating: "x", count: 50), "yyy")], "DASHX_CAT_8b68f90deed925"),
            ([(String(repeating: "x", count: 50), "yyyy")], "DASHX_CAT_b3c43e316d1cd8"),
            ([(String(repeating: "x", count: 50), "yyyyy")], "DASHX_CAT_84585d43e3a73a"),
            (
                [("ü", "ÿ \"\\ 🚀"), (String(repeating: "b", count: 60), String(repeating: "c", count: 70))],
                "DASHX_CAT_9fbdeb2e0ee4d6"
            ),
        ]
        for (buttons, category) in cases {
            let message = OutgoingMessage(
                body: "b",
                buttons: buttons.map { Interaction.Button(id: $0.0, label: $0.1, destination: .app) },
                messageId: "m"
            )
            let event = try registry.encode(message, vendor: "dashx")
            guard case .notification(let userInfo, _, _) = event.kind else {
                Issue.record("not a notification")
                continue
            }
            #expect(userInfo["aps"]?["category"] == .string(category))
            let interaction = try registry.normalize(event)
            Self.expectRoundTrip(message, interaction, registry: registry, category)
        }
    }

    /// Text that JSON escapes (quotes, backslashes, control and line-separator characters,
    /// non-ASCII) survives DashX's JSON-in-a-string block and TapTalk's room IDs.
    @Test func awkwardTextRoundTrips() throws {
        let registry = try Self.registry()
        let awkward = "a\"b\\c\u{2028}d/é🚀\u{7F}<>&"
        let dashx = OutgoingMessage(
            title: awkward,
            body: awkward,
            destination: .screen(name: "s" + awkward, parameters: [awkward: awkward, "k": ""]),
            buttons: [
                Interaction.Button(id: awkward, label: awkward, destination: .clickAction(awkward)),
                Interaction.Button(id: "u", label: "", destination: .url("https://example.com/a?q=%22x%22#f", target: .inAppBrowser)),
            ],
            messageId: awkward
        )
        Self.expectRoundTrip(dashx, try registry.normalize(try registry.encode(dashx, vendor: "dashx")), registry: registry, "dashx")

        let taptalk = OutgoingMessage(
            body: awkward,
            // DEL (U+007F) is a control character, which a room ID may not have.
            destination: .screen(name: "chatRoom", parameters: ["roomID": "g-" + awkward.replacingOccurrences(of: "\u{7F}", with: "")]),
            messageId: awkward
        )
        Self.expectRoundTrip(
            taptalk,
            try registry.normalize(try registry.encode(taptalk, vendor: "taptalk")),
            registry: registry,
            "taptalk"
        )
    }

    /// What would read back changed is refused with the field, never written.
    @Test func valuesTheVendorsWouldReadDifferentlyAreRefused() throws {
        let registry = try Self.registry()
        let refused: [(String, OutgoingMessage, String)] = [
            ("dashx", OutgoingMessage(body: "b", destination: .url(" https://example.com", target: .external)), "$.destination"),
            ("dashx", OutgoingMessage(body: "b", destination: .url("", target: .external)), "$.destination"),
            ("dashx", OutgoingMessage(body: "b", destination: .screen(name: "  ")), "$.destination"),
            ("dashx", OutgoingMessage(body: "b", destination: .screen(name: "home\n")), "$.destination"),
            (
                "dashx",
                OutgoingMessage(body: "b", buttons: [.init(id: "b", label: "B", destination: .clickAction(""))]),
                "$.buttons[0].destination"
            ),
            (
                "dashx",
                OutgoingMessage(body: "b", buttons: [.init(id: NotificationAction.dismissIdentifier, label: "B", destination: .app)]),
                "$.buttons[0].id"
            ),
            (
                "dashx",
                OutgoingMessage(body: "b", buttons: [.init(id: "b", label: "B", destination: .none)]),
                "$.buttons[0].destination"
            ),
            ("taptalk", OutgoingMessage(body: "b", destination: .screen(name: "chatRoom", parameters: ["roomID": ""])), "$.destination"),
            ("taptalk", OutgoingMessage(body: "b", destination: .screen(name: "chatRoom", parameters: ["roomID": " \t"])), "$.destination"),
            (
                "taptalk", OutgoingMessage(body: "b", destination: .screen(name: "chatRoom", parameters: ["roomID": "a\u{0}b"])),
                "$.destination"
            ),
            (
                "taptalk",
                OutgoingMessage(body: "b", destination: .screen(name: "chatRoom", parameters: ["roomID": "1", "x": "2"])),
                "$.destination"
            ),
            ("taptalk", OutgoingMessage(body: "b", destination: .screen(name: "chatRoom", parameters: ["room": "1"])), "$.destination"),
            ("taptalk", OutgoingMessage(body: "b", destination: .clickAction("x")), "$.destination"),
        ]
        for (vendor, message, field) in refused {
            do {
                let event = try registry.encode(message, vendor: vendor)
                Issue.record("\(vendor): encoded \(event.jsonValue.jsonString())")
            } catch {
                #expect(error.code == .cannotExpress && error.field == field, "\(vendor): \(error)")
            }
        }
    }

    /// TapTalk's encoder writes the room under the screen names the configuration gives.
    @Test func tapTalkUsesTheConfiguredScreenNames() throws {
        let registry = try AdapterRegistry(
            configuration: YAMLConfiguration.parse(
                yaml: "adapters:\n  - id: taptalk\n    screens: {chatRoom: conversation, roomList: inbox}\n",
                file: "test.yaml"
            ),
            adapterTypes: AdapterRegistry.builtInAdapterTypes,
            definitions: AdapterRegistry.builtInDefinitions()
        )
        let message = OutgoingMessage(body: "b", destination: .screen(name: "conversation", parameters: ["roomID": "r-1"]), messageId: "m")
        Self.expectRoundTrip(
            message,
            try registry.normalize(try registry.encode(message, vendor: "taptalk")),
            registry: registry,
            "renamed"
        )
        do {
            _ = try registry.encode(
                OutgoingMessage(body: "b", destination: .screen(name: "chatRoom", parameters: ["roomID": "r-1"])),
                vendor: "taptalk"
            )
            Issue.record("the default name was accepted under a renamed screen")
        } catch {
            #expect(error.code == .cannotExpress && error.field == "$.destination")
        }
    }

    /// Encoding grows linearly: buttons (each in DashX's category hash too), screen
    /// parameters and text lengths, timed at two sizes (`TimeRatio`).
    @Test func encodingScalesLinearly() throws {
        let registry = try Self.registry()
        let dashx = TimeRatio.ratio(small: 400) { n in
            let message = OutgoingMessage(
                body: String(repeating: "b", count: n * 10),
                destination: .screen(name: "s", parameters: ScreenParameters((0..<n).map { ("p\($0)", "v\($0)") })),
                buttons: (0..<n).map {
                    Interaction.Button(
                        id: "b\($0)",
                        label: "Label \($0)",
                        destination: .url("https://example.com/\($0)", target: .external)
                    )
                },
                messageId: "m"
            )
            do {
                _ = try registry.encode(message, vendor: "dashx")
            } catch {
                Issue.record("dashx at \(n): \(error)")
            }
        }
        #expect(dashx < TimeRatio.maximumRatio, "dashx: \(dashx)")
        let taptalk = TimeRatio.ratio(small: 20_000) { n in
            let message = OutgoingMessage(
                body: String(repeating: "b", count: n),
                destination: .screen(name: "chatRoom", parameters: ["roomID": String(repeating: "r", count: n)]),
                messageId: String(repeating: "m", count: n)
            )
            do {
                _ = try registry.encode(message, vendor: "taptalk")
            } catch {
                Issue.record("taptalk at \(n): \(error)")
            }
        }
        #expect(taptalk < TimeRatio.maximumRatio, "taptalk: \(taptalk)")
    }
}
