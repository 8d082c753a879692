import TapRoute
import TapRouteTestSupport
import Testing

/// The toolkit every adapter reads payloads with.
@Suite struct PayloadReaderTests {
    @Test func nonEmptyStringsCountOnlyWhenNonEmpty() {
        #expect(PayloadReader.nonEmptyString("a") == "a")
        #expect(PayloadReader.nonEmptyString("") == nil)
        #expect(PayloadReader.nonEmptyString(.null) == nil)
        #expect(PayloadReader.nonEmptyString(nil) == nil)
        #expect(PayloadReader.nonEmptyString(1) == nil)
        var reader = PayloadReader()
        let ignored = reader.nonEmptyString(7) { Warning("ignoredField", "x is \($0.typeDescription)") }
        #expect(ignored == nil)
        #expect(reader.warnings == [Warning("ignoredField", "x is a number")])
        #expect(reader.nonEmptyString("", otherType: { _ in Warning("never", "") }) == nil)
        #expect(reader.warnings.count == 1)
    }

    @Test func trimmingReadsUnicodeWhitespace() {
        #expect(PayloadReader.trimmed("  a b \n") == "a b")
        #expect(PayloadReader.trimmed("\u{3000}x\u{A0}") == "x")
        #expect(PayloadReader.trimmedNonEmpty(" \t\n") == nil)
        #expect(PayloadReader.trimmed("plain") == "plain")
        // Whitespace at one end only, short strings and long ones (held in their words and in
        // storage), and ends that are not visible ASCII (a control byte, DEL, a letter
        // outside ASCII, which are kept).
        for core in ["a", "x/y", "https://shop.example.com/track/1Z999?q=café"] {
            for (text, expected) in [
                (core + " ", core), ("\t" + core, core), (core + "\u{2028}", core), ("\u{85}" + core, core),
                (core + "\u{7F}", core + "\u{7F}"), ("\u{1}" + core, "\u{1}" + core), ("é" + core + "é", "é" + core + "é"),
                (core, core),
            ] {
                var stored = String()
                stored.reserveCapacity(80)
                stored += text
                #expect(PayloadReader.trimmed(text) == expected, "\(text.debugDescription)")
                #expect(PayloadReader.trimmed(stored) == expected, "\(text.debugDescription), held in storage")
            }
        }
    }

    @Test func vendorBooleansHonourTheSpellingsAsked() {
        #expect(PayloadReader.boolean(true) == true)
        #expect(PayloadReader.boolean(0) == false)
        #expect(PayloadReader.boolean("1") == true)
        #expect(PayloadReader.boolean("YES") == true)
        #expect(PayloadReader.boolean("No") == false)
        #expect(PayloadReader.boolean("TRUE") == true)
        #expect(PayloadReader.boolean("maybe") == nil)
        #expect(PayloadReader.boolean(2) == nil)
        #expect(PayloadReader.boolean(nil) == nil)
        #expect(PayloadReader.boolean("TRUE", spellings: [.json, .lowercaseWords]) == nil)
        #expect(PayloadReader.boolean("true", spellings: [.json, .lowercaseWords]) == true)
        #expect(PayloadReader.boolean("1", spellings: .json) == nil)
        #expect(PayloadReader.boolean(1, spellings: .digitStrings) == nil)
    }

    @Test func objectsAndListsInPlaceOrHeldInStrings() {
        let reader = PayloadReader()
        #expect(reader.object(["a": 1], heldAt: 2) == .inPlace(["a": 1]))
        #expect(reader.object(#"{"a":1}"#, heldAt: 2) == .inString(["a": 1], text: #"{"a":1}"#))
        #expect(reader.object(nil, heldAt: 2) == .absent)
        #expect(reader.object(.null, heldAt: 2) == .absent)
        #expect(reader.object(3, heldAt: 2) == .wrongType(3))
        #expect(reader.object("[1]", heldAt: 2) == .stringHoldsWrongType([1], text: "[1]"))
        guard case .stringNotJSON(let text, let error) = reader.object("{", heldAt: 2) else {
            Issue.record("expected stringNotJSON")
            return
        }
        #expect(text == "{")
        #expect(error.kind == .invalid)
        #expect(reader.list("[1,2]", heldAt: 2) == .inString([1, 2], text: "[1,2]"))
        #expect(reader.list([1], heldAt: 2).value == [1])
        #expect(reader.list(["a": 1], heldAt: 2) == .wrongType(["a": 1]))
    }

