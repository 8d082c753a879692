import Foundation
import TapRoute
import TapRouteAdapters
import TapRouteYAML

/// The inputs the in-process benchmarks (NormalizeBenchmarks), the instruction count of the
/// typical push (PushInstructions) and the interleaved ratios (InterleavedRatios) share. Each
/// executable keeps them in globals of its own: a global of another module is reached through
/// a call, and a struct read from one is copied (the registry's copy retains every field:
/// about 3,000 instructions a call, measured with PushInstructions).
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

    /// The repository's checkout, for the definition files.
    public static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    /// Bird interactions as a back end receives them: a button with a deep link and a JSON
    /// payload string (examples/bird-deep-link.json), an Open URL tap, an Open App tap.
    public static let birdRecords: [[UInt8]] = [
        #"{"kind":"vendorEvent","automaticallyOpenDeeplinks":false,"event":{"type":"Button","payload":"{\"orderId\": \"409\", \"source\": \"push\"}","action":{"type":"DEEP_LINK","uri":"campaigndemoapp://search?q=caf%C3%A9%20au%20lait","identifier":"btn-shop"}}}"#,
        #"{"kind":"vendorEvent","event":{"type":"Tap","action":{"type":"URL","uri":"https://example.com/offers/spring?utm_source=bird"}}}"#,
        #"{"kind":"vendorEvent","event":{"type":"tap","payload":"welcome-back","action":{"type":"openApp"}}}"#,
    ].map { Array($0.utf8) }

    /// The default configuration with Bird re-expressed as a definition (the test-only proof,
    /// `Tests/ConformanceTests/Definitions/bird.yaml`) in place of the Swift adapter.
    public static func makeDefinitionBirdRegistry() -> AdapterRegistry {
        let path = "Tests/ConformanceTests/Definitions/bird.yaml"
        do {
            let text = try String(contentsOfFile: repository + "/" + path, encoding: .utf8)
            let (document, source) = try YAMLConfiguration.document(yaml: text, file: path)
            let bird = try AdapterDefinition(json: document, source: source, origin: .file(path))
            let configuration = try YAMLConfiguration.parse(yaml: DefaultConfiguration.yaml, file: "<embedded config.yaml>")
            return try AdapterRegistry(
                configuration: configuration,
                adapterTypes: AdapterRegistry.builtInAdapterTypes.filter { $0.id != "bird" },
                definitions: try AdapterRegistry.builtInDefinitions() + [bird]
            )
        } catch {
            fatalError("the Bird definition does not load: \(error)")
        }
    }
}
