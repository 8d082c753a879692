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

    @Argument(help: ArgumentHelp("Input files; '-' or none for standard input.", valueName: "file"))
    var files: [String] = []

    func validate() throws {
        if let vendor, vendor.isEmpty { throw ValidationError("--vendor needs an adapter id") }
    }

    func run() throws {
        let registry = try options.loadRegistry()
        if let vendor, registry.adapter(forVendor: vendor) == nil {
            let enabled = (registry.adapters.map { type(of: $0).id } + [LinkAdapter.id]).joined(separator: ", ")
            throw ValidationError("--vendor: no enabled adapter has id '\(vendor)'; enabled: \(enabled)")
        }
        let processor = RecordProcessor(registry: registry, vendor: vendor, pretty: pretty)
        let output = OutputSink()
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
                failed += processor.processLines(from: input, file: name, into: output)
            } else {
                failed += processor.processDocument(from: input, file: name, into: output)
            }
        }
        output.flush()
        if failed > 0 { throw ExitCode(1) }
    }
}

/// Reads bytes from a file or standard input.
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

    /// The next chunk, or an empty array at the end.
    func read(upTo count: Int = 1 << 16) -> [UInt8] {
        guard let data = try? handle.read(upToCount: count) else { return [] }
        return [UInt8](data)
    }

    /// Everything that is left.
    func readAll() -> [UInt8] {
        guard let data = try? handle.readToEnd() else { return [] }
        return [UInt8](data)
    }
}

/// Buffers output and writes it to standard output in large blocks.
final class OutputSink {
    private var buffer: [UInt8] = []

    init() { buffer.reserveCapacity(1 << 17) }

    func append(_ bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flush() }
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        FileHandle.standardOutput.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
    }
}
