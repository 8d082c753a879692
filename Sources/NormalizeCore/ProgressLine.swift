#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The progress line of a long run on a terminal: one line on standard error, rewritten in
/// place (`\r` and erase-line), with the records so far, the records per second and how much
/// of the current file has been read when its size is known; erased at the end and before any
/// message (docs/cli.md, "Progress").
///
/// It is drawn only after ``defaultDelay`` (or `TAPROUTE_PROGRESS_AFTER_MS`) and redrawn at
/// most every ``refreshInterval``; the record path reports to it once per block it reads, so
/// it costs a clock read per block, nothing per record. It is used from one thread: the one
/// that reads the inputs.
package final class ProgressLine {
    /// How long a run goes before the line appears.
    package static let defaultDelay: UInt64 = 1_000_000_000
    /// The shortest time between two redraws (at most four per second).
    package static let refreshInterval: UInt64 = 250_000_000
    /// The longest input name shown, in characters (longer names keep their end), so the line
    /// stays within 80 columns and never wraps.
    package static let nameLimit = 24

    private let descriptor: Int32
    private let start: UInt64
    private var nextDraw: UInt64
    private var recordsBefore = 0  // records of the inputs before the current one
    private var records = 0  // records of the current input
    private var inputName = ""
    private var inputIsTerminal = false
    private var drawn = false

    /// A progress line written to `descriptor`, first drawn `delay` nanoseconds from now.
    package init(descriptor: Int32 = 2, delay: UInt64 = ProgressLine.defaultDelay) {
        self.descriptor = descriptor
        start = Self.now()
        nextDraw = start &+ delay
    }

    /// The progress line for this run: `nil` with `quiet`, when standard error is not a
    /// terminal, or when standard output is one (the records themselves show the progress, and
    /// the line would be mixed with them). `TAPROUTE_PROGRESS_AFTER_MS` in `environment`
    /// replaces the one-second delay.
    package static func forStandardError(quiet: Bool, environment: [String: String]) -> ProgressLine? {
        guard !quiet, isatty(2) == 1, isatty(1) == 0 else { return nil }
        if let text = environment["TAPROUTE_PROGRESS_AFTER_MS"], let milliseconds = UInt64(text), milliseconds <= 86_400_000 {
            return ProgressLine(delay: milliseconds * 1_000_000)
        }
        return ProgressLine()
    }

    /// Starts reporting on `input`: it then reports its reads and records here. An input that
    /// is a terminal (typed records) gets no line, so the line never mixes with the typing.
    package func begin(_ input: InputSource) {
        recordsBefore += records
        records = 0
        inputName = input.displayName
        inputIsTerminal = input.isTerminal
        input.progress = self
        if inputIsTerminal { clear() }
    }

    /// Notes that the current input has yielded `records` records so far and `bytesRead` of
    /// its `size` bytes (when known) have been read; redraws the line when it is due.
    package func update(records: Int, bytesRead: Int, size: Int?) {
        self.records = records
        guard !inputIsTerminal else { return }
        let now = Self.now()
        guard now >= nextDraw else { return }
        nextDraw = now &+ Self.refreshInterval
        draw(text(bytesRead: bytesRead, size: size, now: now))
    }

    /// Erases the line if it is shown (before a message, and at the end); it is drawn again
    /// at the next report.
    package func clear() {
        guard drawn else { return }
        drawn = false
        nextDraw = 0
        write(Array("\r\u{1B}[2K".utf8))
    }

    private func text(bytesRead: Int, size: Int?, now: UInt64) -> String {
        let total = recordsBefore + records
        let seconds = Double(now &- start) / 1e9
        let rate = seconds > 0 ? Int((Double(total) / seconds).rounded()) : 0
        var name = inputName
        if name.count > Self.nameLimit {
            // `'…end of the path'`: the end names the file.
            name = (name.hasPrefix("'") ? "'…" : "…") + name.suffix(Self.nameLimit - 2)
        }
        var line = "normalize: \(total) records, \(rate) records/s, "
        if let size, size > 0 {
            line += "\(min(100, bytesRead * 100 / size))% of \(name)"
        } else {
            line += "reading \(name)"
        }
        return line
    }

    private func draw(_ text: String) {
        drawn = true
        write(Array("\r\u{1B}[2K\(text)".utf8))
    }

    private func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            do throws(IOFailure) {
                try writeAll(descriptor: descriptor, raw)
            } catch {
                // A progress line that cannot be written is not worth an error.
            }
        }
    }

    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
