import Dispatch

/// Where ``BlockReader`` reads from: ``InputSource``, or a stand-in in tests.
package protocol BlockSource: AnyObject {
    /// Reads into `buffer` from its start; returns how many bytes were read, 0 only at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(IOFailure) -> Int
    /// The bytes read so far.
    var bytesRead: Int { get }
}

extension InputSource: BlockSource {}

/// What ``RecordProcessor/processLines(from:name:into:jobs:failed:)`` reads: ``InputSource``,
/// or a stand-in in tests.
package protocol LineSource: BlockSource {
    /// Whether reads fill whole blocks (a regular file): its next block is then read ahead,
    /// and its output is not flushed block by block.
    var readsWholeBlocks: Bool { get }
    /// Reports that `records` records have been read, from the first `bytesRead` bytes.
    func reportProgress(records: Int, bytesRead: Int)
}

extension InputSource: LineSource {}

/// Reads an input block by block, into buffers of its own. With `readsAhead`, the next block
/// is read on a thread of its own while the caller works on the one it was handed, so that the
/// read's copy from the kernel (about a twentieth of a run's wall time with two threads, on the
/// benchmark machine) is not a pause for every thread; without it, each block is read when
/// asked for, on the caller's thread. With `indexesNewlines`, the thread that reads a block
/// also notes where its newlines are (``newlines``), so that the caller does not look for
/// them while the threads that would normalize the block wait.
///
/// The first block is always read when asked for, and is at most `firstBlockSize` bytes; each
/// block after it at most four times the one before, up to `blockSize`. The caller starts on a
/// short block at once, not after a whole block's read, and each block is read ahead in less
/// time than the one before takes to normalize.
///
/// The reading thread is a thread of its own, not a Dispatch queue's: while
/// `DispatchQueue.concurrentPerform` keeps Dispatch's threads busy normalizing a block, a read
/// sent to a queue began only once the block was done — a pause of 0.2–0.5 ms before every
/// block on the benchmark machine (docs/performance.md, "Forty-second round").
///
/// The blocks, their bytes and the error that ends them are the same either way: a read error
/// is thrown by the call that would have returned the block it failed on, after every block
/// before it, and nothing is read after it or after the end.
package final class BlockReader {
    /// Where the newlines of a block are; one for each buffer, used by one thread at a time.
    private final class NewlineTable: @unchecked Sendable {
        var offsets: [UInt32] = []
        /// Whether ``offsets`` holds every newline of the block.
        var isComplete = true
        /// The most offsets kept: one for every 64 bytes of a block. A block of shorter lines
        /// (blank ones, say) is left to its reader to scan, so the table never takes more
        /// than a sixteenth of a block's size in memory.
        let limit: Int

        init(blockSize: Int) {
            limit = max(1, blockSize / 64)
        }

        /// Notes the offset of every newline in `bytes`, in order, unless they are more than
        /// ``limit``.
        func index(_ bytes: UnsafeBufferPointer<UInt8>) {
            offsets.removeAll(keepingCapacity: true)
            isComplete = true
            var from = 0
            while let offset = RecordProcessor.index(of: 0x0A, in: bytes, from: from) {
                guard offsets.count < limit else {
                    offsets.removeAll(keepingCapacity: true)
                    isComplete = false
                    return
                }
                offsets.append(UInt32(truncatingIfNeeded: offset))
                from = offset + 1
            }
        }
    }

    /// The read in flight and its outcome, shared with the thread that reads ahead. The two
    /// threads never use it at the same time: the caller sets ``request`` and then signals
    /// ``requested``; the reading thread fills ``outcome`` (and the request's table) and then
    /// signals ``done``; the caller reads them only after waiting on ``done``, and starts a
    /// read only when none is in flight. A `nil` request ends the reading thread.
    private final class Shared: @unchecked Sendable {
        let source: any BlockSource
        var outcome: Result<Int, IOFailure> = .success(0)
        /// ``BlockSource/bytesRead`` just after the read, taken on the reading thread.
        var bytesReadAfter = 0
        /// Where to read next, and the table for its newlines, if they are indexed.
        var request: (buffer: UnsafeMutableRawBufferPointer, newlines: NewlineTable?)?
        let requested = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)

        init(source: any BlockSource) {
            self.source = source
        }

        func read(into buffer: UnsafeMutableRawBufferPointer, newlines: NewlineTable?) {
            outcome = Result { () throws(IOFailure) -> Int in try source.read(into: buffer) }
            bytesReadAfter = source.bytesRead
            if let newlines, case .success(let count) = outcome, let base = buffer.baseAddress {
                newlines.index(UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: count))
            }
        }

        /// The reading thread: reads each block asked for, until asked for none.
        func serve() {
            while true {
                requested.wait()
                guard let request else { return }
                read(into: request.buffer, newlines: request.newlines)
                done.signal()
            }
        }
    }

    private let shared: Shared
    private let buffers: [UnsafeMutableRawBufferPointer]
    /// One table for each buffer, when newlines are indexed.
    private let tables: [NewlineTable]
    private let blockSize: Int
    private let readsAhead: Bool
    /// The most bytes of the next read.
    private var nextSize: Int
    /// The buffer the next block is read, or being read, into.
    private var next = 0
    /// The buffer of the last block handed out.
    private var current = 0
    private var inFlight = false
    private var ended = false

    /// ``BlockSource/bytesRead`` as of the last block handed out (the blocks read ahead not
    /// counted): for a progress line that matches the records.
    package private(set) var bytesRead = 0

    /// With `indexesNewlines`, the offset of every newline (0x0A) in the last block handed
    /// out, in order — unless the block has more than one for every 64 of its bytes (the
    /// table's memory stays under a sixteenth of the block's); otherwise `nil`.
    package var newlines: [UInt32]? {
        guard !tables.isEmpty, tables[current].isComplete else { return nil }
        return tables[current].offsets
    }

    /// A reader of `source` in blocks of at most `blockSize` bytes, the first of at most
    /// `firstBlockSize` (`blockSize` when `nil`), each after it of at most four times the one
    /// before. Reads each block when asked for, as without `readsAhead`, when the system
    /// cannot start the reading thread.
    package init(_ source: any BlockSource, blockSize: Int, firstBlockSize: Int? = nil, indexesNewlines: Bool = false, readsAhead: Bool) {
        precondition(blockSize > 0, "a block holds at least one byte")
        precondition(blockSize <= UInt32.max, "a block's offsets fit in 32 bits")
        let shared = Shared(source: source)
        self.shared = shared
        self.blockSize = blockSize
        nextSize = min(max(firstBlockSize ?? blockSize, 1), blockSize)
        self.readsAhead = readsAhead && ReadingThread.start { shared.serve() }
        let count = self.readsAhead ? 2 : 1
        buffers = (0..<count).map { _ in .allocate(byteCount: blockSize, alignment: 16) }
        tables = indexesNewlines ? (0..<count).map { _ in NewlineTable(blockSize: blockSize) } : []
    }

    deinit {
        // The thread reading ahead writes into a buffer freed below: it finishes first.
        if inFlight { shared.done.wait() }
        if readsAhead {
            shared.request = nil
            shared.requested.signal()
        }
        for buffer in buffers { buffer.deallocate() }
    }

    /// The next block of the input, empty at its end. Its bytes, and ``newlines``, stay valid
    /// until the next call.
    /// - Throws: the ``IOFailure`` of the read that would have returned it; every later call
    ///   returns an empty block.
    package func nextBlock() throws(IOFailure) -> UnsafeBufferPointer<UInt8> {
        guard !ended else { return UnsafeBufferPointer(start: nil, count: 0) }
        let index = next
        if inFlight {
            shared.done.wait()
            inFlight = false
        } else {
            shared.read(into: takeBuffer(index), newlines: tables.isEmpty ? nil : tables[index])
        }
        let length: Int
        switch shared.outcome {
        case .failure(let error):
            ended = true
            throw error
        case .success(let count):
            length = count
        }
        bytesRead = shared.bytesReadAfter
        current = index
        if length == 0 {
            ended = true
        } else if readsAhead {
            next = 1 - next
            startRead()
        }
        let base = buffers[index].baseAddress?.assumingMemoryBound(to: UInt8.self)
        return UnsafeBufferPointer(start: base, count: length)
    }

    /// The part of ``buffers``[`index`] the next read fills; the read after it may be four
    /// times as long, up to the block size.
    private func takeBuffer(_ index: Int) -> UnsafeMutableRawBufferPointer {
        let size = nextSize
        nextSize = size > blockSize / 4 ? blockSize : size * 4
        return UnsafeMutableRawBufferPointer(rebasing: buffers[index][0..<size])
    }

    /// Starts reading the next block into ``buffers``[``next``] on the reading thread.
    private func startRead() {
        inFlight = true
        shared.request = (takeBuffer(next), tables.isEmpty ? nil : tables[next])
        shared.requested.signal()
    }
}
