import Foundation
public import TapRoute

extension AdapterDefinition {
    /// Compiles a definition written in YAML (docs/declarative-adapters.md), read with the
    /// same limits as `config.yaml`: at most ``YAMLConfiguration/maximumBytes``,
    /// ``YAMLConfiguration/maximumNodes`` nodes and ``YAMLConfiguration/maximumDepth``
    /// levels, no anchors, aliases or merge keys.
    ///
    /// Use it for a definition an app holds as a string; its ``AdapterDefinition/origin`` is
    /// ``AdapterDefinition/Origin/text``.
    ///
    /// ```swift
    /// let acme = try AdapterDefinition.parse(yaml: acmeYAML, file: "acme.yaml")
    /// let registry = try AdapterRegistry.builtIn(configuration: configuration, definitions: [acme])
    /// ```
    ///
    /// - Parameters:
    ///   - yaml: the definition document.
    ///   - file: the name errors give it.
    /// - Throws: ``TapRoute/ConfigurationError``: YAML errors and the reading limits, located
    ///   at their `file:line:column`; then every mistake of the definition, each with its
    ///   line, column and key path inside the definition, in file order.
    public static func parse(yaml: String, file: String = "<definition>") throws(ConfigurationError) -> AdapterDefinition {
        try compile(yaml: yaml, file: file, origin: .text)
    }

    /// Reads and compiles the definition file at `path`, such as a bundle resource
    /// (`Bundle.main.path(forResource: "acme", ofType: "yaml")`). Its
    /// ``AdapterDefinition/origin`` is ``AdapterDefinition/Origin/file(_:)`` with `path`.
    ///
    /// - Parameter path: the file; it is read no further than
    ///   ``YAMLConfiguration/maximumBytes``.
    /// - Throws: ``TapRoute/ConfigurationError``: of kind `unreadable` when the file does not
    ///   exist, is not a regular file (a directory, a pipe, a device) or cannot be read,
    ///   `limitExceeded` when it is too large; else as ``parse(yaml:file:)``.
    public static func load(contentsOf path: String) throws(ConfigurationError) -> AdapterDefinition {
        let text: String
        do throws(DefinitionFileProblem) {
            text = try DefinitionFileProblem.read(path)
        } catch {
            throw ConfigurationError(error.sentence, kind: error.kind, file: path)
        }
        return try compile(yaml: text, file: path, origin: .file(path))
    }

    /// Parses `yaml` with the configuration's limits and compiles it.
    package static func compile(yaml: String, file: String, origin: Origin) throws(ConfigurationError) -> AdapterDefinition {
        let (document, source) = try YAMLConfiguration.document(yaml: yaml, file: file)
        return try AdapterDefinition(json: document, source: source, origin: origin)
    }
}

/// What reading one definition file gave, kept so that a file several entries name is read
/// once.
private enum DefinitionFileOutcome {
    /// The compiled definition.
    case loaded(AdapterDefinition)
    /// The file could not be read.
    case unreadable(DefinitionFileProblem)
    /// The file was read but is not a valid definition; its errors are reported.
    case invalid(errorCount: Int)
}

/// Why a definition file could not be read.
package enum DefinitionFileProblem: Error {
    /// No file at the path.
    case missing
    /// The path names a directory.
    case directory
    /// The path names something other than a regular file (a pipe, a socket, a device).
    case notRegular
    /// Opening or reading failed, or the text is not UTF-8.
    case unreadable(ConfigurationError)
    /// The file is larger than ``YAMLConfiguration/maximumBytes``.
    case tooLarge

    /// The error kind to report.
    package var kind: ConfigurationError.Kind {
        if case .tooLarge = self { return .limitExceeded }
        return .unreadable
    }

    /// What is wrong, as a clause: "no such file".
    package var reason: String {
        switch self {
        case .missing: "no such file"
        case .directory: "it is a directory"
        case .notRegular: "it is not a regular file"
        case .unreadable(let error): error.message
        case .tooLarge: "it is larger than \(YAMLConfiguration.maximumBytes) bytes; a definition is far smaller"
        }
    }

    /// The sentence for an error located in the file itself.
    package var sentence: String {
        "cannot read the definition file: \(reason)"
    }

    /// The text of the definition file at `path`: a regular file (symbolic links followed),
    /// read no further than ``YAMLConfiguration/maximumBytes``, so that a directory, a pipe
    /// or a device is refused before it is opened.
    package static func read(_ path: String) throws(DefinitionFileProblem) -> String {
        let real = (path as NSString).resolvingSymlinksInPath
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: real) else {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
                throw isDirectory.boolValue ? .directory : .unreadable(ConfigurationError("it cannot be examined", kind: .unreadable))
            }
            throw .missing
        }
        switch attributes[.type] as? FileAttributeType {
        case .typeRegular?: break
        case .typeDirectory?: throw .directory
        default: throw .notRegular
        }
        do throws(ConfigurationError) {
            return try YAMLConfiguration.read(contentsOf: real)
        } catch {
            if error.kind == .limitExceeded { throw .tooLarge }
            throw .unreadable(error)
        }
    }
}

