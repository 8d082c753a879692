public import TapRoute

/// A deterministic generator of hostile inputs: arbitrary JSON values, envelopes of every
/// kind filled with arbitrary content, and mutations of known-good inputs.
///
/// The generator learns a vocabulary from the known-good inputs it is given (their object
/// keys and their string values, including those inside strings that hold JSON) and uses it
/// for most of what it writes, so that its inputs reach the code paths of the adapter those
/// inputs belong to — not only those of the built-in vendors, whose keys
/// ``interestingKeys`` lists.
///
/// The same seed and known-good inputs always give the same sequence of inputs, so a failure
/// can be replayed from the seed.
public struct HostileJSON: Sendable {
    private var state: UInt64
    private let adapterID: String
    private let seeds: [JSONValue]
    private let ownKeys: [String]
    private let ownStrings: [String]

    /// Creates a generator.
    /// - Parameters:
    ///   - seed: the random seed.
    ///   - adapterID: an adapter id to use in `vendor` fields sometimes.
    ///   - seeds: known-good inputs (e.g. vector inputs) to mutate and to learn keys and
    ///     values from.
    public init(seed: UInt64, adapterID: String = "link", seeds: [JSONValue] = []) {
        self.state = seed
        self.adapterID = adapterID
        self.seeds = seeds
        var vocabulary = Vocabulary()
        for input in seeds { vocabulary.learn(input, depth: 0) }
        self.ownKeys = vocabulary.keys
        self.ownStrings = vocabulary.strings
    }

    /// The object keys learnt from the known-good inputs, in the order first seen.
    public var learntKeys: [String] { ownKeys }

    /// The string values learnt from the known-good inputs, in the order first seen.
    public var learntStrings: [String] { ownStrings }

    private mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private mutating func below(_ n: Int) -> Int { n <= 1 ? 0 : Int(next() % UInt64(n)) }
    private mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    private mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    /// Strings that tend to break parsers and URL handling.
    public static let interestingStrings: [String] = [
        "", " ", "\t", "\u{0}", "null", "true", "42", "{}", "[]", "{\"a\":", "%", "%00", "%zz", "%2F", "%25",
        "javascript:alert(1)", "JAVASCRIPT:alert(1)", "data:text/html,<script>", "file:///etc/passwd",
        "vbscript:msgbox", " javascript:alert(1)", "java\nscript:alert(1)", "https://", "https://:80",
        "https://host:99999/", "https://[::1", "https://user@host/", "http://xn--n3h.example/", "https://例え.jp/パス",
        "campaigndemoapp://products/%00", "campaigndemoapp://products/42?ref=push", "taptalkio://", "tel:+1555",
        "mailto:a@b.c", "adbinapp://confirm/?id=a,b,3&url=javascript%3Aalert(1)", "adbinapp://cancel?id=a,b,5",
        "adbinapp://", "adbinapp://dismiss?link=", "https://web.taptalk.io/chat/%", "https://web.taptalk.io//",
        "\u{FFFD}", "\u{202E}evil", "😀", String(repeating: "a", count: 5000), "com.apple.UNNotificationDismissActionIdentifier",
        "com.apple.UNNotificationDefaultActionIdentifier",
        // URLs with control characters, encoded NULs, overlong or broken percent sequences,
        // IDN, punycode and look-alike hosts, and a delimiter hidden behind a combining mark.
        "https://web.taptalk.io\u{1}/chat/1", "https://web.taptalk.io/chat/\u{7F}", "campaigndemoapp://products/a%00b",
        "https://a.example/%C0%AF%E0%80%AF", "https://a.example/%25%30%30", "https://xn--r8jz45g.jp/",
        "https://web.t\u{430}ptalk.io/chat/1",
        "https://WEB.TAPTALK.IO./chat/1", "https://web.taptalk.io@evil.example/chat/1",
        "https://evil.example/\u{301}@web.taptalk.io/chat/1",
        "taptalkio://room/%2e%2e%2f", "taptalkio://%00", "javascript://%0aalert(1)", "\tjavascript:alert(1)", "jav&#x61;script:alert(1)",
    ]

    /// Keys that the built-in vendors use, so that generated objects reach their code paths
    /// too.
    public static let interestingKeys: [String] = [
        "kind", "userInfo", "action", "origin", "url", "uri", "adb_uri", "adb_deeplink", "adb_a_type", "adb_act", "_xdm",
        "_mId", "_dId", "dashx", "id", "title", "body", "screen_name", "screen_data", "click_action", "rich_landing",
        "action_buttons", "identifier", "label", "screenName", "screenData", "richLanding", "clickAction", "type",
        "payload", "event", "message", "detail", "template", "content", "cancel", "confirm", "data", "room", "roomID",
        "user", "messageID", "localID", "body", "aps", "alert", "vendor", "phase", "webpageURL", "activityType",
        "automaticallyOpenDeeplinks",
    ]

    /// An arbitrary JSON value of at most `depth` levels.
    public mutating func value(depth: Int = 4) -> JSONValue {
        switch below(depth <= 0 ? 4 : 7) {
        case 0: return .null
        case 1: return .bool(chance(50))
        case 2: return .number(pick([JSONNumber(0), JSONNumber(-1), JSONNumber(Int.max), JSONNumber(text: "1e999999")!, JSONNumber(0.5)]))
        case 3: return .string(string())
        case 4: return .array((0..<below(4)).map { _ in value(depth: depth - 1) })
        case 5, 6: return .object(object(depth: depth - 1))
        default: return .null
        }
    }

