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

    /// The most lines and input bytes in one run, the unit the threads take and whose output
    /// is written whole, in input order (a run holds at least one line, whatever its length).
    /// With several threads, runs are short, so that the threads finish a block together;
    /// with one, long, so that each run's output reaches the sink in chunks it writes as they
    /// are, not copied into its buffer first.
    package static func runLimits(jobs: Int) -> (lines: Int, bytes: Int) {
        jobs == 1 ? (4096, 1 << 20) : (64, 1 << 16)
    }
    /// The most input bytes in the runs taken and not yet written: with the number of run
    /// buffers (``BlockWorkspace/windowRuns(jobs:)``), it bounds the output held in memory,
    /// whatever the number and size of a block's records.
    package static let windowBytes = 1 << 21

    /// Processes JSON Lines, streaming, on up to `jobs` threads; adds the number of failed
    /// records to `failed`.
    ///
    /// The input is read in blocks of whole lines (from a regular file, 64 KiB, then four times
    /// the block before up to 4 MiB, so that the threads start at once; the next one read, and
    /// its newlines found, on a thread of its own while this one is normalized when `jobs` is
    /// more than 1; from a pipe or terminal, whatever has arrived); a block's lines are cut
    /// into runs (``runLimits(jobs:)``), which up to `jobs` threads take in order, one at a
    /// time, and each run's output is written as soon as the runs before it have been — in
    /// input order, while the other threads go on, with at most ``windowBytes`` of input in
    /// runs taken and not yet written
    /// (``processBlock(_:newlines:firstLine:name:into:jobs:workspace:)``). A line longer than
    /// `limits.maxRecordBytes` is not kept: its bytes are skipped up to the next newline and it
    /// yields one `limitExceeded` record — unless it is blank (spaces, tabs, CRs), which is
    /// skipped like every blank line, whatever its length and wherever the read blocks fall.
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
        // The thread that reads ahead also finds the newlines; without it, they are found as
        // the block is cut into runs, in one pass.
        let readsAhead = jobs > 1 && input.readsWholeBlocks
        let blocks = BlockReader(
            input,
            blockSize: blockSize,
            firstBlockSize: 1 << 16,
            indexesNewlines: readsAhead,
            readsAhead: readsAhead
        )
        var linesBefore = 0  // lines consumed before the current block
        var carry: [UInt8] = []  // the start of a line that continues in the next read
        var skipping = false  // inside a line longer than the limit
        var skipped = 0  // the bytes of that line so far
        var skippedBlank = true  // whether they are all blank

        var workspace = BlockWorkspace()
        func endSkippedLine() {
            linesBefore += 1
            skipping = false
            guard !skippedBlank else { return }
            failed += 1
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
                    // The block's newlines, found when the chunk was read: the chunk's from
                    // `start` on (one or two before it at most, the end of a carried or
                    // skipped line); looked for here when the chunk had too many to note.
                    var newlines: (offsets: ArraySlice<UInt32>, base: Int)? = nil
                    if let offsets = blocks.newlines {
                        var first = offsets.startIndex
                        while Int(offsets[first]) < start { first += 1 }
                        newlines = (offsets[first...], start)
                    }
                    failed += processBlock(
                        block,
                        newlines: newlines,
                        firstLine: linesBefore + 1,
                        name: name,
                        into: output,
                        jobs: jobs,
                        workspace: &workspace
                    )
                    linesBefore += workspace.lineCount
                }
                start = lastNewline + 1
            }
            if start < length { keep(UnsafeBufferPointer(rebasing: chunk[start...])) }
            if input.readsWholeBlocks {
                // A regular file: a failed write stops the run here.
                try output.checkpoint()
            } else {
                // Flushed now, so that a record arriving on a slow stream is not held back.
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
        try output.flush()
    }

    /// Normalizes the newline-terminated lines of `block` on up to `jobs` threads and writes
    /// their output to `output` in input order; returns the number of failed records. Stops
    /// taking lines once standard output has failed. `workspace` keeps the line table, the run
    /// buffers and the threads' registries from block to block, so their memory is reused.
    ///
    /// The lines are cut into runs (``runLimits(jobs:)``). Up to `jobs` workers take the runs
    /// in order, one at a time, each normalizing into a buffer of its own; the worker that
    /// finishes the next run to be written writes it, and the finished runs that follow it,
    /// while the others go on. A run is taken only while the runs taken and not yet written
    /// hold at most ``windowBytes`` of input and number fewer than the buffers
    /// (``BlockWorkspace/windowRuns(jobs:)``) — the one to be written next is always taken —
    /// so a slow run (costly records, a busy core) holds back at most that much output. The
    /// threads meet once a block, not once every few thousand lines: a thread's start and the
    /// wait for the last run, paid once every 4,096 lines or 1 MiB, left the second of two
    /// threads idle 7–9% of the time (docs/performance.md, "Thirty-first round"). Each worker
    /// normalizes with a registry of its own (``AdapterRegistry/replica()``, made for the first
    /// parallel block), so the threads share no object whose reference count changes per
    /// record.
    ///
    /// `newlines`, when given, is where the block's newlines are — their offsets in a larger
    /// buffer that the block starts `base` bytes into, every one from the block's start to
    /// its end — found as the buffer was read (``BlockReader/newlines``), so that they are
    /// not looked for here while the other threads wait.
    package func processBlock(
        _ block: UnsafeBufferPointer<UInt8>,
        newlines: (offsets: ArraySlice<UInt32>, base: Int)? = nil,
        firstLine: Int,
        name: InputName,
        into output: OutputSink,
        jobs: Int,
        workspace: inout BlockWorkspace
    ) -> Int {
        workspace.lineEnds.removeAll(keepingCapacity: true)
        workspace.runEnds.removeAll(keepingCapacity: true)
        let limits = Self.runLimits(jobs: jobs)
        var runStart = 0
        var linesInRun = 0
        if let (offsets, base) = newlines {
            precondition(
                offsets.first.map { Int($0) >= base } ?? true && (offsets.last.map { Int($0) - base } ?? -1) == block.count - 1,
                "the newlines given are not those of the block"
            )
            workspace.lineEnds.reserveCapacity(offsets.count)
            for offset in offsets {
                let newline = Int(offset) &- base
                workspace.lineEnds.append(newline)
                linesInRun += 1
                if linesInRun == limits.lines || newline + 1 - runStart >= limits.bytes {
                    workspace.runEnds.append(workspace.lineEnds.count)
                    runStart = newline + 1
                    linesInRun = 0
                }
            }
        } else {
            var i = 0
            while let newline = Self.index(of: 0x0A, in: block, from: i) {
                workspace.lineEnds.append(newline)
                i = newline + 1
                linesInRun += 1
                if linesInRun == limits.lines || i - runStart >= limits.bytes {
                    workspace.runEnds.append(workspace.lineEnds.count)
                    runStart = i
                    linesInRun = 0
                }
            }
        }
        if linesInRun > 0 { workspace.runEnds.append(workspace.lineEnds.count) }
        let runCount = workspace.runEnds.count
        guard runCount > 0, !output.hasFailed else { return 0 }
        let workerCount = min(jobs, runCount)
        let windowRuns = BlockWorkspace.windowRuns(jobs: workerCount)
        // The room each buffer keeps once written: the buffers keep at most the window's
        // bytes between them.
        let keptCapacity = max(RunOutput.initialCapacity, Self.windowBytes / windowRuns)
        while workspace.buffers.count < windowRuns { workspace.buffers.append(RunOutput()) }
        while workspace.workers.count < workerCount {
            let processor =
                workspace.workers.isEmpty
                ? self : RecordProcessor(registry: registry.replica(), vendor: vendor, pretty: pretty, encoder: encoder)
            workspace.workers.append(Worker(processor))
        }
        let lineEnds = workspace.lineEnds
        let runEnds = workspace.runEnds
        let workers = workspace.workers
        let schedule = RunSchedule(runEnds: runEnds, lineEnds: lineEnds, windowRuns: windowRuns, windowBytes: Self.windowBytes)
        // Each run reads only its own lines of the block and writes only its own buffer,
        // which the writer reads once the schedule has said the run is finished; only the
        // writer, one thread at a time, touches `output`.
        nonisolated(unsafe) let block = block
        nonisolated(unsafe) let output = output
        nonisolated(unsafe) let buffers = workspace.buffers
        let work: @Sendable (Int) -> Void = { index in
            // Copied out of the worker once, not for each record.
            let processor = workers[index].processor
            var finished: (run: Int, failed: Int)? = nil
            while true {
                switch schedule.next(finishing: finished) {
                case .run(let run):
                    let buffer = buffers[run % windowRuns]
                    buffer.buffer.removeAll()
                    var failed = 0
                    let from = run == 0 ? 0 : runEnds[run - 1]
                    var start = from == 0 ? 0 : lineEnds[from - 1] + 1
                    for line in from..<runEnds[run] {
                        let record = UnsafeBufferPointer(rebasing: block[start..<lineEnds[line]])
                        start = lineEnds[line] + 1
                        guard !Self.isBlank(record) else { continue }
                        if processor.output(for: record, line: firstLine + line, name: name, into: &buffer.buffer) {
                            failed += 1
                        }
                    }
                    finished = (run, failed)
                case .write(let runs):
                    // Written outside the schedule's lock: the other workers go on taking runs.
                    for run in runs { RunOutput.write(buffers[run % windowRuns], to: output, keeping: keptCapacity) }
                    finished = nil
                    schedule.written(through: runs.upperBound, outputFailed: output.hasFailed)
                case .done:
                    return
                }
            }
        }
        if workerCount == 1 {
            work(0)
        } else {
            DispatchQueue.concurrentPerform(iterations: workerCount, execute: work)
        }
        return schedule.failed
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
        /// For each run of the current block, the index in ``lineEnds`` past its last line.
        var runEnds: [Int] = []
        /// The run buffers: run `r` of a block writes into buffer `r % windowRuns`.
        var buffers: [RunOutput] = []
        /// One worker per thread, the first normalizing with the processor itself.
        var workers: [Worker] = []
        /// The number of lines in the current block.
        var lineCount: Int { lineEnds.count }

        /// How many runs may be taken and not yet written with `jobs` threads: sixteen a
        /// thread, so that a thread slowed by a costly run does not stop the others at once.
        static func windowRuns(jobs: Int) -> Int {
            jobs == 1 ? 1 : 16 * jobs
        }
    }

    /// The output buffer of one run, kept from block to block.
    package final class RunOutput {
        /// Written by one thread at a time (the worker that took the run, then the one that
        /// writes it out), handed from one to the next under ``RunSchedule``'s lock: no
        /// access needs checking while the program runs.
        @exclusivity(unchecked) var buffer = JSONOutputBuffer(capacity: initialCapacity)
        /// The room each buffer starts with.
        static let initialCapacity = 1 << 16

        /// Appends the output kept in `run` to `output` and empties it. A buffer with more
        /// room than `keeping` — grown by a run of records whose output is much larger than
        /// they are — gives the memory back, so that the buffers do not all stay that large.
        static func write(_ run: RunOutput, to output: OutputSink, keeping: Int) {
            run.buffer.withBytes { output.append($0) }
            if run.buffer.capacity > keeping {
                run.buffer.removeAll(keepingCapacityUpTo: initialCapacity)
            } else {
                run.buffer.removeAll()
            }
        }
        /// Keeps the next run's buffer, which another thread writes at the same time, off
        /// this one's cache line.
        private let padding: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
    }

    /// What one thread normalizes with: a processor whose registry it shares with no other
    /// thread.
    package final class Worker: Sendable {
        let processor: RecordProcessor

        init(_ processor: RecordProcessor) {
            self.processor = processor
        }
    }

    /// Hands a block's runs to the workers, in order and each once, and the writing of the
    /// finished runs, in order, to one worker at a time
    /// (``RecordProcessor/processBlock(_:newlines:firstLine:name:into:jobs:workspace:)``).
    final class RunSchedule: @unchecked Sendable {
        /// What a worker does next.
        enum Step {
            /// Normalize this run.
            case run(Int)
            /// Write these finished runs' output, then report ``written(through:outputFailed:)``.
            case write(Range<Int>)
            /// Nothing is left for this worker: every run is taken (or the output failed).
            case done
        }

        private let runEnds: [Int]
        private let lineEnds: [Int]
        private let windowRuns: Int
        private let windowBytes: Int
        private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        private let windowMoved = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        // Guarded by `mutex`:
        /// The next run to hand out.
        private var taken = 0
        /// The runs before this one are written.
        private var writtenRuns = 0
        /// The input bytes of the runs taken and not yet written.
        private var heldBytes = 0
        /// Whether each run is finished.
        private var finished: [Bool]
        /// Whether a worker is writing.
        private var writing = false
        /// Whether the output has failed: no more runs are handed out.
        private var stopped = false
        private var failures = 0

        init(runEnds: [Int], lineEnds: [Int], windowRuns: Int, windowBytes: Int) {
            self.runEnds = runEnds
            self.lineEnds = lineEnds
            self.windowRuns = windowRuns
            self.windowBytes = windowBytes
            finished = [Bool](repeating: false, count: runEnds.count)
            pthread_mutex_init(mutex, nil)
            pthread_cond_init(windowMoved, nil)
        }

        deinit {
            pthread_cond_destroy(windowMoved)
            pthread_mutex_destroy(mutex)
            windowMoved.deallocate()
            mutex.deallocate()
        }

        /// The input bytes of run `run`, its lines' newlines included.
        private func bytes(_ run: Int) -> Int {
            let start = run == 0 ? 0 : lineEnds[runEnds[run - 1] - 1] + 1
            return lineEnds[runEnds[run] - 1] + 1 - start
        }

        /// The number of failed records in the finished runs.
        var failed: Int {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return failures
        }

        /// The caller's next step, `finishing` the run it normalized last (with its number of
        /// failed records), if any. The writing comes first: the worker that finishes the run
        /// to be written next, with no other worker writing, writes it and every finished run
        /// after it. A run is handed out when it is the next to be written, or when the runs
        /// taken and not written are fewer than `windowRuns` and hold at most `windowBytes`
        /// with it; otherwise the caller waits for the writing to move on.
        func next(finishing: (run: Int, failed: Int)?) -> Step {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            if let finishing {
                finished[finishing.run] = true
                failures += finishing.failed
            }
            let count = runEnds.count
            if !writing, writtenRuns < count, finished[writtenRuns] {
                var end = writtenRuns + 1
                while end < count, finished[end] { end += 1 }
                writing = true
                return .write(writtenRuns..<end)
            }
            while true {
                if stopped || taken == count { return .done }
                let size = bytes(taken)
                if taken == writtenRuns || (taken - writtenRuns < windowRuns && heldBytes + size <= windowBytes) {
                    heldBytes += size
                    taken += 1
                    return .run(taken - 1)
                }
                // Every run between the written ones and `taken` is being normalized or
                // written, and whoever finishes it moves the window on.
                pthread_cond_wait(windowMoved, mutex)
            }
        }

        /// Reports that the runs before `end` are written (the ones a ``Step/write(_:)`` handed
        /// out), and whether the output has failed since.
        func written(through end: Int, outputFailed: Bool) {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            for run in writtenRuns..<end { heldBytes -= bytes(run) }
            writtenRuns = end
            writing = false
            if outputFailed { stopped = true }
            pthread_cond_broadcast(windowMoved)
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
