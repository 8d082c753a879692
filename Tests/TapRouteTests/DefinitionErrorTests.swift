import TapRoute
import TapRouteTestSupport
import Testing

/// Mistakes in a definition: each is a typed, located ``ConfigurationError`` naming the key
/// path inside the definition, all of a definition's mistakes are reported at once, and
/// hostile definitions are refused within bounds.
@Suite struct DefinitionErrorTests {
    static let valid: JSONObject = ["id": "acme", "summary": "s", "reads": ["notification"], "recognize": ["exists": "acme"]]

    /// The errors compiling `valid` with `changes` over it gives.
    static func errors(_ changes: String, source: ConfigurationSource? = nil) throws -> [ConfigurationError] {
        var document = valid
        for (key, value) in try json(changes).objectValue ?? [:] {
            if value.isNull { _ = document.removeValue(forKey: key) } else { document[key] = value }
        }
        do {
            _ = try AdapterDefinition(json: .object(document), source: source)
        } catch {
            return error.errors
        }
        return []
    }

    struct Mistake: Sendable, CustomStringConvertible {
        var changes: String
        var kind: ConfigurationError.Kind
        var keyPath: String
        var says: String
        var description: String { changes }
    }

    static let mistakes: [Mistake] = [
        Mistake(changes: #"{"destinaton": []}"#, kind: .unknownKey, keyPath: "destinaton", says: "did you mean 'destination'?"),
        Mistake(changes: #"{"recognize": null}"#, kind: .missingKey, keyPath: "", says: "missing required key 'recognize'"),
        Mistake(changes: #"{"reads": "notification"}"#, kind: .typeMismatch, keyPath: "reads", says: "expected a list, got a string"),
        Mistake(changes: #"{"reads": ["notifcation"]}"#, kind: .invalidValue, keyPath: "reads[0]", says: "did you mean 'notification'?"),
        Mistake(changes: #"{"id": "ac me"}"#, kind: .invalidValue, keyPath: "id", says: "is not an adapter id"),
        Mistake(changes: #"{"version": 2}"#, kind: .invalidValue, keyPath: "version", says: "must be 1"),
        Mistake(changes: #"{"channel": "pushh"}"#, kind: .invalidValue, keyPath: "channel", says: "did you mean 'push'?"),
        Mistake(changes: #"{"recognize": {"exist": "a"}}"#, kind: .unknownKey, keyPath: "recognize.exist", says: "did you mean 'exists'?"),
        Mistake(changes: #"{"recognize": {"exists": "a..b"}}"#, kind: .invalidValue, keyPath: "recognize.exists", says: "is not a path"),
        Mistake(changes: #"{"recognize": {"exists": "a[x"}}"#, kind: .invalidValue, keyPath: "recognize.exists", says: "without ']'"),
        Mistake(
            changes: #"{"recognize": {"all": [{"exists": "a"}, {"equals": {"path": "a"}}]}}"#,
            kind: .missingKey,
            keyPath: "recognize.all[1].equals",
            says: "missing required key 'to'"
        ),
        Mistake(
            changes: #"{"values": {"kind": "acme.kind"}, "destination": [{"when": {"exists": "@kidn"}, "app": true}]}"#,
            kind: .invalidValue,
            keyPath: "destination[0].when.exists",
            says: "did you mean '@kind'?"
        ),
        Mistake(
            changes: #"{"reject": [{"when": {"exists": "a"}, "error": "invalidPayloads", "message": "m"}]}"#,
            kind: .invalidValue,
            keyPath: "reject[0].error",
            says: "did you mean 'invalidPayload'?"
        ),
        Mistake(
            changes: #"{"reject": [{"when": {"exists": "a"}, "error": "invalidPayload", "message": "x {a|quote}"}]}"#,
            kind: .invalidValue,
            keyPath: "reject[0].message",
            says: "did you mean 'quoted'?"
        ),
        Mistake(
            changes: #"{"warnings": [{"when": {"exists": "a"}, "code": "c", "message": "a { b"}]}"#,
            kind: .invalidValue,
            keyPath: "warnings[0].message",
            says: "a '{' without '}'"
        ),
        Mistake(
            changes: #"{"destination": [{"url": "a", "app": true}]}"#,
            kind: .invalidValue,
            keyPath: "destination[0]",
            says: "exactly one of"
        ),
        Mistake(changes: #"{"destination": ["ap"]}"#, kind: .invalidValue, keyPath: "destination[0]", says: "did you mean 'app'?"),
        Mistake(
            changes: #"{"destination": [{"url": "a", "target": "browser"}]}"#,
            kind: .invalidValue,
            keyPath: "destination[0].target",
            says: "not a URL target"
        ),
        Mistake(
            changes: #"{"destination": [{"app": true, "target": "app"}]}"#,
            kind: .invalidValue,
            keyPath: "destination[0].target",
            says: "only to a url rule"
        ),
        Mistake(
            changes: #"{"tracking": {"x": {"path": "a", "as": "integer"}}}"#,
            kind: .invalidValue,
            keyPath: "tracking.x.as",
            says: "is not a conversion"
        ),
        Mistake(changes: #"{"messageId": {"as": "text"}}"#, kind: .missingKey, keyPath: "messageId", says: "exactly one of path, first"),
        Mistake(changes: #"{"messageId": 3}"#, kind: .typeMismatch, keyPath: "messageId", says: "got a number"),
        Mistake(
            changes: #"{"tracking": {"t": {"path": "t", "map": {"a": ["X"], "b": ["x"]}, "match": "case"}}}"#,
            kind: .invalidValue,
            keyPath: "tracking.t.map.b[0]",
            says: "already a spelling"
        ),
        Mistake(changes: #"{"messageId": "@key"}"#, kind: .invalidValue, keyPath: "messageId", says: "only known inside buttons"),
        Mistake(changes: #"{"values": {"a": "x", "b": "@a"}}"#, kind: .invalidValue, keyPath: "values.b", says: "cannot refer to another"),
        Mistake(
            changes: #"{"buttons": {"from": "b", "label": "@kind"}, "values": {"kind": "k"}}"#,
            kind: .invalidValue,
            keyPath: "buttons.label",
            says: "not available inside buttons"
        ),
        Mistake(
            changes: #"{"buttons": {"from": "b", "label": "$.list[id=@action].t"}}"#,
            kind: .invalidValue,
            keyPath: "buttons.label",
            says: "once per button"
        ),
        Mistake(
            changes: #"{"values": {"data": {"path": "d", "as": "json"}}, "recognize": {"exists": "@data"}}"#,
            kind: .invalidValue,
            keyPath: "recognize.exists",
            says: "decode nothing"
        ),
        Mistake(changes: #"{"payload": {"text": {"keepAs": "v"}}}"#, kind: .invalidValue, keyPath: "payload.text", says: "only with from"),
        Mistake(
            changes: #"{"payload": {"withoutPrefixes": [""]}}"#,
            kind: .invalidValue,
            keyPath: "payload.withoutPrefixes[0]",
            says: "every key"
        ),
        Mistake(changes: #"{"behavior": {"opensURL": "yes"}}"#, kind: .typeMismatch, keyPath: "behavior.opensURL", says: "true or false"),
        Mistake(changes: #"{"recognize": {"origin": "push"}}"#, kind: .invalidValue, keyPath: "recognize.origin", says: "remote, local"),
        Mistake(changes: #"{"trigger": [{"button": {"label": "l"}}]}"#, kind: .missingKey, keyPath: "trigger[0].button", says: "'id'"),
    ]

    @Test(arguments: mistakes)
    func eachMistakeIsTypedAndNamesItsPathInsideTheDefinition(_ mistake: Mistake) throws {
        let errors = try Self.errors(mistake.changes)
        #expect(errors.count == 1, "\(errors)")
        let error = try #require(errors.first)
        #expect(error.kind == mistake.kind, "\(error)")
        #expect(error.keyPath.description == mistake.keyPath, "\(error)")
        #expect(error.message.contains(mistake.says), "\(error)")
    }

    @Test func everyMistakeIsReportedAtOnceAndLocatedInTheFile() throws {
        let source = ConfigurationSource(
            file: "adapters/acme.yaml",
            marks: [["destination", 0, "url"]: (line: 9, column: 10), ["reads", 0]: (line: 3, column: 9)],
            keyMarks: [["destinaton"]: (line: 12, column: 1)]
        )
        let errors = try Self.errors(#"{"reads": ["push"], "destination": [{"url": "a..b"}], "destinaton": []}"#, source: source)
        #expect(errors.map(\.keyPath.description) == ["reads[0]", "destination[0].url", "destinaton"])
        #expect(errors.map(\.line) == [3, 9, 12])
        #expect(errors.allSatisfy { $0.file == "adapters/acme.yaml" })
        let described = try #require(ConfigurationError(collecting: errors)).description
        #expect(described.hasPrefix("adapters/acme.yaml:3:9: error: reads[0]: 'push' is not one of"))
    }

    // MARK: - Hostile definitions

    @Test func deepNestingIsRefusedWithoutRecursingThroughIt() throws {
        var predicate: JSONValue = ["exists": "a"]
        for _ in 0..<5_000 { predicate = ["not": predicate] }
        var document = Self.valid
        document["recognize"] = predicate
        #expect {
            _ = try AdapterDefinition(json: .object(document))
        } throws: { error in
            (error as? ConfigurationError)?.kind == .limitExceeded
        }
        // Within the document's depth, predicates still nest at most 16 levels.
        predicate = ["exists": "a"]
        for _ in 0..<20 { predicate = ["not": predicate] }
        document["recognize"] = predicate
        #expect {
            _ = try AdapterDefinition(json: .object(document))
        } throws: { error in
            guard let error = error as? ConfigurationError, error.kind == .limitExceeded else { return false }
            return error.keyPath.components.count == 1 + DefinitionBounds.maxPredicateDepth
        }
    }

    @Test func hugeDefinitionsAreRefused() throws {
        var document = Self.valid
        document["tracking"] = .object(JSONObject((0..<20_000).map { ("k\($0)", JSONValue.string("a")) }))
        #expect(throws: ConfigurationError.self) { _ = try AdapterDefinition(json: .object(document)) }
        let errors = try Self.errors(#"{"destination": [\#(Array(repeating: #""app""#, count: 300).joined(separator: ","))]}"#)
        #expect(errors.map(\.kind) == [.limitExceeded])
        #expect(errors.first?.keyPath == ["destination"])
        let longPath = Array(repeating: "a", count: 40).joined(separator: ".")
        #expect(try Self.errors(#"{"messageId": "\#(longPath)"}"#).first?.message.contains("more than 32 steps") == true)
        let searches = (0..<70).map { #"{"exists": "l[id='\#($0)']"}"# }.joined(separator: ",")
        #expect(try Self.errors(#"{"recognize": {"any": [\#(searches)]}}"#).map(\.kind) == [.limitExceeded])
        let longText = String(repeating: "x", count: 2000)
        #expect(try Self.errors(#"{"summary": "\#(longText)"}"#).map(\.kind) == [.limitExceeded])
    }

    @Test func aDefinitionAdapterIsNotMadeFromAConfigurationAlone() {
        #expect(throws: ConfigurationError.self) { _ = try DefinitionAdapter(configuration: AdapterConfiguration(id: "acme")) }
    }
}
