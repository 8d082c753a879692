import Foundation
import TapRoute
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(ucrt)
    import ucrt
#endif

#if os(macOS) || os(Linux) || os(FreeBSD) || os(OpenBSD) || os(Windows)
    /// Swift Testing runs exit tests (child processes) on these platforms.
    private let childProcessesAvailable = true
#else
    private let childProcessesAvailable = false
#endif

/// Runs a conformance plan with the adapter in child processes, so that an adapter that
/// traps is a finding naming the input, not a dead test process.
///
/// The child (a Swift Testing exit test) rebuilds the plan from the job and writes one line
/// to its standard output before each step and each adapter call, then one per finding, then
/// `done`. When it dies instead, the last step it started is the input that killed it; the
/// parent records that and starts a new child at the step after it.
enum CrashIsolation {
    /// Marks the child's lines on its standard output, which the adapter may write to too.
    static let marker = "#taproute-conformance "
    /// The exit code of a child that ran every step.
    static let completedExitCode: CInt = 86

    static func run(
        job: ConformanceJob,
        adapter: any PayloadAdapter.Type,
        types: [any PayloadAdapter.Type],
        maximumCrashes: Int,
        sourceLocation: SourceLocation
    ) async throws(ConformanceError) -> ConformanceReport {
        let plan = try ConformancePlan(job: job)
        var report = ConformanceReport(
            adapterID: job.adapterID,
            seed: job.seed,
            findings: [],
            plannedInputs: plan.steps.count,
            triedInputs: 0,
            childProcesses: 0
        )
        guard childProcessesAvailable else {
            try runInProcess(job: job, plan: plan, types: types, into: &report)
            return report
        }
        var job = job
        job.registryTypes = try typeNames(types)
        var crashes = 0
        while job.firstStep < plan.steps.count {
            let outcome = await runChild(job, sourceLocation: sourceLocation)
            report.childProcesses += 1
            report.findings += outcome.findings
            if let error = outcome.error { throw error }
            if outcome.completed {
                report.triedInputs = plan.steps.count
                break
            }
            crashes += 1
            guard let step = outcome.lastStep else {
                report.findings.append(
                    ConformanceFinding(
                        check: .crash,
                        subject: outcome.end == nil ? "the child process" : "building the registry (the adapters' initializers)",
                        detail: outcome.describeEnd(seed: job.seed, blame: nil)
                    )
                )
                break
            }
            report.triedInputs = step + 1
            var detail = outcome.describeEnd(seed: job.seed, blame: outcome.blamed)
            let remaining = plan.steps.count - step - 1
            if crashes >= maximumCrashes && remaining > 0 {
                detail += "\n(after \(crashes) crash\(crashes == 1 ? "" : "es") the kit stops: \(remaining) inputs were not tried)"
            }
            report.findings.append(
                ConformanceFinding(
                    check: .crash,
                    subject: "\(plan.steps[step].subject), step \(step) of \(plan.steps.count)",
                    input: plan.steps[step].input,
                    detail: detail
                )
            )
            if crashes >= maximumCrashes { break }
            job.firstStep = step + 1
        }
        return report
    }

    /// The registry's adapter types by mangled name.
    /// - Throws: ``ConformanceError`` for a type the child cannot find again by its name: one
    ///   that is `private` or `fileprivate`, or local to a function.
    private static func typeNames(_ types: [any PayloadAdapter.Type]) throws(ConformanceError) -> [String] {
        var names: [String] = []
        for type in types {
            guard let name = _mangledTypeName(type), let found = _typeByName(name), found == type else {
                throw ConformanceError(.adapterTypeNotNamed("\(type)"), location: String(reflecting: type))
            }
            names.append(name)
        }
        return names
    }

    private static func runInProcess(
        job: ConformanceJob,
        plan: ConformancePlan,
        types: [any PayloadAdapter.Type],
        into report: inout ConformanceReport
    ) throws(ConformanceError) {
        var executor = try ConformanceExecutor(job: job, vectors: plan.vectors, types: types)
        for step in plan.steps {
            report.findings += try executor.run(step) { _ in }
        }
        report.triedInputs = plan.steps.count
    }

    // MARK: - Parent

    /// What a child said and how it ended.
    struct Outcome {
        var findings: [ConformanceFinding] = []
        var error: ConformanceError?
        var completed = false
        /// The last step the child started.
        var lastStep: Int?
        /// The adapter the child was about to run in the last step, if it got that far.
        var blamed: String?
        /// How the child ended (`killed by signal 4 (SIGILL)`); nil when it exited with 0,
        /// which the exit test reports as a failed expectation instead.
        var end: String?
        var standardError = ""

        func describeEnd(seed: UInt64, blame: String?) -> String {
            var text = "the process " + (end ?? "exited with code 0 before finishing")
            if let blame {
                text += " while adapter '\(blame)' handled this input"
            } else if lastStep != nil {
                text += " while the adapters' recognizes(_:) looked at this input"
            }
            text += "; seed \(AdapterConformanceTest.hex(seed)) (\(AdapterConformanceTest.seedEnvironmentVariable))"
            let said = Self.excerpt(standardError)
            if !said.isEmpty { text += "\nit said: " + said }
            return text
        }

