import ArgumentParser
import Foundation
import NormalizeCore
import TapRoute
import TapRouteAdapters
import TapRouteYAML

/// `normalize`: vendor payloads in, canonical Interaction JSON out.
@main
struct Normalize: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "normalize",
        abstract: "Turn push, in-app and link payloads from any vendor into canonical Interaction JSON.",
        discussion: """
            Reads input envelopes (docs/model.md) and writes one JSON object per input: the \
            Interaction, or {"error":{"code","message","line","path"}}. Exit status: 0 when every \
            record normalized, 1 when some failed, 2 for usage or configuration errors and when an \
            input cannot be read or standard output cannot be written (docs/cli.md).
            """,
        version: TapRoutePackage.version,
        subcommands: [NormalizeFiles.self, EncodeMessages.self, CheckConfig.self, ListAdapters.self, RouteURLs.self, AASACommand.self],
        defaultSubcommand: NormalizeFiles.self
    )

    /// Runs the command, mapping usage errors to exit status 2 as documented.
    static func main() {
        StandardDescriptors.reserve()
        do {
            if isMainHelpRequest(Array(CommandLine.arguments.dropFirst())) {
                throw MainHelp()
            }
            var command = try parseAsRoot()
            try command.run()
        } catch let failure as ConfigurationFailure {
            var message = failure.description
            // A file that could not be read at all (no position), named by a URL.
            if failure.error.line == nil, let file = failure.error.file, let hint = UsageHint.forURLArgument(file) {
                message += "\nnormalize: \(hint)"
            }
            StandardError.writeLine(message)
            Foundation.exit(2)
        } catch let failure as IOFailure {
            StandardError.writeLine("normalize: \(failure)")
            Foundation.exit(2)
        } catch {
            let code = error is MainHelp ? .success : exitCode(for: error)
            if code == .success {
                // Help and version: written like any output, so a write error is reported.
                let output = OutputSink()
                let message = error is MainHelp ? mainHelp() : fullMessage(for: error)
                if !message.isEmpty { output.append(line: message) }
                do throws(IOFailure) {
                    try output.flush()
                } catch {
                    StandardError.writeLine("normalize: \(error)")
                    Foundation.exit(2)
                }
                Foundation.exit(0)
            }
            let message = fullMessage(for: error)
            if !message.isEmpty {
                StandardError.writeLine(message)
            }
            if let exitCode = error as? ExitCode {
                Foundation.exit(exitCode.rawValue)
            }
            Foundation.exit(2)
        }
    }
}

/// `normalize --help` (`-h`, `help`): asked for the main command's help.
struct MainHelp: Error {}

extension Normalize {
    /// Whether `arguments` ask for the help of `normalize` itself: one of `--help`, `-h`,
    /// `help`, alone.
    static func isMainHelpRequest(_ arguments: [String]) -> Bool {
        arguments.count == 1 && ["--help", "-h", "help"].contains(arguments[0])
    }

    /// The help of `normalize` itself: its overview, then the usage, arguments and options of
    /// the default subcommand (`run`, which `normalize [FILE…]` is), then the subcommands.
    /// Made from the help that swift-argument-parser generates for both, so it follows every
    /// option added to `run`.
    static func mainHelp(columns: Int? = nil) -> String {
        let root = helpSections(helpMessage(columns: columns))
        let run = helpSections(helpMessage(for: NormalizeFiles.self, columns: columns))
        var parts: [String] = []
        if let overview = root.first(where: { $0.title == "OVERVIEW" }) { parts.append(overview.text) }
        for section in run where section.title != "OVERVIEW" && section.title != "SUBCOMMANDS" {
            guard section.title == "USAGE" else {
                parts.append(section.text)
                continue
            }
            // `normalize run …` is also `normalize …`: the subcommand name is optional.
            let runName = "normalize \(NormalizeFiles.configuration.commandName ?? "run") "
            var usage = section.text
            if let range = usage.range(of: runName) {
                usage.replaceSubrange(range, with: "normalize [\(NormalizeFiles.configuration.commandName ?? "run")] ")
            }
            parts.append(usage + "\n       normalize <subcommand>")
        }
        if let subcommands = root.first(where: { $0.title == "SUBCOMMANDS" }) { parts.append(subcommands.text) }
        return parts.joined(separator: "\n\n")
    }

    /// Splits generated help into its sections: each starts at a line `TITLE:` in capitals at
    /// the start of a line and runs to the next one; trailing blank lines are dropped.
    private static func helpSections(_ help: String) -> [(title: String, text: String)] {
        var sections: [(title: String, lines: [Substring])] = []
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            if let colon = line.firstIndex(of: ":"), colon > line.startIndex,
                line[..<colon].allSatisfy({ $0.isUppercase }), line.first?.isWhitespace == false
            {
                sections.append((String(line[..<colon]), [line]))
            } else if !sections.isEmpty {
                sections[sections.count - 1].lines.append(line)
            }
        }
        return sections.map { section in
            var lines = section.lines
            while let last = lines.last, last.allSatisfy(\.isWhitespace) { lines.removeLast() }
            return (section.title, lines.joined(separator: "\n"))
        }
    }
}
