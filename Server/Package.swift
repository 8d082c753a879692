// swift-tools-version:6.2
import PackageDescription

/// The HTTP service: its own package so the root package's `swift run normalize` and
/// `swift test` do not build Hummingbird and SwiftNIO.
let package = Package(
    name: "TapRouteServer",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "taproute-server", targets: ["taproute-server"])
    ],
    dependencies: [
        .package(name: "TapRoute", path: ".."),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.65.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.20.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.5.0"),
        // 2.13: the metric initializers that take a factory (the server does not use the global one).
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        // Tests only: a real HTTP client talking to the real server on loopback.
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.20.0"),
    ],
    targets: [
        .target(
            name: "TapRouteServer",
            dependencies: [
                .product(name: "TapRoute", package: "TapRoute"),
                .product(name: "TapRouteYAML", package: "TapRoute"),
                .product(name: "TapRouteAdapters", package: "TapRoute"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        .executableTarget(
            name: "taproute-server",
            dependencies: [
                "TapRouteServer",
                .product(name: "TapRoute", package: "TapRoute"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "TapRouteServerTests",
            dependencies: [
                "TapRouteServer",
                .product(name: "TapRoute", package: "TapRoute"),
                .product(name: "TapRouteAdapters", package: "TapRoute"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
    ]
)
