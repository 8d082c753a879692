import Foundation
import TapRoute
import TapRouteTestSupport
import Testing

/// `normalize encode` through the built binary (docs/encode.md, docs/cli.md): the simulator
/// workflow, every vendor's payload read back, JSON Lines with one answer per message in
/// order, located errors, and the exit statuses.
@Suite struct EncodeCommandTests {
    static func object(_ line: String) throws -> JSONObject {
        try JSONValue(parsing: line).objectValue ?? [:]
    }

    /// A scratch folder holding `files`, removed after `body`.
    func inFolder<T>(_ files: [String: String], _ body: (URL) throws -> T) throws -> T {
        try TemporaryFolder.with(files, prefix: "taproute-encode-cli", body)
    }

    /// The issue's command: a payload for the simulator that `normalize` reads back to the
    /// message's destination.
    @Test func theSimulatorPayloadReadsBackToTheSameDestination() throws {
        let encoded = try normalize(["encode", "--vendor", "dashx", "examples/message.json", "--simulator", "com.example.app"])
        #expect(encoded.status == 0, "\(encoded.stderr)")
        #expect(encoded.lines.count == 1)
        let payload = try Self.object(encoded.lines[0])
        #expect(payload["Simulator Target Bundle"] == "com.example.app")
        #expect(payload["aps"]?["alert"]?["body"] == "Order 42 is on its way.")
        let back = try inFolder(["payload.json": encoded.lines[0]]) { folder in
            try normalize(["--config", TestPaths.path("config.yaml"), folder.appendingPathComponent("payload.json").path])
        }
        #expect(back.status == 0, "\(back.stderr)")
        let interaction = try Self.object(back.lines[0])
        #expect(interaction["vendor"] == "dashx")
        #expect(interaction["destination"] == ["type": "url", "url": "https://shop.example.com/orders/42", "target": "external"])
        #expect(interaction["messageId"] == "order-42-shipped")
    }

    /// Every vendor that can encode: the example message (or, where the vendor cannot express
    /// it, a message it can) comes back through `normalize` as that vendor's, with the same
    /// destination.
    @Test func everyVendorsPayloadReadsBack() throws {
        let adapters = try normalize(["adapters", "--config", "config.yaml"])
        #expect(adapters.status == 0)
        let simple = #"{"messageId":"m-1","body":"Spring offers","destination":{"type":"url","url":"https://example.com/offers"}}"#
        var encoders: [String] = []
        for vendor in [
            "dashx", "adobe", "bird", "taptalk", "onesignal", "braze", "airship", "iterable", "clevertap", "customerio", "klaviyo",
            "pushwoosh", "fcm",
        ] {
            let encoded = try normalize(["encode", "--vendor", vendor, "--config", "config.yaml", "--lines", "-"], stdin: simple + "\n")
            guard !encoded.stderr.contains("cannot encode messages") else { continue }
            encoders.append(vendor)
            guard encoded.status == 0, let line = encoded.lines.first else {
                // A vendor that cannot express the message says why, as a record.
                #expect(encoded.status == 1, "\(vendor): \(encoded.stderr)")
                #expect(try Self.object(encoded.lines.first ?? "{}")["error"]?["vendor"]?.stringValue == vendor)
                continue
            }
            let back = try normalize(["--config", "config.yaml", "--lines", "-"], stdin: line + "\n")
            let interaction = try Self.object(back.lines.first ?? "{}")
            #expect(interaction["vendor"]?.stringValue == vendor, "\(vendor): \(back.stdout)")
            #expect(interaction["destination"]?["url"] == "https://example.com/offers", "\(vendor): \(back.stdout)")
        }
        #expect(encoders.count == 13, "\(encoders)")
    }

