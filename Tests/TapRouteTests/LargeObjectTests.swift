import TapRouteTestSupport
import Testing

@testable import TapRoute

/// The parser reads an object's first `JSONObject.indexThreshold` members in its main loop and
/// the rest, once the object outgrows that, in a loop of its own with a hash index of the keys;
/// and it passes runs of whitespace out of line (docs/performance.md, the forty-seventh round).
/// What must not change with either: the value (a repeated key's last value at its first
/// place, on either side of the threshold) and every error — the same problem at the line,
/// column and offset where it is in the text — whatever the whitespace around the tokens.
@Suite struct LargeObjectTests {
    /// Whitespace put around every token of the texts below: none, one space, and a run of
    /// every kind over two lines.
    static let spacings = ["", " ", " \t\r\n \n\t"]

    /// `{"k0":0,…}` with `count` members, `spacing` around each token, the key `"k\(repeated)"`
    /// written again at the end when `repeated` is given (with the value `"last"`).
    static func object(count: Int, spacing s: String, repeated: Int? = nil) -> String {
        var members = (0..<count).map { "\(s)\"k\($0)\"\(s):\(s)\($0)\(s)" }
        if let repeated { members.append("\(s)\"k\(repeated)\"\(s):\(s)\"last\"\(s)") }
        return "\(s){" + members.joined(separator: ",") + "}\(s)"
    }

    /// The line, column and offset of `offset` in `text`, counted here, apart from the parser.
    static func place(of offset: Int, in text: String) -> (line: Int, column: Int, offset: Int) {
        let before = Array(text.utf8)[..<offset]
        let line = 1 + before.filter { $0 == 0x0A }.count
        let lineStart = (before.lastIndex(of: 0x0A) ?? -1) + 1
        return (line, offset - lineStart + 1, offset)
    }

    /// What reading `text` gives: the value, or the error.
    static func outcome(_ text: String, inOrder: Bool) -> Result<JSONValue, JSONParseError> {
        var parser = JSONParser()
        parser.readsStringsInOrder = inOrder
        return Result { () throws(JSONParseError) -> JSONValue in try parser.parse(Array(text.utf8)) }
    }

    @Test(arguments: [false, true])
    func valuesOnBothSidesOfTheThresholdAreTheObjectsBuiltKeyByKey(inOrder: Bool) throws {
        let threshold = JSONObject.indexThreshold
        for spacing in Self.spacings {
            for count in 0...(threshold + 4) {
                for repeated in [nil] + Array(0..<count) {
                    let text = Self.object(count: count, spacing: spacing, repeated: repeated)
                    var expected = JSONObject((0..<count).map { ("k\($0)", JSONValue.number(JSONNumber($0))) })
                    if let repeated { expected["k\(repeated)"] = "last" }
                    let value = try Self.outcome(text, inOrder: inOrder).get()
                    #expect(value == .object(expected), "\(text)")
                    #expect(value.objectValue?.keys == expected.keys, "\(text)")
                }
            }
        }
    }

    /// A fault written into the object at its `member`th member (of `count`): where it is
    /// and what the parser must say about it.
    struct Fault: CustomStringConvertible, Sendable {
        let description: String
        let apply: @Sendable (_ members: inout [String], _ member: Int, _ spacing: String) -> Void
        /// What the parser expected where it finds the fault's `@`, which the error's offset
        /// must point at.
        let expected: JSONParseError.Expectation
    }

    static let faults: [Fault] = [
        Fault(
            description: "a key without its colon",
            apply: { members, i, s in members[i] = "\(s)\"k\(i)\"\(s)@\(i)" },
            expected: .colon
        ),
        Fault(
            description: "a key that is not a string",
            apply: { members, i, s in members[i] = "\(s)@k\(i):\(i)" },
            expected: .key
        ),
        Fault(
            description: "two members without a comma",
            apply: { members, i, s in members[i] += "@\"x\":0" },
            expected: .commaOrBraceInObject
        ),
        Fault(
            description: "a value that is not one",
            apply: { members, i, s in members[i] = "\(s)\"k\(i)\"\(s):\(s)@" },
            expected: .value
        ),
    ]

