import Dispatch
import TapRoute

/// Normalizes a JSON Lines stream that arrives in pieces of any size, as the `normalize
/// --lines` CLI does: one output line per non-blank input line, in input order, byte for byte
/// the CLI's output for the same input.
///
/// Only the start of a line that has not ended yet is kept between pieces; a line longer than
/// ``RecordRenderer/maxRecordBytes`` is not kept at all: its bytes are counted as they pass
/// and it yields one `limitExceeded` record (a blank one is skipped like every blank line).
/// Lines are numbered from 1, blank lines included. The complete lines of a piece are
/// normalized in up to ``parallelism`` contiguous runs at once, and their output is joined in
/// order.
public struct LineStream: Sendable {
    /// What is done with each record.
    public enum Operation: Sendable {
        /// Normalize envelopes into Interactions (`normalize --lines`).
        case normalize
        /// Encode messages into `vendor`'s payloads (`normalize encode --lines`).
        case encode(vendor: String, options: EncodeOptions)
    }

    /// How each line becomes its output.
    public let renderer: RecordRenderer
    /// What is done with each record.
    public let operation: Operation
    /// The most runs a piece's lines are split into and normalized in parallel.
    public let parallelism: Int
    /// Lines consumed so far (blank and over-long ones included).
    public private(set) var linesConsumed = 0
    /// Records that yielded an error record so far.
    public private(set) var failedRecords = 0
    /// The error records written so far, by `code`.
    public private(set) var errorCodes: [String: Int] = [:]
    /// Records (non-blank lines) written so far.
    public private(set) var records = 0

    private var carry: [UInt8] = []
    /// The stream's first bytes, until there are enough to tell whether it starts with a BOM.
    private var head: [UInt8] = []
    private var headChecked = false
    private var skipping = false
    private var skipped = 0
    private var skippedBlank = true

    /// A stream doing `operation` with `renderer`, on up to `parallelism` threads.
    public init(renderer: RecordRenderer, operation: Operation = .normalize, parallelism: Int = 2) {
        self.renderer = renderer
        self.operation = operation
        self.parallelism = max(1, parallelism)
    }