        static func signalName(_ signal: CInt) -> String {
            #if os(Windows)
                let names: [CInt: String] = [SIGILL: "SIGILL", SIGABRT: "SIGABRT", SIGFPE: "SIGFPE", SIGSEGV: "SIGSEGV"]
            #else
                let names: [CInt: String] = [
                    SIGILL: "SIGILL", SIGTRAP: "SIGTRAP", SIGABRT: "SIGABRT", SIGFPE: "SIGFPE", SIGSEGV: "SIGSEGV", SIGBUS: "SIGBUS",
                    SIGKILL: "SIGKILL",
                ]
            #endif
            return "signal \(signal)" + (names[signal].map { " (\($0))" } ?? "")
        }

        /// The runtime's last words: its `Fatal error`-style lines, else the last lines.
        private static func excerpt(_ text: String) -> String {
            let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            let fatal = lines.filter {
                $0.contains("Fatal error") || $0.contains("Precondition failed") || $0.contains("Assertion failed")
                    || $0.contains("Unexpectedly found nil")
            }
            let chosen = fatal.isEmpty ? Array(lines.suffix(3)) : Array(fatal.prefix(3))
            let joined = chosen.joined(separator: "\n  ")
            return joined.count > 1000 ? String(joined.prefix(1000)) + "…" : joined
        }
    }

    private static func runChild(_ job: ConformanceJob, sourceLocation: SourceLocation) async -> Outcome {
        #if os(macOS) || os(Linux) || os(FreeBSD) || os(OpenBSD) || os(Windows)
            // `.failure` matches every end but exit code 0: the child ends with
            // `completedExitCode` when it finishes, and with a signal or another code when the
            // adapter kills it. Either way the outcome is read from its output below.
            let result = await #expect(
                processExitsWith: .failure,
                observing: [\.standardOutputContent, \.standardErrorContent],
                "the conformance kit's child process running adapter '\(job.adapterID)'",
                sourceLocation: sourceLocation
            ) { [job] in
                await CrashIsolation.childMain(job)
            }
            var outcome = Outcome()
            guard let result else { return outcome }
            switch result.exitStatus {
            case .signal(let signal): outcome.end = "was killed by " + Outcome.signalName(signal)
            case .exitCode(let code): outcome.end = "exited with code \(code)"
            @unknown default: outcome.end = "ended: \(result.exitStatus)"
            }
            outcome.standardError = String(decoding: result.standardErrorContent, as: UTF8.self)
            read(result.standardOutputContent, into: &outcome)
            return outcome
        #else
            return Outcome()
        #endif
    }

    /// Reads the child's marked lines.
    private static func read(_ output: [UInt8], into outcome: inout Outcome) {
        for rawLine in output.split(separator: UInt8(ascii: "\n")) {
            let line = String(decoding: rawLine, as: UTF8.self)
            guard let range = line.range(of: marker) else { continue }
            let body = line[range.upperBound...]
            guard let tag = body.first else { continue }
            let rest = body.dropFirst().drop(while: { $0 == " " })
            switch tag {
            case "S":
                outcome.lastStep = Int(rest)
                outcome.blamed = nil
            case "A":
                outcome.blamed = String(rest)
            case "F":
                if let value = try? JSONValue(parsing: String(rest)), let finding = ConformanceFinding(transport: value) {
                    outcome.findings.append(finding)
                }
            case "E":
                let value = try? JSONValue(parsing: String(rest))
                outcome.error = ConformanceError(
                    .childProcess(message: value?["message"]?.stringValue ?? String(rest)),
                    location: value?["location"]?.stringValue ?? "<child process>"
                )
            case "D":
                outcome.completed = true
            default:
                continue
            }
        }
    }

    // MARK: - Child

    /// The child's whole life: run the steps from `job.firstStep`, reporting on standard
    /// output, then exit with ``completedExitCode``.
    static func childMain(_ job: ConformanceJob) async -> Never {
        do throws(ConformanceError) {
            var types: [any PayloadAdapter.Type] = []
            for name in job.registryTypes {
                guard let type = _typeByName(name) as? any PayloadAdapter.Type else {
                    throw ConformanceError(.adapterTypeNotFound(name), location: "<child process>")
                }
                types.append(type)
            }
            let plan = try ConformancePlan(job: job)
            var executor = try ConformanceExecutor(job: job, vectors: plan.vectors, types: types)
            for index in job.firstStep..<plan.steps.count {
                emit("S \(index)")
                for finding in try executor.run(plan.steps[index], willNormalize: { emit("A " + $0) }) {
                    emit("F " + finding.transport.jsonString())
                }
            }
            emit("D")
        } catch {
            emit("E " + JSONValue.object(["location": .string(error.location), "message": .string(error.message)]).jsonString())
        }
        exit(completedExitCode)
    }

    /// Writes one marked line straight to the standard output (no buffer to lose in a crash).
    private static func emit(_ line: String) {
        var bytes = Array((marker + line).utf8)
        // A line holds no newline: findings are JSON text, whose strings escape them.
        bytes.removeAll { $0 == UInt8(ascii: "\n") }
        bytes.append(UInt8(ascii: "\n"))
        FileHandle.standardOutput.write(Data(bytes))
    }
}

extension ConformanceFinding {
    /// The finding as JSON, to pass it from a child process.
    var transport: JSONValue {
        var o: JSONObject = ["check": .string(check.rawValue), "subject": .string(subject), "detail": .string(detail)]
        if let input { o["input"] = input }
        return .object(o)
    }

    /// Reads ``transport`` back.
    init?(transport value: JSONValue) {
        guard let check = value["check"]?.stringValue.flatMap(Check.init(rawValue:)),
            let subject = value["subject"]?.stringValue, let detail = value["detail"]?.stringValue
        else { return nil }
        self.init(check: check, subject: subject, input: value["input"], detail: detail)
    }
}
