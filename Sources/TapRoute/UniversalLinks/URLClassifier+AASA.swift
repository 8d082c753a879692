extension URLClassifier {
    /// Creates a classifier whose universal-link rules come from AASA files.
    ///
    /// For each domain with a document, an `https` URL on it is the app's (`target: app`)
    /// only when the document's rules accept it for `app.appID`; otherwise it is `external`,
    /// and when an exclude rule decided, the classification carries a
    /// `universalLinkExcluded` warning naming the rule. Domains without a document are
    /// decided by `app.domains` alone. Without an `appID` no rule applies to the app, so
    /// every URL on a domain with a document is `external`.
    ///
    /// - Parameters:
    ///   - app: the app's schemes, domains and `appID`.
    ///   - aasa: the parsed AASA file of each domain (keys compare case-insensitively).
    public init(app: AppSettings, aasa: [String: AASADocument]) {
        var rules: [String: @Sendable (URLParts) -> UniversalLinkDecision] = [:]
        for (domain, document) in aasa {
            let host = domain.lowercased()
            let matcher = AASAMatcher(document: document, appID: app.appID ?? "")
            rules[host] = { parts in matcher.decision(for: parts, domain: host) }
        }
        self.init(app: app, universalLinkRules: rules)
    }
}

extension AASAMatcher {
    /// The decision as the URL classifier needs it: whether the app opens `parts`, and,
    /// when an exclude rule refused it, a sentence naming that rule.
    package func decision(for parts: URLParts, domain: String) -> UniversalLinkDecision {
        let result = match(parts)
        switch result.outcome {
        case .match:
            return UniversalLinkDecision(opensApp: true)
        case .noMatch:
            return UniversalLinkDecision(opensApp: false)
        case .excluded:
            guard let rule = result.rule else { return UniversalLinkDecision(opensApp: false) }
            var text = "the apple-app-site-association of \(domain) excludes this URL for \(appID): rule \(rule.location) \(rule.summary)"
            if let comment = rule.comment, !comment.isEmpty, comment.utf8.count <= 200 {
                text += " (\(JSONValue.string(comment).jsonString()))"
            }
            return UniversalLinkDecision(opensApp: false, explanation: text + "; iOS opens it in Safari, not the app")
        }
    }
}
