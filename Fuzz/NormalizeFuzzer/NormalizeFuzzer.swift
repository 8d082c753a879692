import FuzzSupport
import NormalizeCore
import TapRoute

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Arbitrary bytes through the whole record path of `normalize` — the CLI's own framing,
/// records and output (`NormalizeCore`) with the built-in registry and the embedded default
/// configuration — read as JSON Lines and as a JSON document.
///
/// Beyond "no crash": JSON Lines give exactly one output line per non-blank input line (a
/// byte order mark at the start dropped), in order, each an Interaction or an error record
/// naming its input line; one thread and two threads write the same bytes; a document's output is JSON objects, one per line.
@_cdecl("LLVMFuzzerTestOneInput")
public func normalizeFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzSupport.bytes(data, size)
    let bytes = Array(input)
    Scratch.shared.writeInput(bytes)

    let fast = Scratch.shared.run { processor, source, sink, failed throws(IOFailure) in
        try processor.processLines(from: source, name: InputName("fuzz.jsonl"), into: sink, jobs: 1, failed: &failed)
    }
    let twoThreads = Scratch.shared.run { processor, source, sink, failed throws(IOFailure) in
        try processor.processLines(from: source, name: InputName("fuzz.jsonl"), into: sink, jobs: 2, failed: &failed)
    }
    if twoThreads.output != fast.output || twoThreads.failed != fast.failed {
        FuzzSupport.fail("--jobs 2 writes other bytes than --jobs 1")
    }
    checkLines(input: bytes, output: fast.output, failed: fast.failed)

    let document = Scratch.shared.run { processor, source, sink, failed throws(IOFailure) in
        try processor.processDocument(from: source, name: InputName("fuzz.json"), into: sink, failed: &failed)
    }
    let errors = split(document.output).filter(isError).count
    if errors != document.failed { FuzzSupport.fail("a document: \(document.failed) failed records but \(errors) error records") }
    return 0
}

/// The input lines that must each give one output: every line that is not blank (spaces,
/// tabs, CRs), with a byte order mark at the start of the input dropped.
private func recordLines(of input: [UInt8]) -> [Int] {
    var bytes = input[...]
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
    var records: [Int] = []
    var line = 1
    var blank = true
    var any = false
    for byte in bytes {
        if byte == 0x0A {
            if !blank { records.append(line) }
            line += 1
            blank = true
            any = false
            continue
        }
        any = true
        if byte != 0x20 && byte != 0x09 && byte != 0x0D { blank = false }
    }
    if any && !blank { records.append(line) }
    return records
}

private func checkLines(input: [UInt8], output: [UInt8], failed: Int) {
    let expected = recordLines(of: input)
    let lines = split(output)
    guard lines.count == expected.count else {
        FuzzSupport.fail("JSON Lines: \(expected.count) records in, \(lines.count) lines out")
    }
    var errors = 0
    for (line, inputLine) in zip(lines, expected) {
        guard isError(line) else { continue }
        errors += 1
        guard case .object(let record)? = try? JSONValue(parsing: String(decoding: line, as: UTF8.self)),
            case .object(let body)? = record["error"], case .number(let number)? = body["line"], Int(number.text) == inputLine
        else {
            FuzzSupport.fail("JSON Lines: the error record for line \(inputLine) names another line")
        }
    }
    if errors != failed { FuzzSupport.fail("JSON Lines: \(failed) failed records but \(errors) error records") }
}

private func split(_ output: [UInt8]) -> [ArraySlice<UInt8>] {
    output.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast()
}

/// Whether an output line is an error record; an invariant fails when it is not a JSON object
/// with either a vendor or an error.
private func isError(_ line: ArraySlice<UInt8>) -> Bool {
    guard case .object(let record)? = try? JSONValue(parsing: String(decoding: line, as: UTF8.self)) else {
        FuzzSupport.fail("an output line is not a JSON object")
    }
    if record["error"] != nil { return true }
    guard record["vendor"] != nil else { FuzzSupport.fail("an output line is neither an Interaction nor an error") }
    return false
}

/// A scratch input file and output file, reused by every run of the process.
private final class Scratch: @unchecked Sendable {
    static let shared = Scratch()
    let inputPath: String
    let outputDescriptor: Int32
    let processor: RecordProcessor

    init() {
        let directory = "/tmp/taproute-normalize-fuzzer-\(getpid())"
        mkdir(directory, 0o700)
        inputPath = directory + "/input"
        outputDescriptor = open(directory + "/output", O_RDWR | O_CREAT | O_TRUNC, 0o600)
        if outputDescriptor < 0 { FuzzSupport.fail("cannot open the scratch output file") }
        processor = RecordProcessor(registry: FuzzSupport.registry, vendor: nil, pretty: false)
    }

    func writeInput(_ bytes: [UInt8]) {
        let descriptor = open(inputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { FuzzSupport.fail("cannot write the scratch input file") }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        if written != bytes.count { FuzzSupport.fail("cannot write the scratch input file") }
    }

    /// Runs `body` on the scratch input with an output sink on the scratch output file, and
    /// returns what it wrote and its count of failed records.
    func run(_ body: (RecordProcessor, InputSource, OutputSink, inout Int) throws(IOFailure) -> Void) -> (output: [UInt8], failed: Int) {
        _ = ftruncate(outputDescriptor, 0)
        _ = lseek(outputDescriptor, 0, SEEK_SET)
        var failed = 0
        do throws(IOFailure) {
            let source = try InputSource(path: inputPath)
            let sink = OutputSink(descriptor: outputDescriptor)
            try body(processor, source, sink, &failed)
            try sink.flush()
        } catch {
            FuzzSupport.fail("an I/O error on the scratch files: \(error)")
        }
        let size = Int(lseek(outputDescriptor, 0, SEEK_END))
        var output = [UInt8](repeating: 0, count: size)
        _ = lseek(outputDescriptor, 0, SEEK_SET)
        let count = output.withUnsafeMutableBytes { read(outputDescriptor, $0.baseAddress, size) }
        if count != size { FuzzSupport.fail("cannot read the scratch output file") }
        return (output, failed)
    }
}
