public import TapRoute
import TapRouteYAML

extension Configuration {
    /// The embedded default configuration: the repository's `config.yaml`
    /// (``DefaultConfiguration/yaml``), compiled in and parsed.
    ///
    /// It is what `normalize` uses when there is no `./config.yaml` and no `--config`, and it
    /// needs no file at run time. A test parses it and builds the built-in registry from it,
    /// so in practice it does not throw; errors name the file `<embedded config.yaml>`.
    ///
    /// ```swift
    /// var configuration = try Configuration.embeddedDefault()
    /// configuration.app.schemes = ["myapp"]
    /// ```
    ///
    /// - Throws: ``ConfigurationError`` if the embedded text does not load.
    public static func embeddedDefault() throws(ConfigurationError) -> Configuration {
        try YAMLConfiguration.parse(yaml: DefaultConfiguration.yaml, file: DefaultConfiguration.fileName)
    }
}

extension DefaultConfiguration {
    /// The name errors in the embedded default configuration give as their file.
    public static let fileName = "<embedded config.yaml>"
}

extension AdapterRegistry {
    /// A registry of TapRoute's built-in adapters (and any of your own), over the embedded
    /// default configuration or the one you pass.
    ///
    /// With no arguments it is the registry `normalize` uses without a `config.yaml`:
    ///
    /// ```swift
    /// let registry = try AdapterRegistry.builtIn()
    /// let interaction = try registry.normalize(.url("campaigndemoapp://products/42"))
    /// ```
    ///
    /// - Parameters:
    ///   - configuration: the configuration to use; `nil` (the default) is
    ///     ``TapRoute/Configuration/embeddedDefault()``.
    ///   - additionalAdapterTypes: adapter types of your own, known next to
    ///     ``builtInAdapterTypes``; enable one by listing its id in the configuration.
    /// - Returns: the registry.
    /// - Throws: ``ConfigurationError`` as ``init(configuration:adapterTypes:classifier:)``
    ///   does: an unknown or duplicate adapter id, or an adapter that refuses its options.
    public static func builtIn(
        configuration: Configuration? = nil,
        additionalAdapterTypes: [any PayloadAdapter.Type] = []
    ) throws(ConfigurationError) -> AdapterRegistry {
        let resolved: Configuration
        if let configuration {
            resolved = configuration
        } else {
            resolved = try Configuration.embeddedDefault()
        }
        return try AdapterRegistry(
            configuration: resolved,
            adapterTypes: builtInAdapterTypes + additionalAdapterTypes
        )
    }
}
