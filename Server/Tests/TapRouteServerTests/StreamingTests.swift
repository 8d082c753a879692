import AsyncHTTPClient
import Foundation
import NIOCore
import Synchronization
import TapRoute
import TapRouteServer
import Testing

/// JSON Lines: the CLI's output for the same input, streamed both ways with flat memory.
@Suite("JSON Lines streaming", .serialized)
struct StreamingTests {
    /// A stream of every example envelope (compacted to one line), blank lines of every kind,
    /// bad lines, CRLF endings, a BOM in the middle, repeated `copies` times, and a last line
    /// without a newline.
    static func generatedStream(copies: Int) throws -> [UInt8] {
        var lines: [String] = []
        for file in RouteTests.examples {
            let value = try JSONValue(parsing: String(decoding: try Data(contentsOf: file), as: UTF8.self))
            lines.append(value.jsonString())
        }
        lines += [
            "", "   ", "\t\r", "{", "42", "[]", #"{"kind":"url","url":"campaigndemoapp://products/7"}"# + "\r",
            "\u{FEFF}{}", #"{"kind":"url","url":"https://example.com/x"} {"#, String(repeating: "[", count: 300),
        ]
        var text = ""
        for copy in 0..<copies {
            for (index, line) in lines.enumerated() where (index + copy) % 3 != 0 || copy == 0 {
                text += line + "\n"
            }
        }
        text += #"{"kind":"url","url":"https://example.com/last"}"#
        return Array(text.utf8)
    }

    /// Sends `body` to `path` as JSON Lines in pieces of `pieceSize` bytes.
    static func post(_ body: [UInt8], to url: String, pieceSize: Int, contentType: String = "application/x-ndjson") async throws -> Reply {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: contentType)
        let pieces = stride(from: 0, to: body.count, by: pieceSize).map { ByteBuffer(bytes: body[$0..<min(body.count, $0 + pieceSize)]) }
        request.body = .stream(pieces.asyncStream, length: .unknown)
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
        let bytes = try await response.body.collect(upTo: 1 << 30)
        return Reply(
            status: Int(response.status.code),
            headers: response.headers.map { ($0.name, $0.value) },
            body: Array(bytes.readableBytesView)
        )
    }

    @Test("examples/mixed.jsonl: byte for byte normalize --lines")
    func mixedExample() async throws {
        let body = try Array(Data(contentsOf: repositoryRoot.appendingPathComponent("examples/mixed.jsonl")))
        let expected = try runNormalize(["--lines"], input: body)
        try await TestServer.with { server in
            let reply = try await Self.post(body, to: server.url("/v1/normalize"), pieceSize: 1 << 16)
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type") == "application/x-ndjson")
            #expect(reply.text == String(decoding: expected, as: UTF8.self))
        }
    }

    @Test(
        "A generated stream, sent in pieces of any size: byte for byte normalize --lines, line numbers counting blank lines",
        arguments: [1, 7, 100, 4096, 1 << 20]
    )
    func generated(pieceSize: Int) async throws {
        let body = try Self.generatedStream(copies: pieceSize == 1 ? 3 : 40)
        let expected = try runNormalize(["--lines"], input: body)
        let expectedLines = expected.split(separator: 0x0A)
        #expect(expectedLines.count > 20)
        try await TestServer.with { server in
            for contentType in ["application/x-ndjson", "application/jsonl; charset=utf-8"] {
                let reply = try await Self.post(body, to: server.url("/v1/normalize"), pieceSize: pieceSize, contentType: contentType)
                #expect(reply.status == 200)
                #expect(reply.text == String(decoding: expected, as: UTF8.self))
            }
        }
    }

    @Test("An over-long line is one limitExceeded record, as the CLI writes it, whatever the pieces; the stream goes on")
    func overlongLine() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("taproute-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("config.yaml")
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent("config.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "maxRecordBytes: 1048576", with: "maxRecordBytes: 4096")
        try text.write(to: config, atomically: true, encoding: .utf8)
        let long = #"{"kind":"url","url":"https://example.com/"# + String(repeating: "a", count: 50_000) + #""}"#
        let blankLong = String(repeating: " ", count: 50_000)
        let small = #"{"kind":"url","url":"https://example.com/x"}"#
        let body = Array([small, long, "", blankLong, small, long, long].joined(separator: "\n").utf8)
        let expected = try runNormalize(["--lines", "--config", config.path], input: body)
        #expect(String(decoding: expected, as: UTF8.self).components(separatedBy: "limitExceeded").count == 4)
        // Through the configuration, and through --max-record-bytes over the default one.
        var byOption = ServerOptions()
        byOption.limits.maxRecordBytes = 4096
        for options in [ServerOptions(configPath: config.path), byOption] {
            try await TestServer.with(options) { server in
                for pieceSize in [999, 1 << 16] {
                    let reply = try await Self.post(body, to: server.url("/v1/normalize"), pieceSize: pieceSize)
                    #expect(reply.text == String(decoding: expected, as: UTF8.self), "pieces of \(pieceSize)")
                }
            }
        }
    }

    @Test("100 MB of JSON Lines, generated as it is sent: every line answered, output before the body ends, memory flat")
    func hundredMegabytes() async throws {
        let lines = [
            #"{"kind":"url","url":"campaigndemoapp://products/42?ref=push"}"#,
            String(decoding: try Data(contentsOf: repositoryRoot.appendingPathComponent("examples/dashx-push.json")), as: UTF8.self)
                .replacingOccurrences(of: "\n", with: " "),
            "{",
        ].map { Array(($0 + "\n").utf8) }
        let target = 100 << 20
        let piece: [UInt8] = {
            var piece: [UInt8] = []
            var i = 0
            while piece.count < 64 << 10 {
                piece += lines[i % lines.count]
                i += 1
            }
            return piece
        }()
        let pieceLines = piece.count(where: { $0 == 0x0A })
        let pieces = (target + piece.count - 1) / piece.count
        let totalLines = pieces * pieceLines
        try await TestServer.with { server in
            try resetPeakResident()
            let before = try peakResidentBytes()
            // A raw connection, so that the bytes on the wire are what is measured: the body is
            // written chunk by chunk (each a new copy) by one thread as the socket takes it,
            // while another reads the response. Its send buffer is kept small: with the
            // kernel's default (up to 4 MiB, on top of the server's receive buffer) the bytes
            // counted as sent included megabytes the server had not been given yet, and the
            // first output was measured after 8.5-11 MiB from one run to the next.
            let connection = try RawConnection(port: server.port, timeoutSeconds: 120, sendBufferBytes: 256 << 10)
            try connection.send(
                "POST /v1/normalize HTTP/1.1\r\nHost: test\r\nContent-Type: application/x-ndjson\r\nTransfer-Encoding: chunked\r\n\r\n"
            )
            let sent = Atomic<Int>(0)
            let sender = Thread {
                let header = Array((String(piece.count, radix: 16) + "\r\n").utf8)
                for _ in 0..<pieces {
                    guard (try? connection.send(header + piece + [0x0D, 0x0A])) != nil else { return }
                    sent.add(piece.count, ordering: .relaxed)
                }
                try? connection.send("0\r\n\r\n")
            }
            sender.start()
            let (outputLines, sentAtFirstOutput) = await withCheckedContinuation { continuation in
                Thread {
                    continuation.resume(returning: connection.countOutputLines { sent.load(ordering: .relaxed) })
                }.start()
            }
            let growth = try peakResidentBytes() - before
            print("100 MB stream: peak RSS growth \(growth >> 20) MB; first output after \(sentAtFirstOutput >> 10) KiB sent")
            #expect(sent.load(ordering: .relaxed) == pieces * piece.count)
            #expect(outputLines == totalLines)
            #expect(
                sentAtFirstOutput < pieces * piece.count / 10,
                "the first output came after \(sentAtFirstOutput) of \(pieces * piece.count) bytes were sent"
            )
            #expect(growth < 150 << 20, "peak resident memory grew by \(growth >> 20) MB")
        }
    }
}

