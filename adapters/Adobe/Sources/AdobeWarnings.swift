public import TapRoute

extension Warning.Code {
    /// A Journey Optimizer push without a usable `_xdm`: Adobe's iOS SDK reports
    /// `noTrackingData` and opens no URL.
    public static let noTrackingData: Self = "noTrackingData"
    /// An `adbinapp://confirm|cancel` link whose `id` is not `broadlogId,deliveryId,tag` with
    /// tag 3, 4 or 5: Adobe's SDK records no click or view for it.
    public static let untrackedInteraction: Self = "untrackedInteraction"
    /// A query item follows the `url` of an `adbinapp://confirm` link: an unencoded `&` in the
    /// destination split it, as it does in Adobe's SDK.
    public static let unencodedAmpersand: Self = "unencodedAmpersand"
    /// The click URL holds the literal token `messageId`, but the envelope carries no message
    /// id to put in its place.
    public static let tokenNotExpanded: Self = "tokenNotExpanded"
    /// A button of the app's own notification category: Adobe's payload gives it no
    /// destination, so the app decides.
    public static let appDefinedAction: Self = "appDefinedAction"
    /// A field Adobe reads as a string has another type and was ignored, as Adobe's SDK
    /// ignores it.
    public static let ignoredField: Self = "ignoredField"
    /// No longer emitted: TapRoute 0.1.0 warned with it when an `adbinapp://cancel` link
    /// carried a `url` and treated cancel as `none`. The url is now the destination, as in
    /// Adobe's SDK (`clickedWithData` opens it for every tracked tag).
    @available(*, deprecated, message: "no longer emitted: a cancel link's url is its destination, as in Adobe's SDK")
    public static let cancelWithURL: Self = "cancelWithURL"
}

extension AdobeAdapter {
    /// The warning for a field Adobe reads only as a string (`as? String`, empty meaning
    /// absent) that holds `value` of another type, at `path` (`userInfo.uri`,
    /// `message.detail.url`): for ``PayloadReader/nonEmptyString(_:otherType:)``.
    static func ignoredField(_ path: String, _ value: JSONValue) -> Warning {
        Warning(
            .ignoredField,
            "\(path) is \(value.typeDescription), not a string: ignored, as Adobe's SDK reads it only as a string"
        )
    }
}