    @Test(arguments: [false, true])
    func everyFaultIsReportedWhereItIsOnBothSidesOfTheThreshold(inOrder: Bool) throws {
        let threshold = JSONObject.indexThreshold
        var checked = 0
        for spacing in Self.spacings {
            for count in [1, threshold - 1, threshold, threshold + 1, threshold + 2, threshold + 6] {
                for member in Set([0, threshold - 1, threshold, threshold + 1, count - 1]) where member < count {
                    for fault in Self.faults {
                        var members = (0..<count).map { "\(spacing)\"k\($0)\"\(spacing):\(spacing)\($0)\(spacing)" }
                        fault.apply(&members, member, spacing)
                        let text = "\(spacing){" + members.joined(separator: ",") + "}\(spacing)"
                        let offset = try #require(text.utf8.firstIndex(of: UInt8(ascii: "@")))
                        let at = Self.place(of: text.utf8.distance(from: text.utf8.startIndex, to: offset), in: text)
                        let problem = JSONParseError.Problem.unexpected(found: UInt8(ascii: "@"), expected: fault.expected)
                        let expected = JSONParseError(problem, line: at.line, column: at.column, offset: at.offset)
                        #expect(throws: expected, "\(fault): \(text)") { try Self.outcome(text, inOrder: inOrder).get() }
                        checked += 1
                    }
                }
            }
        }
        #expect(checked > 200)
    }

    @Test(arguments: [false, true])
    func anObjectCutShortOnEitherSideOfTheThresholdEndsWhereItIsCut(inOrder: Bool) throws {
        let threshold = JSONObject.indexThreshold
        for spacing in Self.spacings {
            for count in [threshold - 1, threshold, threshold + 1, threshold + 3] {
                let whole = Self.object(count: count, spacing: spacing)
                let bytes = Array(whole.utf8)
                // Every cut inside the object: after a member, a comma, a colon, inside a key.
                let open = try #require(bytes.firstIndex(of: UInt8(ascii: "{")))
                let close = try #require(bytes.lastIndex(of: UInt8(ascii: "}")))
                for cut in (open + 1)...close {
                    let text = String(decoding: bytes[..<cut], as: UTF8.self)
                    let result = Self.outcome(text, inOrder: inOrder)
                    guard case .failure(let error) = result else {
                        Issue.record("\(text) was read")
                        continue
                    }
                    // Inside a key, the string is unterminated where it opens; anywhere else the
                    // input ends where it is cut.
                    let quotes = bytes[..<cut].indices.filter { bytes[$0] == UInt8(ascii: "\"") }
                    let inKey = quotes.count % 2 == 1
                    let offset = inKey ? quotes[quotes.count - 1] : cut
                    let at = Self.place(of: offset, in: text)
                    #expect(error.offset == offset && error.line == at.line && error.column == at.column, "\(text): \(error)")
                    switch error.problem {
                    case .unterminatedString: #expect(inKey, "\(text): \(error)")
                    case .unexpectedEnd, .unexpected(found: nil, _): #expect(!inKey, "\(text): \(error)")
                    default: Issue.record("\(text): \(error)")
                    }
                }
            }
        }
    }

    /// In a record read for its kind, a `userInfo` or an `aps` of more than the threshold's
    /// members still has its alert's text read for its kind (and nothing else changed): the
    /// loop that reads the rest of a large object reads its members as the first loop does.
    @Test func aLargeUserInfoHasItsAlertReadForItsKind() throws {
        let threshold = JSONObject.indexThreshold
        for spacing in Self.spacings {
            let padding = (0...threshold).map { "\"p\($0)\":\(spacing)\($0)," }.joined()
            for shape in [
                #"{"kind":"notification","userInfo":{@"aps":{"alert":{"title":"Shipped","body":"Today"}}}}"#,
                #"{"kind":"notification","userInfo":{"aps":{@"alert":"Shipped"}}}"#,
                #"{"kind":"notification","userInfo":{@"aps":{@"alert":{@"title":"Shipped"}}}}"#,
            ] {
                let text = shape.split(separator: "@", omittingEmptySubsequences: false).joined(separator: padding)
                var whole = JSONParser()
                whole.alertTextReadForKind = false
                var forKind = JSONParser()
                forKind.alertTextReadForKind = true
                let value = try whole.parse(Array(text.utf8))
                let read = try forKind.parse(Array(text.utf8))
                #expect(read == AlertTextReadingTests.emptyingAlertText(value), "\(text)")
                #expect(read != value, "\(text): the alert was read whole")
            }
        }
    }
}
