import Foundation
import TapRoute
import TapRouteTestSupport
import Testing

/// A registry lends key caches to the parses it runs for callers on any thread: each record of
/// ``AdapterRegistry/normalize(record:)`` and each JSON document an adapter reads out of a
/// string. A cache must never serve two parses at once, and reading through one must change
/// nothing.
@Suite struct JSONKeyCachePoolTests {
    /// Many threads borrow at once: no cache is lent twice at the same time, and every parse
    /// through a borrowed cache gives what the parse without one gives.
    @Test func noCacheIsLentToTwoParsesAtOnce() {
        let pool = JSONKeyCachePool()
        let inUse = LockedValue(Set<ObjectIdentifier>())
        let failures = LockedValue(0)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            var generator = SplitMix64(seed: 20_261_125 &+ UInt64(thread))
            for _ in 0..<2_000 {
                let key = "k\(generator.below(40))"
                let text = #"{"\#(key)":{"kind":"\#(key)","n":\#(generator.below(9))},"z":[1,{"\#(key)":null}]}"#
                pool.withCache { cache in
                    let id = ObjectIdentifier(cache)
                    if !inUse.withLock({ $0.insert(id).inserted }) { failures.withLock { $0 += 1 } }
                    let cached = try? JSONParser().parse(text, keys: cache)
                    if cached?.jsonString() != (try? JSONParser().parse(text))?.jsonString() { failures.withLock { $0 += 1 } }
                    inUse.withLock { _ = $0.remove(id) }
                }
            }
        }
        #expect(failures.withLock { $0 } == 0)
    }

    /// One registry normalizing records from several threads at once, each record holding JSON
    /// in a string: every thread gets what one thread alone gets.
    @Test func oneRegistryNormalizesOnManyThreadsAsOnOne() throws {
        let registry = try AdapterRegistry(
            configuration: Configuration(json: ["adapters": [["id": "held"]]]),
            adapterTypes: [HeldJSONAdapter.self]
        )
        let records: [[UInt8]] = (0..<64).map { n in
            let held = #"{"url":"https://example.com/\#(n)","label\#(n % 7)":"x","nested":{"k\#(n % 5)":[\#(n)]}}"#
            let escaped = held.replacingOccurrences(of: "\"", with: "\\\"")
            return Array(#"{"kind":"notification","userInfo":{"held":"\#(escaped)","n":\#(n)}}"#.utf8)
        }
        @Sendable func normalizeAll() -> [String] {
            records.map { record in
                record.withUnsafeBufferPointer { bytes in
                    (try? registry.normalize(record: bytes).jsonValue.jsonString()) ?? "error"
                }
            }
        }
        let expected = normalizeAll()
        #expect(!expected.contains("error"))
        let mismatches = LockedValue(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<20 where normalizeAll() != expected { mismatches.withLock { $0 += 1 } }
        }
        #expect(mismatches.withLock { $0 } == 0)
    }
}

/// Reads a notification whose `held` member is JSON in a string, with a `url`.
private struct HeldJSONAdapter: PayloadAdapter {
    static let id = "held"
    init(configuration: AdapterConfiguration) throws(ConfigurationError) {}

    func recognizes(_ input: InputEvent) -> Bool {
        if case .notification(let userInfo, _, _) = input.kind { return userInfo["held"] != nil }
        return false
    }

    func read(_ input: InputEvent, using reader: inout PayloadReader) throws(NormalizationError) -> AdapterResult {
        guard case .notification(let userInfo, _, _) = input.kind,
            case .inString(let held, _) = reader.object(userInfo["held"], heldAt: 2),
            let url = held["url"]?.stringValue
        else { throw .invalidPayload("held must hold an object with a url", path: "$.userInfo.held") }
        return AdapterResult(
            channel: .push,
            trigger: .tap,
            destination: .url(url, target: .external),
            payload: held.removing(["url"]),
            vendorBehavior: .sdkOpensURL
        )
    }
}

/// A value shared by threads, behind a lock.
private final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
