/// Turns one vendor's payload conventions into ``Interaction``s.
///
/// An adapter describes what the vendor meant — the channel, the trigger, the destination
/// the vendor's SDK would resolve, the buttons, tracking fields, and warnings where the SDKs
/// differ. It does not decide who opens the destination or whether a URL is safe: the
/// ``AdapterRegistry`` applies the configuration's policy afterwards (URL safety, target
/// classification, routes, handling).
///
/// ```swift
/// struct AcmeAdapter: PayloadAdapter {
///     static let id = "acme"
///     static let summary = "Acme Push: userInfo[\"acme\"] with a link"
///     init(configuration: AdapterConfiguration) throws(ConfigurationError) {}
///     func recognizes(_ input: InputEvent) -> Bool {
///         if case .notification(let userInfo, _, _) = input.kind { return userInfo["acme"] != nil }
///         return false
///     }
///     func normalize(_ input: InputEvent) throws(NormalizationError) -> Interaction {
///         guard case .notification(let userInfo, let action, _) = input.kind,
///               let link = userInfo["acme"]?["link"]?.stringValue
///         else { throw .invalidPayload("acme.link must be a string", path: "$.userInfo.acme.link") }
///         return Interaction(vendor: Self.id, channel: .push,
///                            trigger: Trigger(notificationAction: action),
///                            destination: .url(link, target: .external), handling: .automatic)
///     }
/// }
/// ```
///
/// Contract (checked by `TapRouteConformance`): `normalize` is deterministic, never traps on
/// any input (it returns an `Interaction` or throws a ``NormalizationError``), and succeeds
/// for every input `recognizes` accepts that is well-formed for the vendor.
public protocol PayloadAdapter: Sendable {
    /// The adapter id used in `config.yaml`, in envelopes' `vendor`, and as the
    /// interaction's `vendor` (`dashx`).
    static var id: String { get }
    /// One line saying what the adapter reads, for `normalize adapters`.
    static var summary: String { get }
    /// The adapter's own configuration keys (besides `id`, `automaticallyOpenDeeplinks` and
    /// `channels`). Any other key in its `config.yaml` entry is an error.
    static var configurationKeys: [String] { get }

    /// Creates the adapter from its configuration.
    /// - Throws: ``ConfigurationError`` for a bad value of one of its own keys, with the key
    ///   path relative to its entry (the registry adds `adapters[i]` and the file location).
    init(configuration: AdapterConfiguration) throws(ConfigurationError)

    /// Whether this input is this vendor's. Cheap: no parsing of nested JSON strings.
    func recognizes(_ input: InputEvent) -> Bool

    /// Normalizes a recognized input.
    ///
    /// Set `handling` to what the vendor's SDK itself would do with a URL destination for
    /// this message (`.automatic` when the SDK opens it); the registry replaces it according
    /// to the configuration. Leave `phase` unset: the registry copies it from the input.
    /// - Throws: ``NormalizationError`` when the payload is invalid in a way the vendor's
    ///   SDK rejects too.
    func normalize(_ input: InputEvent) throws(NormalizationError) -> Interaction

    /// Whether the input's own `automaticallyOpenDeeplinks` (what the app passed for this
    /// one event) governs the handling of `interaction`.
    ///
    /// True by default. A vendor whose per-call flag covers only some destinations says
    /// false for the others: Bird's `handleNotificationResponse(automaticallyOpenDeeplinks:)`
    /// governs deep links, while an "Open URL" action is always opened. Configuration
    /// levels still apply.
    func eventOverrideApplies(to interaction: Interaction) -> Bool

    /// The custom URL schemes this adapter reads links of (TapTalk's `schemes`), lower-cased.
    /// They are allowed destinations without being listed in `security.allowedSchemes`:
    /// configuring the adapter declares them. Empty by default.
    var claimedSchemes: [String] { get }
}

extension PayloadAdapter {
    /// The per-event override applies to every interaction by default.
    public func eventOverrideApplies(to interaction: Interaction) -> Bool { true }

    /// No claimed schemes by default.
    public var claimedSchemes: [String] { [] }

    /// No adapter-specific keys by default.
    public static var configurationKeys: [String] { [] }
    /// The id, by default.
    public static var summary: String { id }
}

/// What an adapter is created with: its `config.yaml` entry, the app's settings and the
/// input limits.
public struct AdapterConfiguration: Sendable {
    /// The adapter's id.
    public var id: String
    /// The adapter's own keys from its entry, already checked against
    /// ``PayloadAdapter/configurationKeys``.
    public var options: JSONObject
    /// The app's schemes and domains.
    public var app: AppSettings
    /// The configuration's input limits. An adapter that decodes JSON carried in a string
    /// parses it with ``Limits/parseEmbeddedJSON(_:heldAt:)``, so that `maxDepth` bounds
    /// the whole record, strings included.
    public var limits: Limits

    /// Creates an adapter configuration.
    public init(id: String, options: JSONObject = [:], app: AppSettings = AppSettings(), limits: Limits = Limits()) {
        self.id = id
        self.options = options
        self.app = app
        self.limits = limits
    }

    /// A reader for the option `key`, or `nil` when it is absent.
    public func option(_ key: String) -> ConfigurationReader? {
        options[key].map { ConfigurationReader($0, at: [.key(key)]) }
    }
}
