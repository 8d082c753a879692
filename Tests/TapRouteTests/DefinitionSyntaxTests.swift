import TapRouteTestSupport
import Testing

@testable import TapRoute

/// `DBraces.split` scans template text in place; it must answer exactly as the plain reading
/// of the rules does (one byte at a time: `{{` and `}}` literal braces, `{…}` an insert, a
/// lone `}` or an unclosed `{` a mistake), which this suite keeps as its oracle.
@Suite struct BraceSplittingTests {
    /// The rules read one byte at a time, each piece as `text:…` or `insert:…`, or the mistake.
    func oracle(_ text: String) -> [String] {
        var pieces: [String] = []
        var literal: [UInt8] = []
        var bytes = Array(text.utf8)[...]
        while let b = bytes.popFirst() {
            if b == UInt8(ascii: "}") {
                guard bytes.popFirst() == UInt8(ascii: "}") else { return ["error:a '}' must be written '}}'"] }
                literal.append(b)
            } else if b != UInt8(ascii: "{") {
                literal.append(b)
            } else if bytes.first == UInt8(ascii: "{") {
                bytes.removeFirst()
                literal.append(b)
            } else {
                guard let close = bytes.firstIndex(of: UInt8(ascii: "}")) else {
                    return ["error:a '{' without '}' (write '{{' for a brace)"]
                }
                if !literal.isEmpty { pieces.append("text:" + String(decoding: literal, as: UTF8.self)) }
                literal = []
                pieces.append("insert:" + String(decoding: bytes[..<close], as: UTF8.self))
                bytes = bytes[(close + 1)...]
            }
        }
        if !literal.isEmpty { pieces.append("text:" + String(decoding: literal, as: UTF8.self)) }
        return pieces
    }

    func split(_ text: String) -> [String] {
        switch DBraces.split(text) {
        case .success(let pieces):
            return pieces.map { piece in
                switch piece {
                case .text(let text): "text:" + text
                case .insert(let insert): "insert:" + insert
                }
            }
        case .failure(let problem): return ["error:" + problem.message]
        }
    }

    @Test(arguments: [
        "", "plain", "{a}", "x{a}y", "{{", "}}", "a{{b}}c", "{a}{b}", "{", "}", "a}", "{a", "{}", "{{a}}",
        "{a}}}", "{{{a}", "é{ü}ß", "{a{b}",
    ])
    func examplesAnswerAsTheRulesSay(_ text: String) {
        #expect(split(text) == oracle(text))
    }

    @Test func generatedTextsAnswerAsTheRulesSay() {
        var generator = SplitMix64(seed: 20_261_128)
        let alphabet: [Character] = ["{", "}", "a", "b", ".", " ", "é", "{", "}"]
        for _ in 0..<20_000 {
            let count = Int(generator.next() % 12)
            let text = String((0..<count).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
            #expect(split(text) == oracle(text), "\(text)")
        }
    }
}

/// A parsed path's `display`, the JSONPath suffix that errors name: plain keys after a dot,
/// other keys quoted (with `'` and `\` escaped), indices and list searches in brackets; and
/// `lastKey`, the key `{@key}` stands for.
@Suite struct PathDisplayTests {
    func parse(_ text: String) throws -> DPath {
        try DPathParser.parse(text, names: [:], namedAllowed: true, insideButtons: false).get()
    }

    @Test(
        arguments: [
            ("data.url", ".data.url", "url"),
            ("['gcm.app_link']", "['gcm.app_link']", "gcm.app_link"),
            ("data['^d']", ".data['^d']", "^d"),
            ("['it\\'s']", "['it\\'s']", "it's"),
            ("a['back\\\\slash']", ".a['back\\\\slash']", "back\\slash"),
            ("list[1]", ".list[1]", nil),
            ("list[kind='b'].v", ".list[?(@.kind)].v", "v"),
            ("CIO-Delivery-ID", ".CIO-Delivery-ID", "CIO-Delivery-ID"),
            ("a.9lives", ".a['9lives']", "9lives"),
            ("é", "['é']", "é"),
        ] as [(String, String, String?)]
    )
    func displaysAsJSONPath(_ text: String, _ display: String, _ lastKey: String?) throws {
        let path = try parse(text)
        #expect(path.display == display)
        #expect(path.lastKey == lastKey)
    }
}
