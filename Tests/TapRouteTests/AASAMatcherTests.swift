import TapRoute
import Testing

/// The matcher beyond the AASA.md vectors: each predefined variable, the case and
/// percent-encoding switches at domain, app and component level, query details, legacy
/// paths and path normalisation.
@Suite("AASA matcher")
struct AASAMatcherTests {
    // MARK: Predefined substitution variables

    @Test(arguments: [
        // (rule path, URL path, caseSensitive, expected)
        ("/c/$(alpha)", "/c/x", true, AASAMatch.Outcome.match),
        ("/c/$(alpha)", "/c/X", true, .match),
        ("/c/$(alpha)", "/c/1", true, .noMatch),
        ("/c/$(alpha)", "/c/xy", true, .noMatch),
        ("/c/$(upper)", "/c/Q", true, .match),
        ("/c/$(upper)", "/c/q", true, .noMatch),
        ("/c/$(upper)", "/c/q", false, .match),
        ("/c/$(lower)", "/c/q", true, .match),
        ("/c/$(lower)", "/c/Q", true, .noMatch),
        ("/c/$(lower)", "/c/Q", false, .match),
        ("/c/$(alnum)", "/c/Z", true, .match),
        ("/c/$(alnum)", "/c/5", true, .match),
        ("/c/$(alnum)", "/c/-", true, .noMatch),
        ("/c/$(digit)", "/c/7", true, .match),
        ("/c/$(digit)", "/c/a", true, .noMatch),
        ("/c/$(digit)", "/c/12", true, .noMatch),
        ("/c/$(digit)$(digit)", "/c/12", true, .match),
        ("/c/$(xdigit)", "/c/f", true, .match),
        ("/c/$(xdigit)", "/c/F", true, .match),
        ("/c/$(xdigit)", "/c/9", true, .match),
        ("/c/$(xdigit)", "/c/g", true, .noMatch),
        ("/c/$(region)", "/c/US", true, .match),
        ("/c/$(region)", "/c/GB", true, .match),
        ("/c/$(region)", "/c/UK", true, .noMatch),
        ("/c/$(region)", "/c/us", true, .noMatch),
        ("/c/$(region)", "/c/us", false, .match),
        ("/c/$(region)", "/c/001", true, .noMatch),
        ("/c/$(lang)", "/c/en", true, .match),
        ("/c/$(lang)", "/c/haw", true, .match),
        ("/c/$(lang)", "/c/EN", true, .noMatch),
        ("/c/$(lang)", "/c/EN", false, .match),
        ("/c/$(lang)", "/c/xx", true, .noMatch),
        ("/c/$(lang)-*", "/c/zh-Hant", true, .match),
    ])
    func predefinedVariable(rule: String, path: String, caseSensitive: Bool, expected: AASAMatch.Outcome) throws {
        let component = #"{"/": "\#(rule)", "caseSensitive": \#(caseSensitive)}"#
        #expect(try AASATest.outcome(rule: component, path) == expected, "\(rule) on \(path)")
    }

    // MARK: Custom substitution variables

    @Test func customVariableAlternativesMayHoldWildcards() throws {
        let variables = #"{"v": ["a*", "b?", "exact"]}"#
        let rule = #"{"/": "/$(v)/x"}"#
        #expect(try AASATest.outcome(rule: rule, "/abc/x", variables: variables) == .match)
        #expect(try AASATest.outcome(rule: rule, "/a/x", variables: variables) == .match)
        #expect(try AASATest.outcome(rule: rule, "/bz/x", variables: variables) == .match)
        #expect(try AASATest.outcome(rule: rule, "/b/x", variables: variables) == .noMatch)
        #expect(try AASATest.outcome(rule: rule, "/exact/x", variables: variables) == .match)
        #expect(try AASATest.outcome(rule: rule, "/exactly/x", variables: variables) == .noMatch)
    }

