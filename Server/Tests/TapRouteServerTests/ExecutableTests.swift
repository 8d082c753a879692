import Foundation
import Synchronization
import TapRouteServer
import Testing

/// The built `taproute-server` executable: start-up, the logged port, SIGTERM, a bad
/// configuration.
@Suite("Executable", .serialized)
struct ExecutableTests {
    /// The executable beside the test bundle.
    static func binary() throws -> URL {
        let url = Bundle.main.bundleURL.appendingPathComponent("taproute-server")
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw TestFailure("no taproute-server at \(url.path); run 'swift build --build-tests --package-path Server'")
        }
        return url
    }

    /// A started executable and what it has written to standard error so far.
    final class Child: Sendable {
        let process: Process
        private let log = Mutex("")

        init(_ arguments: [String], in folder: URL = repositoryRoot) throws {
            let process = Process()
            process.executableURL = try ExecutableTests.binary()
            process.arguments = arguments
            process.currentDirectoryURL = folder
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            self.process = process
            try process.run()
            let handle = errors.fileHandleForReading
            Thread { [self] in
                while true {
                    let data = handle.availableData
                    if data.isEmpty { break }
                    append(String(decoding: data, as: UTF8.self))
                }
            }.start()
        }

        var stderr: String { log.withLock { $0 } }

        private func append(_ text: String) { log.withLock { $0 += text } }

        /// The port from the `listening` log line (waits up to 20 s).
        func port() async throws -> Int {
            for _ in 0..<400 {
                if let range = stderr.range(of: #"port=\d+"#, options: .regularExpression) {
                    return Int(stderr[range].dropFirst(5)) ?? 0
                }
                try await Task.sleep(for: .milliseconds(50))
            }
            throw TestFailure("no listening line: \(stderr)")
        }
    }

    @Test("--port 0 logs the bound port; SIGTERM finishes the request in flight, then the process exits 0")
    func sigterm() async throws {
        let child = try Child(["--port", "0", "--log-level", "notice"])
        let port = try await child.port()
        #expect(child.stderr.contains("listening"))
        let connection = try RawConnection(port: port)
        try connection.send(
            "POST /v1/normalize HTTP/1.1\r\nHost: test\r\nContent-Type: application/x-ndjson\r\nTransfer-Encoding: chunked\r\n\r\n"
        )
        func chunk(_ text: String) -> String { String(text.utf8.count, radix: 16) + "\r\n" + text + "\r\n" }
        try connection.send(chunk(#"{"kind":"url","url":"campaigndemoapp://products/1"}"# + "\n"))
        #expect(try connection.read(until: "products/1").contains("HTTP/1.1 200"))
        child.process.terminate()  // SIGTERM
        try await Task.sleep(for: .milliseconds(300))
        #expect(child.process.isRunning, "the process exited with a request in flight")
        try connection.send(chunk(#"{"kind":"url","url":"campaigndemoapp://products/2"}"# + "\n") + "0\r\n\r\n")
        let rest = try connection.read(until: "0\r\n\r\n")
        #expect(rest.contains("products/2"))
        for _ in 0..<200 where child.process.isRunning { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!child.process.isRunning)
        if !child.process.isRunning { #expect(child.process.terminationStatus == 0) }
    }

    @Test("An invalid configuration: the CLI's errors on standard error, exit status 2")
    func badConfiguration() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("taproute-server-bad-\(UUID().uuidString).yaml")
        try "adapters: [\n  - id: 5\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let child = try Child(["--port", "0", "--config", file.path])
        child.process.waitUntilExit()
        try await Task.sleep(for: .milliseconds(100))
        #expect(child.process.terminationStatus == 2)
        #expect(child.stderr.contains(file.path + ":"), "\(child.stderr)")
        #expect(child.stderr.contains("error"), "\(child.stderr)")
    }

    @Test(
        "A ./config.yaml found in the current directory: the same errors and note as the CLI's, exit status 2",
        arguments: [
            ["config.yaml": "server: {port: 8080}\n"],
            ["config.yaml": "adapters:\n  - id: nosuch\n"],
            ["config.yaml": "adapters:\n  - id: shop\n    definition: definitions/missing.yaml\n"],
            // An error in a definition file names that file, not ./config.yaml.
            [
                "config.yaml": "adapters:\n  - id: shop\n    definition: definitions/shop.yaml\n",
                "definitions/shop.yaml": "id: shop\nrecognize: [\n",
            ],
        ]
    )
    func configurationInTheCurrentDirectory(_ files: [String: String]) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("taproute-server-cwd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("definitions"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, text) in files { try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        let cli = Process()
        cli.executableURL = URL(fileURLWithPath: try normalizeBinary())
        cli.arguments = ["--lines"]
        cli.currentDirectoryURL = folder
        cli.standardInput = FileHandle.nullDevice
        cli.standardOutput = FileHandle.nullDevice
        let cliErrors = Pipe()
        cli.standardError = cliErrors
        try cli.run()
        let cliStderr = String(decoding: cliErrors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        cli.waitUntilExit()
        let child = try Child(["--port", "0"], in: folder)
        for _ in 0..<400 where child.process.isRunning { try await Task.sleep(for: .milliseconds(50)) }
        if child.process.isRunning { child.process.terminate() }
        try await Task.sleep(for: .milliseconds(100))
        #expect(cli.terminationStatus == 2)
        #expect(child.process.terminationStatus == 2)
        #expect(cliStderr.contains("./config.yaml") && cliStderr.contains("note: ./config.yaml was read"), "\(cliStderr)")
        #expect(child.stderr == cliStderr)
    }

    @Test("A request header over --max-header-bytes gets 400 and never reaches the service")
    func headerLimit() async throws {
        var options = ServerOptions()
        options.maxHeaderListBytes = 4096
        try await TestServer.with(options) { server in
            let connection = try RawConnection(port: server.port)
            try connection.send("GET /healthz HTTP/1.1\r\nHost: test\r\nX-Big: \(String(repeating: "a", count: 8192))\r\n\r\n")
            let reply = try connection.read(until: "\r\n\r\n")
            #expect(reply.hasPrefix("HTTP/1.1 400"))
            let fine = try await call(.GET, server.url("/healthz"))
            #expect(fine.status == 200)
        }
    }
}
