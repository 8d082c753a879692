public import TapRoute

/// What makes two arrivals "the same interaction" for de-duplication.
///
/// Two interactions are the same when they agree on `vendor`, `channel`, `trigger`
/// (including the button id), `destination`, `messageId`, `payload` and `tracking`. The
/// key ignores `phase` (the same tap arrives cold through launch options and warm through
/// `didReceive`), `handling` (a per-event override may differ between entry points),
/// `buttons` and `warnings` (both follow from the rest).
///
/// So a notification forwarded twice (launch options and `didReceive`, `willConnect` and
/// `didReceive`, or the same `didReceive` twice) has one key, and so does a link that
/// arrives as a URL context and again as a user activity with the same URL. Two taps on
/// different buttons of one notification, or the same link with a different query, are
/// different keys.
public struct DeduplicationKey: Sendable, Hashable {
    /// The adapter id.
    public var vendor: String
    /// The channel.
    public var channel: Channel
    /// The trigger, with its button id and label.
    public var trigger: Trigger
    /// The destination.
    public var destination: Destination
    /// The vendor's message id.
    public var messageId: String?
    /// The sender's custom data.
    public var payload: JSONObject
    /// The vendor's tracking fields.
    public var tracking: JSONObject

    /// The key of an interaction.
    public init(_ interaction: Interaction) {
        vendor = interaction.vendor
        channel = interaction.channel
        trigger = interaction.trigger
        destination = interaction.destination
        messageId = interaction.messageId
        payload = interaction.payload
        tracking = interaction.tracking
    }
}
