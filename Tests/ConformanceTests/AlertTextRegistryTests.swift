import TapRouteAdapters
import TapRouteConformance
import TapRouteTestSupport
import TapRouteYAML
import Testing

@testable import TapRoute

/// A registry none of whose adapters reads the text of a notification's alert normalizes
/// records without building it (`AdapterRegistry.normalizingReader`, docs/performance.md,
/// the twenty-second round). What that promises: the same Interaction or the same error as
/// from the whole record, for every input; and any adapter that may read the text — one of
/// the app's own, or a definition whose paths or payload reach it — turns the shortcut off.
@Suite struct AlertTextRegistryTests {
    /// What a registry makes of a record: the Interaction's JSON, or the error's code,
    /// message and path.
    static func outcome(_ attempt: () throws(NormalizationError) -> Interaction) -> String {
        do throws(NormalizationError) {
            return try attempt().jsonValue.jsonString()
        } catch {
            return "\(error.code.rawValue): \(error.message) at \(error.path)"
        }
    }

    /// `record` normalized as the registry does and from the whole record, as bytes.
    static func bothWays(_ registry: AdapterRegistry, _ record: [UInt8]) -> (normalized: String, whole: String) {
        record.withUnsafeBufferPointer { bytes in
            (
                outcome { () throws(NormalizationError) in try registry.normalize(record: bytes) },
                outcome { () throws(NormalizationError) in try registry.normalize(json: registry.parse(record: bytes)) }
            )
        }
    }

