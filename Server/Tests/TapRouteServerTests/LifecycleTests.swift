import AsyncHTTPClient
import Foundation
import NIOCore
import TapRouteServer
import Testing

/// The request limit and graceful shutdown.
@Suite("Limits and shutdown", .serialized)
struct LifecycleTests {
    /// A JSON Lines request whose body is sent line by line, when the test says so.
    struct HeldRequest {
        let lines: AsyncStream<ByteBuffer>.Continuation
        let reply: Task<Reply, any Error>

        static func start(_ url: String) -> HeldRequest {
            let (stream, continuation) = AsyncStream<ByteBuffer>.makeStream()
            let reply = Task {
                var request = HTTPClientRequest(url: url)
                request.method = .POST
                request.headers.add(name: "Content-Type", value: "application/x-ndjson")
                request.body = .stream(stream, length: .unknown)
                let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
                let bytes = try await response.body.collect(upTo: 1 << 24)
                return Reply(status: Int(response.status.code), headers: [], body: Array(bytes.readableBytesView))
            }
            return HeldRequest(lines: continuation, reply: reply)
        }
    }

    /// Waits until `/healthz` answers `status` (at most 10 s); returns the last reply.
    static func waitFor(status: Int, on server: TestServer) async throws -> Reply {
        var last = try await call(.GET, server.url("/healthz"))
        for _ in 0..<200 where last.status != status {
            try await Task.sleep(for: .milliseconds(50))
            last = try await call(.GET, server.url("/healthz"))
        }
        return last
    }

    static let line = ByteBuffer(string: #"{"kind":"url","url":"campaigndemoapp://products/42"}"# + "\n")

    @Test("Over --max-concurrent-requests: 503 with a JSON error; served again once a request ends")
    func overloaded() async throws {
        var options = ServerOptions()
        options.limits.maxConcurrentRequests = 1
        try await TestServer.with(options) { server in
            let held = HeldRequest.start(server.url("/v1/normalize"))
            held.lines.yield(Self.line)
            let refused = try await Self.waitFor(status: 503, on: server)
            #expect(refused.status == 503)
            #expect(refused.text.contains(#""code":"overloaded""#))
            held.lines.yield(Self.line)
            held.lines.finish()
            let reply = try await held.reply.value
            #expect(reply.status == 200)
            #expect(reply.text.split(separator: "\n").count == 2)
            let again = try await Self.waitFor(status: 200, on: server)
            #expect(again.status == 200)
        }
    }

    @Test("A client that goes away mid-stream frees its place: the limit does not leak")
    func abandonedStream() async throws {
        var options = ServerOptions()
        options.limits.maxConcurrentRequests = 1
        try await TestServer.with(options) { server in
            for _ in 0..<3 {
                var connection: RawConnection? = try RawConnection(port: server.port)
                try connection?.send(
                    "POST /v1/normalize HTTP/1.1\r\nHost: test\r\nContent-Type: application/x-ndjson\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "10\r\n{\"kind\":\"url\",\"u"
                )
                #expect(try await Self.waitFor(status: 503, on: server).status == 503)
                connection = nil  // closes the socket with the body unfinished
                _ = connection
                let freed = try await Self.waitFor(status: 200, on: server)
                #expect(freed.status == 200)
            }
        }
    }

    @Test("Graceful shutdown: a request in flight is finished, new connections are refused")
    func gracefulShutdown() async throws {
        var options = ServerOptions()
        options.limits.maxConcurrentRequests = 1
        try await TestServer.with(options) { server in
            let held = HeldRequest.start(server.url("/v1/normalize"))
            held.lines.yield(Self.line)
            #expect(try await Self.waitFor(status: 503, on: server).status == 503)
            await server.shutdown()
            try await Task.sleep(for: .milliseconds(300))
            // The listening socket is closed: a new connection fails.
            var fresh = HTTPClientRequest(url: server.url("/healthz"))
            fresh.method = .GET
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            await #expect(throws: (any Error).self) {
                _ = try await client.execute(fresh, timeout: .seconds(5))
            }
            try await client.shutdown()
            // The request in flight still gets every line.
            for _ in 0..<9 { held.lines.yield(Self.line) }
            held.lines.finish()
            let reply = try await held.reply.value
            #expect(reply.status == 200)
            #expect(reply.text.split(separator: "\n").count == 10)
        }
    }
}
