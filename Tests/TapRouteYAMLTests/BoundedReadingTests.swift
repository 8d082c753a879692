import Foundation
import TapRoute
import TapRouteTestSupport
import TapRouteYAML
import Testing

/// Reading a configuration is bounded before anything is expanded: anchors, aliases and
/// merge keys are refused where they are written, and the size, node count and depth are
/// limited. No test here measures time: a document whose aliases were expanded could not
/// be read at all (9^30 nodes), so finishing with `aliasNotAccepted` at the first alias is
/// the proof.
@Suite struct BoundedReadingTests {
    /// The error `yaml` produces, or `nil`.
    func failure(_ yaml: String) -> ConfigurationError? {
        do {
            _ = try YAMLConfiguration.document(yaml: yaml, file: "bomb.yaml")
            return nil
        } catch {
            return error
        }
    }

    /// A billion laughs: `levels` anchors, each a collection of `width` aliases of the one
    /// before; `mapping` makes every level a mapping, `flow` writes them `[…]`/`{…}`.
    static func laughs(levels: Int, width: Int, mapping: Bool, flow: Bool) -> (yaml: String, firstAlias: (Int, Int)) {
        var lines = ["l0: &l0 lol"]
        var firstAlias = (0, 0)
        for level in 1...levels {
            let alias = "*l\(level - 1)"
            if flow {
                let items = (0..<width).map { mapping ? "k\($0): \(alias)" : alias }.joined(separator: ", ")
                let prefix = "l\(level): &l\(level) \(mapping ? "{" : "[")"
                if level == 1 { firstAlias = (lines.count + 1, prefix.count + 1 + (mapping ? 4 : 0)) }
                lines.append(prefix + items + (mapping ? "}" : "]"))
            } else {
                lines.append("l\(level): &l\(level)")
                for i in 0..<width {
                    let item = mapping ? "  k\(i): \(alias)" : "  - \(alias)"
                    if level == 1, i == 0 { firstAlias = (lines.count + 1, item.count - alias.count + 1) }
                    lines.append(item)
                }
            }
        }
        return (lines.joined(separator: "\n") + "\n", firstAlias)
    }

    @Test func theReportedBombIsRefusedAtItsFirstAlias() throws {
        // The 307-byte file of the report: nine "lol"s, then eight levels of nine aliases.
        var lines = [#"a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]"#]
        var previous = "a"
        for name in ["b", "c", "d", "e", "f", "g", "h"] {
            lines.append("\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 9).joined(separator: ",") + "]")
            previous = name
        }
        let yaml = lines.joined(separator: "\n") + "\n"
        #expect(yaml.utf8.count == 307)
        let error = try #require(failure(yaml))
        #expect(error.kind == .aliasNotAccepted)
        #expect(error.description.hasPrefix("bomb.yaml:2:8: error: YAML aliases are not accepted"))
    }

    @Test(arguments: [false, true], [false, true])
    func billionLaughsOfEveryShapeStopAtTheFirstAlias(mapping: Bool, flow: Bool) throws {
        for (levels, width) in [(1, 1), (3, 2), (8, 9), (30, 9), (200, 2)] {
            let (yaml, firstAlias) = Self.laughs(levels: levels, width: width, mapping: mapping, flow: flow)
            let error = try #require(failure(yaml), "\(levels)x\(width)")
            #expect(error.kind == .aliasNotAccepted, "\(error)")
            #expect(error.errors.count == 1)
            #expect(error.line == firstAlias.0 && error.column == firstAlias.1, "\(error)\n\(yaml.prefix(300))")
        }
    }

    @Test(arguments: [
        // Aliases in every position: values, keys (explicit and implicit), flow and block.
        ("a: &a x\nb: *a\n", 2, 4),
        ("a: &a [x]\n? *a\n: v\n", 2, 3),
        ("a: &a x\n*a : v\n", 2, 1),
        ("a: &a {x: 1}\nb: {k: [1, *a]}\n", 2, 12),
        ("- &a x\n- [*a, *a]\n", 2, 4),
        ("a: *undefined\n", 1, 4),
        ("adapters:\n  - &t {id: taptalk}\n  - *t\n", 3, 5),
        // An alias right after an anchored empty key, where a tag would swallow it: refused
        // (at the anchor, as the parser stops there).
        ("b: &b [x]\nm: {&a:*b}\n", 2, 5),
        // Text that looks like an anchor inside a string defines none.
        ("x: \"Tom &Jerry\"\ny: *Jerry\n", 2, 4),
    ])
    func aliasesAreRefusedWhereTheyAreWritten(yaml: String, line: Int, column: Int) throws {
        let error = try #require(failure(yaml))
        #expect(error.kind == .aliasNotAccepted, "\(error)")
        #expect(error.line == line && error.column == column, "\(error)")
    }

    @Test(arguments: [
        ("a: &a x\n", 1, 4),
        ("a: &a [x, y]\n", 1, 4),
        ("app:\n  schemes: &s\n    - myapp\n", 2, 12),
        ("? &k key\n: v\n", 1, 3),
        ("[&a , b]\n", 1, 2),
        ("a: &a !!str x\n", 1, 4),
    ])
    func anchorsAreRefusedEvenWithoutAnAlias(yaml: String, line: Int, column: Int) throws {
        let error = try #require(failure(yaml))
        #expect(error.kind == .aliasNotAccepted, "\(error)")
        #expect(error.line == line, "\(error)")
        #expect(error.column.map { abs($0 - column) <= 4 } == true, "\(error)")
    }

    @Test(arguments: [
        ("base: &b {x: 1}\nother:\n  <<: *b\n", 3),
        ("other:\n  <<: {x: 1}\n  y: 2\n", 2),
        ("other:\n  y: 2\n  <<: [{x: 1}]\n", 3),
    ])
    func mergeKeysAreRefused(yaml: String, line: Int) throws {
        let error = try #require(failure(yaml))
        #expect(error.kind == .aliasNotAccepted, "\(error)")
        #expect(error.line == line, "\(error)")
    }

    @Test func ampersandsAndAsterisksThatAreTextStayText() throws {
        let yaml = """
            # see *note and &anchor: only comments
            quoted: "Tom &Jerry *and* friends"
            single: 'a *b &c'
            plain: rock &roll
            route: "myapp://help/*"
            block: |
              *not an alias
              &not-an-anchor
            folded: >
              x *y
            list: [a*b, c&d]
            """
        let (value, _) = try YAMLConfiguration.document(yaml: yaml)
        #expect(value["quoted"] == "Tom &Jerry *and* friends")
        #expect(value["single"] == "a *b &c")
        #expect(value["plain"] == "rock &roll")
        #expect(value["route"] == "myapp://help/*")
        #expect(value["block"] == "*not an alias\n&not-an-anchor\n")
        #expect(value["folded"] == "x *y\n")
        #expect(value["list"] == ["a*b", "c&d"])
    }

    /// A document of `count` nodes: a root list of `count - 1` scalars.
    static func flat(nodes count: Int) -> String {
        "[" + Array(repeating: "x", count: count - 1).joined(separator: ",") + "]"
    }

    @Test func aFlatDocumentWithinTheNodeBudgetIsRead() throws {
        let (value, _) = try YAMLConfiguration.document(yaml: Self.flat(nodes: YAMLConfiguration.maximumNodes))
        #expect(value.arrayValue?.count == YAMLConfiguration.maximumNodes - 1)
    }

    @Test func aFlatDocumentOverTheNodeBudgetIsRefusedAtTheFirstNodeOver() throws {
        let error = try #require(failure(Self.flat(nodes: YAMLConfiguration.maximumNodes + 1)))
        #expect(error.kind == .limitExceeded)
        #expect(error.keyPath == [.index(YAMLConfiguration.maximumNodes - 1)])
        #expect(error.line == 1)
    }

    @Test func mappingKeysCountTowardsTheBudget() throws {
        // A root mapping of n pairs is 1 + 2n nodes.
        func mapping(pairs: Int) -> String { "{" + (0..<pairs).map { "k\($0): 1" }.joined(separator: ", ") + "}" }
        let within = (YAMLConfiguration.maximumNodes - 1) / 2
        #expect(throws: Never.self) { try YAMLConfiguration.document(yaml: mapping(pairs: within)) }
        #expect(failure(mapping(pairs: within + 1))?.kind == .limitExceeded)
    }

    @Test func aDocumentOverTheByteLimitIsRefusedUnparsed() throws {
        let text = "# " + String(repeating: "x", count: YAMLConfiguration.maximumBytes)
        #expect(failure(text)?.kind == .limitExceeded)
        let atLimit = "#" + String(repeating: "x", count: YAMLConfiguration.maximumBytes - 1)
        #expect(failure(atLimit) == nil)
    }

    @Test func aFileOverTheByteLimitIsReadNoFurther() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("taproute-big-\(UUID().uuidString).yaml")
        try Data(repeating: UInt8(ascii: "#"), count: YAMLConfiguration.maximumBytes + 1).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect {
            try YAMLConfiguration.load(contentsOf: url.path)
        } throws: { ($0 as? ConfigurationError)?.kind == .limitExceeded }
        // An endless file is refused after maximumBytes + 1 bytes, not read forever.
        #expect {
            try YAMLConfiguration.load(contentsOf: "/dev/zero")
        } throws: { ($0 as? ConfigurationError)?.kind == .limitExceeded }
    }

    @Test func keysThatYAMLTellsApartButAreTheSameStringAreDuplicates() throws {
        let error = try #require(failure("1: a\n\"1\": b\n"))
        #expect(error.kind == .duplicateKey)
        // At the first of the two, as every duplicate key is reported: the parser types
        // neither key (plain scalars are typed later, `PlainScalarResolution`), so it finds
        // them equal itself.
        #expect(error.line == 1)
    }

    @Test func nestingIsLimited() throws {
        let depth = YAMLConfiguration.maximumDepth
        let within = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(failure(within) == nil)
        let over = String(repeating: "[", count: depth + 1) + String(repeating: "]", count: depth + 1)
        #expect(failure(over)?.kind == .limitExceeded)
    }

    @Test func theCandidateScannerCountsLinesAsTheParserDoes() throws {
        // CR LF, CR, NEL and LS line ends, and wide characters before the alias.
        for newline in ["\r\n", "\r", "\u{85}", "\u{2028}"] {
            let yaml = "a: &a x\(newline)é€😀: *a\(newline)"
            let error = try #require(failure(yaml))
            #expect(error.kind == .aliasNotAccepted, "\(newline.unicodeScalars.map(\.value)): \(error)")
            #expect(error.line == 2 && error.column == 6, "\(newline.unicodeScalars.map(\.value)): \(error)")
        }
    }
}
