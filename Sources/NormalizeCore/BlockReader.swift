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
/// asked for, on the caller's thread. The first block is always read when asked for, and is
/// at most `firstBlockSize` bytes: the caller starts on a short block at once, not after a
/// whole block's read, while the next block is read ahead.
///
/// The reading thread is a thread of its own, not a Dispatch queue's: while
/// `DispatchQueue.concurrentPerform` keeps every thread of Dispatch's pool busy normalizing a
/// block, work sent to a queue waits for one of them, so a read "ahead" on a queue began only
/// once the block was done — a pause of 0.2–0.5 ms before every block on the benchmark machine
/// (docs/performance.md, "Forty-second round").
///
/// The blocks, their bytes and the error that ends them are the same either way: a read error
/// is thrown by the call that would have returned the block it failed on, after every block
/// before it, and nothing is read after it or after the end.
package final class BlockReader {
    /// The read in flight and its outcome, shared with the thread that reads ahead. The two
    /// threads never use it at the same time: the caller sets ``buffer`` and then signals
    /// ``request``; the reading thread fills ``outcome`` and then signals ``done``; the caller
    /// reads ``outcome`` only after waiting on ``done``, and starts a read only when none is in
    /// flight. A request with no buffer ends the reading thread.
    private final class Shared: @unchecked Sendable {
        let source: any BlockSource
        var outcome: Result<Int, IOFailure> = .success(0)
        /// ``BlockSource/bytesRead`` just after the read, taken on the reading thread.
        var bytesReadAfter = 0
        /// The buffer to read into next; `nil` to end the reading thread.
        var buffer: UnsafeMutableRawBufferPointer?
        let request = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)

        init(source: any BlockSource) {
            self.source = source
        }

        func read(into buffer: UnsafeMutableRawBufferPointer) {
            outcome = Result { () throws(IOFailure) -> Int in try source.read(into: buffer) }
            bytesReadAfter = source.bytesRead
        }

        /// The reading thread: reads into each buffer asked for, until asked for none.
        func serve() {
            while true {
                request.wait()
                guard let buffer else { return }
                read(into: buffer)
                done.signal()
            }
        }
    }

    private let shared: Shared
    private let buffers: [UnsafeMutableRawBufferPointer]
    private let readsAhead: Bool
    private let firstBlockSize: Int
    /// Whether the first block has been read.
    private var started = false
    /// The buffer the next block is read, or being read, into.
    private var next = 0
    private var inFlight = false
    private var ended = false

    /// ``BlockSource/bytesRead`` as of the last block handed out (the blocks read ahead not
    /// counted): for a progress line that matches the records.
    package private(set) var bytesRead = 0

    /// A reader of `source` in blocks of at most `blockSize` bytes, the first of at most
    /// `firstBlockSize` (`blockSize` when `nil`). Reads each block when asked for, as without
    /// `readsAhead`, when the system cannot start the reading thread.
    package init(_ source: any BlockSource, blockSize: Int, firstBlockSize: Int? = nil, readsAhead: Bool) {
        precondition(blockSize > 0, "a block holds at least one byte")
        let shared = Shared(source: source)
        self.shared = shared
        self.firstBlockSize = min(max(firstBlockSize ?? blockSize, 1), blockSize)
        self.readsAhead = readsAhead && ReadingThread.start { shared.serve() }
        buffers = (0..<(self.readsAhead ? 2 : 1)).map { _ in .allocate(byteCount: blockSize, alignment: 16) }
    }

    deinit {
        // The thread reading ahead writes into a buffer freed below: it finishes first.
        if inFlight { shared.done.wait() }
        if readsAhead {
            shared.buffer = nil
            shared.request.signal()
        }
        for buffer in buffers { buffer.deallocate() }
    }

    /// The next block of the input, empty at its end. Its bytes stay valid until the next call.
    /// - Throws: the ``IOFailure`` of the read that would have returned it; every later call
    ///   returns an empty block.
    package func nextBlock() throws(IOFailure) -> UnsafeBufferPointer<UInt8> {
        guard !ended else { return UnsafeBufferPointer(start: nil, count: 0) }
        let index = next
        if inFlight {
            shared.done.wait()
            inFlight = false
        } else if started {
            shared.read(into: buffers[index])
        } else {
            started = true
            shared.read(into: UnsafeMutableRawBufferPointer(rebasing: buffers[index][0..<firstBlockSize]))
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
        if length == 0 {
            ended = true
        } else if readsAhead {
            next = 1 - next
            startRead()
        }
        let base = buffers[index].baseAddress?.assumingMemoryBound(to: UInt8.self)
        return UnsafeBufferPointer(start: base, count: length)
    }

    /// Starts reading the next block into ``buffers``[``next``] on the reading thread.
    private func startRead() {
        inFlight = true
        shared.buffer = buffers[next]
        shared.request.signal()
    }
}
