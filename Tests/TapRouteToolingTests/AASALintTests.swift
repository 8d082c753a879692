import TapRoute
import TapRouteTestSupport
import TapRouteTooling
import Testing

/// Validation (what makes a file unusable) and lint warnings (what makes it behave
/// differently from what its author meant).
@Suite("AASA validation and lint")
struct AASALintTests {
    /// Every diagnostic of `text`: what `normalize aasa lint` prints.
    static func diagnostics(_ text: String) -> [AASADiagnostic] {
        AASADocument.lint(bytes: Array(text.utf8)).diagnostics
    }

    private func codes(_ text: String) -> [String] {
        Self.diagnostics(text).map(\.code.rawValue)
    }

    private func only(_ code: AASADiagnostic.Code, in text: String) -> [AASADiagnostic] {
        Self.diagnostics(text).filter { $0.code == code }
    }

    // MARK: Validation

    @Test func appleExampleIsClean() {
        #expect(Self.diagnostics(AASATestFiles.appleOverview).isEmpty)
    }

    @Test func sizeLimitIs128KB() throws {
        let head = AASATestFiles.file(components: [#"{"/": "/a"}"#])
        let pad = AASADocument.maximumSize - head.utf8.count
        let exactly = head + String(repeating: " ", count: pad)
        #expect(exactly.utf8.count == 131_072)
        #expect(try AASADocument(bytes: Array(exactly.utf8)).details.count == 1)
        let over = exactly + " "
        let analysis = AASADocument.lint(bytes: Array(over.utf8))
        #expect(analysis.hasErrors)
        #expect(analysis.diagnostics.first?.code == .tooLarge)
        #expect(analysis.diagnostics.first?.message.contains("131073 bytes") == true)
        #expect(throws: AASAError.self) { try AASADocument(bytes: Array(over.utf8)) }
    }

    @Test func invalidJSONIsAnError() {
        let analysis = AASADocument.lint(bytes: Array(#"{"applinks": {"details": [}"#.utf8))
        #expect(analysis.hasErrors)
        #expect(analysis.diagnostics.map(\.code) == [.invalidJSON])
        #expect(analysis.diagnostics.first?.message.contains("line 1") == true)
        // Not UTF-8.
        #expect(AASADocument.lint(bytes: [0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D]).diagnostics.map(\.code) == [.invalidJSON])
    }

    @Test(arguments: [
        (#"[]"#, "$"),
        (#"{"applinks": []}"#, "$.applinks"),
        (#"{"applinks": {"details": "x"}}"#, "$.applinks.details"),
        (#"{"applinks": {"details": [7]}}"#, "$.applinks.details[0]"),
        (#"{"applinks": {"details": [{"appID": 1, "components": []}]}}"#, "$.applinks.details[0].appID"),
        (#"{"applinks": {"details": [{"appIDs": ["A.b", 2], "components": []}]}}"#, "$.applinks.details[0].appIDs[1]"),
        (#"{"applinks": {"details": [{"appIDs": ["A.b"], "components": {}}]}}"#, "$.applinks.details[0].components"),
        (#"{"applinks": {"details": [{"appIDs": ["A.b"], "components": [{"/": 1}]}]}}"#, #"$.applinks.details[0].components[0]["/"]"#),
        (#"{"applinks": {"details": [{"appIDs": ["A.b"], "components": [{"?": 1}]}]}}"#, #"$.applinks.details[0].components[0]["?"]"#),
        (
            #"{"applinks": {"details": [{"appIDs": ["A.b"], "components": [{"exclude": "yes"}]}]}}"#,
            "$.applinks.details[0].components[0].exclude"
        ),
        (#"{"applinks": {"details": [{"appIDs": ["A.b"], "paths": ["/a", null]}]}}"#, "$.applinks.details[0].paths[1]"),
        (#"{"applinks": {"defaults": {"caseSensitive": "no"}, "details": []}}"#, "$.applinks.defaults.caseSensitive"),
        (#"{"applinks": {"substitutionVariables": {"v": "x"}, "details": []}}"#, "$.applinks.substitutionVariables.v"),
        (#"{"applinks": {"details": []}, "webcredentials": {"apps": "A.b"}}"#, "$.webcredentials.apps"),
    ])
    func wrongTypesAreErrorsNamingWhere(text: String, path: String) {
        let errors = Self.diagnostics(text).filter { $0.severity == .error }
        #expect(errors.map(\.code) == [.invalidType], "\(text)")
        #expect(errors.first?.path == path, "\(text)")
        #expect(throws: AASAError.self) { try AASADocument(bytes: Array(text.utf8)) }
    }

    @Test func parsedJSONIsCheckedTheSameWay() throws {
        let good: JSONValue = ["applinks": ["details": [["appIDs": ["A.b"], "paths": ["NOT /x/*", "*"]]]]]
        let document = try AASADocument(json: good)
        #expect(document.details.first?.paths?.map(\.summary) == [#""NOT /x/*""#, #""*""#])
        let bad: JSONValue = ["applinks": ["details": [["appIDs": ["A.b"], "components": [["exclude": 1]]]]]]
        let error = #expect(throws: AASAError.self) { try AASADocument(json: bad) }
        #expect(error?.errors.map(\.path) == ["$.applinks.details[0].components[0].exclude"])
    }

    @Test func errorDescriptionNamesTheFirstErrorAndCountsTheRest() {
        let text = ##"{"applinks": {"details": [{"appIDs": ["A.b"], "components": [{"/": 1, "#": 2}]}]}}"##
        let error = #expect(throws: AASAError.self) { try AASADocument(bytes: Array(text.utf8)) }
        #expect(error?.errors.count == 2)
        #expect(error?.description == #"$.applinks.details[0].components[0]["/"]: expected a string, got a number (and 1 more error)"#)
    }

    @Test func aBrokenRuleKeepsTheOthersIndices() {
        let text = #"{"applinks": {"details": [{"appIDs": ["A.b"], "components": [{"/": 1}, {"/": "/ok"}]}]}}"#
        let analysis = AASADocument.lint(bytes: Array(text.utf8))
        #expect(analysis.document.details.first?.components?.map(\.index) == [1])
    }

    @Test func warningsDoNotMakeAFileInvalid() throws {
        let text = #"{"applinks": {"details": [{"appIDs": ["A.b"], "components": [{"/": "*"}], "extra": 1}]}, "other": {}}"#
        #expect(codes(text) == ["unknownKey", "unknownKey"])
        #expect(try AASADocument(bytes: Array(text.utf8)).details.count == 1)
    }

    // MARK: Lint: ordering

    @Test func excludeAfterCatchAllIsUnreachable() {
        let text = AASATestFiles.file(components: [#"{"/": "*"}"#, #"{"/": "/private/*", "exclude": true}"#])
        let found = only(.unreachableExclude, in: text)
        #expect(found.count == 1)
        #expect(found.first?.path == "$.applinks.details[0].components[1]")
        #expect(found.first?.message.contains("$.applinks.details[0].components[0]") == true)
    }

    @Test func excludeAfterEmptyComponentOrSlashStarIsUnreachable() {
        #expect(only(.unreachableExclude, in: AASATestFiles.file(components: ["{}", #"{"/": "/x", "exclude": true}"#])).count == 1)
        #expect(
            only(.unreachableExclude, in: AASATestFiles.file(components: [#"{"/": "/*"}"#, ##"{"#": "nolink", "exclude": true}"##])).count
                == 1
        )
    }

    @Test func excludeAfterABroaderPrefixIsUnreachable() {
        let reversed = AASATestFiles.file(components: [#"{"/": "/help/*"}"#, #"{"/": "/help/website/*", "exclude": true}"#])
        #expect(only(.unreachableExclude, in: reversed).count == 1)
        let parent = AASATestFiles.file(components: [#"{"/": "/help/*"}"#, #"{"/": "/help", "exclude": true}"#])
        #expect(only(.unreachableExclude, in: parent).count == 1)
    }

    @Test func narrowerEarlierRuleDoesNotShadow() {
        let cases = [
            [#"{"/": "/help/*", "?": {"a": "1"}}"#, #"{"/": "/help/x", "exclude": true}"#],
            [#"{"/": "/help/*", "caseSensitive": true}"#, #"{"/": "/HELP/x", "exclude": true, "caseSensitive": false}"#],
            [#"{"/": "/a?"}"#, #"{"/": "/ab", "exclude": true}"#],
            [#"{"/": "/buy/*"}"#, #"{"/": "/help/*", "exclude": true}"#],
            [##"{"#": "x"}"##, #"{"/": "/y", "exclude": true}"#],
        ]
        for components in cases {
            #expect(only(.unreachableExclude, in: AASATestFiles.file(components: components)).isEmpty, "\(components)")
        }
    }

    @Test func ruleAfterCatchAllExcludeNeverOpensTheApp() {
        let text = AASATestFiles.file(components: [##"{"#": "*", "exclude": true}"##, #"{"/": "/buy/*"}"#])
        #expect(only(.unreachableRule, in: text).map(\.path) == ["$.applinks.details[0].components[1]"])
    }

    @Test func legacyNotAfterStarIsUnreachable() {
        let text = #"{"applinks": {"apps": [], "details": [{"appID": "A.b", "paths": ["*", "NOT /e/*"]}]}}"#
        #expect(only(.unreachableExclude, in: text).map(\.path) == ["$.applinks.details[0].paths[1]"])
        let fine = #"{"applinks": {"apps": [], "details": [{"appID": "A.b", "paths": ["NOT /e/*", "*"]}]}}"#
        #expect(only(.unreachableExclude, in: fine).isEmpty)
    }

    // MARK: Lint: fragments, variables, query

    @Test func fragmentStarOnExclude() {
        let star = AASATestFiles.file(components: [##"{"/": "/a/*", "#": "*", "exclude": true}"##])
        #expect(only(.excludeFragmentWildcard, in: star).map(\.path) == ["$.applinks.details[0].components[0]"])
        let fixed = AASATestFiles.file(components: [##"{"/": "/a/*", "#": "?*", "exclude": true}"##])
        #expect(only(.excludeFragmentWildcard, in: fixed).isEmpty)
        let include = AASATestFiles.file(components: [##"{"#": "*"}"##])
        #expect(only(.excludeFragmentWildcard, in: include).isEmpty)
    }

    @Test func undefinedAndMalformedVariables() {
        let text = AASATestFiles.file(components: [#"{"/": "/$(nope)/x", "?": {"q": "$(digit"}}"#])
        #expect(only(.undefinedVariable, in: text).map(\.path) == [#"$.applinks.details[0].components[0]["/"]"#])
        #expect(only(.malformedVariable, in: text).map(\.path) == [#"$.applinks.details[0].components[0]["?"].q"#])
        #expect(only(.undefinedVariable, in: AASATestFiles.file(components: [#"{"/": "/$(lang)/$(digit)"}"#])).isEmpty)
    }

    @Test func variableDefinitionWarnings() {
        let text = AASATestFiles.file(
            components: [#"{"/": "/$(ok)"}"#],
            variables: #"{"ok": ["a"], "bad(name)": ["x"], "region": ["EU"], "nested": ["$(digit)"]}"#
        )
        #expect(only(.invalidVariableName, in: text).map(\.path) == [#"$.applinks.substitutionVariables["bad(name)"]"#])
        #expect(only(.shadowsPredefinedVariable, in: text).map(\.path) == ["$.applinks.substitutionVariables.region"])
        #expect(only(.nestedVariable, in: text).map(\.path) == ["$.applinks.substitutionVariables.nested[0]"])
    }

    @Test func nonStringQueryPredicateIsFlagged() {
        let text = AASATestFiles.file(components: [#"{"?": {"a": "1", "flag": true}}"#])
        let found = only(.queryDictionaryVoided, in: text)
        #expect(found.map(\.path) == [#"$.applinks.details[0].components[0]["?"]"#])
        #expect(found.first?.message.contains("'flag'") == true)
    }

    // MARK: Lint: structure

    @Test func mixedPathsAndComponents() {
        let text = #"{"applinks": {"details": [{"appIDs": ["A.b"], "paths": ["*"], "components": [{"/": "*"}]}]}}"#
        #expect(codes(text) == ["mixedPathsAndComponents"])
    }

    @Test func unknownKeysAtEveryLevel() {
        let text = """
            {"applinks": {"details": [{"appIDs": ["A.b"], "components": [{"/": "*", "Exclude": true}], "defaults": {"casesensitive": false}}],
              "default": {}}, "webcredentials": {"apps": [], "extra": 1}, "misc": 1}
            """
        let paths = only(.unknownKey, in: text).map(\.path).sorted()
        #expect(
            paths == [
                "$.applinks.default",
                "$.applinks.details[0].components[0].Exclude",
                "$.applinks.details[0].defaults.casesensitive",
                "$.misc",
                "$.webcredentials.extra",
            ]
        )
    }

    @Test func componentKeysInDefaultsAreIgnored() {
        let text = AASATestFiles.file(components: [#"{"/": "*"}"#], appDefaults: #"{"/": "/x", "exclude": true, "caseSensitive": false}"#)
        #expect(
            only(.ignoredDefaultsKey, in: text).map(\.path) == [
                #"$.applinks.details[0].defaults["/"]"#, "$.applinks.details[0].defaults.exclude",
            ]
        )
    }

    @Test func appIDProblems() {
        #expect(codes(#"{"applinks": {"details": [{"components": [{"/": "*"}]}]}}"#) == ["noAppID"])
        #expect(codes(#"{"applinks": {"details": [{"appIDs": ["nodot"], "components": []}]}}"#) == ["malformedAppID"])
        #expect(codes(#"{"applinks": {"details": [{"appID": "A.b", "appIDs": ["A.c"], "components": []}]}}"#) == ["appIDAndAppIDs"])
        let twice = #"{"applinks": {"details": [{"appIDs": ["A.b"], "components": []}, {"appIDs": ["A.b"], "components": []}]}}"#
        #expect(only(.appInSeveralDetails, in: twice).map(\.path) == ["$.applinks.details[1]"])
    }

    @Test func legacyShapes() {
        #expect(codes(#"{"webcredentials": {"apps": ["A.b"]}}"#) == ["noApplinks"])
        #expect(codes(#"{"applinks": {"apps": ["A.b"], "details": [{"appID": "A.b", "paths": ["*"]}]}}"#) == ["appsNotEmpty"])
        #expect(codes(#"{"applinks": {"details": {"A.b": {"paths": ["*"]}}}}"#) == ["legacyDetailsDictionary"])
        #expect(codes(#"{"applinks": {"details": [{"appID": "A.b"}]}}"#) == ["noRules"])
        #expect(codes(#"{"applinks": {}}"#) == ["noRules"])
    }

    @Test func diagnosticDescription() {
        let d = AASADiagnostic(.warning, .unknownKey, "unknown key 'x' is ignored", at: "$.x")
        #expect(d.description == "warning: $.x: unknown key 'x' is ignored [unknownKey]")
    }
}
