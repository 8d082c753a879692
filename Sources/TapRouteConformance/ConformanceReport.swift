public import TapRoute

/// One way an adapter broke the contract, found by ``AdapterConformanceTest``.
public struct ConformanceFinding: Sendable, Hashable, CustomStringConvertible {
    /// The contract rule a finding is about.
    public enum Check: String, Sendable, Hashable, CaseIterable {
        /// A vector did not give its expected result.
        case vector
        /// The same input gave two different answers.
        case deterministic
        /// `recognizes` is false for a vector expecting the adapter, or true for an input
        /// `normalize` then calls `unrecognized`.
        case recognizes
        /// `recognizes` is true for another vendor's payload or a generic one.
        case notMine = "not mine"
        /// An Interaction's JSON text does not read back as the same Interaction.
        case roundTrip = "round trip"
        /// An Interaction carries a URL destination the safety rules reject.
        case safety
        /// An error without a message or without a `$` path.
        case errorForm = "error form"
        /// The input read from JSON text as a record gave another answer than the value (an
        /// adapter that reads the alert's text while its
        /// `PayloadAdapter.readsAlertText` is false finds it empty from a record).
        case recordPath = "record path"
        /// The adapter ended the process (a trap, a failed precondition, a signal, `exit`).
        case crash
        /// An encode vector did not give its payload (or its error).
        case encodeVector = "encode vector"
        /// A message's payload did not normalize back to the message (``EncodeRoundTrip``).
        case encodeRoundTrip = "encode round trip"
    }

    /// The rule broken.
    public var check: Check
    /// What was being checked: `vector: 03-route.json (…)`, `input #412 (seed 0x…), …`.
    public var subject: String
    /// The input, for findings about generated or foreign inputs.
    public var input: JSONValue?
    /// What went wrong.
    public var detail: String

    /// Creates a finding.
    public init(check: Check, subject: String, input: JSONValue? = nil, detail: String) {
        self.check = check
        self.subject = subject
        self.input = input
        self.detail = detail
    }

    /// The longest input shown in ``description``; ``input`` keeps all of it.
    public static let shownInputLength = 600

    /// `check: <check>, <subject>`, then the input (abbreviated) and the detail.
    public var description: String {
        var text = "check: \(check.rawValue), \(subject)"
        if let input {
            let json = input.jsonString()
            let shown =
                json.unicodeScalars.count > Self.shownInputLength
                ? String(String.UnicodeScalarView(json.unicodeScalars.prefix(Self.shownInputLength)))
                    + "… (\(json.utf8.count) bytes)"
                : json
            text += "\ninput: " + shown
        }
        return text + "\n" + detail
    }
}

/// What a conformance run found, without recording anything: ``AdapterConformanceTest/run(sourceLocation:)``
/// records one test issue per finding; tests of the kit itself inspect the report.
public struct ConformanceReport: Sendable {
    /// The adapter checked.
    public var adapterID: String
    /// The seed of the generated inputs (see ``AdapterConformanceTest/seedEnvironmentVariable``).
    public var seed: UInt64
    /// Every broken rule, in the order the inputs were tried.
    public var findings: [ConformanceFinding]
    /// How many inputs the plan holds: vectors, other vendors' and generic payloads, and
    /// generated hostile inputs.
    public var plannedInputs: Int
    /// How many of them were tried (fewer when crashes stopped the run).
    public var triedInputs: Int
    /// How many child processes ran the adapter; 0 when it ran in the test's own process
    /// (platforms without exit tests).
    public var childProcesses: Int

    /// The findings about crashes.
    public var crashes: [ConformanceFinding] { findings.filter { $0.check == .crash } }
}
