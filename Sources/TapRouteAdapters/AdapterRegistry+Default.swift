public import TapRoute

extension Configuration {
    /// The embedded default configuration: the repository's `config.yaml`, compiled in as JSON
    /// (``DefaultConfiguration/json``) and read with the core's JSON parser — no YAML reader,
    /// so an app that uses the built-in adapters does not link Yams.
    ///
    /// It is the configuration `normalize` uses when there is no `./config.yaml` and no
    /// `--config`, and it needs no file at run time. Tests hold it equal to `config.yaml` as
    /// `TapRouteYAML` reads it and build the built-in registry from it, so in practice it does
    /// not throw; errors name the file `<embedded config.yaml>`.
    ///
    /// ```swift
    /// var configuration = try Configuration.embeddedDefault()
    /// configuration.app.schemes = ["myapp"]
    /// ```
    ///
    /// - Throws: ``ConfigurationError`` if the embedded text does not load.
    public static func embeddedDefault() throws(ConfigurationError) -> Configuration {
        let source = ConfigurationSource(file: DefaultConfiguration.fileName)
        let json: JSONValue
        do throws(JSONParseError) {
            json = try JSONParser().parse(DefaultConfiguration.json)
        } catch {
            throw source.locate(ConfigurationError("not valid JSON: \(error.description)", kind: .syntax))
        }
        return try Configuration(json: json, source: source)
    }
}

extension DefaultConfiguration {
    /// The name errors in the embedded default configuration give as their file.
    public static let fileName = "<embedded config.yaml>"
}

extension AdapterRegistry {
    /// A registry of TapRoute's built-in adapters and definitions (and any of your own), over
    /// the embedded default configuration or the one you pass.
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
    ///   - definitions: adapter definitions of your own (from `AdapterDefinition.parse(yaml:file:)`
    ///     or `AdapterDefinition.load(contentsOf:)` in `TapRouteYAML`, or
    ///     ``TapRoute/AdapterDefinition/init(json:source:origin:)``), known next to
    ///     ``builtInDefinitions()``; enable one by listing its id in the configuration.
    /// - Returns: the registry.
    /// - Throws: ``ConfigurationError`` as ``init(configuration:adapterTypes:definitions:classifier:)``
    ///   does: an unknown or duplicate adapter id, or an adapter that refuses its options.
    public static func builtIn(
        configuration: Configuration? = nil,
        additionalAdapterTypes: [any PayloadAdapter.Type] = [],
        definitions: [AdapterDefinition] = []
    ) throws(ConfigurationError) -> AdapterRegistry {
        let resolved: Configuration
        if let configuration {
            resolved = configuration
        } else {
            resolved = try Configuration.embeddedDefault()
        }
        return try AdapterRegistry(
            configuration: resolved,
            adapterTypes: builtInAdapterTypes + additionalAdapterTypes,
            definitions: try builtInDefinitions() + definitions
        )
    }
}
