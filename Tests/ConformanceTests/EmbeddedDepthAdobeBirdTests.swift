import AdobeAdapter
import BirdAdapter
import TapRoute
import Testing

/// `limits.maxDepth` bounds every JSON value the Adobe and Bird adapters decode from a string
/// (Adobe's `_xdm` and `adb_act`, Bird's `payload`), counted from the record's root: held in
/// a `userInfo` or `event` string (depth ``Limits/payloadDepth``), the value may nest
/// `maxDepth − 2` levels and is decoded; one level more is refused with the warning the
/// adapter documents for that field. The limit comes from the registry's configuration
/// through the ``PayloadReader`` (the adapters keep no limits of their own), so each case runs
/// through a registry as well as through `read(_:limits:)`.
@Suite struct EmbeddedDepthAdobeBirdTests {
    /// Several limits, so that no constant in an adapter can pass by chance.
    static let maxDepths = [4, 7, 12]

    /// JSON text nesting `levels` objects: `{"a":{"a":…1…}}` (`1` for 0 levels).
    static func deepObject(_ levels: Int) -> String {
        String(repeating: #"{"a":"#, count: levels) + "1" + String(repeating: "}", count: levels)
    }

    /// JSON text of an `adb_act` list whose one button nests `levels` levels in all (the list
    /// and the button object are two of them; `levels` ≥ 2).
    static func buttonList(_ levels: Int) -> String {
        #"[{"label":"b","type":"DEEPLINK","uri":"https://example.com/b","x":"# + deepObject(levels - 2) + "}]"
    }

    /// The clause the warning of a too-deep string holds, written out.
    static func clause(_ maxDepth: Int) -> String {
        "nests deeper than limits.maxDepth (\(maxDepth)) allows at this depth (\(maxDepth - 2) levels)"
    }

    /// The levels a string held in `userInfo` or `event` may nest under `maxDepth`.
    static func allowed(_ maxDepth: Int) -> Int { maxDepth - Limits.payloadDepth }

    static func adobePush(xdm: String) -> InputEvent {
        .notification(userInfo: ["adb_uri": "https://example.com/x", "_xdm": .string(xdm)])
    }

    static func adobePush(buttons: String) -> InputEvent {
        .notification(userInfo: ["adb_uri": "https://example.com/x", "_xdm": ["a": 1], "adb_act": .string(buttons)])
    }

    static func birdTap(payload: String) -> InputEvent {
        InputEvent(.vendorEvent(["type": "Tap", "action": ["type": "OPEN_APP"], "payload": .string(payload)]))
    }

    /// What an input reads as, through the adapter alone and through a registry whose
    /// configuration sets the limit; both must agree on everything the adapter decides.
    struct Reading {
        var tracking: JSONObject
        var buttons: [Interaction.Button]
        var payload: JSONObject
        var warnings: [Warning]
    }

    static func readings(_ adapter: some PayloadAdapter, _ input: InputEvent, maxDepth: Int) throws -> [Reading] {
        let limits = Limits(maxDepth: maxDepth)
        let direct = try adapter.read(input, limits: limits)
        let registry = try AdapterRegistry(
            configuration: Configuration(enablesEveryAdapter: true, limits: limits),
            adapterTypes: [type(of: adapter)]
        )
        let interaction = try registry.normalize(input)
        return [
            Reading(tracking: direct.tracking, buttons: direct.buttons, payload: direct.payload, warnings: direct.warnings),
            Reading(
                tracking: interaction.tracking,
                buttons: interaction.buttons,
                payload: interaction.payload,
                warnings: interaction.warnings
            ),
        ]
    }

    @Test(arguments: maxDepths)
    func adobeXDMStringIsBoundedByMaxDepth(maxDepth: Int) throws {
        let fits = Self.deepObject(Self.allowed(maxDepth))
        for reading in try Self.readings(AdobeAdapter(), Self.adobePush(xdm: fits), maxDepth: maxDepth) {
            #expect(reading.tracking["_xdm"] == (try JSONValue(parsing: fits)))
            #expect(reading.warnings.map(\.code) == [.androidDiffers], "\(reading.warnings)")
        }
        let tooDeep = Self.deepObject(Self.allowed(maxDepth) + 1)
        for reading in try Self.readings(AdobeAdapter(), Self.adobePush(xdm: tooDeep), maxDepth: maxDepth) {
            #expect(reading.tracking["_xdm"] == nil)
            let warning = try #require(reading.warnings.first)
            #expect(reading.warnings.count == 1, "\(reading.warnings)")
            #expect(warning.code == .noTrackingData)
            #expect(warning.message.hasPrefix("_xdm is a JSON string that \(Self.clause(maxDepth)): "), "\(warning.message)")
        }
    }

    @Test(arguments: maxDepths)
    func adobeActionButtonsStringIsBoundedByMaxDepth(maxDepth: Int) throws {
        let fits = Self.buttonList(Self.allowed(maxDepth))
        for reading in try Self.readings(AdobeAdapter(), Self.adobePush(buttons: fits), maxDepth: maxDepth) {
            #expect(reading.buttons.map(\.id) == ["b"])
            #expect(!reading.warnings.contains { $0.code == .invalidActionButtons }, "\(reading.warnings)")
        }
        let tooDeep = Self.buttonList(Self.allowed(maxDepth) + 1)
        for reading in try Self.readings(AdobeAdapter(), Self.adobePush(buttons: tooDeep), maxDepth: maxDepth) {
            #expect(reading.buttons.isEmpty)
            let warnings = reading.warnings.filter { $0.code == .invalidActionButtons }
            #expect(
                warnings.map(\.message) == [
                    "adb_act is a JSON string that \(Self.clause(maxDepth)): no buttons are listed, as Adobe's Android SDK shows none"
                ]
            )
        }
    }

