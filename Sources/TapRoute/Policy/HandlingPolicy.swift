/// The policy the registry applies to every interaction an adapter produces: URL safety,
/// target classification, routes, and who opens the destination.
///
/// For each `url` destination (the interaction's and each button's), in order:
/// 1. **Safety** (``URLSafety``): a rejected URL becomes `{"type":"app"}` with a
///    `urlRejected` warning, unless iOS 17 and later would repair it (`URLRepair`) and
///    the repaired URL passes: then the repaired URL is used, with a `urlRepaired`
///    warning. A `screen` an adapter built from a link (it carries the link in `url`) is
///    checked the same way.
/// 2. **Routes**: the first matching ``Route`` turns it into a `screen`, keeping the link.
/// 3. **Target**: `inAppBrowser` stays for http(s) (anything else gets a
///    `richLandingNotWeb` warning and is classified like a plain URL); otherwise the target
///    is `app` when the scheme is in `app.schemes` or the URL is `https` on a host in
///    `app.domains` (and, with an AASA file for that domain, its rules accept the URL), else
///    `external`.
///
/// **Handling**: `screen`, `clickAction`, `app` and `none` are always `app`. A `url` is
/// `automatic` when the effective `automaticallyOpenDeeplinks` is true. The effective value
/// is the first that is set of: the input's own `automaticallyOpenDeeplinks`, the adapter's
/// per-channel setting, the adapter's setting, `defaults`, and last the adapter's built-in
/// vendor default (the `handling` the adapter returned).
public struct HandlingPolicy: Sendable {
    /// The configuration it applies.
    public let configuration: Configuration
    /// The URL safety rules.
    public let safety: URLSafety
    /// The universal-link classifier.
    public let classifier: URLClassifier

    /// Creates the policy for a configuration. Without a `classifier`, the configuration's
    /// app settings decide, with the rules of its loaded AASA files (`app.aasaDocuments`).
    ///
    /// URLs with one of the app's own schemes (`app.schemes`) or of `trustedSchemes` (the
    /// schemes enabled adapters claim) are allowed as if `security.allowedSchemes` listed
    /// them, and are not held to `security.allowedHosts` (unless http or https); the
    /// never-allowed schemes stay refused.
    public init(configuration: Configuration, classifier: URLClassifier? = nil, trustedSchemes: [String] = []) {
        self.configuration = configuration
        var security = configuration.security
        let ownSchemes = configuration.app.schemes + trustedSchemes.map { $0.lowercased() }
        for scheme in ownSchemes where !security.allowedSchemes.contains(scheme) && !SecuritySettings.forbiddenSchemes.contains(scheme) {
            security.allowedSchemes.append(scheme)
        }
        self.safety = URLSafety(settings: security, ownSchemes: ownSchemes)
        self.classifier = classifier ?? URLClassifier(app: configuration.app, aasa: configuration.app.aasaDocuments)
    }

    /// Builds the ``Interaction`` for what an adapter read from `input`: the one place where
    /// an interaction's `vendor`, `phase` and `handling` are assigned.
    ///
    /// Every URL (the destination's and each button's) passes the safety rules, routes and
    /// target classification (``resolve(_:warnings:label:)``); each URL the safety rules
    /// refuse is reported in ``Resolution/rejectedURLs`` as well as by a `urlRejected`
    /// warning. `phase` is the input's; an empty `messageId` is left out; `handling` follows
    /// the configuration and the vendor's behaviour (see the type's documentation).
    ///
    /// - Parameters:
    ///   - result: what the adapter read, its reader's warnings first.
    ///   - vendor: the adapter's id.
    ///   - input: the event it came from (its `phase` and `automaticallyOpenDeeplinks`).
    public func resolve(_ result: AdapterResult, vendor: String, input: InputEvent) -> Resolution {
        var rejected: [RejectedURL] = []
        var result = result
        let interaction = interaction(taking: &result, vendor: vendor, input: input, rejected: &rejected)
        return Resolution(interaction: interaction, rejectedURLs: rejected)
    }

