import Dispatch
import Foundation
import NormalizeCore
import Testing

/// `BlockReader` (`normalize --lines` with more than one thread reads a regular file's next
/// block while the current one is normalized): the blocks, their bytes, the progress count and
/// the error that ends them are those of reading each block when asked for; nothing is read
/// after the end or an error; the read ahead does happen before the next block is asked for,
/// even while every thread of Dispatch's pool is busy; the first block is the short one asked
/// for and each after it at most four times the one before; the newlines noted for a block are
/// those of its bytes; and a reader dropped with a read in flight waits for it before freeing
/// its buffers.
@Suite struct BlockReaderTests {
    /// A source that serves `bytes` in reads of at most `step` bytes (a regular file serves
    /// whole buffers; smaller steps stand for a pipe), fails the read numbered `failingRead`
    /// (from 1) if set, and notes every read.
    final class Source: BlockSource, @unchecked Sendable {
        let bytes: [UInt8]
        let step: Int
        let failingRead: Int?
        let delay: UInt32
        private let lock = NSLock()
        private var offset = 0
        private var reads = 0
        private var finished = 0
        /// Signalled when a read begins.
        let started = DispatchSemaphore(value: 0)

        init(_ bytes: [UInt8], step: Int = .max, failingRead: Int? = nil, delay: UInt32 = 0) {
            self.bytes = bytes
            self.step = step
            self.failingRead = failingRead
            self.delay = delay
        }

        var bytesRead: Int { lock.withLock { offset } }
        /// The reads begun and the reads finished.
        var counts: (begun: Int, finished: Int) { lock.withLock { (reads, finished) } }

        func read(into buffer: UnsafeMutableRawBufferPointer) throws(IOFailure) -> Int {
            let number = lock.withLock {
                reads += 1
                return reads
            }
            started.signal()
            if delay > 0 { usleep(delay) }
            defer { lock.withLock { finished += 1 } }
            if number == failingRead { throw .read(input: "'test'", errno: EIO) }
            let count = lock.withLock { () -> Int in
                let count = min(buffer.count, step, bytes.count - offset)
                for i in 0..<count { buffer[i] = bytes[offset + i] }
                offset += count
                return count
            }
            return count
        }
    }

    /// Every block, with the progress count after it, until the end or an error.
    static func blocks(of source: Source, blockSize: Int, readsAhead: Bool) -> (blocks: [[UInt8]], progress: [Int], error: String?) {
        let reader = BlockReader(source, blockSize: blockSize, readsAhead: readsAhead)
        var blocks: [[UInt8]] = []
        var progress: [Int] = []
        do {
            while true {
                let block = try reader.nextBlock()
                if block.isEmpty { break }
                blocks.append(Array(block))
                progress.append(reader.bytesRead)
            }
        } catch {
            return (blocks, progress, error.description)
        }
        return (blocks, progress, nil)
    }

    static let text: [UInt8] = (0..<1_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }

    @Test(arguments: [1, 7, 100, 999, 1_000, 1_001, 4_096])
    func readingAheadGivesTheSameBlocks(blockSize: Int) {
        for step in [Int.max, 3, 64] {
            let direct = Self.blocks(of: Source(Self.text, step: step), blockSize: blockSize, readsAhead: false)
            let ahead = Self.blocks(of: Source(Self.text, step: step), blockSize: blockSize, readsAhead: true)
            #expect(direct.error == nil && ahead.error == nil)
            #expect(direct.blocks.flatMap { $0 } == Self.text, "block \(blockSize), step \(step)")
            #expect(ahead.blocks == direct.blocks, "block \(blockSize), step \(step)")
            // The progress counts the blocks handed out, not the one read ahead.
            #expect(ahead.progress == direct.progress, "block \(blockSize), step \(step)")
            #expect(direct.progress == direct.blocks.indices.map { i in direct.blocks[...i].reduce(0) { $0 + $1.count } })
        }
    }

    @Test(arguments: [false, true])
    func aReadErrorComesAfterTheBlocksBeforeItAndEndsTheReading(readsAhead: Bool) throws {
        let source = Source(Self.text, failingRead: 4)
        let reader = BlockReader(source, blockSize: 100, readsAhead: readsAhead)
        var blocks: [[UInt8]] = []
        var failure: IOFailure?
        do {
            while true {
                let block = try reader.nextBlock()
                if block.isEmpty { break }
                blocks.append(Array(block))
            }
        } catch {
            failure = error
        }
        #expect(blocks == [Array(Self.text[0..<100]), Array(Self.text[100..<200]), Array(Self.text[200..<300])])
        #expect(failure?.description == "cannot read 'test': \(String(cString: strerror(EIO)))")
        // Nothing is read after the failed read, and every later call is the end.
        #expect(try reader.nextBlock().isEmpty)
        #expect(source.counts.begun == 4)
    }

    @Test(arguments: [false, true])
    func nothingIsReadAfterTheEnd(readsAhead: Bool) throws {
        let source = Source(Self.text)
        let reader = BlockReader(source, blockSize: 600, readsAhead: readsAhead)
        #expect(try reader.nextBlock().count == 600)
        #expect(try reader.nextBlock().count == 400)
        #expect(try reader.nextBlock().isEmpty)
        #expect(try reader.nextBlock().isEmpty)
        // Three reads: two blocks and the end.
        #expect(source.counts.begun == 3)
    }

