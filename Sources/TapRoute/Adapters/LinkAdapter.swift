/// The fallback for plain links no vendor claims: custom-scheme URLs and universal links.
///
/// A `url` or browsing-web `userActivity` becomes an ``Interaction`` with vendor `link`,
/// channel `universalLink` (http and https) or `customScheme` (anything else), trigger `open`
/// and a `url` destination. The policy then decides its target (`app` for the app's own
/// schemes and domains), applies routes, and sets handling: the fallback opens nothing by
/// default, because the link was addressed to the app.
public struct LinkAdapter: PayloadAdapter {
    /// `link`.
    public static let id = "link"
    /// One line for `normalize adapters`.
    public static let summary = "Plain custom-scheme URLs and universal links that no vendor claims (the fallback)"

    /// Creates the adapter; it has no options.
    public init(configuration: AdapterConfiguration) throws(ConfigurationError) {}

    /// Creates the adapter.
    public init() {}

    /// Recognizes `url` envelopes and browsing-web user activities.
    public func recognizes(_ input: InputEvent) -> Bool {
        switch input.kind {
        case .url: true
        case .userActivity(let type, _): type == InputEvent.browsingWebActivityType
        default: false
        }
    }

    /// Reads a link: trigger `open`, the URL as the destination, left to the app.
    /// - Throws: `unrecognized` for any other input.
    public func read(_ input: InputEvent, using reader: inout PayloadReader) throws(NormalizationError) -> AdapterResult {
        let url: String
        var messageId: String?
        switch input.kind {
        case .url(let u, let id):
            url = u
            messageId = id
        case .userActivity(let type, let u) where type == InputEvent.browsingWebActivityType:
            url = u
        default:
            throw NormalizationError(
                .unrecognized,
                "the link adapter reads url and browsing-web userActivity envelopes, not \(input.kind.name)"
            )
        }
        return AdapterResult(
            channel: Self.channel(for: url),
            trigger: .open,
            destination: .url(url, target: .external),
            messageId: messageId,
            vendorBehavior: .appOpens
        )
    }

    /// `universalLink` for an http(s) URL, `customScheme` for anything else (including a
    /// string with no scheme).
    public static func channel(for url: String) -> Channel {
        URLParts.hasScheme("https", url) || URLParts.hasScheme("http", url) ? .universalLink : .customScheme
    }
}

extension LinkAdapter {
    /// `false`: links hold no notification.
    public var readsAlertText: Bool { false }
}
