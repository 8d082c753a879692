import TapRouteTestSupport
import Testing

@testable import TapRoute

/// `JSONParser.rootStringsReadForKind` reads the named string members of the root object
/// as empty strings, without building their text — for JSON held in a string whose long
/// members an adapter reads only for their kind (DashX's `title` and `body`). Whatever the
/// input, the outcome must be the plain parse's: the same error at the same place, or the
/// same value with those strings emptied.
@Suite struct KindOnlyMembersTests {
    static let kindOnly = SmallStringSet(["title", "body"])

    func parse(_ bytes: [UInt8], kindOnly: Bool) -> Result<JSONValue, JSONParseError> {
        var parser = JSONParser()
        if kindOnly { parser.rootStringsReadForKind = Self.kindOnly }
        return Result { () throws(JSONParseError) -> JSONValue in try parser.parse(bytes) }
    }

    /// `value` with the root object's string members named in the set emptied: what the
    /// kind-only parse must give.
    func emptied(_ value: JSONValue) -> JSONValue {
        guard case .object(var object) = value else { return value }
        for key in object.keys where Self.kindOnly.contains(key) {
            if case .string = object[key] { object[key] = .string("") }
        }
        return .object(object)
    }

    @Test func onlyTheRootsNamedStringsAreEmptied() throws {
        var parser = JSONParser()
        parser.rootStringsReadForKind = Self.kindOnly
        let text =
            #"{"title":"caf\u00e9 \ud83d\udd25","body":null,"id":"n-1","#
            + #""inner":{"title":"kept"},"list":[{"body":"kept"}],"body2":"kept"}"#
        let value = try parser.parse(text)
        #expect(value["title"] == .string(""))
        #expect(value["body"] == .null)
        #expect(value["id"] == .string("n-1"))
        #expect(value["inner"]?["title"] == .string("kept"))
        #expect(value["list"]?.arrayValue?.first?["body"] == .string("kept"))
        #expect(value["body2"] == .string("kept"))
        // A member that is not a string keeps its value, and its kind.
        #expect(try parser.parse(#"{"title":12,"body":["a"]}"#) == ["title": 12, "body": ["a"]])
        // Not an object at the root: nothing to empty.
        #expect(try parser.parse(#"["title","body"]"#) == ["title", "body"])
        // A repeated key keeps its last value, emptied or not.
        #expect(try parser.parse(#"{"title":"a","title":3}"#) == ["title": 3])
        #expect(try parser.parse(#"{"title":3,"title":"a"}"#) == ["title": ""])
    }

    @Test func everyProblemInAnEmptiedStringIsTheParsesOwn() {
        // Each bad string as a kind-only member: the same error, at the same place, as
        // without the option.
        let bad: [[UInt8]] = [
            Array(#"\x"#.utf8), Array(#"\u12"#.utf8), Array(#"\uZZZZ"#.utf8), Array(#"\ud83d"#.utf8),
            Array(#"\udc4b"#.utf8), Array(#"\ud83dx"#.utf8), Array(#"\ud83d\u0041"#.utf8), [0x01], [0x1F], [0x0A],
            [0xFF], [0xC3], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], Array("ok\\".utf8),
        ]
        for text in bad {
            for prefix in [[UInt8](), Array("a longer plain prefix ".utf8)] {
                let document = Array(#"{"id":1,"title":""#.utf8) + prefix + text + Array(#"","n":2}"#.utf8)
                let plain = parse(document, kindOnly: false)
                let kindOnly = parse(document, kindOnly: true)
                #expect(kindOnly == plain.map(emptied), "document: \(document)")
                // Cut short inside the string too.
                let cut = Array(document.prefix(document.count - 8))
                #expect(parse(cut, kindOnly: true) == parse(cut, kindOnly: false).map(emptied), "document: \(cut)")
            }
        }
    }

    @Test func generatedDocumentsGiveThePlainParsesOutcome() {
        var generator = SplitMix64(seed: 20_261_128)
        let keys = ["title", "body", "id", "url"]
        var failures = 0
        for _ in 0..<20_000 {
            var document = Array("{".utf8)
            for index in 0..<(1 + generator.below(4)) {
                if index > 0 { document += Array(",".utf8) }
                var text: [UInt8] = []
                for _ in 0..<generator.below(10) {
                    let pieces = JSONStringFastPathTests.pieces
                    text += pieces[generator.below(10) < 8 ? generator.below(16) : generator.below(pieces.count)]
                }
                let key = keys[generator.below(keys.count)]
                document += Array(#""\#(key)":""#.utf8) + text + Array(#"""#.utf8)
            }
            document += Array("}".utf8)
            if generator.below(20) == 0 { document.removeLast(generator.below(document.count / 2) + 1) }
            let plain = parse(document, kindOnly: false)
            if case .failure = plain { failures += 1 }
            #expect(parse(document, kindOnly: true) == plain.map(emptied), "document: \(document)")
            // From a `String` (known valid UTF-8), as DashX's block is read.
            if let text = String(validating: document, as: UTF8.self) {
                var parser = JSONParser()
                parser.rootStringsReadForKind = Self.kindOnly
                let fromText = Result { () throws(JSONParseError) -> JSONValue in try parser.parse(text) }
                #expect(fromText == plain.map(emptied), "text: \(text)")
            }
        }
        #expect(failures > 1_000 && failures < 19_000, "the generator should make both valid and invalid documents")
    }
}