    /// ``resolve(_:vendor:input:)``'s interaction, the refused URLs appended to `rejected`:
    /// returned as it is built, not copied out of a ``Resolution`` (the record path asks for
    /// the interaction alone). The result's strings, objects and arrays are moved into the
    /// interaction, not copied: `result` is left with empty ones.
    func interaction(
        taking result: inout AdapterResult,
        vendor: String,
        input: InputEvent,
        rejected: inout [RejectedURL]
    ) -> Interaction {
        var warnings = Self.take(&result.warnings, leaving: [])
        let before = warnings.count
        // A destination without a URL passes the policy as it is: moved, not copied into
        // `resolve` and out again (a screen's name and parameters retained and released).
        let destination =
            result.destination.carriesURL
            ? resolve(result.destination, at: .destination, warnings: &warnings, rejected: &rejected)
            : Self.take(&result.destination, leaving: .none)
        // `result.destination` is the interaction's destination as the adapter gave it (taken
        // only when it has no URL, and so never the same as a button's that has).
        let buttons =
            result.buttons.isEmpty
            ? []
            : resolveButtons(
                taking: &result,
                resolvedAs: destination,
                reusable: warnings.count == before,
                warnings: &warnings,
                rejected: &rejected
            )
        let handling: Handling
        if case .url = destination {
            let behavior = result.vendorBehavior
            let automatic = automaticallyOpen(
                vendor: vendor,
                channel: result.channel,
                eventOverride: behavior.followsEventOverride ? input.automaticallyOpenDeeplinks : nil,
                vendorDefault: behavior.opensURL
            )
            handling = automatic ? .automatic : .app
        } else {
            handling = .app
        }
        var messageId = Self.take(&result.messageId, leaving: nil)
        if messageId?.isEmpty == true { messageId = nil }
        return Interaction(
            vendor: vendor,
            channel: result.channel,
            trigger: Self.take(&result.trigger, leaving: .tap),
            destination: destination,
            handling: handling,
            messageId: messageId,
            payload: Self.take(&result.payload, leaving: JSONObject()),
            tracking: Self.take(&result.tracking, leaving: JSONObject()),
            buttons: buttons,
            phase: input.phase,
            warnings: warnings
        )
    }

    /// Applies the policy to the destination of each button of `result` (taken from it) that
    /// carries a URL.
    ///
    /// A resolution depends on the destination alone; only its warnings name the place (the
    /// destination or a button). So a button whose destination is the interaction's own, as
    /// when a vendor's buttons open what the notification opens, takes the interaction's
    /// resolution (`resolved`) when that raised no warning (`reusable`), instead of reading,
    /// checking and routing the same URL again; otherwise it is resolved on its own, its
    /// warnings naming it. Apart from the interaction's own path, which a record without
    /// buttons runs alone.
    @inline(never)
    private func resolveButtons(
        taking result: inout AdapterResult,
        resolvedAs resolved: Destination,
        reusable: Bool,
        warnings: inout [Warning],
        rejected: inout [RejectedURL]
    ) -> [Interaction.Button] {
        var buttons = Self.take(&result.buttons, leaving: [])
        for i in buttons.indices where buttons[i].destination.carriesURL {
            if reusable, buttons[i].destination == result.destination {
                buttons[i].destination = resolved
                continue
            }
            buttons[i].destination = resolve(
                buttons[i].destination,
                at: .button(id: buttons[i].id),
                warnings: &warnings,
                rejected: &rejected
            )
        }
        return buttons
    }

    /// The value in `place`, moved out (no copy), `empty` left in its stead.
    @inline(__always)
    private static func take<Value>(_ place: inout Value, leaving empty: Value) -> Value {
        var taken = empty
        swap(&taken, &place)
        return taken
    }

    /// ``resolve(_:warnings:label:)`` for one place of an interaction, recording a refused URL.
    private func resolve(
        _ destination: Destination,
        at place: RejectedURL.Place,
        warnings: inout [Warning],
        rejected: inout [RejectedURL]
    ) -> Destination {
        // A local function, not a closure in a `let` (which would be allocated for each URL).
        func label() -> String {
            switch place {
            case .destination: "destination url"
            case .button(let id): "button \(id) url"
            }
        }
        var rejection: (url: String, reason: URLSafety.Rejection)?
        let resolved = resolve(destination, warnings: &warnings, label: label) { rejection = ($0, $1) }
        if let rejection, let warning = warnings.last {
            rejected.append(RejectedURL(url: rejection.url, place: place, rejection: rejection.reason, warning: warning))
        }
        return resolved
    }

    /// The effective `automaticallyOpenDeeplinks` for a vendor and channel.
    /// - Parameters:
    ///   - vendor: the adapter id.
    ///   - channel: the interaction's channel.
    ///   - eventOverride: the input's own value, when it applies.
    ///   - vendorDefault: the adapter's built-in default.
    public func automaticallyOpen(vendor: String, channel: Channel, eventOverride: Bool?, vendorDefault: Bool) -> Bool {
        if let value = eventOverride { return value }
        // Read in place: the settings are not copied for each record.
        let adapters = configuration.adapters
        if let i = adapters.firstIndex(where: { $0.id == vendor }) {
            if let value = adapters[i].channels[channel]?.automaticallyOpenDeeplinks { return value }
            if let value = adapters[i].policy.automaticallyOpenDeeplinks { return value }
        }
        if let value = configuration.defaults.automaticallyOpenDeeplinks { return value }
        return vendorDefault
    }