    @Test func theNextBlockIsReadBeforeItIsAskedFor() throws {
        let source = Source(Self.text)
        let reader = BlockReader(source, blockSize: 100, readsAhead: true)
        #expect(try reader.nextBlock().count == 100)
        // The first read, then the second, begun without another call.
        #expect(source.started.wait(timeout: .now() + 30) == .success)
        #expect(source.started.wait(timeout: .now() + 30) == .success)
        #expect(source.counts.begun == 2)
        // Once the read ahead has finished, the progress still counts only the first block.
        for _ in 0..<30_000 where source.counts.finished < 2 { usleep(1_000) }
        #expect(source.counts.finished == 2 && source.bytesRead == 200)
        #expect(reader.bytesRead == 100)
    }

    @Test func theReadAheadDoesNotWaitForABusyDispatchPool() throws {
        // While a block is normalized, `DispatchQueue.concurrentPerform` keeps Dispatch's
        // threads busy: the read ahead, asked for once they all are, still begins at once.
        let source = Source(Self.text)
        nonisolated(unsafe) let reader = BlockReader(source, blockSize: 100, readsAhead: true)
        let width = max(2, ProcessInfo.processInfo.activeProcessorCount)
        let running = NSLock()
        nonisolated(unsafe) var started = 0
        DispatchQueue.concurrentPerform(iterations: width) { index in
            running.withLock { started += 1 }
            let deadline = DispatchTime.now().uptimeNanoseconds + 10_000_000_000
            if index == 0 {
                while running.withLock({ started }) < width && DispatchTime.now().uptimeNanoseconds < deadline {}
                _ = try? reader.nextBlock()
            }
            while source.counts.begun < 2 && DispatchTime.now().uptimeNanoseconds < deadline {}
        }
        #expect(source.counts.begun == 2)
    }

    @Test(arguments: [false, true])
    func blocksStartShortAndGrowFourfold(readsAhead: Bool) throws {
        for (first, blockSize) in [(1, 100), (37, 100), (100, 100), (250, 100), (5, 64), (3, 1_000)] {
            let source = Source(Self.text)
            let reader = BlockReader(source, blockSize: blockSize, firstBlockSize: first, readsAhead: readsAhead)
            var blocks: [[UInt8]] = []
            while true {
                let block = try reader.nextBlock()
                if block.isEmpty { break }
                blocks.append(Array(block))
            }
            #expect(blocks.flatMap { $0 } == Self.text, "first block \(first)")
            // The first block's size, each next one four times it, up to the block size, and
            // then what is left.
            var sizes: [Int] = []
            var size = min(first, blockSize)
            var left = Self.text.count
            while left > 0 {
                sizes.append(min(size, left))
                left -= min(size, left)
                size = min(size * 4, blockSize)
            }
            #expect(blocks.map(\.count) == sizes, "first block \(first), blocks of \(blockSize)")
        }
    }

    @Test(arguments: [false, true])
    func theNewlinesOfEachBlockAreThoseOfItsBytes(readsAhead: Bool) throws {
        // Lines of every length from 0 to 40, and a last line with no newline.
        var text: [UInt8] = []
        for length in 0...40 { text += Array(repeating: UInt8(ascii: "x"), count: length) + [0x0A] }
        text += Array("end".utf8)
        for (first, blockSize) in [(1, 7), (16, 64), (64, 64), (256, 4_096), (4_096, 4_096), (4_096, 40_000)] {
            for step in [Int.max, 5] {
                let reader = BlockReader(
                    Source(text, step: step),
                    blockSize: blockSize,
                    firstBlockSize: first,
                    indexesNewlines: true,
                    readsAhead: readsAhead
                )
                var total = 0
                while true {
                    let block = try reader.nextBlock()
                    if block.isEmpty { break }
                    let expected = block.indices.filter { block[$0] == 0x0A }.map { UInt32($0) }
                    // Noted unless there are more than one for every 64 bytes of a block.
                    let noted = expected.count <= max(1, blockSize / 64)
                    #expect(reader.newlines == (noted ? expected : nil), "blocks of \(blockSize), reads of \(step)")
                    total += block.count
                }
                #expect(total == text.count)
                // Without the option, no table.
                let plain = BlockReader(Source(text), blockSize: blockSize, readsAhead: readsAhead)
                #expect(try !plain.nextBlock().isEmpty && plain.newlines == nil)
            }
        }
    }

    @Test func aReaderDroppedWithAReadInFlightWaitsForIt() throws {
        let source = Source(Self.text, delay: 200_000)
        do {
            let reader = BlockReader(source, blockSize: 100, readsAhead: true)
            #expect(try reader.nextBlock().count == 100)
            // The second read is under way (it takes 0.2 s); the reader goes now.
        }
        // Its buffers were freed after the read into one of them finished (the address
        // sanitizer run of CI would catch a write after the free).
        #expect(source.counts.begun == 2 && source.counts.finished == 2)
    }
}
