import TapRouteTestSupport
import Testing

@testable import TapRoute

/// `JSONParser.alertTextReadForKind` (docs/performance.md, the twenty-second round): the
/// strings of a notification's `aps.alert` are checked as any string is and read as the empty
/// string. What it promises: the value is the whole record's with exactly those strings
/// emptied, and any record the whole parse refuses is refused with the same error — the
/// same problem at the same line, column and offset — whatever is wrong inside the alert.
@Suite struct AlertTextReadingTests {
    /// The record's value with the alert strings emptied as the option reads them: `aps.alert`
    /// at the root and, in an envelope (a root with `kind`), under the root's `userInfo` — the
    /// alert itself when it is a string, else its string members. A root without `kind` is a
    /// bare `userInfo`, whose own `userInfo` member is custom data: when that holds an alert,
    /// the record is read whole.
    static func emptyingAlertText(_ value: JSONValue) -> JSONValue {
        if value["kind"] == nil, case .string? = value["userInfo"]?["aps"]?["alert"] { return value }
        if value["kind"] == nil, case .object? = value["userInfo"]?["aps"]?["alert"] { return value }
        func aps(_ value: JSONValue) -> JSONValue {
            guard case .object(var aps) = value else { return value }
            switch aps["alert"] {
            case .string?:
                aps["alert"] = ""
            case .object(let alert)?:
                var emptied = JSONObject()
                for (key, member) in alert { emptied[key] = member.stringValue == nil ? member : "" }
                aps["alert"] = .object(emptied)
            default:
                break
            }
            return .object(aps)
        }
        guard case .object(var root) = value else { return value }
        if let value = root["aps"] { root["aps"] = aps(value) }
        if case .object(var userInfo)? = root["userInfo"], let value = userInfo["aps"] {
            userInfo["aps"] = aps(value)
            root["userInfo"] = .object(userInfo)
        }
        return .object(root)
    }

    /// What parsing `bytes` gives: the value, or the error with where it is.
    static func outcome(_ bytes: [UInt8], alertTextForKind: Bool, inOrder: Bool = false, maximumDepth: Int = 512) -> Result<
        JSONValue, JSONParseError
    > {
        var parser = JSONParser(maximumDepth: maximumDepth)
        parser.alertTextReadForKind = alertTextForKind
        parser.readsStringsInOrder = inOrder
        return Result { () throws(JSONParseError) -> JSONValue in try parser.parse(bytes) }
    }

