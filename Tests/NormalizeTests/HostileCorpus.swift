import Foundation
import TapRoute
import TapRouteTestSupport

/// A generated corpus of hostile JSON Lines records (docs/reliability.md): each record is the
/// bytes of one line, without its newline. Deterministic: the same repository gives the same
/// corpus.
///
/// Families: deep nesting (to 10,000 levels), 10 MB strings and numbers, records around the
/// size limit, invalid UTF-8, lone surrogates in `\u` escapes, huge and malformed numbers,
/// duplicate keys, NUL bytes raw and escaped, and — for every string that looks like a URL
/// in every conformance vector of every vendor (also inside strings holding JSON, and URLs
/// carried in a query item) — each of ``hostileURLs``: `javascript:` spellings, control
/// characters, `%00`, overlong percent sequences, IDN, punycode and look-alike hosts.
enum HostileCorpus {
    /// URLs that must never become a destination that fails the safety rules.
    static let hostileURLs: [String] = [
        "javascript:alert(1)", "JavaScript:alert(document.cookie)", "JAVASCRIPT:alert(1)", " javascript:alert(1)",
        "\tjavascript:alert(1)", "java\tscript:alert(1)", "java\nscript:alert(1)", "javascript://%0aalert(1)",
        "javascript\u{0}:alert(1)", "jav&#x61;script:alert(1)", "javascript:", "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
        "vbscript:msgbox(1)", "file:///etc/passwd", "https://evil.example/%00", "https://evil.example/a%00b?c=%00",
        "https://evil.example/%C0%AF%E0%80%AF%F0%80%80%AF", "https://evil.example/%25%30%30", "https://evil.example/%zz%2",
        "https://web.taptalk.io\u{1}/chat/1", "https://web.taptalk.io/chat/\u{7F}", "https://web.taptalk.io/chat/1\u{85}",
        "https://\u{4F8B}\u{3048}.jp/\u{30D1}\u{30B9}", "https://xn--r8jz45g.jp/", "https://xn--web-taptalk-9vb.io/chat/1",
        "https://web.t\u{430}ptalk.io/chat/1", "https://WEB.TAPTALK.IO./chat/1", "https://web.taptalk.io@evil.example/chat/1",
        "https://evil.example/\u{301}@web.taptalk.io/chat/1", "https://evil.example\\@web.taptalk.io/chat/1",
        "https://web.taptalk.io:99999/chat/1", "https://[::1/chat", "campaigndemoapp://products/%00",
        "campaigndemoapp://products/\u{202E}1", "taptalkio://%00", "taptalkio://room/%2e%2e%2f",
        "adbinapp://confirm/?id=a,b,3&url=javascript%3Aalert(1)", "adbinapp://dismiss?link=data%3Atext%2Fhtml%2Cx",
        String(repeating: "https://a.example/", count: 300),
    ]

    /// Every record, in order.
    static func records() throws -> [[UInt8]] {
        var out: [[UInt8]] = []
        out += nesting()
        out += huge()
        out += encodings()
        out += numbersAndKeys()
        out += try urlPositions()
        return out
    }

    private static func line(_ text: String) -> [UInt8] { Array(text.utf8) }

    private static func url(_ value: String) -> String {
        JSONValue.object(["kind": "url", "url": .string(value)]).jsonString()
    }

    // MARK: - Families

