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
        subcommands: [NormalizeFiles.self, CheckConfig.self, ListAdapters.self, RouteURLs.self, AASACommand.self],
        defaultSubcommand: NormalizeFiles.self
    )

    /// Runs the command, mapping usage errors to exit status 2 as documented.
    static func main() {
        StandardDescriptors.reserve()
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let failure as ConfigurationFailure {
            StandardError.writeLine(failure.description)
            Foundation.exit(2)
        } catch let failure as IOFailure {
            StandardError.writeLine("normalize: \(failure)")
            Foundation.exit(2)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                // Help and version: written like any output, so a write error is reported.
                let output = OutputSink()
                let message = fullMessage(for: error)
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
