import Foundation
import TapRoute
import TapRouteTestSupport
import Testing

@testable import normalize

/// The `normalize` CLI for people (docs/cli.md): the main help, hints for a mistyped
/// subcommand or a URL given as a file, and the progress line on a terminal — each through the
/// built binary.
@Suite struct CLIUsabilityTests {
    static let record = #"{"kind":"url","url":"campaigndemoapp://products/42?ref=push"}"#
    static let subcommands = ["run", "check-config", "adapters", "route", "aasa"]

    // MARK: Help

    /// `normalize --help` shows what `normalize FILE…` accepts: every option and argument of
    /// `run` (as `normalize help run` lists them, so an option added later is covered), then
    /// the subcommands.
    @Test(arguments: [["--help"], ["-h"], ["help"]])
    func mainHelpShowsRunOptionsAndSubcommands(arguments: [String]) throws {
        let help = try normalize(arguments)
        #expect(help.status == 0, "\(help.stderr)")
        #expect(help.stderr.isEmpty)
        let text = help.stdout
        #expect(text.hasPrefix("OVERVIEW: Turn push, in-app and link payloads"))
        #expect(text.contains("USAGE: normalize [run] [--config <file>] [--lines]"), "\(text)")
        #expect(text.contains("\n       normalize <subcommand>\n"), "\(text)")
        for option in ["--lines", "--jobs <n>", "--config <file>", "--pretty", "--vendor <id>", "--quiet", "--version"] {
            #expect(text.contains("\n  \(option) "), "\(option) missing from:\n\(text)")
        }
        // One serialiser, so no second path to select.
        #expect(!text.contains("--reference"), "\(text)")
        let runHelp = try normalize(["help", "run"])
        #expect(runHelp.status == 0)
        let runOptions = runHelp.lines.filter { $0.hasPrefix("  -") || $0.hasPrefix("  <") }
        #expect(runOptions.count >= 9, "\(runHelp.stdout)")
        for line in runOptions {
            #expect(help.lines.contains(line), "'\(line)' of 'normalize help run' missing from the main help")
        }
        let subcommandSection = try #require(text.range(of: "\nSUBCOMMANDS:\n"))
        #expect(text[..<subcommandSection.lowerBound].contains("\nOPTIONS:\n"), "options come before the subcommands")
        let listed = text[subcommandSection.upperBound...]
        for name in Self.subcommands {
            #expect(listed.contains("\n  \(name) ") || listed.hasPrefix("  \(name) "), "\(name) missing from:\n\(listed)")
        }
        #expect(text.hasSuffix("See 'normalize help <subcommand>' for detailed help.\n"))
    }

    /// The other help requests are unchanged: a subcommand's own help, and `--help` after
    /// other arguments (the default subcommand's help).
    @Test func subcommandHelpIsUnchanged() throws {
        let route = try normalize(["help", "route"])
        #expect(route.status == 0)
        #expect(route.stdout.contains("USAGE: normalize route"), "\(route.stdout)")
        #expect(!route.stdout.contains("SUBCOMMANDS:"))
        let run = try normalize(["--lines", "--help"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("USAGE: normalize run "), "\(run.stdout)")
    }

    // MARK: Hints

    /// A mistyped subcommand where the first file would be: the missing-file message (exit 2,
    /// other inputs still processed) gains `did you mean 'normalize NAME …'?`.
    @Test(arguments: [
        ("rout", "route"), ("roue", "route"), ("ruote", "route"), ("Route", "route"), ("adaptrs", "adapters"),
        ("adapter", "adapters"), ("check-confg", "check-config"), ("checkconfig", "check-config"), ("asa", "aasa"),
        ("aasaa", "aasa"), ("rnu", "run"), ("ru", "run"),
    ])
    func mistypedSubcommandGetsAHint(typed: String, meant: String) throws {
        let directory = try Scratch.directory("hints")
        let input = try Scratch.file("in.jsonl", Self.record + "\n")
        let run = try normalize([typed, input], in: directory)
        #expect(run.status == 2)
        #expect(
            run.stderr == "normalize: cannot open '\(typed)': No such file or directory; did you mean 'normalize \(meant) …'?\n",
            "\(run.stderr)"
        )
        #expect(run.lines.count == 1, "the other input is still processed")
    }