    @Test func variableNamesAreCaseSensitiveAndUndefinedNeverMatches() throws {
        let variables = #"{"Food": ["pizza"]}"#
        #expect(try AASATest.outcome(rule: #"{"/": "/$(Food)"}"#, "/pizza", variables: variables) == .match)
        #expect(try AASATest.outcome(rule: #"{"/": "/$(food)"}"#, "/pizza", variables: variables) == .noMatch)
        #expect(try AASATest.outcome(rule: #"{"/": "/$(nope)*"}"#, "/anything", variables: variables) == .noMatch)
    }

    @Test func unterminatedVariableNeverMatches() throws {
        #expect(try AASATest.outcome(rule: #"{"/": "/$(digit*"}"#, "/$(digit") == .noMatch)
        #expect(try AASATest.outcome(rule: #"{"/": "/*$(x"}"#, "/a") == .noMatch)
    }

    @Test func variableValuesFollowTheCaseSwitchButNotNesting() throws {
        let variables = #"{"food": ["Pizza", "$(digit)"]}"#
        #expect(try AASATest.outcome(rule: #"{"/": "/$(food)"}"#, "/pizza", variables: variables) == .noMatch)
        #expect(try AASATest.outcome(rule: #"{"/": "/$(food)", "caseSensitive": false}"#, "/pizza", variables: variables) == .match)
        // A variable's value cannot use another variable: `$(digit)` there is literal text.
        #expect(try AASATest.outcome(rule: #"{"/": "/$(food)"}"#, "/7", variables: variables) == .noMatch)
        #expect(try AASATest.outcome(rule: #"{"/": "/$(food)"}"#, "/$(digit)", variables: variables) == .match)
    }

    @Test func fileDefinitionWinsOverPredefinedVariable() throws {
        let variables = #"{"digit": ["x"]}"#
        #expect(try AASATest.outcome(rule: #"{"/": "/$(digit)"}"#, "/x", variables: variables) == .match)
        #expect(try AASATest.outcome(rule: #"{"/": "/$(digit)"}"#, "/1", variables: variables) == .noMatch)
    }

    @Test func emptyVariableNeverMatches() throws {
        #expect(try AASATest.outcome(rule: #"{"/": "/a$(none)"}"#, "/a", variables: #"{"none": []}"#) == .noMatch)
    }

    // MARK: caseSensitive at three levels

    @Test func caseSensitiveByDefault() throws {
        #expect(try AASATest.outcome(rule: #"{"/": "/buy"}"#, "/BUY") == .noMatch)
        #expect(try AASATest.outcome(rule: #"{"/": "/buy"}"#, "/buy") == .match)
    }

    @Test func caseSensitiveAtDomainLevel() throws {
        #expect(try AASATest.outcome(rule: #"{"/": "/buy"}"#, "/BUY", domainDefaults: #"{"caseSensitive": false}"#) == .match)
    }

    @Test func appLevelOverridesDomainLevel() throws {
        let outcome = try AASATest.outcome(
            rule: #"{"/": "/buy"}"#,
            "/BUY",
            domainDefaults: #"{"caseSensitive": false}"#,
            appDefaults: #"{"caseSensitive": true}"#
        )
        #expect(outcome == .noMatch)
    }

    @Test func componentOverridesAppLevel() throws {
        #expect(
            try AASATest.outcome(rule: #"{"/": "/buy", "caseSensitive": true}"#, "/BUY", appDefaults: #"{"caseSensitive": false}"#)
                == .noMatch
        )
        #expect(
            try AASATest.outcome(rule: #"{"/": "/buy", "caseSensitive": false}"#, "/BUY", appDefaults: #"{"caseSensitive": true}"#)
                == .match
        )
    }

    @Test func caseInsensitiveAppliesToQueryNamesValuesAndFragment() throws {
        let items = #"{"?": {"ID": "ABC"}, "caseSensitive": false}"#
        #expect(try AASATest.outcome(rule: items, "/x?id=abc") == .match)
        #expect(try AASATest.outcome(rule: #"{"?": {"ID": "ABC"}}"#, "/x?id=abc") == .noMatch)
        #expect(try AASATest.outcome(rule: #"{"?": "Q=1", "caseSensitive": false}"#, "/x?q=1") == .match)
        #expect(try AASATest.outcome(rule: ##"{"#": "Top", "caseSensitive": false}"##, "/x#TOP") == .match)
        #expect(try AASATest.outcome(rule: ##"{"#": "Top"}"##, "/x#TOP") == .noMatch)
    }

