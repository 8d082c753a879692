import Foundation
public import TapRoute

extension YAMLConfiguration {
    /// Reads the apple-app-site-association files that `app.aasa` names into
    /// `app.aasaDocuments`, so that the registry classifies universal links on those
    /// domains exactly as iOS does.
    ///
    /// Relative paths are resolved against `directory` (the configuration file's folder).
    /// Each file must be valid as Apple requires it: JSON, at most 128 KB, every value of
    /// the right type (lint warnings do not stop it; `normalize aasa lint` shows them).
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
            do {
                bytes = Array(try Data(contentsOf: URL(fileURLWithPath: resolved)))
            } catch {
                found.append(
                    ConfigurationError("cannot read AASA file '\(resolved)': \(error.localizedDescription)", kind: .aasaFile, at: keyPath)
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