    @Test func jsonLinesGiveOneAnswerPerMessageInOrder() throws {
        let lines = [
            #"{"body":"one","destination":{"type":"url","url":"https://example.com/1"},"messageId":"m-1"}"#,
            "",
            #"{"body": "two""#,
            #"{"body":"three","destination":{"type":"screen","name":"order"},"messageId":"m-3"}"#,
            #"{"body":"four","colour":"red"}"#,
            #"{"body":"five","destination":{"type":"url","url":"https://example.com/5"},"messageId":"m-5"}"#,
        ]
        let run = try normalize(["encode", "--vendor", "onesignal", "--lines"], stdin: lines.joined(separator: "\n") + "\n")
        #expect(run.status == 1)
        #expect(run.lines.count == 5)
        let answers = try run.lines.map(Self.object)
        #expect(answers[0]["custom"]?["u"] == "https://example.com/1")
        #expect(answers[1]["error"]?["code"] == "invalidJSON")
        #expect(answers[1]["error"]?["line"] == 3)
        #expect(
            answers[2]["error"] == [
                "code": "cannotExpress", "vendor": "onesignal", "path": "$.destination", "line": 4,
                "message": answers[2]["error"]?["message"] ?? "",
            ]
        )
        #expect(answers[3]["error"]?["code"] == "invalidMessage")
        #expect(answers[3]["error"]?["path"] == "$.colour")
        #expect(answers[3]["error"]?["line"] == 5)
        #expect(answers[4]["custom"]?["i"] == "m-5")
    }

    @Test func aDocumentOfMessagesNamesEachOnesIndex() throws {
        let document =
            #"[{"body":"a","messageId":"m-1"},{"body":"b","destination":{"type":"clickAction","value":"OPEN"},"messageId":"m-2"}]"#
        let run = try normalize(["encode", "--vendor", "onesignal", "-"], stdin: document)
        #expect(run.status == 1)
        #expect(run.lines.count == 2)
        #expect(try Self.object(run.lines[1])["error"]?["path"] == "$[1].destination")
        // A file's error records name it, as normalize's do.
        let fromFile = try normalize(["encode", "--vendor", "onesignal", "examples/message.json"])
        #expect(try Self.object(fromFile.lines[0])["error"]?["file"] == "examples/message.json")
    }

    @Test func screensCanBecomeTheirRoutesURL() throws {
        let message = #"{"body":"Product 7","destination":{"type":"screen","name":"product","parameters":{"id":"7"}},"messageId":"m-7"}"#
        let refused = try normalize(["encode", "--vendor", "onesignal", "--lines", "-"], stdin: message + "\n")
        #expect(try Self.object(refused.lines[0])["error"]?["code"] == "cannotExpress")
        let routed = try normalize(["encode", "--vendor", "onesignal", "--screens", "route", "--lines", "-"], stdin: message + "\n")
        #expect(routed.status == 0, "\(routed.stdout)")
        #expect(try Self.object(routed.lines[0])["custom"]?["u"] == "campaigndemoapp://products/7")
        let back = try normalize(["--lines", "-"], stdin: routed.lines[0] + "\n")
        #expect(
            try Self.object(back.lines[0])["destination"] == [
                "type": "screen", "name": "product", "parameters": ["id": "7"], "url": "campaigndemoapp://products/7",
            ]
        )
    }

    @Test func aLineOverTheRecordLimitIsAnErrorAndTheNextStillCounts() throws {
        try inFolder(["config.yaml": "limits: {maxRecordBytes: 200}\nadapters: [onesignal]\n"]) { folder in
            let long = #"{"body":""# + String(repeating: "x", count: 500) + #"","messageId":"m"}"#
            let ok = #"{"body":"ok","messageId":"m-2"}"#
            let run = try normalize(
                ["encode", "--vendor", "onesignal", "--config", "config.yaml", "--lines", "-"],
                stdin: long + "\n" + ok + "\n",
                in: folder.path
            )
            #expect(run.status == 1)
            #expect(run.lines.count == 2)
            #expect(try Self.object(run.lines[0])["error"]?["code"] == "limitExceeded")
            #expect(try Self.object(run.lines[0])["error"]?["line"] == 1)
            #expect(try Self.object(run.lines[1])["custom"]?["i"] == "m-2")
        }
    }

    @Test func usageErrorsAndUnreadableInputs() throws {
        let unknown = try normalize(["encode", "--vendor", "nosuch", "examples/message.json"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("no enabled adapter has id 'nosuch'"))
        let screens = try normalize(["encode", "--vendor", "onesignal", "--screens", "maybe", "examples/message.json"])
        #expect(screens.status == 2)
        #expect(screens.stderr.contains("--screens"))
        let missing = try normalize(["encode", "--vendor", "onesignal", "no-such-file.json", "examples/message.json"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no-such-file.json"))
        #expect(missing.lines.count == 1, "the readable input is still encoded")
    }
}
