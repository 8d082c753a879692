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

    /// Normalizes a link.
    /// - Throws: `unrecognized` for any other input.
    public func normalize(_ input: InputEvent) throws(NormalizationError) -> Interaction {
        let url: String
        var messageId: String?
        switch input.kind {
        case .url(let u, let id):
            url = u
            // An empty message id counts as absent: the JSON form omits it, so keeping ""
            // would not survive a round trip.
            messageId = id.flatMap { $0.isEmpty ? nil : $0 }
        case .userActivity(let type, let u) where type == InputEvent.browsingWebActivityType:
            url = u
        default:
            throw NormalizationError(
                .unrecognized,
                "the link adapter reads url and browsing-web userActivity envelopes, not \(input.kind.name)"
            )
        }
        return Interaction(
            vendor: Self.id,
            channel: Self.channel(for: url),
            trigger: .open,
            destination: .url(url, target: .external),
            handling: .app,
            messageId: messageId
        )
    }

    /// `universalLink` for an http(s) URL, `customScheme` for anything else (including a
    /// string with no scheme).
    public static func channel(for url: String) -> Channel {
        // Compare the bytes before the first ':' with "http" / "https", ignoring ASCII case.
        var matched = 0
        for byte in url.utf8 {
            if byte == UInt8(ascii: ":") { return matched == 4 || matched == 5 ? .universalLink : .customScheme }
            let expected: UInt8? =
                switch matched {
                case 0: UInt8(ascii: "h")
                case 1, 2: UInt8(ascii: "t")
                case 3: UInt8(ascii: "p")
                case 4: UInt8(ascii: "s")
                default: nil
                }
            guard let expected, byte | 0x20 == expected else { return .customScheme }
            matched += 1
        }
        return .customScheme
    }
}
