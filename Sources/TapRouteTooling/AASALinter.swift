package import TapRoute

/// The codes of the lint warnings.
extension AASADiagnostic.Code {
    /// The same app is listed in more than one `details` entry.
    package static let appInSeveralDetails: Self = "appInSeveralDetails"
    /// An exclude rule can never decide, because an earlier rule matches every URL it
    /// matches.
    package static let unreachableExclude: Self = "unreachableExclude"
    /// A rule can never decide, because an earlier rule matches every URL it matches.
    package static let unreachableRule: Self = "unreachableRule"
    /// An exclude rule has `"#": "*"`, which also matches URLs without a fragment.
    package static let excludeFragmentWildcard: Self = "excludeFragmentWildcard"
    /// A pattern uses `$(name)` for a variable that is not defined: it never matches.
    package static let undefinedVariable: Self = "undefinedVariable"
    /// A pattern has `$(` without a closing `)`: it never matches.
    package static let malformedVariable: Self = "malformedVariable"
}

extension AASADocument {
    /// The lint warnings for this document (what ``lint(bytes:)`` adds to the reader's
    /// diagnostics): rules that never apply, `"#": "*"` on an exclude, undefined variables, an
    /// app listed in several entries.
    package func lintWarnings() -> [AASADiagnostic] {
        AASALinter(document: self).warnings()
    }

    /// Reads a file and reports every problem: errors (size, JSON, types), structural
    /// warnings and the lint warnings — what `normalize aasa lint` prints. A UTF-8 byte order
    /// mark at the start is skipped. Never throws; the document holds what could be read.
    package static func lint(bytes: [UInt8]) -> AASAAnalysis {
        var analysis = analyze(bytes: bytes)
        analysis.diagnostics += analysis.document.lintWarnings()
        return analysis
    }