    // MARK: percentEncoded at three levels

    @Test func percentEncodedAtDomainLevel() throws {
        #expect(try AASATest.outcome(rule: #"{"/": "/café"}"#, "/caf%C3%A9") == .noMatch)
        #expect(try AASATest.outcome(rule: #"{"/": "/café"}"#, "/caf%C3%A9", domainDefaults: #"{"percentEncoded": false}"#) == .match)
    }

    @Test func percentEncodedAppLevelOverridesDomainLevel() throws {
        let outcome = try AASATest.outcome(
            rule: #"{"/": "/café"}"#,
            "/caf%C3%A9",
            domainDefaults: #"{"percentEncoded": false}"#,
            appDefaults: #"{"percentEncoded": true}"#
        )
        #expect(outcome == .noMatch)
        let decoded = try AASATest.outcome(rule: #"{"/": "/a b"}"#, "/a%20b", appDefaults: #"{"percentEncoded": false}"#)
        #expect(decoded == .match)
    }

    @Test func percentEncodedComponentOverridesAppLevel() throws {
        let appDecoded = #"{"percentEncoded": false}"#
        #expect(try AASATest.outcome(rule: #"{"/": "/a%20b", "percentEncoded": true}"#, "/a%20b", appDefaults: appDecoded) == .match)
        #expect(try AASATest.outcome(rule: #"{"/": "/a%20b"}"#, "/a%20b", appDefaults: appDecoded) == .noMatch)
    }

    @Test func percentEncodedFalseDecodesQueryAndFragment() throws {
        #expect(try AASATest.outcome(rule: #"{"?": {"q": "a b"}, "percentEncoded": false}"#, "/x?q=a%20b") == .match)
        #expect(try AASATest.outcome(rule: #"{"?": {"q": "a b"}}"#, "/x?q=a%20b") == .noMatch)
        #expect(try AASATest.outcome(rule: #"{"?": {"q": "a%20b"}}"#, "/x?q=a%20b") == .match)
        // `+` is not a space in a URL query item.
        #expect(try AASATest.outcome(rule: #"{"?": {"q": "a b"}, "percentEncoded": false}"#, "/x?q=a+b") == .noMatch)
        #expect(try AASATest.outcome(rule: #"{"?": {"a&b": "1"}, "percentEncoded": false}"#, "/x?a%26b=1") == .match)
        #expect(try AASATest.outcome(rule: #"{"?": "q=a b", "percentEncoded": false}"#, "/x?q=a%20b") == .match)
        #expect(try AASATest.outcome(rule: ##"{"#": "a b", "percentEncoded": false}"##, "/x#a%20b") == .match)
        #expect(try AASATest.outcome(rule: ##"{"#": "a b"}"##, "/x#a%20b") == .noMatch)
    }

    @Test func rawNonASCIIInTheURLIsComparedEncoded() throws {
        #expect(try AASATest.outcome(rule: #"{"/": "/caf%C3%A9"}"#, "/café") == .match)
        #expect(try AASATest.outcome(rule: #"{"/": "/café"}"#, "/café") == .noMatch)
        #expect(try AASATest.outcome(rule: #"{"/": "/café", "percentEncoded": false}"#, "/café") == .match)
    }

    @Test func bothSwitchesTogether() throws {
        let rule = #"{"/": "/CAFÉ/*", "caseSensitive": false, "percentEncoded": false}"#
        #expect(try AASATest.outcome(rule: rule, "/caf%C3%A9/menu") == .match)
        // `?` is one character of the decoded text.
        #expect(try AASATest.outcome(rule: #"{"/": "/caf?", "percentEncoded": false}"#, "/caf%C3%A9") == .match)
        #expect(try AASATest.outcome(rule: #"{"/": "/caf?"}"#, "/caf%C3%A9") == .noMatch)
    }

    // MARK: Query

    @Test func queryDictionaryIgnoresOtherItemsAndRequiresEveryOccurrence() throws {
        #expect(try AASATest.outcome(rule: #"{"?": {"a": "1"}}"#, "/x?a=1&b=2") == .match)
        #expect(try AASATest.outcome(rule: #"{"?": {"id": "7"}}"#, "/x?id=7&id=7") == .match)
        #expect(try AASATest.outcome(rule: #"{"?": {"id": "7"}}"#, "/x?id=7&id=8&id=7") == .noMatch)
        #expect(try AASATest.outcome(rule: #"{"?": {"a": "1", "b": "2"}}"#, "/x?b=2&a=1") == .match)
        #expect(try AASATest.outcome(rule: #"{"?": {"a": "1", "b": "2"}}"#, "/x?a=1") == .noMatch)
    }

    @Test func queryItemWithoutEqualsHasEmptyValue() throws {
        #expect(try AASATest.outcome(rule: #"{"?": {"flag": ""}}"#, "/x?flag") == .match)
        #expect(try AASATest.outcome(rule: #"{"?": {"flag": "?*"}}"#, "/x?flag") == .noMatch)
        #expect(try AASATest.outcome(rule: #"{"?": {"b": "2"}}"#, "/x?a=1&&b=2") == .match)
        #expect(try AASATest.outcome(rule: #"{"?": {"e": "a=b"}}"#, "/x?e=a=b") == .match)
    }

    @Test(arguments: ["1", "null", "[\"1\"]", "{\"v\":\"1\"}", "false", "2.5"])
    func nonStringQueryPredicateVoidsTheDictionary(predicate: String) throws {
        let rule = #"{"/": "/x", "?": {"a": "1", "flag": \#(predicate)}}"#
        #expect(try AASATest.outcome(rule: rule, "/x?a=2") == .match, "\(predicate)")
        #expect(try AASATest.outcome(rule: rule, "/y?a=1") == .noMatch, "\(predicate): the path still counts")
    }

    @Test func wholeQueryWithOneOrMoreCharacters() throws {
        #expect(try AASATest.outcome(rule: #"{"?": "?*"}"#, "/x?q") == .match)
        #expect(try AASATest.outcome(rule: #"{"?": "?*"}"#, "/x") == .noMatch)
        #expect(try AASATest.outcome(rule: #"{"?": "?*"}"#, "/x?") == .noMatch)
        #expect(try AASATest.outcome(rule: #"{"?": "*"}"#, "/x") == .match)
        #expect(try AASATest.outcome(rule: #"{"?": "*"}"#, "/x?anything=at&all") == .match)
        // The whole query ends at `#`.
        #expect(try AASATest.outcome(rule: #"{"?": "a=1"}"#, "/x?a=1#frag") == .match)
    }

    // MARK: Fragment

    @Test func fragmentPatterns() throws {
        #expect(try AASATest.outcome(rule: ##"{"#": "?*"}"##, "/x#a") == .match)
        #expect(try AASATest.outcome(rule: ##"{"#": "?*"}"##, "/x#") == .noMatch)
        #expect(try AASATest.outcome(rule: ##"{"#": "*"}"##, "/x") == .match)
        #expect(try AASATest.outcome(rule: ##"{"#": "sec-?"}"##, "/x#sec-2") == .match)
        #expect(try AASATest.outcome(rule: ##"{"#": "sec-?"}"##, "/x#sec-22") == .noMatch)
    }

    // MARK: Path normalisation

    @Test func emptyPath() throws {
        #expect(try AASATest.outcome(rule: #"{"/": "*"}"#, "") == .match)
        #expect(try AASATest.outcome(rule: #"{"/": "/*"}"#, "") == .match)
        #expect(try AASATest.outcome(rule: #"{"/": ""}"#, "") == .match)
        #expect(try AASATest.outcome(rule: #"{"/": "/?*"}"#, "") == .noMatch)
        #expect(try AASATest.outcome(rule: #"{"/": "/"}"#, "/") == .match)
        #expect(try AASATest.outcome(rule: #"{"/": "/"}"#, "/a") == .noMatch)
    }

    @Test func trailingAndLeadingSlashes() throws {
        #expect(try AASATest.outcome(rule: #"{"/": "/buy/"}"#, "/buy") == .match)
        #expect(try AASATest.outcome(rule: #"{"/": "/buy//"}"#, "/buy/") == .match)
        #expect(try AASATest.outcome(rule: #"{"/": "//buy"}"#, "/buy") == .match)
        #expect(try AASATest.outcome(rule: #"{"/": "/buy/*"}"#, "//buy/1") == .match)
        #expect(try AASATest.outcome(rule: #"{"/": "buy/*"}"#, "/buy/42") == .match)
        // Slashes inside the path are kept.
        #expect(try AASATest.outcome(rule: #"{"/": "/a/b"}"#, "/a//b") == .noMatch)
        // No slash is added: `????` needs four characters.
        #expect(try AASATest.outcome(rule: #"{"/": "/id/????"}"#, "/id/481") == .noMatch)
        #expect(try AASATest.outcome(rule: #"{"/": "/id/????"}"#, "/id/4815/") == .match)
    }

    @Test func oneOrMoreCharactersInPaths() throws {
        #expect(try AASATest.outcome(rule: #"{"/": "/p/?*"}"#, "/p/x") == .match)
        #expect(try AASATest.outcome(rule: #"{"/": "/p/?*"}"#, "/p/") == .noMatch)
        #expect(try AASATest.outcome(rule: #"{"/": "/p/?*"}"#, "/p") == .noMatch)
        #expect(try AASATest.outcome(rule: #"{"/": "/p/?*/edit"}"#, "/p/12/edit") == .match)
        #expect(try AASATest.outcome(rule: #"{"/": "/p/?*/edit"}"#, "/p//edit") == .noMatch)
    }

    @Test func starsAreLinearNotExponential() throws {
        let rule = #"{"/": "/*a*a*a*a*a*a*a*a*a*a*a*a*b"}"#
        let subject = "/" + String(repeating: "a", count: 3000)
        #expect(try AASATest.outcome(rule: rule, subject) == .noMatch)
        #expect(try AASATest.outcome(rule: rule, subject + "b") == .match)
    }

    // MARK: Evaluation order

    @Test func firstMatchWinsAndExcludeStops() throws {
        let include = AASATest.file(components: [#"{"/": "/a/*"}"#, #"{"/": "/a/b", "exclude": true}"#])
        let first = try AASATest.match(include, "https://example.com/a/b")
        #expect(first.outcome == .match)
        #expect(first.rule?.index == 0)
        let exclude = AASATest.file(components: [#"{"/": "/a/b", "exclude": true}"#, #"{"/": "/a/*"}"#])
        let stopped = try AASATest.match(exclude, "https://example.com/a/b")
        #expect(stopped.outcome == .excluded)
        #expect(stopped.rule?.index == 0)
        #expect(stopped.rule?.location == "$.applinks.details[0].components[0]")
        #expect(try AASATest.match(exclude, "https://example.com/a/c").rule?.index == 1)
    }

    @Test func severalDetailsForTheSameAppAreScannedInOrder() throws {
        let file = """
            {"applinks": {"details": [
              {"appIDs": ["\(AASATest.app)"], "components": [{"/": "/x/*", "exclude": true}]},
              {"appIDs": ["OTHER12345.com.other"], "components": [{"/": "*"}]},
              {"appID": "\(AASATest.app)", "components": [{"/": "*"}]}
            ]}}
            """
        let excluded = try AASATest.match(file, "https://example.com/x/1")
        #expect(excluded.outcome == .excluded)
        #expect(excluded.rule?.detail == 0)
        let matched = try AASATest.match(file, "https://example.com/y")
        #expect(matched.outcome == .match)
        #expect(matched.rule?.detail == 2)
        #expect(matched.rule?.location == "$.applinks.details[2].components[0]")
        #expect(AASAMatcher(document: try AASATest.document(file), appID: AASATest.app).detailCount == 2)
    }

    @Test func appIDAndAppIDsAreUnited() throws {
        let file = #"{"applinks": {"details": [{"appID": "A1B2C3D4E5.one", "appIDs": ["A1B2C3D4E5.two"], "components": [{"/": "*"}]}]}}"#
        #expect(try AASATest.match(file, "https://example.com/p", app: "A1B2C3D4E5.one").opensApp)
        #expect(try AASATest.match(file, "https://example.com/p", app: "A1B2C3D4E5.two").opensApp)
        #expect(try !AASATest.match(file, "https://example.com/p", app: "A1B2C3D4E5.three").opensApp)
    }

    @Test func legacyDictionaryDetails() throws {
        let file = """
            {"applinks": {"apps": [], "details": {
              "\(AASATest.app)": {"paths": ["NOT /private/*", "*"]},
              "OTHER12345.com.other": {"components": [{"/": "/other/*"}]}}}}
            """
        #expect(try AASATest.match(file, "https://example.com/shop").outcome == .match)
        let excluded = try AASATest.match(file, "https://example.com/private/1")
        #expect(excluded.outcome == .excluded)
        #expect(excluded.rule?.location == #"$.applinks.details["ABCDE12345.com.example.app"].paths[0]"#)
        #expect(try AASATest.match(file, "https://example.com/other/1", app: "OTHER12345.com.other").opensApp)
    }

    // MARK: Legacy paths

    @Test func legacyNotAndWildcards() throws {
        let file = #"{"applinks": {"apps": [], "details": [{"appID": "\#(AASATest.app)", "paths": ["NOT /e/*", "/item/???", "/docs/*"]}]}}"#
        #expect(try AASATest.match(file, "https://example.com/e/1").outcome == .excluded)
        #expect(try AASATest.match(file, "https://example.com/e").outcome == .excluded)
        #expect(try AASATest.match(file, "https://example.com/item/123").outcome == .match)
        #expect(try AASATest.match(file, "https://example.com/item/1234").outcome == .noMatch)
        #expect(try AASATest.match(file, "https://example.com/docs").outcome == .match)
    }

    @Test func legacyPathsIgnoreQueryCaseDefaultsAndVariables() throws {
        let file = """
            {"applinks": {"defaults": {"caseSensitive": false}, "details": [{"appID": "\(AASATest.app)",
              "paths": ["/q", "/$(digit)", "NOT/x"]}]}}
            """
        #expect(try AASATest.match(file, "https://example.com/q?any=thing#frag").outcome == .match)
        #expect(try AASATest.match(file, "https://example.com/Q").outcome == .noMatch)
        #expect(try AASATest.match(file, "https://example.com/7").outcome == .noMatch)
        #expect(try AASATest.match(file, "https://example.com/$(digit)").outcome == .match)
        // Without the space, "NOT/x" is an ordinary (including) path.
        #expect(try AASATest.match(file, "https://example.com/NOT/x").outcome == .match)
    }

    @Test func componentsWinOverPathsOnTheSameEntry() throws {
        let file = """
            {"applinks": {"details": [{"appIDs": ["\(AASATest.app)"],
              "paths": ["*"], "components": [{"/": "/only/*"}]}]}}
            """
        #expect(try AASATest.match(file, "https://example.com/only/1").outcome == .match)
        #expect(try AASATest.match(file, "https://example.com/other").outcome == .noMatch)
    }

    @Test func commentIsIgnored() throws {
        let rule = #"{"/": "/a", "comment": "Matches /a only; ignored by iOS"}"#
        let result = try AASATest.match(AASATest.file(components: [rule]), "https://example.com/a")
        #expect(result.opensApp)
        #expect(result.rule?.comment == "Matches /a only; ignored by iOS")
        #expect(result.rule?.summary == #"{"/":"/a"}"#)
    }
}