    /// Alert texts, as the bytes between the quotes: ordinary, escaped, long, and each way
    /// a string is refused.
    static let texts: [[UInt8]] = [
        [], Array("Your order has shipped 🎉".utf8), Array(#"say \"hi\" \u00e9\ud83d\ude00"#.utf8),
        Array(String(repeating: "订单 ", count: 500).utf8), [0xFF], [0xE3, 0x81], Array(#"\ud800"#.utf8), Array(#"\q"#.utf8),
        [0x01],
    ]

    /// Every shipped vector's input as a record, and each notification's with its alert
    /// replaced by each text (as a string, and as an object's title and body), and its
    /// `userInfo` also given bare (without an envelope).
    static func records() throws -> [[UInt8]] {
        // Found by RegistryFuzzer: a bare userInfo (no `kind`) whose custom data holds a
        // `userInfo` with an alert, which CleverTap's payload keeps.
        var records: [[UInt8]] = [
            Array(
                #"{"wzrk_actskind":"notification","userInfo":{"aps":{"alert":"Hi"},"_":"a6c3d4e5-1b2c-4d5e-8f90-123456789abc","^d":"  campaigndemoapp://home \n"}}"#
                    .utf8
            ),
            Array(#"{"wzrk_acts":"[]","userInfo":{"aps":{"alert":{"title":"Hi"}}},"aps":{"alert":"Yo"}}"#.utf8),
        ]
        for vector in try ShippedVectors.all().vectors {
            records.append(Array(vector.input.jsonString().utf8))
            guard let input = try? InputEvent(json: vector.input), case .notification(let userInfo, _, _) = input.kind else { continue }
            records.append(Array(JSONValue.object(userInfo).jsonString().utf8))
            for text in texts {
                let marker = "\u{1}ALERT\u{1}"
                var aps = userInfo["aps"]?.objectValue ?? [:]
                for alert: JSONValue in [
                    .string(marker), ["title": .string(marker), "body": .string(marker), "loc-args": [.string(marker)]],
                ] {
                    aps["alert"] = alert
                    var withAlert = userInfo
                    withAlert["aps"] = .object(aps)
                    var envelope = input
                    envelope.kind = .notification(userInfo: withAlert, action: nil, origin: .remote)
                    // The text goes in as raw bytes: it may be what no JSON writer would write.
                    let quotedMarker = Array(JSONValue.string(marker).jsonString().utf8)
                    var record: [UInt8] = []
                    let written = Array(envelope.jsonValue.jsonString().utf8)
                    var i = 0
                    while i < written.count {
                        if written[i...].starts(with: quotedMarker) {
                            record += [UInt8(ascii: "\"")] + text + [UInt8(ascii: "\"")]
                            i += quotedMarker.count
                        } else {
                            record.append(written[i])
                            i += 1
                        }
                    }
                    records.append(record)
                }
            }
        }
        return records
    }

    @Test func everyRecordGivesWhatTheWholeRecordGives() throws {
        let registries = [
            ("built-in", try AdapterRegistry.builtIn()),
            (
                "app convention",
                try AdapterRegistry.builtIn(
                    configuration: YAMLConfiguration.load(contentsOf: TestPaths.path("examples/app-convention/config.yaml"))
                )
            ),
        ]
        let records = try Self.records()
        #expect(records.count > 2_000)
        for (name, registry) in registries {
            #expect(registry.normalizingReader.alertTextReadForKind, "\(name): the shortcut is off")
            var interactions = 0
            var refusals = 0
            for record in records {
                let (normalized, whole) = Self.bothWays(registry, record)
                #expect(normalized == whole, "\(name): \(String(decoding: record, as: UTF8.self))")
                if normalized.hasPrefix("{") { interactions += 1 }
                if normalized.hasPrefix("invalidJSON") { refusals += 1 }
            }
            // The app-convention example enables few adapters.
            #expect(
                interactions > (name == "built-in" ? 1_000 : 100) && refusals > 500,
                "\(name): \(interactions) interactions, \(refusals) refused"
            )
        }
    }

    /// A service's own limits, input line and default vendor
    /// (`normalize(record:limits:line:vendor:)`, which `taproute-server` uses): the same
    /// outcome as the whole record read under them, with that vendor set.
    @Test func underAServicesOwnLimitsLineAndVendor() throws {
        let registry = try AdapterRegistry.builtIn()
        let records = try Self.records() + [Array(#"{"kind":"notification","userInfo":{"aps":{"alert":"hi"}}"#.utf8)]
        let cases: [(Limits, Int, String?)] = [
            (registry.configuration.limits, 1, nil),
            (Limits(maxRecordBytes: 700, maxDepth: 5), 41, "dashx"),
            (Limits(maxRecordBytes: 1 << 16, maxDepth: 3), 7, "bird"),
        ]
        var seen: [String: Int] = [:]
        for record in records {
            for (limits, line, vendor) in cases {
                let (fast, whole) = record.withUnsafeBufferPointer { bytes in
                    (
                        Self.outcome { () throws(NormalizationError) in
                            try registry.normalize(record: bytes, limits: limits, line: line, vendor: vendor)
                        },
                        Self.outcome { () throws(NormalizationError) in
                            var event = try InputEvent(json: RecordReader(limits: limits).read(bytes, line: line))
                            if event.vendor == nil, let vendor { event.vendor = vendor }
                            return try registry.normalize(event)
                        }
                    )
                }
                #expect(fast == whole, "\(limits), line \(line), vendor \(vendor ?? "-"): \(String(decoding: record, as: UTF8.self))")
                let kind = fast.hasPrefix("{") ? "interaction" : String(fast.prefix { $0 != ":" })
                seen[kind, default: 0] += 1
            }
        }
        // The cases reach each outcome the limits and vendor can change.
        for kind in ["interaction", "limitExceeded", "invalidJSON", "unrecognized"] {
            #expect(seen[kind, default: 0] > 10, "\(kind): \(seen)")
        }
        // Positions are counted from the given line.
        let broken = Array(#"{"kind":"notification","userInfo":{"aps":{"alert":"hi"}}"#.utf8)
        let message = Self.outcome { () throws(NormalizationError) in
            try broken.withUnsafeBufferPointer { bytes throws(NormalizationError) in
                try registry.normalize(record: bytes, limits: registry.configuration.limits, line: 41)
            }
        }
        #expect(message.hasPrefix("invalidJSON") && message.contains("41"), "\(message)")
        // The text is skipped on this path too: an adapter that reads it while saying it
        // does not (which the conformance kit reports) gets it empty.
        var configuration = try YAMLConfiguration.parse(yaml: DefaultConfiguration.yaml)
        configuration.adapters.insert(AdapterSettings(id: "title"), at: 0)
        let misdeclared = try AdapterRegistry.builtIn(configuration: configuration, additionalAdapterTypes: [MisdeclaredTitleAdapter.self])
        let interaction = try Self.titled.withUnsafeBufferPointer { bytes throws(NormalizationError) in
            try misdeclared.normalize(record: bytes, limits: misdeclared.configuration.limits, line: 3)
        }
        #expect(interaction.destination == .url("https://shop.example.com/t/", target: .external))
        let whole = try misdeclared.normalize(json: JSONParser().parse(Self.titled))
        #expect(whole.destination == .url("https://shop.example.com/t/Shipped", target: .external))
    }

    /// ``TitleAdapter`` saying, wrongly, that it reads no alert text.
    struct MisdeclaredTitleAdapter: PayloadAdapter {
        static let id = "title"
        init(configuration: AdapterConfiguration) {}
        var readsAlertText: Bool { false }
        func recognizes(_ input: InputEvent) -> Bool { TitleAdapter(configuration: AdapterConfiguration(id: "title")).recognizes(input) }
        func read(_ input: InputEvent, using reader: inout PayloadReader) throws(NormalizationError) -> AdapterResult {
            try TitleAdapter(configuration: AdapterConfiguration(id: "title")).read(input, using: &reader)
        }
    }

    /// An app's own adapter that puts the alert's title in its destination's URL.
    struct TitleAdapter: PayloadAdapter {
        static let id = "title"
        init(configuration: AdapterConfiguration) {}
        func recognizes(_ input: InputEvent) -> Bool {
            guard case .notification(let userInfo, _, _) = input.kind else { return false }
            return userInfo["title-app"] != nil
        }
        func read(_ input: InputEvent, using reader: inout PayloadReader) throws(NormalizationError) -> AdapterResult {
            guard case .notification(let userInfo, _, _) = input.kind,
                case .string(let title)? = userInfo["aps"]?["alert"]?["title"]
            else { throw NormalizationError(.unrecognized, "no title", path: "$") }
            return AdapterResult(channel: .push, trigger: .tap, destination: .url("https://shop.example.com/t/\(title)", target: .external))
        }
    }

    /// ``TitleAdapter`` saying it reads no alert text (which is not so: for the registry's
    /// flag only).
    struct BlindTitleAdapter: PayloadAdapter {
        static let id = "title"
        init(configuration: AdapterConfiguration) {}
        var readsAlertText: Bool { false }
        func recognizes(_ input: InputEvent) -> Bool { false }
        func read(_ input: InputEvent, using reader: inout PayloadReader) throws(NormalizationError) -> AdapterResult {
            throw NormalizationError(.unrecognized, "never", path: "$")
        }
    }

    static let titled = Array(#"{"kind":"notification","userInfo":{"title-app":1,"aps":{"alert":{"title":"Shipped"}}}}"#.utf8)

    @Test func anAppsOwnAdapterSeesTheText() throws {
        var configuration = try YAMLConfiguration.parse(yaml: DefaultConfiguration.yaml)
        configuration.adapters.insert(AdapterSettings(id: "title"), at: 0)
        let registry = try AdapterRegistry.builtIn(configuration: configuration, additionalAdapterTypes: [TitleAdapter.self])
        #expect(!registry.normalizingReader.alertTextReadForKind)
        let interaction = try Self.titled.withUnsafeBufferPointer { try registry.normalize(record: $0) }
        #expect(interaction.destination == .url("https://shop.example.com/t/Shipped", target: .external))
        // Known but not enabled, it reads nothing: the shortcut stays.
        let known = try AdapterRegistry.builtIn(additionalAdapterTypes: [TitleAdapter.self])
        let enabled = known.adapters.contains { $0.id == "title" }
        #expect(known.normalizingReader.alertTextReadForKind == !enabled)
        // An adapter that says it reads no alert text keeps the shortcut.
        let blind = try AdapterRegistry.builtIn(configuration: configuration, additionalAdapterTypes: [BlindTitleAdapter.self])
        #expect(blind.normalizingReader.alertTextReadForKind)
    }

    /// A definition of notifications whose `recognize` reads `title-def` and whose other parts
    /// are `parts` (YAML lines at the top level).
    static func definition(_ parts: String, reads: String = "[notification]") throws -> AdapterDefinition {
        try DefinitionFiles.parse(
            """
            id: titled
            summary: a definition for the alert-text tests
            reads: \(reads)
            recognize: {exists: title-def}

            """ + parts + "\n"
        )
    }

    @Test func whetherADefinitionReadsTheAlertText() throws {
        let reading: [(String, String)] = [
            ("a value", "destination:\n  - url: {path: aps.alert.title, as: url}\n  - app"),
            ("the alert itself", "messageId: aps.alert"),
            ("aps as a whole", "tracking: {a: {path: aps, as: json}}\ndestination: [app]"),
            ("the root, inside buttons", "buttons:\n  from: items\n  label: \"$\"\n  destination: [app]\ndestination: [app]"),
            ("a first of paths", "messageId: [x, aps.alert.body]\ndestination: [app]"),
            (
                "nonEmpty, which reads a string's length",
                "warnings:\n  - when: {nonEmpty: aps.alert.title}\n    code: w\n    message: m\ndestination: [app]"
            ),
            (
                "equals",
                "reject:\n  - when: {equals: {path: aps.alert.title, to: x}}\n    error: invalidPayload\n    message: m\ndestination: [app]"
            ),
            ("a template", "warnings:\n  - when: {exists: x}\n    code: w\n    message: \"{aps.alert.title}\"\ndestination: [app]"),
            ("a quoted template", "warnings:\n  - when: {exists: x}\n    code: w\n    message: \"{aps.alert|quoted}\"\ndestination: [app]"),
            ("a named value", "values: {t: aps.alert.title}\nmessageId: \"@t\"\ndestination: [app]"),
            ("an index step", "messageId: \"aps[0]\"\ndestination: [app]"),
            ("buttons from the alert", "buttons:\n  from: aps.alert.actions\n  destination: [app]\ndestination: [app]"),
            ("a payload keeping aps", "payload: {without: [x]}\ndestination: [app]"),
            ("a payload from aps", "payload: {from: aps}\ndestination: [app]"),
        ]
        for (name, parts) in reading {
            let definition = try Self.definition(parts)
            #expect(definition.plan.readsAlertText, "\(name)")
        }
        let notReading: [(String, String)] = [
            (
                "kinds and keys only",
                "warnings:\n  - when: {all: [{exists: aps.alert.title}, {isString: aps.alert}, {isObject: aps}, {anyKeyHasPrefix: {path: aps.alert, prefix: t}}]}\n    code: w\n    message: m\ndestination: [app]"
            ),
            (
                "a template's type",
                "warnings:\n  - when: {exists: x}\n    code: w\n    message: \"{aps.alert.title|type}\"\ndestination: [app]"
            ),
            ("another member of aps", "messageId: aps.category\ndestination: [app]"),
            (
                "a reject's at",
                "reject:\n  - when: {exists: x}\n    error: invalidPayload\n    at: aps.alert.title\n    message: m\ndestination: [app]"
            ),
            ("a payload without aps", "payload: {without: [aps, x]}\ndestination: [app]"),
            ("a payload without a prefix of aps", "payload: {withoutPrefixes: [ap]}\ndestination: [app]"),
            ("no payload", "destination: [app]"),
        ]
        for (name, parts) in notReading {
            let definition = try Self.definition(parts)
            #expect(!definition.plan.readsAlertText, "\(name)")
        }
        // A definition of other inputs reads no notification's alert, whatever its paths.
        let events = try Self.definition("messageId: aps.alert.title\ndestination: [app]", reads: "[vendorEvent]")
        #expect(!events.plan.readsAlertText)
        // None of the built-in definitions reads it.
        for definition in try AdapterRegistry.builtInDefinitions() {
            #expect(!definition.plan.readsAlertText, "\(definition.id)")
        }
    }

    @Test func aDefinitionThatReadsTheTextTurnsTheShortcutOff() throws {
        let definition = try Self.definition("messageId: aps.alert.title\ndestination: [app]")
        var configuration = try YAMLConfiguration.parse(yaml: DefaultConfiguration.yaml)
        configuration.adapters.insert(AdapterSettings(id: "titled"), at: 0)
        let registry = try AdapterRegistry.builtIn(configuration: configuration, definitions: [definition])
        #expect(!registry.normalizingReader.alertTextReadForKind)
        let record = Array(#"{"kind":"notification","userInfo":{"title-def":1,"aps":{"alert":{"title":"Shipped"}}}}"#.utf8)
        let interaction = try record.withUnsafeBufferPointer { try registry.normalize(record: $0) }
        #expect(interaction.messageId == "Shipped")
    }
}
