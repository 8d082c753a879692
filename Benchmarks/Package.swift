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
        // The inputs the executables share: the typical push, the routed link, the registries, Bird's records.
        .target(
            name: "BenchmarkInputs",
            dependencies: [
                .product(name: "TapRoute", package: tapRoute),
                .product(name: "TapRouteAdapters", package: tapRoute),
                .product(name: "TapRouteYAML", package: tapRoute),
            ],
            path: "Sources/BenchmarkInputs"
        ),
        // The typical push normalized or parsed N times, for callgrind's instruction count.
        .executableTarget(
            name: "PushInstructions",
            dependencies: ["BenchmarkInputs", .product(name: "TapRoute", package: tapRoute)],
            path: "Sources/PushInstructions"
        ),
        // The in-process goals' ratios by time, each pair of sides interleaved round by round.
        .executableTarget(
            name: "InterleavedRatios",
            dependencies: ["BenchmarkInputs", .product(name: "TapRoute", package: tapRoute)],
            path: "Sources/InterleavedRatios"
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
