import TapRoute
import TapRouteTestSupport
import Testing

/// The parser makes an object key of up to 15 ASCII bytes without an escape straight from
/// the two words it reads it as (the standard library's small-string form). Reading keys that
/// way must give the same value, with the same key order, or the same error, as the reference
/// reader (one byte at a time, in order) — for any key, cut anywhere.
@Suite struct JSONSmallKeyTests {
    /// Keys made from their words (up to 15 ASCII bytes, every length) and keys left to the
    /// string reader: 16 bytes and more, escapes (also spelling a short key), non-ASCII bytes,
    /// control bytes, DEL, invalid UTF-8, a lone quote.
    static let specialKeys: [[UInt8]] = [
        [], Array("a".utf8), Array("kind".utf8), Array("userInfo".utf8), Array("0123456".utf8), Array("01234567".utf8),
        Array("012345678".utf8), Array("0123456789abcde".utf8), Array("0123456789abcdef".utf8),
        Array("0123456789abcdefg".utf8), Array(#"ki\u006ed"#.utf8), Array(#"\"q\""#.utf8), Array(#"a\\b"#.utf8),
        Array("café".utf8), Array("新しい".utf8), [0x61, 0x01, 0x62], [0x61, 0x0A], [0x61, 0xFF], [0xC3],
        Array("k\u{7F}".utf8),
    ]

    /// The document's text as written back (which keeps key order, where `JSONValue` equality
    /// ignores it), or its error; read on the fast path or by the reference reader.
    func parse(_ bytes: [UInt8], inOrder: Bool) -> Result<String, JSONParseError> {
        var parser = JSONParser()
        parser.readsStringsInOrder = inOrder
        return bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONParseError) -> String in try parser.parse(buffer).jsonString() }
        }
    }

    @Test func keysMadeFromTheirWordsReadAsTheReferenceReaderReadsThem() {
        var generator = SplitMix64(seed: 20_261_126)
        let shortKeys: [[UInt8]] = (0..<2_000).map { _ in
            let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.$ ".utf8)
            return (0..<generator.below(16)).map { _ in letters[generator.below(letters.count)] }
        }
        var failures = 0
        for _ in 0..<20_000 {
            func key() -> [UInt8] {
                generator.below(8) == 0
                    ? Self.specialKeys[generator.below(Self.specialKeys.count)]
                    : shortKeys[generator.below(shortKeys.count)]
            }
            // Objects of a few members, nested, with the same key twice now and then.
            var document = Array(#"{""#.utf8) + key() + Array(#"":{""#.utf8) + key() + Array(#"":1,""#.utf8)
            let repeated = key()
            document += repeated + Array(#"":"v","#.utf8) + Array("\"".utf8) + key() + Array(#"":[{""#.utf8)
            document += key() + Array(#"":null}],""#.utf8)
            document += (generator.below(4) == 0 ? repeated : key()) + Array(#"":true}, "z": 0}"#.utf8)
            // Cut short now and then: keys within 16 bytes of the end.
            if generator.below(10) == 0 { document.removeLast(1 + generator.below(min(24, document.count - 1))) }
            let fast = parse(document, inOrder: false)
            let reference = parse(document, inOrder: true)
            #expect(fast == reference, "document: \(String(decoding: document, as: UTF8.self))")
            if case .failure = reference { failures += 1 }
        }
        #expect(failures > 1_000 && failures < 15_000, "the generator should make both valid and invalid documents")
    }

    /// Every byte of a short key's two words matters: keys that differ in one byte, in the
    /// first word or the second, at every length, are read as written, never as one another.
    @Test func keysDifferingInOneByteAreNeverMistaken() throws {
        for length in 1...15 {
            for position in 0..<length {
                let base = Array(String(repeating: "k", count: length).utf8)
                var other = base
                other[position] = UInt8(ascii: "q")
                let first = String(decoding: base, as: UTF8.self)
                let second = String(decoding: other, as: UTF8.self)
                let text = #"{"\#(first)":1,"\#(second)":2,"\#(first)":3, "padding to be read in words": 0}"#
                let object = try #require(try JSONParser().parse(Array(text.utf8)).objectValue)
                #expect(Array(object.keys) == [first, second, "padding to be read in words"])
                // The repeated key keeps its last value at its first place.
                #expect(object[first] == 3)
                #expect(object[second] == 2)
            }
        }
    }
}