    /// The `urlRejected` warning for `url`, quoting it when it is short.
    private static func rejection(_ url: String, label: String, reason: String) -> Warning {
        let shown = url.utf8.count <= 200 ? "'\(url)'" : "(a \(url.utf8.count)-byte url)"
        return Warning(.urlRejected, "\(label) \(shown) \(reason)")
    }

    /// The `urlRepaired` warning: what the repair encoded, the URL used, and that iOS before
    /// 17 drops the tap.
    private static func repaired(_ url: String, _ repair: URLRepair.Repair, label: String) -> Warning {
        let shown = url.utf8.count <= 200 ? "'\(url)'" : "(a \(url.utf8.count)-byte url)"
        let used = repair.url.utf8.count <= 200 ? "'\(repair.url)'" : "the repaired url"
        let listed = repair.encoded.prefix(8).map { "'\($0.character)' as \($0.escape)" }
        let more = repair.encoded.count > 8 ? " and \(repair.encoded.count - 8) more" : ""
        let components = repair.components.joined(separator: ", ")
        return Warning(
            .urlRepaired,
            "\(label) \(shown) holds characters iOS 17 and later percent-encode: URL(string:) encoded its \(components) (\(listed.joined(separator: ", "))\(more)), so TapRoute uses \(used); before iOS 17 URL(string:) returns nil and the vendor's SDK drops the tap"
        )
    }

    /// Applies safety, routes and target classification to one destination.
    ///
    /// A `screen` destination an adapter built from a link (one that carries its `url`)
    /// passes the same safety rules: a rejected link makes it `{"type":"app"}` with a
    /// `urlRejected` warning. When that link is on an app domain whose universal-link (AASA)
    /// rules refuse it, iOS would open it in Safari, not the app: the destination becomes
    /// that URL with target `external`.
    public func resolve(_ destination: Destination, warnings: inout [Warning], label: String) -> Destination {
        resolve(destination, warnings: &warnings) { label }
    }

    /// ``resolve(_:warnings:label:)`` with the label made only when a warning needs it, telling
    /// `rejected` about a URL the safety rules refused.
    func resolve(
        _ destination: Destination,
        warnings: inout [Warning],
        label: () -> String,
        rejected: (String, URLSafety.Rejection) -> Void = { _, _ in }
    ) -> Destination {
        var url: String
        var target = URLTarget.external
        // The cases with a URL are those of `Destination.carriesURL`.
        switch destination {
        case .screen(_, _, let link?): url = link
        case .url(let link, let linkTarget):
            url = link
            target = linkTarget
        default: return destination
        }
        let parts: URLParts
        do {
            parts = try safety.check(url)
        } catch {
            // A URL iOS 17 and later repair (percent-encoding a space, `<`, non-ASCII text, …)
            // is used in its repaired form when that passes every rule.
            guard let repair = URLRepair.repaired(url), let repairedParts = try? safety.check(repair.url) else {
                warnings.append(Self.rejection(url, label: label(), reason: error.reason))
                rejected(url, error)
                return .app
            }
            warnings.append(Self.repaired(url, repair, label: label()))
            url = repair.url
            parts = repairedParts
        }
        if case .screen(let name, let parameters, _) = destination {
            let classification = classifier.classify(parts)
            guard classification.excludedByRules else { return .screen(name: name, parameters: parameters, url: url) }
            if let warning = classification.warning { warnings.append(warning) }
            return .url(url, target: .external)
        }
        let classification = classifier.classify(parts)
        // A URL on an app domain that its universal-link rules refuse opens in Safari on
        // iOS, so it is not routed inside the app either.
        if !classification.excludedByRules {
            // Through the buffer, with `match` inlined: each route is read in place, not copied
            // (a copy retains its strings and segments and releases them again).
            let routed = configuration.routes.withUnsafeBufferPointer { routes -> Destination? in
                for index in routes.indices {
                    if let parameters = routes[index].match(parts) {
                        return .screen(name: routes[index].screen, parameters: parameters, url: url)
                    }
                }
                return nil
            }
            if let routed { return routed }
        }
        if let warning = classification.warning { warnings.append(warning) }
        if target == .inAppBrowser {
            if parts.scheme == "http" || parts.scheme == "https" {
                return .url(url, target: .inAppBrowser)
            }
            warnings.append(
                Warning(
                    .richLandingNotWeb,
                    "\(label()) is a rich landing page with scheme '\(parts.scheme)'; an in-app browser (SFSafariViewController) shows only http(s), so it is opened as a plain URL"
                )
            )
        }
        return .url(url, target: classification.target)
    }
}

