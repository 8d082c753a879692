public import TapRoute

/// What DashX's own analytics would have recorded for an ``TapRoute/Interaction``, so an app
/// that lets TapRoute handle taps can keep feeding its DashX dashboards.
///
/// The DashX SDKs fire two events for deep linking (`docs/adapters/dashx.md` has the full
/// mapping):
/// - `dx_notification_navigated` on every tap of a DashX notification or one of its buttons,
///   with a `type` (``NavigationType``);
/// - `dx_deep_link_opened` whenever a URL is opened, with a `source` (``DeepLinkSource``)
///   that follows from the interaction's channel and trigger.
public enum DashXAnalytics {
    /// The `type` of DashX's `dx_notification_navigated` event.
    public enum NavigationType: String, Sendable, Hashable, CaseIterable {
        /// A URL opened by the system (or routed inside the app).
        case deepLink = "deep_link"
        /// A named screen with its `screen_data`.
        case screen
        /// A URL shown in an in-app browser.
        case richLanding = "rich_landing"
        /// A click action string.
        case clickAction = "click_action"
        /// Nothing to navigate to: the app just opens.
        case `default`
    }

    /// The `source` of DashX's `dx_deep_link_opened` event.
    public enum DeepLinkSource: String, Sendable, Hashable, CaseIterable {
        /// A URL opened from a notification tap.
        case notification
        /// A universal link (`scene(_:continue:)`).
        case universalLink = "universal_link"
        /// A custom-scheme URL (`scene(_:openURLContexts:)`).
        case sceneURL = "scene_url"
    }

    /// The `dx_notification_navigated` type for a DashX notification tap, or `nil` when
    /// DashX fires no such event (a dismiss, a link, another vendor's interaction).
    ///
    /// A `url` destination is `rich_landing` when its target is `inAppBrowser`, else
    /// `deep_link`; a `screen` is `screen`, or `deep_link` when a route made it from a URL;
    /// a click action is `click_action`; `app` is `default`.
    public static func navigationType(of interaction: Interaction) -> NavigationType? {
        guard interaction.vendor == DashXAdapter.id, interaction.channel == .push || interaction.channel == .local
        else { return nil }
        switch interaction.trigger {
        case .tap, .button: break
        case .dismiss, .open: return nil
        }
        switch interaction.destination {
        case .url(_, .inAppBrowser): return .richLanding
        case .url: return .deepLink
        case .screen(_, _, let url): return url == nil ? .screen : .deepLink
        case .clickAction: return .clickAction
        case .app: return .default
        case .none: return nil
        }
    }

    /// The `dx_deep_link_opened` source for an interaction, from its channel and trigger, or
    /// `nil` when DashX would record no opened link.
    ///
    /// - A tap or button tap on a DashX push or local notification whose destination carries
    ///   a URL (a `url`, or a `screen` routed from one): `notification`.
    /// - A link (trigger `open`, any vendor): `universal_link` on the `universalLink`
    ///   channel, `scene_url` on the `customScheme` channel.
    public static func deepLinkSource(of interaction: Interaction) -> DeepLinkSource? {
        switch (interaction.channel, interaction.trigger) {
        case (.push, .tap), (.push, .button), (.local, .tap), (.local, .button):
            guard interaction.vendor == DashXAdapter.id, openedURL(of: interaction) != nil else { return nil }
            return .notification
        case (.universalLink, .open):
            return .universalLink
        case (.customScheme, .open):
            return .sceneURL
        default:
            return nil
        }
    }

    /// The URL DashX would report as opened: the destination's URL, or the link a screen was
    /// routed from.
    public static func openedURL(of interaction: Interaction) -> String? {
        switch interaction.destination {
        case .url(let url, _): url
        case .screen(_, _, let url): url
        default: nil
        }
    }
}