    /// An arbitrary string: one of the known-good inputs' own values, an interesting one,
    /// one embedding JSON, or random scalars.
    public mutating func string() -> String {
        switch below(5) {
        case 0 where !ownStrings.isEmpty: return pick(ownStrings)
        case 0, 1, 2: return pick(Self.interestingStrings)
        case 3:
            var copy = self
            let embedded = copy.value(depth: 2).jsonString()
            self = copy
            return embedded
        default:
            return String(String.UnicodeScalarView((0..<below(12)).compactMap { _ in Unicode.Scalar(UInt32(below(0x3000))) }))
        }
    }

    /// A key: mostly one of the known-good inputs' own keys, else a built-in vendor's key or
    /// an arbitrary string.
    public mutating func key() -> String {
        if !ownKeys.isEmpty, chance(60) { return pick(ownKeys) }
        return chance(80) ? pick(Self.interestingKeys) : string()
    }

    /// An arbitrary object whose keys are mostly known keys.
    public mutating func object(depth: Int) -> JSONObject {
        var o = JSONObject()
        for _ in 0..<below(6) {
            o[key()] = value(depth: depth)
        }
        return o
    }

    /// An arbitrary input record: a mutated known-good input (often), an envelope of any
    /// kind, a bare userInfo, or any JSON value.
    public mutating func input() -> JSONValue {
        switch below(12) {
        case 0: return value(depth: 3)
        case 1, 2, 3, 4, 5:
            guard !seeds.isEmpty else { return .object(object(depth: 3)) }
            var mutated = pick(seeds)
            for _ in 0...below(3) { mutated = mutate(mutated, depth: 0) }
            return mutated
        case 6:
            var o = JSONObject()
            o["kind"] = "notification"
            o["userInfo"] = .object(object(depth: 3))
            if chance(50) { o["action"] = .string(string()) }
            if chance(30) { o["origin"] = .string(pick(["remote", "local", "other"])) }
            return decorate(o)
        case 7:
            return decorate(["kind": "url", "url": .string(string())])
        case 8:
            return decorate(["kind": "userActivity", "activityType": "NSUserActivityTypeBrowsingWeb", "webpageURL": .string(string())])
        case 9:
            return decorate(["kind": "inAppMessage", "message": .object(object(depth: 3)), "action": .string(string())])
        case 10:
            return decorate(["kind": "vendorEvent", "event": .object(object(depth: 3))])
        default:
            return .object(object(depth: 3))
        }
    }

    private mutating func decorate(_ envelope: JSONObject) -> JSONValue {
        var o = envelope
        if chance(10) { o["vendor"] = .string(pick([adapterID, "link", "nope"])) }
        if chance(20) { o["phase"] = chance(90) ? .string(pick(["cold", "warm"])) : value(depth: 1) }
        if chance(10) { o["automaticallyOpenDeeplinks"] = chance(90) ? .bool(chance(50)) : value(depth: 1) }
        return .object(o)
    }

    /// `value` with one random part replaced, removed, retyped or emptied, or a member
    /// added; strings that hold JSON are mutated inside.
    public mutating func mutate(_ value: JSONValue, depth: Int) -> JSONValue {
        if depth > 6 || chance(10) { return self.value(depth: 2) }
        switch value {
        case .object(var o):
            guard !o.isEmpty else { return .object(object(depth: 2)) }
            let key = o.keys[below(o.count)]
            switch below(6) {
            case 0: o.removeValue(forKey: key)
            case 1: o[key] = self.value(depth: 2)
            case 2: o[self.key()] = self.value(depth: 2)
            default: o[key] = mutate(o[key] ?? .null, depth: depth + 1)
            }
            return .object(o)
        case .array(var a):
            guard !a.isEmpty else { return .array([self.value(depth: 2)]) }
            let i = below(a.count)
            if chance(30) { a.remove(at: i) } else { a[i] = mutate(a[i], depth: depth + 1) }
            return .array(a)
        case .string(let s):
            if let inner = embeddedJSON(s) {
                return .string(mutate(inner, depth: depth + 1).jsonString())
            }
            switch below(6) {
            case 0: return ""
            case 1: return .string(string())
            case 2: return .string(s + string())
            case 3: return .string(String(String.UnicodeScalarView(s.unicodeScalars.prefix(below(s.unicodeScalars.count + 1)))))
            case 4: return .string(string() + s)
            default: return ownStrings.isEmpty ? .string(string()) : .string(pick(ownStrings))
            }
        default:
            return self.value(depth: 1)
        }
    }
}

/// The keys and string values of known-good inputs, each once, in the order first seen.
struct Vocabulary {
    private(set) var keys: [String] = []
    private(set) var strings: [String] = []
    private var seenKeys: Set<String> = []
    private var seenStrings: Set<String> = []

    /// Strings longer than this are not worth repeating elsewhere.
    private static let longestString = 512

    mutating func learn(_ value: JSONValue, depth: Int) {
        guard depth < 32 else { return }
        switch value {
        case .object(let o):
            for (key, member) in o {
                if seenKeys.insert(key).inserted { keys.append(key) }
                learn(member, depth: depth + 1)
            }
        case .array(let a):
            for element in a { learn(element, depth: depth + 1) }
        case .string(let s):
            if let inner = embeddedJSON(s) {
                learn(inner, depth: depth + 1)
            } else if s.utf8.count <= Self.longestString, seenStrings.insert(s).inserted {
                strings.append(s)
            }
        default:
            break
        }
    }
}

/// The object or array a string holds as JSON text (`"{\"id\":1}"`), if it holds one.
func embeddedJSON(_ s: String) -> JSONValue? {
    // Most strings are not JSON; look at the first character before trying to parse.
    guard let first = s.utf8.first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }),
        first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    else { return nil }
    guard let inner = try? JSONValue(parsing: s), inner.objectValue != nil || inner.arrayValue != nil else { return nil }
    return inner
}
