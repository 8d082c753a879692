import Foundation
import TapRoute
import TapRouteConformance
import Testing

// The test adapters are internal, not private: the kit finds the adapter type again by name
// in its child process, and a private type has no name it can be found by.

/// An adapter that breaks the contract on purpose: it claims every notification, answers
/// differently each time, and says `unrecognized` for what it recognized.
struct BrokenTestAdapter: PayloadAdapter {
    static let id = "broken"
    static let summary = "Breaks the contract on purpose"
    static let configurationKeys: [String] = []
    init(configuration: AdapterConfiguration) throws(ConfigurationError) {}

    func recognizes(_ input: InputEvent) -> Bool {
        if case .notification = input.kind { return true }
        return false
    }

    func read(_ input: InputEvent, using reader: inout PayloadReader) throws(NormalizationError) -> AdapterResult {
        guard case .notification(let userInfo, _, _) = input.kind else {
            throw NormalizationError(.unrecognized, "not mine")
        }
        if userInfo["refuse"] != nil { throw NormalizationError(.unrecognized, "recognized, then refused") }
        return AdapterResult(
            channel: .push,
            trigger: .tap,
            destination: .app,
            messageId: "m\(Int.random(in: 0...1_000_000))"
        )
    }
}

/// An adapter that says it never reads a notification's alert text
/// (`PayloadAdapter.readsAlertText` false) and then reads it: its `messageId` is the alert.
struct AlertTextReadingTestAdapter: PayloadAdapter {
    static let id = "alerting"
    static let summary = "Reads the alert it says it never reads"
    init(configuration: AdapterConfiguration) throws(ConfigurationError) {}
    var readsAlertText: Bool { false }

    func recognizes(_ input: InputEvent) -> Bool {
        guard case .notification(let userInfo, _, _) = input.kind else { return false }
        return userInfo["alerting"] != nil
    }

    func read(_ input: InputEvent, using reader: inout PayloadReader) throws(NormalizationError) -> AdapterResult {
        guard case .notification(let userInfo, _, _) = input.kind, userInfo["alerting"] != nil else {
            throw NormalizationError(.unrecognized, "not mine")
        }
        return AdapterResult(channel: .push, trigger: .tap, destination: .app, messageId: userInfo["aps"]?["alert"]?.stringValue)
    }
}

/// A third-party adapter written the way the contract asks: its pushes carry an `acme`
/// object whose `target` is a link.
struct AcmeTestAdapter: PayloadAdapter {
    static let id = "acme"
    static let summary = "Acme pushes"
    static let configurationKeys: [String] = []
    init(configuration: AdapterConfiguration) throws(ConfigurationError) {}

    func recognizes(_ input: InputEvent) -> Bool { Self.isAcme(input) }

    func read(_ input: InputEvent, using reader: inout PayloadReader) throws(NormalizationError) -> AdapterResult {
        try Self.interaction(for: input)
    }

    static func isAcme(_ input: InputEvent) -> Bool {
        guard case .notification(let userInfo, _, _) = input.kind, case .object? = userInfo["acme"] else { return false }
        return true
    }

    static func interaction(for input: InputEvent) throws(NormalizationError) -> AdapterResult {
        guard case .notification(let userInfo, let action, let origin) = input.kind, case .object(let acme)? = userInfo["acme"] else {
            throw NormalizationError(.unrecognized, "not an Acme push")
        }
        let destination: Destination
        switch acme["target"] {
        case .string(let link)?:
            // The careful version: an empty or unparsable link is an error.
            guard !link.isEmpty, URL(string: link) != nil else {
                throw .invalidPayload("acme.target is not a URL: '\(link)'", path: "$.userInfo.acme.target")
            }
            destination = .url(link, target: .external)
        case nil, .null?:
            destination = .app
        case let other?:
            throw .invalidPayload("acme.target must be a string, got \(other.typeDescription)", path: "$.userInfo.acme.target")
        }
        return AdapterResult(
            channel: origin == .local ? .local : .push,
            trigger: Trigger(notificationAction: action),
            destination: destination,
            messageId: acme["id"]?.stringValue
        )
    }
}

