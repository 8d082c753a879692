import DashXAdapter
import TapRoute
import TapTalkAdapter
import Testing

/// `limits.maxDepth` bounds every JSON value the DashX and TapTalk adapters decode from a
/// string, counted from the record's root: a string held at depth `d` may hold JSON nesting
/// `maxDepth − d` levels, which is decoded; one level more is refused with the warning the
/// adapter documents for that position. Checked with the adapter alone
/// (`read(_:limits:)`) and through a registry built with the same limits.
@Suite struct EmbeddedDepthDashXTapTalkTests {
    static let maxDepth = 10
    static let limits = Limits(maxDepth: maxDepth)

    /// DashX and TapTalk, every adapter type on, with `limits.maxDepth` 10.
    static let registry: AdapterRegistry = {
        let configuration = Configuration(enablesEveryAdapter: true, limits: limits)
        return try! AdapterRegistry(configuration: configuration, adapterTypes: [DashXAdapter.self, TapTalkAdapter.self])
    }()

    /// A value nesting `levels` objects: `{"a":{"a":1}}` for 2; `1` for 0.
    static func nested(_ levels: Int) -> JSONValue {
        levels == 0 ? 1 : ["a": nested(levels - 1)]
    }

    /// `value` as JSON text in a string.
    static func string(_ value: JSONValue) -> JSONValue { .string(value.jsonString()) }

    /// A DashX notification whose `dashx` string holds `block`.
    static func dashx(_ block: JSONValue, action: String? = nil) -> InputEvent {
        .notification(userInfo: ["dashx": string(block)], action: action)
    }

    /// One place where an adapter decodes JSON held in a string.
    struct Position: Sendable {
        /// The name, for the test's arguments.
        var name: String
        /// The depth of the object or array that holds the string.
        var heldAt: Int
        /// An input whose string there holds JSON nesting exactly `levels` levels.
        var input: @Sendable (_ levels: Int) -> InputEvent
        /// The warning the adapter gives when the string is refused.
        var code: Warning.Code
        /// Whether the value held in the string was decoded and used.
        var decoded: @Sendable (_ destination: Destination, _ buttons: [Interaction.Button]) -> Bool
    }

    /// Whether `destination` is a screen with at least one parameter.
    static func hasParameters(_ destination: Destination) -> Bool {
        if case .screen(_, let parameters, _) = destination { return !parameters.isEmpty }
        return false
    }

    static let positions: [Position] = [
        Position(
            name: "dashx block",
            heldAt: Limits.payloadDepth,
            input: { levels in
                dashx(["id": "1", "title": "T", "body": "B", "url": "https://example.com/a", "extra": nested(levels - 1)])
            },
            code: .dashxUnreadable,
            decoded: { destination, _ in destination == .url("https://example.com/a", target: .external) }
        ),
        Position(
            name: "dashx action_buttons",
            heldAt: Limits.payloadDepth + 1,
            input: { levels in
                let buttons: JSONValue = [
                    ["identifier": "b", "label": "B", "url": "https://example.com/b", "extra": nested(levels - 2)]
                ]
                return dashx(["id": "1", "title": "T", "body": "B", "action_buttons": string(buttons)])
            },
            code: .invalidActionButtons,
            decoded: { _, buttons in buttons.map(\.id) == ["b"] }
        ),
        Position(
            name: "dashx screen_data",
            heldAt: Limits.payloadDepth + 1,
            input: { levels in
                dashx(["id": "1", "title": "T", "body": "B", "screen_name": "S", "screen_data": string(["k": nested(levels - 1)])])
            },
            code: .invalidScreenData,
            decoded: { destination, _ in hasParameters(destination) }
        ),
        Position(
            name: "dashx button screenData",
            heldAt: Limits.payloadDepth + 3,
            input: { levels in
                let button: JSONValue = [
                    "identifier": "b", "label": "B", "screenName": "S", "screenData": string(["k": nested(levels - 1)]),
                ]
                return dashx(["id": "1", "title": "T", "body": "B", "action_buttons": [button]], action: "b")
            },
            code: .invalidScreenData,
            decoded: { destination, _ in hasParameters(destination) }
        ),
        Position(
            name: "dashx button screenData in an action_buttons string",
            heldAt: Limits.payloadDepth + 3,
            input: { levels in
                let button: JSONValue = [
                    "identifier": "b", "label": "B", "screenName": "S", "screenData": string(["k": nested(levels - 1)]),
                ]
                return dashx(["id": "1", "title": "T", "body": "B", "action_buttons": string([button])], action: "b")
            },
            code: .invalidScreenData,
            decoded: { destination, _ in hasParameters(destination) }
        ),
        Position(
            name: "taptalk android body",
            heldAt: Limits.payloadDepth,
            input: { levels in
                let message: JSONValue = ["room": ["roomID": "r1"], "extra": nested(levels - 1)]
                return .notification(userInfo: ["identifier": "io.taptalk.TapTalk", "body": string(message)])
            },
            code: .missingMessage,
            decoded: { destination, _ in destination == .screen(name: "chatRoom", parameters: ["roomID": "r1"]) }
        ),
    ]

