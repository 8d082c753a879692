/// Decides, as iOS does, whether a URL on a domain opens a given app, from the domain's
/// ``AASADocument``.
///
/// Built once per document and app (patterns are compiled then), then immutable and
/// `Sendable`. The rules of every `details` entry that lists the app are walked in file
/// order; the first rule that matches decides: an `exclude` rule (or a legacy `NOT ` path)
/// means "not a universal link", any other rule means "open the app". No match means "not a
/// universal link". An entry with `components` uses only them; an entry without uses its
/// legacy `paths` (path only, case-sensitive, compared as encoded).
///
/// Each rule compares the URL's path, query and fragment as `docs/universal-links.md`
/// describes: leading and trailing slash runs are dropped from both the path and the
/// pattern, a pattern ending `/*` also matches its parent, an absent query or fragment reads
/// as `""`, `percentEncoded: false` decodes the URL (not the pattern) first, and
/// `caseSensitive: false` folds both.
///
/// The matcher does not look at the scheme or host: the caller checks that the URL is
/// `https` on the domain the file was published for.
public struct AASAMatcher: Sendable {
    /// The app whose rules this matcher applies.
    public let appID: String
    /// The number of `details` entries that list the app (usually one).
    package let detailCount: Int
    private let rules: [CompiledRule]

    /// Compiles the rules that apply to `appID`.
    public init(document: AASADocument, appID: String) {
        self.appID = appID
        let variables = AASAVariables(document.substitutionVariables)
        var rules: [CompiledRule] = []
        var count = 0
        for (d, detail) in document.details.enumerated() where detail.appIDs.contains(appID) {
            count += 1
            let detailOptions = detail.defaults.over(document.defaults)
            if let components = detail.components {
                for component in components {
                    rules.append(CompiledRule(component: component, detail: d, in: detail, options: detailOptions, variables: variables))
                }
            } else if let paths = detail.paths {
                for entry in paths {
                    rules.append(CompiledRule(legacy: entry, detail: d, in: detail))
                }
            }
        }
        self.rules = rules
        self.detailCount = count
    }

    /// The decision for a URL's path, query and fragment.
    public func match(_ url: URLParts) -> AASAMatch {
        match(path: url.path, query: url.query, fragment: url.fragment)
    }

    /// The decision for a path, query (without `?`, `nil` when absent) and fragment (without
    /// `#`), each as written in the URL (percent-escapes intact).
    package func match(path: String, query: String?, fragment: String?) -> AASAMatch {
        var subjects = Subjects(path: path, query: query ?? "", fragment: fragment ?? "")
        for rule in rules where rule.matches(&subjects) {
            return AASAMatch(outcome: rule.rule.exclude ? .excluded : .match, rule: rule.rule)
        }
        return AASAMatch(outcome: .noMatch, rule: nil)
    }

    /// A pattern path with its leading and trailing slash runs dropped and one leading `/`
    /// put back: `abc`, `//abc/` → `/abc`; `` → `/`.
    package static func normalizedPath<S: StringProtocol>(_ text: S) -> String {
        var s = Substring(text)
        while s.first == "/" { s = s.dropFirst() }
        while s.last == "/" { s = s.dropLast() }
        return "/" + s
    }

    /// For a normalized path pattern ending in `/*`, the parent it also matches (`/buy/*` →
    /// `/buy`); otherwise `nil`.
    static func parentPattern(ofNormalized pattern: String) -> String? {
        var s = Substring(pattern)
        guard s.last == "*" else { return nil }
        while s.last == "*" { s = s.dropLast() }
        guard s.last == "/" else { return nil }
        return normalizedPath(s.dropLast())
    }
}

/// What a domain's AASA file says about one URL for one app.
public struct AASAMatch: Sendable, Hashable {
    /// The three possible answers.
    public enum Outcome: String, Sendable, Hashable {
        /// A rule that is not an exclude matched first: iOS opens the app.
        case match
        /// An exclude rule matched first: iOS opens the URL in Safari.
        case excluded
        /// No rule matched: iOS opens the URL in Safari.
        case noMatch
    }

    /// The answer.
    public var outcome: Outcome
    /// The rule that decided (`nil` when none matched).
    public var rule: AASARule?

    /// Creates a decision.
    package init(outcome: Outcome, rule: AASARule?) {
        self.outcome = outcome
        self.rule = rule
    }

