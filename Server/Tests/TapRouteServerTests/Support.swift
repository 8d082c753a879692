import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import TapRoute
import TapRouteServer
import Testing

/// The repository's root (the TapRoute package).
let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// A logger that drops everything (the tests read responses, not logs).
let quietLogger = Logger(label: "taproute-server-tests", factory: { _ in SwiftLogNoOpLogHandler() })

/// The server, started for real on a loopback port chosen by the system, with a registry loaded
/// as the executable loads it.
struct TestServer {
    /// The bound port.
    let port: Int
    /// The metrics the server keeps.
    let metrics: ServerMetrics
    /// Stops accepting connections and lets the requests in flight finish.
    let shutdown: @Sendable () async -> Void

    /// `http://127.0.0.1:PORT` + `path`.
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Runs `body` against a server started with `options` (port 0), then shuts it down.
    static func with<T: Sendable>(
        _ options: ServerOptions = ServerOptions(),
        _ body: (TestServer) async throws -> T
    ) async throws -> T {
        var options = options
        options.port = 0
        options.host = "127.0.0.1"
        let (registry, _) = try TapRouteServer.loadRegistry(configPath: options.configPath ?? "\(repositoryRoot.path)/config.yaml")
        let metrics = ServerMetrics()
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = TapRouteServer.makeApplication(
            registry: registry,
            options: options,
            metrics: metrics,
            logger: quietLogger,
            onListening: { _, port in continuation.yield(port) }
        )
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [app], logger: quietLogger))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { throw TestFailure("the server did not start") }
            let server = TestServer(port: port, metrics: metrics, shutdown: { await group.triggerGracefulShutdown() })
            do {
                let result = try await body(server)
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
                return result
            } catch {
                await group.triggerGracefulShutdown()
                try? await tasks.waitForAll()
                throw error
            }
        }
    }
}

/// A test's own failure.
struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A response: status, headers, whole body.
struct Reply {
    let status: Int
    let headers: [(String, String)]
    let body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }

    func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }
}

/// Sends one request and reads the whole reply.
func call(
    _ method: Method,
    _ url: String,
    contentType: String? = nil,
    body: [UInt8]? = nil
) async throws -> Reply {
    var request = HTTPClientRequest(url: url)
    request.method = .init(rawValue: method.rawValue)
    if let contentType { request.headers.add(name: "Content-Type", value: contentType) }
    if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
    let bytes = try await response.body.collect(upTo: 1 << 30)
    return Reply(
        status: Int(response.status.code),
        headers: response.headers.map { ($0.name, $0.value) },
        body: Array(bytes.readableBytesView)
    )
}

/// The `normalize` CLI built from the root package: `TAPROUTE_NORMALIZE`, else beside the test
/// bundle (`swift build --product normalize --package-path Server`), else the root package's
/// own `.build/debug` or `.build/release`.
func normalizeBinary() throws -> String {
    var candidates: [String] = []
    if let path = ProcessInfo.processInfo.environment["TAPROUTE_NORMALIZE"] { candidates.append(path) }
    candidates.append(Bundle.main.bundleURL.appendingPathComponent("normalize").path)
    candidates.append(repositoryRoot.appendingPathComponent(".build/debug/normalize").path)
    candidates.append(repositoryRoot.appendingPathComponent(".build/release/normalize").path)
    for path in candidates where FileManager.default.isExecutableFile(atPath: path) { return path }
    throw TestFailure(
        "no normalize binary (looked at \(candidates)); build it with 'swift build --product normalize --package-path Server'"
    )
}

/// What the `normalize` CLI writes to standard output for `arguments`, reading `input` on
/// standard input.
func runNormalize(_ arguments: [String], input: [UInt8] = []) throws -> [UInt8] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try normalizeBinary())
    process.arguments = arguments
    process.currentDirectoryURL = FileManager.default.temporaryDirectory
    let inputFile = FileManager.default.temporaryDirectory.appendingPathComponent("taproute-server-in-\(UUID().uuidString)")
    try Data(input).write(to: inputFile)
    defer { try? FileManager.default.removeItem(at: inputFile) }
    process.standardInput = try FileHandle(forReadingFrom: inputFile)
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Array(data)
}

/// The peak resident memory of this process so far (VmHWM), in bytes.
func peakResidentBytes() throws -> Int {
    let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return kilobytes * 1024
    }
    throw TestFailure("no VmHWM in /proc/self/status")
}

/// Resets this process's peak resident memory (VmHWM) to its current resident memory.
func resetPeakResident() throws {
    try Data("5".utf8).write(to: URL(fileURLWithPath: "/proc/self/clear_refs"))
}

/// The HTTP methods the tests send.
enum Method: String {
    case GET, POST, PUT, DELETE
}

/// A plain TCP connection to the server on loopback, for what an HTTP client library hides:
/// the order in which request bytes go out and response bytes come back.
final class RawConnection: Sendable {
    private let socket: Int32

    /// Connects to 127.0.0.1:`port`; reads wait at most `timeoutSeconds`. With
    /// `sendBufferBytes`, the kernel holds at most about that many bytes sent but not yet
    /// taken by the server (`SO_SNDBUF`; Linux's default grows to 4 MiB on loopback), so that
    /// what the sender has written is close to what the server has been given.
    init(port: Int, timeoutSeconds: Int = 10, sendBufferBytes: Int? = nil) throws {
        #if canImport(Glibc)
            socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { throw TestFailure("socket() failed") }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if var size = sendBufferBytes.map(Int32.init) {
            // Before connecting, so that the connection's window is set from it.
            setsockopt(socket, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(socket)
            throw TestFailure("connect() failed")
        }
    }

    deinit { close(socket) }

    /// Sends all of `bytes`.
    func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { raw in
                #if canImport(Glibc)
                    Glibc.send(socket, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL))
                #else
                    Darwin.send(socket, raw.baseAddress, raw.count, 0)
                #endif
            }
            guard n > 0 else { throw TestFailure("send() failed") }
            sent += n
        }
    }

    /// Sends `text`.
    func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Reads what has arrived into `buffer` (waiting for some); returns the count, 0 at the end
    /// or on a timeout.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        max(0, recv(socket, buffer.baseAddress, buffer.count, 0))
    }

    /// Reads until what was read contains `marker` (or the timeout); returns everything read.
    func read(until marker: String) throws -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !String(decoding: received, as: UTF8.self).contains(marker) {
            let n = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { break }
            received += buffer[0..<n]
        }
        return String(decoding: received, as: UTF8.self)
    }
}

extension RawConnection {
    /// Reads a chunked JSON Lines response to its end; returns the number of output lines
    /// (each ends with `}` and a newline) and what `sentSoFar` said when the first arrived.
    func countOutputLines(sentSoFar: () -> Int) -> (lines: Int, sentAtFirstOutput: Int) {
        var lines = 0
        var sentAtFirst = -1
        var previous: UInt8 = 0
        var tail: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(into: $0) }
            guard n > 0 else { break }
            for byte in buffer[0..<n] {
                if byte == 0x0A && previous == 0x7D {
                    lines += 1
                    if sentAtFirst < 0 { sentAtFirst = sentSoFar() }
                }
                previous = byte
            }
            tail = Array((tail + buffer[0..<n]).suffix(5))
            if tail == Array("0\r\n\r\n".utf8) { break }
        }
        return (lines, sentAtFirst)
    }
}
