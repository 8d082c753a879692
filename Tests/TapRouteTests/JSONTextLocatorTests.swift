import Testing

@testable import TapRoute

@Suite struct JSONTextLocatorTests {
    func locate(_ path: String, _ text: String) -> (line: Int, column: Int)? {
        var copy = text
        return copy.withUTF8 { buffer in
            JSONTextLocator.locate(path: path, in: buffer).map { ($0.line, $0.column) }
        }
    }

    let document = """
        [
          {"kind": "url",
           "url": 42},
          {"kind": "notification",
           "userInfo": {
             "gcm.app_link": "x",
             "a": {"b": [1, {"c": true}]},
             "q\\"uote": null
           }
          }
        ]
        """

    @Test func findsTheValueAtAPath() {
        #expect(locate("$", document)! == (1, 1))
        #expect(locate("$[0]", document)! == (2, 3))
        #expect(locate("$[0].url", document)! == (3, 11))
        #expect(locate("$[1].userInfo", document)! == (5, 16))
        #expect(locate("$[1].userInfo.a.b[1].c", document)! == (7, 27))
        #expect(locate("$[1].userInfo['q\"uote']", document)! == (8, 17))
    }

    @Test func keysWithDotsMatchTheObjectsOwnKeys() {
        #expect(locate("$[1].userInfo.gcm.app_link", document)! == (6, 22))
        #expect(locate(#"$[1].userInfo["gcm.app_link"]"#, document)! == (6, 22))
    }

    @Test func stopsAtTheDeepestExistingValue() {
        // A missing key, an index past the end, a path into a string holding JSON.
        #expect(locate("$[0].missing", document)! == (2, 3))
        #expect(locate("$[7].kind", document)! == (1, 1))
        #expect(locate("$[1].userInfo.gcm.app_link.url", document)! == (6, 22))
    }

    @Test func aRepeatedKeyIsItsLastOccurrence() {
        #expect(locate("$.a", "{\"a\": 1,\n \"a\": 2}")! == (2, 7))
    }

    @Test func answersNilForNoValueAndSurvivesBrokenText() {
        #expect(locate("$.a", "   ") == nil)
        for text in ["{\"a\":", "[1,", "{\"a\" 1}", "\"unterminated", "{\"a\":[[[[", "]]]}"] {
            _ = locate("$.a[3].b", text)
        }
    }

    @Test func isLinearInTheTextsSize() {
        // Deep nesting is walked without recursion.
        let deep = String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000)
        #expect(locate("$[0][0][0]", deep)! == (1, 4))
        #expect(locate("$[1]", "[" + deep + ",7]")! == (1, 400_003))
    }
}
