import ArgumentParser
import Foundation
import TapRoute
import TapRouteTestSupport
import Testing

@testable import normalize

/// The result of running the built `normalize` binary.
struct Run {
    var status: Int32
    var stdout: String
    var stderr: String

    var lines: [String] { stdout.split(separator: "\n").map(String.init) }
}

/// Holds data produced on another thread; read only after the group is waited on.
final class DataBox: @unchecked Sendable {
    var data = Data()
}

/// Ignores SIGPIPE in the test process, once.
let ignoreBrokenPipes: Void = {
    _ = signal(SIGPIPE, SIG_IGN)
}()

/// Runs the `normalize` binary built next to the test bundle.
func normalize(_ arguments: [String], stdin: String? = nil, in directory: String = TestPaths.repositoryRoot) throws -> Run {
    let products = Bundle.main.bundleURL.deletingLastPathComponent()
    let candidates = [products.appendingPathComponent("normalize"), Bundle.main.bundleURL.appendingPathComponent("normalize")]
    guard let binary = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: products.path + "/normalize"])
    }
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    let out = Pipe()
    let err = Pipe()
    let input = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input
    try process.run()
    // Write standard input and read standard error on other threads, so that a large input
    // or output cannot fill a pipe and deadlock.
    // A command that exits without reading its input (a usage error) closes the pipe: the
    // write must fail with EPIPE, not raise SIGPIPE and kill the whole test process.
    ignoreBrokenPipes
    let writer = input.fileHandleForWriting
    let data = Data((stdin ?? "").utf8)
    let group = DispatchGroup()
    DispatchQueue.global().async(group: group) {
        try? writer.write(contentsOf: data)
        try? writer.close()
    }
    let errorBox = DataBox()
    let errorHandle = err.fileHandleForReading
    DispatchQueue.global().async(group: group) { errorBox.data = errorHandle.readDataToEndOfFile() }
    let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    let stderrData = errorBox.data
    process.waitUntilExit()
    return Run(
        status: process.terminationStatus,
        stdout: String(decoding: stdoutData, as: UTF8.self),
        stderr: String(decoding: stderrData, as: UTF8.self)
    )
}

@Suite struct NormalizeCommandTests {
    @Test func everyShippedExampleNormalizes() throws {
        let examples = try FileManager.default.contentsOfDirectory(atPath: TestPaths.path("examples"))
            .filter { $0.hasSuffix(".json") }
            .sorted()
        #expect(!examples.isEmpty)
        // `message*.json` are outgoing messages, inputs of `normalize encode` (EncodeCommandTests).
        for example in examples where !example.hasPrefix("message") {
            let run = try normalize(["examples/" + example])
            #expect(run.status == 0, "\(example): \(run.stderr)\(run.stdout)")
            for line in run.lines {
                let value = try JSONValue(parsing: line)
                #expect(value["error"] == nil, "\(example): \(line)")
                _ = try Interaction(jsonValue: value)
            }
        }
    }

