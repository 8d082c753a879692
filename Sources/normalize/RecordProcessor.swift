import Dispatch
import TapRoute

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns input records into output records: one Interaction or one error per record.
struct RecordProcessor: Sendable {
    let registry: AdapterRegistry
    let vendor: String?
    let pretty: Bool
    /// Use the reference paths: the parser's in-order string reader and the tree writer
    /// (`Interaction.jsonValue` through `JSONWriter`), for checking the fast path.
    var reference = false

    /// Appends the output for one record of JSON text to `out`; returns whether it failed.
    func output(for record: UnsafeBufferPointer<UInt8>, line: Int, file: String?, into out: inout JSONOutputBuffer) -> Bool {
        do throws(NormalizationError) {
            let json = try registry.parse(record: record, readsStringsInOrder: reference)
            render(try normalize(json), into: &out)
            return false
        } catch {
            renderError(error, line: line, file: file).withUnsafeBufferPointer { out.append($0) }
            return true
        }
    }

    func normalize(_ json: JSONValue) throws(NormalizationError) -> Interaction {
        var event = try InputEvent(json: json)
        if event.vendor == nil, let vendor { event.vendor = vendor }
        return try registry.normalize(event)
    }

    func render(_ interaction: Interaction) -> [UInt8] {
        var out = JSONOutputBuffer(capacity: 1024)
        render(interaction, into: &out)
        return out.withBytes { Array($0) }
    }

    func render(_ interaction: Interaction, into out: inout JSONOutputBuffer) {
        if pretty || reference {
            JSONWriter(pretty: pretty).write(interaction.jsonValue, into: &out)
        } else {
            interaction.writeJSON(into: &out)
        }
        out.append(0x0A)
    }

    func renderError(_ error: NormalizationError, line: Int, file: String?) -> [UInt8] {
        var fields: [(String, JSONValue)] = [
            ("code", .string(error.code.rawValue)),
            ("message", .string(error.message)),
            ("line", .number(JSONNumber(line))),
            ("path", .string(error.path)),
        ]
        if let file { fields.append(("file", .string(file))) }
        var out: [UInt8] = []
        JSONWriter(pretty: pretty).write(["error": .object(JSONObject(fields))], into: &out)
        out.append(0x0A)
        return out
    }

    /// Processes JSON Lines, streaming, on up to `jobs` threads; returns the number of failed
    /// records.
    ///
    /// The input is read in blocks of whole lines; the lines of a block are split into `jobs`
    /// contiguous runs normalized in parallel, and the runs' output is written in input order
    /// before the next block is read. Memory stays bounded by the block size: a line longer
    /// than `limits.maxRecordBytes` is not kept — its bytes are skipped up to the next newline
    /// and it yields one `limitExceeded` record.
    func processLines(from input: InputSource, file: String?, into output: OutputSink, jobs: Int) -> Int {
        let limit = registry.configuration.limits.maxRecordBytes
        let blockSize = 1 << 22
        var failed = 0
        var linesBefore = 0  // lines consumed before the current block
        var carry: [UInt8] = []  // the start of a line that continues in the next read
        var skipping = false  // inside a line longer than the limit

        func oversizedRecord() {
            linesBefore += 1
            failed += 1
            let error = NormalizationError(.limitExceeded, "record is longer than limits.maxRecordBytes (\(limit) bytes)")
            output.append(renderError(error, line: linesBefore, file: file))
        }

        var buffer = [UInt8](repeating: 0, count: blockSize)
        var workspace = BlockWorkspace()
        while true {
            let length = input.read(into: &buffer)
            if length == 0 { break }
            let chunk = buffer[0..<length]
            guard let lastNewline = chunk.lastIndex(of: 0x0A) else {
                if !skipping {
                    carry.append(contentsOf: chunk)
                    if carry.count > limit {
                        skipping = true
                        carry = []
                    }
                }
                continue
            }
            var blockStart = 0
            if skipping {
                // The oversized line ends at the first newline of this chunk.
                let firstNewline = chunk.firstIndex(of: 0x0A) ?? lastNewline
                oversizedRecord()
                skipping = false
                blockStart = firstNewline + 1
                carry = []
            }
            if carry.isEmpty {
                buffer.withUnsafeBufferPointer { whole in
                    let block = UnsafeBufferPointer(rebasing: whole[blockStart..<(lastNewline + 1)])
                    failed += processBlock(block, firstLine: linesBefore + 1, file: file, into: output, jobs: jobs, workspace: &workspace)
                    linesBefore += workspace.lineCount
                }
            } else {
                carry.append(contentsOf: chunk[blockStart...lastNewline])
                carry.withUnsafeBufferPointer { block in
                    failed += processBlock(block, firstLine: linesBefore + 1, file: file, into: output, jobs: jobs, workspace: &workspace)
                    linesBefore += workspace.lineCount
                }
                carry.removeAll(keepingCapacity: carry.capacity <= 4 * blockSize)
            }
            if lastNewline + 1 < length {
                carry.append(contentsOf: chunk[(lastNewline + 1)...])
                if carry.count > limit {
                    skipping = true
                    carry = []
                }
            }
        }
        if skipping {
            oversizedRecord()
        } else if !carry.isEmpty {
            carry.append(0x0A)
            failed += carry.withUnsafeBufferPointer { block in
                processBlock(block, firstLine: linesBefore + 1, file: file, into: output, jobs: 1, workspace: &workspace)
            }
        }
        return failed
    }