    static func nesting() -> [[UInt8]] {
        var out: [[UInt8]] = []
        for depth in [10_000, 5_000, 1_000, 129, 128, 127, 126, 64] {
            out.append(line(String(repeating: "[", count: depth) + String(repeating: "]", count: depth)))
            out.append(line(String(repeating: "{\"a\":", count: depth) + "1" + String(repeating: "}", count: depth)))
            let inner = String(repeating: "[", count: depth) + "\"javascript:alert(1)\"" + String(repeating: "]", count: depth)
            out.append(line(#"{"kind":"notification","userInfo":{"aps":{"alert":"x"},"uri":"# + inner + "}}"))
            out.append(line(#"{"kind":"url","url":"https://a.example/","extra":"# + inner + "}"))
        }
        out.append(line(String(repeating: "[", count: 10_000)))  // unterminated
        out.append(line(String(repeating: "{\"a\":[", count: 5_000)))
        // A DashX block (a JSON string inside the payload) nested deeply.
        let block = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        out.append(
            line(JSONValue.object(["kind": "notification", "userInfo": ["aps": ["alert": "x"], "dashx": .string(block)]]).jsonString())
        )
        return out
    }

    static func huge() -> [[UInt8]] {
        let tenMB = 10 * 1024 * 1024
        let a = String(repeating: "a", count: tenMB)
        var out: [[UInt8]] = [
            line(url("https://a.example/" + a)),
            line(#"{"kind":"notification","userInfo":{"aps":{"alert":""# + a + #""}}}"#),
            line(#"{"kind":"url","url":"https://a.example/","n":"# + String(repeating: "7", count: tenMB) + "}"),
            line("\"" + a),  // an unterminated 10 MB string
        ]
        // Around limits.maxRecordBytes (1 MiB in config.yaml): just under, at, just over.
        let limit = 1 << 20
        for size in [limit - 1, limit, limit + 1] {
            let head = #"{"kind":"url","url":"https://a.example/"#
            let tail = "\"}"
            out.append(line(head + String(repeating: "b", count: size - head.utf8.count - tail.utf8.count) + tail))
        }
        // A URL just over security.maxURLLength (4096).
        out.append(line(url("https://a.example/" + String(repeating: "c", count: 4096))))
        return out
    }

    static func encodings() -> [[UInt8]] {
        var out: [[UInt8]] = []
        let invalid: [[UInt8]] = [
            [0xFF], [0xFE, 0xFF], [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xF0, 0x80, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF],
            [0xF4, 0x90, 0x80, 0x80], [0xC3], [0xE2, 0x82], [0x80], [0xBF], [0xF8, 0x88, 0x80, 0x80, 0x80],
        ]
        for bytes in invalid {
            out.append(line(#"{"kind":"url","url":"https://a.example/"#) + bytes + line(#""}"#))
            out.append(line(#"{"kind":"url","url":"https://a.example/","# + "\"") + bytes + line(#"":1}"#))
            out.append(line(#"{"kind":"notification","userInfo":{"aps":{"alert":""#) + bytes + line(#""},"uri":"https://a.example"}}"#))
            out.append(bytes + line(#"{"kind":"url","url":"tel:1"}"#))
            out.append(line(#"{"kind":"url","url":"tel:1"}"#) + bytes)
        }
        let escapes = [
            #"\ud800"#, #"\udc00"#, #"\ud800\u0041"#, #"\udc00\ud800"#, #"\ud83d"#, #"\ud83d\ude00"#, #"\uDBFF\uDFFF"#, #"\u0000"#,
            #"\u001f"#, #"\u007f"#, #"\u202e"#, #"\ufeff"#, #"\uffff"#, #"\u"#, #"\u12"#, #"\uzzzz"#, #"\x41"#, #"\"#,
        ]
        for escape in escapes {
            out.append(line(#"{"kind":"url","url":"https://a.example/"# + escape + #""}"#))
            out.append(line(#"{"kind":"url","url":"javascript"# + escape + #":alert(1)"}"#))
            out.append(line(#"{"kind":"url","url":"tel:1",""# + escape + #"":1}"#))
            out.append(
                line(
                    #"{"kind":"notification","userInfo":{"aps":{"alert":"x"},"dashx":"{\"id\":\"1\",\"url\":\"https://a.example/"# + escape
                        + #"\"}"}}"#
                )
            )
            out.append(line(#"{"kind":"url","vendor":"taptalk"# + escape + #"","url":"taptalkio://room/1"}"#))
        }
        // Raw NUL and other control bytes, inside and outside strings.
        for control: UInt8 in [0x00, 0x01, 0x08, 0x0B, 0x0C, 0x0D, 0x1B, 0x1F, 0x7F] {
            out.append(line(#"{"kind":"url","url":"https://a.example/"#) + [control] + line(#""}"#))
            out.append(line(#"{"kind":"url","url":"tel:1"}"#) + [control])
            out.append([control] + line(#"{"kind":"url","url":"tel:1"}"#))
        }
        out.append([0x00, 0x00, 0x00])
        out.append(line("\u{FEFF}") + line(#"{"kind":"url","url":"tel:1"}"#))  // a byte-order mark
        out.append(line(#"{"kind":"url","url":"tel:1"}"#) + [0x0D])  // CRLF line ending
        return out
    }

    static func numbersAndKeys() -> [[UInt8]] {
        var out: [[UInt8]] = []
        let numbers = [
            "1e999999", "-1e999999", "1e-999999", "1E+309", "-0", "0.000000000000000000000000001", "123456789012345678901234567890",
            "-9223372036854775809", "18446744073709551616", "1.7976931348623157e308", "4.9e-324", "NaN", "Infinity", "-Infinity",
            "01", "1.", ".5", "+1", "0x10", "1e", "1e+", "--1", "1_000",
        ]
        for n in numbers {
            out.append(line(n))
            out.append(line(#"{"kind":"url","url":"tel:1","messageId":"# + n + "}"))
            out.append(line(#"{"kind":"url","url":"tel:1","phase":"# + n + "}"))
            out.append(line(#"{"kind":"url","url":"tel:1","automaticallyOpenDeeplinks":"# + n + "}"))
            out.append(
                line(
                    #"{"kind":"notification","userInfo":{"aps":{"alert":"x","badge":"# + n + #"},"adb_a_type":"# + n + #","_mId":"# + n
                        + "}}"
                )
            )
            out.append(
                line(
                    #"{"kind":"notification","userInfo":{"aps":{"alert":"x"},"dashx":"{\"id\":"# + n
                        + #",\"url\":\"https://a.example\"}"}}"#
                )
            )
            out.append(
                line(#"{"kind":"vendorEvent","event":{"type":"Tap","action":{"type":"URL","uri":"https://a.example"},"id":"# + n + "}}")
            )
        }
        // Duplicate keys: the last value wins, whatever came first.
        let duplicates = [
            #"{"kind":"url","kind":"notification","url":"tel:1"}"#,
            #"{"kind":"url","url":"https://a.example/","url":"javascript:alert(1)"}"#,
            #"{"kind":"url","url":"javascript:alert(1)","url":"https://a.example/"}"#,
            #"{"kind":"url","url":"tel:1","vendor":"adobe","vendor":"taptalk"}"#,
            #"{"kind":"notification","userInfo":{"aps":{"alert":"x"},"uri":"https://a.example","uri":"javascript:alert(1)"}}"#,
            #"{"kind":"notification","userInfo":{"aps":{"alert":"x"},"dashx":"{\"url\":\"https://a.example\",\"url\":\"javascript:alert(1)\"}"}}"#,
            #"{"kind":"url","url":"tel:1","url":"tel:2","url":"tel:3","url":"tel:4","url":"tel:5","url":"tel:6","url":"tel:7","url":"tel:8"}"#,
        ]
        out += duplicates.map(line)
        var many = #"{"kind":"url","url":"tel:1""#
        for i in 0..<20_000 { many += #","k\#(i % 97)":\#(i)"# }
        out.append(line(many + "}"))
        // Envelopes of every kind with the wrong types.
        for kind in ["notification", "url", "userActivity", "inAppMessage", "vendorEvent", "nope", ""] {
            for value in ["null", "true", "1", "\"\"", "[]", "{}", "\"javascript:alert(1)\""] {
                for key in ["userInfo", "url", "webpageURL", "message", "event", "action", "origin", "phase", "vendor"] {
                    out.append(line(#"{"kind":""# + kind + #"",""# + key + #"":"# + value + "}"))
                }
            }
        }
        // Not objects, and not JSON.
        out += [
            "null", "true", "\"x\"", "[]", "[{}]", "{", "}", "{}", "{\"kind\"}", "{\"kind\":}", "{,}", "{\"a\":1,}", "[1,]", "'x'",
            "{kind:\"url\"}",
        ]
        .map(line)
        return out
    }

    /// Every URL position of every vendor's vectors, each filled with each hostile URL.
    static func urlPositions() throws -> [[UInt8]] {
        var inputs: [JSONValue] = []
        let fileManager = FileManager.default
        var directories = try fileManager.contentsOfDirectory(atPath: TestPaths.path("adapters")).sorted().map { "adapters/\($0)/Vectors" }
        directories.append("Tests/ConformanceTests/Vectors/link")
        for directory in directories {
            let path = TestPaths.path(directory)
            guard let files = try? fileManager.contentsOfDirectory(atPath: path) else { continue }
            for file in files.sorted() where file.hasSuffix(".json") {
                let text = try String(contentsOfFile: path + "/" + file, encoding: .utf8)
                if let input = try JSONValue(parsing: text)["input"] { inputs.append(input) }
            }
        }
        var out: [[UInt8]] = inputs.map { line($0.jsonString()) }
        for input in inputs {
            for hostile in hostileURLs {
                for variant in replacingEachURL(in: input, with: hostile) {
                    out.append(line(variant.jsonString()))
                }
            }
        }
        return out
    }

    /// `value` with one URL-looking string replaced by `replacement`, once per such string:
    /// strings holding JSON are searched too, and a URL in a URL's query item (percent-encoded)
    /// is a position of its own.
    static func replacingEachURL(in value: JSONValue, with replacement: String) -> [JSONValue] {
        switch value {
        case .string(let s):
            var variants: [JSONValue] = []
            if let inner = try? JSONValue(parsing: s), inner.objectValue != nil || inner.arrayValue != nil {
                return replacingEachURL(in: inner, with: replacement).map { .string($0.jsonString()) }
            }
            guard looksLikeURL(s) else { return [] }
            variants.append(.string(replacement))
            variants += replacingQueryURLs(in: s, with: replacement).map(JSONValue.string)
            return variants
        case .array(let elements):
            var variants: [JSONValue] = []
            for (i, element) in elements.enumerated() {
                for replaced in replacingEachURL(in: element, with: replacement) {
                    var copy = elements
                    copy[i] = replaced
                    variants.append(.array(copy))
                }
            }
            return variants
        case .object(let object):
            var variants: [JSONValue] = []
            for key in object.keys {
                for replaced in replacingEachURL(in: object[key] ?? .null, with: replacement) {
                    var copy = object
                    copy[key] = replaced
                    variants.append(.object(copy))
                }
            }
            return variants
        default:
            return []
        }
    }

    private static func looksLikeURL(_ s: String) -> Bool {
        guard let parts = URLParts(s) else { return false }
        return parts.hasAuthority || ["tel", "mailto", "javascript", "data", "sms"].contains(parts.scheme)
    }

    /// `url` with each query item whose decoded value looks like a URL replaced by the
    /// percent-encoded `replacement`.
    private static func replacingQueryURLs(in url: String, with replacement: String) -> [String] {
        guard let question = url.firstIndex(of: "?") else { return [] }
        let head = url[...question]
        let items = url[url.index(after: question)...].split(separator: "&", omittingEmptySubsequences: false)
        var variants: [String] = []
        for (i, item) in items.enumerated() {
            guard let eq = item.firstIndex(of: "=") else { continue }
            let value = URLParts.percentDecoded(item[item.index(after: eq)...])
            guard looksLikeURL(value) else { continue }
            let encoded = replacement.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? replacement
            var copy = items.map(String.init)
            copy[i] = item[...eq] + encoded
            variants.append(head + copy.joined(separator: "&"))
        }
        return variants
    }
}
