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

    /// Where the configuration comes from: `--config`, else `./config.yaml` when present,
    /// else the embedded default.
    var origin: ConfigurationLocation { .locate(explicitPath: config) }

    /// The configuration's text and where it came from.
    func text() throws(ConfigurationFailure) -> (text: String, origin: ConfigurationLocation) {
        let origin = self.origin
        return (try origin.text(embeddedDefault: DefaultConfiguration.yaml), origin)
    }

    /// The registry for the configuration, with every built-in adapter and definition known
    /// (and the definition files the configuration names).
    func loadRegistry() throws(ConfigurationFailure) -> AdapterRegistry {
        let origin = self.origin
        let configuration = try origin.load(embedded: Configuration.embeddedDefault)
        do throws(ConfigurationError) {
            return try AdapterRegistry.builtIn(configuration: configuration)
        } catch {
            throw origin.failure(error)
        }
    }
}

/// Configuration errors, reported one per line as `file:line:column: error: …` (then a
/// note, when there is one) with exit status 2: the library's ``ConfigurationLoadError``,
/// which the HTTP service reports the same way.
typealias ConfigurationFailure = ConfigurationLoadError
