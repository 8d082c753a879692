#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An input or output failure of the CLI. Every one is reported on standard error and makes
/// the exit status 2 (docs/cli.md).
package enum IOFailure: Error, CustomStringConvertible {
    /// An input could not be opened.
    case open(input: String, errno: Int32)
    /// Reading an input failed after it was opened.
    case read(input: String, errno: Int32)
    /// Writing standard output failed.
    case write(errno: Int32)

    package var description: String {
        switch self {
        case .open(let input, let code): "cannot open \(input): \(Self.reason(code))"
        case .read(let input, let code): "cannot read \(input): \(Self.reason(code))"
        case .write(let code): "cannot write to standard output: \(Self.reason(code))"
        }
    }

    /// Whether the failure concerns standard output (which ends the run) rather than one input.
    package var isWriteFailure: Bool {
        if case .write = self { return true }
        return false
    }

    private static func reason(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}

/// The three standard descriptors, made safe to use before anything else is opened.
package enum StandardDescriptors {
    /// Puts a placeholder on each closed standard descriptor, so that no file the command
    /// opens later takes its number: standard input becomes /dev/null opened write-only (reading
    /// it fails with EBADF, an error, as it did when closed), standard output and error become
    /// /dev/null opened read-only (writing fails with EBADF).
    package static func reserve() {
        for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            let placeholder = open("/dev/null", descriptor == 0 ? O_WRONLY : O_RDONLY)
            if placeholder >= 0 && placeholder != descriptor {
                _ = dup2(placeholder, descriptor)
                _ = close(placeholder)
            }
        }
    }
}

/// Standard error: messages for the user. Writing them can fail (a full disk, a closed
/// descriptor); that is ignored, never a crash, since there is nowhere left to report it.
package enum StandardError {
    /// Writes `message` and a newline.
    package static func writeLine(_ message: String) {
        var bytes = Array(message.utf8)
        bytes.append(0x0A)
        bytes.withUnsafeBytes { raw in
            do throws(IOFailure) {
                try writeAll(descriptor: 2, raw)
            } catch {
                // Nowhere left to report it.
            }
        }
    }
}

/// Writes all of `raw` to `descriptor`, retrying on EINTR and waiting (poll) on EAGAIN.
/// - Throws: ``IOFailure/write(errno:)`` on any other error (EPIPE, ENOSPC, EIO, EBADF).
package func writeAll(descriptor: Int32, _ raw: UnsafeRawBufferPointer) throws(IOFailure) {
    guard let base = raw.baseAddress else { return }
    var written = 0
    while written < raw.count {
        let n = systemWrite(descriptor, base + written, raw.count - written)
        if n >= 0 {
            written += n
            continue
        }
        let code = errno
        switch code {
        case EINTR: continue
        case EAGAIN, EWOULDBLOCK: waitFor(descriptor, events: Int16(POLLOUT))
        default: throw .write(errno: code)
        }
    }
}

/// Blocks until `descriptor` is ready for `events` (or reports an error or hang-up, which the
/// next read or write then returns).
package func waitFor(_ descriptor: Int32, events: Int16) {
    var entry = pollfd(fd: descriptor, events: events, revents: 0)
    while poll(&entry, 1, -1) < 0 && errno == EINTR {}
}