    /// Whether iOS opens the app for the URL.
    public var opensApp: Bool { outcome == .match }
    /// Whether an exclude rule decided.
    public var excluded: Bool { outcome == .excluded }
}

/// A rule of an AASA file, as named in decisions and warnings.
public struct AASARule: Sendable, Hashable, CustomStringConvertible {
    /// Where the rule comes from.
    public enum Kind: String, Sendable, Hashable {
        /// An entry of `components`.
        case component
        /// An entry of the legacy `paths`.
        case legacyPath
    }

    /// A `components` rule or a legacy `paths` entry.
    public var kind: Kind
    /// The index of its `details` entry in ``AASADocument/details``.
    public var detail: Int
    /// Its index in its `components` (or `paths`) array in the file.
    public var index: Int
    /// Whether it is an exclude rule (or a `NOT ` path).
    public var exclude: Bool
    /// Where it is in the file: `$.applinks.details[0].components[2]`.
    public var location: String
    /// The rule as written: `{"/":"/help/website/*","exclude":true}` or `"NOT /private/*"`.
    public var summary: String
    /// Its `comment`, when it has one.
    public var comment: String?

    /// Creates a rule reference.
    package init(kind: Kind, detail: Int, index: Int, exclude: Bool, location: String, summary: String, comment: String? = nil) {
        self.kind = kind
        self.detail = detail
        self.index = index
        self.exclude = exclude
        self.location = location
        self.summary = summary
        self.comment = comment
    }

    /// `location summary`.
    public var description: String { "\(location) \(summary)" }
}

// MARK: - Compiled rules

/// The URL's path, query and fragment, prepared on demand for each combination of
/// `caseSensitive` and `percentEncoded`.
private struct Subjects {
    let path: String
    let query: String
    let fragment: String
    private var prepared: [Prepared?] = [nil, nil, nil, nil]

    init(path: String, query: String, fragment: String) {
        self.path = path
        self.query = query
        self.fragment = fragment
    }

    mutating func get(caseSensitive: Bool, percentEncoded: Bool) -> Prepared {
        let slot = (caseSensitive ? 0 : 1) + (percentEncoded ? 0 : 2)
        if let ready = prepared[slot] { return ready }
        func form(_ text: Substring) -> String {
            let decoded = percentEncoded ? Subjects.encodingUnsafe(text) : URLParts.percentDecoded(text)
            return caseSensitive ? decoded : decoded.lowercased()
        }
        // Decode before normalizing slashes, so that `%2F` separates once decoded.
        let decodedPath = percentEncoded ? Subjects.encodingUnsafe(Substring(path)) : URLParts.percentDecoded(path)
        let normalized = AASAMatcher.normalizedPath(decodedPath)
        var items: [(name: String, value: [Unicode.Scalar])] = []
        for part in query.split(separator: "&", omittingEmptySubsequences: true) {
            if let eq = part.firstIndex(of: "=") {
                items.append((form(part[part.startIndex..<eq]), Array(form(part[part.index(after: eq)...]).unicodeScalars)))
            } else {
                items.append((form(part), []))
            }
        }
        let ready = Prepared(
            path: Array((caseSensitive ? normalized : normalized.lowercased()).unicodeScalars),
            query: Array(form(Substring(query)).unicodeScalars),
            fragment: Array(form(Substring(fragment)).unicodeScalars),
            items: items
        )
        prepared[slot] = ready
        return ready
    }

    /// The text as iOS's `URL` holds it: bytes that cannot appear in a URL unencoded
    /// (non-ASCII, `"<>\^`{|}`) percent-encoded with upper-case hex; everything else as
    /// written.
    static func encodingUnsafe(_ text: Substring) -> String {
        guard text.utf8.contains(where: needsEncoding) else { return String(text) }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 16)
        let hex = Array("0123456789ABCDEF".utf8)
        for b in text.utf8 {
            if needsEncoding(b) {
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(b >> 4)])
                out.append(hex[Int(b & 0x0F)])
            } else {
                out.append(b)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func needsEncoding(_ b: UInt8) -> Bool {
        b >= 0x80 || b == 0x22 || b == 0x3C || b == 0x3E || b == 0x5C || b == 0x5E || b == 0x60 || b == 0x7B || b == 0x7C || b == 0x7D
    }
}