    @Test(arguments: maxDepths)
    func birdPayloadStringIsBoundedByMaxDepth(maxDepth: Int) throws {
        let fits = Self.deepObject(Self.allowed(maxDepth))
        for reading in try Self.readings(BirdAdapter(), Self.birdTap(payload: fits), maxDepth: maxDepth) {
            #expect(JSONValue.object(reading.payload) == (try JSONValue(parsing: fits)))
            #expect(reading.warnings.isEmpty, "\(reading.warnings)")
        }
        let tooDeep = Self.deepObject(Self.allowed(maxDepth) + 1)
        for reading in try Self.readings(BirdAdapter(), Self.birdTap(payload: tooDeep), maxDepth: maxDepth) {
            #expect(reading.payload == ["value": .string(tooDeep)])
            #expect(
                reading.warnings == [
                    Warning(
                        .payloadNotJSON,
                        "payload is a JSON string that \(Self.clause(maxDepth)); it is kept as {\"value\": …}"
                    )
                ]
            )
        }
    }

    /// A Bird payload that is not JSON keeps its text, and warns only when it starts (after
    /// JSON whitespace) like an object.
    @Test func birdPayloadThatDoesNotParseWarnsOnlyWhenItStartsLikeAnObject() throws {
        let cases: [(String, Bool)] = [
            ("{\"a\":", true), (" \t\r\n{oops", true), ("\u{00A0}{oops", false), ("[1,", false), ("oops {", false),
            ("", false), ("{\"a\":1} x", true),
        ]
        for (text, warns) in cases {
            let result = try BirdAdapter().read(Self.birdTap(payload: text))
            #expect(result.payload == ["value": .string(text)], "\(text)")
            #expect(result.warnings.map(\.code) == (warns ? [.payloadNotJSON] : []), "\(text)")
        }
        #expect(PayloadReader.firstJSONByte(" \n\t\r[") == UInt8(ascii: "["))
        #expect(PayloadReader.firstJSONByte(" \n\t\r") == nil)
        #expect(PayloadReader.firstJSONByte("\u{0B}{") == 0x0B)
    }
}
