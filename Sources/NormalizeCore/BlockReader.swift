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
/// is read on another thread while the caller works on the one it was handed, so that the
/// read's copy from the kernel (about a twentieth of a run's wall time with two threads, on the
/// benchmark machine) is not a pause for every thread; without it, each block is read when
/// asked for, on the caller's thread.
///
/// The blocks, their bytes and the error that ends them are the same either way: a read error
/// is thrown by the call that would have returned the block it failed on, after every block
/// before it, and nothing is read after it or after the end.
package final class BlockReader {
    /// The read in flight and its outcome, shared with the thread that reads ahead. The two
    /// threads never use it at the same time: the reading thread fills ``outcome`` and then
    /// signals ``done``; the caller reads ``outcome`` only after waiting on ``done``, and starts
    /// a read only when none is in flight.
    private final class Shared: @unchecked Sendable {
        let source: any BlockSource
        var outcome: Result<Int, IOFailure> = .success(0)
        /// ``BlockSource/bytesRead`` just after the read, taken on the reading thread.
        var bytesReadAfter = 0
        let done = DispatchSemaphore(value: 0)

        init(source: any BlockSource) {
            self.source = source
        }

        func read(into buffer: UnsafeMutableRawBufferPointer) {
            outcome = Result { () throws(IOFailure) -> Int in try source.read(into: buffer) }
            bytesReadAfter = source.bytesRead
        }
    }

    private let shared: Shared
    private let buffers: [UnsafeMutableRawBufferPointer]
    private let queue: DispatchQueue?
    /// The buffer the next block is read, or being read, into.
    private var next = 0
    private var inFlight = false
    private var ended = false

    /// ``BlockSource/bytesRead`` as of the last block handed out (the blocks read ahead not
    /// counted): for a progress line that matches the records.
    package private(set) var bytesRead = 0

    /// A reader of `source` in blocks of at most `blockSize` bytes; with `readsAhead`, the
    /// first block is asked for at once.
    package init(_ source: any BlockSource, blockSize: Int, readsAhead: Bool) {
        precondition(blockSize > 0, "a block holds at least one byte")
        shared = Shared(source: source)
        buffers = (0..<(readsAhead ? 2 : 1)).map { _ in .allocate(byteCount: blockSize, alignment: 16) }
        queue = readsAhead ? DispatchQueue(label: "taproute.normalize.read-ahead") : nil
        if readsAhead { startRead() }
    }

    deinit {
        // The thread reading ahead writes into a buffer freed below: it finishes first.
        if inFlight { shared.done.wait() }
        for buffer in buffers { buffer.deallocate() }
    }

    /// The next block of the input, empty at its end. Its bytes stay valid until the next call.
    /// - Throws: the ``IOFailure`` of the read that would have returned it; every later call
    ///   returns an empty block.
    package func nextBlock() throws(IOFailure) -> UnsafeBufferPointer<UInt8> {
        guard !ended else { return UnsafeBufferPointer(start: nil, count: 0) }
        let index = next
        if queue != nil {
            shared.done.wait()
            inFlight = false
        } else {
            shared.read(into: buffers[index])
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
        } else if queue != nil {
            next = 1 - next
            startRead()
        }
        let base = buffers[index].baseAddress?.assumingMemoryBound(to: UInt8.self)
        return UnsafeBufferPointer(start: base, count: length)
    }

    /// Starts reading the next block into ``buffers``[``next``] on the reading thread.
    private func startRead() {
        guard let queue else { return }
        inFlight = true
        let shared = shared
        // A buffer pointer is not `Sendable`; this one is the reading thread's alone until
        // `done` is signalled.
        nonisolated(unsafe) let buffer = buffers[next]
        queue.async { [shared] in
            shared.read(into: buffer)
            shared.done.signal()
        }
    }
}