    /// No subcommand hint for a name far from every subcommand, for a missing file that is not
    /// the first argument, for a path, and none at all for a file that exists.
    @Test func noSubcommandHintWhereNoneApplies() throws {
        let directory = try Scratch.directory("nohints")
        for arguments in [["reports.json"], ["report"], ["aasa-files"], ["./route"], ["dir/route"]] {
            let run = try normalize(arguments, in: directory)
            #expect(run.status == 2)
            #expect(run.stderr == "normalize: cannot open '\(arguments[0])': No such file or directory\n", "\(run.stderr)")
        }
        let input = try Scratch.file("in.jsonl", Self.record + "\n")
        let second = try normalize(["--lines", input, "rout"], in: directory)
        #expect(second.stderr == "normalize: cannot open 'rout': No such file or directory\n", "\(second.stderr)")
        // A file that exists is read, whatever its name.
        try Data((Self.record + "\n").utf8).write(to: URL(fileURLWithPath: directory + "/rout"))
        let existing = try normalize(["--lines", "rout"], in: directory)
        #expect(existing.status == 0 && existing.stderr.isEmpty, "\(existing.stderr)")
        #expect(existing.lines.count == 1)
    }

    /// A URL where `normalize` expects a file: the message says what to do instead, and the
    /// envelope it suggests is valid JSON (the URL escaped), read as one envelope.
    @Test(arguments: ["https://x", "https://example.com/a?b=\"c\"&d=\\e", "campaigndemoapp://products/42", "mailto:a@example.com"])
    func urlGivenAsAFileGetsAHint(url: String) throws {
        let directory = try Scratch.directory("urls")
        let input = try Scratch.file("in.jsonl", Self.record + "\n")
        let run = try normalize([input, url], in: directory)
        #expect(run.status == 2)
        #expect(run.lines.count == 1, "the other input is still processed")
        var envelope = Array(#"{"kind":"url","url":"#.utf8)
        JSONWriter.writeString(url, into: &envelope)
        envelope.append(UInt8(ascii: "}"))
        let envelopeText = String(decoding: envelope, as: UTF8.self)
        let expected =
            "normalize: cannot open '\(url)': No such file or directory; '\(url)' is not a file: to resolve a URL use "
            + "'normalize route URL', to normalize a URL envelope pipe \(envelopeText) into 'normalize'\n"
        #expect(run.stderr == expected, "\(run.stderr)")
        let suggested = try normalize([], stdin: envelopeText)
        #expect(suggested.status != 2, "\(suggested.stderr)")
        #expect(suggested.lines.count == 1 && !suggested.stdout.contains("invalidJSON"), "\(suggested.stdout)")
    }

    /// A URL where another subcommand or option expects a local file.
    @Test(arguments: [
        ["check-config", "https://example.com/config.yaml"],
        ["--config", "https://example.com/config.yaml", "in.json"],
        ["route", "--config", "https://example.com/config.yaml", "https://example.com/x"],
        ["aasa", "match", "--file", "https://example.com/aasa", "--app-id", "ABCDE12345.com.example", "https://example.com/x"],
    ])
    func urlGivenAsALocalFileGetsAHint(arguments: [String]) throws {
        let directory = try Scratch.directory("urlfiles")
        let url = arguments[arguments.firstIndex(where: { $0 == "--config" || $0 == "--file" || $0 == "check-config" })! + 1]
        let run = try normalize(arguments, in: directory)
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("\(url): error: cannot read"), "\(run.stderr)")
        #expect(
            run.stderr.hasSuffix(
                "\nnormalize: '\(url)' is not a file: a local file is expected; download it first (curl -fLo FILE '\(url)')\n"
            ),
            "\(run.stderr)"
        )
    }

    @Test func urlGivenToAASALintGetsAHint() throws {
        let directory = try Scratch.directory("lint")
        let url = "https://example.com/.well-known/apple-app-site-association"
        let run = try normalize(["aasa", "lint", url], in: directory)
        #expect(run.status == 1)
        #expect(
            run.stdout.contains(
                "; '\(url)' is not a file: a local file is expected; download it first (curl -fLo FILE '\(url)') [unreadable]"
            ),
            "\(run.stdout)"
        )
    }

    @Test func editDistanceCountsAnAdjacentSwapAsOneEdit() {
        func distance(_ a: String, _ b: String) -> Int { UsageHint.editDistance(Array(a), Array(b)) }
        #expect(distance("route", "route") == 0)
        #expect(distance("rnu", "run") == 1)
        #expect(distance("", "aasa") == 4)
        #expect(distance("kitten", "sitting") == 3)
        #expect(UsageHint.looksLikeURL("c:x") == false)
        #expect(UsageHint.looksLikeURL("tel:1"))
        #expect(UsageHint.looksLikeURL("in.jsonl") == false)
        #expect(UsageHint.looksLikeURL("https:") == false)
    }

    // MARK: Progress

    /// A JSON array of `count` records.
    static func document(_ count: Int) -> String {
        "[" + Array(repeating: record, count: count).joined(separator: ",\n") + "]\n"
    }

    /// Under a terminal, with the delay set to zero: the line is drawn (records, records/s,
    /// percent of the file) part-way through the file, and erased at the end; standard output
    /// is byte for byte what it is without a terminal.
    @Test(.enabled(if: TerminalRun.available, "needs python3 with its pty module to give standard error a terminal"))
    func progressLineIsDrawnOnATerminalAndErased() throws {
        // Over 2 MiB: the document is read in three 1 MiB blocks.
        let input = try Scratch.file("big.json", Self.document(36_000))
        let plain = try TerminalRun.run([input], stderr: .file)
        #expect(plain.status == 0)
        #expect(plain.stderr.isEmpty, "no terminal, no progress: \(plain.stderr.debugDescription)")
        let shown = try TerminalRun.run([input], stderr: .terminal)
        #expect(shown.status == 0)
        #expect(shown.stdout == plain.stdout, "standard output is the same under a terminal")
        let erase = "\r\u{1B}[2K"
        let drawn = shown.stderr.components(separatedBy: erase).filter { !$0.isEmpty }
        #expect(!drawn.isEmpty, "\(shown.stderr.debugDescription)")
        for line in drawn {
            #expect(line.hasPrefix("normalize: ") && line.contains(" records, ") && line.contains(" records/s, "), "\(line)")
            #expect(line.contains("% of '"), "\(line)")
            #expect(line.count < 80, "the line never wraps: \(line)")
        }
        #expect(drawn.first.map { !$0.contains(" 100% of") } == true, "the first line is drawn part-way: \(drawn)")
        #expect(shown.stderr.hasSuffix(erase), "the line is erased at the end: \(shown.stderr.debugDescription)")
        #expect(!shown.stderr.contains("\n"))
    }

    /// JSON Lines report too, and a message is preceded by erasing the line, so the two never
    /// share a line; the line comes back after it, and the counts go on across inputs.
    @Test(.enabled(if: TerminalRun.available, "needs python3 with its pty module to give standard error a terminal"))
    func progressLineIsErasedBeforeAMessage() throws {
        let input = try Scratch.file("in.jsonl", String(repeating: Self.record + "\n", count: 2_000))
        let run = try TerminalRun.run(["--lines", input, "missing.jsonl", input], stderr: .terminal)
        #expect(run.status == 2)
        let erase = "\r\u{1B}[2K"
        let message = "normalize: cannot open 'missing.jsonl': No such file or directory\r\n"
        #expect(run.stderr.contains(erase + message), "\(run.stderr.debugDescription)")
        // The counts drawn (an input is read in blocks, and the line is redrawn at most four
        // times a second): some of the first input's 2,000 records before the message, and
        // after it counts that go on from them.
        func counts(_ text: String) -> [Int] {
            text.components(separatedBy: "normalize: ").dropFirst().compactMap { Int($0.prefix { $0.isNumber }) }
        }
        let parts = run.stderr.components(separatedBy: message)
        #expect(parts.count == 2, "\(run.stderr.debugDescription)")
        let before = counts(parts[0])
        let after = counts(parts.count == 2 ? parts[1] : "")
        #expect(!before.isEmpty && before.allSatisfy { (1...2_000).contains($0) }, "\(run.stderr.debugDescription)")
        #expect(!after.isEmpty && after.allSatisfy { (2_001...4_000).contains($0) }, "\(run.stderr.debugDescription)")
        #expect(run.stderr.hasSuffix(erase))
        let plain = try TerminalRun.run(["--lines", input, "missing.jsonl", input], stderr: .file)
        #expect(plain.stdout == run.stdout)
        #expect(plain.stderr == "normalize: cannot open 'missing.jsonl': No such file or directory\n")
    }

    /// No line with `--quiet`, when standard output is the same terminal, or for a run shorter
    /// than the delay; standard output is unchanged.
    @Test(.enabled(if: TerminalRun.available, "needs python3 with its pty module to give standard error a terminal"))
    func noProgressLineWhenQuietOrStandardOutputIsATerminalOrTheRunIsShort() throws {
        let input = try Scratch.file("in.json", Self.document(3_000))
        let plain = try TerminalRun.run([input], stderr: .file)
        let quiet = try TerminalRun.run(["--quiet", input], stderr: .terminal)
        #expect(quiet.status == 0)
        #expect(quiet.stderr.isEmpty, "\(quiet.stderr.debugDescription)")
        #expect(quiet.stdout == plain.stdout)
        let both = try TerminalRun.run([input], stderr: .terminalWithStandardOutput)
        #expect(both.status == 0)
        #expect(!both.stdout.contains("\u{1B}"), "no progress between the records")
        #expect(both.stdout.replacingOccurrences(of: "\r\n", with: "\n") == plain.stdout)
        // The delay: a run shorter than it shows no line (a minute, so a loaded machine cannot
        // make the run outlast it).
        let short = try TerminalRun.run([input], stderr: .terminal, delay: 60_000)
        #expect(short.status == 0)
        #expect(short.stderr.isEmpty, "a run shorter than the delay shows no line: \(short.stderr.debugDescription)")
        #expect(short.stdout == plain.stdout)
    }
}

