import FuzzSupport
import TapRoute

/// The route matcher: a `routes` pattern (the input's first line) and URLs (the next lines,
/// at most four), through `Route`, `URLParts` and the registry's policy.
///
/// Checked beyond "no crash": a pattern is a ``Route`` or a ``Route/PatternError`` with a
/// reason; a route matches the URL its own pattern describes (captures filled in, `*`
/// replaced by two segments) with exactly those captures; `URLParts(_:)` and
/// `URLParts.parse(_:)` agree; and the policy, with the route first, resolves each URL to a
/// destination that passes the URL safety rules.
@_cdecl("LLVMFuzzerTestOneInput")
public func routeFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let lines = FuzzSupport.text(data, size).split(separator: "\n", maxSplits: 5, omittingEmptySubsequences: false).map(String.init)
    guard let pattern = lines.first else { return 0 }
    let urls = lines.dropFirst().prefix(4)

    let route: Route?
    do {
        route = try Route(pattern: pattern, screen: "fuzzed")
    } catch {
        if error.reason.isEmpty { FuzzSupport.fail("a pattern error without a reason for '\(pattern)'") }
        route = nil
    }
    if let route { checkOwnURL(route) }

    var configuration = FuzzSupport.registry.configuration
    if let route { configuration.routes.insert(route, at: 0) }
    let policy = HandlingPolicy(configuration: configuration)
    for url in urls {
        let parsed = Result { () throws(URLParts.ParseFailure) -> URLParts in try URLParts.parse(url) }
        let parts = URLParts(url)
        switch parsed {
        case .success(let p) where p == parts:
            if let route { _ = route.match(p) }
            _ = p.queryItems
            _ = p.pathSegments
        case .failure(let failure) where parts == nil:
            if failure.reason.isEmpty { FuzzSupport.fail("a URL parse failure without a reason for '\(url)'") }
        default:
            FuzzSupport.fail("URLParts('\(url)') and URLParts.parse disagree: \(String(describing: parts)) / \(parsed)")
        }
        _ = URLParts.percentDecoded(url)
        for target in [URLTarget.external, .inAppBrowser] {
            var warnings: [Warning] = []
            let destination = policy.resolve(.url(url, target: target), warnings: &warnings, label: "url")
            var resolvedURL: String?
            switch destination {
            case .url(let u, _), .screen(_, _, let u?): resolvedURL = u
            default: break
            }
            if let resolvedURL, (try? policy.safety.check(resolvedURL)) == nil {
                FuzzSupport.fail("url '\(url)' resolved to \(destination), which fails the safety rules")
            }
        }
    }
    return 0
}

/// The route must match its own pattern with each `{name}` filled in (`v0`, `v1`, …) and
/// `*` replaced by two segments, with exactly those captures as parameters. The pattern is
/// read byte by byte, as URLs are.
private func checkOwnURL(_ route: Route) {
    var instance: [UInt8] = []
    var expected: [(String, String)] = []
    var name: [UInt8]?
    for b in route.pattern.utf8 {
        if var open = name {
            if b == UInt8(ascii: "}") {
                let value = "v\(expected.count)"
                expected.append((String(decoding: open, as: UTF8.self), value))
                instance += value.utf8
                name = nil
            } else {
                open.append(b)
                name = open
            }
        } else if b == UInt8(ascii: "{") {
            name = []
        } else if b == UInt8(ascii: "*") {
            instance += "r1/r2".utf8
        } else {
            instance.append(b)
        }
    }
    let url = String(decoding: instance, as: UTF8.self)
    let parts: URLParts
    do {
        parts = try URLParts.parse(url)
    } catch {
        FuzzSupport.fail("route '\(route.pattern)' is valid but its own URL '\(url)' does not parse: \(error)")
    }
    guard let parameters = route.match(parts) else {
        FuzzSupport.fail("route '\(route.pattern)' does not match its own URL '\(url)'")
    }
    if parameters != ScreenParameters(expected) {
        FuzzSupport.fail("route '\(route.pattern)' matches '\(url)' with \(parameters), expected \(expected)")
    }
}