    /// JSON held in a string nests no deeper than `limits.maxDepth` counted from the record's
    /// root: at depth `d`, `maxDepth − d` levels are allowed, one more is refused.
    @Test func maxDepthBoundsJSONHeldInStrings() {
        for maxDepth in [3, 8, 64] {
            let reader = PayloadReader(limits: Limits(maxDepth: maxDepth))
            for depth in [1, 2, 3] {
                let allowed = max(0, maxDepth - depth)
                func nested(_ levels: Int) -> String {
                    String(repeating: "[", count: levels) + String(repeating: "]", count: levels)
                }
                if allowed > 0 {
                    #expect(reader.list(.string(nested(allowed)), heldAt: depth).value != nil, "maxDepth \(maxDepth) at \(depth)")
                }
                let refused = reader.list(.string(nested(allowed + 1)), heldAt: depth)
                #expect(
                    refused == .stringTooDeep(text: nested(allowed + 1), clause: reader.limits.embeddedDepthClause(heldAt: depth)),
                    "maxDepth \(maxDepth) at \(depth)"
                )
            }
        }
    }

    @Test func percentDecodingLenientAndStrict() {
        #expect(PayloadReader.percentDecoded("a%20b+c%zz") == "a b+c%zz")
        #expect(PayloadReader.strictlyPercentDecoded("a%20b") == "a b")
        #expect(PayloadReader.strictlyPercentDecoded("a%zz") == nil)
        #expect(PayloadReader.strictlyPercentDecoded("a%2") == nil)
        #expect(PayloadReader.strictlyPercentDecoded("%FF") == nil)
        #expect(PayloadReader.strictlyPercentDecoded("%C3%A9") == "é")
        #expect(PayloadReader.strictlyPercentDecoded("plain") == "plain")
    }

    @Test func queryItemsKeepRawAndDecodedValues() {
        let items = PayloadReader.queryItems("a=1%202&&b&c=x%26y&a=last")
        #expect(items.map(\.name) == ["a", "b", "c", "a"])
        #expect(items.map(\.value) == ["1 2", "", "x&y", "last"])
        #expect(items.map { String($0.rawValue) } == ["1%202", "", "x%26y", "last"])
        #expect(QueryItem.last("a", in: items)?.value == "last")
        #expect(PayloadReader.queryItems(nil).isEmpty)
        #expect(PayloadReader.queryItems("").isEmpty)
        #expect(URLParts("myapp://x?k=v%2F")?.queryItems == [QueryItem(name: "k", value: "v/", rawValue: "v%2F")])
    }

    /// The byte-level reader of query items agrees with the plain definition (split on `&`,
    /// then on the first `=`, decode each side once) on generated queries: empty items,
    /// several `=`, bare names, escapes valid and not, non-ASCII text.
    @Test func queryItemsMatchTheirDefinitionOnGeneratedQueries() {
        func reference(_ query: String) -> [QueryItem] {
            query.split(separator: "&", omittingEmptySubsequences: true).map { part in
                guard let equals = part.firstIndex(of: "=") else {
                    return QueryItem(name: URLParts.percentDecoded(part), value: "", rawValue: "")
                }
                let raw = part[part.index(after: equals)...]
                return QueryItem(name: URLParts.percentDecoded(part[..<equals]), value: URLParts.percentDecoded(raw), rawValue: raw)
            }
        }
        let pieces = ["&", "=", "a", "utm_source", "%20", "%2", "%zz", "%C3%A9", "é", "新しい", "+", "%26", "%3D", "👋", "x y"]
        var generator = SplitMix64(seed: 17)
        for _ in 0..<5_000 {
            var query = ""
            for _ in 0..<generator.below(12) { query += pieces[generator.below(pieces.count)] }
            let items = PayloadReader.queryItems(query)
            #expect(items == reference(query), "\(query)")
            #expect(items.map { String($0.rawValue) } == reference(query).map { String($0.rawValue) })
        }
    }

    @Test func schemeTests() {
        #expect(URLParts.hasScheme("adbinapp", "ADBINAPP://cancel"))
        #expect(URLParts.hasScheme("https", "HttpS://x"))
        #expect(!URLParts.hasScheme("http", "https://x"))
        #expect(!URLParts.hasScheme("http", "http"))
        #expect(!URLParts.hasScheme("http", "ht"))
        #expect(URLParts.isSchemeName("a+b.c-1"))
        #expect(!URLParts.isSchemeName("1a"))
        #expect(!URLParts.isSchemeName(""))
        #expect(!URLParts.isSchemeName("a_b"))
        #expect(URLParts.scheme(of: "MyApp://x") == "myapp")
        #expect(URLParts.scheme(of: "/a:b") == nil)
        #expect(URLParts.scheme(of: ":x") == nil)
        #expect(URLParts.scheme(of: "noscheme") == nil)
    }

    @Test func readerLocationFollowsTheInput() {
        #expect(PayloadReader(for: .notification(userInfo: [:])).location == "$.userInfo")
        #expect(PayloadReader(for: .url("x")).location == "$.url")
        #expect(PayloadReader(for: InputEvent(.vendorEvent([:]))).location == "$.event")
    }

    /// Warnings raised through the reader come first in the interaction, then the result's.
    @Test func readerWarningsComeFirst() throws {
        struct TwoWarnings: PayloadAdapter {
            static let id = "two"
            init(configuration: AdapterConfiguration) throws(ConfigurationError) {}
            func recognizes(_ input: InputEvent) -> Bool { true }
            func read(_ input: InputEvent, using reader: inout PayloadReader) throws(NormalizationError) -> AdapterResult {
                reader.warn("first", "from the reader")
                return AdapterResult(channel: .push, trigger: .tap, destination: .app, warnings: [Warning("second", "from the result")])
            }
        }
        let registry = try AdapterRegistry(
            configuration: Configuration(adapters: [AdapterSettings(id: "two")]),
            adapterTypes: [TwoWarnings.self]
        )
        let interaction = try registry.normalize(.notification(userInfo: ["x": 1]))
        #expect(interaction.warnings.map(\.code) == ["first", "second"])
        #expect(interaction.vendor == "two")
        #expect(
            try TwoWarnings(configuration: AdapterConfiguration(id: "two")).read(.url("x")).warnings.map(\.code) == ["first", "second"]
        )
    }
}

/// `limits.maxDepth` has a ceiling that keeps the deepest accepted record inside any stack.
@Suite struct DepthCeilingTests {
    @Test func limitsAreClampedToTheCeiling() {
        #expect(Limits(maxDepth: 100_000).maxDepth == Limits.depthCeiling)
        #expect(Limits(maxDepth: 0).maxDepth == 1)
        var limits = Limits()
        limits.maxDepth = Int.max
        #expect(limits.maxDepth == Limits.depthCeiling)
        #expect(Limits(maxDepth: 512) == Limits(maxDepth: 10_000))
    }

    @Test func aConfigurationAboveTheCeilingIsAnError() {
        let error = #expect(throws: ConfigurationError.self) {
            try Configuration(json: ["limits": ["maxDepth": 513]])
        }
        #expect(error?.keyPath.description == "limits.maxDepth")
        #expect(throws: Never.self) { try Configuration(json: ["limits": ["maxDepth": 512]]) }
    }
}
