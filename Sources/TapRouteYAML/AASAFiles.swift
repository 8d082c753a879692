import Foundation
public import TapRoute

extension YAMLConfiguration {
    /// Reads the apple-app-site-association files that `app.aasa` names into
    /// `app.aasaDocuments`, so that the registry classifies universal links on those
    /// domains exactly as iOS does.
    ///
    /// Relative paths are resolved against `directory` (the configuration file's folder).
    /// Each file must be valid as Apple requires it: JSON, at most 128 KB (checked before
    /// the file is read, see ``AASAFileReader``), every value of the right type. The lint
    /// checks do not run here (`normalize aasa lint` runs them).
    ///
    /// - Throws: ``TapRoute/ConfigurationError`` at `app.aasa.<domain>` (located in the
    ///   configuration's file when it has a source map) when a file cannot be read or is
    ///   not valid, when the domain is not one of `app.domains`, or at `app.aasa` when
    ///   `app.appID` is missing — every such error, in file order.
    public static func loadingAASAFiles(_ configuration: Configuration, relativeTo directory: String) throws(ConfigurationError)
        -> Configuration
    {
        var errors = ConfigurationErrorList()
        let loaded = loadingAASAFiles(configuration, relativeTo: directory, errors: &errors)
        if let error = ConfigurationError(collecting: errors.list) { throw error }
        return loaded
    }

    /// ``loadingAASAFiles(_:relativeTo:)``, keeping the files that load and collecting an
    /// error for each that does not.
    package static func loadingAASAFiles(
        _ configuration: Configuration,
        relativeTo directory: String,
        errors: inout ConfigurationErrorList
    ) -> Configuration {
        var configuration = configuration
        let app = configuration.app
        guard !app.aasa.isEmpty else { return configuration }
        var found = ConfigurationErrorList()
        if app.appID == nil {
            found.append(
                ConfigurationError(
                    "needs app.appID (TEAMID.bundle.identifier): an AASA file's rules are per app",
                    kind: .aasaFile,
                    at: ["app", "aasa"]
                )
            )
        }
        var documents: [String: AASADocument] = [:]
        for (domain, file) in app.aasa.sorted(by: { $0.key < $1.key }) {
            let keyPath: ConfigurationError.KeyPath = ["app", "aasa", .key(domain)]
            guard app.domains.contains(domain) else {
                found.append(
                    ConfigurationError(
                        "'\(domain)' is not one of app.domains (\(app.domains.joined(separator: ", "))); an AASA file only refines the app's own domains",
                        kind: .aasaFile,
                        at: keyPath,
                        isAboutKey: true
                    )
                )
                continue
            }
            guard app.appID != nil else { continue }
            let resolved = file.hasPrefix("/") || directory.isEmpty ? file : (directory as NSString).appendingPathComponent(file)
            let bytes: [UInt8]
            do throws(AASAFileError) {
                bytes = try AASAFileReader.read(resolved)
            } catch {
                found.append(
                    ConfigurationError("\(error.description) (see `normalize aasa lint \(resolved)`)", kind: .aasaFile, at: keyPath)
                )
                continue
            }
            do throws(AASAError) {
                documents[domain] = try AASADocument(bytes: bytes)
            } catch {
                found.append(
                    ConfigurationError(
                        "AASA file '\(resolved)' is not valid: \(error.description) (see `normalize aasa lint \(resolved)`)",
                        kind: .aasaFile,
                        at: keyPath
                    )
                )
            }
        }
        configuration.app.aasaDocuments = documents
        errors.list += found.list.map { configuration.source?.locate($0) ?? $0 }
        return configuration
    }
}

/// Why an AASA file could not be read.
public enum AASAFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file could not be opened or read.
    case unreadable(path: String, reason: String)
    /// The file is larger than ``TapRoute/AASADocument/maximumSize``: `byteCount` is its size
    /// when `exact`, else the number of bytes read before giving up (a pipe, or a file that
    /// grew while it was read).
    case tooLarge(path: String, byteCount: Int, exact: Bool)

    /// A sentence naming the file and the problem.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "cannot read AASA file '\(path)': \(reason)"
        case .tooLarge(let path, let byteCount, let exact):
            "AASA file '\(path)' is \(exact ? "" : "more than ")\(exact ? byteCount : AASADocument.maximumSize) bytes; Apple accepts at most \(AASADocument.maximumSize) (128 KB)"
        }
    }

    /// The `tooLarge` diagnostic `normalize aasa lint` reports for this error, or `nil` for
    /// an unreadable file.
    package var diagnostic: AASADiagnostic? {
        guard case .tooLarge(_, let byteCount, let exact) = self else { return nil }
        return AASADocument.sizeDiagnostic(byteCount: byteCount, exact: exact)
    }
}

/// Reads apple-app-site-association files with Apple's size limit applied before and while
/// reading: a file whose size (from the file system) is over
/// ``TapRoute/AASADocument/maximumSize`` is refused without reading it, and at most one byte
/// more than the limit is ever read, so that a file that grows, a pipe or a device cannot
/// make TapRoute read more.
public enum AASAFileReader {
    /// The bytes of the file at `path`, at most ``TapRoute/AASADocument/maximumSize``.
    /// - Throws: ``AASAFileError``: `tooLarge` when the file is larger, `unreadable` when it
    ///   cannot be opened or read.
    public static func read(_ path: String) throws(AASAFileError) -> [UInt8] {
        let limit = AASADocument.maximumSize
        if let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            attributes[.type] as? FileAttributeType == .typeRegular,
            let size = (attributes[.size] as? NSNumber)?.intValue, size > limit
        {
            throw .tooLarge(path: path, byteCount: size, exact: true)
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "it cannot be opened" : "no such file"
            throw .unreadable(path: path, reason: reason)
        }
        defer { try? handle.close() }
        var bytes: [UInt8] = []
        do {
            while bytes.count <= limit {
                guard let chunk = try handle.read(upToCount: limit + 1 - bytes.count), !chunk.isEmpty else { break }
                bytes.append(contentsOf: chunk)
            }
        } catch {
            throw .unreadable(path: path, reason: error.localizedDescription)
        }
        if bytes.count > limit { throw .tooLarge(path: path, byteCount: bytes.count, exact: false) }
        return bytes
    }
}
