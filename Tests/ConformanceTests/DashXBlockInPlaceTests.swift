import Foundation
import TapRoute
import TapRouteConformance
import TapRouteTestSupport
import Testing

@testable import DashXAdapter

/// The DashX block read in place (`DashXBlockInPlace`, the fast path) against the block read as
/// a value tree (the reference): on every input, the adapter gives the same result and the same
/// warnings both ways. The generated blocks mix every key the adapter reads, in both case
/// conventions, with values of every kind, escapes, repeated keys, broken JSON and depth limits,
/// so that the fast path is held to the reference where it declines as much as where it reads.
@Suite struct DashXBlockInPlaceTests {
    /// What one reading gave: the result or the error, and the warnings.
    struct Reading: Equatable {
        var result: AdapterResult?
        var error: NormalizationError?
        var warnings: [Warning]
    }

    private static func read(_ input: InputEvent, inPlace: Bool, limits: Limits) -> Reading {
        let adapter = DashXAdapter(readsBlockInPlace: inPlace)
        var reader = PayloadReader(limits: limits, for: input)
        do {
            let result = try adapter.read(input, using: &reader)
            return Reading(result: result, error: nil, warnings: reader.warnings)
        } catch {
            return Reading(result: nil, error: error, warnings: reader.warnings)
        }
    }

    /// Whether the fast path takes the input's block (a string it reads in place).
    private static func isReadInPlace(_ input: InputEvent, limits: Limits) -> Bool {
        guard case .notification(let userInfo, _, _) = input.kind, case .string(let text)? = userInfo["dashx"] else {
            return false
        }
        return DashXBlockInPlace.read(text, maximumDepth: max(0, limits.maxDepth - Limits.payloadDepth)) != nil
    }

