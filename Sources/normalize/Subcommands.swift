import ArgumentParser
import Foundation
import NormalizeCore
import TapRoute
import TapRouteAdapters
import TapRouteTooling
import TapRouteYAML

/// `normalize check-config [FILE]`: validate a configuration and show what it means.
struct CheckConfig: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Validate a configuration and print the effective adapters, allowed schemes, policy and routes.",
        discussion: """
            Reports every error of the file in file order, with file:line:column and the key path, \
            including routes that can never match (a scheme or host the safety rules refuse, or an \
            earlier route that matches all their URLs); then every error of each definition file an \
            adapter entry names (definition:), at its own file:line:column with the path inside the \
            definition. Exit status 0 when the configuration is valid, 2 when it is not.
            """
    )

    @Argument(help: ArgumentHelp("The configuration file; default: --config, ./config.yaml, or the embedded default.", valueName: "file"))
    var file: String?

    @OptionGroup var options: ConfigurationOptions

    @Flag(name: .long, help: "Also print the lint warnings of the AASA files the configuration names (as `normalize aasa lint`).")
    var lint = false

    func run() throws {
        var options = self.options
        if let file { options.config = file }
        let (text, origin) = try options.text()
        var errors: [ConfigurationError]
        let configuration: Configuration
        do throws(ConfigurationError) {
            (configuration, errors) = try YAMLConfiguration.reading(yaml: text, file: origin.name)
        } catch {
            throw ConfigurationFailure(error: error, note: origin.note)
        }
        var registryErrors = ConfigurationErrorList()
        let builtInDefinitions: [AdapterDefinition]
        do throws(ConfigurationError) {
            builtInDefinitions = try AdapterRegistry.builtInDefinitions()
        } catch {
            builtInDefinitions = []
            registryErrors.list += error.errors
        }
        let registry = AdapterRegistry(
            configuration: configuration,
            adapterTypes: AdapterRegistry.builtInAdapterTypes,
            definitions: builtInDefinitions,
            errors: &registryErrors
        )
        // A key already reported while loading (a definition file that did not load) is
        // reported once, not again as an adapter the registry could not build.
        let reported = Set(errors.map { ReportedKey(file: $0.file, keyPath: $0.keyPath) })
        errors += registryErrors.list.filter { !reported.contains(ReportedKey(file: $0.file, keyPath: $0.keyPath)) }
        errors += registry.unreachableRoutes()
        if let error = ConfigurationError(collecting: errors) { throw ConfigurationFailure(error: error, note: origin.note) }
        let output = OutputSink()
        output.append(Array(Self.summary(of: registry, name: origin.name, lint: lint).utf8))
        try output.flush()
    }

    /// What the configuration means, as printed.
    static func summary(of registry: AdapterRegistry, name: String, lint: Bool = false) -> String {
        let c = registry.configuration
        var out = "configuration: \(name) (valid)\n"
        out += "app:\n  schemes: \(c.app.schemes.joined(separator: ", "))\n  domains: \(c.app.domains.joined(separator: ", "))\n"
        if let appID = c.app.appID { out += "  appID: \(appID)\n" }
        for (domain, path) in c.app.aasa.sorted(by: { $0.key < $1.key }) { out += "  aasa: \(domain) -> \(path)\n" }
        if c.enablesEveryAdapter {
            out += "adapters (detection order; every built-in adapter, as the configuration lists none; link is the fallback for links):\n"
        } else {
            out += "adapters (detection order; link is the fallback for links):\n"
        }
        var ids = registry.adapters.map(\.id)
        if !ids.contains(LinkAdapter.id) { ids.append(LinkAdapter.id) }
        let origins = AdapterOrigin.all(in: registry)
        for id in ids {
            guard let adapter = registry.adapter(forVendor: id) else { continue }
            out += "  - \(id): \(adapter.summary)\n"
            if let origin = origins[id] { out += "      from: \(origin)\n" }
            let settings = c.adapter(id)
            var policy: [String] = []
            if let value = c.defaults.automaticallyOpenDeeplinks { policy.append("defaults: \(value)") }
            if let value = settings?.policy.automaticallyOpenDeeplinks { policy.append("adapter: \(value)") }
            for channel in Channel.allCases {
                if let value = settings?.channels[channel]?.automaticallyOpenDeeplinks { policy.append("\(channel.rawValue): \(value)") }
            }
            out += "      automaticallyOpenDeeplinks: \(policy.isEmpty ? "vendor defaults" : policy.joined(separator: ", "))\n"
            if let options = settings?.options, !options.isEmpty {
                out += "      options: \(JSONValue.object(options).jsonString())\n"
            }
        }
        out += "routes (first match wins):\n"
        if c.routes.isEmpty { out += "  (none)\n" }
        for route in c.routes { out += "  - \(route.pattern) -> \(route.screen)\n" }
        out += "security:\n  allowedSchemes (effective; from):\n"
        let securityListed = c.source?.marks[["security", "allowedSchemes"]] != nil
        for entry in registry.allowedSchemes {
            let origins = entry.origins.map { origin in
                origin == .security && !securityListed ? "built-in default" : origin.description
            }
            out += "    - \(entry.scheme) (\(origins.joined(separator: ", ")))\n"
        }
        out += "  allowedHosts: \(c.security.allowedHosts.isEmpty ? "(any)" : c.security.allowedHosts.joined(separator: ", "))\n"
        out += "  maxURLLength: \(c.security.maxURLLength)\n"
        out += "limits:\n  maxRecordBytes: \(c.limits.maxRecordBytes)\n  maxDepth: \(c.limits.maxDepth)\n"
        if lint {
            out += "aasa lint:\n"
            for (domain, document) in c.app.aasaDocuments.sorted(by: { $0.key < $1.key }) {
                let warnings = document.lintWarnings()
                if warnings.isEmpty { out += "  \(domain): no problems found\n" }
                for warning in warnings { out += "  \(domain): \(warning.description)\n" }
            }
        }
        return out
    }
}

