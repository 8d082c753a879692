import TapRoute
import TapRouteTestSupport
import Testing
import Yams

@testable import TapRouteYAML

/// `PlainScalarResolution` types untagged plain scalars without regular expressions; these
/// tests hold it to Yams' own `Resolver.default` (its `NSRegularExpression` rules, run by ICU),
/// which is what a configuration's scalars were typed by before.
@Suite struct PlainScalarResolutionTests {
    /// What `Resolver.default` makes of `text`, in `PlainScalarResolution`'s terms.
    static func yams(_ text: String) -> PlainScalarResolution {
        switch Resolver.default.resolveTag(of: Node(text)) {
        case .null: .null
        case .bool: Bool.construct(from: Node.Scalar(text, Tag(.bool, .basic))).map(PlainScalarResolution.bool) ?? .string
        case .int: .int
        case .float: .float
        default: .string
        }
    }

    /// Each alternative of each rule, the near misses around it, and ICU's `$` before a final
    /// line terminator.
    static let examples: [String] = [
        "", "~", "null", "Null", "NULL", "nULL", "nil", "None", "~~",
        "yes", "Yes", "YES", "yEs", "no", "No", "NO", "true", "True", "TRUE", "tRUE", "false", "False", "FALSE",
        "on", "On", "ON", "oN", "off", "Off", "OFF", "y", "n", "Y", "N",
        "0", "-0", "+0", "00", "07", "08", "0_", "0o", "0o7", "0o8", "0o_", "-0o17", "0b", "0b1", "0b2", "0b_", "+0b101",
        "0x", "0x1F", "0xg", "0X1F", "-0x_f", "1", "12", "1_000", "_1", "1__", "-12", "+1", "++1", "1-",
        "1:30", "1:3", "1:60", "1:59", "1:5:7", "1:", ":30", "0:30", "1:30:", "1:300", "1:_0", "190:20:30",
        "1.", "1.5", ".5", "._", ".", "-.5", "+.5", "1e5", "1E5", "1e+5", "1e-5", "1e", "1e+", ".5e5", ".5e+5",
        "1.5e5", "1_0.0_1", "1:30.5", "1:30.", "1:30.5e1", "-1:30.5", "0.", "00.5", "1..5",
        ".inf", ".Inf", ".INF", ".iNF", "-.inf", "+.inf", "inf", ".nan", ".NaN", ".NAN", "-.nan", "+.nan", "nan",
        "<<", "=", "2001-12-14", "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10 -5",
        "true\n", "1\n", "1\r\n", "1\r", "1\u{0B}", "1\u{0C}", "1\u{85}", "1\u{2028}", "1\u{2029}", "\n", "1\n\n",
        "1\n2", " 1", "1 ", "１", "٣", "1\u{301}", "true\u{2028}", "~\n", "null\r\n",
    ]

    @Test(arguments: examples) func matchesYams(_ text: String) {
        #expect(PlainScalarResolution(text) == Self.yams(text), "\(text.debugDescription)")
    }

    /// Strings drawn from the characters the rules name, so that most are near one rule.
    @Test func generatedScalarsMatchYams() {
        let pieces = [
            "0", "1", "5", "6", "7", "8", "9", "_", ":", ".", "e", "E", "+", "-", "x", "b", "o", "a", "F",
            "inf", "nan", "NaN", "INF", "true", "no", "On", "~", "null", "\n", "\r", " ", "<<", "=", "t", "Z",
        ]
        var generator = SplitMix64(seed: 0x5CA1_AB1E)
        for _ in 0..<20_000 {
            let count = Int.random(in: 0...7, using: &generator)
            let text = (0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined()
            #expect(PlainScalarResolution(text) == Self.yams(text), "\(text.debugDescription)")
        }
    }

    /// Scalars of hostile length in the shape of each rule (and just off it) answer as Yams
    /// does; a configuration's scalars are bounded by its size (1 MiB).
    @Test func longScalarsMatchYams() {
        let n = 100_000
        let digits = String(repeating: "7", count: n)
        let texts = [
            digits, "1" + digits, "-0o" + digits, "0b" + String(repeating: "1_", count: n), "0x" + String(repeating: "aF", count: n),
            "1" + String(repeating: ":59", count: n), "1" + String(repeating: ":59", count: n) + ".5",
            "1" + String(repeating: ":59", count: n) + ":60", "1." + digits + "e" + digits, "." + digits + "e+" + digits,
            "." + digits + "e" + digits, digits + "x", String(repeating: "~", count: n), String(repeating: "true", count: n),
        ]
        for text in texts {
            #expect(PlainScalarResolution(text) == Self.yams(text), "\(text.prefix(12))… (\(text.utf8.count) bytes)")
        }
    }

    /// A whole document reads as it did with `Resolver.default`: tags win over the plain
    /// rules, quoted scalars are strings, and the typed values are Yams' own.
    @Test func documentsReadAsBefore() throws {
        let yaml = """
            a: on
            b: 0x1F
            c: 1_000
            d: 1:30
            e: 1.5e3
            f: ~
            g: ''
            h: !!str true
            i: !!int 5
            j: "5"
            k: <<x
            l: 2001-12-14
            m: |
              true
            n: -.5        # no float rule takes a sign before the point: a string
            o: 0o17
            p: NO
            q:
            """
        let (document, _) = try YAMLConfiguration.document(yaml: yaml, file: "t.yaml")
        let expected: JSONValue = .object(
            JSONObject(uniqueMembers: [
                ("a", .bool(true)), ("b", .number(JSONNumber(31))), ("c", .number(JSONNumber(1000))),
                ("d", .number(JSONNumber(90))), ("e", .number(JSONNumber(1500.0))), ("f", .null), ("g", .string("")),
                ("h", .string("true")), ("i", .number(JSONNumber(5))), ("j", .string("5")), ("k", .string("<<x")),
                ("l", .string("2001-12-14")), ("m", .string("true\n")), ("n", .string("-.5")),
                ("o", .number(JSONNumber(15))), ("p", .bool(false)), ("q", .null),
            ])
        )
        #expect(document == expected)
        // What Yams would not type is refused as before.
        #expect(throws: ConfigurationError.self) { try YAMLConfiguration.document(yaml: "a: 99999999999999999999", file: "t.yaml") }
        #expect(throws: ConfigurationError.self) { try YAMLConfiguration.document(yaml: "a: .inf", file: "t.yaml") }
        #expect(throws: ConfigurationError.self) { try YAMLConfiguration.document(yaml: "a: !!int x", file: "t.yaml") }
    }
}
