import Foundation
import TapRoute
import TapRouteTestSupport
import Testing

/// Inputs that used to take quadratic time: each test times the same work at two sizes, a
/// factor 8 apart, and requires the larger to take less than 32 times as long (linear time
/// gives about 8, quadratic about 64; the margin absorbs a loaded machine). The sizes make a
/// quadratic path take seconds.
@Suite(.serialized) struct ScalingTests {
    /// The size factor between the two runs, and the largest time ratio accepted.
    static let factor = TimeRatio.factor
    static let maximumRatio = TimeRatio.maximumRatio

    /// ``TimeRatio/ratio(small:_:)``.
    static func ratio(small: Int, _ work: (Int) -> Void) -> Double {
        TimeRatio.ratio(small: small, work)
    }

    /// `{"k0":0,"k1":1,…,"k0":"last"}`: `n` keys and a duplicate of the first at the end.
    static func objectText(keys n: Int) -> [UInt8] {
        var text = "{"
        for i in 0..<n { text += "\"k\(i)\":\(i)," }
        text += "\"k0\":\"last\"}"
        return Array(text.utf8)
    }

    @Test(arguments: [false, true])
    func anObjectWithManyKeysAndADuplicateParsesInLinearTime(inOrder: Bool) throws {
        var parser = JSONParser()
        parser.readsStringsInOrder = inOrder
        let small = 10_000
        let texts = [small: Self.objectText(keys: small), small * Self.factor: Self.objectText(keys: small * Self.factor)]
        let ratio = Self.ratio(small: small) { n in _ = try? parser.parse(texts[n]!) }
        #expect(ratio < Self.maximumRatio, "time ratio \(ratio)")
        // The duplicate keeps its last value at the first key's position.
        let object = try #require(try parser.parse(texts[small]!).objectValue)
        #expect(object.count == small)
        #expect(object.keys.first == "k0")
        #expect(object["k0"] == "last")
        #expect(object["k\(small - 1)"] == .number(JSONNumber(small - 1)))
    }

    @Test func objectsAndParametersBuiltKeyByKeyStayLinear() {
        let objectRatio = Self.ratio(small: 10_000) { n in
            var object = JSONObject((0..<n).map { ("k\($0 % (n / 2))", JSONValue.number(JSONNumber($0))) })
            object["k0"] = nil
            _ = object == object
        }
        #expect(objectRatio < Self.maximumRatio, "JSONObject time ratio \(objectRatio)")
        let parametersRatio = Self.ratio(small: 10_000) { n in
            _ = ScreenParameters((0..<n).map { ("p\($0 % (n / 2))", "v") })
        }
        #expect(parametersRatio < Self.maximumRatio, "ScreenParameters time ratio \(parametersRatio)")

        // Same answers as a small object: last value at the first position, removal.
        var object = JSONObject((0..<40).map { ("k\($0 % 20)", JSONValue.number(JSONNumber($0))) })
        #expect(object.count == 20)
        #expect(object.keys == (0..<20).map { "k\($0)" })
        #expect(object["k3"] == 23)
        object["k3"] = nil
        #expect(object.count == 19 && object["k3"] == nil && object["k4"] == 24)
        #expect(object.removeValue(forKey: "k19") == 39)
        object["new"] = true
        #expect(object.keys.last == "new" && object["new"] == true)
        let parameters = ScreenParameters((0..<40).map { ("p\($0 % 20)", "\($0)") })
        #expect(parameters.count == 20 && parameters["p3"] == "3")
    }