    /// Strings for the alert's text, as the bytes between the quotes: plain, every length of
    /// UTF-8 sequence, every escape, long text past the one-pass buffer, and every way a string
    /// can be refused (invalid or truncated UTF-8, an overlong form, a lone surrogate, a bad
    /// escape, a control byte, a quote-less end).
    static let texts: [[UInt8]] = {
        var texts: [[UInt8]] = [
            [], Array("Your order has shipped".utf8), Array("façade новое 订单 🎉 تم".utf8),
            Array(#"a \"quoted\" \\ \/ \b\f\n\r\t \u00e9 \ud83d\ude00 end"#.utf8),
            Array(String(repeating: "订单 order ", count: 400).utf8),
            Array((String(repeating: #"\"x\" "#, count: 400) + "é").utf8),
            [0xFF], Array("abc".utf8) + [0xE3, 0x81] + Array("def".utf8), [0xC0, 0xAF], [0xED, 0xA0, 0x80],
            [0xF4, 0x90, 0x80, 0x80], Array(#"\ud800"#.utf8), Array(#"x\udc00y"#.utf8), Array(#"\ud800\u0041"#.utf8),
            Array(#"\q"#.utf8), Array(#"\u12"#.utf8), Array(#"\u12G4"#.utf8), [0x01], Array("tab\there".utf8), [0x7F, 0x1F],
            Array(String(repeating: "é", count: 600).utf8) + [0xFF],
        ]
        // A valid sequence cut at every byte, in a word-sized run.
        let emoji = Array("12345678😀abcdefgh".utf8)
        for cut in 9..<12 { texts.append(Array(emoji[..<cut]) + Array(emoji[12...])) }
        return texts
    }()

    /// Records that put `text` (the bytes between quotes) where the option reads it for its
    /// kind, and where it does not.
    static func records(around text: [UInt8]) -> [[UInt8]] {
        let quoted = [UInt8(ascii: "\"")] + text + [UInt8(ascii: "\"")]
        let shapes = [
            #"{"kind":"notification","userInfo":{"aps":{"alert":{"title":@,"body":@},"sound":"default"},"dashx":"{}"},"origin":"remote"}"#,
            #"{"kind":"notification","userInfo":{"aps":{"alert":@}}}"#,
            // A bare userInfo whose custom data has a userInfo of its own: that one is kept.
            #"{"kindly":"notification","userInfo":{"aps":{"alert":@}},"aps":{"alert":{"title":@}}}"#,
            #"{"userInfo":{"aps":{"alert":{"title":@}}},"userInfo":{"aps":{"alert":@}}, "aps":{"alert":@}}"#,
            #"{"userInfo":{"aps":{"alert":@}},"userInfo":{"aps":{"alert":1}}, "aps":{"alert":@}}"#,
            #"{"userInfo":{"aps":{"alert":@}},"kind":{"not":"a string"}}"#,
            #"{"aps":{"alert":{"title":@,"loc-args":[@,1],"nested":{"t":@}}},"gcm.message_id":"1"}"#,
            #"{"aps":{"alert":@,"alert":{"subtitle":@}},"x":@}"#,
            #"{"userInfo":{"aps":{"category":@,"alert":{"title":@}},"aps":{"alert":@}}, "kind" : "notification" }"#,
            #"{"kind":"vendorEvent","event":{"aps":{"alert":@}},"userInfo":{"aps":{"alert":[@]}}}"#,
            #"{"message":{"aps":{"alert":{"title":@}}},"kind":"inAppMessage"}"#,
            #"[{"aps":{"alert":@}}]"#,
            #"{"aps":{"alert":{"title":@}}} trailing"#,
            #"{"aps":{"alert":{"title":@"#,
            #"{"aps":{"alert":@"#,
        ]
        return shapes.map { shape in
            var bytes: [UInt8] = []
            for byte in shape.utf8 {
                if byte == UInt8(ascii: "@") { bytes += quoted } else { bytes.append(byte) }
            }
            return bytes
        }
    }

    @Test func theValueIsTheWholeRecordsWithTheAlertTextEmptiedAndEveryErrorTheSame() {
        var compared = 0
        var refused = 0
        for text in Self.texts {
            for record in Self.records(around: text) {
                let whole = Self.outcome(record, alertTextForKind: false)
                let forKind = Self.outcome(record, alertTextForKind: true)
                switch (whole, forKind) {
                case (.success(let value), .success(let read)):
                    #expect(read == Self.emptyingAlertText(value), "\(String(decoding: record, as: UTF8.self))")
                case (.failure(let error), .failure(let same)):
                    refused += 1
                    #expect(same == error, "\(String(decoding: record, as: UTF8.self)): \(same) vs \(error)")
                default:
                    Issue.record("one parse failed and the other did not: \(String(decoding: record, as: UTF8.self))")
                }
                compared += 1
            }
        }
        #expect(compared == Self.texts.count * 15)
        // Every refusal family is met, inside the alert and outside it.
        #expect(refused > compared / 3, "\(refused) of \(compared)")
    }

    @Test func randomRecordsAgreeWithTheWholeParse() {
        // Alerts made of random pieces, valid and not, at random places; small nesting limits
        // so that depth errors are met too.
        let pieces: [[UInt8]] = [
            Array("a".utf8), Array("é".utf8), Array("订".utf8), Array("😀".utf8), Array(#"\""#.utf8), Array(#"\u00e9"#.utf8),
            Array(#"\ud83d\ude00"#.utf8), [0xFF], [0xE3], Array(#"\ud800"#.utf8), [0x01], Array(#"\x"#.utf8),
            Array("12345678".utf8),
        ]
        var generator = SplitMix64(seed: 2_026_112_922)
        var disagreements = 0
        for _ in 0..<4_000 {
            var text: [UInt8] = []
            for _ in 0..<Int.random(in: 0...12, using: &generator) {
                // Mostly valid pieces: a record with one bad piece is refused.
                let index = Int.random(in: 0..<(Bool.random(using: &generator) ? 7 : pieces.count), using: &generator)
                text += pieces[index]
            }
            let records = Self.records(around: text)
            let record = records[Int.random(in: 0..<records.count, using: &generator)]
            let depth = Int.random(in: 1...6, using: &generator)
            let whole = Self.outcome(record, alertTextForKind: false, maximumDepth: depth)
            let forKind = Self.outcome(record, alertTextForKind: true, maximumDepth: depth)
            switch (whole, forKind) {
            case (.success(let value), .success(let read)) where read == Self.emptyingAlertText(value): break
            case (.failure(let error), .failure(let same)) where same == error: break
            default: disagreements += 1
            }
        }
        #expect(disagreements == 0)
    }

    @Test func theReferenceReaderReadsEverything() {
        let record = Array(#"{"kind":"notification","userInfo":{"aps":{"alert":{"title":"Shipped"}}}}"#.utf8)
        let reference = Self.outcome(record, alertTextForKind: true, inOrder: true)
        #expect(reference == Self.outcome(record, alertTextForKind: false))
        #expect(reference != Self.outcome(record, alertTextForKind: true))
    }
}
