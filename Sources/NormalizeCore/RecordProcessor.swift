import Dispatch
package import TapRoute

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns input records into output records: one Interaction or one error per record.
package struct RecordProcessor: Sendable {
    package let registry: AdapterRegistry
    package let vendor: String?
    package let pretty: Bool
    /// When set, each record is a message to encode (`normalize encode`), not an envelope.
    package let encoder: RecordEncoder?

    /// Creates a processor for `registry`; `vendor` skips detection for envelopes that name
    /// none, `pretty` indents the output, `encoder` encodes messages instead of normalizing.
    package init(registry: AdapterRegistry, vendor: String?, pretty: Bool, encoder: RecordEncoder? = nil) {
        self.registry = registry
        self.reader = encoder == nil ? registry.normalizingReader : registry.recordReader
        self.vendor = vendor
        self.pretty = pretty
        self.encoder = encoder
    }

    /// The reader of every record, JSON line or part of a document: the registry's
    /// ``RecordReader`` (its limits) — the one it normalizes with
    /// (``AdapterRegistry/normalizingReader``), or, for messages to encode, the whole record.
    /// Made once: asking the registry for it on every record copied the registry.
    package let reader: RecordReader

    /// Appends the output for one JSON line, line `line` of the input, to `out`; returns
    /// whether it failed.
    package func output(
        for record: UnsafeBufferPointer<UInt8>,
        line: Int,
        name: InputName,
        into out: inout JSONOutputBuffer
    ) -> Bool {
        do throws(NormalizationError) {
            if let encoder {
                let json = try reader.read(record, line: line)
                return !encoder.output(for: json, registry: registry, line: line, index: nil, name: name, pretty: pretty, into: &out)
            }
            render(try normalize(reader.readEvent(record, line: line)), into: &out)
            return false
        } catch {
            renderError(error, line: line, name: name, into: &out)
            return true
        }
    }

    package func normalize(_ json: consuming JSONValue) throws(NormalizationError) -> Interaction {
        // Taken, not borrowed: the event takes the tree over without a retain of its own.
        try normalize(InputEvent(json: json))
    }

    /// The Interaction for `event`, read by the adapter ``vendor`` names when the event names
    /// none.
    package func normalize(_ event: consuming InputEvent) throws(NormalizationError) -> Interaction {
        var event = event
        if event.vendor == nil, let vendor { event.vendor = vendor }
        return try registry.normalize(event)
    }

    package func render(_ interaction: Interaction) -> [UInt8] {
        var out = JSONOutputBuffer(capacity: 1024)
        render(interaction, into: &out)
        return out.withBytes { Array($0) }
    }

    package func render(_ interaction: Interaction, into out: inout JSONOutputBuffer) {
        if pretty {
            JSONWriter(pretty: pretty).write(interaction.jsonValue, into: &out)
        } else {
            interaction.writeJSON(into: &out)
        }
        out.append(0x0A)
    }

    /// Appends the error record for `error` to `out`.
    ///
    /// The compact form is written field by field, with the input's name as JSON prepared once
    /// per input (``InputName``): a long file argument costs one copy per error record, not one
    /// escaping and a tree.
    package func renderError(_ error: NormalizationError, line: Int, name: InputName, into out: inout JSONOutputBuffer) {
        if pretty {
            var fields: [(String, JSONValue)] = [
                ("code", .string(error.code.rawValue)),
                ("message", .string(error.message)),
                ("line", .number(JSONNumber(line))),
                ("path", .string(error.path)),
            ]
            if let file = name.file { fields.append(("file", .string(file))) }
            JSONWriter(pretty: true).write(["error": .object(JSONObject(fields))], into: &out)
        } else {
            out.append(literal: #"{"error":{"code":"#)
            JSONWriter.writeString(error.code.rawValue, into: &out)
            out.append(literal: #","message":"#)
            JSONWriter.writeString(error.message, into: &out)
            out.append(literal: #","line":"#)
            out.append(utf8: String(line))
            out.append(literal: #","path":"#)
            JSONWriter.writeString(error.path, into: &out)
            name.fileField.withUnsafeBufferPointer { out.append($0) }
            out.append(literal: "}}")
        }
        out.append(0x0A)
    }

    /// The error record for `error`, as bytes.
    package func renderError(_ error: NormalizationError, line: Int, name: InputName) -> [UInt8] {
        var out = JSONOutputBuffer(capacity: 256)
        renderError(error, line: line, name: name, into: &out)
        return out.withBytes { Array($0) }
    }

    /// The most lines normalized together before their output is written: with ``roundBytes``,
    /// it bounds the output held in memory, whatever the number and size of a block's records.
    package static let roundLines = 4096
    /// The most input bytes normalized together before their output is written.
    package static let roundBytes = 1 << 20
    /// The most output a round keeps for the next round to write (``processLines``): a round
    /// with more writes it before the next starts.
    package static let pendingBytes = 1 << 21

    /// Processes JSON Lines, streaming, on up to `jobs` threads; adds the number of failed
    /// records to `failed`.
    ///
    /// The input is read in blocks of whole lines (4 MiB from a regular file, the next one read
    /// on a thread of its own while this one is normalized when `jobs` is more than 1; from a
    /// pipe or terminal, whatever has arrived); a block's lines are normalized in rounds of at most
    /// ``roundLines`` lines and ``roundBytes`` bytes, each round split into contiguous runs
    /// normalized in parallel, and each round's output is written in input order while the
    /// next round is normalized (by the first of its threads, before it takes a run), or when
    /// the input ends, or before anything else is written — or at once when it is more than
    /// ``pendingBytes``. A line longer than `limits.maxRecordBytes` is not kept: its bytes are
    /// skipped up to the next newline and it yields one `limitExceeded` record — unless it is
    /// blank (spaces, tabs, CRs), which is skipped like every blank line, whatever its length
    /// and wherever the read blocks fall.
    /// - Throws: ``IOFailure`` when the input cannot be read (the output of the records before
    ///   is appended to `output` first, for the caller to flush) or standard output cannot be
    ///   written.
    package func processLines(from input: some LineSource, name: InputName, into output: OutputSink, jobs: Int, failed: inout Int)
        throws(IOFailure)
    {
        let limit = registry.configuration.limits.maxRecordBytes
        let blockSize = 1 << 22
        // With more than one thread, a regular file's next block is read while this one is
        // normalized; a pipe or terminal is not read ahead, so that a run whose output has
        // failed never waits for input that may not come.
        let blocks = BlockReader(input, blockSize: blockSize, readsAhead: jobs > 1 && input.readsWholeBlocks)
        var linesBefore = 0  // lines consumed before the current block
        var carry: [UInt8] = []  // the start of a line that continues in the next read
        var skipping = false  // inside a line longer than the limit
        var skipped = 0  // the bytes of that line so far
        var skippedBlank = true  // whether they are all blank

        var workspace = BlockWorkspace()
        // The output kept from the last round is passed to `output` whatever ends the input —
        // a read error too, so that the records before it are written.
        defer { workspace.writePending(to: output) }
        func endSkippedLine() {
            linesBefore += 1
            skipping = false
            guard !skippedBlank else { return }
            failed += 1
            workspace.writePending(to: output)
            output.append(renderError(.limitExceeded(reader.oversized(size: skipped)), line: linesBefore, name: name))
        }
        // Keeps the bytes of a line that does not end in this block, or skips them once the
        // line is over the limit.
        func keep(_ bytes: UnsafeBufferPointer<UInt8>) {
            if skipping {
                skipped += bytes.count
                if skippedBlank { skippedBlank = Self.isBlank(bytes) }
                return
            }
            carry.append(contentsOf: bytes)
            if carry.count > limit {
                skipping = true
                skipped = carry.count
                skippedBlank = carry.withUnsafeBufferPointer { Self.isBlank($0) }
                carry = []
            }
        }

        while true {
            let chunk = try blocks.nextBlock()
            let length = chunk.count
            if length == 0 { break }
            var start = 0
            if skipping {
                guard let newline = Self.index(of: 0x0A, in: chunk, from: 0) else {
                    keep(chunk)
                    continue
                }
                keep(UnsafeBufferPointer(rebasing: chunk[0..<newline]))
                endSkippedLine()
                start = newline + 1
            }
            if let lastNewline = Self.lastIndex(of: 0x0A, in: chunk, from: start) {
                if !carry.isEmpty, let firstNewline = Self.index(of: 0x0A, in: chunk, from: start) {
                    // The line begun in an earlier read ends at the first newline: only it is
                    // copied, not the block (most reads of a file end inside a line).
                    carry.append(contentsOf: chunk[start...firstNewline])
                    failed += carry.withUnsafeBufferPointer { line in
                        processBlock(line, firstLine: linesBefore + 1, name: name, into: output, jobs: jobs, workspace: &workspace)
                    }
                    linesBefore += workspace.lineCount
                    carry.removeAll(keepingCapacity: carry.capacity <= 4 * blockSize)
                    start = firstNewline + 1
                }
                if start <= lastNewline {
                    let block = UnsafeBufferPointer(rebasing: chunk[start...lastNewline])
                    failed += processBlock(block, firstLine: linesBefore + 1, name: name, into: output, jobs: jobs, workspace: &workspace)
                    linesBefore += workspace.lineCount
                }
                start = lastNewline + 1
            }
            if start < length { keep(UnsafeBufferPointer(rebasing: chunk[start...])) }
            if input.readsWholeBlocks {
                // A regular file: the last round's output is written during the next block's
                // first round; a failed write stops the run here.
                try output.checkpoint()
            } else {
                // Written now, so that a record arriving on a slow stream is not held back.
                workspace.writePending(to: output)
                try output.flush()
            }
            input.reportProgress(records: linesBefore, bytesRead: blocks.bytesRead)
        }
        if skipping {
            endSkippedLine()
        } else if !carry.isEmpty {
            carry.append(0x0A)
            failed += carry.withUnsafeBufferPointer { block in
                processBlock(block, firstLine: linesBefore + 1, name: name, into: output, jobs: 1, workspace: &workspace)
            }
        }
        workspace.writePending(to: output)
        try output.flush()
    }

    /// Normalizes the newline-terminated lines of `block` in rounds (``roundLines``,
    /// ``roundBytes``), each in parallel runs, writing the output in order (the last round's
    /// is kept in `workspace` for the next round, or ``BlockWorkspace/writePending(to:)``, to
    /// write); returns the number of failed records. Stops early when standard output has
    /// failed. `workspace` keeps the line table and the runs' output buffers from block to
    /// block, so their memory is reused.
    package func processBlock(
        _ block: UnsafeBufferPointer<UInt8>,
        firstLine: Int,
        name: InputName,
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
        var failed = 0
        var from = 0
        let count = workspace.lineEnds.count
        while from < count && !output.hasFailed {
            let byteStart = from == 0 ? 0 : workspace.lineEnds[from - 1] + 1
            let last = min(count, from + Self.roundLines)
            var to = from + 1
            while to < last && workspace.lineEnds[to] - byteStart < Self.roundBytes { to += 1 }
            failed += processRound(
                block,
                lines: from..<to,
                firstLine: firstLine,
                name: name,
                into: output,
                jobs: jobs,
                workspace: &workspace
            )
            from = to
        }
        return failed
    }

    /// Normalizes the lines `lines` of `block` in parallel runs, keeping their output in
    /// `workspace` for the next round to write (``BlockWorkspace/writePending(to:)``; more
    /// than ``pendingBytes`` is written at once), and writes the output the round before
    /// kept, in order; returns the number of failed records.
    ///
    /// The round is cut into runs of contiguous lines, each with its own output buffer; up to
    /// `jobs` workers take the runs in order, one at a time, until none is left. Each worker
    /// normalizes with a registry of its own (``AdapterRegistry/replica()``, made for the
    /// first parallel round), so the threads share no object whose reference count changes
    /// per record. The first thread to start writes the previous round's output, then takes
    /// runs, while the others start on the runs at once: written between rounds, it kept
    /// every other thread waiting (with two threads, 3% of a run's samples).
    private func processRound(
        _ block: UnsafeBufferPointer<UInt8>,
        lines: Range<Int>,
        firstLine: Int,
        name: InputName,
        into output: OutputSink,
        jobs: Int,
        workspace: inout BlockWorkspace
    ) -> Int {
        let lineEnds = workspace.lineEnds
        // Sixteen runs per thread (of at least 64 lines): when one thread is slowed (costly
        // records, a busy core) the others take over the remaining runs, and at the end of a
        // round the other threads wait for at most one short run.
        let runs = jobs == 1 ? 1 : max(1, min(jobs * 16, lines.count / 64))
        let workerCount = min(jobs, runs)
        while workspace.outputs.count < runs { workspace.outputs.append(RunOutput()) }
        // The round before's output, written by the first thread to start.
        let pending = workspace.pending[..<workspace.pendingCount]
        while workspace.workers.count < workerCount {
            let processor =
                workspace.workers.isEmpty
                ? self : RecordProcessor(registry: registry.replica(), vendor: vendor, pretty: pretty, encoder: encoder)
            workspace.workers.append(Worker(processor))
        }
        let workers = workspace.workers
        var failedPerRun = [Int](repeating: 0, count: runs)
        workspace.outputs.withUnsafeMutableBufferPointer { outputs in
            failedPerRun.withUnsafeMutableBufferPointer { failures in
                // Each run touches only its own output buffer and failure count, and reads
                // only its own lines of the block; each worker only its own processor.
                nonisolated(unsafe) let outputs = outputs
                nonisolated(unsafe) let failures = failures
                nonisolated(unsafe) let block = block
                // Written by one thread only, the one that takes the writing; read by the
                // calling thread once the round is over.
                nonisolated(unsafe) let output = output
                nonisolated(unsafe) let pending = pending
                let queue = RunQueue(count: runs)
                let work: @Sendable (Int) -> Void = { index in
                    if !pending.isEmpty, queue.takeWriting() {
                        RunOutput.write(pending, to: output)
                    }
                    let worker = workers[index]
                    // Copied out of the worker once, not for each record.
                    let processor = worker.processor
                    while let run = queue.next() {
                        let from = lines.lowerBound + lines.count * run / runs
                        let to = lines.lowerBound + lines.count * (run + 1) / runs
                        let output = outputs[run]
                        output.buffer.removeAll()
                        var failed = 0
                        var start = from == 0 ? 0 : lineEnds[from - 1] + 1
                        for index in from..<to {
                            let record = UnsafeBufferPointer(rebasing: block[start..<lineEnds[index]])
                            start = lineEnds[index] + 1
                            guard !Self.isBlank(record) else { continue }
                            if processor.output(for: record, line: firstLine + index, name: name, into: &output.buffer) {
                                failed += 1
                            }
                        }
                        failures[run] = failed
                    }
                }
                if workerCount == 1 {
                    work(0)
                } else {
                    DispatchQueue.concurrentPerform(iterations: workerCount, execute: work)
                }
            }
        }
        // This round's output is kept for the next one to write, unless there is more of it
        // than ``pendingBytes`` (records whose output is much larger than they are): held
        // through another round, it would double the memory such input takes, so it is
        // written now, and its buffers stay the ones the next round writes into.
        var total = 0
        for run in 0..<runs { total += workspace.outputs[run].buffer.count }
        if total <= Self.pendingBytes {
            swap(&workspace.outputs, &workspace.pending)
            workspace.pendingCount = runs
        } else {
            workspace.pendingCount = 0
            for run in 0..<runs { workspace.outputs[run].buffer.withBytes { output.append($0) } }
        }
        return failedPerRun.reduce(0, +)
    }

    /// Processes one JSON document: an envelope, or an array of envelopes; adds the number of
    /// failed records to `failed`.
    ///
    /// The document is read as a stream (``DocumentFramer``): an array's elements are
    /// normalized one by one as they arrive, each a record under the same rules as a JSON line
    /// — `limits.maxRecordBytes` (an element over it is skipped without being kept and yields a
    /// `limitExceeded` record) and `limits.maxDepth`, the array itself not counted. A document
    /// that is not an array is one record, its bytes from the first to the last non-blank one:
    /// at most `limits.maxRecordBytes` of them are read, and a longer one yields a
    /// `limitExceeded` record. Every record, element or document, is read by ``reader``, as a
    /// JSON line is. A syntax error
    /// between elements yields an `invalidJSON` record and ends the document.
    /// - Throws: ``IOFailure`` when the input cannot be read (the records before are written)
    ///   or standard output cannot be written.
    package func processDocument(from input: InputSource, name: InputName, into output: OutputSink, failed: inout Int) throws(IOFailure) {
        let limits = registry.configuration.limits
        let raw = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { raw.deallocate() }
        var framer = DocumentFramer(limit: limits.maxRecordBytes)
        var out = JSONOutputBuffer(capacity: 1 << 12)
        var records = 0

        func handle(_ event: DocumentFramer.Event) {
            records += 1
            out.removeAll()
            if !documentOutput(for: event, name: name, into: &out) { failed += 1 }
            out.withBytes { output.append($0) }
        }

        while !framer.isFinished {
            let length = try input.read(into: raw)
            if length == 0 {
                framer.finish(handle)
                break
            }
            framer.consume(UnsafeBufferPointer(start: raw.baseAddress!.assumingMemoryBound(to: UInt8.self), count: length), handle)
            try output.flush()
            input.reportProgress(records: records)
        }
        try output.checkpoint()
    }

    /// Appends the output for one event of a document to `out`; returns whether it succeeded.
    private func documentOutput(
        for event: DocumentFramer.Event,
        name: InputName,
        into out: inout JSONOutputBuffer
    ) -> Bool {
        switch event {
        case .element(let bytes, let index, let line, let column):
            return recordOutput(for: bytes, line: line, column: column, index: index, name: name, into: &out)
        case .oversizedElement(let size, let index, let line):
            renderError(.limitExceeded(reader.oversized(size: size), path: "$[\(index)]"), line: line, name: name, into: &out)
            return false
        case .oversizedDocument(let line):
            let limit = LimitExceeded.documentBytes(limit: registry.configuration.limits.maxRecordBytes)
            renderError(.limitExceeded(limit), line: line, name: name, into: &out)
            return false
        case .syntaxError(let error):
            let message = error.description + Self.linesHint(for: error)
            renderError(NormalizationError(.invalidJSON, message, cause: .invalidJSON(error)), line: error.line, name: name, into: &out)
            return false
        case .document(let bytes, let line, let column):
            return recordOutput(for: bytes, line: line, column: column, index: nil, name: name, into: &out)
        }
    }

    /// For text after the end of a whole document, the advice to read the input as JSON Lines;
    /// otherwise empty.
    private static func linesHint(for error: JSONParseError) -> String {
        error.kind == .trailingData ? "; for JSON Lines (one envelope per line) pass --lines" : ""
    }

    /// Appends the output for one record of a document — an array element (`index`) or the
    /// whole document — whose text starts at `line`, `column` of the document; returns whether
    /// it succeeded. The record is read by the same ``reader`` as a JSON line. Every error
    /// names the line of the document it is on: a syntax error or a nesting too deep its own
    /// line and column, an error found after parsing the line of the value at its path
    /// (``JSONTextLocator``; for a value inside a string holding JSON, the string's line).
    private func recordOutput(
        for bytes: UnsafeBufferPointer<UInt8>,
        line: Int,
        column: Int,
        index: Int?,
        name: InputName,
        into out: inout JSONOutputBuffer
    ) -> Bool {
        func inDocument(_ error: NormalizationError) -> NormalizationError {
            guard let index else { return error }
            var located = error
            located.path = "$[\(index)]" + error.path.dropFirst()
            return located
        }
        let parsed = Result { () throws(NormalizationError) -> JSONValue in try reader.read(bytes, line: line, column: column) }
        switch parsed {
        case .failure(var error):
            var errorLine = line
            switch error.cause {
            case .invalidJSON(let problem)?:
                errorLine = problem.line
                if index == nil { error.message += Self.linesHint(for: problem) }
            case .limitExceeded(.depth(_, let depthLine, _))?:
                errorLine = depthLine
            default:
                break
            }
            renderError(inDocument(error), line: errorLine, name: name, into: &out)
            return false
        case .success(let value):
            if let encoder {
                return encoder.output(for: value, registry: registry, line: line, index: index, name: name, pretty: pretty, into: &out)
            }
            do throws(NormalizationError) {
                render(try normalize(value), into: &out)
                return true
            } catch {
                let valueLine = JSONTextLocator.locate(path: error.path, in: bytes).map { line + $0.line - 1 } ?? line
                renderError(inDocument(error), line: valueLine, name: name, into: &out)
                return false
            }
        }
    }

    /// Buffers reused from one block to the next.
    package struct BlockWorkspace {
        /// The offset of each newline in the current block.
        var lineEnds: [Int] = []
        /// One output buffer per parallel run of the round being normalized.
        var outputs: [RunOutput] = []
        /// The output of the round before, kept to be written, in its first ``pendingCount``
        /// buffers (in input order).
        var pending: [RunOutput] = []
        /// How many of ``pending``'s buffers hold output not yet written.
        var pendingCount = 0
        /// One worker per thread of a round, the first normalizing with the processor itself.
        var workers: [Worker] = []
        /// The number of lines in the current block.
        var lineCount: Int { lineEnds.count }

        /// Writes the output kept from the last round, if any, to `output`: before anything
        /// else is written, and when the input ends.
        mutating func writePending(to output: OutputSink) {
            RunOutput.write(pending[..<pendingCount], to: output)
            pendingCount = 0
        }
    }

    /// The output buffer of one parallel run, kept from block to block.
    package final class RunOutput {
        /// Written by one thread at a time (the worker that took the run), then read by the
        /// main thread after the round: no access needs checking while the program runs.
        @exclusivity(unchecked) var buffer = JSONOutputBuffer(capacity: initialCapacity)
        /// The room each buffer starts with.
        static let initialCapacity = 1 << 16

        /// Appends the output kept in `runs` to `output`, in order, and empties them. When
        /// their buffers have more than twice ``RecordProcessor/pendingBytes`` of room between
        /// them — grown by a round of larger output, written at once, before they held a
        /// smaller round's to keep — the memory is given back, so that the buffers of the
        /// output kept for a round do not stay that large while the other set grows as well.
        static func write(_ runs: ArraySlice<RunOutput>, to output: OutputSink) {
            var room = 0
            for run in runs {
                run.buffer.withBytes { output.append($0) }
                run.buffer.removeAll()
                room += run.buffer.capacity
            }
            guard room > 2 * RecordProcessor.pendingBytes else { return }
            for run in runs { run.buffer.removeAll(keepingCapacityUpTo: initialCapacity) }
        }
        /// Keeps the next run's buffer, which another thread writes at the same time, off
        /// this one's cache line.
        private let padding: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
    }

    /// What one thread of a round normalizes with: a processor whose registry it shares with
    /// no other thread.
    package final class Worker: Sendable {
        let processor: RecordProcessor

        init(_ processor: RecordProcessor) {
            self.processor = processor
        }
    }

    /// Hands out the run numbers `0..<count`, each once and in order, to the threads that ask,
    /// and the writing of the round before's output to the first thread that asks for it.
    final class RunQueue: @unchecked Sendable {
        private let count: Int
        private var taken = 0
        private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

        init(count: Int) {
            self.count = count
            pthread_mutex_init(mutex, nil)
        }

        deinit {
            pthread_mutex_destroy(mutex)
            mutex.deallocate()
        }

        private var writingTaken = false

        /// Whether the caller is the first to ask: that thread writes the round before's
        /// output.
        func takeWriting() -> Bool {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            guard !writingTaken else { return false }
            writingTaken = true
            return true
        }

        /// The next run, or `nil` when every run has been handed out.
        func next() -> Int? {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            guard taken < count else { return nil }
            taken += 1
            return taken - 1
        }
    }

    package static func isBlank(_ record: UnsafeBufferPointer<UInt8>) -> Bool {
        for b in record where b != 0x20 && b != 0x09 && b != 0x0D { return false }
        return true
    }

    package static func index(of byte: UInt8, in buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard start < buffer.count, let base = buffer.baseAddress else { return nil }
        guard let found = memchr(base + start, Int32(byte), buffer.count - start) else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    package static func lastIndex(of byte: UInt8, in buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var i = buffer.count - 1
        while i >= start {
            if buffer[i] == byte { return i }
            i -= 1
        }
        return nil
    }
}

/// An input's name as error records show it (`"file"`), with its JSON made once per input.
package struct InputName: Sendable {
    /// The file argument; `nil` for standard input.
    package let file: String?
    /// `,"file":"…"` (escaped), or nothing for standard input.
    package let fileField: [UInt8]

    package init(_ file: String?) {
        self.file = file
        if let file {
            var field = Array(#","file":"#.utf8)
            JSONWriter.writeString(file, into: &field)
            fileField = field
        } else {
            fileField = []
        }
    }
}