private struct Prepared {
    let path: [Unicode.Scalar]
    let query: [Unicode.Scalar]
    let fragment: [Unicode.Scalar]
    let items: [(name: String, value: [Unicode.Scalar])]
    /// Where the variables' literal alternatives occur in each subject, shared by every
    /// rule this URL is matched against.
    let pathMemo = AASALiteralMemo()
    let queryMemo = AASALiteralMemo()
    let fragmentMemo = AASALiteralMemo()
    let itemMemos: [AASALiteralMemo]

    init(path: [Unicode.Scalar], query: [Unicode.Scalar], fragment: [Unicode.Scalar], items: [(name: String, value: [Unicode.Scalar])]) {
        self.path = path
        self.query = query
        self.fragment = fragment
        self.items = items
        self.itemMemos = items.map { _ in AASALiteralMemo() }
    }
}

private struct CompiledRule: Sendable {
    enum Query: Sendable {
        case whole(AASAPattern)
        case items([(name: String, pattern: AASAPattern)])
    }

    let rule: AASARule
    let caseSensitive: Bool
    let percentEncoded: Bool
    let path: AASAPattern?
    let parentPath: AASAPattern?
    let query: Query?
    let fragment: AASAPattern?

    init(component: AASAComponent, detail d: Int, in detail: AASADetail, options: AASAOptions, variables: AASAVariables) {
        let effective = component.options.over(options)
        let caseSensitive = effective.caseSensitive ?? true
        self.caseSensitive = caseSensitive
        self.percentEncoded = effective.percentEncoded ?? true
        rule = AASARule(
            kind: .component,
            detail: d,
            index: component.index,
            exclude: component.exclude,
            location: "\(detail.location).components[\(component.index)]",
            summary: component.summary,
            comment: component.comment
        )
        func compile(_ text: String) -> AASAPattern {
            AASAPattern.compile(text, caseSensitive: caseSensitive, variables: variables).0
        }
        if let text = component.path {
            let normalized = AASAMatcher.normalizedPath(text)
            path = compile(normalized)
            parentPath = AASAMatcher.parentPattern(ofNormalized: normalized).map(compile)
        } else {
            path = nil
            parentPath = nil
        }
        switch component.query {
        case .whole(let text)?: query = .whole(compile(text))
        case .items(let items)?:
            query = .items(items.map { (caseSensitive ? $0.name : $0.name.lowercased(), compile($0.pattern)) })
        case .voided?, nil: query = nil
        }
        fragment = component.fragment.map(compile)
    }

    init(legacy entry: AASALegacyPath, detail d: Int, in detail: AASADetail) {
        caseSensitive = true
        percentEncoded = true
        rule = AASARule(
            kind: .legacyPath,
            detail: d,
            index: entry.index,
            exclude: entry.exclude,
            location: "\(detail.location).paths[\(entry.index)]",
            summary: entry.summary
        )
        let normalized = AASAMatcher.normalizedPath(entry.pattern)
        path = AASAPattern.compile(normalized, caseSensitive: true, variables: nil).0
        parentPath = AASAMatcher.parentPattern(ofNormalized: normalized).map {
            AASAPattern.compile($0, caseSensitive: true, variables: nil).0
        }
        query = nil
        fragment = nil
    }

    func matches(_ subjects: inout Subjects) -> Bool {
        let s = subjects.get(caseSensitive: caseSensitive, percentEncoded: percentEncoded)
        if let path, !path.matches(s.path, memo: s.pathMemo), !(parentPath?.matches(s.path, memo: s.pathMemo) ?? false) {
            return false
        }
        switch query {
        case nil: break
        case .whole(let pattern)?:
            if !pattern.matches(s.query, memo: s.queryMemo) { return false }
        case .items(let items)?:
            for (name, pattern) in items {
                // A missing item reads as present with the value ""; every occurrence of a
                // repeated name must match.
                var seen = false
                for (i, item) in s.items.enumerated() where item.name == name {
                    seen = true
                    if !pattern.matches(item.value, memo: s.itemMemos[i]) { return false }
                }
                if !seen, !pattern.matches([]) { return false }
            }
        }
        if let fragment, !fragment.matches(s.fragment, memo: s.fragmentMemo) { return false }
        return true
    }
}
