import TapRoute
import TapRouteConformance
import Testing

/// An adapter that breaks the contract on purpose: it claims every notification, answers
/// differently each time, lets unsafe URLs through by hiding them in a screen, and says
/// `unrecognized` for what it recognized.
private struct BrokenAdapter: PayloadAdapter {
    static let id = "broken"
    init(configuration: AdapterConfiguration) throws(ConfigurationError) {}

    func recognizes(_ input: InputEvent) -> Bool {
        if case .notification = input.kind { return true }
        return false
    }

    func normalize(_ input: InputEvent) throws(NormalizationError) -> Interaction {
        guard case .notification(let userInfo, _, _) = input.kind else {
            throw NormalizationError(.unrecognized, "not mine")
        }
        if userInfo["refuse"] != nil { throw NormalizationError(.unrecognized, "recognized, then refused") }
        return Interaction(
            vendor: Self.id,
            channel: .push,
            trigger: .tap,
            destination: .screen(name: "s\(Int.random(in: 0...1_000_000))", url: "javascript:alert(1)")
        )
    }
}

@Suite struct ConformanceKitSelfTests {
    private let vectors = ConformanceVectors([
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

    @Test func brokenAdapterFailsTheKit() async throws {
        try await withKnownIssue("the broken adapter violates the contract", isIntermittent: false) {
            try await AdapterConformanceTest(
                adapter: BrokenAdapter.self,
                vectors: vectors,
                options: .init(propertyCheckCount: 20)
            ).run()
        } matching: { issue in
            let text = String(describing: issue)
            return text.contains("check: vector") || text.contains("check: deterministic")
                || text.contains("check: safety") || text.contains("check: recognizes")
                || text.contains("fixedSeed")  // the property check's summary of a failing input
        }
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
}