extension YAMLConfiguration {
    /// The most adapter entries of a configuration that may name a definition file: 100.
    /// Each file is read once however many entries name it.
    public static let maximumDefinitionFiles = 100

    /// Reads and compiles the definition files that adapter entries name (`definition:`)
    /// into ``TapRoute/AdapterSettings/definition``, so that the registry runs them.
    ///
    /// Relative paths are resolved against `directory` (the configuration file's folder).
    /// Each file is read with the limits of `config.yaml` (see
    /// ``TapRoute/AdapterDefinition/load(contentsOf:)``).
    ///
    /// - Throws: ``TapRoute/ConfigurationError``: at `adapters[i].definition`, located in the
    ///   configuration's file, when the file cannot be read (missing, a directory, not a
    ///   regular file, unreadable, too large), is not a valid definition, has another id than
    ///   the entry, or is past ``maximumDefinitionFiles``; and every mistake inside a definition,
    ///   located in the definition's own file (`file:line:column` and the key path inside
    ///   it). The configuration's errors come first in file order, then each definition
    ///   file's.
    public static func loadingDefinitionFiles(_ configuration: Configuration, relativeTo directory: String) throws(ConfigurationError)
        -> Configuration
    {
        var errors = ConfigurationErrorList()
        let loaded = loadingDefinitionFiles(configuration, relativeTo: directory, errors: &errors)
        if let error = ConfigurationError(collecting: errors.list) { throw error }
        return loaded
    }

    /// ``loadingDefinitionFiles(_:relativeTo:)``, keeping the definitions that load and
    /// collecting an error for each problem.
    package static func loadingDefinitionFiles(
        _ configuration: Configuration,
        relativeTo directory: String,
        errors: inout ConfigurationErrorList
    ) -> Configuration {
        var configuration = configuration
        var inConfiguration = ConfigurationErrorList()
        var inDefinitions: [ConfigurationError] = []
        var outcomes: [String: DefinitionFileOutcome] = [:]
        var named = 0
        for index in configuration.adapters.indices {
            guard let file = configuration.adapters[index].definitionFile else { continue }
            let entryID = configuration.adapters[index].id
            let keyPath: ConfigurationError.KeyPath = ["adapters", .index(index), "definition"]
            named += 1
            guard named <= maximumDefinitionFiles else {
                inConfiguration.append(
                    ConfigurationError(
                        "more than \(maximumDefinitionFiles) adapter entries name a definition file",
                        kind: .limitExceeded,
                        at: keyPath
                    )
                )
                continue
            }
            let resolved = file.hasPrefix("/") || directory.isEmpty ? file : (directory as NSString).appendingPathComponent(file)
            // One read per file, however it is spelt (`shop.yaml`, `./shop.yaml`).
            let fileKey = (resolved as NSString).standardizingPath
            let outcome: DefinitionFileOutcome
            if let known = outcomes[fileKey] {
                outcome = known
            } else {
                do throws(DefinitionFileProblem) {
                    let text = try DefinitionFileProblem.read(resolved)
                    do throws(ConfigurationError) {
                        outcome = .loaded(try AdapterDefinition.compile(yaml: text, file: resolved, origin: .file(resolved)))
                    } catch {
                        // The file's own errors are listed once, however many entries name it.
                        inDefinitions += error.errors
                        outcome = .invalid(errorCount: error.errors.count)
                    }
                } catch {
                    outcome = .unreadable(error)
                }
                outcomes[fileKey] = outcome
            }
            let definition: AdapterDefinition
            switch outcome {
            case .loaded(let loaded): definition = loaded
            case .unreadable(let problem):
                inConfiguration.append(
                    ConfigurationError("cannot read the definition file '\(resolved)': \(problem.reason)", kind: problem.kind, at: keyPath)
                )
                continue
            case .invalid(let count):
                inConfiguration.append(
                    ConfigurationError(
                        "the definition file '\(resolved)' is not valid: \(count) error\(count == 1 ? "" : "s") in it, listed after this configuration's",
                        at: keyPath
                    )
                )
                continue
            }
            guard definition.id == entryID else {
                inConfiguration.append(
                    ConfigurationError(
                        "the definition in '\(resolved)' has id '\(definition.id)', not '\(entryID)': an entry's id must be its definition's",
                        at: keyPath
                    )
                )
                continue
            }
            configuration.adapters[index].definition = definition
        }
        errors.list += inConfiguration.list.map { configuration.source?.locate($0) ?? $0 } + inDefinitions
        return configuration
    }
}