/// Buffered standard output shared by every subcommand: bytes are written with `write(2)` in
/// chunks of at most 64 KiB, so its memory never grows with the output, and every write error
/// is kept and thrown at the next ``checkpoint()`` or ``flush()``.
///
/// Appending never throws, so that the record writers need no error paths; after a failure the
/// sink drops everything, and the callers check it between records or blocks.
package final class OutputSink {
    /// The buffer is written out when it reaches this size.
    package static let chunkSize = 1 << 16
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var failure: IOFailure?

    /// A sink writing to `descriptor` (standard output by default).
    package init(descriptor: Int32 = 1) {
        self.descriptor = descriptor
        buffer.reserveCapacity(Self.chunkSize)
    }

    /// Appends `bytes`, writing the buffer out whenever it is full. Whole chunks of `bytes`
    /// met with the buffer empty (a round's output) are written from `bytes` itself, without
    /// copying them into the buffer first.
    package func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard failure == nil else { return }
        var rest = bytes[...]
        while !rest.isEmpty {
            if buffer.isEmpty, rest.count >= Self.chunkSize {
                let part = UnsafeBufferPointer(rebasing: rest.prefix(Self.chunkSize))
                do throws(IOFailure) {
                    try writeAll(descriptor: descriptor, UnsafeRawBufferPointer(part))
                } catch {
                    failure = error
                    return
                }
                rest = rest.dropFirst(part.count)
                continue
            }
            let room = Self.chunkSize - buffer.count
            let part = rest.prefix(room)
            buffer.append(contentsOf: part)
            rest = rest.dropFirst(part.count)
            if buffer.count >= Self.chunkSize { writeBuffer() }
        }
    }

    /// Appends `bytes`.
    package func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// Appends `line` and a newline.
    package func append(line: String) {
        var line = line
        line.append("\n")
        line.withUTF8 { append($0) }
    }

    /// Whether a write has failed (everything appended since is dropped).
    package var hasFailed: Bool { failure != nil }

    /// Throws the first write error, if one happened.
    package func checkpoint() throws(IOFailure) {
        if let failure { throw failure }
    }

    /// Writes everything appended so far.
    /// - Throws: the first write error of the run.
    package func flush() throws(IOFailure) {
        writeBuffer()
        try checkpoint()
    }

    private func writeBuffer() {
        guard failure == nil, !buffer.isEmpty else {
            buffer.removeAll(keepingCapacity: true)
            return
        }
        failure = buffer.withUnsafeBytes { raw -> IOFailure? in
            do throws(IOFailure) {
                try writeAll(descriptor: descriptor, raw)
                return nil
            } catch {
                return error
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// An input file or standard input, read with `read(2)`.
///
/// A regular file is read in whole blocks (the fastest way through a file). Anything else — a
/// pipe, a terminal, a socket — is read as it comes: a read returns once some bytes are there
/// and no more follow at once, so a record on a slow stream is processed without waiting for a
/// full block. A non-blocking descriptor is waited on (poll) instead of being taken as ended.
/// Every read error is thrown, naming the input.
package final class InputSource {
    /// The input as messages name it: `'path'` or `standard input`.
    package let displayName: String
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private let isRegularFile: Bool
    private var reachedEnd = false
    /// The size of a regular file, `nil` for anything else.
    package let size: Int?
    /// Whether the input is a terminal.
    package let isTerminal: Bool
    /// The bytes read so far.
    package private(set) var bytesRead = 0
    /// Where reads and records are reported, when a progress line is shown (``ProgressLine/begin(_:)``).
    package var progress: ProgressLine?

    /// Opens `path`, or standard input for `-`.
    /// - Throws: ``IOFailure/open(input:errno:)``, or ``IOFailure/read(input:errno:)`` for a
    ///   directory.
    package init(path: String) throws(IOFailure) {
        if path == "-" {
            displayName = "standard input"
            descriptor = 0
            ownsDescriptor = false
        } else {
            displayName = "'\(path)'"
            let opened = open(path, O_RDONLY | O_CLOEXEC)
            guard opened >= 0 else { throw .open(input: "'\(path)'", errno: errno) }
            descriptor = opened
            ownsDescriptor = true
        }
        var status = stat()
        if fstat(descriptor, &status) == 0 {
            let kind = status.st_mode & S_IFMT
            isRegularFile = kind == S_IFREG
            size = isRegularFile ? Int(status.st_size) : nil
            if kind == S_IFDIR {
                if ownsDescriptor { _ = close(descriptor) }
                throw .read(input: displayName, errno: EISDIR)
            }
        } else {
            isRegularFile = false
            size = nil
        }
        isTerminal = isatty(descriptor) == 1
    }

    deinit {
        if ownsDescriptor { _ = close(descriptor) }
    }

    /// Reads into `buffer` from its start; returns how many bytes were read, 0 only at the end
    /// of the input. A regular file fills the buffer unless it ends first; another input
    /// returns what is available as soon as something is. A UTF-8 byte order mark (EF BB BF)
    /// at the very start of the input is dropped, as JSON readers may do (RFC 8259 §8.1); one
    /// anywhere else is left to the parser.
    /// - Throws: ``IOFailure/read(input:errno:)``.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(IOFailure) -> Int {
        guard atStart else { return try readAvailable(into: buffer) }
        guard let base = buffer.baseAddress, buffer.count >= 3 else { return try readAvailable(into: buffer) }
        atStart = false
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        var filled = 0
        // Enough bytes to tell whether the input starts with the mark.
        while true {
            let n = try readAvailable(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            filled += n
            let prefix = min(filled, 3)
            let matches = (0..<prefix).allSatisfy { bytes[$0] == mark[$0] }
            if !matches || n == 0 { return filled }
            if filled >= 3 { break }
        }
        let rest = filled - 3
        if rest > 0 { _ = memmove(base, base + 3, rest) }
        return rest > 0 ? rest : try readAvailable(into: buffer)
    }

    /// Whether nothing has been read yet (the byte order mark is looked for then).
    private var atStart = true

    /// Reads what is available into `buffer` (see ``read(into:)``), without looking for the
    /// byte order mark.
    private func readAvailable(into buffer: UnsafeMutableRawBufferPointer) throws(IOFailure) -> Int {
        guard let base = buffer.baseAddress, !reachedEnd else { return 0 }
        var filled = 0
        while filled < buffer.count {
            if filled > 0 && !isRegularFile && !hasMoreNow() { break }
            let n = systemRead(descriptor, base + filled, buffer.count - filled)
            if n > 0 {
                filled += n
                bytesRead += n
            } else if n == 0 {
                reachedEnd = true
                break
            } else {
                let code = errno
                switch code {
                case EINTR: continue
                case EAGAIN, EWOULDBLOCK:
                    if filled > 0 { return filled }
                    waitFor(descriptor, events: Int16(POLLIN))
                default:
                    throw .read(input: displayName, errno: code)
                }
            }
        }
        return filled
    }

    /// Reports to the progress line, if any, that the input has yielded `records` records so
    /// far. Called once per block read, so it costs nothing per record.
    package func reportProgress(records: Int) {
        reportProgress(records: records, bytesRead: bytesRead)
    }

    /// ``reportProgress(records:)`` with the bytes read as of the records (``BlockReader``
    /// reads a block ahead of them).
    package func reportProgress(records: Int, bytesRead: Int) {
        progress?.update(records: records, bytesRead: bytesRead, size: size)
    }

    /// Whether reads fill whole blocks (a regular file), so that reading ahead never waits on
    /// input that has not arrived.
    package var readsWholeBlocks: Bool { isRegularFile }

    /// Whether a read would return at once (bytes, the end, or an error).
    private func hasMoreNow() -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&entry, 1, 0)
            if ready < 0 && errno == EINTR { continue }
            return ready > 0
        }
    }
}

#if canImport(Glibc)
    private let systemRead = Glibc.read
    private let systemWrite = Glibc.write
#elseif canImport(Musl)
    private let systemRead = Musl.read
    private let systemWrite = Musl.write
#elseif canImport(Darwin)
    private let systemRead = Darwin.read
    private let systemWrite = Darwin.write
#endif
