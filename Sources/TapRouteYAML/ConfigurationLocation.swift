import Foundation
public import TapRoute

/// Where a tool's configuration comes from, found as `normalize` and the HTTP service find
/// it: the file named by `--config`, else `config.yaml` in the current directory, else the
/// default configuration built into the tool.
///
/// ```swift
/// let source = ConfigurationLocation.locate(explicitPath: options.config)
/// let configuration = try source.load(embeddedDefault: DefaultConfiguration.yaml)
/// ```
///
/// Errors name the file as the user knows it (`./config.yaml` for the file found in the
/// current directory) and, for that file, add a note saying why it was read and how to
/// choose another (``note``).
public enum ConfigurationLocation: Sendable, Hashable {
    /// A file the user named (`--config FILE`).
    case file(String)
    /// `config.yaml` in the current directory, read because no file was named.
    case currentDirectory
    /// The default configuration built into the tool.
    case embedded

    /// The file name looked for in the current directory.
    public static let currentDirectoryFile = "config.yaml"

    /// The source for `explicitPath` (the `--config` option), else `config.yaml` when the
    /// current directory has one, else the embedded default.
    public static func locate(explicitPath: String?) -> ConfigurationLocation {
        if let explicitPath { return .file(explicitPath) }
        if FileManager.default.fileExists(atPath: currentDirectoryFile) { return .currentDirectory }
        return .embedded
    }

    /// The name errors give the configuration: the path, `./config.yaml`, or
    /// `<embedded config.yaml>`.
    public var name: String {
        switch self {
        case .file(let path): path
        case .currentDirectory: "./" + Self.currentDirectoryFile
        case .embedded: "<embedded config.yaml>"
        }
    }

    /// The line to print after the errors of a configuration read from the current
    /// directory — which the user may not know was read — and `nil` otherwise.
    public var note: String? {
        guard self == .currentDirectory else { return nil }
        return "note: ./config.yaml was read because it is in the current directory; "
            + "pass --config FILE to use another configuration"
    }

    /// The configuration's text: the file's (read as ``YAMLConfiguration/read(contentsOf:)``
    /// reads it), or `embeddedDefault`.
    /// - Throws: ``ConfigurationLoadError`` when the file cannot be read.
    public func text(embeddedDefault: String) throws(ConfigurationLoadError) -> String {
        do throws(ConfigurationError) {
            switch self {
            case .embedded: return embeddedDefault
            case .file(let path): return try YAMLConfiguration.read(contentsOf: path)
            case .currentDirectory: return try YAMLConfiguration.read(contentsOf: Self.currentDirectoryFile)
            }
        } catch {
            // The file read as `config.yaml` is named as the user sees it.
            throw failure(self == .currentDirectory ? error.map { one in one.inFile(name) } : error)
        }
    }

    /// The configuration, read and checked.
    /// - Throws: ``ConfigurationLoadError`` with every error found, each naming the file,
    ///   line and column, and ``note``.
    public func load(embeddedDefault: String) throws(ConfigurationLoadError) -> Configuration {
        let text = try text(embeddedDefault: embeddedDefault)
        do throws(ConfigurationError) {
            return try YAMLConfiguration.parse(yaml: text, file: name)
        } catch {
            throw failure(error)
        }
    }

    /// The configuration, read and checked, with the embedded default built by `embedded`
    /// rather than read from YAML text — for a tool whose embedded default is also compiled
    /// in as JSON (`Configuration.embeddedDefault()` in `TapRouteAdapters`): reading it
    /// that way does not start the YAML reader, a third of what `normalize` does before its
    /// first record.
    /// - Throws: ``ConfigurationLoadError`` as ``load(embeddedDefault:)`` does.
    public func load(
        embedded: () throws(ConfigurationError) -> Configuration
    ) throws(ConfigurationLoadError) -> Configuration {
        // A file's text is read from the file; the embedded text is never asked for.
        guard self == .embedded else { return try load(embeddedDefault: "") }
        do throws(ConfigurationError) {
            return try embedded()
        } catch {
            throw failure(error)
        }
    }

    /// `error` about this configuration, with ``note`` after it — for errors found later,
    /// when the registry is built from the configuration.
    public func failure(_ error: ConfigurationError) -> ConfigurationLoadError {
        ConfigurationLoadError(error: error, note: note)
    }
}

/// A configuration that could not be loaded: its errors, each with file, line, column and
/// key path, and a line to print after them. Tools print ``description`` and exit with
/// status 2.
public struct ConfigurationLoadError: Error, Sendable, CustomStringConvertible {
    /// The errors (``TapRoute/ConfigurationError/errors``).
    public let error: ConfigurationError
    /// A line to print after the errors (``ConfigurationLocation/note``), or `nil`.
    public let note: String?

    /// Creates the error.
    public init(error: ConfigurationError, note: String? = nil) {
        self.error = error
        self.note = note
    }

    /// The errors, one per line (`file:line:column: error: …`), then the note.
    public var description: String {
        var text = error.description
        if let note { text += "\n" + note }
        return text
    }
}

extension ConfigurationError {
    /// The error with `file` as its file.
    fileprivate func inFile(_ file: String) -> ConfigurationError {
        var renamed = self
        renamed.file = file
        return renamed
    }
}
