import ArgumentParser
import Foundation
import NormalizeCore
import TapRoute
import TapRouteTestSupport
import Testing

@testable import normalize

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The never-lose-a-record guarantee (docs/reliability.md), end to end: the hostile corpus
/// (``HostileCorpus``, over 5,000 records) goes through the built `normalize` binary as one
/// JSON Lines stream on standard input.
///
/// - The process exits normally (status 1: some records failed), never on a signal.
/// - Exactly one output line per non-blank input line (blank lines are interleaved), in
///   input order: output line *i* is byte for byte what ``RecordProcessor`` gives for the
///   *i*-th non-blank record on its own; an oversized record (skipped while streaming, never
///   held in memory) is a `limitExceeded` record.
/// - Every error record names its input line (and the lines count blank lines).
/// - No Interaction has a destination that fails the URL safety rules.
/// - Peak RSS (VmHWM on Linux, `ru_maxrss` on Apple platforms) stays under ``peakRSSLimit``
///   although the stream is over 40 MB and holds 10 MB lines: memory is bounded by the read
///   block and the record limit, not by the input.
@Suite struct HostileCorpusTests {
    /// The bound on the binary's peak resident set size. The stream is about 48 MB; a debug
    /// build of `normalize` peaks around 35 MB on it (docs/reliability.md). A sanitizer build
    /// needs more: `TAPROUTE_HOSTILE_RSS_LIMIT_MB` overrides the bound (scripts/sanitizers.sh).
    static let peakRSSLimit: Int = {
        let megabytes = ProcessInfo.processInfo.environment["TAPROUTE_HOSTILE_RSS_LIMIT_MB"].flatMap { Int($0) } ?? 96
        return megabytes * 1024 * 1024
    }()

    /// The sequential path (`--jobs 1`) is the reference for the parallel one: one stream of
    /// every shipped vector's input and the hostile corpus gives the same bytes with
    /// `--jobs 1` and `--jobs 2` (docs/performance.md; the benchmark run compares the two on
    /// the 1M corpus).
    @Test func parallelAndSequentialAgreeOnEveryVectorAndTheHostileCorpus() throws {
        var stream: [UInt8] = []
        var folders = try FileManager.default.contentsOfDirectory(atPath: TestPaths.path("adapters")).sorted()
            .map { "adapters/\($0)/Vectors" }
        folders.append("Tests/ConformanceTests/Vectors/link")
        var vectors = 0
        for folder in folders {
            guard let files = try? FileManager.default.contentsOfDirectory(atPath: TestPaths.path(folder)) else { continue }
            for file in files.sorted() where file.hasSuffix(".json") {
                let text = try String(contentsOfFile: TestPaths.path("\(folder)/\(file)"), encoding: .utf8)
                guard let input = try JSONValue(parsing: text)["input"] else { continue }
                stream += Array(input.jsonString().utf8) + [0x0A]
                vectors += 1
            }
        }
        #expect(vectors > 250, "\(vectors) vectors")
        let records = try HostileCorpus.records()
        for record in records {
            stream += record
            stream.append(0x0A)
        }
        let configPath = TestPaths.path("config.yaml")
        let sequential = try spawnNormalize(["--config", configPath, "--lines", "--jobs", "1"], stdin: stream)
        let parallel = try spawnNormalize(["--config", configPath, "--lines", "--jobs", "2"], stdin: stream)
        #expect(sequential.signal == 0 && parallel.signal == 0)
        #expect(sequential.status == 1 && parallel.status == 1)
        #expect(sequential.stdout.filter { $0 == 0x0A }.count == vectors + records.count)
        #expect(parallel.stdout == sequential.stdout)
    }