    /// The adapter that reads `input`.
    static func adapter(for input: InputEvent) -> any PayloadAdapter {
        DashXAdapter().recognizes(input) ? DashXAdapter() : TapTalkAdapter()
    }

    @Test(arguments: positions.map(\.name))
    func jsonInAStringMayNestExactlyAsDeepAsTheLimitAllows(_ name: String) throws {
        let position = try #require(Self.positions.first { $0.name == name })
        let input = position.input(Self.maxDepth - position.heldAt)
        let adapter = Self.adapter(for: input)
        #expect(adapter.recognizes(input))

        let result = try adapter.read(input, limits: Self.limits)
        #expect(position.decoded(result.destination, result.buttons), "\(name): \(result)")
        #expect(!result.warnings.contains { $0.code == position.code }, "\(name): \(result.warnings)")
        #expect(!result.warnings.contains { $0.message.contains("limits.maxDepth") }, "\(name): \(result.warnings)")

        let interaction = try Self.registry.normalize(input)
        #expect(position.decoded(interaction.destination, interaction.buttons), "\(name): \(interaction.jsonString())")
        #expect(!interaction.warnings.contains { $0.code == position.code }, "\(name): \(interaction.warnings)")
    }

    @Test(arguments: positions.map(\.name))
    func oneLevelMoreIsRefusedWithThePositionsWarning(_ name: String) throws {
        let position = try #require(Self.positions.first { $0.name == name })
        let input = position.input(Self.maxDepth - position.heldAt + 1)
        let adapter = Self.adapter(for: input)
        let clause = Self.limits.embeddedDepthClause(heldAt: position.heldAt)
        #expect(clause.hasSuffix("(\(Self.maxDepth - position.heldAt) levels)"))

        let result = try adapter.read(input, limits: Self.limits)
        #expect(!position.decoded(result.destination, result.buttons), "\(name): \(result)")
        let warning = try #require(result.warnings.first { $0.code == position.code }, "\(name): \(result.warnings)")
        #expect(warning.message.contains(" \(clause)"), "\(name): \(warning.message)")

        let interaction = try Self.registry.normalize(input)
        #expect(!position.decoded(interaction.destination, interaction.buttons), "\(name): \(interaction.jsonString())")
        #expect(interaction.warnings.contains(warning), "\(name): \(interaction.warnings)")

        // The same input under the default limits is decoded: the limit refused it, nothing else.
        let unlimited = try adapter.read(input)
        #expect(position.decoded(unlimited.destination, unlimited.buttons), "\(name): \(unlimited)")
        #expect(!unlimited.warnings.contains { $0.code == position.code }, "\(name): \(unlimited.warnings)")
    }
}
