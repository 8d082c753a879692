/// Reads one vendor's payload conventions: what the vendor meant, and what its SDK does.
///
/// An adapter describes; the ``AdapterRegistry`` decides. ``read(_:using:)`` returns an
/// ``AdapterResult`` — the channel, the trigger, the destination the vendor's SDK would
/// resolve, the buttons, the message id, payload and tracking fields, warnings where the
/// vendor's SDKs differ, and the vendor's own behaviour as data (``VendorBehavior``: does its
/// SDK open a URL itself; does the app's per-event `automaticallyOpenDeeplinks` govern it).
/// The registry then builds the ``Interaction`` once: it sets the `vendor` (the adapter's
/// `id`) and the `phase` (the input's), applies the ``HandlingPolicy`` (URL safety, routes,
/// URL targets) and decides `handling`.
///
/// Read payload values with the ``PayloadReader`` the registry passes: it holds the
/// registry's ``Limits`` (JSON held in strings is bounded by `limits.maxDepth` counted from
/// the record's root), the location of the vendor object, and the warning list.
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
///     func read(_ input: InputEvent, using reader: inout PayloadReader) throws(NormalizationError) -> AdapterResult {
///         guard case .notification(let userInfo, let action, _) = input.kind,
///               let link = reader.nonEmptyString(userInfo["acme"]?["link"])
///         else { throw .invalidPayload("acme.link must be a non-empty string", path: "$.userInfo.acme.link") }
///         return AdapterResult(channel: .push, trigger: Trigger(notificationAction: action),
///                              destination: .url(link, target: .external), vendorBehavior: .sdkOpensURL)
///     }
/// }
/// ```
///
/// Contract (checked by `TapRouteConformance`): `read` is deterministic, never traps on any
/// input (it returns a result or throws a ``NormalizationError``), and succeeds for every
/// input `recognizes` accepts that is well-formed for the vendor.
public protocol PayloadAdapter: Sendable {
    /// The adapter id used in `config.yaml`, in envelopes' `vendor`, and as the
    /// interaction's `vendor` (`dashx`).
    static var id: String { get }
    /// This adapter's id: ``id-swift.type.property`` for a Swift adapter, the definition's for a
    /// ``DefinitionAdapter``. The registry uses it everywhere (detection, `vendor`, listings).
    var id: String { get }
    /// One line saying what the adapter reads, for `normalize adapters`.
    static var summary: String { get }
    /// This adapter's one-line summary: ``summary-swift.type.property`` for a Swift adapter,
    /// the definition's for a ``DefinitionAdapter``.
    var summary: String { get }
    /// The adapter's own configuration keys (besides `id`, `automaticallyOpenDeeplinks` and
    /// `channels`). Any other key in its `config.yaml` entry is an error.
    static var configurationKeys: [String] { get }

    /// Creates the adapter from its configuration.
    /// - Throws: ``ConfigurationError`` for a bad value of one of its own keys, with the key
    ///   path relative to its entry (the registry adds `adapters[i]` and the file location).
    init(configuration: AdapterConfiguration) throws(ConfigurationError)

    /// Whether this input is this vendor's. Cheap: no parsing of nested JSON strings.
    func recognizes(_ input: InputEvent) -> Bool

    /// Reads a recognized input.
    ///
    /// - Parameters:
    ///   - input: the input, which ``recognizes(_:)`` accepted (or whose envelope named this
    ///     adapter).
    ///   - reader: the toolkit to read payload values with; warnings raised through it come
    ///     first in the interaction, before ``AdapterResult/warnings``.
    /// - Throws: ``NormalizationError`` when the payload is invalid in a way the vendor's
    ///   SDK rejects too, or `notAnInteraction` for a vendor event that is not a tap.
    func read(_ input: InputEvent, using reader: inout PayloadReader) throws(NormalizationError) -> AdapterResult

    /// The custom URL schemes this adapter reads links of (TapTalk's `schemes`), lower-cased.
    /// They are allowed destinations without being listed in `security.allowedSchemes`:
    /// configuring the adapter declares them. Empty by default.
    var claimedSchemes: [String] { get }

    /// Whether ``recognizes(_:)`` or ``read(_:using:)`` may look at the text of a
    /// notification's alert — the strings of `aps.alert` (`title`, `body`, …, or the alert
    /// itself when it is a string) — rather than only at whether they are there and are
    /// strings. `true` by default. A registry none of whose enabled adapters may reads records
    /// (``AdapterRegistry/normalize(record:)``, the `normalize` CLI) without building that
    /// text, about a third of a push's bytes: such an adapter then finds each of those strings
    /// empty. No adapter of this package reads it.
    var readsAlertText: Bool { get }
}

extension PayloadAdapter {
    /// The type's id, by default.
    public var id: String { Self.id }
    /// The type's summary, by default.
    public var summary: String { Self.summary }

    /// No claimed schemes by default.
    public var claimedSchemes: [String] { [] }

    /// `true` by default: the adapter may read the alert's text, so the registry builds it.
    public var readsAlertText: Bool { true }

    /// No adapter-specific keys by default.
    public static var configurationKeys: [String] { [] }
    /// The id, by default.
    public static var summary: String { id }

    /// Reads `input` with a fresh ``PayloadReader`` and returns the result with the reader's
    /// warnings first, as the registry would pass it to the policy. For tests and tools that
    /// look at an adapter without a registry.
    public func read(_ input: InputEvent, limits: Limits = Limits()) throws(NormalizationError) -> AdapterResult {
        var reader = PayloadReader(limits: limits, for: input)
        var result = try read(input, using: &reader)
        result.warnings = reader.takeWarnings() + result.warnings
        return result
    }
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
    /// The configuration's input limits (the ``PayloadReader`` an adapter reads each input
    /// with holds them too).
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
