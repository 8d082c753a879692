import TapRoute
import TapRouteTestSupport
import Testing

/// The parser reads strings on a fast path (eight bytes at a time, one-step string
/// creation, escapes decoded straight into the string) and falls back to the in-order
/// reference reader for anything unusual. Both must give the same value, or the same error
/// at the same place, for every input.
@Suite struct JSONStringFastPathTests {
    /// Pieces strings are made of: plain ASCII, multi-byte UTF-8, escapes (valid and not),
    /// surrogate pairs (whole and lone), invalid UTF-8 and control bytes.
    static let pieces: [[UInt8]] = [
        Array("hello world ".utf8), Array("a".utf8), Array("0123456789abcdef".utf8), Array("é".utf8),
        Array("新しい".utf8), Array("👋".utf8), Array("Ваш".utf8), Array("ส่ง".utf8),
        Array(#"\""#.utf8), Array(#"\\"#.utf8), Array(#"\/"#.utf8), Array(#"\n\t\r\b\f"#.utf8),
        Array(#"\u00e9"#.utf8), Array(#"\u65B0"#.utf8), Array(#"\ud83d\udc4b"#.utf8), Array(#"\u0000"#.utf8),
        Array(#"\ud83d"#.utf8), Array(#"\udc4b"#.utf8), Array(#"\ud83dx"#.utf8), Array(#"\u12"#.utf8),
        Array(#"\uZZZZ"#.utf8), Array(#"\x"#.utf8), [0x5C, 0xC3, 0xA9], [0xC3], [0xE6, 0x96], [0xFF], [0xC0, 0x80],
        [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0x01], [0x1F], [0x7F], [0x0A],
        // A combining accent written as an escape: text not in normal form C, which hashes
        // wrongly when made as known ASCII.
        Array(#"e\u0301"#.utf8),
    ]

    func outcome(_ bytes: [UInt8], inOrder: Bool) -> Result<JSONValue, JSONParseError> {
        var parser = JSONParser()
        parser.readsStringsInOrder = inOrder
        return Result { () throws(JSONParseError) -> JSONValue in try parser.parse(bytes) }
    }

    /// The character count and hash of every string in a parse's value (keys and values, in
    /// order): a string made as known ASCII when it is not (an escape may write non-ASCII
    /// text) compares equal to the right one and counts alike, but hashes differently when
    /// its text is not in normal form C (`e\u0301`).
    static func stringShapes(_ result: Result<JSONValue, JSONParseError>) -> [Int] {
        guard case .success(let value) = result else { return [] }
        var shapes: [Int] = []
        func walk(_ value: JSONValue) {
            switch value {
            case .string(let s): shapes += [s.count, s.hashValue]
            case .array(let elements): elements.forEach(walk)
            case .object(let object):
                for (key, member) in object {
                    shapes += [key.count, key.hashValue]
                    walk(member)
                }
            default: break
            }
        }
        walk(value)
        return shapes
    }

    @Test func fastAndInOrderReadersAgreeOnGeneratedStrings() {
        var generator = SplitMix64(seed: 20_261_123)
        var invalid = 0
        for _ in 0..<20_000 {
            // Mostly well-formed pieces, with a problem now and then.
            var text: [UInt8] = []
            for _ in 0..<(1 + generator.below(12)) {
                let index = generator.below(10) < 8 ? generator.below(16) : generator.below(Self.pieces.count)
                text += Self.pieces[index]
            }
            let key: [UInt8] = generator.below(2) == 0 ? text : Array("k".utf8)
            var document = Array(#"{""#.utf8) + key + Array(#"":[""#.utf8) + text + Array(#""]}"#.utf8)
            if generator.below(20) == 0 { document.removeLast(generator.below(document.count / 2) + 1) }
            let fast = outcome(document, inOrder: false)
            let reference = outcome(document, inOrder: true)
            #expect(fast == reference, "document: \(document)")
            #expect(Self.stringShapes(fast) == Self.stringShapes(reference), "document: \(document)")
            if case .failure = reference { invalid += 1 }
        }
        #expect(invalid > 1_000 && invalid < 19_000, "the generator should make both valid and invalid strings")
    }

    /// A string with escapes is decoded in one pass into a buffer of
    /// `Reader.onePassCapacity` (1,024) bytes, and one that does not fit is scanned and then
    /// decoded: strings of 900 to 1,300 bytes, escapes at any place (across the buffer's
    /// end too), give what the in-order reader gives, as bytes and as a `String`.
    @Test func escapedStringsAroundTheOnePassBufferAgree() {
        var generator = SplitMix64(seed: 20_261_128)
        var lengths: Set<Int> = []
        for round in 0..<4_000 {
            var text: [UInt8] = [0x5C, 0x22]  // an escape first (a backslash and a quote): the one-pass decoder
            let target = 900 + generator.below(400)
            while text.count < target {
                // Mostly valid pieces; every 200th round, any piece.
                let index = round % 200 == 0 ? generator.below(Self.pieces.count) : generator.below(16)
                text += Self.pieces[index]
            }
            lengths.insert(text.count / 100)
            let document = Array(#"["#.utf8) + [UInt8(ascii: "\"")] + text + Array(#"",1]"#.utf8)
            let fast = outcome(document, inOrder: false)
            let reference = outcome(document, inOrder: true)
            #expect(fast == reference, "document: \(String(decoding: document, as: UTF8.self))")
            #expect(Self.stringShapes(fast) == Self.stringShapes(reference))
            if let asText = String(validating: document, as: UTF8.self) {
                let fromText = Result { () throws(JSONParseError) -> JSONValue in try JSONParser().parse(asText) }
                #expect(fromText == reference, "text: \(asText)")
            }
        }
        #expect(lengths.count >= 4)
    }

    /// The first escape anywhere in a long string: after up to 1,100 plain bytes (past the
    /// one-pass buffer's 1,024), and near the end of the input — the text before the escape
    /// is copied into the buffer only when it fits (an overflow here is a crash under
    /// AddressSanitizer, which CI runs the tests with).
    @Test func theFirstEscapeMayComeLate() {
        for plain in [0, 1, 7, 8, 9, 1_000, 1_015, 1_016, 1_017, 1_018, 1_019, 1_020, 1_023, 1_024, 1_025, 1_100] {
            for escape in [#"\n"#, #"\u00e9"#, #"\ud83d\udc4b"#, #"\""#] {
                for tail in ["", "x", "é", String(repeating: "y", count: 40)] {
                    let text = String(repeating: "a", count: plain) + escape + tail
                    for document in [#"[""# + text + #""]"#, #"""# + text + #"""#] {
                        let bytes = Array(document.utf8)
                        #expect(outcome(bytes, inOrder: false) == outcome(bytes, inOrder: true), "\(plain) + \(escape) + \(tail.count)")
                        // Cut short: the input ends inside the string.
                        let cut = Array(bytes.dropLast(2))
                        #expect(outcome(cut, inOrder: false) == outcome(cut, inOrder: true), "cut: \(plain) + \(escape)")
                    }
                }
            }
        }
    }

    /// Text given as a `String` is known to be valid UTF-8, so its strings are not checked
    /// again; the result must be what parsing the same bytes (checked) gives, errors included.
    @Test func textAndItsBytesParseAlike() {
        let pieces = [
            "hello ", "é", "新しい", "👋", "Ваш", #"\""#, #"\u00e9"#, #"\ud83d\udc4b"#, #"\n"#, #"","k":""#, "a\u{301}", "}", "\u{7F}",
        ]
        var generator = SplitMix64(seed: 20_261_125)
        for _ in 0..<10_000 {
            var text = #"{"k":[""#
            for _ in 0..<generator.below(10) { text += pieces[generator.below(pieces.count)] }
            text += #""]}"#
            let fromText = Result { () throws(JSONParseError) -> JSONValue in try JSONParser().parse(text) }
            let fromBytes = Result { () throws(JSONParseError) -> JSONValue in try JSONParser().parse(Array(text.utf8)) }
            #expect(fromText == fromBytes, "\(text)")
        }
    }

    /// The fast path checks UTF-8 itself and then creates strings without the standard
    /// library checking them again, so its checker must accept exactly what the standard
    /// library's does: random bytes, weighted to lead and continuation bytes and the edges of
    /// the ranges RFC 3629 allows (overlong forms, surrogates, past U+10FFFF, truncation).
    @Test func acceptsExactlyTheUTF8TheStandardLibraryAccepts() {
        var generator = SplitMix64(seed: 20_261_124)
        let interesting: [UInt8] = [
            0x41, 0x7E, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF,
            0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xF8, 0xFF,
        ]
        let edgeScalars: [UInt32] = [
            0x7F, 0x80, 0xE9, 0x7FF, 0x800, 0xFFF, 0x1000, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF, 0x10000, 0x1F44B, 0x10FFFF,
        ]
        var accepted = 0
        for _ in 0..<50_000 {
            var text: [UInt8] = []
            for _ in 0..<(1 + generator.below(16)) {
                switch generator.below(8) {
                case 0:
                    text.append(interesting[generator.below(interesting.count)])
                case 1, 2, 3:
                    let scalar = edgeScalars[generator.below(edgeScalars.count)]
                    text += Array(String(Character(Unicode.Scalar(scalar)!)).utf8)
                default:
                    let byte = UInt8(0x20 + generator.below(0x5F))
                    if byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") { text.append(byte) }
                }
            }
            let document = [UInt8(ascii: "\"")] + text + [UInt8(ascii: "\"")]
            let expected = String(validating: text, as: UTF8.self)
            switch outcome(document, inOrder: false) {
            case .success(.string(let parsed)):
                accepted += 1
                #expect(expected != nil, "accepted invalid UTF-8 \(text)")
                #expect(Array(parsed.utf8) == text)
                #expect(parsed == expected && parsed.count == expected?.count)
            case .success(let other):
                Issue.record("a string document parsed as \(other)")
            case .failure:
                #expect(expected == nil, "refused valid UTF-8 \(text)")
            }
        }
        #expect(accepted > 2_000 && accepted < 48_000, "the generator should make both valid and invalid text")
    }

    /// Every byte pair, and every sequence of three and four bytes drawn from the edges of
    /// RFC 3629's ranges, after eight bytes of ASCII (so the checker's word-at-a-time skip
    /// runs first) and alone: accepted exactly when the standard library accepts it.
    @Test func acceptsExactlyTheValidShortSequences() {
        let edges: [UInt8] = [
            0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF,
            0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF,
        ]
        var sequences: [[UInt8]] = []
        for a in 0x20...0xFF {
            for b in 0x20...0xFF { sequences.append([UInt8(a), UInt8(b)]) }
        }
        for a in edges {
            for b in edges {
                for c in edges {
                    sequences.append([a, b, c])
                    for d in edges where a >= 0xF0 { sequences.append([a, b, c, d]) }
                }
            }
        }
        var checked = 0
        for sequence in sequences where !sequence.contains(UInt8(ascii: "\"")) && !sequence.contains(UInt8(ascii: "\\")) {
            let expected = String(validating: sequence, as: UTF8.self)
            for prefix in [[], Array("12345678".utf8)] {
                let text = prefix + sequence
                let accepted: Bool
                switch outcome([UInt8(ascii: "\"")] + text + [UInt8(ascii: "\"")], inOrder: false) {
                case .success(.string(let parsed)):
                    accepted = true
                    #expect(Array(parsed.utf8) == text)
                default:
                    accepted = false
                }
                #expect(accepted == (expected != nil), "\(text)")
                checked += 1
            }
        }
        #expect(checked > 200_000)
    }

    /// Escapes can turn ASCII input into non-ASCII text (`\u00e9`): such strings must still
    /// count, compare and hash as the same text written out.
    @Test func escapedTextIsTheSameStringAsTheTextWrittenOut() throws {
        for (escaped, plain) in [
            (#"caf\u00e9"#, "café"), (#"\ud83d\udc4b hi"#, "👋 hi"), (#"a\nb"#, "a\nb"),
            (#"\u65b0\u3057\u3044 long enough to be stored on the heap"#, "新しい long enough to be stored on the heap"),
            (#"e\u0301"#, "e\u{301}"), (#"long enough for the heap, then e\u0301"#, "long enough for the heap, then e\u{301}"),
        ] {
            let parsed = try JSONParser().parse(Array("\"\(escaped)\"".utf8))
            #expect(parsed == .string(plain))
            #expect(parsed.stringValue?.count == plain.count)
            #expect(parsed.stringValue?.hashValue == plain.hashValue)
        }
    }

    /// The fast path reads a `\u` escape's four digits as one word: every byte in every
    /// position, around digits of each kind (`0`, `9`, `a`, `F`), must give what the
    /// in-order reader gives — the same scalar, or the same error at the same place — and
    /// the scalar the digits spell.
    @Test func unicodeEscapeDigitsReadAsOneWordAgreeWithTheInOrderReader() throws {
        var decoded = 0
        for filler in ["0", "9", "a", "F"] {
            for position in 0..<4 {
                for byte in UInt8.min...UInt8.max {
                    var digits = Array(String(repeating: filler, count: 4).utf8)
                    digits[position] = byte
                    // Twelve bytes before the escape, so that the word loads run on both
                    // sides of it.
                    let document = Array(#"["abcdefghijkl\u"#.utf8) + digits + Array(#"xyz"]"#.utf8)
                    let fast = outcome(document, inOrder: false)
                    #expect(fast == outcome(document, inOrder: true), "\(digits)")
                    guard case .success(.array(let values)) = fast, case .string(let text)? = values.first else { continue }
                    let hex = try #require(UInt32(String(decoding: digits, as: UTF8.self), radix: 16))
                    if let scalar = Unicode.Scalar(hex) {
                        #expect(text == "abcdefghijkl" + String(Character(scalar)) + "xyz")
                        decoded += 1
                    }
                }
            }
        }
        // 22 hexadecimal digits in each of four positions around four fillers (352), less
        // the few that spell a lone surrogate (`d999`, `daaa`, `dFFF`, …).
        #expect(decoded > 330)
    }

    @Test func fastPathReadsLongStringsAcrossWordBoundaries() throws {
        for length in 0..<40 {
            for special in ["\\\"", "é", "\\u00e9", "\\n"] {
                let text = String(repeating: "x", count: length) + special + String(repeating: "y", count: length % 9)
                let document = Array("[\"\(text)\"]".utf8)
                #expect(outcome(document, inOrder: false) == outcome(document, inOrder: true))
            }
        }
    }
}
