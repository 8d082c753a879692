public import TapRoute

extension Warning.Code {
    /// `userInfo["dashx"]` is an object instead of a JSON string. The DashX iOS SDK ignores
    /// it (no navigation, no tracking); TapRoute reads it as intended.
    public static let dashxNotString: Self = "dashxNotString"
    /// `userInfo["dashx"]` is neither a JSON string holding an object nor an object. Both
    /// DashX SDKs ignore the tap; the destination is `app` (or `none` for a dismiss).
    public static let dashxUnreadable: Self = "dashxUnreadable"
    /// A DashX field has the wrong type (for example `"url": 42`). The DashX SDKs fail to
    /// decode the payload; TapRoute ignores that one field and keeps the rest.
    public static let dashxInvalidField: Self = "dashxInvalidField"
    /// `screen_data` (or a button's `screenData`) is not an object or a JSON string holding
    /// one; the screen is kept without parameters, as both DashX SDKs do.
    public static let invalidScreenData: Self = "invalidScreenData"
    /// A key written in the other case convention (snake_case on a button, camelCase at the
    /// top level), which both DashX SDKs ignore.
    public static let wrongKeyCase: Self = "wrongKeyCase"
}
