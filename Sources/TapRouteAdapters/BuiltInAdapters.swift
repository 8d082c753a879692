import AdobeAdapter
import BirdAdapter
import DashXAdapter
public import TapRoute
import TapTalkAdapter

extension AdapterRegistry {
    /// The adapters TapRoute ships, in the default detection order. ``LinkAdapter`` is
    /// always known to a registry and is not listed.
    public static let builtInAdapterTypes: [any PayloadAdapter.Type] = [
        DashXAdapter.self,
        AdobeAdapter.self,
        BirdAdapter.self,
        TapTalkAdapter.self,
    ]
}

/// The embedded default configuration: the repository's `config.yaml`, compiled in.
public enum DefaultConfiguration {}