/// The same adapter as a careless third party writes it: `URL(string: link)!` traps on an
/// empty link, which none of its own vectors has.
struct CrashingAcmeTestAdapter: PayloadAdapter {
    static let id = "acme"
    static let summary = "Acme pushes, force-unwrapped"
    static let configurationKeys: [String] = []
    init(configuration: AdapterConfiguration) throws(ConfigurationError) {}

    func recognizes(_ input: InputEvent) -> Bool { AcmeTestAdapter.isAcme(input) }

    func read(_ input: InputEvent, using reader: inout PayloadReader) throws(NormalizationError) -> AdapterResult {
        if case .notification(let userInfo, _, _) = input.kind, case .string(let link)? = userInfo["acme"]?["target"] {
            _ = URL(string: link)!  // the deliberate crash
        }
        return try AcmeTestAdapter.interaction(for: input)
    }
}

/// A careless adapter with two bugs: the force-unwrapped link, and a precondition on a value
/// derived from the message id.
struct TwoBugAcmeTestAdapter: PayloadAdapter {
    static let id = "acme"
    static let summary = "Acme pushes, two bugs"
    static let configurationKeys: [String] = []
    init(configuration: AdapterConfiguration) throws(ConfigurationError) {}

    func recognizes(_ input: InputEvent) -> Bool { AcmeTestAdapter.isAcme(input) }

    func read(_ input: InputEvent, using reader: inout PayloadReader) throws(NormalizationError) -> AdapterResult {
        if case .notification(let userInfo, _, _) = input.kind, case .object(let acme)? = userInfo["acme"] {
            if case .string(let id)? = acme["id"] {
                let prefix = id.split(separator: "-").first
                precondition(prefix != nil, "a message id has a prefix")  // the second deliberate crash
            }
            if case .string(let link)? = acme["target"] {
                _ = URL(string: link)!
            }
        }
        return try AcmeTestAdapter.interaction(for: input)
    }
}

/// An adapter whose `recognizes` claims every input, and which otherwise behaves.
struct GreedyAcmeTestAdapter: PayloadAdapter {
    static let id = "acme"
    static let summary = "Claims everything"
    static let configurationKeys: [String] = []
    init(configuration: AdapterConfiguration) throws(ConfigurationError) {}

    func recognizes(_ input: InputEvent) -> Bool { true }

    func read(_ input: InputEvent, using reader: inout PayloadReader) throws(NormalizationError) -> AdapterResult {
        guard AcmeTestAdapter.isAcme(input) else { return AdapterResult(channel: .push, trigger: .tap, destination: .app) }
        return try AcmeTestAdapter.interaction(for: input)
    }
}

/// A private adapter type: a child process cannot find it by name.
private struct HiddenAdapter: PayloadAdapter {
    static let id = "acme"
    static let summary = "Private"
    static let configurationKeys: [String] = []
    init(configuration: AdapterConfiguration) throws(ConfigurationError) {}
    func recognizes(_ input: InputEvent) -> Bool { AcmeTestAdapter.isAcme(input) }
    func read(_ input: InputEvent, using reader: inout PayloadReader) throws(NormalizationError) -> AdapterResult {
        try AcmeTestAdapter.interaction(for: input)
    }
}

@Suite struct ConformanceKitSelfTests {
    /// Acme's own vectors: a push with a link, one without, a dismissed one.
    private static let acmeVectors = ConformanceVectors([
        ConformanceVector(
            description: "a push with a link",
            location: "acme[0]",
            input: [
                "kind": "notification",
                "userInfo": ["aps": ["alert": "Sale"], "acme": ["id": "m-1", "target": "https://acme.example/promo/1"]],
            ],
            expected: .interaction([
                "vendor": "acme", "channel": "push", "trigger": ["type": "tap"],
                "destination": ["type": "url", "url": "https://acme.example/promo/1", "target": "external"],
                "handling": "app", "messageId": "m-1",
            ])
        ),
        ConformanceVector(
            description: "a push without a link opens the app",
            location: "acme[1]",
            input: ["acme": ["id": "m-2"]],
            expected: .interaction([
                "vendor": "acme", "channel": "push", "trigger": ["type": "tap"], "destination": ["type": "app"],
                "handling": "app", "messageId": "m-2",
            ])
        ),
        ConformanceVector(
            description: "a link that is not a string",
            location: "acme[2]",
            input: ["acme": ["target": 7]],
            expected: .error(code: "invalidPayload", path: "$.userInfo.acme.target")
        ),
    ])

