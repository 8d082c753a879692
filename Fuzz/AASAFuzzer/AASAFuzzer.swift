import FuzzSupport
import TapRoute
import TapRouteTooling

/// URLs tried against every fuzzed AASA file, besides the one the input carries.
private let probeURLs = [
    "https://example.com/", "https://example.com/buy/42?ref=a#top", "https://example.com/e/1", "https://example.com/%E2%82%AC/x",
    "https://example.com//a//b/", "https://example.com/a?x=1&x=2&y", "https://example.com/A/B?Q=%41",
]

/// An apple-app-site-association file through the reader, the linter and the matcher.
///
/// The input is the file's bytes, optionally followed by a `0xFF` byte (never part of valid
/// UTF-8, so never part of a valid file) and a URL to match. Checked beyond "no crash":
/// `lint(bytes:)` reports every problem with a message and a `$` path and never reports an
/// error for a file the strict reader accepts (or the reverse); matching is deterministic; a
/// rule the matcher names belongs to a `details` entry that lists the app; and the
/// universal-link classifier agrees with the matcher.
@_cdecl("LLVMFuzzerTestOneInput")
public func aasaFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzSupport.bytes(data, size)
    let split = input.firstIndex(of: 0xFF)
    let file = Array(input[..<(split ?? input.count)])
    var urls = probeURLs
    if let split {
        urls.append(String(decoding: input[(split + 1)...], as: UTF8.self))
    }

    let analysis = AASADocument.lint(bytes: file)
    for diagnostic in analysis.diagnostics where diagnostic.message.isEmpty || !diagnostic.path.hasPrefix("$") {
        FuzzSupport.fail("a diagnostic without a message or a $ path: \(diagnostic)")
    }
    let strict = Result { () throws(AASAError) -> AASADocument in try AASADocument(bytes: file) }
    switch strict {
    case .success(let document) where !analysis.hasErrors && document == analysis.document: break
    case .failure(let error) where analysis.hasErrors && !error.errors.isEmpty: break
    default: FuzzSupport.fail("AASADocument(bytes:) and lint(bytes:) disagree")
    }

    let document = analysis.document
    var appIDs: [String] = []
    for detail in document.details.prefix(4) {
        for appID in detail.appIDs.prefix(2) where !appIDs.contains(appID) { appIDs.append(appID) }
    }
    if appIDs.isEmpty { appIDs = ["ABCDE12345.com.example.app"] }
    for appID in appIDs {
        let matcher = AASAMatcher(document: document, appID: appID)
        let app = AppSettings(domains: ["example.com"], appID: appID)
        let classifier = URLClassifier(app: app, aasa: ["example.com": document])
        for url in urls {
            guard let parts = URLParts(url) else { continue }
            let match = matcher.match(parts)
            if match != matcher.match(path: parts.path, query: parts.query, fragment: parts.fragment) {
                FuzzSupport.fail("matching '\(url)' twice for \(appID) differs")
            }
            if let rule = match.rule {
                guard document.details.indices.contains(rule.detail), document.details[rule.detail].appIDs.contains(appID) else {
                    FuzzSupport.fail("'\(url)' matched rule \(rule) of a details entry that does not list \(appID)")
                }
            }
            if match.outcome == .excluded && match.rule == nil {
                FuzzSupport.fail("'\(url)' was excluded by no rule")
            }
            let onDomain = parts.scheme == "https" && parts.normalizedHost == "example.com"
            let classification = classifier.classify(parts)
            if onDomain && (classification.target == .app) != match.opensApp {
                FuzzSupport.fail("the classifier and the matcher disagree about '\(url)' for \(appID)")
            }
        }
    }
    return 0
}