    @Test func aRouteWithManyQueryItemsMatchesInLinearTime() throws {
        let route = try Route(pattern: "myapp://products/{id}", screen: "product")
        func url(_ n: Int) -> URLParts {
            URLParts("myapp://products/42?" + (0..<n).map { "q\($0)=\($0)" }.joined(separator: "&") + "&id=9&q0=again")!
        }
        let urls = [5_000: url(5_000), 5_000 * Self.factor: url(5_000 * Self.factor)]
        let ratio = Self.ratio(small: 5_000) { n in _ = route.match(urls[n]!) }
        #expect(ratio < Self.maximumRatio, "time ratio \(ratio)")
        let parameters = try #require(route.match(urls[5_000]!))
        #expect(parameters.count == 5_001)
        #expect(parameters["id"] == "42")  // a capture wins over a query item
        #expect(parameters["q0"] == "0")  // the first occurrence wins
        #expect(parameters.names.first == "id")
    }

    @Test func aVariableWithManyLiteralAlternativesMatchesInLinearTime() throws {
        // v = a, aa, aaa, … (`count` alternatives), 200 times in a pattern, on 2,000 letters:
        // the time grows with the alternatives, not with their square.
        func matcher(_ count: Int) throws -> AASAMatcher {
            let values: [JSONValue] = (1...count).map { .string(String(repeating: "a", count: $0)) }
            let document = try AASADocument(json: [
                "applinks": [
                    "substitutionVariables": ["v": .array(values)],
                    "details": [["appIDs": ["A1.app"], "components": [["/": .string("/" + String(repeating: "$(v)", count: 200) + "x")]]]],
                ]
            ])
            return AASAMatcher(document: document, appID: "A1.app")
        }
        let matchers = [10: try matcher(10), 80: try matcher(80)]
        let path = "/" + String(repeating: "a", count: 2_000) + "x"
        let ratio = Self.ratio(small: 10) { n in _ = matchers[n]!.match(path: path, query: nil, fragment: nil) }
        #expect(ratio < Self.maximumRatio, "time ratio \(ratio)")
        #expect(matchers[10]!.match(path: path, query: nil, fragment: nil).opensApp)  // 200 × "aaaaaaaaaa"
        #expect(!matchers[10]!.match(path: "/" + String(repeating: "a", count: 2_001) + "x", query: nil, fragment: nil).opensApp)
        #expect(!matchers[80]!.match(path: "/" + String(repeating: "a", count: 199) + "x", query: nil, fragment: nil).opensApp)
        #expect(matchers[80]!.match(path: "/" + String(repeating: "a", count: 200) + "x", query: nil, fragment: nil).opensApp)
    }

    @Test func aPatternOfManyWildcardVariablesMatchesInLinearTime() throws {
        let pattern = "/" + String(repeating: "$(v)", count: 1_000) + "x"
        let document = try AASADocument(json: [
            "applinks": [
                "substitutionVariables": ["v": ["*"], "w": ["ab", "a?c"]],
                "details": [["appIDs": ["A1.app"], "components": [["/": .string(pattern)], ["/": "/w/$(w)$(w)$(w)"]]]],
            ]
        ])
        let matcher = AASAMatcher(document: document, appID: "A1.app")
        let ratio = Self.ratio(small: 500) { n in
            _ = matcher.match(path: "/" + String(repeating: "a", count: n), query: nil, fragment: nil)
        }
        #expect(ratio < Self.maximumRatio, "time ratio \(ratio)")
        #expect(!matcher.match(path: "/" + String(repeating: "a", count: 4_000), query: nil, fragment: nil).opensApp)
        #expect(matcher.match(path: "/" + String(repeating: "a", count: 4_000) + "x", query: nil, fragment: nil).opensApp)
        #expect(matcher.match(path: "/x", query: nil, fragment: nil).opensApp)
        #expect(matcher.match(path: "/w/abazcab", query: nil, fragment: nil).opensApp)
        #expect(!matcher.match(path: "/w/abazc", query: nil, fragment: nil).opensApp)
    }
}

/// The position-set matcher (one pass per token over all positions, literal alternatives as
/// shifted bitsets) decides as a plain backtracking matcher does, on random patterns of
/// literals, `?`, `*` and a variable whose alternatives mix literals, wildcards and `""`.
@Suite struct AASAPatternReferenceTests {
    enum Piece {
        case literal(Character)
        case one
        case any
        case variable
    }

