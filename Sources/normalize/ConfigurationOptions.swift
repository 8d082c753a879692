import ArgumentParser
import Foundation
import TapRoute
import TapRouteAdapters
import TapRouteYAML

/// The `--config` option shared by the subcommands.
struct ConfigurationOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The registry configuration (YAML).",
            discussion: "Without it, ./config.yaml is read when present, else the embedded default configuration.",
            valueName: "file"
        )
    )
    var config: String?

    /// Where the configuration comes from.
    enum Origin: Equatable {
        /// `--config FILE` (or check-config's argument).
        case option(String)
        /// `./config.yaml`, found in the current directory.
        case currentDirectory
        /// The embedded default.
        case embedded

        /// The name errors give it.
        var name: String {
            switch self {
            case .option(let path): path
            case .currentDirectory: "./config.yaml"
            case .embedded: "<embedded config.yaml>"
            }
        }

        /// What to add after its errors: for `./config.yaml`, that it was picked up from the
        /// current directory, and how to choose another.
        var note: String? {
            guard self == .currentDirectory else { return nil }
            return "note: ./config.yaml was read because it is in the current directory; "
                + "pass --config FILE to use another configuration"
        }
    }

    /// Where the configuration comes from: `--config`, else `./config.yaml` when present,
    /// else the embedded default.
    var origin: Origin {
        if let config { return .option(config) }
        if FileManager.default.fileExists(atPath: "config.yaml") { return .currentDirectory }
        return .embedded
    }

    /// The configuration's text and the name errors give it.
    func text() throws(ConfigurationFailure) -> (text: String, origin: Origin) {
        let origin = self.origin
        switch origin {
        case .embedded: return (DefaultConfiguration.yaml, origin)
        case .option(let path):
            do throws(ConfigurationError) {
                return (try YAMLConfiguration.read(contentsOf: path), origin)
            } catch {
                throw ConfigurationFailure(error: error, note: nil)
            }
        case .currentDirectory:
            do throws(ConfigurationError) {
                return (try YAMLConfiguration.read(contentsOf: "config.yaml"), origin)
            } catch {
                let renamed = error.map { one in
                    var renamed = one
                    renamed.file = origin.name
                    return renamed
                }
                throw ConfigurationFailure(error: renamed, note: origin.note)
            }
        }
    }

    /// The configuration to use, and where it came from.
    func loadConfiguration() throws(ConfigurationFailure) -> (Configuration, String) {
        let (text, origin) = try text()
        do throws(ConfigurationError) {
            return (try YAMLConfiguration.parse(yaml: text, file: origin.name), origin.name)
        } catch {
            throw ConfigurationFailure(error: error, note: origin.note)
        }
    }

    /// The registry for the configuration, with every built-in adapter and definition known
    /// (and the definition files the configuration names).
    func loadRegistry() throws(ConfigurationFailure) -> AdapterRegistry {
        let (configuration, _) = try loadConfiguration()
        do throws(ConfigurationError) {
            return try AdapterRegistry.builtIn(configuration: configuration)
        } catch {
            throw ConfigurationFailure(error: error, note: origin.note)
        }
    }
}

/// Configuration errors, reported one per line as `file:line:column: error: …` (then a
/// note, when there is one) with exit status 2.
struct ConfigurationFailure: Error, CustomStringConvertible {
    /// The errors (``ConfigurationError/errors``).
    let error: ConfigurationError
    /// A line to print after the errors.
    var note: String? = nil

    var description: String {
        var text = error.description
        if let note { text += "\n" + note }
        return text
    }
}
