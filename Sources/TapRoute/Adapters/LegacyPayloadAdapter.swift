// TRANSITIONAL: lets the vendor adapters move to `read(_:using:)` one at a time. Removed once
// every adapter has moved (issue 16).

/// An adapter still written against the old `normalize(_:) -> Interaction` contract.
public protocol LegacyPayloadAdapter: PayloadAdapter {
    /// The old entry point.
    func normalize(_ input: InputEvent) throws(NormalizationError) -> Interaction
    /// The old per-event override rule.
    func eventOverrideApplies(to interaction: Interaction) -> Bool
}

extension LegacyPayloadAdapter {
    /// True by default.
    public func eventOverrideApplies(to interaction: Interaction) -> Bool { true }

    /// The old entry point, as a result.
    public func read(_ input: InputEvent, using reader: inout PayloadReader) throws(NormalizationError) -> AdapterResult {
        let interaction = try normalize(input)
        return AdapterResult(
            channel: interaction.channel,
            trigger: interaction.trigger,
            destination: interaction.destination,
            buttons: interaction.buttons,
            messageId: interaction.messageId,
            payload: interaction.payload,
            tracking: interaction.tracking,
            warnings: interaction.warnings,
            vendorBehavior: VendorBehavior(
                opensURL: interaction.handling == .automatic,
                followsEventOverride: eventOverrideApplies(to: interaction)
            )
        )
    }
}
