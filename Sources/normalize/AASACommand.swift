import ArgumentParser
import Foundation
import NormalizeCore
import TapRoute
import TapRouteTooling
import TapRouteYAML

/// `normalize aasa`: check apple-app-site-association files before shipping them.
struct AASACommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "aasa",
        abstract: "Check apple-app-site-association files: which URLs open the app, and what is wrong with a file.",
        discussion: "The semantics are iOS's; docs/universal-links.md explains them.",
        subcommands: [AASAMatchCommand.self, AASALintCommand.self]
    )
}

/// `normalize aasa match --file AASA --app-id ID URL…`.
struct AASAMatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "match",
        abstract: "Print, for each URL, whether iOS opens it in the app according to an AASA file.",
        discussion: """
            One JSON object per URL: {"url":…,"match":true|false,"excluded":true|false,"rule":<index>}. \
            "rule" is the index of the deciding rule in its details entry's components (or paths) array, \
            absent when no rule matched; "detail" is added when the app is listed in several details \
            entries. Only https URLs are universal links ("reason" says why another URL is not). \
            Exit status: 0, 1 when a URL does not parse, 2 when the file cannot be read or is not valid, or standard output cannot be written.
            """
    )

    @Option(name: .long, help: ArgumentHelp("The apple-app-site-association file.", valueName: "file"))
    var file: String

    @Option(name: .customLong("app-id"), help: ArgumentHelp("The app, TEAMID.bundle.identifier.", valueName: "id"))
    var appID: String

    @Option(name: .long, help: ArgumentHelp("The domain the file is served for; URLs on other hosts do not match.", valueName: "host"))
    var domain: String?

    @Argument(help: ArgumentHelp("The URLs to check.", valueName: "url"))
    var urls: [String]

    func validate() throws {
        if urls.isEmpty { throw ValidationError("give at least one URL") }
    }

    func run() throws {
        let document = try AASAFiles.load(file)
        let result = Self.evaluate(document: document, appID: appID, domain: domain, urls: urls)
        let output = OutputSink()
        for line in result.lines { output.append(line: line) }
        try output.flush()
        if result.failed { throw ExitCode(1) }
    }

    /// One output line per URL, and whether any URL failed to parse.
    static func evaluate(document: AASADocument, appID: String, domain: String?, urls: [String]) -> (lines: [String], failed: Bool) {
        let matcher = AASAMatcher(document: document, appID: appID)
        var lines: [String] = []
        var failed = false
        for url in urls {
            var o: JSONObject = ["url": .string(url)]
            do throws(URLParts.ParseFailure) {
                let parts = try URLParts.parse(url)
                var reason: String?
                if parts.scheme != "https" {
                    reason = "only https URLs are universal links"
                } else if let domain, parts.normalizedHost != domain.lowercased() {
                    reason = "the host is not \(domain.lowercased())"
                }
                if let reason {
                    o["match"] = false
                    o["excluded"] = false
                    o["reason"] = .string(reason)
                } else {
                    let decision = matcher.match(parts)
                    o["match"] = .bool(decision.opensApp)
                    o["excluded"] = .bool(decision.excluded)
                    if let rule = decision.rule {
                        o["rule"] = .number(JSONNumber(rule.index))
                        if matcher.detailCount > 1 { o["detail"] = .number(JSONNumber(rule.detail)) }
                    }
                }
            } catch {
                failed = true
                o["error"] = .string("the URL \(error.reason)")
            }
            lines.append(JSONValue.object(o).jsonString())
        }
        return (lines, failed)
    }
}

/// `normalize aasa lint FILE…`.
struct AASALintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract:
            "Print the problems in AASA files: errors that make iOS reject them, warnings for rules that do not do what they seem to.",
        discussion: "Exit status 1 when a file has errors (or cannot be read), 2 when standard output cannot be written, else 0."
    )

    @Flag(name: .long, help: "Print one JSON object per problem instead of text.")
    var json = false

    @Argument(help: ArgumentHelp("The apple-app-site-association files.", valueName: "file"))
    var files: [String]

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one file") }
    }

    func run() throws {
        var failed = false
        let output = OutputSink()
        for file in files {
            let result = Self.lint(file: file, json: json)
            for line in result.lines { output.append(line: line) }
            try output.checkpoint()
            if result.hasErrors { failed = true }
        }
        try output.flush()
        if failed { throw ExitCode(1) }
    }

    /// The report lines for one file, and whether it has errors.
    static func lint(file: String, json: Bool) -> (lines: [String], hasErrors: Bool) {
        let diagnostics: [AASADiagnostic]
        do throws(AASAFileError) {
            diagnostics = AASADocument.lint(bytes: try AASAFileReader.read(file)).diagnostics
        } catch {
            if let diagnostic = error.diagnostic {
                diagnostics = [diagnostic]
            } else {
                var message = error.description
                if let hint = UsageHint.forURLArgument(file) { message += "; \(hint)" }
                diagnostics = [AASADiagnostic(.error, "unreadable", message, at: "$")]
            }
        }
        let errors = diagnostics.count(where: { $0.severity == .error })
        let warnings = diagnostics.count - errors
        var lines: [String] = []
        for d in diagnostics {
            if json {
                let o: JSONObject = [
                    "file": .string(file), "severity": .string(d.severity.rawValue), "code": .string(d.code.rawValue),
                    "path": .string(d.path), "message": .string(d.message),
                ]
                lines.append(JSONValue.object(o).jsonString())
            } else {
                lines.append("\(file): \(d.description)")
            }
        }
        if !json {
            func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
            lines.append(
                diagnostics.isEmpty
                    ? "\(file): valid, no problems found"
                    : "\(file): \(errors == 0 ? "valid" : "INVALID"), \(plural(errors, "error")), \(plural(warnings, "warning"))"
            )
        }
        return (lines, errors > 0)
    }
}

/// Reading AASA files for the CLI.
enum AASAFiles {
    /// The document in `file`, or a ``ConfigurationFailure`` (exit status 2) naming the
    /// problem.
    static func load(_ file: String) throws -> AASADocument {
        let bytes: [UInt8]
        do throws(AASAFileError) {
            bytes = try AASAFileReader.read(file)
        } catch {
            // A URL given as the file gets its hint where the failure is reported (`Normalize.main`).
            throw ConfigurationFailure(error: ConfigurationError("\(error.description)", file: file))
        }
        do throws(AASAError) {
            return try AASADocument(bytes: bytes)
        } catch {
            throw ConfigurationFailure(
                error: ConfigurationError("not a valid AASA file: \(error.description) (run `normalize aasa lint \(file)`)", file: file)
            )
        }
    }

    /// For `normalize route`: a function telling what the configuration's AASA rules say
    /// about a URL — `nil` unless it is an https URL on a domain with a loaded AASA file.
    /// The rules are compiled once, here.
    static func reporter(for configuration: Configuration) -> (String) -> JSONValue? {
        let appID = configuration.app.appID ?? ""
        let matchers = configuration.app.aasaDocuments.mapValues { AASAMatcher(document: $0, appID: appID) }
        return { url in
            guard let parts = URLParts(url), parts.scheme == "https", let matcher = matchers[parts.normalizedHost] else { return nil }
            let decision = matcher.match(parts)
            var o: JSONObject = [
                "domain": .string(parts.normalizedHost), "appID": .string(appID),
                "match": .bool(decision.opensApp), "excluded": .bool(decision.excluded),
            ]
            if let rule = decision.rule {
                o["rule"] = .number(JSONNumber(rule.index))
                o["location"] = .string(rule.location)
                o["pattern"] = .string(rule.summary)
            }
            return .object(o)
        }
    }
}
