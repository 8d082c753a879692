import TapRoute
import TapRouteAdapters

/// The inputs the in-process benchmarks (NormalizeBenchmarks) and the instruction count of
/// the typical push (PushInstructions) share. Each executable keeps them in globals of its
/// own: a global of another module is reached through a call, and a struct read from one is
/// copied (the registry's copy retains every field: about 3,000 instructions a call, measured
/// with PushInstructions).
public enum BenchmarkInputs {
    /// A typical DashX push as a back end receives it: about 500 bytes, a JSON-string block
    /// with a url and one action button.
    public static let typicalPush = Array(
        #"{"kind":"notification","userInfo":{"aps":{"alert":{"title":"Your order has shipped","body":"Track parcel 1Z999 or view the order."},"sound":"default","category":"DASHX_CAT_3b0f0c1e2d4a5b"},"dashx":"{\"id\":\"6f1c2a9e-0b7d-4c55-9a1e-3d2f8b7c1a40\",\"title\":\"Your order has shipped\",\"body\":\"Track parcel 1Z999.\",\"url\":\"https://shop.example.com/track/1Z999\",\"action_buttons\":[{\"identifier\":\"view\",\"label\":\"View order\",\"screenName\":\"OrderDetail\",\"screenData\":{\"orderId\":\"7421\"}}]}","campaign":"autumn"},"action":"view","origin":"remote"}"#
            .utf8
    )

    /// A plain custom-scheme link that matches a route.
    public static let routedLink = Array(#"{"kind":"url","url":"campaigndemoapp://products/42?ref=push"}"#.utf8)

    /// The registry a back end builds with no configuration of its own: every built-in
    /// adapter and definition, the embedded default configuration.
    public static func makeRegistry() -> AdapterRegistry {
        do {
            return try AdapterRegistry.builtIn()
        } catch {
            fatalError("the embedded configuration does not load: \(error)")
        }
    }
}
