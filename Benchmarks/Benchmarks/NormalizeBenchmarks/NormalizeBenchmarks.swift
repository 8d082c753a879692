import Benchmark
import TapRoute
import TapRouteAdapters
import TapRouteYAML

/// A typical DashX push as a back end receives it: about 500 bytes, a JSON-string block
/// with a url and one action button.
let typicalPush = Array(
    #"{"kind":"notification","userInfo":{"aps":{"alert":{"title":"Your order has shipped","body":"Track parcel 1Z999 or view the order."},"sound":"default","category":"DASHX_CAT_3b0f0c1e2d4a5b"},"dashx":"{\"id\":\"6f1c2a9e-0b7d-4c55-9a1e-3d2f8b7c1a40\",\"title\":\"Your order has shipped\",\"body\":\"Track parcel 1Z999.\",\"url\":\"https://shop.example.com/track/1Z999\",\"action_buttons\":[{\"identifier\":\"view\",\"label\":\"View order\",\"screenName\":\"OrderDetail\",\"screenData\":{\"orderId\":\"7421\"}}]}","campaign":"autumn"},"action":"view","origin":"remote"}"#
        .utf8
)

/// A plain custom-scheme link that matches a route.
let routedLink = Array(#"{"kind":"url","url":"campaigndemoapp://products/42?ref=push"}"#.utf8)

let registry: AdapterRegistry = {
    do {
        let configuration = try YAMLConfiguration.parse(yaml: DefaultConfiguration.yaml, file: "<embedded config.yaml>")
        return try AdapterRegistry(configuration: configuration, adapterTypes: AdapterRegistry.builtInAdapterTypes)
    } catch {
        fatalError("the embedded configuration does not load: \(error)")
    }
}()

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .mallocCountTotal, .throughput], maxDuration: .seconds(2))

    Benchmark("normalize a typical 500-byte push: bytes to Interaction") { benchmark in
        for _ in benchmark.scaledIterations {
            let interaction = typicalPush.withUnsafeBufferPointer { bytes in
                try? registry.normalize(record: bytes)
            }
            blackHole(interaction)
        }
    }

    Benchmark("normalize a typical push and write its JSON") { benchmark in
        var out: [UInt8] = []
        out.reserveCapacity(2048)
        for _ in benchmark.scaledIterations {
            out.removeAll(keepingCapacity: true)
            if let interaction = typicalPush.withUnsafeBufferPointer({ try? registry.normalize(record: $0) }) {
                interaction.writeJSON(into: &out)
            }
            blackHole(out)
        }
    }

    Benchmark("normalize a routed custom-scheme link") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(routedLink.withUnsafeBufferPointer { try? registry.normalize(record: $0) })
        }
    }

    Benchmark("parse a typical push (JSON only)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(typicalPush.withUnsafeBufferPointer { try? JSONParser().parse($0) })
        }
    }

    Benchmark("load the default configuration and build the registry") { benchmark in
        for _ in benchmark.scaledIterations {
            let configuration = try YAMLConfiguration.parse(yaml: DefaultConfiguration.yaml)
            blackHole(try AdapterRegistry(configuration: configuration, adapterTypes: AdapterRegistry.builtInAdapterTypes))
        }
    }
}