/// The `normalize` binary with standard error on a pseudo-terminal (python3's `pty` module),
/// standard output captured to a file (or on the same terminal).
enum TerminalRun {
    enum StandardError {
        /// A regular file: not a terminal.
        case file
        /// A pseudo-terminal.
        case terminal
        /// Standard output and standard error on the same pseudo-terminal.
        case terminalWithStandardOutput
    }

    static let python: String? = ["/usr/bin/python3", "/usr/local/bin/python3", "/bin/python3"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    static let available: Bool = {
        guard let python else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", "import pty, os; m, s = pty.openpty(); os.close(m); os.close(s)"]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    static let helper = """
        import os, pty, subprocess, sys
        binary, out_path, err_path, mode = sys.argv[1:5]
        args = sys.argv[5:]
        def drain(master):
            data = b""
            while True:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # EIO: the terminal's other end is closed
                    break
                if not chunk:
                    break
                data += chunk
            return data
        with open(out_path, "wb") as out, open(err_path, "wb") as err:
            if mode == "file":
                status = subprocess.call([binary] + args, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
            else:
                master, slave = pty.openpty()
                child = subprocess.Popen([binary] + args, stdin=subprocess.DEVNULL,
                                         stdout=slave if mode == "both" else out, stderr=slave)
                os.close(slave)
                data = drain(master)
                status = child.wait()
                (out if mode == "both" else err).write(data)
        sys.exit(status if status >= 0 else 128 - status)
        """

    /// Runs the binary with `TAPROUTE_PROGRESS_AFTER_MS` set to `delay`.
    static func run(_ arguments: [String], stderr: StandardError, delay: Int = 0) throws -> Child {
        let python = try #require(python)
        let scratch = try Scratch.directory("tty")
        let script = scratch + "/stderr_tty.py"
        try Data(helper.utf8).write(to: URL(fileURLWithPath: script))
        let mode =
            switch stderr {
            case .file: "file"
            case .terminal: "tty"
            case .terminalWithStandardOutput: "both"
            }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script, try Child.binary(), scratch + "/out", scratch + "/err", mode] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["TAPROUTE_PROGRESS_AFTER_MS"] = String(delay)
        process.environment = environment
        process.currentDirectoryURL = URL(fileURLWithPath: scratch)
        try process.run()
        process.waitUntilExit()
        func contents(_ name: String) -> String {
            (try? Data(contentsOf: URL(fileURLWithPath: scratch + "/" + name))).map { String(decoding: $0, as: UTF8.self) } ?? ""
        }
        return Child(status: process.terminationStatus, signal: 0, stdout: contents("out"), stderr: contents("err"), peakRSS: 0)
    }
}