    private static func kit(_ adapter: any PayloadAdapter.Type, seed: UInt64? = nil, count: Int = 200, maximumCrashes: Int = 3)
        -> AdapterConformanceTest
    {
        AdapterConformanceTest(
            adapter: adapter,
            vectors: acmeVectors,
            options: .init(propertyCheckCount: count, seed: seed, maximumCrashes: maximumCrashes)
        )
    }

    /// An adapter whose `readsAlertText` is false while it reads the text gives another
    /// answer from a record (which the registry then reads without that text) than from the
    /// value: the kit's record-path check says so.
    @Test func anAdapterThatReadsTheAlertTextItDisclaimsIsFound() async throws {
        let vectors = ConformanceVectors([
            ConformanceVector(
                description: "the alert as the message id",
                location: "alerting[0]",
                input: ["kind": "notification", "userInfo": ["aps": ["alert": "Sale"], "alerting": 1]],
                expected: .interaction([
                    "vendor": "alerting", "channel": "push", "trigger": ["type": "tap"], "destination": ["type": "app"],
                    "handling": "app", "messageId": "Sale",
                ])
            )
        ])
        let report = try await AdapterConformanceTest(
            adapter: AlertTextReadingTestAdapter.self,
            vectors: vectors,
            options: .init(propertyCheckCount: 20, checksHostileInput: false)
        ).report()
        #expect(report.findings.contains { $0.check == .recordPath }, "\(report.findings.map(\.description))")
    }

    @Test func aWellBehavedThirdPartyAdapterPasses() async throws {
        let report = try await Self.kit(AcmeTestAdapter.self).report()
        #expect(report.findings.isEmpty, "\(report.findings.map(\.description).joined(separator: "\n"))")
        #expect(report.triedInputs == report.plannedInputs)
        // The hostile inputs are the vectors' mutations plus the generated ones.
        #expect(report.plannedInputs > 200 + Self.acmeVectors.vectors.count)
        #expect(report.childProcesses == 1)
    }

