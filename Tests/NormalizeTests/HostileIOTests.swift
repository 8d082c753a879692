import Foundation
import TapRoute
import TapRouteTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `normalize` binary under hostile I/O (docs/cli.md, "Input and output errors", and
/// docs/reliability.md): write errors, read errors, closed and non-blocking descriptors, slow
/// streams, unbounded documents and output amplification — each run through the built binary
/// with its descriptors set up by `posix_spawn`.
@Suite struct HostileIOTests {
    static let record = #"{"kind":"url","url":"tel:1"}"#

    /// The peak memory the binary may reach on the amplification inputs: 64 MiB, or
    /// `TAPROUTE_HOSTILE_RSS_LIMIT_MB` for a sanitized binary, whose shadow memory and
    /// quarantine take more (scripts/sanitizers.sh sets it, as for the hostile corpus).
    static let memoryBound: Int =
        (ProcessInfo.processInfo.environment["TAPROUTE_HOSTILE_RSS_LIMIT_MB"].flatMap { Int($0) } ?? 64) << 20

    // MARK: Write errors

    @Test func writeErrorsOnStandardOutputFailTheRun() throws {
        let input = try Scratch.file("in.jsonl", String(repeating: Self.record + "\n", count: 300))
        // ENOSPC.
        let full = try Child.run(["--lines", input], stdout: .path("/dev/full"))
        #expect(full.signal == 0 && full.status == 2, "\(full)")
        #expect(full.stderr.contains("cannot write to standard output: No space left on device"), "\(full)")
        // EBADF: standard output closed.
        let closed = try Child.run(["--lines", input], stdout: .closed)
        #expect(closed.signal == 0 && closed.status == 2, "\(closed)")
        #expect(closed.stderr.contains("cannot write to standard output"), "\(closed)")
        // EPIPE with SIGPIPE ignored (the test process ignores it and the child inherits that).
        let broken = try Child.run(["--lines", input], stdout: .brokenPipe)
        #expect(broken.signal == 0 && broken.status == 2, "\(broken)")
        #expect(broken.stderr.contains("cannot write to standard output: Broken pipe"), "\(broken)")
        // Documents too.
        let document = try Child.run([], stdin: .bytes(Array(Self.record.utf8)), stdout: .path("/dev/full"))
        #expect(document.status == 2 && document.stderr.contains("No space left on device"), "\(document)")
    }

    /// With more than one thread a regular file's next block is read ahead, but a pipe is not:
    /// a run whose output has failed ends without waiting for input that has not come.
    @Test func aWriteErrorEndsTheRunWhileStandardInputStaysOpen() throws {
        for arguments in [["--lines", "--jobs", "2"], ["--lines", "--jobs", "1"]] {
            let ended = try Child.exitWhileInputStaysOpen(arguments, record: Array((Self.record + "\n").utf8))
            #expect(ended?.status == 2, "\(arguments): \(String(describing: ended))")
            #expect(ended.map { $0.seconds < 10 } == true, "\(arguments): \(String(describing: ended))")
        }
    }

    @Test func subcommandsReportWriteErrors() throws {
        let aasa = TestPaths.path("examples/aasa/apple-example.json")
        let commands: [[String]] = [
            ["--help"], ["check-config"], ["adapters"], ["route", "campaigndemoapp://products/7"],
            ["aasa", "lint", aasa],
            ["aasa", "match", "--file", aasa, "--app-id", "ABCDE12345.com.example.app", "https://example.com/buy/1"],
        ]
        #expect(FileManager.default.fileExists(atPath: aasa))
        for command in commands {
            let ok = try Child.run(command)
            #expect(ok.status == 0 || ok.status == 1, "\(command): \(ok)")
            #expect(!ok.stdout.isEmpty, "\(command)")
            let run = try Child.run(command, stdout: .path("/dev/full"))
            #expect(run.signal == 0 && run.status == 2, "\(command): \(run)")
            #expect(run.stderr.contains("cannot write to standard output: No space left on device"), "\(command): \(run)")
        }
    }

    @Test func aFullStandardErrorNeverCrashes() throws {
        let run = try Child.run(["--lines", "missing.jsonl"], stderr: .path("/dev/full"))
        #expect(run.signal == 0, "died on signal \(run.signal)")
        #expect(run.status == 2)
        let both = try Child.run(["--lines", "missing.jsonl"], stdout: .path("/dev/full"), stderr: .path("/dev/full"))
        #expect(both.signal == 0 && both.status == 2)
        let usage = try Child.run(["--no-such-flag"], stderr: .path("/dev/full"))
        #expect(usage.signal == 0 && usage.status == 2)
    }

    // MARK: Read errors

    @Test func readErrorsNameTheInputAndFailTheRun() throws {
        let directory = try Scratch.directory("d.jsonl")
        for arguments in [[directory], ["--lines", directory]] {
            let run = try Child.run(arguments)
            #expect(run.signal == 0 && run.status == 2, "\(arguments): \(run)")
            #expect(run.stderr.contains("cannot read '\(directory)': Is a directory"), "\(arguments): \(run)")
        }
        for arguments in [["--lines"], []] {
            let run = try Child.run(arguments, stdin: .closed)
            #expect(run.signal == 0 && run.status == 2, "\(arguments): \(run)")
            #expect(run.stderr.contains("cannot read standard input: Bad file descriptor"), "\(arguments): \(run)")
        }
    }

    @Test func readableInputsAreProcessedAroundAnUnreadableOne() throws {
        let ok = try Scratch.file("ok.jsonl", String(repeating: Self.record + "\n", count: 300))
        let missing = ok.replacingOccurrences(of: "ok.jsonl", with: "missing.jsonl")
        let run = try Child.run(["--lines", ok, missing, ok])
        #expect(run.status == 2, "\(run)")
        #expect(run.lines.count == 600, "\(run.lines.count) output lines")
        #expect(run.lines.allSatisfy { $0.contains("\"tel:1\"") })
        #expect(run.stderr.contains("cannot open '\(missing)': No such file or directory"), "\(run)")
        // Record errors in the readable files do not change it: 2 wins over 1.
        let bad = try Scratch.file("bad.jsonl", "[1]\n")
        #expect(try Child.run(["--lines", bad, missing]).status == 2)
        #expect(try Child.run(["--lines", bad, ok]).status == 1)
    }

    @Test func aNonBlockingPipeIsWaitedOnNotEnded() throws {
        let chunks = (0..<6).map { i in Array(String(repeating: Self.record + "\n", count: 50 + i).utf8) }
        let run = try Child.run(["--lines"], stdin: .slowPipe(chunks: chunks, pause: 0.15, nonBlocking: true))
        #expect(run.status == 0, "\(run)")
        #expect(run.lines.count == chunks.map { $0.count }.reduce(0, +) / (Self.record.utf8.count + 1))
    }

    @Test func aNonBlockingStandardOutputIsWaitedOnNotDropped() throws {
        let records = 5_000
        let input = try Scratch.file("many.jsonl", String(repeating: Self.record + "\n", count: records))
        let output = try Child.outputThroughNonBlockingPipe(["--lines", input], readAfter: 0.3)
        #expect(output.status == 0)
        #expect(output.lines == records, "\(output.lines) of \(records) lines")
    }

    // MARK: Streaming latency

    @Test func aRecordOnAnOpenPipeIsWrittenWithoutWaitingForMore() throws {
        for arguments in [["--lines"], ["--lines", "--jobs", "1"]] {
            let latency = try Child.firstLineLatency(arguments, record: Array((Self.record + "\n").utf8))
            #expect(latency != nil && latency! < 2.0, "\(arguments): \(String(describing: latency)) s")
        }
        // An element of a document array is written when it is complete, before the array is.
        let latency = try Child.firstLineLatency([], record: Array(("[" + Self.record + ",").utf8))
        #expect(latency != nil && latency! < 2.0, "document: \(String(describing: latency)) s")
    }

    // MARK: Blank lines

    @Test func aLongBlankLineIsSkippedWhereverTheBlocksFall() throws {
        let config = try Scratch.file("limits.yaml", "limits: {maxRecordBytes: 100}\n")
        let blank = String(repeating: " \t", count: 100) + "\r"
        // A long blank line first, records up to 100 bytes before the end of the first 4 MiB
        // read block, a long blank line across it, and a long blank line at the end.
        let filler = Self.record + "\n"
        let prefix = blank + "\n"
        let count = ((1 << 22) - 100 - prefix.utf8.count) / filler.utf8.count
        var text = prefix + String(repeating: filler, count: count)
        let pad = (1 << 22) - 100 - text.utf8.count - 1
        if pad >= 0 { text += String(repeating: " ", count: pad) + "\n" }  // blank, under the limit
        text += blank + "\n" + filler + blank
        let file = try Scratch.file("blank.jsonl", text)
        let records = count + 1
        for arguments in [["--config", config, file], ["--config", config, "--lines", "-"]] {
            let run = try Child.run(arguments, stdin: .path(file))
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
            #expect(run.lines.count == records, "\(arguments): \(run.lines.count) lines for \(records) records")
            #expect(!run.lines.contains { $0.contains("limitExceeded") })
        }
        // A non-blank line over the limit is one limitExceeded record, wherever it falls.
        let long = "{\"x\":\"" + String(repeating: "1", count: 200) + "\"}"
        let mixed = try Scratch.file("long.jsonl", long + "\n" + String(repeating: filler, count: count) + long + "\n" + filler)
        let run = try Child.run(["--config", config, mixed])
        #expect(run.lines.count == count + 3)
        #expect(run.lines.filter { $0.contains("\"limitExceeded\"") }.count == 2)
        #expect(run.lines[0].contains("record is 208 bytes; limits.maxRecordBytes is 100"), "\(run.lines[0])")
    }

    // MARK: Documents

    @Test func documentModeReadsAtMostTheRecordLimit() throws {
        let run = try Child.run([], stdin: .path("/dev/zero"), measure: true)
        #expect(run.signal == 0 && run.status == 1, "\(run)")
        #expect(run.lines.count == 1 && run.lines[0].contains("\"limitExceeded\""), "\(run.stdout.prefix(500))")
        #expect(run.peakRSS < Self.memoryBound, "peak RSS \(run.peakRSS)")
        // Blanks after a complete document are not part of its record (as around an element):
        // they are counted, never kept, however many there are.
        let config = try Scratch.file("limits.yaml", "limits: {maxRecordBytes: 100}\n")
        let padded = try Child.run(["--config", config], stdin: .bytes(Array((Self.record + String(repeating: " ", count: 200)).utf8)))
        #expect(padded.status == 0 && padded.lines.count == 1 && padded.lines[0].contains("\"tel:1\""), "\(padded)")
        let blanks = try Scratch.file("blanks.json", Self.record + String(repeating: " \n", count: 8 << 20))
        let endless = try Child.run(["--config", config, blanks], measure: true)
        #expect(endless.status == 0 && endless.lines.count == 1, "\(endless)")
        #expect(endless.peakRSS < Self.memoryBound, "peak RSS \(endless.peakRSS)")
        // Content after the blanks makes them part of the record, which is then over the limit.
        let late = try Child.run(["--config", config], stdin: .bytes(Array((Self.record + String(repeating: " ", count: 200) + "1").utf8)))
        #expect(late.status == 1 && late.lines.count == 1 && late.lines[0].contains("limitExceeded"), "\(late)")
    }

    @Test func documentArraysStreamEachElementAsARecord() throws {
        let config = try Scratch.file("limits.yaml", "limits: {maxRecordBytes: 100}\n")
        let long = "{\"kind\":\"url\",\"url\":\"tel:" + String(repeating: "1", count: 300_000) + "\"}"
        let text = "[\n  " + Self.record + ",\n  " + long + ",\n  " + Self.record + "\n]\n"
        let run = try Child.run(["--config", config], stdin: .bytes(Array(text.utf8)))
        #expect(run.status == 1)
        try #require(run.lines.count == 3, "\(run)")
        let error = try JSONValue(parsing: run.lines[1])["error"]
        #expect(error?["code"] == "limitExceeded")
        #expect(error?["path"] == "$[1]")
        #expect(error?["line"] == 3)
        #expect(run.lines[2].contains("\"tel:1\""))

        // A large array: memory stays bounded by the record limit, not the document.
        var big = Array("[".utf8)
        let element = Array((Self.record + ",\n").utf8)
        let elements = 300_000
        big.reserveCapacity(elements * element.count + 64)
        for _ in 0..<elements { big += element }
        big += Array((Self.record + "]").utf8)
        let file = try Scratch.file("big.json", String(decoding: big, as: UTF8.self))
        let streamed = try Child.run([file], stdout: .path("/dev/null"), measure: true)
        #expect(streamed.status == 0, "\(streamed)")
        #expect(streamed.peakRSS < Self.memoryBound, "peak RSS \(streamed.peakRSS) for a \(big.count)-byte document")
    }

    @Test func documentsAndLinesShareOneDepthLimit() throws {
        let config = try Scratch.file("depth.yaml", "limits: {maxDepth: 5}\n")
        func nested(_ depth: Int) -> String {
            // An envelope `depth` levels deep: the envelope, userInfo, then arrays.
            let arrays = depth - 2
            return #"{"kind":"notification","userInfo":{"x":"# + String(repeating: "[", count: arrays)
                + String(repeating: "]", count: arrays) + "}}"
        }
        for (depth, tooDeep) in [(5, false), (6, true)] {
            let text = nested(depth)
            let asDocument = try Child.run(["--config", config], stdin: .bytes(Array(text.utf8)))
            let asLine = try Child.run(["--config", config, "--lines"], stdin: .bytes(Array((text + "\n").utf8)))
            let asElement = try Child.run(["--config", config], stdin: .bytes(Array(("[" + text + "]").utf8)))
            for run in [asDocument, asLine, asElement] {
                #expect(run.lines.count == 1, "\(run)")
                #expect(run.lines.first?.contains("\"limitExceeded\"") == tooDeep, "depth \(depth): \(run.stdout)")
            }
        }
    }

    // MARK: Output memory and --pretty

    @Test func outputIsWrittenInBoundedChunks() throws {
        // 2-byte junk lines, each an error record naming a 3,000-byte file argument.
        let junk = try Scratch.file("junk.jsonl", String(repeating: "x\n", count: 1 << 17))
        let url = URL(fileURLWithPath: junk)
        let longName = url.deletingLastPathComponent().path + String(repeating: "/.", count: 1_500) + "/" + url.lastPathComponent
        let named = try Child.run(["--lines", longName], stdout: .path("/dev/null"), measure: true)
        #expect(named.status == 1, "\(named)")
        #expect(named.peakRSS < Self.memoryBound, "peak RSS \(named.peakRSS)")
        // Stretches of such lines between stretches of short records: at most 2 MiB of input
        // is held in runs not yet written, and a run buffer that a run of much larger output
        // grew gives the memory back once it is written.
        let record = Self.record + "\n"
        let rounds = String(repeating: "x\n", count: 4096) + String(repeating: record, count: 4096)
        let alternatingURL = URL(fileURLWithPath: try Scratch.file("alternating.jsonl", String(repeating: rounds, count: 12)))
        let alternatingName =
            alternatingURL.deletingLastPathComponent().path + String(repeating: "/.", count: 1_500) + "/" + alternatingURL.lastPathComponent
        for jobs in ["1", "2"] {
            let run = try Child.run(["--lines", "--jobs", jobs, alternatingName], stdout: .path("/dev/null"), measure: true)
            #expect(run.status == 1, "\(run)")
            #expect(run.peakRSS < Self.memoryBound, "--jobs \(jobs): peak RSS \(run.peakRSS)")
        }
        let manyJunk = try Scratch.file("junk2.jsonl", String(repeating: "x\n", count: 1 << 20))
        let fromStdin = try Child.run(["--lines"], stdin: .path(manyJunk), stdout: .path("/dev/null"), measure: true)
        #expect(fromStdin.status == 1)
        #expect(fromStdin.peakRSS < Self.memoryBound, "peak RSS \(fromStdin.peakRSS)")
        // The records are all there.
        let counted = try Child.run(["--lines", junk, "--jobs", "2"])
        #expect(counted.lines.count == 1 << 17)
    }

    @Test func prettyOutputGrowsLinearlyWithDepth() throws {
        let config = try Scratch.file(
            "deep.yaml",
            try String(contentsOfFile: TestPaths.path("config.yaml"), encoding: .utf8)
                .replacingOccurrences(of: "maxDepth: 128", with: "maxDepth: \(Limits.depthCeiling)")
        )
        func prettySize(_ depth: Int) throws -> Int {
            let text =
                #"{"kind":"notification","userInfo":{"aps":{"alert":"x"},"_mId":"h1","_dId":"a1","deep":"#
                + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}}"
            let run = try Child.run(["--config", config, "--pretty"], stdin: .bytes(Array(text.utf8)))
            #expect(run.status == 0, "\(run.stdout.prefix(300))")
            return run.stdout.utf8.count
        }
        let small = try prettySize(240)
        let large = try prettySize(480)
        let ratio = Double(large) / Double(small)
        // Twice the depth: about twice the output (four times if the indentation grew with it).
        #expect(ratio < 2.5, "\(small) -> \(large) bytes, ratio \(ratio)")
        #expect(ratio > 1.5)
    }

    /// The deepest record the limits can accept (`maxDepth` at its ceiling) goes through every
    /// path of the CLI — a JSON line, a document, an element of a document's array, compact and
    /// pretty output, and JSON of that depth held in a vendor's string — without exhausting a
    /// stack; one level more is a `limitExceeded` record.
    @Test func theDeepestRecordTheLimitsAllowNeverCrashes() throws {
        let ceiling = Limits.depthCeiling
        let config = try Scratch.file(
            "ceiling.yaml",
            try String(contentsOfFile: TestPaths.path("config.yaml"), encoding: .utf8)
                .replacingOccurrences(of: "maxDepth: 128", with: "maxDepth: \(ceiling)")
        )
        // The record is 3 levels (envelope, userInfo, the value's holder) around `levels` arrays,
        // or around `levels` objects of more members than an object's index threshold with the
        // deeper one last: each of those levels is read by both of the parser's object loops,
        // the main one and the one for large objects (two stack frames a level).
        func record(_ levels: Int, wide: Bool) -> String {
            let padding = (0...JSONObject.indexThreshold).map { "\"p\($0)\":\($0)," }.joined()
            let value =
                wide
                ? String(repeating: "{" + padding + "\"n\":", count: levels - 1) + "{}" + String(repeating: "}", count: levels - 1)
                : String(repeating: "[", count: levels) + String(repeating: "]", count: levels)
            return #"{"kind":"notification","userInfo":{"aps":{"alert":"x"},"_mId":"h1","_dId":"a1","deep":"# + value + "}}"
        }
        for (wide, pretty) in [(false, false), (false, true), (true, false), (true, true)] {
            let deepest = record(ceiling - 2, wide: wide)
            let tooDeep = record(ceiling - 1, wide: wide)
            let flags = ["--config", config] + (pretty ? ["--pretty"] : [])
            for jobs in ["1", "2"] {
                let line = try Child.run(
                    flags + ["--lines", "--jobs", jobs],
                    stdin: .bytes(Array((deepest + "\n" + tooDeep + "\n").utf8))
                )
                #expect(line.status == 1, "wide \(wide), --jobs \(jobs): \(line.stdout.prefix(200))")
                #expect(line.stdout.contains(#""vendor""#) && line.stdout.contains("limitExceeded"))
            }
            let document = try Child.run(flags, stdin: .bytes(Array(deepest.utf8)))
            #expect(document.status == 0, "wide \(wide), pretty \(pretty): \(document.stdout.prefix(200))")
            #expect(document.stdout.contains(#""vendor""#))
            let array = try Child.run(flags, stdin: .bytes(Array(("[" + deepest + "," + tooDeep + "]").utf8)))
            #expect(array.status == 1, "wide \(wide), pretty \(pretty): \(array.stdout.prefix(200))")
            #expect(array.stdout.contains("limitExceeded"))
        }
        // JSON of the deepest allowed depth held in a string (Bird's payload, at depth 3 of
        // the envelope: maxDepth − 2 levels) is decoded and written out.
        let levels = ceiling - 2
        let held = String(repeating: "[", count: levels - 1) + String(repeating: "]", count: levels - 1)
        let event: JSONValue = [
            "kind": "vendorEvent",
            "event": ["type": "Tap", "action": ["type": "OPEN_APP"], "payload": .string(#"{"x":"# + held + "}")],
        ]
        for flags in [["--config", config], ["--config", config, "--pretty"]] {
            let run = try Child.run(flags, stdin: .bytes(Array(event.jsonString().utf8)))
            #expect(run.status == 0, "\(run.stdout.prefix(300))")
            #expect(!run.stdout.contains("payloadNotJSON"))
        }
    }
}

#if canImport(Darwin)
    typealias SpawnActions = posix_spawn_file_actions_t?
#else
    typealias SpawnActions = posix_spawn_file_actions_t
#endif

/// Files and directories for one test run, removed when the process ends.
enum Scratch {
    static let root: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("taproute-io-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: Scratch.root) }
        return url
    }()

    /// Writes `text` to a new file; returns its path.
    static func file(_ name: String, _ text: String) throws -> String {
        let url = root.appendingPathComponent(UUID().uuidString).appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// Creates a directory; returns its path.
    static func directory(_ name: String) throws -> String {
        let url = root.appendingPathComponent(UUID().uuidString).appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }
}

/// The built `normalize` binary run with chosen standard descriptors.
struct Child: CustomStringConvertible {
    /// Where standard input comes from.
    enum Input {
        case bytes([UInt8])
        case path(String)
        case closed
        /// A pipe written `chunks` with `pause` seconds between them, then closed.
        case slowPipe(chunks: [[UInt8]], pause: Double, nonBlocking: Bool)
    }

    /// Where standard output or error goes (captured to a file by default).
    enum Output {
        case capture
        case path(String)
        case closed
        /// A pipe whose reading end is closed.
        case brokenPipe
    }

    var status: Int32
    var signal: Int32
    var stdout: String
    var stderr: String
    var peakRSS: Int

    var lines: [String] { stdout.split(separator: "\n").map(String.init) }
    var description: String { "status \(status), signal \(signal), stderr: \(stderr.prefix(500)), stdout: \(stdout.prefix(300))" }

    static func binary() throws -> String {
        let products = Bundle.main.bundleURL.deletingLastPathComponent()
        let candidates = [products.appendingPathComponent("normalize"), Bundle.main.bundleURL.appendingPathComponent("normalize")]
        guard let binary = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: products.path + "/normalize"])
        }
        return binary.path
    }

    /// Runs the binary to completion; with `measure`, samples its peak RSS (VmHWM, Linux).
    static func run(
        _ arguments: [String],
        stdin: Input = .bytes([]),
        stdout: Output = .capture,
        stderr: Output = .capture,
        measure: Bool = false
    ) throws -> Child {
        // A child that exits early must not kill the test process when a pipe is written.
        ignoreBrokenPipes
        let scratch = Scratch.root.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outPath = scratch.appendingPathComponent("out").path
        let errPath = scratch.appendingPathComponent("err").path

        var actions = SpawnActions()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var parentEnds: [Int32] = []  // closed in the parent after the spawn
        var writer: Int32 = -1
        switch stdin {
        case .bytes(let bytes):
            let inPath = scratch.appendingPathComponent("in").path
            try Data(bytes).write(to: URL(fileURLWithPath: inPath))
            posix_spawn_file_actions_addopen(&actions, 0, inPath, O_RDONLY, 0)
        case .path(let path):
            posix_spawn_file_actions_addopen(&actions, 0, path, O_RDONLY, 0)
        case .closed:
            posix_spawn_file_actions_addclose(&actions, 0)
        case .slowPipe(_, _, let nonBlocking):
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { throw POSIXError(.EMFILE) }
            if nonBlocking { _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK) }
            _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
            posix_spawn_file_actions_adddup2(&actions, ends[0], 0)
            posix_spawn_file_actions_addclose(&actions, ends[0])
            parentEnds.append(ends[0])
            writer = ends[1]
        }
        for (descriptor, output, path) in [(Int32(1), stdout, outPath), (Int32(2), stderr, errPath)] {
            switch output {
            case .capture: posix_spawn_file_actions_addopen(&actions, descriptor, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            case .path(let target): posix_spawn_file_actions_addopen(&actions, descriptor, target, O_WRONLY, 0)
            case .closed: posix_spawn_file_actions_addclose(&actions, descriptor)
            case .brokenPipe:
                var ends: [Int32] = [0, 0]
                guard pipe(&ends) == 0 else { throw POSIXError(.EMFILE) }
                _ = close(ends[0])
                posix_spawn_file_actions_adddup2(&actions, ends[1], descriptor)
                posix_spawn_file_actions_addclose(&actions, ends[1])
                parentEnds.append(ends[1])
            }
        }
        let pid = try spawn(arguments, actions: &actions)
        for end in parentEnds { _ = close(end) }
        if case .slowPipe(let chunks, let pause, _) = stdin {
            for chunk in chunks {
                usleep(useconds_t(pause * 1_000_000))
                chunk.withUnsafeBytes { raw in
                    var written = 0
                    while written < raw.count {
                        let n = write(writer, raw.baseAddress! + written, raw.count - written)
                        if n > 0 { written += n } else if errno != EINTR { break }
                    }
                }
            }
            _ = close(writer)
        }
        var status: Int32 = 0
        var peak = 0
        while true {
            let reaped = waitpid(pid, &status, measure ? WNOHANG : 0)
            if reaped == pid { break }
            if reaped < 0 {
                guard errno == EINTR else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EINVAL) }
                continue
            }
            if let bytes = ProcessMemory.peakResidentBytes(of: pid) { peak = max(peak, bytes) }
            usleep(2_000)
        }
        let signal = status & 0x7F
        func contents(_ path: String) -> String {
            (try? Data(contentsOf: URL(fileURLWithPath: path))).map { String(decoding: $0, as: UTF8.self) } ?? ""
        }
        return Child(
            status: signal == 0 ? (status >> 8) & 0xFF : -1,
            signal: signal,
            stdout: contents(outPath),
            stderr: contents(errPath),
            peakRSS: peak
        )
    }

    /// Writes `record` into a pipe that stays open and returns how long the first output line
    /// took to arrive (`nil` if none came within 10 s); then closes the pipe and reaps the child.
    static func firstLineLatency(_ arguments: [String], record: [UInt8]) throws -> Double? {
        ignoreBrokenPipes
        var input: [Int32] = [0, 0]
        var output: [Int32] = [0, 0]
        guard pipe(&input) == 0, pipe(&output) == 0 else { throw POSIXError(.EMFILE) }
        _ = fcntl(input[1], F_SETFD, FD_CLOEXEC)
        _ = fcntl(output[0], F_SETFD, FD_CLOEXEC)
        var actions = SpawnActions()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_addclose(&actions, input[0])
        posix_spawn_file_actions_addclose(&actions, output[1])
        let pid = try spawn(arguments, actions: &actions)
        _ = close(input[0])
        _ = close(output[1])
        let start = Date()
        _ = record.withUnsafeBytes { write(input[1], $0.baseAddress!, $0.count) }
        var latency: Double?
        var received: [UInt8] = []
        var entry = pollfd(fd: output[0], events: Int16(POLLIN), revents: 0)
        while latency == nil && Date().timeIntervalSince(start) < 10 {
            guard poll(&entry, 1, 100) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = read(output[0], &buffer, buffer.count)
            if n <= 0 { break }
            received += buffer[0..<n]
            if received.contains(0x0A) { latency = Date().timeIntervalSince(start) }
        }
        _ = close(input[1])
        _ = close(output[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return latency
    }

    /// Writes `record` into a pipe that stays open, with standard output `/dev/full`; returns the
    /// exit status and how long the child took to end (`nil` if it had not ended within 10 s),
    /// then closes the pipe and reaps the child.
    static func exitWhileInputStaysOpen(_ arguments: [String], record: [UInt8]) throws -> (status: Int32, seconds: Double)? {
        ignoreBrokenPipes
        var input: [Int32] = [0, 0]
        guard pipe(&input) == 0 else { throw POSIXError(.EMFILE) }
        _ = fcntl(input[1], F_SETFD, FD_CLOEXEC)
        var actions = SpawnActions()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_addclose(&actions, input[0])
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/full", O_WRONLY, 0)
        let pid = try spawn(arguments, actions: &actions)
        _ = close(input[0])
        let start = Date()
        _ = record.withUnsafeBytes { write(input[1], $0.baseAddress!, $0.count) }
        var status: Int32 = 0
        var ended: (status: Int32, seconds: Double)?
        while ended == nil && Date().timeIntervalSince(start) < 10 {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid {
                ended = ((status & 0x7F) == 0 ? (status >> 8) & 0xFF : -1, Date().timeIntervalSince(start))
            } else {
                usleep(10_000)
            }
        }
        _ = close(input[1])
        if ended == nil { while waitpid(pid, &status, 0) < 0 && errno == EINTR {} }
        return ended
    }

    /// Runs the binary with standard output on a non-blocking pipe that is read only after
    /// `readAfter` seconds (so the child meets a full pipe), then to its end; returns the exit
    /// status and the number of lines read.
    static func outputThroughNonBlockingPipe(_ arguments: [String], readAfter: Double) throws -> (status: Int32, lines: Int) {
        ignoreBrokenPipes
        var output: [Int32] = [0, 0]
        guard pipe(&output) == 0 else { throw POSIXError(.EMFILE) }
        _ = fcntl(output[1], F_SETFL, fcntl(output[1], F_GETFL) | O_NONBLOCK)
        _ = fcntl(output[0], F_SETFD, FD_CLOEXEC)
        var actions = SpawnActions()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_addclose(&actions, output[1])
        let pid = try spawn(arguments, actions: &actions)
        _ = close(output[1])
        usleep(useconds_t(readAfter * 1_000_000))
        var lines = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = read(output[0], &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            lines += buffer[0..<n].count(where: { $0 == 0x0A })
        }
        _ = close(output[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return ((status & 0x7F) == 0 ? (status >> 8) & 0xFF : -1, lines)
    }

    private static func spawn(_ arguments: [String], actions: inout SpawnActions) throws -> pid_t {
        let binary = try binary()
        let argv = ([binary] + arguments).map { strdup($0) } + [nil]
        let environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in environment { free(pointer) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, binary, &actions, nil, argv, environment)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL) }
        return pid
    }
}
