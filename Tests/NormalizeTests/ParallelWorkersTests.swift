import Foundation
import NormalizeCore
import TapRoute
import TapRouteTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `normalize --jobs N` gives each of its threads a registry of its own
/// (`AdapterRegistry.replica()`), so that no adapter object is used by two threads
/// (docs/cli.md, docs/performance.md "Both cores, in order").
@Suite struct ParallelWorkersTests {
    /// Which adapter instances read records, and whether two threads ever read with the same
    /// instance at once.
    final class Sightings: @unchecked Sendable {
        private let lock = NSLock()
        private var reading: [ObjectIdentifier: Int] = [:]
        private var used: Set<ObjectIdentifier> = []
        private var overlaps = 0

        /// Notes that a read with `adapter` begins.
        func begin(_ adapter: AnyObject) {
            lock.lock()
            let id = ObjectIdentifier(adapter)
            if reading[id, default: 0] > 0 { overlaps += 1 }
            reading[id, default: 0] += 1
            used.insert(id)
            lock.unlock()
        }

        /// Notes that a read with `adapter` ended.
        func end(_ adapter: AnyObject) {
            lock.lock()
            reading[ObjectIdentifier(adapter), default: 0] -= 1
            lock.unlock()
        }

        /// The instances used and the number of reads that began while another thread was
        /// reading with the same instance; starts counting afresh.
        func take() -> (used: Int, overlaps: Int) {
            lock.lock()
            defer {
                used = []
                overlaps = 0
                lock.unlock()
            }
            return (used.count, overlaps)
        }
    }

    static let sightings = Sightings()

    /// An adapter that is a class, noting each read it does (``Sightings``).
    final class ThreadProbeAdapter: PayloadAdapter {
        static let id = "thread-probe"

        init(configuration: AdapterConfiguration) {}

        func recognizes(_ input: InputEvent) -> Bool {
            if case .vendorEvent(let event) = input.kind, event["probe"] != nil { return true }
            return false
        }

        func read(_ input: InputEvent, using reader: inout PayloadReader) throws(NormalizationError) -> AdapterResult {
            ParallelWorkersTests.sightings.begin(self)
            defer { ParallelWorkersTests.sightings.end(self) }
            // Long enough that two threads reading with one instance would overlap often.
            var spin = 0
            for i in 0..<200 { spin &+= i }
            guard spin > 0 else { throw NormalizationError(.unrecognized, "unreachable", path: "$") }
            guard case .vendorEvent(let event) = input.kind, let url = event["probe"]?.stringValue else {
                throw NormalizationError(.unrecognized, "not a probe event", path: "$")
            }
            return AdapterResult(channel: .push, trigger: .tap, destination: .url(url, target: .external))
        }
    }

