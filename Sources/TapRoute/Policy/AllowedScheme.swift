/// One scheme a destination URL may have, and why (``AdapterRegistry/allowedSchemes``).
public struct AllowedScheme: Sendable, Hashable {
    /// Where an allowed scheme comes from.
    public enum Origin: Sendable, Hashable, CustomStringConvertible {
        /// Listed in `security.allowedSchemes` (or its built-in default when the
        /// configuration has no such list).
        case security
        /// One of the app's own schemes (`app.schemes`).
        case app
        /// Claimed by the enabled adapter with this id (``PayloadAdapter/claimedSchemes``).
        case adapter(String)

        /// `security.allowedSchemes`, `app.schemes`, `adapter taptalk`.
        public var description: String {
            switch self {
            case .security: "security.allowedSchemes"
            case .app: "app.schemes"
            case .adapter(let id): "adapter \(id)"
            }
        }
    }

    /// The scheme, lower-cased.
    public var scheme: String
    /// Every place that allows it, in the order `security`, `app`, adapters.
    public var origins: [Origin]

    /// Creates an entry.
    public init(scheme: String, origins: [Origin]) {
        self.scheme = scheme
        self.origins = origins
    }

    /// The effective allowed schemes of a configuration with these enabled adapters, in the
    /// order first allowed; never-allowed schemes are left out.
    static func effective(configuration: Configuration, adapters: [any PayloadAdapter]) -> [AllowedScheme] {
        var entries: [AllowedScheme] = []
        var index: [String: Int] = [:]
        func add(_ scheme: String, _ origin: Origin) {
            let scheme = scheme.lowercased()
            guard !SecuritySettings.forbiddenSchemes.contains(scheme) else { return }
            if let i = index[scheme] {
                if !entries[i].origins.contains(origin) { entries[i].origins.append(origin) }
            } else {
                index[scheme] = entries.count
                entries.append(AllowedScheme(scheme: scheme, origins: [origin]))
            }
        }
        for scheme in configuration.security.allowedSchemes { add(scheme, .security) }
        for scheme in configuration.app.schemes { add(scheme, .app) }
        for adapter in adapters {
            for scheme in adapter.claimedSchemes { add(scheme, .adapter(adapter.id)) }
        }
        return entries
    }
}