    /// Whether `pattern` (with `*` and `?`) matches all of `text`.
    static func simple(_ pattern: [Character], _ text: [Character]) -> Bool {
        guard let first = pattern.first else { return text.isEmpty }
        let rest = Array(pattern.dropFirst())
        switch first {
        case "*": return (0...text.count).contains { simple(rest, Array(text[$0...])) }
        case "?": return !text.isEmpty && simple(rest, Array(text.dropFirst()))
        default: return text.first == first && simple(rest, Array(text.dropFirst()))
        }
    }

    static func reference(_ pieces: ArraySlice<Piece>, _ text: ArraySlice<Character>, values: [String]) -> Bool {
        guard let first = pieces.first else { return text.isEmpty }
        let rest = pieces.dropFirst()
        switch first {
        case .literal(let c): return text.first == c && reference(rest, text.dropFirst(), values: values)
        case .one: return !text.isEmpty && reference(rest, text.dropFirst(), values: values)
        case .any: return (0...text.count).contains { reference(rest, text.dropFirst($0), values: values) }
        case .variable:
            return (0...text.count).contains { k in
                values.contains { simple(Array($0), Array(text.prefix(k))) } && reference(rest, text.dropFirst(k), values: values)
            }
        }
    }

    @Test func thePositionSetMatcherDecidesAsBacktrackingDoes() throws {
        var random = SplitMix64(seed: 7)
        var matches = 0
        for _ in 0..<300 {
            let pool = ["", "a", "b", "ab", "aab", "ba", "a*", "?b", "*", "b?a", "bbb"]
            let values = (0..<Int.random(in: 1...4, using: &random)).map { _ in pool.randomElement(using: &random)! }
            let pieces: [Piece] = (0..<Int.random(in: 0...6, using: &random)).map { _ in
                [Piece.literal("a"), .literal("b"), .one, .any, .variable, .variable].randomElement(using: &random)!
            }
            let text = pieces.map { piece -> String in
                switch piece {
                case .literal(let c): String(c)
                case .one: "?"
                case .any: "*"
                case .variable: "$(v)"
                }
            }.joined()
            let document = try AASADocument(json: [
                "applinks": [
                    "substitutionVariables": ["v": .array(values.map { .string($0) })],
                    "details": [["appIDs": ["A1.app"], "components": [["#": .string(text)]]]],
                ]
            ])
            let matcher = AASAMatcher(document: document, appID: "A1.app")
            for _ in 0..<10 {
                let subject = String((0..<Int.random(in: 0...7, using: &random)).map { _ in Bool.random(using: &random) ? "a" : "b" })
                let expected = Self.reference(pieces[...], Array(subject)[...], values: values)
                let actual = matcher.match(path: "/", query: nil, fragment: subject).opensApp
                #expect(actual == expected, "pattern \(text) v \(values) subject \(subject)")
                if expected { matches += 1 }
            }
        }
        #expect(matches > 300)
    }

}

extension ScalingTests {
    /// `https://a.example/` then `n` distinct CJK characters, each followed by a space: every
    /// character is new to the repair's list of what it encoded.
    static func repairableURL(_ n: Int) -> String {
        var url = "https://a.example/"
        for i in 0..<n { url += String(Character(Unicode.Scalar(UInt32(0x4E00 + i % 20_000))!)) + " " }
        return url
    }

    @Test func aURLWithManyDistinctCharactersIsRepairedInLinearTime() throws {
        let small = 2_000
        let urls = [small: Self.repairableURL(small), small * Self.factor: Self.repairableURL(small * Self.factor)]
        let ratio = Self.ratio(small: small) { n in _ = URLRepair.repaired(urls[n]!) }
        #expect(ratio < Self.maximumRatio, "time ratio \(ratio)")
        let repair = try #require(URLRepair.repaired(urls[small]!))
        #expect(repair.encoded.count == small + 1)  // each character, and the space
        #expect(repair.url.utf8.count == "https://a.example/".utf8.count + small * 12)
    }
}
