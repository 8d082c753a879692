import TapRouteTestSupport
import Testing

@testable import TapRoute

/// Strings of up to 15 ASCII bytes are built in the standard library's small-string form by
/// `SmallASCIIString`; each must be the very value the standard library would have made,
/// and behave as one (compare, hash, grow, slice).
@Suite struct SmallASCIIStringTests {
    /// The standard library's own string of `bytes`.
    func reference(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// The library's small string of `bytes`.
    func make(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        SmallASCIIString.make(bytes, discriminator: SmallASCIIString.availableDiscriminator)
    }

    /// The 16 bytes of a string value.
    func bits(_ string: String) -> [UInt8] { withUnsafeBytes(of: string) { Array($0) } }

    @Test func isAvailableOnSixtyFourBitPlatforms() {
        // Where the fast path turned itself off, the tests below would prove nothing.
        #expect(SmallASCIIString.isAvailable == (MemoryLayout<Int>.size == 8))
        #expect((SmallASCIIString.availableDiscriminator != 0) == SmallASCIIString.isAvailable)
    }

    @Test func everyLengthAndByteMatchesTheStandardLibrary() {
        guard SmallASCIIString.isAvailable else { return }
        var generator = SplitMix64(seed: 20_261_127)
        for _ in 0..<20_000 {
            let length = generator.below(SmallASCIIString.capacity + 1)
            // Every ASCII byte, NUL and DEL included: a String may hold any of them.
            let bytes = (0..<length).map { _ in UInt8(generator.below(128)) }
            let made = bytes.withUnsafeBufferPointer { make($0) }
            let expected = reference(bytes)
            #expect(bits(made) == bits(expected), "\(bytes)")
            #expect(made == expected)
            #expect(Array(made.utf8) == bytes)
            #expect(made.hashValue == expected.hashValue)
        }
    }

    @Test func madeStringsBehaveAsStrings() {
        guard SmallASCIIString.isAvailable else { return }
        let bytes = Array("campaign_id_123".utf8)
        var made = bytes.withUnsafeBufferPointer { make($0) }
        #expect(made.count == 15)
        #expect(made.hasPrefix("campaign"))
        #expect(made.split(separator: "_") == ["campaign", "id", "123"])
        // Growing past 15 bytes moves it to the heap, as any small string does.
        made += "-and-more"
        #expect(made == "campaign_id_123-and-more")
        let dictionary = [bytes.withUnsafeBufferPointer { make($0) }: 1]
        #expect(dictionary["campaign_id_123"] == 1)
    }

    @Test func objectLookupsReadKeysInPlaceWhereTheLayoutIsKnown() {
        // `JSONObject` compares small ASCII keys as their 16 bytes on these platforms: the
        // tag it assumes must be the one the standard library writes, and a member's key its
        // first field.
        #if (arch(x86_64) || arch(arm64)) && _endian(little)
            #expect(JSONObject.smallASCIITag == UInt64(SmallASCIIString.discriminator) << 56)
            #expect(SmallASCIIString.isAvailable)
            #expect(MemoryLayout<JSONObject.Member>.offset(of: \JSONObject.Member.key) == 0)
        #else
            #expect(JSONObject.smallASCIITag == nil)
        #endif
    }

    @Test func lookupsFindKeysHoweverTheirStringsAreHeld() {
        // A key held on the heap though short (made with room to grow), keys of 15 and 16
        // bytes, non-ASCII keys and one canonically equal to an ASCII key but longer in
        // UTF-8: each is found exactly as by comparing strings.
        var grown = String()
        grown.reserveCapacity(64)
        grown += "id"
        let keys = [
            grown, "fifteen_bytes__", "sixteen_bytes___", "café", "\u{212A}", "K", "title", "", "a",
        ]
        let object = JSONObject(keys.enumerated().map { ($0.element, JSONValue.number(JSONNumber($0.offset))) })
        for (offset, key) in keys.enumerated() {
            #expect(object[key] == .number(JSONNumber(offset)), "\(key)")
            // The same text made anew, small where it fits.
            #expect(object[String(decoding: Array(key.utf8), as: UTF8.self)] == .number(JSONNumber(offset)), "\(key)")
        }
        #expect(object["i"] == nil)
        #expect(object["fifteen_bytes_"] == nil)
        #expect(object["KELVIN"] == nil)
        // A short key looked up among members that are all heap strings.
        var long = String()
        long.reserveCapacity(32)
        long += "url"
        let heapOnly = JSONObject([(long, JSONValue.bool(true)), ("a much longer key than fifteen", .null)])
        #expect(heapOnly["url"] == .bool(true))
        #expect(heapOnly["ur"] == nil)
    }

    @Test func theParserGivesTheStandardLibrarysStrings() throws {
        // Keys and values of every length around the small-string limit, ASCII and not,
        // through the parser of bytes (short keys and values made from the words they are read
        // as, when 16 bytes follow the opening quote) and of text.
        for length in 0...20 {
            for text in [String(repeating: "k", count: length), String(repeating: "é", count: length / 2)] {
                let expected = JSONValue.object([text: .string(text)])
                for document in [#"{"\#(text)":"\#(text)"}"#, #"{"\#(text)":"\#(text)", "padding to be read in words": 0}"#] {
                    for parsed in [try JSONParser().parse(document), try JSONParser().parse(Array(document.utf8))] {
                        guard case .object(let object) = parsed, let (key, value) = object.first(where: { _ in true }) else {
                            Issue.record("not an object: \(parsed)")
                            continue
                        }
                        #expect(key == text)
                        if text.utf8.count <= SmallASCIIString.capacity {
                            #expect(bits(key) == bits(reference(Array(text.utf8))))
                            #expect(value.stringValue.map(bits) == bits(reference(Array(text.utf8))))
                        }
                        #expect(value.stringValue.map { Array($0.utf8) } == Array(text.utf8))
                    }
                }
                #expect(try JSONParser().parse(#"{"\#(text)":"\#(text)"}"#) == expected)
            }
        }
    }
}
