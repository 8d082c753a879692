import AdobeAdapter
import BirdAdapter
import DashXAdapter
import Foundation
import TapRoute
import TapRouteAdapters
import TapRouteConformance
import TapRouteTestSupport
import TapRouteYAML
import TapTalkAdapter
import Testing

/// `limits.maxDepth` bounds the JSON a record carries inside strings as well as the record
/// itself: every adapter reads such a string under the limit counted from the record's root,
/// and a value that nests deeper is dropped with the warning that position gives for
/// invalid JSON (Bird keeps the text as `{"value": …}`, as for any payload that does not
/// parse), so that the Interaction never nests deeper than the limit.
@Suite struct EmbeddedDepthTests {
    static let maxDepth = 8

    /// The repository's configuration with `limits.maxDepth: 8`.
    static let registry: AdapterRegistry = {
        var configuration = try! YAMLConfiguration.parse(yaml: DefaultConfiguration.yaml)
        configuration.limits.maxDepth = maxDepth
        return try! AdapterRegistry(
            configuration: configuration,
            adapterTypes: AdapterRegistry.builtInAdapterTypes,
            definitions: AdapterRegistry.builtInDefinitions()
        )
    }()

    /// The nesting depth of a value: 0 for a scalar, 1 + the deepest member for a container.
    static func depth(_ value: JSONValue) -> Int {
        switch value {
        case .array(let elements): 1 + (elements.map(depth).max() ?? 0)
        case .object(let object): 1 + (object.map { depth($0.value) }.max() ?? 0)
        default: 0
        }
    }

    /// JSON text nesting `levels` objects: `{"a":{"a":…1…}}`.
    static func deepObject(_ levels: Int) -> String {
        String(repeating: #"{"a":"#, count: levels) + "1" + String(repeating: "}", count: levels)
    }

    /// JSON text nesting `levels` arrays: `[[…1…]]`.
    static func deepArray(_ levels: Int) -> String {
        String(repeating: "[", count: levels) + "1" + String(repeating: "]", count: levels)
    }

    /// The record through the registry as the CLI runs it: parsed under the limits, then
    /// normalized.
    static func run(_ record: JSONValue) -> Result<Interaction, NormalizationError> {
        let bytes = Array(record.jsonString().utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(NormalizationError) in try registry.normalize(record: buffer) }
        }
    }

    static func string(_ value: JSONValue) -> JSONValue { .string(value.jsonString()) }

    /// One record per position where an adapter decodes JSON held in a string, with that
    /// string nesting 300 levels, and the warning code the position gives.
    static let deepRecords: [(name: String, record: JSONValue, code: Warning.Code)] = {
        let deep = deepObject(300)
        let deepList = "[" + deep + "]"
        return [
            (
                "bird payload",
                ["kind": "vendorEvent", "event": ["type": "Tap", "action": ["type": "OPEN_APP"], "payload": .string(deep)]],
                .payloadNotJSON
            ),
            (
                "adobe _xdm",
                ["kind": "notification", "userInfo": ["adb_uri": "https://example.com/x", "_xdm": .string(deep)]],
                .noTrackingData
            ),
            (
                "adobe adb_act",
                [
                    "kind": "notification",
                    "userInfo": ["adb_uri": "https://example.com/x", "_xdm": ["a": 1], "adb_act": .string(deepList)],
                ],
                .invalidActionButtons
            ),
            ("dashx block", ["kind": "notification", "userInfo": ["dashx": .string(deep)]], .dashxUnreadable),
            (
                "dashx action_buttons",
                ["kind": "notification", "userInfo": ["dashx": string(["id": "1", "action_buttons": .string(deepList)])]],
                .invalidActionButtons
            ),
            (
                "dashx screen_data",
                [
                    "kind": "notification",
                    "userInfo": ["dashx": string(["id": "1", "screen_name": "S", "screen_data": .string(deep)])],
                ],
                .invalidScreenData
            ),
            (
                "dashx button screenData",
                [
                    "kind": "notification", "action": "b",
                    "userInfo": [
                        "dashx": string([
                            "id": "1",
                            "action_buttons": string([["identifier": "b", "label": "B", "screenName": "S", "screenData": .string(deep)]]),
                        ])
                    ],
                ],
                .invalidScreenData
            ),
            (
                "taptalk android body",
                ["kind": "notification", "userInfo": ["identifier": "io.taptalk.TapTalk", "body": .string(deep)]],
                .missingMessage
            ),
        ]
    }()

