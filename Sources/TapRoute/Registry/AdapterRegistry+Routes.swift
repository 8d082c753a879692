extension AdapterRegistry {
    /// An ``ConfigurationError/Kind/unreachableRoute`` error for each route of the
    /// configuration that no URL can reach, located at `routes[i].url`:
    ///
    /// - its URLs are refused by the safety rules, so they never get to the routes: the
    ///   scheme is not allowed (not in `security.allowedSchemes`, not one of `app.schemes`,
    ///   not claimed by an enabled adapter, or never allowed), the host is not in
    ///   `security.allowedHosts`, an `http(s)` pattern has no host, the shortest matching
    ///   URL is over `security.maxURLLength` — judged on `Route.exampleURL`;
    /// - or an earlier route matches every URL it matches (`Route.matchesEveryURL(of:)`).
    ///
    /// `normalize check-config` reports them; loading a configuration does not (a dead
    /// route changes no output).
    package func unreachableRoutes() -> [ConfigurationError] {
        var errors: [ConfigurationError] = []
        let routes = configuration.routes
        let shadowing = Route.firstShadowing(in: routes)
        for (i, route) in routes.enumerated() {
            let path: ConfigurationError.KeyPath = ["routes", .index(i), "url"]
            do throws(URLSafety.Rejection) {
                _ = try policy.safety.check(route.exampleURL)
                if let earlier = shadowing[i] {
                    errors.append(
                        ConfigurationError(
                            "route '\(route.pattern)' can never match: routes[\(earlier)] '\(routes[earlier].pattern)' comes first and matches every URL it matches",
                            kind: .unreachableRoute,
                            at: path
                        )
                    )
                }
            } catch {
                var message =
                    "route '\(route.pattern)' can never match: its URLs (such as '\(route.exampleURL)') are refused because the URL \(error.reason)"
                if let scheme = try? URLParts.parse(route.exampleURL).scheme,
                    !allowedSchemes.contains(where: { $0.scheme == scheme }),
                    !SecuritySettings.forbiddenSchemes.contains(scheme)
                {
                    message += "; list '\(scheme)' in app.schemes if it is the app's own scheme, else in security.allowedSchemes"
                }
                errors.append(ConfigurationError(message, kind: .unreachableRoute, at: path))
            }
        }
        return errors.map { configuration.source?.locate($0) ?? $0 }
    }
}
