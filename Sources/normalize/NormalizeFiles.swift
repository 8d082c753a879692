import ArgumentParser
import Foundation
import TapRoute

/// The main job: normalize files or standard input.
struct NormalizeFiles: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Normalize input envelopes (the default subcommand).",
        discussion: """
            Each FILE is a JSON document (one envelope, or an array of envelopes) or, with --lines \
            or a .jsonl/.ndjson name, JSON Lines (one envelope per line; blank lines are skipped). \
            '-' or no FILE reads standard input. Output is one JSON object per input record, in \
            input order.
            """
    )

    @OptionGroup var options: ConfigurationOptions

    @Flag(name: .long, help: "Read JSON Lines: one envelope per line.")
    var lines = false

    @Option(name: .long, help: ArgumentHelp("Skip detection: use this adapter for every envelope that names none.", valueName: "id"))
    var vendor: String?

    @Flag(name: .long, help: "Indent the output JSON (one record spans several lines).")
    var pretty = false

    @Flag(
        name: .long,
        help: ArgumentHelp(
            "Use the reference paths (in-order string reading, tree writing, one thread).",
            discussion: "Slower, with the same output; for checking the fast path."
        )
    )
    var reference = false

    @Option(
        name: .long,
        help: ArgumentHelp("Threads for JSON Lines (default: the number of processors). Output order never changes.", valueName: "n")
    )
    var jobs: Int?

    @Argument(help: ArgumentHelp("Input files; '-' or none for standard input.", valueName: "file"))
    var files: [String] = []

    func validate() throws {
        if let vendor, vendor.isEmpty { throw ValidationError("--vendor needs an adapter id") }
        if let jobs, !(1...256).contains(jobs) { throw ValidationError("--jobs must be between 1 and 256") }
    }

    func run() throws {
        let registry = try options.loadRegistry()
        if let vendor, registry.adapter(forVendor: vendor) == nil {
            let enabled = (registry.adapters.map { type(of: $0).id } + [LinkAdapter.id]).joined(separator: ", ")
            throw ValidationError("--vendor: no enabled adapter has id '\(vendor)'; enabled: \(enabled)")
        }
        var processor = RecordProcessor(registry: registry, vendor: vendor, pretty: pretty)
        processor.reference = reference
        let output = OutputSink()
        let threads = reference ? 1 : jobs ?? ProcessInfo.processInfo.activeProcessorCount
        var failed = 0
        let inputs = files.isEmpty ? ["-"] : files
        for file in inputs {
            let name = file == "-" ? nil : file
            let input: InputSource
            do {
                input = try InputSource(path: file)
            } catch {
                throw ValidationError("cannot read '\(file)': \(error.localizedDescription)")
            }
            let asLines = lines || file.hasSuffix(".jsonl") || file.hasSuffix(".ndjson")
            if asLines {
                failed += processor.processLines(from: input, file: name, into: output, jobs: threads)
            } else {
                failed += processor.processDocument(from: input, file: name, into: output)
            }
        }
        output.flush()
        if failed > 0 { throw ExitCode(1) }
    }
}

/// Reads bytes from a file or standard input with `read(2)`, into the caller's buffer.
final class InputSource {
    private let handle: FileHandle
    private let ownsHandle: Bool

    init(path: String) throws {
        if path == "-" {
            handle = FileHandle.standardInput
            ownsHandle = false
        } else {
            handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            ownsHandle = true
        }
    }

    deinit {
        if ownsHandle { try? handle.close() }
    }

    /// Fills `buffer` from its start with up to `buffer.count` bytes; returns how many were
    /// read (0 at the end of the input, or on a read error).
    func read(into buffer: inout [UInt8]) -> Int {
        let descriptor = handle.fileDescriptor
        var filled = 0
        buffer.withUnsafeMutableBytes { raw in
            while filled < raw.count {
                let n = systemRead(descriptor, raw.baseAddress! + filled, raw.count - filled)
                if n > 0 {
                    filled += n
                } else if n < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
        }
        return filled
    }

    /// Everything that is left.
    func readAll() -> [UInt8] {
        var all: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = read(into: &chunk)
            if n == 0 { break }
            all.append(contentsOf: chunk[0..<n])
        }
        return all
    }
}

/// Buffers output and writes it to standard output with `write(2)` in large blocks.
final class OutputSink {
    private var buffer: [UInt8] = []

    init() { buffer.reserveCapacity(1 << 17) }

    func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        if bytes.count >= 1 << 16 {
            flush()
            Self.writeAll(UnsafeRawBufferPointer(bytes))
            return
        }
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flush() }
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        buffer.withUnsafeBytes { Self.writeAll($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    private static func writeAll(_ raw: UnsafeRawBufferPointer) {
        guard let base = raw.baseAddress else { return }
        var written = 0
        while written < raw.count {
            let n = systemWrite(1, base + written, raw.count - written)
            if n > 0 {
                written += n
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                return  // standard output is closed: nothing more can be written
            }
        }
    }
}

#if canImport(Glibc)
    import Glibc
    private let systemRead = Glibc.read
    private let systemWrite = Glibc.write
#elseif canImport(Musl)
    import Musl
    private let systemRead = Musl.read
    private let systemWrite = Musl.write
#elseif canImport(Darwin)
    import Darwin
    private let systemRead = Darwin.read
    private let systemWrite = Darwin.write
#endif