/// `normalize adapters`: list the adapters this build knows.
struct ListAdapters: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "adapters",
        abstract:
            "List every known adapter: its id, whether the configuration enables it, where it comes from (swift, built-in definition, definition file) and a one-line description."
    )

    @OptionGroup var options: ConfigurationOptions

    func run() throws {
        let registry = try options.loadRegistry()
        let output = OutputSink()
        for line in Self.lines(for: registry) { output.append(line: line) }
        try output.flush()
    }

    /// One line per known adapter: the enabled ones in detection order, then the disabled
    /// ones (Swift adapter types, then definitions: built in, given, then the files the
    /// configuration names), the `link` fallback last.
    static func lines(for registry: AdapterRegistry) -> [String] {
        let enabled = Set(registry.adapters.map(\.id))
        let origins = AdapterOrigin.all(in: registry)
        var rows: [(id: String, summary: String)] = registry.adapters.filter { $0.id != LinkAdapter.id }.map { ($0.id, $0.summary) }
        rows += registry.knownAdapterTypes.filter { $0.id != LinkAdapter.id && !enabled.contains($0.id) }.map { ($0.id, $0.summary) }
        rows += registry.knownDefinitions.filter { !enabled.contains($0.id) }.map { ($0.id, $0.summary) }
        rows.append((LinkAdapter.id, LinkAdapter.summary))
        let width = rows.map { origins[$0.id]?.description.count ?? 0 }.max() ?? 0
        return rows.map { row in
            let state = row.id == LinkAdapter.id ? "fallback" : enabled.contains(row.id) ? "enabled" : "disabled"
            let origin = origins[row.id]?.description ?? ""
            return
                "\(row.id.padding(toLength: 10, withPad: " ", startingAt: 0)) \(state.padding(toLength: 9, withPad: " ", startingAt: 0)) "
                + "\(origin.padding(toLength: width, withPad: " ", startingAt: 0)) \(row.summary)"
        }
    }
}

/// Where an adapter comes from, as `normalize adapters` and `check-config` print it.
enum AdapterOrigin: CustomStringConvertible {
    /// A Swift adapter type compiled into `normalize`.
    case swift
    /// A definition compiled into the library (`adapters/<Vendor>/<id>.yaml`).
    case builtInDefinition
    /// A definition file named by the configuration.
    case file(String)
    /// A definition given as text.
    case text

    var description: String {
        switch self {
        case .swift: "swift"
        case .builtInDefinition: "built-in definition"
        case .file(let path): "definition \(path)"
        case .text: "definition (text)"
        }
    }

    /// The origin of every adapter the registry knows, by id.
    static func all(in registry: AdapterRegistry) -> [String: AdapterOrigin] {
        var origins: [String: AdapterOrigin] = [:]
        for type in registry.knownAdapterTypes { origins[type.id] = .swift }
        for definition in registry.knownDefinitions {
            switch definition.origin {
            case .builtIn: origins[definition.id] = .builtInDefinition
            case .file(let path): origins[definition.id] = .file(path)
            case .text: origins[definition.id] = .text
            }
        }
        return origins
    }
}

/// An error's file and key path, to report each key once.
struct ReportedKey: Hashable {
    /// The file the error is in.
    var file: String?
    /// The key path the error is at.
    var keyPath: ConfigurationError.KeyPath
}

/// `normalize route URL…`: show where URLs lead under the configuration.
struct RouteURLs: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "route",
        abstract: "Print the destination each URL resolves to under the configuration (safety, routes, target, handling).",
        discussion: """
            Each URL is normalized as a {"kind":"url"} envelope; one JSON object per URL is printed. \
            An https URL on a domain with an AASA file (app.aasa) also gets "universalLink": the file's decision.
            """
    )

    @OptionGroup var options: ConfigurationOptions

    @Flag(name: .long, help: "Indent the output JSON.")
    var pretty = false

    @Argument(help: ArgumentHelp("The URLs to classify.", valueName: "url"))
    var urls: [String]

    func validate() throws {
        if urls.isEmpty { throw ValidationError("give at least one URL") }
    }

    func run() throws {
        let registry = try options.loadRegistry()
        let universalLink = AASAFiles.reporter(for: registry.configuration)
        var failed = false
        let output = OutputSink()
        for url in urls {
            var o: JSONObject = ["url": .string(url)]
            do throws(NormalizationError) {
                let interaction = try registry.normalize(.url(url))
                o["vendor"] = .string(interaction.vendor)
                o["channel"] = .string(interaction.channel.rawValue)
                o["destination"] = interaction.destination.jsonValue
                o["handling"] = .string(interaction.handling.rawValue)
                if !interaction.warnings.isEmpty { o["warnings"] = .array(interaction.warnings.map(\.jsonValue)) }
                if let report = universalLink(url) { o["universalLink"] = report }
            } catch {
                failed = true
                o["error"] = error.jsonValue
            }
            output.append(line: JSONValue.object(o).jsonString(pretty: pretty))
            try output.checkpoint()
        }
        try output.flush()
        if failed { throw ExitCode(1) }
    }
}
