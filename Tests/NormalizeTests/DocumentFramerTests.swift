import TapRoute
import Testing

@testable import NormalizeCore

/// ``DocumentFramer`` finds the same records wherever the reads split the document: every
/// element boundary, string escape and bracket may fall at the end of a read.
@Suite struct DocumentFramerTests {
    /// The events as comparable text.
    static func events(of document: [UInt8], splitAt cuts: [Int], limit: Int = 1 << 20) -> [String] {
        var framer = DocumentFramer(limit: limit)
        var events: [String] = []
        let record: (DocumentFramer.Event) -> Void = { event in
            switch event {
            case .element(let bytes, let index, let line, let column):
                events.append("element \(index) \(line):\(column) \(String(decoding: bytes, as: UTF8.self))")
            case .oversizedElement(let size, let index, let line):
                events.append("oversized \(index) \(line) \(size)")
            case .document(let bytes, let line, let column):
                events.append("document \(line):\(column) \(String(decoding: bytes, as: UTF8.self))")
            case .oversizedDocument(let line):
                events.append("oversized document \(line)")
            case .syntaxError(let error):
                events.append("error \(error.line):\(error.column) \(error.reason)")
            }
        }
        var start = 0
        document.withUnsafeBufferPointer { whole in
            for cut in cuts + [document.count] where cut >= start {
                framer.consume(UnsafeBufferPointer(rebasing: whole[start..<cut]), record)
                start = cut
            }
        }
        framer.finish(record)
        return events
    }

    static let documents: [String] = [
        #" [ {"a":"x]}\"{[,"} , "s\\\"],", 12.5e3,true ,null,[1,[2]],{"b":{"c":[]}} ]  "#,
        "[\n  {\"kind\":\"url\"},\n\t[\"\\\\\"],\r\n  -1\n]\n",
        #"{"kind":"url","url":"tel:1"}  "#,
        #"[{"a":1} {"b":2}]"#,
        #"[{"a":1},]"#,
        #"[{"a":1}] x"#,
        #"[{"a":"unterminated"#,
        #"[1"#,
        "[]",
        "",
        "   ",
    ]

    @Test func everySplitGivesTheSameRecords() {
        for text in Self.documents {
            let document = Array(text.utf8)
            let whole = Self.events(of: document, splitAt: [])
            #expect(!whole.isEmpty || text == "[]", "\(text)")
            for cut in 0...document.count {
                #expect(Self.events(of: document, splitAt: [cut]) == whole, "\(text) cut at \(cut)")
            }
            #expect(Self.events(of: document, splitAt: Array(0...document.count)) == whole, "\(text) byte by byte")
        }
    }

    @Test func elementsAreFramedWithTheirPositions() {
        let events = Self.events(of: Array(Self.documents[1].utf8), splitAt: [])
        #expect(events == [#"element 0 2:3 {"kind":"url"}"#, #"element 1 3:2 ["\\"]"#, "element 2 4:3 -1"])
        #expect(Self.events(of: Array(Self.documents[3].utf8), splitAt: []).last == "error 1:10 expected ',' or ']' after an array element")
        #expect(Self.events(of: Array(Self.documents[4].utf8), splitAt: []).last == "error 1:10 expected a value after ','")
        #expect(Self.events(of: Array(Self.documents[5].utf8), splitAt: []).last == "error 1:11 unexpected data after the JSON value")
        #expect(
            Self.events(of: Array(Self.documents[7].utf8), splitAt: []) == [
                "element 0 1:2 1", "error 1:3 unterminated array at the end of the input",
            ]
        )
        #expect(Self.events(of: Array(Self.documents[8].utf8), splitAt: []).isEmpty)
    }

    @Test func oversizedElementsAreCountedNotKept() {
        let big = "[\"" + String(repeating: "x", count: 500) + "\",{\"a\":1}]"
        for cuts in [[], [7], Array(stride(from: 0, to: big.utf8.count, by: 13))] {
            let events = Self.events(of: Array(big.utf8), splitAt: cuts, limit: 100)
            #expect(events == ["oversized 0 1 502", #"element 1 1:505 {"a":1}"#], "\(cuts)")
        }
        let document = Self.events(
            of: Array(("{\"a\":\"" + String(repeating: "x", count: 500) + "\"}").utf8),
            splitAt: [50, 60],
            limit: 100
        )
        #expect(document == ["oversized document 1"])
    }
}

extension DocumentFramerTests {
    /// A whole document's size is its bytes from the first to the last non-blank one, as an
    /// element's is: the newline a file ends with, and any blanks after the value, do not count
    /// (they are counted, not kept), wherever the reads split them.
    @Test func wholeDocumentsCountTheirBytesWithoutTheBlanksAround() {
        let record = "{\"a\":\"" + String(repeating: "x", count: 92) + "\"}"  // 100 bytes
        let limit = record.utf8.count
        for (text, expected) in [
            ("  \n" + record + "\n", ["document 2:1 " + record]),
            (record + String(repeating: " \n\t\r", count: 500), ["document 1:1 " + record]),
            ("\n" + record + " x", ["oversized document 2"]),
            (record + String(repeating: " ", count: 200) + "1", ["oversized document 1"]),
        ] {
            let bytes = Array(text.utf8)
            for cuts in [[], [1], [limit], [limit + 1], Array(stride(from: 0, to: bytes.count, by: 7))] {
                #expect(Self.events(of: bytes, splitAt: cuts, limit: limit) == expected, "\(text.prefix(20)) cut at \(cuts)")
            }
        }
    }
}
