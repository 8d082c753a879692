import ArgumentParser
import Foundation
import NormalizeCore
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
            input order. Every record (a line, an array element, a document that is not an array) \
            is held to limits.maxRecordBytes and limits.maxDepth. An input that cannot be read is \
            named on standard error and the others are still processed; the exit status is then 2 \
            (docs/cli.md).
            """
    )

    @OptionGroup var options: ConfigurationOptions

    @Flag(name: .long, help: "Read JSON Lines: one envelope per line.")
    var lines = false

    @Option(name: .long, help: ArgumentHelp("Skip detection: use this adapter for every envelope that names none.", valueName: "id"))
    var vendor: String?

    @Flag(name: .long, help: "Indent the output JSON (one record spans several lines).")
    var pretty = false

    @Option(
        name: .long,
        help: ArgumentHelp("Threads for JSON Lines (default: the number of processors). Output order never changes.", valueName: "n")
    )
    var jobs: Int?

    @Flag(
        name: .long,
        help: ArgumentHelp(
            "Show no progress line.",
            discussion: "Without it, a run that lasts over a second shows one on standard error when that is a terminal."
        )
    )
    var quiet = false

    @Argument(help: ArgumentHelp("Input files; '-' or none for standard input.", valueName: "file"))
    var files: [String] = []

    func validate() throws {
        if let vendor, vendor.isEmpty { throw ValidationError("--vendor needs an adapter id") }
        if let jobs, !(1...256).contains(jobs) { throw ValidationError("--jobs must be between 1 and 256") }
    }

    func run() throws {
        let registry = try options.loadRegistry()
        if let vendor, registry.adapter(forVendor: vendor) == nil {
            let enabled = (registry.adapters.map(\.id) + [LinkAdapter.id]).joined(separator: ", ")
            throw ValidationError("--vendor: no enabled adapter has id '\(vendor)'; enabled: \(enabled)")
        }
        let processor = RecordProcessor(registry: registry, vendor: vendor, pretty: pretty)
        try processInputs(files, lines: lines, jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount, quiet: quiet, with: processor)
    }
}

/// Runs `processor` over each input file (`-` or none: standard input), as JSON Lines with
/// `lines` or a `.jsonl`/`.ndjson` name, else as a document; the output is one record per
/// input record, in order. Like `cat a missing b`: an input that cannot be read is named on
/// standard error and the others are still processed.
/// - Throws: `ExitCode(2)` when an input could not be read, `ExitCode(1)` when a record
///   failed, ``IOFailure`` when standard output cannot be written.
func processInputs(_ files: [String], lines: Bool, jobs: Int, quiet: Bool, with processor: RecordProcessor) throws {
    MemoryTuning.returnLargeBlocksWhenFreed()
    let output = OutputSink()
    var failed = 0
    var unreadable = 0
    let inputs = files.isEmpty ? ["-"] : files
    let progress = ProgressLine.forStandardError(quiet: quiet, environment: ProcessInfo.processInfo.environment)
    defer { progress?.clear() }
    for (position, file) in inputs.enumerated() {
        let name = InputName(file == "-" ? nil : file)
        let asLines = lines || file.hasSuffix(".jsonl") || file.hasSuffix(".ndjson")
        do throws(IOFailure) {
            let input = try InputSource(path: file)
            progress?.begin(input)
            if asLines {
                try processor.processLines(from: input, name: name, into: output, jobs: jobs, failed: &failed)
            } else {
                try processor.processDocument(from: input, name: name, into: output, failed: &failed)
            }
            try output.flush()
        } catch {
            if error.isWriteFailure { throw error }
            // What was read is written, the message names the input, and the other inputs
            // are still processed; the exit status is 2.
            try output.flush()
            progress?.clear()
            var message = "normalize: \(error)"
            if case .open(_, ENOENT) = error, let hint = UsageHint.forMissingInput(file, first: position == 0) {
                message += "; \(hint)"
            }
            StandardError.writeLine(message)
            unreadable += 1
        }
    }
    try output.flush()
    if unreadable > 0 { throw ExitCode(2) }
    if failed > 0 { throw ExitCode(1) }
}