    @Test func hostileCorpusStreamsOneOutputPerRecordInOrderWithBoundedMemory() throws {
        let records = try HostileCorpus.records()
        #expect(records.count >= 5_000)
        #expect(!records.contains { $0.contains(0x0A) }, "a record contains a newline")

        // The stream: records separated by newlines, a blank line (or one of spaces, tabs or
        // a CR) after every 50th record.
        var stream: [UInt8] = []
        var lineOfRecord: [Int] = []
        var lineNumber = 0
        let blanks: [[UInt8]] = [[], [0x20, 0x20], [0x09], [0x0D]]
        for (i, record) in records.enumerated() {
            lineNumber += 1
            lineOfRecord.append(lineNumber)
            stream += record
            stream.append(0x0A)
            if i % 50 == 49 {
                lineNumber += 1
                stream += blanks[(i / 50) % blanks.count]
                stream.append(0x0A)
            }
        }

        // TAPROUTE_HOSTILE_CORPUS=FILE also writes the stream there, to rerun it by hand
        // (docs/reliability.md).
        if let path = ProcessInfo.processInfo.environment["TAPROUTE_HOSTILE_CORPUS"], !path.isEmpty {
            try Data(stream).write(to: URL(fileURLWithPath: path))
        }
        let configPath = TestPaths.path("config.yaml")
        let run = try spawnNormalize(["--config", configPath, "--lines"], stdin: stream)
        #expect(run.signal == 0, "normalize died on signal \(run.signal); stderr: \(run.stderr.prefix(2000))")
        #expect(run.status == 1, "stderr: \(run.stderr.prefix(2000))")
        print(
            "hostile corpus: \(records.count) records, \(stream.count) bytes; normalize peak RSS \(run.peakRSS / 1024) KiB, \(run.seconds) s"
        )
        #expect(run.peakRSS > 0)
        #expect(run.peakRSS < Self.peakRSSLimit, "peak RSS \(run.peakRSS) bytes")

        let outputLines = run.stdout.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast()
        #expect(run.stdout.last == 0x0A)
        try #require(outputLines.count == records.count, "\(outputLines.count) output lines for \(records.count) records")

        let registry = try ConfigurationOptions.parse(["--config", configPath]).loadRegistry()
        let processor = RecordProcessor(registry: registry, vendor: nil, pretty: false)
        let limit = registry.configuration.limits.maxRecordBytes
        var mismatches = 0
        var errors = 0
        for (i, output) in zip(records.indices, outputLines) {
            let value = try JSONValue(parsing: String(decoding: output, as: UTF8.self))
            if let error = value["error"] {
                errors += 1
                #expect(error["line"] == .number(JSONNumber(lineOfRecord[i])), "record \(i): \(error.jsonString().prefix(300))")
                #expect(error["code"]?.stringValue?.isEmpty == false && error["message"]?.stringValue?.isEmpty == false)
            } else {
                let interaction = try Interaction(jsonValue: value)
                for destination in [interaction.destination] + interaction.buttons.map(\.destination) {
                    switch destination {
                    case .url(let url, _), .screen(_, _, let url?):
                        #expect((try? registry.policy.safety.check(url)) != nil, "record \(i): unsafe destination \(url)")
                    default: break
                    }
                }
            }
            if records[i].count > limit {
                #expect(value["error"]?["code"] == "limitExceeded", "record \(i) is over the limit: \(output.prefix(300))")
                continue
            }
            var alone = JSONOutputBuffer()
            records[i].withUnsafeBufferPointer { buffer in
                _ = processor.output(for: buffer, line: lineOfRecord[i], name: InputName(nil), into: &alone)
            }
            let expected = alone.withBytes { Array($0) }
            if Array(output) + [0x0A] != expected {
                mismatches += 1
                if mismatches <= 5 {
                    Issue.record(
                        "record \(i) (line \(lineOfRecord[i])): stream gave \(String(decoding: output.prefix(300), as: UTF8.self)), alone it gives \(String(decoding: expected.prefix(300), as: UTF8.self))"
                    )
                }
            }
        }
        #expect(mismatches == 0)
        #expect(errors > 100 && errors < records.count)
    }
}

/// A finished `normalize` run with its resource usage.
struct SpawnedRun {
    var status: Int32
    var signal: Int32
    var stdout: [UInt8]
    var stderr: String
    /// Peak resident set size in bytes.
    var peakRSS: Int
    var seconds: Double
}

/// Runs the built `normalize` binary with `stdin` as its standard input (from a file, so
/// nothing can deadlock) and measures its peak RSS.
func spawnNormalize(_ arguments: [String], stdin: [UInt8]) throws -> SpawnedRun {
    let products = Bundle.main.bundleURL.deletingLastPathComponent()
    let candidates = [products.appendingPathComponent("normalize"), Bundle.main.bundleURL.appendingPathComponent("normalize")]
    guard let binary = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: products.path + "/normalize"])
    }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("taproute-hostile-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let inputPath = directory.appendingPathComponent("in.jsonl").path
    let outputPath = directory.appendingPathComponent("out.jsonl").path
    let errorPath = directory.appendingPathComponent("err.txt").path
    try Data(stdin).write(to: URL(fileURLWithPath: inputPath))

    #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
    #else
        var actions = posix_spawn_file_actions_t()
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, inputPath, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

    let argv = ([binary.path] + arguments).map { strdup($0) } + [nil]
    let environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
        for pointer in argv { free(pointer) }
        for pointer in environment { free(pointer) }
    }
    let start = Date()
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, binary.path, &actions, nil, argv, environment)
    guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL) }
    var status: Int32 = 0
    var usage = rusage()
    #if canImport(Darwin)
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EINVAL) }
        }
        let peak = Int(usage.ru_maxrss)  // bytes
    #else
        // On Linux a spawned child's ru_maxrss starts at its parent's peak (the test process,
        // which holds the corpus): posix_spawn's vfork shares the parent's memory until exec.
        // The binary's own high-water mark is VmHWM in /proc/<pid>/status; it only grows, so
        // the last reading before the process exits is its peak (sampled every 2 ms).
        var peak = 0
        while true {
            let reaped = wait4(pid, &status, WNOHANG, &usage)
            if reaped == pid { break }
            if reaped < 0 {
                guard errno == EINTR else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EINVAL) }
                continue
            }
            if let bytes = ProcessMemory.peakResidentBytes(of: pid) { peak = max(peak, bytes) }
            usleep(2_000)
        }
    #endif
    let seconds = Date().timeIntervalSince(start)
    let signal = status & 0x7F
    return SpawnedRun(
        status: signal == 0 ? (status >> 8) & 0xFF : -1,
        signal: signal,
        stdout: Array(try Data(contentsOf: URL(fileURLWithPath: outputPath))),
        stderr: String(decoding: try Data(contentsOf: URL(fileURLWithPath: errorPath)), as: UTF8.self),
        peakRSS: peak,
        seconds: (seconds * 10).rounded() / 10
    )
}