    @Test(arguments: deepRecords.map(\.name))
    func aTooDeepStringIsDroppedWithTheWarningOfItsPosition(_ name: String) throws {
        let entry = try #require(Self.deepRecords.first { $0.name == name })
        let interaction = try Self.run(entry.record).get()
        let output = interaction.jsonValue
        #expect(Self.depth(output) <= Self.maxDepth, "\(name): \(output.jsonString())")
        let warning = try #require(interaction.warnings.first { $0.code == entry.code }, "\(name): \(interaction.warnings)")
        #expect(warning.message.contains("limits.maxDepth (8)"), "\(name): \(warning.message)")
    }

    /// The limit is not tighter than promised: JSON in a `userInfo` string (depth 2) may
    /// nest `maxDepth − 2` levels, and is decoded; one more level is not.
    @Test func aStringMayNestUpToTheLimitCountedFromTheRecordsRoot() throws {
        func birdPayload(_ levels: Int) throws -> Interaction {
            let record: JSONValue = [
                "kind": "vendorEvent",
                "event": ["type": "Tap", "action": ["type": "OPEN_APP"], "payload": .string(Self.deepObject(levels))],
            ]
            return try Self.run(record).get()
        }
        let fits = try birdPayload(Self.maxDepth - Limits.payloadDepth)
        #expect(fits.payload["a"]?.objectValue != nil)
        #expect(!fits.warnings.contains { $0.code == .payloadNotJSON })
        #expect(Self.depth(fits.jsonValue) <= Self.maxDepth)
        let tooDeep = try birdPayload(Self.maxDepth - Limits.payloadDepth + 1)
        #expect(tooDeep.payload == ["value": .string(Self.deepObject(Self.maxDepth - Limits.payloadDepth + 1))])
        #expect(tooDeep.warnings.contains { $0.code == .payloadNotJSON })

        var limits = Limits(maxDepth: 8)
        #expect(throws: Never.self) { try limits.parseEmbeddedJSON(Self.deepArray(6), heldAt: 2) }
        #expect(
            performing: { try limits.parseEmbeddedJSON(Self.deepArray(7), heldAt: 2) },
            throws: { error in
                (error as? JSONParseError)?.kind == .tooDeep
            }
        )
        limits.maxDepth = 2
        #expect(try limits.parseEmbeddedJSON("\"text\"", heldAt: 3) == "text")
    }

    /// Every string of every adapter vector's input, in turn, replaced by JSON text nesting
    /// 300 levels of objects or of arrays — inside JSON strings too (a DashX block's fields):
    /// each record gives an Interaction nesting at most `maxDepth`, or an error, never a
    /// crash.
    @Test func noStringInAnyVectorMakesTheOutputNestDeeperThanTheLimit() throws {
        var inputs: [JSONValue] = []
        for vendor in ["Adobe", "Bird", "DashX", "TapTalk"] {
            let vectors = try ConformanceVectors.directory(TestPaths.path("adapters/\(vendor)/Vectors"))
            inputs += vectors.vectors.map(\.input)
        }
        #expect(inputs.count > 50)
        var records = 0
        var interactions = 0
        for input in inputs {
            for replacement in [Self.deepObject(300), Self.deepArray(300)] {
                for variant in Self.variants(of: input, replacing: replacement) {
                    records += 1
                    guard case .success(let interaction) = Self.run(variant) else { continue }
                    interactions += 1
                    let depth = Self.depth(interaction.jsonValue)
                    #expect(depth <= Self.maxDepth, "\(variant.jsonString()) → \(interaction.jsonString())")
                }
            }
        }
        #expect(records > 500)
        #expect(interactions > records / 2)
    }

    /// `value` with one string replaced by `replacement`, for each string in it, including
    /// those inside strings that hold JSON.
    static func variants(of value: JSONValue, replacing replacement: String) -> [JSONValue] {
        switch value {
        case .string(let text):
            var out: [JSONValue] = [.string(replacement)]
            if let inner = try? JSONValue(parsing: text), inner.objectValue != nil || inner.arrayValue != nil {
                out += variants(of: inner, replacing: replacement).map { .string($0.jsonString()) }
            }
            return out
        case .array(let elements):
            var out: [JSONValue] = []
            for (i, element) in elements.enumerated() {
                for variant in variants(of: element, replacing: replacement) {
                    var copy = elements
                    copy[i] = variant
                    out.append(.array(copy))
                }
            }
            return out
        case .object(let object):
            var out: [JSONValue] = []
            for (key, member) in object {
                for variant in variants(of: member, replacing: replacement) {
                    var copy = object
                    copy[key] = variant
                    out.append(.object(copy))
                }
            }
            return out
        default:
            return []
        }
    }
}