/// Decides whether a URL belongs to the app (`target: app`) or to the system (`external`).
///
/// A URL is the app's when its scheme is one of `app.schemes`, or it is `https` on a host
/// in `app.domains`. When universal-link rules are set for that domain (from its
/// apple-app-site-association file), they must accept the URL too, exactly as iOS decides.
public struct URLClassifier: Sendable {
    /// The app's schemes and domains.
    public let app: AppSettings
    private let schemes: SmallStringSet
    private let domains: SmallStringSet
    /// Universal-link rules by lower-cased domain: given the URL, answer whether iOS would
    /// open it in the app and, when a rule excluded it, which.
    public let universalLinkRules: [String: @Sendable (URLParts) -> UniversalLinkDecision]

    /// Creates a classifier.
    public init(app: AppSettings, universalLinkRules: [String: @Sendable (URLParts) -> UniversalLinkDecision] = [:]) {
        self.app = app
        self.schemes = SmallStringSet(app.schemes)
        self.domains = SmallStringSet(app.domains)
        self.universalLinkRules = universalLinkRules
    }

    /// The classification of one URL.
    public struct Classification: Sendable, Hashable {
        /// `app` or `external`.
        public var target: URLTarget
        /// Whether the domain is the app's but its universal-link rules refused the URL.
        public var excludedByRules: Bool
        /// Whether universal-link (AASA) rules decided, rather than the scheme or domain alone.
        public var decidedByRules: Bool
        /// A warning to attach (e.g. naming the exclude rule that decided).
        public var warning: Warning?
    }

    /// Classifies a URL that passed the safety rules.
    public func classify(_ parts: URLParts) -> Classification {
        if schemes.contains(parts.scheme) {
            return Classification(target: .app, excludedByRules: false, decidedByRules: false, warning: nil)
        }
        guard parts.scheme == "https" else {
            return Classification(target: .external, excludedByRules: false, decidedByRules: false, warning: nil)
        }
        let host = parts.normalizedHost
        guard domains.contains(host) else {
            return Classification(target: .external, excludedByRules: false, decidedByRules: false, warning: nil)
        }
        guard let rules = universalLinkRules[host] else {
            return Classification(target: .app, excludedByRules: false, decidedByRules: false, warning: nil)
        }
        let decision = rules(parts)
        if decision.opensApp {
            return Classification(target: .app, excludedByRules: false, decidedByRules: true, warning: nil)
        }
        return Classification(
            target: .external,
            excludedByRules: true,
            decidedByRules: true,
            warning: decision.explanation.map { Warning(.universalLinkExcluded, $0) }
        )
    }
}

/// What a domain's universal-link rules say about one URL.
public struct UniversalLinkDecision: Sendable, Hashable {
    /// Whether iOS would open the URL in the app.
    public var opensApp: Bool
    /// Why not, naming the rule that decided (for a warning), when a rule excluded it.
    public var explanation: String?

    /// Creates a decision.
    public init(opensApp: Bool, explanation: String? = nil) {
        self.opensApp = opensApp
        self.explanation = explanation
    }
}

/// What the registry made of one input: the ``Interaction``, and each URL the safety rules
/// refused in it.
public struct Resolution: Sendable, Hashable {
    /// The interaction, with every refused URL replaced by `{"type":"app"}`.
    public var interaction: Interaction
    /// The URLs the safety rules refused, in the order of the interaction's warnings.
    public var rejectedURLs: [RejectedURL]

    /// Creates a resolution.
    public init(interaction: Interaction, rejectedURLs: [RejectedURL] = []) {
        self.interaction = interaction
        self.rejectedURLs = rejectedURLs
    }
}

/// A URL of an interaction that the safety rules (``URLSafety``) refused.
public struct RejectedURL: Sendable, Hashable {
    /// Where in the interaction a URL was.
    public enum Place: Sendable, Hashable {
        /// The interaction's destination.
        case destination
        /// The destination of the button with this id.
        case button(id: String)
    }

    /// The URL as the adapter read it.
    public var url: String
    /// Where it was.
    public var place: Place
    /// Which rule refused it.
    public var rejection: URLSafety.Rejection
    /// The `urlRejected` warning the interaction carries for it.
    public var warning: Warning

    /// Creates a record.
    public init(url: String, place: Place, rejection: URLSafety.Rejection, warning: Warning) {
        self.url = url
        self.place = place
        self.rejection = rejection
        self.warning = warning
    }
}
