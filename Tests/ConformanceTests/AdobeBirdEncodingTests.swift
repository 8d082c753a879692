import AdobeAdapter
import BirdAdapter
import Foundation
import TapRoute
import TapRouteAdapters
import TapRouteTestSupport
import Testing

/// The Adobe and Bird encoders: every vector in `adapters/<Vendor>/Vectors/encode` through
/// `AdapterRegistry.encode` on the repository's default configuration, its payload compared
/// with the vector's and read back by `normalize` to the message's destination, buttons, data
/// and message id (docs/encode.md, "Round trip").
@Suite struct AdobeBirdEncodingTests {
    static let vendors = ["Adobe": "adobe", "Bird": "bird"]

    static func vectorFiles(_ folder: String) throws -> [String] {
        let directory = TestPaths.path("adapters/\(folder)/Vectors/encode")
        return try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".json") }.sorted()
            .map { directory + "/" + $0 }
    }

    @Test(arguments: ["Adobe", "Bird"]) func encodeVectors(folder: String) throws {
        let vendor = try #require(Self.vendors[folder])
        let registry = try AdapterRegistry.builtIn()
        let files = try Self.vectorFiles(folder)
        #expect(files.count >= 6)
        var errors = 0
        for file in files {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            let vector = try #require(try JSONValue(parsing: text).objectValue, "\(file)")
            #expect(vector["config"] == nil, "\(file): these tests run on the default configuration")
            #expect(vector["source"]?.stringValue?.isEmpty == false, "\(file): no source")
            let message = try OutgoingMessage(jsonValue: try #require(vector["message"], "\(file)"))
            var options = EncodeOptions()
            if let screens = vector["options"]?["screens"]?.stringValue {
                options.screens = try #require(EncodeOptions.ScreenFallback(rawValue: screens), "\(file)")
            }
            if let expected = vector["error"] {
                errors += 1
                do {
                    let payload = try registry.encode(message, vendor: vendor, options: options)
                    Issue.record("\(file): expected \(expected.jsonString()), encoded \(payload.jsonValue.jsonString())")
                } catch {
                    #expect(error.code.rawValue == expected["code"]?.stringValue, "\(file): \(error)")
                    #expect(error.field == expected["field"]?.stringValue, "\(file): \(error)")
                    #expect(error.vendor == vendor)
                }
                continue
            }
            let input = try registry.encode(message, vendor: vendor, options: options)
            #expect(input.jsonValue == vector["payload"], "\(file): encoded \(input.jsonValue.jsonString())")
            try Self.expectRoundTrip(message, input: input, vendor: vendor, registry: registry, subject: file)
        }
        #expect(errors >= 2)
    }

    /// Reads `input` back and compares it with the message as docs/encode.md defines.
    static func expectRoundTrip(
        _ message: OutgoingMessage,
        input: InputEvent,
        vendor: String,
        registry: AdapterRegistry,
        subject: String
    ) throws {
        // Through the JSON text too, as the CLI reads it.
        let reparsed = try InputEvent(json: try JSONValue(parsing: input.jsonValue.jsonString()))
        for event in [input, reparsed] {
            let interaction = try registry.normalize(event)
            #expect(interaction.vendor == vendor, "\(subject)")
            #expect(
                same(interaction.destination, sent: message.destination, registry: registry),
                "\(subject): destination \(interaction.destination)"
            )
            #expect(interaction.buttons.count == message.buttons.count, "\(subject)")
            for (read, sent) in zip(interaction.buttons, message.buttons) {
                #expect(read.id == sent.id && read.label == sent.label, "\(subject): button \(read)")
                #expect(same(read.destination, sent: sent.destination, registry: registry), "\(subject): button \(read)")
            }
            #expect(interaction.payload == message.data, "\(subject): payload \(interaction.payload)")
            let messageId = message.messageId.flatMap { $0.isEmpty ? nil : $0 }
            #expect(interaction.messageId == messageId, "\(subject)")
        }
    }

    /// The read destination against the sent one after the registry's policy; a screen's URL
    /// is ignored when the sent screen has none.
    static func same(_ read: Destination, sent: Destination, registry: AdapterRegistry) -> Bool {
        var warnings: [Warning] = []
        let resolved = registry.policy.resolve(sent, warnings: &warnings, label: "x")
        if case .screen(let name, let parameters, nil) = resolved, case .screen(let readName, let readParameters, _) = read {
            return name == readName && parameters == readParameters
        }
        return read == resolved
    }

    /// Messages built in code, beyond the vectors: every destination kind each vendor declares,
    /// with and without data and message ids, round-trips; everything else is refused by field.
    @Test func declaredKindsRoundTripAndOthersAreRefused() throws {
        let registry = try AdapterRegistry.builtIn()
        let destinations: [Destination] = [
            .app,
            .url("https://shop.example.com/a?b=c#d", target: .external),
            .url("campaigndemoapp://products/5", target: .app),
            .url("https://web.taptalk.io/chat/r1", target: .app),
            .url("tel:+15555550100", target: .external),
            .url("mailto:someone@example.com", target: .external),
        ]
        let data: [JSONObject] = [[:], ["k": "v"], ["n": 1.5, "list": [1, "two", nil, true], "o": ["p": ["q": "r"]]]]
        for vendor in ["adobe", "bird"] {
            for destination in destinations {
                for data in data {
                    let messageId: String? = vendor == "adobe" ? "m-1" : nil
                    let message = OutgoingMessage(title: "T", body: "B", destination: destination, data: data, messageId: messageId)
                    let input = try registry.encode(message, vendor: vendor)
                    try Self.expectRoundTrip(message, input: input, vendor: vendor, registry: registry, subject: "\(vendor) \(message)")
                }
            }
        }
        // Adobe's buttons: every kind it declares, labels equal to ids.
        let buttons =
            destinations.enumerated().map { Interaction.Button(id: "b\($0.offset)", label: "b\($0.offset)", destination: $0.element) }
            + [Interaction.Button(id: "Later", label: "Later", destination: .none)]
        let withButtons = OutgoingMessage(body: "B", buttons: buttons, messageId: "")
        try Self.expectRoundTrip(
            withButtons,
            input: try registry.encode(withButtons, vendor: "adobe"),
            vendor: "adobe",
            registry: registry,
            subject: "adobe buttons"
        )
    }

    @Test(arguments: [
        ("adobe", OutgoingMessage(body: "B", destination: .url("", target: .external)), "$.destination"),
        (
            "adobe", OutgoingMessage(body: "B", buttons: [.init(id: "x", label: "x", destination: .url("", target: .external))]),
            "$.buttons[0].destination"
        ),
        ("adobe", OutgoingMessage(body: "B", destination: .none), "$.destination"),
        ("adobe", OutgoingMessage(body: "B", data: ["_xdm": [:]]), "$.data._xdm"),
        ("adobe", OutgoingMessage(body: "B", data: ["aps": "x"]), "$.data.aps"),
        ("adobe", OutgoingMessage(body: "B", data: ["adb_deeplink": "x"]), "$.data.adb_deeplink"),
        ("adobe", OutgoingMessage(body: "B", data: ["dashx": "x"]), "$.data.dashx"),
        (
            "adobe", OutgoingMessage(body: "B", buttons: [.init(id: "x", label: "x", destination: .clickAction("C"))]),
            "$.buttons[0].destination"
        ),
        ("bird", OutgoingMessage(body: "B", destination: .url("", target: .external)), "$.destination"),
        ("bird", OutgoingMessage(body: "B", destination: .clickAction("C")), "$.destination"),
        ("bird", OutgoingMessage(body: "B", buttons: [.init(id: "x", destination: .app)]), "$.buttons"),
        ("bird", OutgoingMessage(body: "B", messageId: "m"), "$.messageId"),
    ])
    func refusedByField(vendor: String, message: OutgoingMessage, field: String) throws {
        let registry = try AdapterRegistry.builtIn()
        #expect {
            try registry.encode(message, vendor: vendor)
        } throws: { error in
            guard let error = error as? EncodingError else { return false }
            return error.code == .cannotExpress && error.field == field && error.vendor == vendor
        }
    }

    /// Data nesting deeper than Bird's payload string may hold under the default limits is
    /// refused (the adapter would read it back as text), and data just within them round-trips.
    @Test func birdDataDepthFollowsTheDefaultLimits() throws {
        let registry = try AdapterRegistry.builtIn()
        let allowed = Limits().maxDepth - Limits.payloadDepth
        func nested(_ levels: Int) -> JSONObject {
            var value: JSONValue = "leaf"
            for _ in 1..<levels { value = .object(["a": value]) }
            return ["a": value]
        }
        let within = OutgoingMessage(body: "B", data: nested(allowed))
        try Self.expectRoundTrip(
            within,
            input: try registry.encode(within, vendor: "bird"),
            vendor: "bird",
            registry: registry,
            subject: "bird depth \(allowed)"
        )
        #expect {
            try registry.encode(OutgoingMessage(body: "B", data: nested(allowed + 1)), vendor: "bird")
        } throws: { error in
            (error as? EncodingError)?.field == "$.data" && (error as? EncodingError)?.code == .cannotExpress
        }
    }
}