    /// Reads a parsed file and reports every problem (except the size limit): type errors,
    /// structural warnings and the lint warnings.
    package static func lint(json: JSONValue) -> AASAAnalysis {
        var analysis = analyze(json: json)
        analysis.diagnostics += analysis.document.lintWarnings()
        return analysis
    }
}

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
package struct AASALinter {
    let document: AASADocument
    /// Compare every pair of rules instead of using the index: the reference the tests
    /// hold the indexed check to (quadratic; never used otherwise).
    var comparesEveryPair = false

    /// Creates a linter for `document`.
    package init(document: AASADocument, comparesEveryPair: Bool = false) {
        self.document = document
        self.comparesEveryPair = comparesEveryPair
    }

    /// The lint warnings, in file order.
    package func warnings() -> [AASADiagnostic] {
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
                let infos = components.enumerated().map { RuleInfo(component: $1, options: options, position: $0) }
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
                let infos = paths.enumerated().map { RuleInfo(legacy: $1, position: $0) }
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
    ///
    /// Each rule is compared only with the earlier opposite rules that can cover its path —
    /// those with any path, the same path, or a `literal*` path whose literal starts it —
    /// found through an index (a hash of exact paths and a trie of literal prefixes), not
    /// with every earlier rule; the first of them that covers it is reported, as a pairwise
    /// scan would. The rules that cover a path but not its query or fragment are tried in
    /// order, at most ``candidateBudget`` per rule: beyond that a warning may be missed,
    /// never invented.
    private func unreachable(_ rules: [RuleInfo], kind: String, in detail: AASADetail) -> [AASADiagnostic] {
        var out: [AASADiagnostic] = []
        // indexes[0] holds the earlier rules that open the app, indexes[1] the excludes.
        var indexes = [RuleIndex(), RuleIndex()]
        for later in rules {
            let earlier =
                comparesEveryPair
                ? rules[..<later.position].first { $0.exclude != later.exclude && $0.covers(later) }
                : indexes[later.exclude ? 0 : 1].firstCovering(later, in: rules)
            if let earlier {
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
            }
            indexes[later.exclude ? 1 : 0].insert(later)
        }
        return out
    }

    /// How many earlier rules that cover a rule's path, but perhaps not its query or
    /// fragment, the shadowing check tries for one rule.
    static let candidateBudget = 64
}

/// The earlier rules of one effect, indexed by what their path covers.
private struct RuleIndex {
    /// A node of the trie of literal prefixes (`L` of a `L*` path), by Character, as
    /// `String.hasPrefix` compares.
    struct Node {
        var children: [Character: Int] = [:]
        /// The rules whose prefix ends here, in file order (positions in `rules`).
        var rules: [Int] = []
    }

    /// Rules whose path covers every path (no path, or only `/*`).
    private var anyPath: [Int] = []
    /// Rules by exact path, under each folding: `exact[folding][path]`.
    private var exact: [[String: [Int]]] = Array(repeating: [:], count: 4)
    /// A trie of literal prefixes per folding.
    private var tries: [[Node]] = Array(repeating: [Node()], count: 4)
    /// The number of rules indexed.
    private var count = 0

    /// The folding group of a rule: its `percentEncoded` and `caseSensitive`.
    private static func group(percentEncoded: Bool, caseSensitive: Bool) -> Int {
        (percentEncoded ? 0 : 2) + (caseSensitive ? 0 : 1)
    }

    mutating func insert(_ rule: RuleInfo) {
        let position = rule.position
        count += 1
        guard let path = rule.path else {
            anyPath.append(position)
            return
        }
        if path.count > 1, path.dropFirst().allSatisfy({ $0 == "*" }) {
            anyPath.append(position)
            return
        }
        let g = Self.group(percentEncoded: rule.percentEncoded, caseSensitive: rule.caseSensitive)
        let folded = rule.fold(path)
        exact[g][folded, default: []].append(position)
        guard let prefix = RuleInfo.literalPrefix(ofStarPattern: folded) else { return }
        if prefix.hasSuffix("/") { exact[g][String(prefix.dropLast()), default: []].append(position) }
        var node = 0
        for c in prefix {
            if let next = tries[g][node].children[c] {
                node = next
            } else {
                tries[g].append(Node())
                let next = tries[g].count - 1
                tries[g][node].children[c] = next
                node = next
            }
        }
        tries[g][node].rules.append(position)
    }

    /// The first indexed rule (in file order) that covers `later`, trying at most
    /// ``AASALinter/candidateBudget`` rules that cover its path.
    func firstCovering(_ later: RuleInfo, in rules: [RuleInfo]) -> RuleInfo? {
        guard count > 0 else { return nil }
        var best: Int? = nil
        var budget = AASALinter.candidateBudget
        // The first rule of `list` (sorted) that covers `later`, if earlier than `best`.
        func scan(_ list: [Int]) {
            for position in list {
                if let best, position >= best { return }
                guard budget > 0 else { return }
                budget -= 1
                if rules[position].covers(later) {
                    best = position
                    return
                }
            }
        }
        scan(anyPath)
        if let path = later.path {
            // Earlier rules comparable with `later`: the same `percentEncoded`, and the same
            // `caseSensitive` or case-insensitive.
            var groups = [Self.group(percentEncoded: later.percentEncoded, caseSensitive: true)]
            if later.caseSensitive {
                groups.append(Self.group(percentEncoded: later.percentEncoded, caseSensitive: false))
            } else {
                groups = [Self.group(percentEncoded: later.percentEncoded, caseSensitive: false)]
            }
            for g in groups {
                let folded = g & 1 == 1 ? RuleInfo.foldInsensitive(path) : path
                if let list = exact[g][folded] { scan(list) }
                var node = 0
                scan(tries[g][node].rules)
                for c in folded {
                    guard let next = tries[g][node].children[c] else { break }
                    node = next
                    scan(tries[g][node].rules)
                }
            }
        }
        return best.map { rules[$0] }
    }
}

/// A rule reduced to what the shadowing check needs.
private struct RuleInfo {
    /// Its position among the rules compared (the `index` of a legacy path and a component
    /// may differ from it).
    var position = 0
    let index: Int
    let exclude: Bool
    let summary: String
    /// Normalized path pattern; `nil` means any path.
    let path: String?
    let query: AASAQueryPattern?
    let fragment: String?
    let caseSensitive: Bool
    let percentEncoded: Bool

    init(component: AASAComponent, options: AASAOptions, position: Int) {
        self.position = position
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

    init(legacy: AASALegacyPath, position: Int) {
        self.position = position
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

    func fold(_ text: String) -> String { caseSensitive ? text : RuleInfo.foldInsensitive(text) }

    /// `text` as a case-insensitive rule compares it.
    static func foldInsensitive(_ text: String) -> String { text.contains("$(") ? text : text.lowercased() }

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
    static func literalPrefix(ofStarPattern pattern: String) -> Substring? {
        let prefix = pattern.prefix { $0 != "*" }
        guard prefix.count < pattern.count, pattern[prefix.endIndex...].allSatisfy({ $0 == "*" }) else { return nil }
        return prefix.contains("?") || prefix.contains("$(") ? nil : prefix
    }
}
