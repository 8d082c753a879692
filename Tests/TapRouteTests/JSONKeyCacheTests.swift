import TapRoute
import TapRouteTestSupport
import Testing

/// `normalize --lines` lends each parallel run a ``JSONKeyCache``: object keys met before are
/// taken from it instead of being made again. Reading through the cache must give the same
/// value, with the same key order, or the same error, as reading without it — for any key,
/// whatever the cache holds from earlier records.
@Suite struct JSONKeyCacheTests {
    /// Keys the cache takes (up to 15 ASCII bytes, every length) and keys it must leave to
    /// the parser: 16 bytes and more, escapes (also spelling a cached key), non-ASCII bytes,
    /// control bytes, invalid UTF-8, a lone quote.
    static let specialKeys: [[UInt8]] = [
        [], Array("a".utf8), Array("kind".utf8), Array("userInfo".utf8), Array("0123456".utf8), Array("01234567".utf8),
        Array("012345678".utf8), Array("0123456789abcde".utf8), Array("0123456789abcdef".utf8),
        Array("0123456789abcdefg".utf8), Array(#"ki\u006ed"#.utf8), Array(#"\"q\""#.utf8), Array(#"a\\b"#.utf8),
        Array("café".utf8), Array("新しい".utf8), [0x61, 0x01, 0x62], [0x61, 0x0A], [0x61, 0xFF], [0xC3],
        Array("k\u{7F}".utf8),
    ]

    func parse(_ bytes: [UInt8], keys: JSONKeyCache?) -> Result<String, JSONParseError> {
        let parser = JSONParser()
        // The text written back keeps key order, which `JSONValue` equality ignores.
        return bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONParseError) -> String in try parser.parse(buffer, keys: keys).jsonString() }
        }
    }

    @Test func readingThroughTheCacheChangesNothing() {
        var generator = SplitMix64(seed: 20_261_126)
        // Far more distinct short keys than the cache has slots, so that keys share slots.
        let shortKeys: [[UInt8]] = (0..<2_000).map { _ in
            let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.$ ".utf8)
            return (0..<generator.below(16)).map { _ in letters[generator.below(letters.count)] }
        }
        let keys = JSONKeyCache()
        var failures = 0
        for round in 0..<20_000 {
            func key() -> [UInt8] {
                generator.below(8) == 0
                    ? Self.specialKeys[generator.below(Self.specialKeys.count)]
                    : shortKeys[generator.below(round < 10_000 ? 40 : shortKeys.count)]
            }
            // Objects of a few members, nested, with the same key twice now and then.
            var document = Array(#"{""#.utf8) + key() + Array(#"":{""#.utf8) + key() + Array(#"":1,""#.utf8)
            let repeated = key()
            document += repeated + Array(#"":"v","#.utf8) + Array("\"".utf8) + key() + Array(#"":[{""#.utf8)
            document += key() + Array(#"":null}],""#.utf8)
            document += (generator.below(4) == 0 ? repeated : key()) + Array(#"":true}, "z": 0}"#.utf8)
            // Cut short now and then: keys within 16 bytes of the end.
            if generator.below(10) == 0 { document.removeLast(1 + generator.below(min(24, document.count - 1))) }
            let cached = parse(document, keys: keys)
            let plain = parse(document, keys: nil)
            #expect(cached == plain, "document: \(String(decoding: document, as: UTF8.self))")
            if case .failure = plain { failures += 1 }
        }
        #expect(failures > 1_000 && failures < 15_000, "the generator should make both valid and invalid documents")
    }

    /// Keys that take a slot from one another again and again: each read is the key written,
    /// never the slot's previous one.
    @Test func keysSharingASlotAreNeverMistaken() throws {
        let keys = JSONKeyCache()
        var generator = SplitMix64(seed: 20_261_127)
        // Short keys, and keys of 9 to 15 bytes that differ only in their second word.
        let names = (0..<600).map { $0.isMultiple(of: 2) ? "k\($0)" : "notification\($0)" }
        for _ in 0..<5_000 {
            let first = names[generator.below(names.count)]
            let second = names[generator.below(names.count)]
            let text = #"{"\#(first)":1,"\#(second)":2, "padding to be read in words": 0}"#
            let value = try Array(text.utf8).withUnsafeBufferPointer { try JSONParser().parse($0, keys: keys) }
            let object = try #require(value.objectValue)
            #expect(
                Array(object.keys)
                    == (first == second ? [first, "padding to be read in words"] : [first, second, "padding to be read in words"])
            )
        }
    }
}
