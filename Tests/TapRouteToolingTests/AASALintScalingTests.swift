import TapRoute
import TapRouteTestSupport
import TapRouteTooling
import Testing

/// The linter's time on files built to be slow (``TimeRatio``: the larger of two sizes a factor
/// 8 apart must take less than 32 times as long).
@Suite(.serialized) struct AASALintScalingTests {
    /// A legacy `paths` list alternating rules and `NOT` rules that shadow nothing, so a
    /// pairwise check compares every pair.
    static func legacyDocument(paths n: Int) -> JSONValue {
        let paths: [JSONValue] = (0..<n).map { i in .string(i.isMultiple(of: 2) ? "/p\(i)/*" : "NOT /q\(i)") }
        return ["applinks": ["apps": [], "details": [["appID": "A1.app", "paths": .array(paths)]]]]
    }

    /// Components with a catch-all path and a query each, alternating exclude: every earlier
    /// rule covers each path, none its query.
    static func componentDocument(rules n: Int) -> JSONValue {
        let components: [JSONValue] = (0..<n).map { i in
            ["/": "*", "?": ["k": .string("v\(i)")], "exclude": .bool(!i.isMultiple(of: 2))]
        }
        return ["applinks": ["details": [["appIDs": ["A1.app"], "components": .array(components)]]]]
    }

    @Test func theAASALintIsSubquadratic() {
        let documents = [1_000: Self.legacyDocument(paths: 1_000), 8_000: Self.legacyDocument(paths: 8_000)]
        let legacyRatio = TimeRatio.ratio(small: 1_000) { n in _ = AASADocument.lint(json: documents[n]!) }
        #expect(legacyRatio < TimeRatio.maximumRatio, "legacy paths time ratio \(legacyRatio)")
        let components = [500: Self.componentDocument(rules: 500), 4_000: Self.componentDocument(rules: 4_000)]
        let componentRatio = TimeRatio.ratio(small: 500) { n in _ = AASADocument.lint(json: components[n]!) }
        #expect(componentRatio < TimeRatio.maximumRatio, "components time ratio \(componentRatio)")
        // The warnings are still found, with the first rule that shadows.
        let shadowed: JSONValue = [
            "applinks": [
                "details": [
                    [
                        "appID": "A1.app",
                        "paths": ["/a/b", "NOT /x/*", "/help/*", "NOT /help/website/*", "NOT /help", "/x/y", "NOT /a/b"],
                    ]
                ]
            ]
        ]
        let shadowing: Set<AASADiagnostic.Code> = [.unreachableExclude, .unreachableRule]
        let warnings = AASADocument.lint(json: shadowed).diagnostics.filter { shadowing.contains($0.code) }
        #expect(
            warnings.map(\.path) == [
                "$.applinks.details[0].paths[3]", "$.applinks.details[0].paths[4]", "$.applinks.details[0].paths[5]",
                "$.applinks.details[0].paths[6]",
            ]
        )
        #expect(warnings.map(\.code) == [.unreachableExclude, .unreachableExclude, .unreachableRule, .unreachableExclude])
        #expect(warnings[0].message.contains("paths[2]"))
        #expect(warnings[3].message.contains("paths[0]"))
        // Reading a file for use does not lint it.
        #expect(!AASADocument.analyze(json: shadowed).diagnostics.contains { shadowing.contains($0.code) })
    }

    @Test func anEntryWithManyAppIDsReadsInLinearTime() {
        func document(_ n: Int) -> JSONValue {
            let ids: [JSONValue] = (0..<n).map { .string("TEAM\($0 % (n / 2)).app") }
            return ["applinks": ["details": [["appIDs": .array(ids), "components": [["/": "/a"]]]]]]
        }
        let documents = [4_000: document(4_000), 32_000: document(32_000)]
        let ratio = TimeRatio.ratio(small: 4_000) { n in _ = AASADocument.lint(json: documents[n]!) }
        #expect(ratio < TimeRatio.maximumRatio, "time ratio \(ratio)")
        let analysis = AASADocument.lint(json: document(8))
        #expect(analysis.document.details.first?.appIDs.count == 4)
    }
}

/// The indexed shadowing check reports exactly what comparing every pair of rules reports,
/// on random files built from patterns that cover one another in every way the check knows
/// (catch-alls, equal patterns, literal prefixes, parents of `/*`, case folding, queries,
/// fragments, variables).
@Suite struct AASALintIndexTests {

    static let paths: [String?] = [
        nil, "*", "/*", "/a", "/A", "/a/*", "/a/b", "/A/b", "/a/b/*", "/ab*", "/help", "/help/*", "/help/website/*",
        "/a?", "/$(v)/*", "/$(v)", "/é/*", "/e\u{301}/x",
    ]
    static let queries: [JSONValue?] = [nil, "*", "?*", "k=v", ["k": "v"], ["k": "*"], ["k": "v", "j": "w"], ["K": "V"]]
    static let fragments: [String?] = [nil, "*", "x", "x*", "X", "?*"]

    @Test func theIndexFindsWhatEveryPairFinds() throws {
        var random = SplitMix64(seed: 20_261_123)
        var warnings = 0
        for _ in 0..<400 {
            var details: [JSONValue] = []
            for _ in 0..<Int.random(in: 1...2, using: &random) {
                if Bool.random(using: &random) {
                    let legacy: [JSONValue] = (0..<Int.random(in: 1...30, using: &random)).map { _ in
                        let path = (Self.paths.randomElement(using: &random) ?? nil) ?? "/*"
                        return .string((Bool.random(using: &random) ? "NOT " : "") + path)
                    }
                    details.append(["appID": "A1.app", "paths": .array(legacy)])
                } else {
                    var components: [JSONValue] = []
                    for _ in 0..<Int.random(in: 1...30, using: &random) {
                        var component = JSONObject()
                        if let path = Self.paths.randomElement(using: &random)! { component["/"] = .string(path) }
                        if let query = Self.queries.randomElement(using: &random)! { component["?"] = query }
                        if let fragment = Self.fragments.randomElement(using: &random)! { component["#"] = .string(fragment) }
                        if Bool.random(using: &random) { component["exclude"] = true }
                        if Int.random(in: 0..<4, using: &random) == 0 { component["caseSensitive"] = false }
                        if Int.random(in: 0..<6, using: &random) == 0 { component["percentEncoded"] = false }
                        components.append(.object(component))
                    }
                    details.append(["appIDs": ["A1.app"], "components": .array(components)])
                }
            }
            let json: JSONValue = ["applinks": ["substitutionVariables": ["v": ["a", "b*"]], "details": .array(details)]]
            let document = AASADocument.analyze(json: json).document
            let indexed = AASALinter(document: document).warnings()
            let pairwise = AASALinter(document: document, comparesEveryPair: true).warnings()
            #expect(indexed == pairwise, "\(json.jsonString())")
            warnings += indexed.count { $0.code == .unreachableExclude || $0.code == .unreachableRule }
        }
        #expect(warnings > 400)
    }
}
