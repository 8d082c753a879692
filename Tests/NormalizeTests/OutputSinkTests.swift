import Foundation
import NormalizeCore
import TapRouteTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `OutputSink` (standard output for every subcommand): whatever the sizes appended — small
/// records, a block's output of megabytes, pieces that straddle the buffer's end — the bytes
/// written are the bytes appended, in order, in writes of at most `chunkSize` bytes, and a
/// write error is kept and thrown.
@Suite struct OutputSinkTests {
    /// Pieces of sizes around the chunk size and far above it, some met with the buffer empty
    /// and some with it partly full, each of distinct bytes.
    static func pieces() -> [[UInt8]] {
        let chunk = OutputSink.chunkSize
        var generator = SplitMix64(seed: 2_026_112_816)
        let sizes =
            [0, 1, chunk - 1, chunk, chunk + 1, 3 * chunk, 17, 5 * chunk + 3, chunk - 17, 2 * chunk, 1]
            + (0..<40).map { _ in generator.below(3 * chunk) }
        return sizes.enumerated().map { index, size in
            (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) }
        }
    }

    /// The bytes `body` writes through a sink on a new file, flushed.
    static func written(by body: (OutputSink) throws -> Void) throws -> [UInt8] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("taproute-sink-\(UUID().uuidString)").path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(descriptor >= 0)
        defer {
            close(descriptor)
            unlink(path)
        }
        let sink = OutputSink(descriptor: descriptor)
        try body(sink)
        try sink.flush()
        return try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test func writesWhatIsAppendedInOrder() throws {
        let pieces = Self.pieces()
        let written = try Self.written { sink in
            for piece in pieces { piece.withUnsafeBufferPointer { sink.append($0) } }
        }
        #expect(written == pieces.flatMap { $0 })
    }

    #if os(Linux)
        /// Each `write(2)` on a `SOCK_SEQPACKET` socket is one message, so the messages read
        /// back are the writes: none is longer than a chunk, and together they are the bytes.
        @Test func writesAtMostAChunkAtATime() throws {
            var ends: [Int32] = [0, 0]
            try #require(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0, &ends) == 0)
            defer { close(ends[0]) }
            let reader = ends[0]
            let received = Messages()
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                var buffer = [UInt8](repeating: 0, count: 4 * OutputSink.chunkSize)
                while true {
                    let n = buffer.withUnsafeMutableBytes { recv(reader, $0.baseAddress, $0.count, 0) }
                    if n <= 0 { break }
                    received.append(Array(buffer[0..<n]))
                }
                done.signal()
            }
            let sink = OutputSink(descriptor: ends[1])
            let pieces = Self.pieces()
            for piece in pieces { piece.withUnsafeBufferPointer { sink.append($0) } }
            // The writing end is closed, and the reader waited for, whether or not the flush
            // fails.
            let flushed = Result { () throws(IOFailure) in try sink.flush() }
            close(ends[1])
            done.wait()
            try flushed.get()
            let messages = received.all
            #expect(messages.allSatisfy { $0.count <= OutputSink.chunkSize })
            #expect(messages.flatMap { $0 } == pieces.flatMap { $0 })
        }

        /// The messages a reader thread received.
        final class Messages: @unchecked Sendable {
            private let lock = NSLock()
            private var messages: [[UInt8]] = []
            func append(_ message: [UInt8]) { lock.withLock { messages.append(message) } }
            var all: [[UInt8]] { lock.withLock { messages } }
        }

        /// A large piece written straight from the caller's bytes fails as the buffer does:
        /// the error is kept, and thrown at the next checkpoint and by the flush.
        @Test func keepsTheFirstWriteError() throws {
            let descriptor = open("/dev/full", O_WRONLY)
            try #require(descriptor >= 0)
            defer { close(descriptor) }
            for first in [[UInt8](repeating: 0x61, count: 3 * OutputSink.chunkSize), [0x61]] {
                let sink = OutputSink(descriptor: descriptor)
                first.withUnsafeBufferPointer { sink.append($0) }
                [UInt8](repeating: 0x62, count: 2 * OutputSink.chunkSize).withUnsafeBufferPointer { sink.append($0) }
                #expect(sink.hasFailed)
                #expect(throws: IOFailure.self) { try sink.checkpoint() }
                do {
                    try sink.flush()
                    Issue.record("flush after a write error did not throw")
                } catch {
                    guard case .write(let code) = error else {
                        Issue.record("unexpected \(error)")
                        continue
                    }
                    #expect(code == ENOSPC)
                }
            }
        }
    #endif
}
