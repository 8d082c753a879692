/// The lint warnings for a document that reads without errors: mistakes that make a file
/// behave differently from what its author probably meant.
///
/// - an exclude placed after a rule that already matches every URL it would exclude (a
///   catch-all such as `{"/": "*"}`, or `/help/*` before `/help/website/*`): first match
///   wins, so it never applies — and the reverse, a rule that can never open the app
///   because an earlier exclude covers it;
/// - `"#": "*"` on an exclude: it matches URLs without a fragment too;
/// - `$(name)` for an undefined variable, or an unterminated `$(`: the pattern never matches;
/// - the same app in several `details` entries.
///
/// Structural warnings (unknown keys, mixed `paths` and `components`, a voided `?`
/// dictionary, …) come from reading the file.
struct AASALinter {
    let document: AASADocument

    func warnings() -> [AASADiagnostic] {
        var out: [AASADiagnostic] = []
        let variables = AASAVariables(document.substitutionVariables)
        var seenApps: [String: String] = [:]
        for detail in document.details {
            for app in detail.appIDs {
                if let first = seenApps[app] {
                    out.append(
                        AASADiagnostic(
                            .warning,
                            .appInSeveralDetails,
                            "app '\(app)' is also listed at \(first); its rules are evaluated in file order, entry after entry",
                            at: detail.location
                        )
                    )
                } else {
                    seenApps[app] = detail.location
                }
            }
            let options = detail.defaults.over(document.defaults)
            if let components = detail.components {
                let infos = components.map { RuleInfo(component: $0, options: options) }
                for component in components {
                    out += variableWarnings(component, at: "\(detail.location).components[\(component.index)]", variables: variables)
                    if component.exclude, let fragment = component.fragment, !fragment.isEmpty, fragment.allSatisfy({ $0 == "*" }) {
                        out.append(
                            AASADiagnostic(
                                .warning,
                                .excludeFragmentWildcard,
                                "\"#\": \"\(fragment)\" on an exclude also matches URLs without a fragment, so this rule excludes every URL its other keys match; write \"#\": \"?*\" to require a fragment",
                                at: "\(detail.location).components[\(component.index)]"
                            )
                        )
                    }
                }
                out += unreachable(infos, kind: "components", in: detail)
            } else if let paths = detail.paths {
                let infos = paths.map { RuleInfo(legacy: $0) }
                out += unreachable(infos, kind: "paths", in: detail)
            }
        }
        return out
    }

    private func variableWarnings(_ component: AASAComponent, at location: String, variables: AASAVariables) -> [AASADiagnostic] {
        var patterns: [(String, String)] = []
        if let path = component.path { patterns.append((jsonPath(location, "/"), path)) }
        switch component.query {
        case .whole(let text)?: patterns.append((jsonPath(location, "?"), text))
        case .items(let items)?: patterns += items.map { (jsonPath(jsonPath(location, "?"), $0.name), $0.pattern) }
        case .voided?, nil: break
        }
        if let fragment = component.fragment { patterns.append((jsonPath(location, "#"), fragment)) }
        var out: [AASADiagnostic] = []
        for (at, text) in patterns {
            for issue in AASAPattern.compile(text, caseSensitive: true, variables: variables).1 {
                switch issue {
                case .undefinedVariable(let name):
                    out.append(
                        AASADiagnostic(
                            .warning,
                            .undefinedVariable,
                            "$(\(name)) is not a predefined variable nor in substitutionVariables, so this pattern never matches",
                            at: at
                        )
                    )
                case .unterminatedVariable:
                    out.append(
                        AASADiagnostic(.warning, .malformedVariable, "'$(' without a closing ')', so this pattern never matches", at: at)
                    )
                }
            }
        }
        return out
    }

    /// Rules that an earlier rule with the opposite effect shadows completely.
    private func unreachable(_ rules: [RuleInfo], kind: String, in detail: AASADetail) -> [AASADiagnostic] {
        var out: [AASADiagnostic] = []
        for (j, later) in rules.enumerated() {
            for earlier in rules[..<j] where earlier.exclude != later.exclude && earlier.covers(later) {
                let here = "\(detail.location).\(kind)[\(later.index)]"
                let there = "\(detail.location).\(kind)[\(earlier.index)]"
                if later.exclude {
                    out.append(
                        AASADiagnostic(
                            .warning,
                            .unreachableExclude,
                            "this exclude never applies: \(there) \(earlier.summary) comes first and matches every URL it matches (the first match wins); move the exclude before it",
                            at: here
                        )
                    )
                } else {
                    out.append(
                        AASADiagnostic(
                            .warning,
                            .unreachableRule,
                            "this rule never opens the app: the exclude \(there) \(earlier.summary) comes first and matches every URL it matches",
                            at: here
                        )
                    )
                }
                break
            }
        }
        return out
    }
}

