import Foundation
import TapRoute
import Testing

@testable import NormalizeCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A round's output is kept in its run buffers for the next round to write (docs/cli.md,
/// "Streaming and memory"; docs/performance.md, the twenty-third round): the buffers of the
/// output kept keep their room while it is what rounds usually need, and give back what a
/// round of much larger output grew.
@Suite struct RunOutputTests {
    /// Fills each of `runs` with `size` bytes of `byte + index`, writes them to `sink` and
    /// returns each buffer's room after.
    static func writeRuns(_ runs: [RecordProcessor.RunOutput], size: Int, to sink: OutputSink) -> [Int] {
        for (index, run) in runs.enumerated() {
            let bytes = [UInt8](repeating: UInt8(ascii: "a") + UInt8(index), count: size - 1) + [0x0A]
            bytes.withUnsafeBufferPointer { run.buffer.append($0) }
        }
        RecordProcessor.RunOutput.write(runs[...], to: sink)
        #expect(runs.allSatisfy { $0.buffer.count == 0 })
        return runs.map { $0.buffer.capacity }
    }

    @Test func keptBuffersGiveBackWhatALargeRoundGrew() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("taproute-runs-\(UUID().uuidString)").path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(descriptor >= 0)
        defer {
            close(descriptor)
            unlink(path)
        }
        let sink = OutputSink(descriptor: descriptor)
        let runs = (0..<4).map { _ in RecordProcessor.RunOutput() }
        // A usual round (4 × 100 KB): the room grown stays, for the next round.
        let usual = Self.writeRuns(runs, size: 100_000, to: sink)
        #expect(usual.allSatisfy { $0 >= 100_000 }, "\(usual)")
        // A round of 4 × 2 MB, more room between them than twice what may be kept: given back.
        let large = Self.writeRuns(runs, size: 2_000_000, to: sink)
        #expect(large.allSatisfy { $0 == RecordProcessor.RunOutput.initialCapacity }, "\(large)")
        try sink.flush()
        // Everything was written, in order.
        let written = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(written.count == 4 * 100_000 + 4 * 2_000_000)
        let starts = [0, 100_000, 200_000, 300_000, 400_000, 2_400_000, 4_400_000, 6_400_000]
        #expect(starts.enumerated().allSatisfy { written[$0.element] == UInt8(ascii: "a") + UInt8($0.offset % 4) })
    }
}
