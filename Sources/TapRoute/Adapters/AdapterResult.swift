/// What an adapter read from its vendor's payload: what the vendor meant, and what the
/// vendor's own SDK does with it.
///
/// An adapter describes; the ``AdapterRegistry`` decides. From an `AdapterResult` the registry
/// builds the ``Interaction`` exactly once: it sets ``Interaction/vendor`` to the adapter's
/// id, ``Interaction/phase`` from the input, applies the ``HandlingPolicy`` to every URL (the
/// destination's and each button's), and decides ``Interaction/handling`` from the
/// configuration and ``vendorBehavior``. None of those three are the adapter's to set.
///
/// ```swift
/// return AdapterResult(
///     channel: .push,
///     trigger: Trigger(notificationAction: action),
///     destination: .url(link, target: .external),
///     messageId: reader.nonEmptyString(userInfo["acme_id"]),
///     vendorBehavior: .sdkOpensURL
/// )
/// ```
public struct AdapterResult: Sendable, Hashable {
    // `trigger` comes before `channel` so that the synthesized memberwise initializer differs
    // from the public one, which delegates to it (see `Interaction`).

    /// What the user did.
    public var trigger: Trigger
    /// How the interaction reached the app.
    public var channel: Channel
    /// Where the vendor's SDK would take the user (before the policy's safety rules, routes
    /// and URL targets).
    public var destination: Destination
    /// The action buttons the message offered, each with its own destination.
    public var buttons: [Interaction.Button]
    /// The vendor's id for the message. An empty string counts as absent: the registry
    /// leaves it out of the ``Interaction``.
    public var messageId: String?
    /// The custom data the sender attached, without the vendor's envelope keys.
    public var payload: JSONObject
    /// Vendor fields needed to report the interaction back.
    public var tracking: JSONObject
    /// Warnings the adapter raised itself. The registry puts them after the warnings raised
    /// through the ``PayloadReader`` the adapter was given.
    public var warnings: [Warning]
    /// What the vendor's SDK does with the destination when the app configures nothing.
    public var vendorBehavior: VendorBehavior
}

extension AdapterResult {
    /// Creates a result.
    public init(
        channel: Channel,
        trigger: Trigger,
        destination: Destination,
        buttons: [Interaction.Button] = [],
        messageId: String? = nil,
        payload: JSONObject = [:],
        tracking: JSONObject = [:],
        warnings: [Warning] = [],
        vendorBehavior: VendorBehavior = .appOpens
    ) {
        // Delegating to the synthesized memberwise initializer, as `Interaction`'s does: built
        // once, not built, copied and destroyed.
        self.init(
            trigger: trigger,
            channel: channel,
            destination: destination,
            buttons: buttons,
            messageId: messageId,
            payload: payload,
            tracking: tracking,
            warnings: warnings,
            vendorBehavior: vendorBehavior
        )
    }
}

/// The vendor SDK's own behaviour for one interaction, as data: whether it opens a URL
/// destination itself, and whether the app's per-event `automaticallyOpenDeeplinks` governs
/// that.
///
/// The registry's ``HandlingPolicy`` uses it for ``Interaction/handling``: the effective
/// `automaticallyOpenDeeplinks` is the first that is set of the input's own value (only when
/// ``followsEventOverride``), the adapter's per-channel setting, the adapter's setting,
/// `defaults`, and last ``opensURL``.
public struct VendorBehavior: Sendable, Hashable {
    /// Whether the vendor's SDK opens a URL destination itself by default (the built-in
    /// value of `automaticallyOpenDeeplinks` for this interaction).
    public var opensURL: Bool
    /// Whether the `automaticallyOpenDeeplinks` the app passes for one event governs this
    /// interaction. False where the vendor's per-call flag covers only some destinations:
    /// Bird's `handleNotificationResponse(automaticallyOpenDeeplinks:)` governs deep links,
    /// while an "Open URL" action is opened whatever the app passed.
    public var followsEventOverride: Bool

    /// Creates a behaviour.
    public init(opensURL: Bool, followsEventOverride: Bool = true) {
        self.opensURL = opensURL
        self.followsEventOverride = followsEventOverride
    }

    /// The vendor's SDK leaves the destination to the app (the default).
    public static let appOpens = VendorBehavior(opensURL: false)
    /// The vendor's SDK opens a URL destination itself.
    public static let sdkOpensURL = VendorBehavior(opensURL: true)
}
