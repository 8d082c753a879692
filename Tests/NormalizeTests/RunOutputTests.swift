import TapRoute
import Testing

@testable import NormalizeCore

/// Each run's output is written as soon as the runs before it are, from a buffer the run
/// keeps from block to block (docs/cli.md, "Streaming and memory"; docs/performance.md, the
/// thirty-first round): a buffer keeps the room its usual runs need, and gives back what a run
/// of much larger output grew.
@Suite struct RunOutputTests {
    /// Fills each of `runs` with `size` bytes of `byte + index`, writes them to `sink` in order
    /// and returns each buffer's room after.
    static func writeRuns(_ runs: [RecordProcessor.RunOutput], size: Int, to sink: OutputSink) -> [Int] {
        for (index, run) in runs.enumerated() {
            let bytes = [UInt8](repeating: UInt8(ascii: "a") + UInt8(index), count: size - 1) + [0x0A]
            bytes.withUnsafeBufferPointer { run.buffer.append($0) }
        }
        for run in runs { RecordProcessor.RunOutput.write(run, to: sink, keeping: 1 << 20) }
        #expect(runs.allSatisfy { $0.buffer.count == 0 })
        return runs.map { $0.buffer.capacity }
    }

    @Test func buffersGiveBackWhatALargeRunGrew() throws {
        let runs = (0..<4).map { _ in RecordProcessor.RunOutput() }
        var usual: [Int] = []
        var large: [Int] = []
        let written = try OutputSinkTests.written { sink in
            // Usual runs (4 × 100 KB): the room grown stays, for the next runs.
            usual = Self.writeRuns(runs, size: 100_000, to: sink)
            // Runs of 2 MB, past the room a buffer keeps (1 MiB here): given back.
            large = Self.writeRuns(runs, size: 2_000_000, to: sink)
        }
        #expect(usual.allSatisfy { $0 >= 100_000 }, "\(usual)")
        #expect(large.allSatisfy { $0 == RecordProcessor.RunOutput.initialCapacity }, "\(large)")
        // Everything was written, in order.
        #expect(written.count == 4 * 100_000 + 4 * 2_000_000)
        let starts = [0, 100_000, 200_000, 300_000, 400_000, 2_400_000, 4_400_000, 6_400_000]
        #expect(starts.enumerated().allSatisfy { written[$0.element] == UInt8(ascii: "a") + UInt8($0.offset % 4) })
    }
}
