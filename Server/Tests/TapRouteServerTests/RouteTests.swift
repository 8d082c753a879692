import AsyncHTTPClient
import Foundation
import TapRoute
import TapRouteServer
import Testing

/// Every route and every error status, against the real server on a loopback port.
@Suite("Routes", .serialized)
struct RouteTests {
    /// The example envelopes (every examples/*.json but the outgoing message).
    static let examples: [URL] = {
        let folder = repositoryRoot.appendingPathComponent("examples")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") && $0 != "message.json" }.sorted().map { folder.appendingPathComponent($0) }
    }()

    @Test("GET /healthz answers {\"status\":\"ok\"}")
    func health() async throws {
        try await TestServer.with { server in
            let reply = try await call(.GET, server.url("/healthz"))
            #expect(reply.status == 200)
            #expect(reply.text == "{\"status\":\"ok\"}\n")
            #expect(reply.header("Content-Type") == "application/json")
        }
    }

    @Test("One envelope: the Interaction, byte for byte the CLI's output line, for every example")
    func singleEnvelope() async throws {
        #expect(Self.examples.count >= 10)
        try await TestServer.with { server in
            for file in Self.examples {
                let body = try Array(Data(contentsOf: file))
                let reply = try await call(.POST, server.url("/v1/normalize"), contentType: "application/json", body: body)
                let expected = try runNormalize([file.path])
                #expect(reply.status == 200, "\(file.lastPathComponent): \(reply.text)")
                #expect(reply.text == String(decoding: expected, as: UTF8.self), "\(file.lastPathComponent)")
                #expect(reply.header("Content-Type") == "application/json")
            }
        }
    }

    @Test("A bad envelope: 422 with the CLI's error record (bad JSON, not an object, no adapter, bad envelope, too deep)")
    func badEnvelope() async throws {
        let bodies = [
            "{", "42", "[1,2]", "this is not json", #"{"kind":"nope"}"#, #"{"kind":"url"}"#,
            #"{"kind":"notification","userInfo":{"x":1}}"#, String(repeating: "[", count: 200) + String(repeating: "]", count: 200),
            #"{"kind":"url","url":"https://example.com/x"} trailing"#, "\u{FEFF}{}", "",
        ]
        try await TestServer.with { server in
            for body in bodies {
                let reply = try await call(.POST, server.url("/v1/normalize"), contentType: "application/json", body: Array(body.utf8))
                let expected = try runNormalize(["--lines"], input: Array(body.utf8) + [0x0A])
                if body.isEmpty {
                    // No record at all: the CLI writes nothing; the server names the problem.
                    #expect(reply.status == 422)
                    #expect(reply.text.contains(#""code":"invalidJSON""#))
                    continue
                }
                #expect(reply.status == 422, "\(body): \(reply.text)")
                #expect(reply.text == String(decoding: expected, as: UTF8.self), "\(body)")
            }
        }
    }