    /// Runs `processLines` over `input` with `jobs` threads; returns the output.
    static func run(_ input: URL, jobs: Int, registry: AdapterRegistry) throws -> Data {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("taproute-workers-\(UUID().uuidString).jsonl")
        let descriptor = open(output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        #expect(descriptor >= 0)
        defer {
            close(descriptor)
            try? FileManager.default.removeItem(at: output)
        }
        let sink = OutputSink(descriptor: descriptor)
        let processor = RecordProcessor(registry: registry, vendor: nil, pretty: false)
        var failed = 0
        try processor.processLines(
            from: InputSource(path: input.path),
            name: InputName(input.path),
            into: sink,
            jobs: jobs,
            failed: &failed
        )
        #expect(failed == 0)
        return try Data(contentsOf: output)
    }

    /// Records to normalize are read without a notification's alert text when no adapter
    /// reads it (docs/performance.md, the twenty-second round); messages to encode are read
    /// whole.
    @Test func normalizingSkipsTheAlertTextAndEncodingReadsWholeRecords() throws {
        let registry = try AdapterRegistry(configuration: Configuration(), adapterTypes: [])
        #expect(RecordProcessor(registry: registry, vendor: nil, pretty: false).reader.alertTextReadForKind)
        let encoder = RecordEncoder(vendor: "dashx", options: EncodeOptions(), simulator: nil)
        #expect(!RecordProcessor(registry: registry, vendor: nil, pretty: false, encoder: encoder).reader.alertTextReadForKind)
    }

    /// A regular file whose third read fails: the output of every record of the first two
    /// blocks reaches the sink — the last runs' too, written before the next block is asked
    /// for — and the read error is thrown (docs/cli.md, "Input and output errors").
    @Test(arguments: [1, 2]) func aReadErrorAfterABlockKeepsTheRecordsBefore(jobs: Int) throws {
        final class FailingFile: LineSource, @unchecked Sendable {
            let bytes: [UInt8]
            private(set) var bytesRead = 0
            private var reads = 0
            init(_ bytes: [UInt8]) { self.bytes = bytes }
            var readsWholeBlocks: Bool { true }
            func reportProgress(records: Int, bytesRead: Int) {}
            func read(into buffer: UnsafeMutableRawBufferPointer) throws(IOFailure) -> Int {
                reads += 1
                if reads == 3 { throw .read(input: "'test'", errno: EIO) }
                let count = min(buffer.count, bytes.count - bytesRead)
                buffer.copyBytes(from: bytes[bytesRead..<(bytesRead + count)])
                bytesRead += count
                return count
            }
        }
        // Lines of 1,000 bytes: the first two blocks (64 KiB, then 256 KiB) hold 327 whole
        // lines, in runs of 64 lines.
        let prefix = #"{"kind":"url","url":"tel:1","x":""#
        let line = prefix + String(repeating: "y", count: 1_000 - prefix.utf8.count - 3) + "\"}\n"
        #expect(line.utf8.count == 1_000)
        let input = FailingFile(Array(String(repeating: line, count: 9_000).utf8))
        let registry = try AdapterRegistry(configuration: Configuration(), adapterTypes: [])
        let processor = RecordProcessor(registry: registry, vendor: nil, pretty: false)
        var thrown: IOFailure?
        let written = try OutputSinkTests.written { sink in
            var failed = 0
            do throws(IOFailure) {
                try processor.processLines(from: input, name: InputName("test"), into: sink, jobs: jobs, failed: &failed)
            } catch {
                thrown = error
            }
        }
        #expect(thrown.map { "\($0)" }?.contains("Input/output error") == true, "\(String(describing: thrown))")
        #expect(written.filter { $0 == 0x0A }.count == ((1 << 16) + (1 << 18)) / 1_000)
    }

    @Test func eachThreadReadsWithAdaptersOfItsOwn() throws {
        let registry = try AdapterRegistry(
            configuration: Configuration(adapters: [AdapterSettings(id: ThreadProbeAdapter.id)]),
            adapterTypes: [ThreadProbeAdapter.self]
        )
        // Enough lines for many blocks of many runs, so that both threads take some.
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("taproute-workers-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: input) }
        var text = ""
        for i in 0..<30_000 { text += #"{"kind":"vendorEvent","event":{"probe":"https://example.com/p/\#(i)"}}"# + "\n" }
        try text.write(to: input, atomically: true, encoding: .utf8)

        _ = Self.sightings.take()
        let sequential = try Self.run(input, jobs: 1, registry: registry)
        #expect(Self.sightings.take().used == 1)
        let parallel = try Self.run(input, jobs: 2, registry: registry)
        let seen = Self.sightings.take()
        #expect(parallel == sequential)
        #expect(parallel.filter { $0 == 0x0A }.count == 30_000)
        // Two threads never read with the same adapter instance at once (with one registry
        // shared by both threads, thousands of reads overlap), and there are at most two
        // instances: the registry's and one replica. (Whether the second thread took any runs
        // depends on the scheduler, so this does not require it.)
        #expect(seen.overlaps == 0)
        #expect((1...2).contains(seen.used))
    }
}