    @Test func routeFromConfigurationBecomesAScreen() throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("taproute-route-\(UUID().uuidString).yaml")
        try """
        app: {schemes: [campaigndemoapp]}
        routes:
          - url: "campaigndemoapp://products/{id}"
            screen: product
        security: {allowedSchemes: [https, campaigndemoapp]}
        """.write(to: config, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: config) }
        let run = try normalize(["--config", config.path], stdin: #"{"kind":"url","url":"campaigndemoapp://products/42?ref=push"}"#)
        #expect(run.status == 0)
        let value = try JSONValue(parsing: run.stdout)
        #expect(
            value["destination"] == [
                "type": "screen", "name": "product", "parameters": ["id": "42", "ref": "push"],
                "url": "campaigndemoapp://products/42?ref=push",
            ]
        )
        #expect(value["handling"] == "app")
    }

    @Test func badRecordsGetErrorRecordsAndTheRunContinues() throws {
        let run = try normalize(["examples/mixed.jsonl"])
        #expect(run.status == 1)
        #expect(run.lines.count == 4)
        let rejected = try JSONValue(parsing: run.lines[1])
        #expect(rejected["destination"] == ["type": "app"])
        #expect(rejected["warnings"]?.arrayValue?.first?["code"] == "urlRejected")
        let error = try JSONValue(parsing: run.lines[2])
        #expect(error["error"]?["code"] == "invalidJSON")
        #expect(error["error"]?["line"] == 3)
        #expect(error["error"]?["path"] == "$")
        #expect(error["error"]?["file"] == "examples/mixed.jsonl")
        #expect(try JSONValue(parsing: run.lines[3])["phase"] == "cold")
    }

    @Test func linesFromStandardInputKeepOrderAndSkipBlankLines() throws {
        let input = "{\"kind\":\"url\",\"url\":\"tel:1\"}\n\n[1]\n{\"kind\":\"url\",\"url\":\"tel:2\"}"
        let run = try normalize(["--lines"], stdin: input)
        #expect(run.status == 1)
        #expect(run.lines.count == 3)
        #expect(try JSONValue(parsing: run.lines[1])["error"]?["line"] == 3)
        #expect(try JSONValue(parsing: run.lines[2])["destination"]?["url"] == "tel:2")
    }

    @Test func documentArraysYieldOneOutputPerElement() throws {
        let run = try normalize(["-"], stdin: #"[{"kind":"url","url":"tel:1"},{"kind":"nope"}]"#)
        #expect(run.status == 1)
        #expect(run.lines.count == 2)
        #expect(try JSONValue(parsing: run.lines[1])["error"]?["path"] == "$[1].kind")
    }

    @Test func oversizedLinesAreErrorRecordsNotCrashes() throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("taproute-limits-\(UUID().uuidString).yaml")
        try "limits: {maxRecordBytes: 100}\n".write(to: config, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: config) }
        let long = #"{"kind":"url","url":"tel:"# + String(repeating: "1", count: 200_000) + "\"}"
        let run = try normalize(["--config", config.path, "--lines"], stdin: long + "\n" + #"{"kind":"url","url":"tel:2"}"# + "\n")
        #expect(run.lines.count == 2)
        #expect(try JSONValue(parsing: run.lines[0])["error"]?["code"] == "limitExceeded")
        #expect(try JSONValue(parsing: run.lines[1])["destination"]?["url"] == "tel:2")
    }

    @Test func brokenConfigurationExitsTwoWithLocation() throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("taproute-bad-\(UUID().uuidString).yaml")
        try "version: 1\nsecurity:\n  allowedSchemes: [https, javascript]\n".write(to: config, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: config) }
        let run = try normalize(["check-config", config.path])
        #expect(run.status == 2)
        #expect(run.stderr.contains("\(config.path):3:27: error: security.allowedSchemes[1]: scheme 'javascript' is never allowed"))
        let normalizeRun = try normalize(["--config", config.path], stdin: "{}")
        #expect(normalizeRun.status == 2)
    }

    @Test func checkConfigAdaptersAndRoute() throws {
        let check = try normalize(["check-config"])
        #expect(check.status == 0)
        #expect(check.stdout.contains("campaigndemoapp://products/{id} -> product"))
        let adapters = try normalize(["adapters"])
        #expect(adapters.status == 0)
        #expect(adapters.stdout.contains("link"))
        let route = try normalize(["route", "campaigndemoapp://products/7", "javascript:x"])
        #expect(route.status == 0)
        #expect(try JSONValue(parsing: route.lines[0])["destination"]?["name"] == "product")
        #expect(try JSONValue(parsing: route.lines[1])["destination"] == ["type": "app"])
    }

    @Test func parallelOutputIsIdenticalToSequentialAcrossBlocks() throws {
        // About 10 MB, so lines straddle the 4 MiB read blocks; every 97th line is broken.
        var input = ""
        for i in 0..<40_000 {
            if i % 97 == 0 {
                input += "{\"kind\":\"url\",\"url\":\n"
            } else {
                input += #"{"kind":"url","url":"campaigndemoapp://products/\#(i)?pad=\#(String(repeating: "x", count: i % 300))"}"# + "\n"
            }
        }
        let sequential = try normalize(["--lines", "--jobs", "1"], stdin: input)
        let parallel = try normalize(["--lines", "--jobs", "4"], stdin: input)
        #expect(sequential.status == 1)
        #expect(parallel.stdout == sequential.stdout)
        let lines = parallel.lines
        #expect(lines.count == 40_000)
        let errorLines = lines.compactMap { try? JSONValue(parsing: $0)["error"]?["line"]?.numberValue?.intValue }
        #expect(errorLines == Array(stride(from: 1, through: 40_000, by: 97)))
        // From a regular file, which is read a block ahead with more than one thread (its error
        // records name the file).
        let file = try Scratch.file("blocks.jsonl", input)
        let fromFile = try normalize(["--lines", "--jobs", "1", file])
        #expect(fromFile.status == 1 && fromFile.lines.count == 40_000)
        #expect(fromFile.stdout.replacingOccurrences(of: #","file":"\#(file)""#, with: "") == sequential.stdout)
        for jobs in ["2", "4"] {
            let run = try normalize(["--lines", "--jobs", jobs, file])
            #expect(run.status == 1 && run.stdout == fromFile.stdout, "--jobs \(jobs) on a file")
        }
    }

    @Test func usageErrorsExitTwo() throws {
        #expect(try normalize(["--no-such-flag"]).status == 2)
        #expect(try normalize(["no-such-file.json"]).status == 2)
        #expect(try normalize(["--vendor", "acme"], stdin: "{}").status == 2)
    }

    @Test func parsesOptionsInProcess() throws {
        let command = try Normalize.parseAsRoot(["--lines", "--pretty", "--vendor", "link", "a.jsonl"])
        let run = try #require(command as? NormalizeFiles)
        #expect(run.lines && run.pretty)
        #expect(run.vendor == "link")
        #expect(run.files == ["a.jsonl"])
        #expect(try Normalize.parseAsRoot(["check-config", "x.yaml"]) is CheckConfig)
    }
}