    /// Consumes the next piece of the input and returns the output of the lines it completes.
    ///
    /// A UTF-8 byte order mark at the very start of the stream is skipped, as the CLI skips it.
    public mutating func consume(_ piece: UnsafeRawBufferPointer) -> [UInt8] {
        guard headChecked else {
            head.append(contentsOf: piece)
            let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
            if head.count < 3 && head == Array(bom.prefix(head.count)) { return [] }
            headChecked = true
            let start = head.starts(with: bom) ? 3 : 0
            let bytes = Array(head[start...])
            head = []
            return bytes.withUnsafeBytes { consume($0) }
        }
        var out: [UInt8] = []
        guard let base = piece.baseAddress, piece.count > 0 else { return out }
        let chunk = UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: piece.count)
        var start = 0
        if skipping {
            guard let newline = chunk.firstIndex(of: 0x0A) else {
                keep(chunk, into: &out)
                return out
            }
            keep(UnsafeBufferPointer(rebasing: chunk[0..<newline]), into: &out)
            endSkippedLine(into: &out)
            start = newline + 1
        }
        if start < chunk.count, let lastNewline = chunk[start...].lastIndex(of: 0x0A) {
            if carry.isEmpty {
                process(UnsafeBufferPointer(rebasing: chunk[start...lastNewline]), into: &out)
            } else {
                carry.append(contentsOf: chunk[start...lastNewline])
                let block = carry
                carry.removeAll(keepingCapacity: carry.capacity <= 4 << 20)
                block.withUnsafeBufferPointer { process($0, into: &out) }
            }
            start = lastNewline + 1
        }
        if start < chunk.count { keep(UnsafeBufferPointer(rebasing: chunk[start...]), into: &out) }
        return out
    }

    /// Ends the input: returns the output of a last line without a newline, if any.
    public mutating func finish() -> [UInt8] {
        var out: [UInt8] = []
        if !headChecked {
            headChecked = true
            let bytes = head
            head = []
            out = bytes.withUnsafeBytes { consume($0) }
        }
        if skipping {
            endSkippedLine(into: &out)
        } else if !carry.isEmpty {
            carry.append(0x0A)
            let block = carry
            carry = []
            block.withUnsafeBufferPointer { process($0, into: &out) }
        }
        return out
    }

    /// Keeps the bytes of a line that has not ended, or counts them once it is over the limit.
    private mutating func keep(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        if skipping {
            skipped += bytes.count
            if skippedBlank { skippedBlank = Self.isBlank(bytes) }
            return
        }
        carry.append(contentsOf: bytes)
        if carry.count > renderer.maxRecordBytes {
            skipping = true
            skipped = carry.count
            skippedBlank = carry.withUnsafeBufferPointer { Self.isBlank($0) }
            carry = []
        }
    }

    private mutating func endSkippedLine(into out: inout [UInt8]) {
        linesConsumed += 1
        skipping = false
        guard !skippedBlank else { return }
        records += 1
        failedRecords += 1
        errorCodes[NormalizationError.Code.limitExceeded.rawValue, default: 0] += 1
        renderer.appendOversized(size: skipped, line: linesConsumed, into: &out)
    }

    /// Normalizes the newline-terminated lines of `block`, appending their output in order.
    private mutating func process(_ block: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        var lineEnds: [Int] = []
        var i = 0
        while i < block.count, let newline = block[i...].firstIndex(of: 0x0A) {
            lineEnds.append(newline)
            i = newline + 1
        }
        let firstLine = linesConsumed + 1
        linesConsumed += lineEnds.count
        let ends = lineEnds
        // Four runs per thread, as in the CLI: when one thread is slowed (a costly record, a
        // busy core) the others take over the remaining runs.
        let runs = parallelism == 1 ? 1 : min(parallelism * 4, max(1, lineEnds.count / 64))
        let renderer = self.renderer
        let operation = self.operation
        // One run: lines from..<to of the block, into its own output.
        @Sendable func run(_ from: Int, _ to: Int, _ block: UnsafeBufferPointer<UInt8>) -> Run {
            var output: [UInt8] = []
            output.reserveCapacity((to - from) * 512)
            var records = 0
            var failed: [String: Int] = [:]
            var start = from == 0 ? 0 : ends[from - 1] + 1
            for index in from..<to {
                let record = UnsafeBufferPointer(rebasing: block[start..<ends[index]])
                start = ends[index] + 1
                guard !Self.isBlank(record) else { continue }
                records += 1
                let code =
                    switch operation {
                    case .normalize:
                        renderer.appendNormalized(record, line: firstLine + index, into: &output)
                    case .encode(let vendor, let options):
                        renderer.appendEncoded(record, line: firstLine + index, vendor: vendor, options: options, into: &output)
                    }
                if let code { failed[code, default: 0] += 1 }
            }
            return Run(output: output, records: records, failed: failed)
        }
        if runs == 1 {
            add(run(0, lineEnds.count, block), to: &out)
            return
        }
        var results = [Run](repeating: Run(output: [], records: 0, failed: [:]), count: runs)
        let count = lineEnds.count
        results.withUnsafeMutableBufferPointer { slots in
            // Each run writes only its own slot and reads only its own lines of the block.
            nonisolated(unsafe) let slots = slots
            nonisolated(unsafe) let block = block
            DispatchQueue.concurrentPerform(iterations: runs) { r in
                slots[r] = run(count * r / runs, count * (r + 1) / runs, block)
            }
        }
        for result in results { add(result, to: &out) }
    }

    /// The output and counts of one run of lines.
    private struct Run: Sendable {
        var output: [UInt8]
        var records: Int
        var failed: [String: Int]
    }

    private mutating func add(_ run: Run, to out: inout [UInt8]) {
        out.append(contentsOf: run.output)
        records += run.records
        for (code, count) in run.failed {
            failedRecords += count
            errorCodes[code, default: 0] += count
        }
    }

    /// Whether `bytes` are all spaces, tabs and carriage returns (a blank line).
    static func isBlank(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where byte != 0x20 && byte != 0x09 && byte != 0x0D { return false }
        return true
    }
}