    /// Normalizes the newline-terminated lines of `block`, in parallel runs, writing the
    /// output in order; returns the number of failed records. `workspace` keeps the line
    /// table and the runs' output buffers from block to block, so their memory is reused.
    func processBlock(
        _ block: UnsafeBufferPointer<UInt8>,
        firstLine: Int,
        file: String?,
        into output: OutputSink,
        jobs: Int,
        workspace: inout BlockWorkspace
    ) -> Int {
        workspace.lineEnds.removeAll(keepingCapacity: true)
        var i = 0
        while let newline = Self.index(of: 0x0A, in: block, from: i) {
            workspace.lineEnds.append(newline)
            i = newline + 1
        }
        let lineEnds = workspace.lineEnds
        // Four runs per thread, so that when one thread is slowed (costly records, a busy
        // core) the others take over the remaining runs.
        let runs = jobs == 1 ? 1 : max(1, min(jobs * 4, lineEnds.count / 64))
        while workspace.outputs.count < runs { workspace.outputs.append(RunOutput()) }
        var failedPerRun = [Int](repeating: 0, count: runs)
        workspace.outputs.withUnsafeMutableBufferPointer { outputs in
            failedPerRun.withUnsafeMutableBufferPointer { failures in
                // Each run touches only its own output buffer and failure count, and reads
                // only its own lines of the block.
                nonisolated(unsafe) let outputs = outputs
                nonisolated(unsafe) let failures = failures
                nonisolated(unsafe) let block = block
                let work: @Sendable (Int) -> Void = { run in
                    let from = lineEnds.count * run / runs
                    let to = lineEnds.count * (run + 1) / runs
                    let output = outputs[run]
                    output.buffer.removeAll()
                    var failed = 0
                    var start = from == 0 ? 0 : lineEnds[from - 1] + 1
                    for index in from..<to {
                        let record = UnsafeBufferPointer(rebasing: block[start..<lineEnds[index]])
                        start = lineEnds[index] + 1
                        guard !Self.isBlank(record) else { continue }
                        if self.output(for: record, line: firstLine + index, file: file, into: &output.buffer) { failed += 1 }
                    }
                    failures[run] = failed
                }
                if runs == 1 {
                    work(0)
                } else {
                    DispatchQueue.concurrentPerform(iterations: runs, execute: work)
                }
            }
        }
        for run in 0..<runs { workspace.outputs[run].buffer.withBytes { output.append($0) } }
        return failedPerRun.reduce(0, +)
    }

    /// Processes one JSON document: an envelope, or an array of envelopes.
    func processDocument(from input: InputSource, file: String?, into output: OutputSink) -> Int {
        let bytes = input.readAll()
        let limits = registry.configuration.limits
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONParseError) -> JSONValue in
                var parser = JSONParser(maximumDepth: limits.maxDepth + 1)
                parser.readsStringsInOrder = reference
                return try parser.parse(buffer)
            }
        }
        switch parsed {
        case .failure(let error):
            var message = error.description
            if error.reason == "unexpected data after the JSON value" {
                message += "; for JSON Lines (one envelope per line) pass --lines"
            }
            let code: NormalizationError.Code = error.reason.hasPrefix("nesting deeper") ? .limitExceeded : .invalidJSON
            output.append(renderError(NormalizationError(code, message), line: error.line, file: file))
            return 1
        case .success(.array(let elements)):
            var failed = 0
            for (i, element) in elements.enumerated() {
                do throws(NormalizationError) {
                    output.append(render(try normalize(element)))
                } catch {
                    var located = error
                    located.path = "$[\(i)]" + error.path.dropFirst()
                    output.append(renderError(located, line: 1, file: file))
                    failed += 1
                }
            }
            return failed
        case .success(let value):
            do throws(NormalizationError) {
                output.append(render(try normalize(value)))
                return 0
            } catch {
                output.append(renderError(error, line: 1, file: file))
                return 1
            }
        }
    }

    /// Buffers reused from one block to the next.
    struct BlockWorkspace {
        /// The offset of each newline in the current block.
        var lineEnds: [Int] = []
        /// One output buffer per parallel run.
        var outputs: [RunOutput] = []
        /// The number of lines in the current block.
        var lineCount: Int { lineEnds.count }
    }

    /// The output buffer of one parallel run, kept from block to block.
    final class RunOutput {
        var buffer = JSONOutputBuffer(capacity: 1 << 16)
    }

    static func isBlank(_ record: UnsafeBufferPointer<UInt8>) -> Bool {
        for b in record where b != 0x20 && b != 0x09 && b != 0x0D { return false }
        return true
    }

    static func index(of byte: UInt8, in buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard start < buffer.count, let base = buffer.baseAddress else { return nil }
        guard let found = memchr(base + start, Int32(byte), buffer.count - start) else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }
}
