// swift-tools-version:6.2
// TapRoute's benchmarks, a package of their own so that TapRoute's users never resolve
// ordo-one/benchmark. Run from this folder:
//   swift package --allow-writing-to-package-directory benchmark
// (docs/performance.md has the table and how to read it).
import Foundation
import PackageDescription

/// SwiftPM names a path dependency after its folder, so find what the checkout is called.
let tapRoute = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "TapRouteBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.29.0", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The inputs both executables share: the typical push, the routed link, the registry.
        .target(
            name: "BenchmarkInputs",
            dependencies: [
                .product(name: "TapRoute", package: tapRoute),
                .product(name: "TapRouteAdapters", package: tapRoute),
            ],
            path: "Sources/BenchmarkInputs"
        ),
        // The typical push normalized or parsed N times, for callgrind's instruction count.
        .executableTarget(
            name: "PushInstructions",
            dependencies: ["BenchmarkInputs", .product(name: "TapRoute", package: tapRoute)],
            path: "Sources/PushInstructions"
        ),
        // The typical push normalized against the same push parsed, by time, interleaved.
        .executableTarget(
            name: "PushRatio",
            dependencies: ["BenchmarkInputs", .product(name: "TapRoute", package: tapRoute)],
            path: "Sources/PushRatio"
        ),
        .executableTarget(
            name: "NormalizeBenchmarks",
            dependencies: [
                "BenchmarkInputs",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "TapRoute", package: tapRoute),
                .product(name: "TapRouteAdapters", package: tapRoute),
                .product(name: "TapRouteYAML", package: tapRoute),
            ],
            path: "Benchmarks/NormalizeBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