    /// Reads `input` both ways and requires the same outcome; returns whether the fast path
    /// read it.
    @discardableResult
    private static func expectSameBothWays(
        _ input: InputEvent,
        limits: Limits = Limits(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Bool {
        let fast = read(input, inPlace: true, limits: limits)
        let reference = read(input, inPlace: false, limits: limits)
        #expect(fast == reference, "input: \(input)", sourceLocation: sourceLocation)
        let inPlace = isReadInPlace(input, limits: limits)
        // What the fast path reads, the reference reads without a word about the block (the
        // words about which button was tapped come after either reading, from the same code).
        if inPlace {
            let aboutTheBlock = reference.warnings.filter {
                $0.code != .unknownButton && !($0.code == .androidDiffers && $0.message.contains("has no destination of its own"))
            }
            #expect(aboutTheBlock.isEmpty, "read in place with warnings: \(input)", sourceLocation: sourceLocation)
        }
        return inPlace
    }

    private static func notification(block text: String, action: String? = nil) -> InputEvent {
        .notification(
            userInfo: ["aps": ["alert": ["title": "t", "body": "b"]], "dashx": .string(text), "campaign": "autumn"],
            action: action
        )
    }

    @Test func everyKeyTheTreeReadingChecksHasARole() {
        // A key the tree reading checks but the in-place table does not know would be skipped
        // as unread, its warning lost: every such key must be in the table.
        func known(_ key: String, in table: DashXBlockInPlace.KeyTable) -> Bool {
            var key = key
            return key.withUTF8 { table.keys.index(of: $0) } != nil
        }
        for (names, table) in [(FieldNames.topLevel, DashXBlockInPlace.topKeys), (FieldNames.button, DashXBlockInPlace.buttonKeys)] {
            let checked =
                names.stringKeys + names.requiredKeys + names.otherCase.map(\.ignored)
                + [names.screenName, names.screenData, names.richLanding, names.clickAction, "url"]
            for key in checked { #expect(known(key, in: table), "\(key)") }
        }
        for key in ["action_buttons", "identifier", "label"] {
            #expect(known(key, in: DashXBlockInPlace.topKeys) || known(key, in: DashXBlockInPlace.buttonKeys), "\(key)")
        }
        #expect(DashXBlockInPlace.topKeys.required.nonzeroBitCount == FieldNames.topLevel.requiredKeys.count)
        #expect(DashXBlockInPlace.buttonKeys.required.nonzeroBitCount == 2)
    }

    @Test func theTypicalBlockIsReadInPlace() throws {
        let text = #"""
            {"id":"6f1c2a9e","title":"Your order has shipped","body":"Track parcel 1Z999.","url":"https://shop.example.com/track/1Z999",
             "action_buttons":[{"identifier":"view","label":"View order","screenName":"OrderDetail","screenData":{"orderId":"7421"}}]}
            """#
        let block = try #require(DashXBlockInPlace.read(text, maximumDepth: 126))
        #expect(block.id == "6f1c2a9e")
        #expect(block.fields.destination == .url("https://shop.example.com/track/1Z999", target: .external))
        #expect(
            block.buttons == [
                Interaction.Button(
                    id: "view",
                    label: "View order",
                    destination: .screen(name: "OrderDetail", parameters: ["orderId": "7421"])
                )
            ]
        )
        for action in [nil, "view", "com.apple.UNNotificationDismissActionIdentifier", "other"] {
            #expect(Self.expectSameBothWays(Self.notification(block: text, action: action)))
        }
    }

    @Test func everyVectorReadsTheSameBothWays() throws {
        var inPlace = 0
        var total = 0
        for input in try ShippedVectors.all().vectors.map(\.input) {
            guard let event = try? InputEvent(json: input), DashXAdapter().recognizes(event) else { continue }
            total += 1
            if Self.expectSameBothWays(event) { inPlace += 1 }
        }
        #expect(total >= 40)
        // The vectors are mostly about what is wrong; some are plain.
        #expect(inPlace >= 8, "\(inPlace) of \(total) vectors read in place")
    }

    @Test func generatedBlocksReadTheSameBothWays() {
        var generator = DashXBlockGenerator(seed: 0xDA5F_0001)
        var inPlace = 0
        let count = 6_000
        for _ in 0..<count {
            let text = generator.block()
            let limits = Limits(maxDepth: generator.maxDepth())
            if Self.expectSameBothWays(Self.notification(block: text, action: generator.action()), limits: limits) { inPlace += 1 }
        }
        // Both paths are exercised.
        #expect(inPlace > count / 10, "\(inPlace) of \(count) read in place")
        #expect(inPlace < count * 9 / 10, "\(inPlace) of \(count) read in place")
    }

    @Test func brokenBlocksReadTheSameBothWays() {
        var generator = DashXBlockGenerator(seed: 0xDA5F_0002)
        var mutated = 0
        var inPlace = 0
        while mutated < 6_000 {
            let text = generator.block()
            // Only blocks the fast path reads are broken: each change then tests what it takes.
            guard DashXBlockInPlace.read(text, maximumDepth: 126) != nil else { continue }
            for _ in 0..<4 {
                let broken = generator.mutate(text)
                mutated += 1
                if Self.expectSameBothWays(Self.notification(block: broken, action: generator.action())) { inPlace += 1 }
            }
        }
        // Some changes leave valid JSON the fast path still reads (whitespace, other text).
        #expect(inPlace > 0)
    }

    @Test func hostileInputsReadTheSameBothWays() throws {
        let seeds = try ShippedVectors.all().vectors.map(\.input)
        var generator = HostileJSON(seed: 0xDA5F_0003, adapterID: "dashx", seeds: seeds)
        var dashx = 0
        for _ in 0..<6_000 {
            guard let event = try? InputEvent(json: generator.input()), DashXAdapter().recognizes(event) else { continue }
            dashx += 1
            Self.expectSameBothWays(event)
        }
        #expect(dashx > 50)
    }

    @Test func aBlockReadWithoutItsDestinationIsTakenExactlyWhenItIsReadWhole() {
        // For a button's action or a dismiss the notification's URL and screen name are checked
        // and not built: the block must be taken or declined exactly as when it is read whole
        // (a URL with whitespace to trim, a name that is no string: declined either way), and
        // give the same id, buttons and click action.
        func expectSameTaking(_ text: String) -> Bool {
            let whole = DashXBlockInPlace.read(text, maximumDepth: 126)
            let partial = DashXBlockInPlace.read(text, maximumDepth: 126, readsDestination: false)
            #expect((whole == nil) == (partial == nil), "\(text)")
            guard let whole, let partial else { return false }
            #expect(partial.id == whole.id, "\(text)")
            #expect(partial.buttons == whole.buttons, "\(text)")
            #expect(partial.fields.clickAction == whole.fields.clickAction, "\(text)")
            #expect(partial.fields.url == nil && partial.fields.screenName == nil, "\(text)")
            return whole.fields.url != nil || whole.fields.screenName != nil
        }
        var generator = DashXBlockGenerator(seed: 0xDA5F_0004)
        var withURLOrName = 0
        for round in 0..<8_000 {
            let plain = generator.block()
            if expectSameTaking(round.isMultiple(of: 2) ? plain : generator.mutate(plain)) { withURLOrName += 1 }
        }
        #expect(withURLOrName > 200, "\(withURLOrName) taken with a URL or a screen name")
        // URLs and names the whole reading declines, trims to nothing or takes, written plainly.
        let values = [
            #"" https://a.example/ ""#, #""https://a.example/\n""#, #""  ""#, #""""#, #""https://a.example/""#, "null", "7",
            #""caf\u00e9""#, "\"caf\u{E9}\"",
        ]
        for value in values {
            for key in ["url", "screen_name"] {
                _ = expectSameTaking(#"{"id":"n","title":"t","body":"b",""# + key + #"":"# + value + "}")
            }
        }
    }

    @Test func depthLimitsReadTheSameBothWays() {
        // Screen data in place and held as JSON text (read under the limit counted from where
        // the string is), with an unread key nesting as deep as the buttons.
        let texts = [
            #"""
            {"id":"n","title":"t","body":"b","screen_name":"S","screen_data":{"k":"v"},"extra":{"a":[{"b":1}]},
             "action_buttons":[{"identifier":"x","label":"X","screenName":"T","screenData":{"q":"r"}}]}
            """#,
            #"""
            {"id":"n","title":"t","body":"b","screen_name":"S","screen_data":"{\"k\":\"v\"}","extra":{"a":[{"b":1}]},
             "action_buttons":[{"identifier":"x","label":"X","screenName":"T","screenData":"{\"q\":\"r\"}"}]}
            """#,
            #"{"id":"n","title":"t","body":"b","screen_name":"S","screen_data":"{\"k\":\"v\"}"}"#,
        ]
        var readAt: [[Int]] = []
        for text in texts {
            var depths: [Int] = []
            for maxDepth in 1...10 {
                for action in [nil, "x"]
                where Self.expectSameBothWays(Self.notification(block: text, action: action), limits: Limits(maxDepth: maxDepth)) {
                    depths.append(maxDepth)
                }
            }
            readAt.append(Array(Set(depths)).sorted())
        }
        // The first two nest 4 levels below `userInfo` (at depth 2), in place or held: read
        // in place from 6 on; the third's held object sits at depth 4.
        #expect(readAt == [Array(6...10), Array(6...10), Array(4...10)])
    }

    @Test func deepAndLargeBlocksReadTheSameBothWays() {
        // An unread key nesting to the limit and past it, under the default and the highest
        // limits, and a block with 50,000 unread members: the scanner's skipping recurses once
        // a level, no deeper than the limit, and reads each member once.
        func block(nesting levels: Int) -> String {
            let deep = String(repeating: "[", count: levels) + String(repeating: "]", count: levels)
            return #"{"id":"n","title":"t","body":"b","url":"https://a.example/","extra":"# + deep + "}"
        }
        // The block is level 1 below `userInfo` (depth 2): an array at level `k` of the block is
        // at depth 2 + k, so `extra` may nest `maxDepth − 3` levels.
        for (maxDepth, levels, inPlace) in [(128, 125, true), (128, 126, false), (512, 509, true), (512, 510, false)] {
            let read = Self.expectSameBothWays(Self.notification(block: block(nesting: levels)), limits: Limits(maxDepth: maxDepth))
            #expect(read == inPlace, "maxDepth \(maxDepth), \(levels) levels")
        }
        let members = (0..<50_000).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
        let large = #"{"id":"n","title":"t","body":"b","url":"https://a.example/","# + members + "}"
        #expect(Self.expectSameBothWays(Self.notification(block: large)))
    }

    @Test func repeatedKeysReadTheSameBothWays() {
        // The reference keeps a repeated key's last value at its first position.
        let blocks = [
            #"{"id":"a","title":"t","body":"b","url":"https://a.example/","url":"https://b.example/","id":"z"}"#,
            #"{"id":"a","title":"t","body":"b","screen_name":"S","screen_data":{"k":"1","j":"2","k":"3"}}"#,
            #"{"id":"a","title":"t","body":"b","action_buttons":[{"identifier":"x","label":"X","identifier":"y","url":"https://c.example/"}]}"#,
            #"{"id":"a","title":"t","body":"b","action_buttons":[],"action_buttons":[{"identifier":"y","label":"Y"}]}"#,
        ]
        for text in blocks {
            for action in [nil, "x", "y"] { Self.expectSameBothWays(Self.notification(block: text, action: action)) }
        }
    }

    @Test func largeParameterObjectsAreLeftToTheReference() {
        // Past 16 keys the fast path declines (its check for repeated keys stays linear).
        for count in [15, 16, 17, 2_000] {
            let members = (0..<count).map { #""k\#($0)":"v""# }.joined(separator: ",")
            let text = #"{"id":"n","title":"t","body":"b","screen_name":"S","screen_data":{"# + members + "}}"
            let inPlace = Self.expectSameBothWays(Self.notification(block: text))
            #expect(inPlace == (count <= JSONObject.indexThreshold), "\(count) keys")
        }
    }
}

/// Random DashX blocks as JSON text: every key the adapter reads, in both conventions, and
/// unknown ones, each with a value of a kind picked from those the fields take and those they
/// do not, with whitespace, escapes, repeated keys and a broken byte now and then.
struct DashXBlockGenerator {
    private var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    private mutating func below(_ n: Int) -> Int { n <= 1 ? 0 : Int(random.next() % UInt64(n)) }
    private mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    private mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    /// String values as JSON text: plain, blank, padded, non-ASCII, escaped (valid and not).
    static let strings = [
        #""OrderDetail""#, #""https://shop.example.com/t/1""#, #"" https://shop.example.com/t/1 ""#, #""""#, #""  ""#,
        #""tel:+123""#, #""café 📦""#, #""a\"b""#, #""caf\u00e9""#, #""\ud83d\udce6""#, #""\ud83d""#, #""\udce6x""#,
        #""\/deals""#, #""tab\there""#, #""\x""#, "\"bad\u{01}\"", #""true""#, #""false""#, #""TRUE""#, #""1""#,
        #""{\"orderId\":\"7\"}""#, #""[{\"identifier\":\"b1\",\"label\":\"B\"}]""#, #""\u0000""#, #""view""#,
    ]

    /// Values of other kinds as JSON text, valid and not.
    static let others = [
        "null", "true", "false", "0", "-1.5e3", "42", "01", "1.", "-", "nul", "tru", "{}", "[]", #"{"a":"b"}"#,
        #"{"orderId":"7421","page":"2"}"#, #"{"n":1}"#, #"{"a":"b","a":"c"}"#, #"{"z":null}"#, #"[1,2]"#, #"{"a":[{"b":{}}]}"#,
        #"{"a":1,}"#, "[1,]", #"{"a" 1}"#, "{", "[",
    ]

    static let topKeys = [
        "id", "title", "body", "image", "interruption_level", "url", "screen_name", "click_action", "screen_data",
        "rich_landing", "action_buttons", "screenName", "screenData", "richLanding", "clickAction", "actionButtons",
        "campaign", "extra", "i\\u0064",
    ]
    static let buttonKeys = [
        "identifier", "label", "icon", "url", "screenName", "clickAction", "screenData", "richLanding", "screen_name",
        "screen_data", "rich_landing", "click_action", "other",
    ]

    private mutating func whitespace() -> String {
        chance(85) ? "" : pick([" ", "\n", "\t ", "\r\n  "])
    }

    private mutating func scalarValue() -> String {
        if plain { return pick(Self.plainStrings) }
        return chance(70) ? pick(Self.strings) : pick(Self.others)
    }

    private mutating func value(forKey key: String) -> String {
        switch key {
        case "action_buttons", "actionButtons":
            if chance(80) { return buttons() }
            return scalarValue()
        case "screen_data", "screenData":
            if plain || chance(60) {
                return pick([
                    #"{"orderId":"7421"}"#, #"{"orderId":"7421","page":"2"}"#, #"{"k":"1","k":"2"}"#, "{}", "null",
                    #"{"k":"caf\u00e9"}"#, #""{\"orderId\":\"7421\"}""#, #""{\"k\":1}""#, #""null""#, #""[]""#, #""""#,
                    #""{\"a\":{\"b\":\"c\"}}""#, #""{\"k\":\"v\"} x""#, #"" {\"k\":\"\\u00e9\"} ""#,
                ])
            }
            return chance(50) ? pick(Self.others) : scalarValue()
        case "rich_landing", "richLanding":
            if plain { return pick(["true", "false", "null", #""true""#, #""false""#]) }
            return pick(["true", "false", "null", #""true""#, #""false""#, #""yes""#, "1", #""True""#])
        case "title", "body", "id", "url", "screen_name", "identifier", "label", "screenName":
            // Mostly well typed: the fast path's own ground.
            return chance(75) ? pick(Self.strings.prefix(8).map { $0 }) : scalarValue()
        default:
            return scalarValue()
        }
    }

    /// Whether the block being made keeps to well-typed values and keys (half the blocks).
    private var plain = false

    /// The keys and values a well-typed block uses.
    static let plainTopKeys = ["image", "url", "screen_name", "click_action", "screen_data", "rich_landing", "action_buttons", "campaign"]
    static let plainButtonKeys = ["icon", "url", "screenName", "clickAction", "screenData", "richLanding", "other"]
    static let plainStrings = [
        #""OrderDetail""#, #""https://shop.example.com/t/1""#, #""""#, #""  ""#, #""café 📦""#, #""tel:+123""#,
        #""caf\u00e9 \ud83d\udce6""#, #""https:\/\/shop.example.com\/t\/2""#,
    ]

    private mutating func object(keys: [String], required: [String]) -> String {
        var chosen = required.filter { _ in plain || chance(92) }
        for key in keys where !chosen.contains(key) && chance(plain ? 40 : 30) { chosen.append(key) }
        if chance(8), let again = chosen.randomElement(using: &random) { chosen.append(again) }
        chosen.shuffle(using: &random)
        let members = chosen.map { key in
            "\(whitespace())\"\(key)\"\(whitespace()):\(whitespace())\(value(forKey: key))\(whitespace())"
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    private mutating func buttons() -> String {
        let count = below(4)
        let elements = (0..<count).map { _ in
            plain || chance(90)
                ? object(keys: plain ? Self.plainButtonKeys : Self.buttonKeys, required: ["identifier", "label"]) : scalarValue()
        }
        return "[" + elements.joined(separator: ",") + "]"
    }

    /// One block's JSON text.
    mutating func block() -> String {
        plain = chance(50)
        return whitespace() + object(keys: plain ? Self.plainTopKeys : Self.topKeys, required: ["id", "title", "body"]) + whitespace()
    }

    /// A notification action: a tap, a dismiss, the default action or a button's identifier.
    mutating func action() -> String? {
        pick([nil, "com.apple.UNNotificationDismissActionIdentifier", "com.apple.UNNotificationDefaultActionIdentifier", "view", "b1", "x"])
    }

    /// A `limits.maxDepth`: mostly the default, sometimes one that cuts the block.
    mutating func maxDepth() -> Int {
        chance(70) ? 128 : 1 + below(9)
    }

    /// `text` with one scalar deleted, replaced or inserted (text stays valid UTF-8).
    mutating func mutate(_ text: String) -> String {
        var scalars = Array(text.unicodeScalars)
        guard !scalars.isEmpty else { return text }
        let at = below(scalars.count)
        let noise: [Unicode.Scalar] = ["\\", "\"", ",", "}", "]", "{", "[", ":", "0", "n", "\u{01}", " ", "é", "u", "/"]
        switch below(3) {
        case 0: scalars.remove(at: at)
        case 1: scalars[at] = pick(noise)
        default: scalars.insert(pick(noise), at: at)
        }
        var result = ""
        result.unicodeScalars.append(contentsOf: scalars)
        return result
    }
}

/// `PlainJSONScanner` takes only what `JSONParser` takes: on generated JSON, whole and broken,
/// under several depth limits, whatever the scanner reads through to the end the parser
/// parses.
@Suite struct PlainJSONScannerTests {
    private static func scans(_ text: String, maximumDepth: Int) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard var scanner = PlainJSONScanner(bytes, maximumDepth: maximumDepth) else { return false }
            return scanner.skipValue(depth: 0) && scanner.isAtEnd()
        }
    }

    private static func parses(_ text: String, maximumDepth: Int) -> Bool {
        (try? JSONParser(maximumDepth: maximumDepth).parse(text)) != nil
    }

    @Test func neverTakesWhatTheParserRefuses() {
        var values = HostileJSON(seed: 0x5CA9_0001)
        var breaker = DashXBlockGenerator(seed: 0x5CA9_0002)
        var taken = 0
        var checked = 0
        for i in 0..<20_000 {
            var text = values.value(depth: 5).jsonString()
            if i % 2 == 1 { text = breaker.mutate(text) }
            for maximumDepth in [1, 2, 3, 512] {
                checked += 1
                guard Self.scans(text, maximumDepth: maximumDepth) else { continue }
                taken += 1
                #expect(Self.parses(text, maximumDepth: maximumDepth), "depth \(maximumDepth): \(text.prefix(300))")
            }
        }
        // Most whole values are taken: the check is not vacuous.
        #expect(taken > checked / 4, "\(taken) of \(checked) taken")
    }

    @Test func keysAreFoundByEveryByte() {
        // Every length from 0 to 30 bytes (past the 24 held as words), ASCII and not.
        let keys = (0...30).map { String(repeating: "k", count: $0) } + ["é", "éé", "interruption_level", "action_buttons"]
        let table = PlainJSONScanner.Keys(keys)
        func index(_ key: String) -> Int? {
            var key = key
            return key.withUTF8 { table.index(of: $0) }
        }
        for (i, key) in keys.enumerated() {
            #expect(index(key) == i, "\(key)")
            // One byte changed anywhere is another key.
            var bytes = Array(key.utf8)
            for position in bytes.indices {
                let original = bytes[position]
                bytes[position] = original == UInt8(ascii: "k") ? UInt8(ascii: "j") : UInt8(ascii: "k")
                #expect(index(String(decoding: bytes, as: UTF8.self)) == nil, "\(key) changed at \(position)")
                bytes[position] = original
            }
        }
        #expect(index("K") == nil)
        #expect(index("interruption_levels") == nil)
    }

    /// A table answers what a comparison of bytes with each of its keys in order answers —
    /// the first position of an equal key — for tables of 1 to 200 keys, with repeated keys,
    /// keys of every length to 30 bytes (held as words to 24), non-ASCII keys, and lookups of
    /// the keys, of keys one byte away and of keys the table does not have.
    @Test func everyTableAnswersAsAComparisonInOrder() {
        var random = SplitMix64(seed: 0x5CA9_0010)
        let alphabet = Array("abcdeé_.Kk0".utf8)
        func key() -> [UInt8] {
            let length = random.below(4) == 0 ? random.below(31) : 1 + random.below(12)
            let bytes = (0..<length).map { _ in alphabet[random.below(alphabet.count)] }
            // Valid UTF-8, as a parser gives keys: a lone byte of `é` becomes U+FFFD.
            return Array(String(decoding: bytes, as: UTF8.self).utf8)
        }
        func expected(_ keys: [[UInt8]], _ probe: [UInt8]) -> Int? { keys.firstIndex(of: probe) }
        var probes = 0
        for size in [1, 2, 3, 5, 8, 13, 20, 30, 50, 90, 126, 127, 128, 200] {
            for _ in 0..<(size > 60 ? 2 : 20) {
                var keys = (0..<size).map { _ in key() }
                // Repeated keys: the first position is the answer.
                if size > 2, random.below(2) == 0 { keys[random.below(size)] = keys[random.below(size)] }
                let table = PlainJSONScanner.Keys(keys.map { String(decoding: $0, as: UTF8.self) })
                var lookups = keys + (0..<size).map { _ in key() }
                for original in keys {
                    guard !original.isEmpty else { continue }
                    var changed = original
                    let position = random.below(changed.count)
                    changed[position] = changed[position] == UInt8(ascii: "a") ? UInt8(ascii: "b") : UInt8(ascii: "a")
                    if String(validating: changed, as: UTF8.self) != nil { lookups.append(changed) }
                }
                for probe in lookups {
                    probes += 1
                    let found = probe.withUnsafeBufferPointer { table.index(of: $0) }
                    #expect(found == expected(keys, probe), "\(String(decoding: probe, as: UTF8.self)) in \(size) keys")
                }
            }
        }
        #expect(probes > 10_000)
    }

    @Test func decodesStringsAsTheParserDoes() {
        var values = HostileJSON(seed: 0x5CA9_0003)
        var breaker = DashXBlockGenerator(seed: 0x5CA9_0004)
        var decoded = 0
        let samples =
            (0..<5_000).map { _ in JSONValue.string(values.string()).jsonString() }
            + DashXBlockGenerator.strings + [#""\ud83d\udce6\u00e9\n\t\"\\\/""#, #""\u0000""#, #""a\u00""#]
        for (i, text) in samples.enumerated() {
            let text = i % 3 == 2 ? breaker.mutate(text) : text
            var copy = text
            let value = copy.withUTF8 { bytes -> String? in
                guard var scanner = PlainJSONScanner(bytes, maximumDepth: 1) else { return nil }
                guard let value = scanner.stringValue(), scanner.isAtEnd() else { return nil }
                return value
            }
            guard let value else { continue }
            decoded += 1
            let parsed = try? JSONParser().parse(text)
            #expect(parsed == .string(value), "\(text)")
            #expect(parsed?.stringValue.map { Array($0.utf8) } == Array(value.utf8), "\(text)")
        }
        #expect(decoded > 3_000)
    }

    @Test func takesValidJSONAndRefusesTheRest() {
        let valid = [
            "0", "-0", "1.5e+3", "-12.0E-1", "true", "false", "null", #""""#, #""a\"\\\/\b\f\n\r\tz""#, #""\u00e9\ud83d\udce6""#,
            " [ ] ", "{}", #"{"a":[1,{"b":null}],"c":"d"}"#, "\t\r\n[1 , 2]\n", #""café 📦""#,
        ]
        for text in valid {
            #expect(Self.scans(text, maximumDepth: 512), "\(text)")
            #expect(Self.parses(text, maximumDepth: 512), "\(text)")
        }
        // Refused by both (or, for the lone surrogates, left to the parser by the scanner).
        let refused = [
            "", " ", "01", "1.", "1e", "-", "+1", ".5", "nul", "tru", "nulll", "[1,]", #"{"a":1,}"#, #"{"a" 1}"#, "[", "{",
            #"{"a":}"#, "[,1]", #"{,"a":1}"#, #""\x""#, #""\u12""#, #""\ud800""#, #""\udc00""#, #""\ud800\u0041""#,
            "\"a\u{01}\"", "\u{0B}1", "[1]]", #"{"a":1}}"#, #""abc"#, "1 2",
        ]
        for text in refused { #expect(!Self.scans(text, maximumDepth: 512), "\(text)") }
        // Depth is counted as the parser counts it: the root container is level 1.
        #expect(Self.scans("[[1]]", maximumDepth: 2))
        #expect(!Self.scans("[[1]]", maximumDepth: 1))
        #expect(Self.scans("1", maximumDepth: 0))
        #expect(!Self.scans("{}", maximumDepth: 0))
    }
}
