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
    ///   `app.appID` is missing.
    public static func loadingAASAFiles(_ configuration: Configuration, relativeTo directory: String) throws(ConfigurationError)
        -> Configuration
    {
        var configuration = configuration
        let app = configuration.app
        guard !app.aasa.isEmpty else { return configuration }
        do throws(ConfigurationError) {
            guard app.appID != nil else {
                throw ConfigurationError(
                    "needs app.appID (TEAMID.bundle.identifier): an AASA file's rules are per app",
                    at: ["app", "aasa"]
                )
            }
            var documents: [String: AASADocument] = [:]
            for (domain, file) in app.aasa.sorted(by: { $0.key < $1.key }) {
                let keyPath: ConfigurationError.KeyPath = ["app", "aasa", .key(domain)]
                guard app.domains.contains(domain) else {
                    throw ConfigurationError(
                        "'\(domain)' is not one of app.domains; an AASA file only refines the app's own domains",
                        at: keyPath
                    )
                }
                let resolved = file.hasPrefix("/") || directory.isEmpty ? file : (directory as NSString).appendingPathComponent(file)
                let bytes: [UInt8]
                do {
                    bytes = Array(try Data(contentsOf: URL(fileURLWithPath: resolved)))
                } catch {
                    throw ConfigurationError("cannot read AASA file '\(resolved)': \(error.localizedDescription)", at: keyPath)
                }
                do throws(AASAError) {
                    documents[domain] = try AASADocument(bytes: bytes)
                } catch {
                    throw ConfigurationError(
                        "AASA file '\(resolved)' is not valid: \(error.description) (see `normalize aasa lint \(resolved)`)",
                        at: keyPath
                    )
                }
            }
            configuration.app.aasaDocuments = documents
            return configuration
        } catch {
            throw configuration.source?.locate(error) ?? error
        }
    }
}