    /// Done means: the crash is caught on every run, named with its input and seed.
    @Test func aCrashingAdapterIsCaughtOnEveryRun() async throws {
        let seeds: [UInt64] = [AdapterConformanceTest.defaultSeed, 1, 2, 3, 42, 1_000, 0xDEAD_BEEF, 0x5EED, .max, 7_777_777]
        let reports = try await withThrowingTaskGroup(of: ConformanceReport.self) { group in
            for seed in seeds {
                group.addTask { try await Self.kit(CrashingAcmeTestAdapter.self, seed: seed, count: 100, maximumCrashes: 1).report() }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(reports.count == 10)
        var caught = 0
        for report in reports {
            let crash = try #require(report.crashes.first, "seed \(report.seed): no crash reported")
            let text = crash.description
            let input = try #require(crash.input)
            #expect(input["userInfo"]?["acme"]?["target"] == "")
            #expect(text.contains("check: crash, mutation of vector acme[0]: $.userInfo.acme.target = \"\""))
            #expect(text.contains("input: {"))
            #expect(text.contains("seed 0x" + String(report.seed, radix: 16, uppercase: true)))
            #expect(text.contains("TAPROUTE_CONFORMANCE_SEED"))
            #expect(text.contains("was killed by signal"))
            #expect(text.contains("while adapter 'acme' handled this input"))
            #expect(text.contains("Unexpectedly found nil"))
            #expect(report.crashes.count == 1)
            #expect(report.childProcesses == 1)
            if report.crashes.count == 1 { caught += 1 }
        }
        #expect(caught == 10)
    }

    @Test func afterACrashTheKitCarriesOnInANewChild() async throws {
        let report = try await Self.kit(CrashingAcmeTestAdapter.self, count: 100).report()
        #expect(report.crashes.count == 1)
        #expect(report.childProcesses == 2)
        #expect(report.triedInputs == report.plannedInputs)

        let twoBugs = try await Self.kit(TwoBugAcmeTestAdapter.self, count: 100, maximumCrashes: 2).report()
        #expect(twoBugs.crashes.count == 2)
        #expect(twoBugs.childProcesses == 2)
        let subjects = twoBugs.crashes.map(\.subject)
        #expect(subjects.first?.contains(#"$.userInfo.acme.id = """#) == true)
        #expect(twoBugs.crashes.first?.detail.contains("a message id has a prefix") == true)
        #expect(subjects.last?.contains(#"$.userInfo.acme.target = """#) == true)
        #expect(twoBugs.crashes.last?.detail.contains("after 2 crashes the kit stops") == true)
        #expect(twoBugs.triedInputs < twoBugs.plannedInputs)
    }

    @Test func anAdapterClaimingEverythingFails() async throws {
        let report = try await Self.kit(GreedyAcmeTestAdapter.self).report()
        let claimed = report.findings.filter { $0.check == .notMine }
        let subjects = claimed.map(\.subject)
        #expect(subjects.contains { $0.contains("'dashx' payload") })
        #expect(subjects.contains { $0.contains("'adobe' payload") })
        #expect(subjects.contains { $0.contains("'bird' payload") })
        #expect(subjects.contains { $0.contains("'taptalk' payload") })
        #expect(subjects.contains { $0.contains("generic payload: an aps-only push") })
        #expect(subjects.contains { $0.contains("generic payload: an empty userInfo") })
        #expect(subjects.contains { $0.contains("generic payload: a web link of another host") })
        #expect(claimed.count == OtherPayloads.builtInVendors.count + OtherPayloads.generic.count)
    }

    @Test func otherVectorsAreCheckedToo() async throws {
        let others = ConformanceVectors([
            ConformanceVector(
                description: "a Zeta push",
                location: "zeta[0]",
                input: ["zeta": ["go": "home"]],
                expected: .interaction([
                    "vendor": "zeta", "channel": "push", "trigger": ["type": "tap"], "destination": ["type": "app"], "handling": "app",
                ])
            ),
            ConformanceVector(
                description: "forced to zeta: skipped",
                location: "zeta[1]",
                input: ["kind": "notification", "vendor": "zeta", "userInfo": ["zeta": [:]]],
                expected: .interaction([
                    "vendor": "zeta", "channel": "push", "trigger": ["type": "tap"], "destination": ["type": "app"], "handling": "app",
                ])
            ),
        ])
        let kit = AdapterConformanceTest(
            adapter: GreedyAcmeTestAdapter.self,
            vectors: Self.acmeVectors,
            options: .init(checksHostileInput: false, otherVectors: others)
        )
        let subjects = try await kit.report().findings.filter { $0.check == .notMine }.map(\.subject)
        #expect(subjects.contains("'zeta' payload, vector: zeta[0]"))
        #expect(!subjects.contains { $0.contains("zeta[1]") })
    }

    @Test func aBrokenTestAdapterIsReportedCheckByCheck() async throws {
        let vectors = ConformanceVectors([
            ConformanceVector(
                description: "a plain tap",
                location: "inline[0]",
                input: ["userInfo": ["x": 1]],
                expected: .interaction([
                    "vendor": "broken", "channel": "push", "trigger": ["type": "tap"],
                    "destination": ["type": "app"], "handling": "app",
                ])
            ),
            ConformanceVector(
                description: "refused",
                location: "inline[1]",
                input: ["refuse": true],
                expected: .error(code: "invalidPayload", path: nil)
            ),
        ])
        let report = try await AdapterConformanceTest(
            adapter: BrokenTestAdapter.self,
            vectors: vectors,
            options: .init(propertyCheckCount: 20)
        )
        .report()
        let checks = Set(report.findings.map(\.check))
        #expect(checks.isSuperset(of: [.vector, .deterministic, .recognizes, .notMine]))
        #expect(!checks.contains(.crash))
        let vectorFinding = try #require(report.findings.first { $0.check == .vector && $0.subject.contains("inline[1]") })
        #expect(vectorFinding.description.contains("expected error invalidPayload"))
    }

    @Test func theSameSeedTriesTheSameInputs() throws {
        let seeds: [JSONValue] = Self.acmeVectors.vectors.map(\.input)
        var a = HostileJSON(seed: 9, adapterID: "acme", seeds: seeds)
        var b = HostileJSON(seed: 9, adapterID: "acme", seeds: seeds)
        var c = HostileJSON(seed: 10, adapterID: "acme", seeds: seeds)
        let first = (0..<200).map { _ in a.input() }
        #expect(first == (0..<200).map { _ in b.input() })
        #expect(first != (0..<200).map { _ in c.input() })
        // Generated inputs speak the adapter's own language.
        #expect(a.learntKeys.contains("acme") && a.learntKeys.contains("target"))
        #expect(a.learntStrings.contains("https://acme.example/promo/1"))
        #expect(first.contains { $0.jsonString().contains("\"target\"") })
    }

    @Test func mutationsEmptyEveryValueOfEveryVector() {
        let input: JSONValue = ["acme": ["target": "https://acme.example/x", "id": "m"], "blob": #"{"inner":"v"}"#]
        let mutations = Mutation.all(of: input)
        let descriptions = mutations.map(\.description)
        #expect(descriptions.contains(#"$.acme.target = """#))
        #expect(descriptions.contains(#"$.acme.id = """#))
        #expect(descriptions.contains(#"$.blob(json).inner = """#))
        #expect(descriptions.contains("$.acme.target removed"))
        #expect(descriptions.contains("$.acme.target = its scheme only"))
        #expect(mutations.contains { $0.input == ["acme": ["target": "", "id": "m"], "blob": #"{"inner":"v"}"#] })
        #expect(!mutations.contains { $0.input == input })
        #expect(Set(mutations.map(\.input)).count == mutations.count)
        // A value shared by several vectors is changed once.
        var done: Set<String> = []
        let once = Mutation.all(of: input, skippingRepeatsIn: &done)
        #expect(once.count == mutations.count)
        #expect(Mutation.all(of: input, skippingRepeatsIn: &done).isEmpty)
    }

    @Test func theSeedVariable() throws {
        #expect(AdapterConformanceTest.seedEnvironmentVariable == "TAPROUTE_CONFORMANCE_SEED")
        #expect(try AdapterConformanceTest.seed(environmentValue: nil) == nil)
        #expect(try AdapterConformanceTest.seed(environmentValue: " ") == nil)
        #expect(try AdapterConformanceTest.seed(environmentValue: "42") == 42)
        #expect(try AdapterConformanceTest.seed(environmentValue: "0x5EED") == 0x5EED)
        #expect(try AdapterConformanceTest.seed(environmentValue: "0xFFFF_FFFF_FFFF_FFFF") == .max)
        #expect(try AdapterConformanceTest.seed(environmentValue: "random") != nil)
        for bad in ["banana", "-1", "0x", "18446744073709551616", "1.5"] {
            let error = #expect(throws: ConformanceError.self) { try AdapterConformanceTest.seed(environmentValue: bad) }
            #expect(error?.location == "TAPROUTE_CONFORMANCE_SEED")
            #expect(error?.message.contains("'\(bad)' is not a seed") == true)
        }
        // An explicit seed wins over the environment.
        let kit = AdapterConformanceTest(adapter: AcmeTestAdapter.self, vectors: Self.acmeVectors, options: .init(seed: 5))
        #expect(try kit.resolvedSeed() == 5)
    }

    @Test func anAdapterTheChildCannotFindIsATypedError() async {
        let kit = AdapterConformanceTest(adapter: HiddenAdapter.self, vectors: Self.acmeVectors)
        let error = await #expect(throws: ConformanceError.self) { try await kit.report() }
        #expect(error?.message.contains("cannot be found by name in a child process") == true)
        #expect(error?.message.contains("HiddenAdapter") == true)
    }

    @Test func badVectorFileIsATypedError() throws {
        #expect(throws: ConformanceError.self) {
            _ = try ConformanceVector(json: ["description": "x", "input": [:]], location: "bad.json")
        }
        #expect(throws: ConformanceError.self) {
            _ = try ConformanceVector(
                json: ["description": "x", "input": [:], "expected": ["vendor": "x"]],
                location: "incomplete.json"
            )
        }
    }

    @Test func aBaseConfigurationWithoutTheAdapterIsATypedError() async {
        let kit = AdapterConformanceTest(
            adapter: AcmeTestAdapter.self,
            vectors: Self.acmeVectors,
            options: .init(baseConfiguration: .json(["version": 1, "adapters": []]))
        )
        let error = await #expect(throws: ConformanceError.self) { try await kit.report() }
        #expect(error?.message.contains("'acme' is not enabled") == true)
    }
}
