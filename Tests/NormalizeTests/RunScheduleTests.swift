import Dispatch
import Foundation
import Testing

@testable import NormalizeCore

/// The schedule by which the threads of `normalize --lines` take a block's runs and write their
/// output (docs/cli.md, "--jobs"; docs/performance.md, the thirty-first round): every run is
/// handed out once and written once, in input order, whatever the threads' speeds; the runs
/// taken and not yet written stay within the window, in number and in input bytes; a failed
/// output stops the handing out.
@Suite struct RunScheduleTests {
    /// What the workers saw, checked as they went. Every field is read and written under
    /// `lock`, the test's own reads too.
    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var takenRuns: [Int] = []
        private var writtenRuns: [Int] = []
        private var problemsSeen: [String] = []
        private var failures = 0
        /// The runs reported written so far (updated before the schedule hears of it, so that
        /// the window this log checks is never wider than the schedule's).
        private var writtenCount = 0

        var taken: [Int] { lock.withLock { takenRuns } }
        var written: [Int] { lock.withLock { writtenRuns } }
        var problems: [String] { lock.withLock { problemsSeen } }
        var failedReported: Int { lock.withLock { failures } }

        func take(_ run: Int, bytes: [Int], windowRuns: Int, windowBytes: Int) {
            lock.withLock {
                takenRuns.append(run)
                if run - writtenCount >= windowRuns, run != writtenCount {
                    problemsSeen.append("run \(run) taken with only \(writtenCount) written (window \(windowRuns) runs)")
                }
                let held = bytes[writtenCount...run].reduce(0, +)
                if held > windowBytes, run != writtenCount {
                    problemsSeen.append("run \(run) taken with \(held) bytes held (window \(windowBytes))")
                }
            }
        }

        func write(_ runs: Range<Int>) {
            lock.withLock {
                if runs.lowerBound != writtenCount { problemsSeen.append("wrote \(runs) after \(writtenCount) runs") }
                writtenRuns.append(contentsOf: runs)
                writtenCount = runs.upperBound
            }
        }

