import TapRoute
import TapRouteTestSupport
import Testing

@Suite struct JSONParserTests {
    @Test func keepsKeyOrderAndRoundTrips() throws {
        let text = #"{"z":1,"a":[true,false,null],"m":{"y":"é","b":-1.5e3}}"#
        let value = try JSONValue(parsing: text)
        #expect(value.jsonString() == text)
        #expect(value.objectValue?.keys == ["z", "a", "m"])
    }

    /// Iterating an object gives its members in order as `(key:, value:)` pairs, also after
    /// members are replaced, removed and added, and its iterator can cross threads.
    @Test func iterationGivesTheMembersInOrder() throws {
        var object = try json(#"{"b": 1, "a": [true], "c": {"d": null}, "e": "x"}"#).objectValue ?? [:]
        object["a"] = "replaced"
        object["c"] = nil
        object["f"] = 2
        let members = Array(object)
        #expect(members.map(\.key) == ["b", "a", "e", "f"])
        #expect(members.map(\.value) == [1, "replaced", "x", 2])
        #expect(object.underestimatedCount == 4)
        var iterator = object.makeIterator()
        #expect(iterator.next()?.key == "b")
        func requireSendable<T: Sendable>(_: T) {}
        requireSendable(iterator)
        let empty = JSONObject()
        #expect(Array(empty).isEmpty)
        #expect(empty.underestimatedCount == 0)
    }

    @Test func objectsCompareWithoutRegardToOrder() throws {
        #expect(try JSONValue(parsing: #"{"a":1,"b":2}"#) == JSONValue(parsing: #"{"b":2,"a":1}"#))
        #expect(try JSONValue(parsing: "[1,2]") != JSONValue(parsing: "[2,1]"))
        let set: Set<JSONValue> = [try JSONValue(parsing: #"{"a":1,"b":2}"#), try JSONValue(parsing: #"{"b":2,"a":1}"#)]
        #expect(set.count == 1)
    }

    @Test func numbersKeepTheirText() throws {
        let value = try JSONValue(parsing: "[12345678901234567890, 1.50, 1e999999, -0]")
        #expect(value.jsonString() == "[12345678901234567890,1.50,1e999999,-0]")
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        let value = try JSONValue(parsing: #""a\"b\\c\/d\n\u00e9\ud83d\ude00""#)
        #expect(value == .string("a\"b\\c/d\né😀"))
    }

    @Test func duplicateKeysKeepTheLastValueAtTheFirstPosition() throws {
        let value = try JSONValue(parsing: #"{"a":1,"b":2,"a":3}"#)
        #expect(value.jsonString() == #"{"a":3,"b":2}"#)
        #expect(try JSONValue(parsing: #"{"a":1,"\u0061":2}"#).jsonString() == #"{"a":2}"#)
        let many = "{" + (0..<100).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + ",\"k7\":-1}"
        let object = try #require(try JSONValue(parsing: many).objectValue)
        #expect(object.count == 100)
        #expect(object["k7"] == -1)
    }

    @Test(arguments: [
        ("", "unexpected end of input, expected a value", 1, 1),
        ("{", "unexpected end of input in an object", 1, 2),
        ("{\"a\" 1}", "expected ':' after an object key", 1, 6),
        ("[1,]", "unexpected character ']', expected a value", 1, 4),
        ("\"abc", "unterminated string", 1, 1),
        ("\"\\ud800\"", "lone high surrogate in a \\u escape", 1, 2),
        ("\"\\udc00\"", "lone low surrogate in a \\u escape", 1, 2),
        ("\"a\u{1}\"", "unescaped control character in a string", 1, 3),
        ("01", "unexpected data after the JSON value", 1, 2),
        ("{}\n x", "unexpected data after the JSON value", 2, 2),
        ("tru", "invalid literal 'tru', expected 'true'", 1, 1),
        ("nul", "invalid literal 'nul', expected 'null'", 1, 1),
        ("this line is not JSON", "unexpected 'this', expected a JSON value (an object, array, string, number, true, false or null)", 1, 1),
        ("1.", "invalid number: expected a digit after '.'", 1, 3),
        ("\"\\x\"", "invalid escape '\\x' in a string", 1, 2),
    ])
    func rejectsInvalidJSONWithItsPosition(text: String, reason: String, line: Int, column: Int) {
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: text) }
        do {
            _ = try JSONValue(parsing: text)
        } catch {
            #expect(error.reason == reason)
            #expect(error.line == line)
            #expect(error.column == column)
        }
    }

    @Test func rejectsInvalidUTF8() {
        let bytes: [UInt8] = [0x22, 0xC3, 0x28, 0x22]  // "\xC3(" — a broken two-byte sequence
        #expect(throws: JSONParseError.self) { try JSONParser().parse(bytes) }
        let overlong: [UInt8] = [0x22, 0xC0, 0xAF, 0x22]
        #expect(throws: JSONParseError.self) { try JSONParser().parse(overlong) }
        let surrogate: [UInt8] = [0x22, 0xED, 0xA0, 0x80, 0x22]  // UTF-8 encoded U+D800
        #expect(throws: JSONParseError.self) { try JSONParser().parse(surrogate) }
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        do {
            _ = try JSONParser(maximumDepth: 512).parse(deep)
            Issue.record("expected an error")
        } catch {
            #expect(error.reason == "nesting deeper than 512 levels")
        }
        #expect((try? JSONParser(maximumDepth: 512).parse(String(repeating: "[", count: 512) + String(repeating: "]", count: 512))) != nil)
    }

    @Test func writerEscapesOnlyWhatJSONRequires() {
        let value: JSONValue = ["s": .string("q\"b\\n\n\t\u{1}é/")]
        #expect(value.jsonString() == #"{"s":"q\"b\\n\n\t\u0001é/"}"#)
    }

    @Test func prettyOutputParsesBack() throws {
        let value = try JSONValue(parsing: #"{"a":[1,{"b":[]}],"c":{}}"#)
        let pretty = value.jsonString(pretty: true)
        #expect(pretty.contains("\n"))
        #expect(try JSONValue(parsing: pretty) == value)
    }

    @Test func convertsUserInfoDictionaries() throws {
        let userInfo: [AnyHashable: Any] = [
            "aps": ["alert": ["title": "Hi"], "badge": 3] as [String: Any],
            "flag": true,
            "ratio": 0.5,
            "list": [1, "two"] as [Any],
        ]
        let object = try #require(JSONObject(userInfo: userInfo))
        #expect(object["aps"]?["alert"]?["title"] == "Hi")
        #expect(object["aps"]?["badge"] == 3)
        #expect(object["flag"] == true)
        #expect(object["ratio"] == .number(JSONNumber(0.5)))
        #expect(object["list"] == [1, "two"])
        #expect(JSONObject(userInfo: ["bad": NSObjectLike()] as [AnyHashable: Any]) == nil)
    }
}

private final class NSObjectLike {}

@Suite struct JSONStringRoundTripTests {
    /// Strings of every length around the 8-byte scanning stride, mixing ASCII, quotes,
    /// backslashes, control characters and multi-byte scalars, survive write → parse.
    @Test func randomStringsRoundTripAtEveryAlignment() throws {
        let alphabet: [Unicode.Scalar] = [
            "a", "Z", "0", " ", "\"", "\\", "/", "\u{0}", "\u{1F}", "\n", "\t", "é", "中", "😀", "\u{7F}", "\u{FFFD}",
        ]
        var state: UInt64 = 0x1234_5678
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        for length in 0..<64 {
            for _ in 0..<20 {
                var scalars = String.UnicodeScalarView()
                for _ in 0..<length { scalars.append(alphabet[next() % alphabet.count]) }
                let original = String(scalars)
                let text = JSONValue.string(original).jsonString()
                #expect(try JSONValue(parsing: text) == .string(original), "\(text)")
                // And with a prefix, so the string starts at another offset.
                let shifted = "[" + String(repeating: " ", count: length % 8) + text + "]"
                #expect(try JSONValue(parsing: shifted) == .array([.string(original)]))
            }
        }
    }

    @Test func invalidUTF8AfterALongASCIIRunIsFound() {
        var bytes = Array("\"".utf8) + Array(repeating: UInt8(ascii: "a"), count: 37) + [0xFF] + Array("\"".utf8)
        #expect(throws: JSONParseError(.invalidUTF8(.invalidByte(0xFF)), line: 1, column: 39, offset: 38)) {
            try JSONParser().parse(bytes)
        }
        bytes = Array("\"".utf8) + Array(repeating: UInt8(ascii: "a"), count: 20) + [0x01] + Array("\"".utf8)
        #expect(throws: JSONParseError.self) { try JSONParser().parse(bytes) }
    }
}

/// The parser finds repeated keys through a 64-bit filter over each key's length and three
/// of its bytes; keys that share those (and escaped spellings of the same key) must still be
/// told apart exactly: the last value at the first key's position, as `JSONObject` keeps them.
@Suite struct DuplicateKeyTests {
    @Test func repeatedKeysAsJSONObjectKeepsThem() throws {
        // Same length, first, middle and last byte; escaped and plain spellings; lengths 0–20.
        let keys = [
            "", "a", "aXa", "aYa", "abXba", "abYba", #"\u0061"#, #"a\u0058a"#, "title", "tItle", "0123456789abcdefghij",
            "0123456789Abcdefghij", "é", #"\u00e9"#, #"\""#, #"\u0022"#,
            // Canonically equal to `K` and `é` but longer: other keys, as iOS keeps them.
            "K", "\u{212A}", #"\u212A"#, "e\u{301}", #"e\u0301"#, "a\u{301}\u{323}", "a\u{323}\u{301}",
            #"a\u0323\u0301"#,
        ]
        var generator = SplitMix64(seed: 2_026_112_403)
        // Up to 24 members: past `JSONObject.indexThreshold`, where keys are hashed.
        for _ in 0..<5_000 {
            var text = "{"
            var pairs: [(String, JSONValue)] = []
            for n in 0..<(1 + generator.below(24)) {
                let raw = keys[generator.below(keys.count)]
                if n > 0 { text += "," }
                text += "\"\(raw)\":\(n)"
                let decoded = try #require(JSONValue(parsing: "\"\(raw)\"").stringValue)
                pairs.append((decoded, .number(JSONNumber(n))))
            }
            text += "}"
            let parsed = try #require(JSONValue(parsing: text).objectValue)
            let expected = JSONObject(pairs)
            #expect(parsed.keys == expected.keys, "\(text)")
            #expect(parsed == expected, "\(text)")
        }
    }
}

/// `hasUTF8Prefix` compares bytes in place; it must answer what `utf8.starts(with:)` answers.
@Suite struct UTF8PrefixTests {
    @Test func agreesWithStartsWith() {
        let pieces = ["a", "ab_", "gcm.", "é", "e\u{301}", "新しい", "👋", "_", "x", "0123456789abcdef", ""]
        var generator = SplitMix64(seed: 2_026_112_401)
        var prefixes = 0
        for _ in 0..<20_000 {
            var text = ""
            var prefix = ""
            for _ in 0..<generator.below(6) { text += pieces[generator.below(pieces.count)] }
            if generator.below(2) == 0 {
                // A true prefix, cut at a byte (possibly inside a scalar).
                let cut = generator.below(text.utf8.count + 1)
                prefix = String(decoding: Array(text.utf8.prefix(cut)), as: UTF8.self)
            } else {
                for _ in 0..<generator.below(4) { prefix += pieces[generator.below(pieces.count)] }
            }
            let expected = text.utf8.starts(with: prefix.utf8)
            if expected { prefixes += 1 }
            #expect(text.hasUTF8Prefix(prefix) == expected, "\(text) / \(prefix)")
        }
        #expect(prefixes > 5_000 && prefixes < 15_000)
    }
}

/// The writer stores words with nothing to escape whole and escapes the rest byte by byte; its
/// output must be what escaping one byte at a time gives, at every length and position.
@Suite struct JSONStringWritingTests {
    static func reference(_ text: String) -> [UInt8] {
        var out: [UInt8] = [0x22]
        for b in text.utf8 {
            switch b {
            case 0x22: out += [0x5C, 0x22]
            case 0x5C: out += [0x5C, 0x5C]
            case 0x0A: out += Array(#"\n"#.utf8)
            case 0x0D: out += Array(#"\r"#.utf8)
            case 0x09: out += Array(#"\t"#.utf8)
            case 0x08: out += Array(#"\b"#.utf8)
            case 0x0C: out += Array(#"\f"#.utf8)
            case 0..<0x20: out += Array(#"\u00"#.utf8) + Array(String(b, radix: 16).leftPadded.utf8)
            default: out.append(b)
            }
        }
        return out + [0x22]
    }

    @Test func escapesAsOneByteAtATimeDoes() {
        let pieces = ["a", "abcdefgh", "\"", "\\", "\n", "\u{1}", "\u{1F}", "\t", "é", "新しい", "👋", "\u{7F}", "/", " "]
        var generator = SplitMix64(seed: 2_026_112_404)
        for _ in 0..<20_000 {
            var text = ""
            for _ in 0..<generator.below(12) { text += pieces[generator.below(pieces.count)] }
            var out: [UInt8] = []
            JSONWriter.writeString(text, into: &out)
            #expect(out == Self.reference(text), "\(text.debugDescription)")
        }
    }

    /// The writer copies plain text sixteen bytes at a time, then eight: one byte to escape at
    /// every place of texts of every length up to three vectors is escaped where it is.
    @Test func oneByteToEscapeIsFoundAtEveryPlace() {
        for length in 1...48 {
            for place in 0..<length {
                for special in ["\"", "\\", "\n", "\u{1F}", "\u{0}"] {
                    var characters = [String](repeating: "é", count: length)
                    for i in stride(from: 0, to: length, by: 3) { characters[i] = "a" }
                    characters[place] = special
                    let text = characters.joined()
                    var out: [UInt8] = []
                    JSONWriter.writeString(text, into: &out)
                    #expect(out == Self.reference(text), "\(text.debugDescription)")
                }
            }
        }
    }

    /// The 16-byte test flags exactly the bytes JSON must escape, each in its own lane: every
    /// byte value in every lane, among bytes that need nothing.
    @Test func theVectorTestFlagsExactlyTheBytesToEscape() {
        for value in 0...255 {
            for lane in 0..<16 {
                var bytes = SIMD16<UInt8>(repeating: UInt8(ascii: "a"))
                bytes[lane] = UInt8(value)
                // Its neighbours one below and above, which a borrowing test could flag.
                if lane > 0 { bytes[lane - 1] = UInt8(truncatingIfNeeded: value + 1) }
                if lane < 15 { bytes[lane + 1] = UInt8(truncatingIfNeeded: value &- 1) }
                let flags = jsonStringSpecialBytes(bytes)
                for k in 0..<16 {
                    let byte = bytes[k]
                    let expected = byte < 0x20 || byte == 0x22 || byte == 0x5C
                    let word = k < 8 ? flags.0 : flags.1
                    let flagged = (word >> UInt64(8 * (k % 8))) & 0xFF
                    #expect(flagged == (expected ? 0x80 : 0), "\(value) in lane \(lane): byte \(byte) in lane \(k)")
                }
            }
        }
    }
}

extension String {
    fileprivate var leftPadded: String { utf8.count < 2 ? "0" + self : self }
}

/// A string of `text`'s bytes held in a heap buffer, however short: how a key made by editing
/// a longer string is held, which the small-string comparisons must not take for another.
func heap(_ text: String) -> String {
    var grown = String()
    grown.reserveCapacity(64)
    grown += text
    return grown
}

/// `SmallStringSet` (the adapters' key sets) answers as `Set<String>` does: members of every
/// length (empty, and past the 63 bytes its length filter tells apart), non-ASCII ones, and
/// sets small enough to be searched and large enough to be hashed.
@Suite struct SmallStringSetTests {
    @Test func answersAsASetDoes() {
        var generator = SplitMix64(seed: 20_261_129)
        let pieces = ["a", "b", "_", "é", "新", "👋", "Key", String(repeating: "x", count: 30)]
        func string() -> String { (0..<generator.below(5)).map { _ in pieces[generator.below(pieces.count)] }.joined() }
        for _ in 0..<400 {
            let members = (0..<generator.below(30)).map { _ in string() }
            let set = SmallStringSet(members)
            let reference = Set(members)
            #expect(set.isEmpty == reference.isEmpty)
            for candidate in members + (0..<50).map({ _ in string() }) {
                #expect(set.contains(candidate) == reference.contains(candidate), "\(candidate) in \(members)")
            }
        }
    }

    /// Short ASCII strings are compared as their 16 bytes where the layout allows: members and
    /// candidates held on the heap though short, of 15 and 16 bytes, non-ASCII, and KELVIN
    /// SIGN answer as the comparison of object keys does — the same UTF-8 bytes — so that
    /// KELVIN SIGN, canonically equal to `K` but longer, is not `K` (nor is it for
    /// `JSONObject` lookups).
    @Test func answersForStringsHeldEveryWay() {
        let texts = ["id", "url", "fifteen_bytes__", "sixteen_bytes___", "café", "\u{212A}", "K", "", "title"]
        for memberCount in 0...texts.count {
            for heapMembers in [false, true] {
                let members = texts.prefix(memberCount).map { heapMembers ? heap($0) : $0 }
                let set = SmallStringSet(members)
                for candidate in texts + texts.map(heap) + ["i", "ur", "fifteen_bytes_", "KELVIN", "Id"] {
                    let expected = members.contains { Array($0.utf8) == Array(candidate.utf8) }
                    #expect(set.contains(candidate) == expected, "\(candidate) in \(members)")
                }
            }
        }
    }
}

/// `KeyPrefixSet` (a definition payload's `withoutPrefixes`) answers as a comparison of UTF-8
/// bytes does: prefixes and keys of every length around the small-string boundary (7, 8, 9,
/// 15 and 16 bytes), keys shorter than a prefix, held on the heap though short, non-ASCII,
/// with NUL bytes (a short key's words are zero past its end, so a prefix ending in NUL must
/// not match a key one byte shorter), KELVIN SIGN beside `K`, and the empty prefix.
@Suite struct KeyPrefixSetTests {
    static func expected(_ prefixes: [String], _ key: String) -> Bool {
        prefixes.contains { key.utf8.starts(with: $0.utf8) }
    }

    @Test func answersAsAByteComparisonDoes() {
        let texts = [
            "g", "gcm.", "google.", "google.c.a.c_id", "google.c.a.c_id_", "gcm.n.link_android", "wzrk_", "W$", "1234567",
            "12345678", "123456789", "a\0", "a\0\0", "\0", "café", "ca", "\u{212A}", "K", "Kx", "^", "^d", "com.urbanairship.",
        ]
        let keys =
            texts + texts.map(heap) + texts.map { $0 + "x" } + texts.map { String($0.dropLast()) }
            + ["", "a", "gcm", "google", "google.c.a.c_i", "com.urbanairship.metadata", "wzrk_dl", "W$ttl", "a\0b", "café\0"]
        var generator = SplitMix64(seed: 20_261_201)
        for round in 0..<600 {
            var prefixes = (0..<generator.below(4)).map { _ in texts[generator.below(texts.count)] }
            if round % 3 == 1 { prefixes = prefixes.map(heap) }
            if round % 50 == 7 { prefixes.append("") }
            let set = KeyPrefixSet(prefixes)
            #expect(set.isEmpty == prefixes.isEmpty)
            for key in keys {
                #expect(set.matches(key) == Self.expected(prefixes, key), "\(Array(key.utf8)) against \(prefixes.map { Array($0.utf8) })")
            }
        }
    }

    /// Keys and prefixes made of random bytes from a small alphabet (ASCII, NUL, non-ASCII),
    /// so that prefixes often are, or nearly are, prefixes of the keys.
    @Test func answersForGeneratedKeys() {
        let pieces = ["a", "b", ".", "\0", "é", "z", "_"]
        var generator = SplitMix64(seed: 7_919)
        func text(_ most: Int) -> String { (0..<generator.below(most + 1)).map { _ in pieces[generator.below(pieces.count)] }.joined() }
        for _ in 0..<400 {
            let prefixes = (0..<(1 + generator.below(3))).map { _ in text(10) }.filter { !$0.isEmpty }
            let set = KeyPrefixSet(prefixes)
            for _ in 0..<40 {
                let key = text(18)
                #expect(set.matches(key) == Self.expected(prefixes, key), "\(Array(key.utf8)) against \(prefixes.map { Array($0.utf8) })")
            }
        }
    }
}

/// `JSONObject.keyBits()` (how a definition that reads many root keys tells a missing one)
/// never leaves out a key the object holds: objects of small ASCII keys, of short keys held on
/// the heap, of long keys (past the 15 bytes a small string holds) and non-ASCII ones, and of
/// more members than an object indexes; every small ASCII key the object holds, by its bytes,
/// has its bit set.
@Suite struct KeyBitsTests {
    @Test func aKeyTheObjectHoldsHasItsBit() {
        let texts = [
            "", "a", "K", "\u{212A}", "a\0", "aps", "gcm.app_link", "google.c.a.e", "google.c.a.ts", "google.c.a.tc", "wzrk_dl",
            "W$id", "123456789012345", "1234567890123456", "google.c.sender.id", "clé", "com.urbanairship.metadata",
        ]
        var generator = SplitMix64(seed: 20_261_202)
        for round in 0..<500 {
            let count = round % 25 == 0 ? 17 + generator.below(12) : generator.below(9)
            var keys: [String] = []
            for _ in 0..<count {
                let key = generator.below(3) == 0 ? "k\(generator.below(40))" : texts[generator.below(texts.count)]
                if !keys.contains(where: { $0.utf8.elementsEqual(key.utf8) }) { keys.append(key) }
            }
            let object = JSONObject(keys.map { (round % 2 == 1 && generator.below(2) == 0 ? heap($0) : $0, JSONValue.null) })
            let bits = object.keyBits()
            for key in keys {
                guard let bit = JSONObject.keyBit(of: key) else { continue }
                #expect(bits & bit != 0, "\(key) in \(keys)")
            }
        }
    }

    /// The summary of small keys says something: a bit a key, not all of them; a short key
    /// held on the heap makes it say nothing (every bit), a long key adds no bit.
    @Test func smallKeysAreSummarized() {
        let small: JSONObject = ["gcm.app_link": 1, "google.c.a.e": "1", "aps": [:]]
        #expect(small.keyBits().nonzeroBitCount <= 3)
        #expect(small.keyBits() != 0)
        let long: JSONObject = ["gcm.app_link": 1, "google.c.a.e": "1", "aps": [:], "google.c.sender.id": 2]
        #expect(long.keyBits() == small.keyBits())
        #expect(JSONObject([(heap("aps"), JSONValue.null)]).keyBits() == ~0)
        #expect(JSONObject().keyBits() == 0)
        #if (arch(x86_64) || arch(arm64)) && _endian(little)
            let missing = ["gcm.n.link", "google.c.a.c_l", "google.c.a.m_l", "google.c.a.udt", "from", "custom", "itbl"]
            let told = missing.filter { small.keyBits() & JSONObject.keyBit(of: $0)! == 0 }
            #expect(told.count >= 4, "of \(missing), only \(told) told missing")
        #endif
    }
}

/// `KeyMarks` (detection's one pass over a notification's keys) gives the bits of exactly the
/// keys whose UTF-8 bytes an object's keys have: keys of every small length and past it, keys
/// and table entries held on the heap though short (compared by bytes, not by their words),
/// non-ASCII ones, KELVIN SIGN beside `K`, a key given twice in the table, empty objects.
@Suite struct KeyMarksTests {
    /// The bits a search key by key, by bytes, gives.
    static func expected(_ table: [(key: String, bits: UInt64)], _ keys: [String]) -> UInt64 {
        expected(table, keys.map { (key: $0, value: JSONValue.null) }) { bits, _ in bits }
    }

    /// The bits a search member by member, by bytes, gives, each key's bits masked by `mask`
    /// for its value.
    static func expected(
        _ table: [(key: String, bits: UInt64)],
        _ members: [(key: String, value: JSONValue)],
        mask: (UInt64, JSONValue) -> UInt64
    ) -> UInt64 {
        var result: UInt64 = 0
        for member in members {
            var bits: UInt64 = 0
            for entry in table where Array(entry.key.utf8) == Array(member.key.utf8) { bits |= entry.bits }
            result |= mask(bits, member.value)
        }
        return result
    }

    @Test func marksExactlyTheKeysAnObjectHas() {
        let texts = [
            "", "a", "id", "url", "data", "_mId", "_dId", "adb_uri", "adb_act", "fifteen_bytes__", "fifteen_bytes_x",
            "sixteen_bytes___", "a key of more than thirty-two bytes", "café", "\u{212A}", "K", "k", "新",
        ]
        #expect(unsafeBitCast(heap("id"), to: (UInt64, UInt64).self).1 >> 60 != 0xE, "the heap copy is not small")
        var generator = SplitMix64(seed: 20_261_130)
        for round in 0..<600 {
            // Tables of 0 to 12 entries, some repeated, some held on the heap.
            let table: [(key: String, bits: UInt64)] = (0..<generator.below(13)).map { i in
                let text = texts[generator.below(texts.count)]
                return (generator.below(4) == 0 ? heap(text) : text, UInt64(1) << UInt64(i))
            }
            let marks = KeyMarks(table)
            // Objects of 0 to 10 distinct keys, from the texts, their heap copies and others.
            var keys: [String] = []
            for _ in 0..<generator.below(11) {
                let pick = generator.below(texts.count + 3)
                let text = pick < texts.count ? texts[pick] : "other\(generator.below(100))"
                let key = generator.below(3) == 0 ? heap(text) : text
                if !keys.contains(where: { Array($0.utf8) == Array(key.utf8) }) { keys.append(key) }
            }
            let values: [JSONValue] = [.null, "text", 1, true, [], [:]]
            let members = keys.map { (key: $0, value: values[generator.below(values.count)]) }
            let object = JSONObject(uniqueMembers: members)
            #expect(
                marks.marks(in: object) == Self.expected(table, keys),
                "round \(round): keys \(keys), table \(table.map(\.key))"
            )
            // Masks by kind: a key's bits kept or dropped for a null, a string, another value.
            let masks: UInt64 = generator.next()
            let kinds = KeyMarks.KindMasks(null: masks & 0xFFF, string: masks >> 12 & 0xFFF, other: masks >> 24 & 0xFFF)
            let expected = Self.expected(table, members) { bits, value in
                switch value {
                case .null: bits & kinds.null
                case .string: bits & kinds.string
                default: bits & kinds.other
                }
            }
            #expect(marks.marks(in: object, keeping: kinds) == expected, "round \(round): \(members)")
        }
    }

    /// Every key of 0 to 15 ASCII bytes is found in a table of one key of each length, and no
    /// key of another length or content is taken for it.
    @Test func eachSmallLengthIsFoundAndOnlyItself() {
        let alphabet = Array("abcdefghijklmnopq".utf8)
        let table = (0...15).map { (key: String(decoding: alphabet[0..<$0], as: UTF8.self), bits: UInt64(1) << UInt64($0)) }
        let marks = KeyMarks(table)
        for length in 0...16 {
            let same = String(decoding: alphabet[0..<length], as: UTF8.self)
            let other = String(decoding: alphabet[1..<(length + 1)], as: UTF8.self)
            for key in [same, heap(same), other] {
                let object = JSONObject(uniqueMembers: [(key: key, value: JSONValue.null)])
                #expect(marks.marks(in: object) == Self.expected(table, [key]), "\(key)")
            }
        }
        #expect(marks.marks(in: JSONObject()) == 0)
    }
}

@Suite struct JSONObjectKeyTests {
    /// `removing(_:)` with a list or a set of keys gives the members whose keys are not
    /// among them, in order, for objects of every size around the hash index's threshold,
    /// every choice of keys to remove for the small ones and random choices for the rest —
    /// including none (the object itself) and all (the empty object) — and lookups in the
    /// result find every member kept and none left out. Keys are compared as object lookups
    /// compare them, by their UTF-8 bytes: KELVIN SIGN does not remove `K`, nor one order of
    /// two combining marks the other.
    @Test func keepsTheOtherMembersInOrder() {
        var generator = SplitMix64(seed: 20_261_129)
        let names = [
            "aps", "dashx", "K", "\u{212A}", "café", "a_key_of_more_than_fifteen_bytes", "新", "a\u{301}\u{323}", "a\u{323}\u{301}",
        ]
        func key(_ i: Int) -> String { names[i % names.count] + (i < names.count ? "" : String(i)) }
        for count in 0...(JSONObject.indexThreshold + 3) {
            let members = (0..<count).map { (key($0), JSONValue.number(JSONNumber($0))) }
            let object = JSONObject(members)
            var choices: [[Bool]] = []
            if count <= 6 {
                choices = (0..<(1 << count)).map { mask in (0..<count).map { mask >> $0 & 1 == 1 } }
            } else {
                choices = [Array(repeating: false, count: count), Array(repeating: true, count: count)]
                choices += (0..<40).map { _ in (0..<count).map { _ in generator.below(3) == 0 } }
            }
            for chosen in choices {
                var keys = (0..<count).filter { chosen[$0] }.map(key)
                keys.append("absent")
                // A set holds one of two canonically equal keys (`K`, KELVIN SIGN): what it
                // removes is decided by the keys it holds.
                for (result, held) in [(object.removing(keys), keys), (object.removing(Set(keys)), Array(Set(keys)))] {
                    let removed = members.map { member in held.contains { Array($0.utf8) == Array(member.0.utf8) } }
                    let expected = members.enumerated().filter { !removed[$0.offset] }.map(\.element)
                    #expect(result.map(\.key) == expected.map(\.0), "removing \(held) from \(object.keys)")
                    #expect(result.map(\.value) == expected.map(\.1))
                    for (i, (name, value)) in members.enumerated() {
                        #expect(result[name] == (removed[i] ? JSONValue?.none : .some(value)), "\(name) after removing \(held)")
                    }
                }
            }
        }
        let kelvin: JSONObject = ["K": 1, "\u{212A}": 2]
        #expect(kelvin.removing(["\u{212A}"]).keys == ["K"])
        #expect(kelvin.removing(["K"]).keys == ["\u{212A}"])
    }

    /// `hasMember(_:)` and `withStringMember(_:_:)` find a member as the subscript does, in
    /// objects of every size around the hash index's threshold and for keys held every way
    /// (short, long, non-ASCII, only canonically equal), and `withStringMember` reads the
    /// string's exact bytes, and nothing for a member that is missing or not a string.
    @Test func membersAreFoundInPlaceAsLookupsFindThem() throws {
        let keys = ["a", "K", "\u{212A}", "café", "a_key_of_more_than_fifteen_bytes", "a\u{301}\u{323}", "新しい"]
        for others in 0...(JSONObject.indexThreshold + 2) {
            var object = JSONObject((0..<others).map { ("p\($0)", JSONValue(0)) })
            for (n, key) in keys.enumerated() {
                object[key] = n % 2 == 0 ? .string(key + String(repeating: "é", count: n * 5)) : .number(JSONNumber(n))
            }
            for key in keys + ["absent", "a\u{323}\u{301}", "A"] {
                #expect(object.hasMember(key) == (object[key] != nil), "\(key), \(others) other members")
                let bytes = object.withStringMember(key) { Array($0) }
                if case .string(let text)? = object[key] {
                    #expect(bytes == Array(text.utf8), "\(key)")
                } else {
                    #expect(bytes == nil, "\(key)")
                }
            }
        }
    }

    /// An object of any size keeps `K` and KELVIN SIGN apart, and two orders of the same
    /// combining marks — as iOS's dictionaries do — however many other members it has (past
    /// 16 its keys are hashed, and `String`'s equality takes each pair for one key); so do a
    /// screen's parameters.
    @Test func keepsKeysThatAreOnlyCanonicallyEqualApart() throws {
        for others in 0...(JSONObject.indexThreshold + 2) {
            let padding = (0..<others).map { "\"p\($0)\":0," }.joined()
            for kelvin in ["\u{212A}", #"\u212A"#] {
                let object = try #require(JSONValue(parsing: "{\(padding)\"K\":1,\"\(kelvin)\":2}").objectValue)
                #expect(object.count == others + 2, "\(others) other members")
                #expect(object["K"] == 1)
                #expect(object["\u{212A}"] == 2)
                var built = JSONObject((0..<others).map { ("p\($0)", JSONValue(0)) })
                built["K"] = 1
                built["\u{212A}"] = 2
                #expect(built == object)
                #expect(built.removing(["K"])["\u{212A}"] == 2)
            }
            let marks = try #require(
                JSONValue(parsing: "{\(padding)\"a\u{301}\u{323}\":1,\"a\\u0323\\u0301\":2}").objectValue
            )
            #expect(marks.count == others + 2, "\(others) other members")
            #expect(marks["a\u{301}\u{323}"] == 1)
            #expect(marks["a\u{323}\u{301}"] == 2)
            // A screen's parameters (query items, DashX's `screen_data`) are named the same way.
            let parameters = ScreenParameters((0..<others).map { ("p\($0)", "0") } + [("K", "1"), ("\u{212A}", "2")])
            #expect(parameters.count == others + 2)
            #expect(parameters["K"] == "1")
            #expect(parameters["\u{212A}"] == "2")
            let set = SmallStringSet((0..<others).map { "p\($0)" } + ["K", "abc", "a\u{301}\u{323}"])
            #expect(set.contains("K"))
            #expect(!set.contains("\u{212A}"), "a set of \(others + 3)")
            #expect(!set.contains("a\u{323}\u{301}"), "a set of \(others + 3)")
        }
    }
}
