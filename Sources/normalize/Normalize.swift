import ArgumentParser
import Foundation
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
            record normalized, 1 when some failed, 2 for usage or configuration errors.
            """,
        subcommands: [NormalizeFiles.self, CheckConfig.self, ListAdapters.self, RouteURLs.self, AASACommand.self],
        defaultSubcommand: NormalizeFiles.self
    )

    /// Runs the command, mapping usage errors to exit status 2 as documented.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let failure as ConfigurationFailure {
            FileHandle.standardError.write(Data((failure.description + "\n").utf8))
            Foundation.exit(2)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                exit(withError: error)
            }
            let message = fullMessage(for: error)
            if !message.isEmpty {
                FileHandle.standardError.write(Data((message + "\n").utf8))
            }
            if let exitCode = error as? ExitCode {
                Foundation.exit(exitCode.rawValue)
            }
            Foundation.exit(2)
        }
    }
}