        func finished(failed: Int) {
            lock.withLock { failures += failed }
        }
    }

    /// Run ends and line ends for `sizes` (each run one line of that many bytes).
    static func block(_ sizes: [Int]) -> (runEnds: [Int], lineEnds: [Int]) {
        var lineEnds: [Int] = []
        var end = -1
        for size in sizes {
            end += size
            lineEnds.append(end)
        }
        return (Array(1...sizes.count), lineEnds)
    }

    /// Runs `threads` workers over a schedule of runs of `sizes` bytes; `slow` runs take a
    /// while; the output fails once `failAfter` runs are written, if given.
    static func work(
        _ sizes: [Int],
        threads: Int,
        windowRuns: Int,
        windowBytes: Int,
        failAfter: Int? = nil
    ) -> (log: Log, schedule: RecordProcessor.RunSchedule) {
        let (runEnds, lineEnds) = block(sizes)
        let schedule = RecordProcessor.RunSchedule(runEnds: runEnds, lineEnds: lineEnds, windowRuns: windowRuns, windowBytes: windowBytes)
        let log = Log()
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            var finished: (run: Int, failed: Int)? = nil
            var random = SystemRandomNumberGenerator()
            while true {
                switch schedule.next(finishing: finished) {
                case .run(let run):
                    log.take(run, bytes: sizes, windowRuns: windowRuns, windowBytes: windowBytes)
                    // Uneven speeds: the threads overtake each other.
                    if run % 7 == thread % 7 { usleep(UInt32.random(in: 0...300, using: &random)) }
                    let failed = run % 3 == 0 ? 1 : 0
                    log.finished(failed: failed)
                    finished = (run, failed)
                case .write(let runs):
                    if Bool.random(using: &random) { usleep(50) }
                    log.write(runs)
                    finished = nil
                    schedule.written(through: runs.upperBound, outputFailed: failAfter.map { runs.upperBound >= $0 } ?? false)
                case .done:
                    return
                }
            }
        }
        return (log, schedule)
    }

    @Test(arguments: [1, 2, 3, 8])
    func everyRunIsWrittenOnceInOrderWithinTheWindow(threads: Int) {
        // Runs of one line: first of at most 100 bytes, where the number of runs bounds the
        // window; then of up to 70,000 bytes, where their bytes do, and some of 3 MiB, larger
        // than the byte window alone, which are taken only as the next to be written.
        var sizes: [Int] = []
        for i in 0..<600 { sizes.append(1 + i % 100) }
        for i in 600..<1_500 { sizes.append(i % 97 == 0 ? 3 << 20 : 1 + (i * 7_919) % 70_000) }
        let windowRuns = threads == 1 ? 1 : 16 * threads
        let (log, schedule) = Self.work(sizes, threads: threads, windowRuns: windowRuns, windowBytes: 1 << 21)
        #expect(log.problems.isEmpty, "\(log.problems.prefix(5))")
        #expect(log.taken.sorted() == Array(0..<sizes.count))
        #expect(log.written == Array(0..<sizes.count))
        #expect(schedule.failed == log.failedReported)
        #expect(schedule.failed == (0..<sizes.count).filter { $0 % 3 == 0 }.count)
    }

    @Test(arguments: [1, 2, 8])
    func aFailedOutputStopsTheHandingOut(threads: Int) {
        let sizes = [Int](repeating: 1_000, count: 2_000)
        let windowRuns = threads == 1 ? 1 : 16 * threads
        let (log, _) = Self.work(sizes, threads: threads, windowRuns: windowRuns, windowBytes: 1 << 21, failAfter: 100)
        #expect(log.problems.isEmpty, "\(log.problems.prefix(5))")
        // Written in order up to the failure (and the runs finished while it was written);
        // nothing taken past the window that was open when it failed.
        #expect(log.written.count >= 100)
        #expect(log.written == Array(0..<log.written.count))
        #expect(log.taken.count <= log.written.count + windowRuns + threads)
        #expect(log.taken.count < sizes.count)
    }

    /// One worker at full speed: takes, finishes and writes runs, logging each, until the
    /// schedule has nothing left for it (a window of 2 MiB).
    static func takeRuns(_ schedule: RecordProcessor.RunSchedule, log: Log, sizes: [Int], windowRuns: Int) {
        var finished: (run: Int, failed: Int)? = nil
        while true {
            switch schedule.next(finishing: finished) {
            case .run(let run):
                log.take(run, bytes: sizes, windowRuns: windowRuns, windowBytes: 1 << 21)
                finished = (run, 0)
            case .write(let runs):
                log.write(runs)
                finished = nil
                schedule.written(through: runs.upperBound, outputFailed: false)
            case .done:
                return
            }
        }
    }

    /// A run that is not finished holds the others back: with it taken, another thread takes
    /// runs up to the window — in number with small runs, in bytes with large ones — and then
    /// waits, until the run is finished and written.
    @Test(arguments: [(100, 32, 32), (100_000, 32, 20)])
    func aSlowRunHoldsBackAtMostTheWindow(size: Int, windowRuns: Int, expectedHeld: Int) throws {
        let sizes = [Int](repeating: size, count: 200)
        let (runEnds, lineEnds) = Self.block(sizes)
        let schedule = RecordProcessor.RunSchedule(runEnds: runEnds, lineEnds: lineEnds, windowRuns: windowRuns, windowBytes: 1 << 21)
        let log = Log()
        // The slow thread takes run 0 and keeps it until told.
        guard case .run(0) = schedule.next(finishing: nil) else {
            Issue.record("run 0 was not handed out first")
            return
        }
        log.take(0, bytes: sizes, windowRuns: windowRuns, windowBytes: 1 << 21)
        let other = DispatchGroup()
        DispatchQueue.global().async(group: other) {
            Self.takeRuns(schedule, log: log, sizes: sizes, windowRuns: windowRuns)
        }
        // The other thread fills the window, then waits: nothing more is taken meanwhile.
        let deadline = Date().addingTimeInterval(10)
        while log.taken.count < expectedHeld, Date() < deadline { usleep(1_000) }
        usleep(100_000)
        #expect(log.taken.count == expectedHeld)
        #expect(log.written.isEmpty)
        // Run 0 finished: this thread writes it and every run the other finished after it,
        // and the other thread goes on to the end.
        guard case .write(let runs) = schedule.next(finishing: (0, 0)) else {
            Issue.record("the slow run's thread did not write")
            return
        }
        #expect(runs == 0..<expectedHeld)
        log.write(runs)
        schedule.written(through: runs.upperBound, outputFailed: false)
        Self.takeRuns(schedule, log: log, sizes: sizes, windowRuns: windowRuns)
        #expect(other.wait(timeout: .now() + 10) == .success)
        #expect(log.problems.isEmpty, "\(log.problems.prefix(5))")
        #expect(log.written == Array(0..<sizes.count))
    }
}