extension StreamingTests {
    /// `taproute_records_total` in `metrics`.
    static func recordsTotal(_ metrics: ServerMetrics) -> Int {
        let text = String(decoding: metrics.exposition(), as: UTF8.self)
        for line in text.split(separator: "\n") where line.hasPrefix("taproute_records_total ") {
            return Int(line.split(separator: " ")[1]) ?? Int(Double(line.split(separator: " ")[1]) ?? 0)
        }
        return 0
    }

    @Test("Expect: 100-continue is answered with 100 Continue before the body is sent")
    func expectContinue() async throws {
        try await TestServer.with { server in
            let connection = try RawConnection(port: server.port)
            let body = #"{"kind":"url","url":"campaigndemoapp://products/5"}"#
            try connection.send(
                "POST /v1/normalize HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
                    + "Expect: 100-continue\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
            )
            let interim = try connection.read(until: "\r\n\r\n")
            #expect(interim.hasPrefix("HTTP/1.1 100 Continue\r\n"))
            try connection.send(body)
            let reply = try connection.read(until: "products/5")
            #expect(reply.contains("HTTP/1.1 200 OK"))
            #expect(reply.contains(#""url":"campaigndemoapp://products/5""#))
        }
    }

    @Test("Each line's output is sent while the request body is still open (a raw connection, chunked)")
    func outputBeforeBodyEnds() async throws {
        try await TestServer.with { server in
            let connection = try RawConnection(port: server.port)
            try connection.send(
                "POST /v1/normalize HTTP/1.1\r\nHost: test\r\nContent-Type: application/x-ndjson\r\nTransfer-Encoding: chunked\r\n\r\n"
            )
            func chunk(_ text: String) -> String { String(text.utf8.count, radix: 16) + "\r\n" + text + "\r\n" }
            try connection.send(chunk(#"{"kind":"url","url":"campaigndemoapp://products/1"}"# + "\n" + #"{"kind":"url","url":"campai"#))
            let first = try connection.read(until: "products/1")
            #expect(first.hasPrefix("HTTP/1.1 200"))
            #expect(first.contains(#""url":"campaigndemoapp://products/1""#))
            #expect(!first.contains("products/2"))
            try connection.send(chunk(#"gndemoapp://products/2"}"# + "\n\n{\n"))
            let second = try connection.read(until: #""line":4"#)
            #expect(second.contains(#""url":"campaigndemoapp://products/2""#))
            #expect(second.contains(#"{"error":{"code":"invalidJSON""#))
            try connection.send("0\r\n\r\n")
            let end = try connection.read(until: "0\r\n\r\n")
            #expect(end.hasSuffix("0\r\n\r\n"))
        }
    }
}

/// A request body of `count` copies of `piece`, each made when the client asks for it;
/// `onSend` is told each piece's size.
struct GeneratedBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let piece: ByteBuffer
    let count: Int
    let onSend: @Sendable (Int) -> Void

    struct AsyncIterator: AsyncIteratorProtocol {
        let body: GeneratedBody
        var made = 0

        mutating func next() async -> ByteBuffer? {
            guard made < body.count else { return nil }
            made += 1
            body.onSend(body.piece.readableBytes)
            return body.piece
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(body: self) }
}

extension Sequence where Self: Sendable, Element: Sendable {
    /// The elements as an async sequence.
    var asyncStream: AsyncStream<Element> {
        AsyncStream { continuation in
            for element in self { continuation.yield(element) }
            continuation.finish()
        }
    }
}