    @Test("?vendor= skips detection for envelopes that name none, as --vendor does")
    func vendorOverride() async throws {
        let envelope = Array(#"{"kind":"notification","userInfo":{"aps":{"alert":"hi"},"url":"https://example.com/a"}}"#.utf8)
        try await TestServer.with { server in
            let reply = try await call(.POST, server.url("/v1/normalize?vendor=dashx"), contentType: "application/json", body: envelope)
            let expected = try runNormalize(["--lines", "--vendor", "dashx"], input: envelope + [0x0A])
            #expect(reply.text == String(decoding: expected, as: UTF8.self))
        }
    }

    @Test("Error statuses: 404, 405 (with Allow), 415, 413, 400, each with a JSON error")
    func errorStatuses() async throws {
        var options = ServerOptions()
        options.limits.maxBodyBytes = 1000
        try await TestServer.with(options) { server in
            func check(_ reply: Reply, _ status: Int, _ code: String) throws {
                #expect(reply.status == status, "\(reply.text)")
                #expect(reply.header("Content-Type") == "application/json")
                let json = try JSONValue(parsing: reply.text)
                guard case .object(let root) = json, case .object(let error)? = root["error"] else {
                    throw TestFailure("not an error body: \(reply.text)")
                }
                #expect(error["code"] == .string(code))
                guard case .string(let message)? = error["message"] else { throw TestFailure("no message: \(reply.text)") }
                #expect(!message.isEmpty)
            }
            try check(try await call(.GET, server.url("/nope")), 404, "notFound")
            try check(try await call(.GET, server.url("/v1")), 404, "notFound")
            let get = try await call(.GET, server.url("/v1/normalize"))
            try check(get, 405, "methodNotAllowed")
            #expect(get.header("Allow") == "POST")
            try check(try await call(.PUT, server.url("/v1/encode?vendor=dashx")), 405, "methodNotAllowed")
            try check(try await call(.POST, server.url("/healthz")), 405, "methodNotAllowed")
            try check(try await call(.DELETE, server.url("/metrics")), 405, "methodNotAllowed")
            try check(
                try await call(.POST, server.url("/v1/normalize"), contentType: "text/plain", body: Array("{}".utf8)),
                415,
                "unsupportedMediaType"
            )
            try check(try await call(.POST, server.url("/v1/normalize"), body: Array("{}".utf8)), 415, "unsupportedMediaType")
            try check(
                try await call(.POST, server.url("/v1/encode?vendor=dashx"), contentType: "application/xml", body: Array("<a/>".utf8)),
                415,
                "unsupportedMediaType"
            )
            let big =
                Array(#"{"kind":"url","url":"https://example.com/"#.utf8) + Array(repeating: UInt8(ascii: "a"), count: 2000)
                + Array(#""}"#.utf8)
            try check(try await call(.POST, server.url("/v1/normalize"), contentType: "application/json", body: big), 413, "bodyTooLarge")
            try check(
                try await call(.POST, server.url("/v1/encode?vendor=dashx"), contentType: "application/json", body: big),
                413,
                "bodyTooLarge"
            )
            // The limit is on the JSON body only: the same record as a JSON line is streamed.
            let line = try await call(.POST, server.url("/v1/normalize"), contentType: "application/x-ndjson", body: big + [0x0A])
            #expect(line.status == 200)
            try check(
                try await call(.POST, server.url("/v1/encode"), contentType: "application/json", body: Array("{}".utf8)),
                400,
                "badQuery"
            )
            try check(
                try await call(
                    .POST,
                    server.url("/v1/encode?vendor=dashx&screens=maybe"),
                    contentType: "application/json",
                    body: Array("{}".utf8)
                ),
                400,
                "badQuery"
            )
            // A media type's parameters and case do not matter.
            let withCharset = try await call(
                .POST,
                server.url("/v1/normalize"),
                contentType: "Application/JSON; charset=utf-8",
                body: Array(#"{"kind":"url","url":"https://example.com/x"}"#.utf8)
            )
            #expect(withCharset.status == 200)
        }
    }

    @Test("POST /v1/encode: the vendor payload, or 422 with normalize encode's error record")
    func encode() async throws {
        let message = repositoryRoot.appendingPathComponent("examples/message.json")
        let body = try Array(Data(contentsOf: message))
        try await TestServer.with { server in
            // The message as one line, so that the CLI's "line" is the server's (1).
            let compact = Array(String(decoding: body, as: UTF8.self).replacingOccurrences(of: "\n", with: " ").utf8)
            for vendor in ["dashx", "adobe", "bird", "braze", "onesignal"] {
                let reply = try await call(.POST, server.url("/v1/encode?vendor=\(vendor)"), contentType: "application/json", body: compact)
                let expected = try runNormalize(["encode", "--vendor", vendor, "--lines"], input: compact + [0x0A])
                #expect(String(decoding: expected, as: UTF8.self).hasPrefix("{"))
                #expect(reply.status == (expected.starts(with: Array(#"{"error""#.utf8)) ? 422 : 200), "\(vendor): \(reply.text)")
                #expect(reply.text == String(decoding: expected, as: UTF8.self), "\(vendor)")
            }
            // A vendor no adapter has: the CLI's usage error; the server's 422 unknownVendor record.
            let unknown = try await call(
                .POST,
                server.url("/v1/encode?vendor=nosuchvendor"),
                contentType: "application/json",
                body: compact
            )
            #expect(unknown.status == 422)
            #expect(
                unknown.text.hasPrefix(
                    #"{"error":{"code":"unknownVendor","vendor":"nosuchvendor","message":"no enabled adapter has id 'nosuchvendor'"#
                )
            )
            for (vendor, text) in [("dashx", #"{"title":5}"#), ("dashx", "{"), ("dashx", "[]")] {
                let compact = text.replacingOccurrences(of: "\n", with: " ")
                let reply = try await call(
                    .POST,
                    server.url("/v1/encode?vendor=\(vendor)"),
                    contentType: "application/json",
                    body: Array(compact.utf8)
                )
                let expected = try runNormalize(["encode", "--vendor", vendor, "--lines"], input: Array(compact.utf8) + [0x0A])
                #expect(reply.status == 422, "\(vendor) \(text): \(reply.text)")
                #expect(reply.text == String(decoding: expected, as: UTF8.self))
            }
            // JSON Lines of messages, as `normalize encode --lines`.
            let lines = Array(
                (String(decoding: body, as: UTF8.self).replacingOccurrences(of: "\n", with: " ") + "\n\n{\"title\":5}\n").utf8
            )
            let reply = try await call(.POST, server.url("/v1/encode?vendor=dashx"), contentType: "application/x-ndjson", body: lines)
            #expect(reply.status == 200)
            #expect(
                reply.text == String(decoding: try runNormalize(["encode", "--vendor", "dashx", "--lines"], input: lines), as: UTF8.self)
            )
        }
    }

    @Test("GET /metrics: requests by route and status, records, errors by code, latency")
    func metrics() async throws {
        try await TestServer.with { server in
            _ = try await call(
                .POST,
                server.url("/v1/normalize"),
                contentType: "application/json",
                body: Array(#"{"kind":"url","url":"https://example.com/x"}"#.utf8)
            )
            _ = try await call(.POST, server.url("/v1/normalize"), contentType: "application/json", body: Array("{".utf8))
            _ = try await call(.POST, server.url("/v1/normalize"), contentType: "application/x-ndjson", body: Array("{\n\n42\n".utf8))
            _ = try await call(.GET, server.url("/nope"))
            let reply = try await call(.GET, server.url("/metrics"))
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type")?.hasPrefix("text/plain") == true)
            let text = reply.text
            #expect(text.contains("taproute_records_total 4"), "\(text)")
            #expect(text.contains(#"taproute_record_errors_total{code="invalidJSON",route="/v1/normalize"} 2"#), "\(text)")
            #expect(text.contains(#"taproute_record_errors_total{code="notAnObject",route="/v1/normalize"} 1"#), "\(text)")
            #expect(text.contains(#"taproute_http_requests_total{route="/v1/normalize",status="200"} 2"#), "\(text)")
            #expect(text.contains(#"taproute_http_requests_total{route="/v1/normalize",status="422"} 1"#), "\(text)")
            #expect(text.contains(#"taproute_http_requests_total{route="other",status="404"} 1"#), "\(text)")
            #expect(text.contains(#"taproute_http_request_duration_seconds_count{route="/v1/normalize"} 3"#), "\(text)")
        }
    }
}