/// A rule reduced to what the shadowing check needs.
private struct RuleInfo {
    let index: Int
    let exclude: Bool
    let summary: String
    /// Normalized path pattern; `nil` means any path.
    let path: String?
    let query: AASAQueryPattern?
    let fragment: String?
    let caseSensitive: Bool
    let percentEncoded: Bool

    init(component: AASAComponent, options: AASAOptions) {
        let effective = component.options.over(options)
        index = component.index
        exclude = component.exclude
        summary = component.summary
        path = component.path.map { AASAMatcher.normalizedPath($0) }
        query = component.query
        fragment = component.fragment
        caseSensitive = effective.caseSensitive ?? true
        percentEncoded = effective.percentEncoded ?? true
    }

    init(legacy: AASALegacyPath) {
        index = legacy.index
        exclude = legacy.exclude
        summary = legacy.summary
        path = AASAMatcher.normalizedPath(legacy.pattern)
        query = nil
        fragment = nil
        caseSensitive = true
        percentEncoded = true
    }

    /// Whether every URL `other` matches is matched by this rule too (a conservative test:
    /// `false` when unsure).
    func covers(_ other: RuleInfo) -> Bool {
        pathCovers(other) && queryCovers(other) && textCovers(fragment, other.fragment, other)
    }

    private func comparable(with other: RuleInfo) -> Bool {
        percentEncoded == other.percentEncoded && (caseSensitive == other.caseSensitive || !caseSensitive)
    }

    private static func onlyStars(_ text: String) -> Bool { !text.isEmpty && text.allSatisfy { $0 == "*" } }

    private func fold(_ text: String) -> String { caseSensitive || text.contains("$(") ? text : text.lowercased() }

    private func pathCovers(_ other: RuleInfo) -> Bool {
        guard let mine = path else { return true }
        if mine.dropFirst().allSatisfy({ $0 == "*" }), mine.count > 1 { return true }
        guard let theirs = other.path, comparable(with: other) else { return false }
        let a = fold(mine)
        let b = fold(theirs)
        if a == b { return true }
        // `L*` with a literal L covers every pattern that starts with L; `L/*` also covers
        // the parent L.
        guard let prefix = RuleInfo.literalPrefix(ofStarPattern: a) else { return false }
        if b.hasPrefix(prefix) { return true }
        return prefix.hasSuffix("/") && b == String(prefix.dropLast())
    }

    private func queryCovers(_ other: RuleInfo) -> Bool {
        switch query {
        case nil, .voided?: return true
        case .whole(let text)? where RuleInfo.onlyStars(text): return true
        case .whole(let text)?:
            guard case .whole(let theirs)? = other.query, comparable(with: other) else { return false }
            return fold(text) == fold(theirs)
        case .items(let items)?:
            let constrained = items.filter { !RuleInfo.onlyStars($0.pattern) }
            if constrained.isEmpty { return true }
            guard case .items(let theirs)? = other.query, comparable(with: other) else { return false }
            return constrained.allSatisfy { item in
                theirs.contains { fold($0.name) == fold(item.name) && fold($0.pattern) == fold(item.pattern) }
            }
        }
    }

    private func textCovers(_ mine: String?, _ theirs: String?, _ other: RuleInfo) -> Bool {
        guard let mine else { return true }
        if RuleInfo.onlyStars(mine) { return true }
        guard let theirs, comparable(with: other) else { return false }
        let a = fold(mine)
        let b = fold(theirs)
        if a == b { return true }
        guard let prefix = RuleInfo.literalPrefix(ofStarPattern: a) else { return false }
        return b.hasPrefix(prefix)
    }

    /// `L` when `pattern` is a literal `L` followed only by stars, else `nil`.
    private static func literalPrefix(ofStarPattern pattern: String) -> Substring? {
        let prefix = pattern.prefix { $0 != "*" }
        guard prefix.count < pattern.count, pattern[prefix.endIndex...].allSatisfy({ $0 == "*" }) else { return nil }
        return prefix.contains("?") || prefix.contains("$(") ? nil : prefix
    }
}
