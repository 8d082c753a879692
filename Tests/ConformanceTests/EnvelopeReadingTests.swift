import TapRouteAdapters
import TapRouteTestSupport
import Testing

@testable import TapRoute

/// A record whose first key is `kind` is read without its root object: the envelope's
/// members are kept as they are parsed (`RecordReader.readEvent`, docs/performance.md, the
/// twenty-fourth round). What that promises: the same event, or the same error — the same
/// code, message, position and path — as reading the whole record and then the envelope from
/// its object, for envelopes of every shape: members in any order, repeated, of the wrong
/// type, unknown, `kind` first or not or written with an escape, and records broken anywhere.
@Suite struct EnvelopeReadingTests {
    /// What reading `record` gives, both ways, as text: the event's JSON, or the error.
    static func bothWays(_ reader: RecordReader, _ record: [UInt8]) -> (members: String, whole: String) {
        func outcome(_ read: () throws(NormalizationError) -> InputEvent) -> String {
            do throws(NormalizationError) {
                return try read().jsonValue.jsonString()
            } catch {
                return "\(error.code.rawValue): \(error.message) at \(error.path) \(String(describing: error.cause))"
            }
        }
        return record.withUnsafeBufferPointer { bytes in
            (
                outcome { () throws(NormalizationError) in try reader.readEvent(bytes, line: 3, column: 5) },
                outcome { () throws(NormalizationError) in try InputEvent(json: reader.read(bytes, line: 3, column: 5)) }
            )
        }
    }

    /// Values for each member: right, wrong-typed, null, and nested ones that are deep,
    /// broken by escapes or hold an alert.
    static let values: [String: [String]] = [
        "kind": [
            #""notification""#, #""url""#, #""userActivity""#, #""inAppMessage""#, #""vendorEvent""#, #""push""#, "3", "null",
            #""n\u006ftification""#,
        ],
        "userInfo": [
            #"{"aps":{"alert":{"title":"Hi","body":"there"}},"dashx":"{\"id\":\"1\",\"url\":\"https://a.example/x\"}"}"#,
            #"{"aps":{"alert":"caf\u00e9"},"_":"m-1"}"#, "[1]", #""x""#, "null", #"{"aps":{"alert":"\ud800"}}"#,
        ],
        "action": [#""view""#, "5", "null", #""com.apple.UNNotificationDismissActionIdentifier""#],
        "origin": [#""remote""#, #""local""#, #""moon""#, "1", "null"],
        "url": [#""myapp://products/1""#, #""https://a.example/p?q=1""#, "7", "null"],
        "messageId": [#""m-2""#, "[]", "null"],
        "activityType": [#""NSUserActivityTypeBrowsingWeb""#, #""other""#, "false"],
        "webpageURL": [#""https://a.example/x""#, "{}"],
        "message": [#"{"id":"1"}"#, #""m""#],
        "event": [#"{"type":"click"}"#, "[]"],
        "phase": [#""cold""#, #""warm""#, #""hot""#, "2", "null"],
        "vendor": [#""dashx""#, #""link""#, "1", "null"],
        "automaticallyOpenDeeplinks": ["true", "false", #""yes""#, "null"],
        "aps": [#"{"alert":"root"}"#],
        "extra": [#"[1,{"a":[null,true]}]"#, #"{"deep":[[[[[[1]]]]]]}"#, #""\u00e9\n""#, "-0.5e3"],
    ]

    /// Records of random shapes from ``values``, each also broken at a random place.
    static func records(count: Int) -> [[UInt8]] {
        var generator = SplitMix64(seed: 20_261_129_024)
        let keys = values.keys.sorted()
        let kindKeys = [#""kind""#, #""kind""#, #""kind""#, #""\u006bind""#, #""k\u0069nd""#]
        let spaces = ["", "", " ", "\n", "\t \r\n"]
        // Roots that are not objects.
        var records = [#"[{"kind":"url","url":"a:b"}]"#, #""kind""#, "3", " null ", "[]"].map { Array($0.utf8) }
        for _ in 0..<count {
            var members: [String] = []
            for _ in 0..<generator.below(6) {
                let key = keys[generator.below(keys.count)]
                let choices = values[key, default: []]
                let quoted = key == "kind" ? kindKeys[generator.below(kindKeys.count)] : "\"\(key)\""
                members.append(quoted + ":" + choices[generator.below(choices.count)])
            }
            // Most envelopes open with `kind`: as they are written, and with what may precede it.
            if generator.below(4) != 0 {
                let kinds = values["kind", default: []]
                members.insert(#""kind":"# + kinds[generator.below(kinds.count)], at: 0)
            }
            var text = "{" + spaces[generator.below(spaces.count)]
            text += members.map { $0 + spaces[generator.below(spaces.count)] }.joined(separator: ",")
            text += "}" + spaces[generator.below(spaces.count)]
            let record = Array(text.utf8)
            records.append(record)
            // Broken: cut short, a byte changed, trailing data.
            var broken = record
            switch generator.below(3) {
            case 0: broken.removeLast(generator.below(broken.count))
            case 1:
                let junk = Array(#"{}[]":,x\"#.utf8)
                broken[generator.below(broken.count)] = junk[generator.below(junk.count)]
            default: broken += Array(" {}".utf8)
            }
            records.append(broken)
        }
        return records
    }

    @Test func everyShapeGivesWhatTheWholeRecordGives() throws {
        let registry = try AdapterRegistry.builtIn()
        let readers = [
            ("normalizing", registry.normalizingReader),
            ("whole", registry.recordReader),
            ("shallow", RecordReader(limits: Limits(maxRecordBytes: 1 << 20, maxDepth: 3))),
            ("no depth", RecordReader(limits: Limits(maxRecordBytes: 1 << 20, maxDepth: 0))),
        ]
        var seen: [String: Int] = [:]
        for record in Self.records(count: 4_000) {
            for (name, reader) in readers {
                let (members, whole) = Self.bothWays(reader, record)
                #expect(members == whole, "\(name): \(String(decoding: record, as: UTF8.self))")
                let outcome = members.hasPrefix("{") ? "event" : String(members.prefix { $0 != ":" })
                seen[outcome, default: 0] += 1
            }
        }
        for outcome in ["event", "invalidEnvelope", "invalidJSON", "limitExceeded"] {
            #expect(seen[outcome, default: 0] > 100, "\(outcome): \(seen)")
        }
        #expect(seen["notAnObject", default: 0] > 10, "\(seen)")
    }

    /// The envelope's members are read by their exact keys: a key that only looks like one
    /// (another case, KELVIN SIGN for `k`, a prefix) is another member, as in the object.
    @Test func membersAreReadByTheirExactKeys() throws {
        let reader = try AdapterRegistry.builtIn().normalizingReader
        for key in ["url", "URL", "ur", "urls", "u\\u0072l", "userinfo", "userInfo", "\u{212A}ind", "vendor", "Vendor"] {
            let record = Array(#"{"kind":"url","url":"a:b",""#.utf8) + Array(key.utf8) + Array(#"":"myapp://x"}"#.utf8)
            let (members, whole) = Self.bothWays(reader, record)
            #expect(members == whole, "\(key)")
        }
    }
}
