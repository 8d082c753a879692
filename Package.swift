// swift-tools-version:6.2
import PackageDescription

/// The vendor adapters: module name and folder under `adapters/`. Each folder holds
/// `Sources/` (the module), `Vectors/` (conformance vectors) and `README.md`.
let vendorAdapters: [(module: String, folder: String)] = [
    ("DashXAdapter", "DashX"),
    ("AdobeAdapter", "Adobe"),
    ("BirdAdapter", "Bird"),
    ("TapTalkAdapter", "TapTalk"),
]

let package = Package(
    name: "TapRoute",
    products: [
        .library(name: "TapRoute", targets: ["TapRoute"]),
        .library(name: "TapRouteYAML", targets: ["TapRouteYAML"]),
        .library(name: "TapRouteAdapters", targets: ["TapRouteAdapters"]),
        .library(name: "TapRouteConformance", targets: ["TapRouteConformance"]),
        .library(name: "TapRouteDispatch", targets: ["TapRouteDispatch"]),
        .library(name: "TapRouteDispatchTesting", targets: ["TapRouteDispatchTesting"]),
        .executable(name: "normalize", targets: ["normalize"]),
    ] + vendorAdapters.map { .library(name: $0.module, targets: [$0.module]) },
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        // Property-based tests (the encode round trip); test targets only.
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0"),
        // `swift package generate-documentation` (scripts/docs.sh). A command plugin only: no
        // target depends on it, so it is not built by `swift build`, and packages that depend
        // on TapRoute do not resolve it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
    ],
    targets: [
        // Core
        .target(name: "TapRoute"),
        .target(name: "TapRouteYAML", dependencies: ["TapRoute", .product(name: "Yams", package: "Yams")]),

        // Adapters
        .target(
            name: "TapRouteAdapters",
            dependencies: ["TapRoute"] + vendorAdapters.map { .target(name: $0.module) }
        ),

        // Dispatcher
        .target(name: "TapRouteDispatch", dependencies: ["TapRoute"]),
        .target(name: "TapRouteDispatchTesting", dependencies: ["TapRoute", "TapRouteDispatch"]),

        // Testing
        .target(name: "TapRouteConformance", dependencies: ["TapRoute", "TapRouteYAML"]),

        // Tooling the CLI runs on files, not needed by apps: the AASA linter (`aasa lint`). No
        // product: `package` declarations only, for the CLI, its tests and the fuzz harnesses.
        .target(name: "TapRouteTooling", dependencies: ["TapRoute"]),

        // CLI: the record path (framing, records, output, I/O) is a library of its own, so the
        // tests and the NormalizeFuzzer harness drive it in-process.
        .target(name: "NormalizeCore", dependencies: ["TapRoute"]),
        .executableTarget(
            name: "normalize",
            dependencies: [
                "NormalizeCore", "TapRoute", "TapRouteTooling", "TapRouteYAML", "TapRouteAdapters",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Tests
        .target(name: "TapRouteTestSupport", dependencies: ["TapRoute"], path: "Tests/TapRouteTestSupport"),
        .testTarget(name: "TapRouteTests", dependencies: ["TapRoute", "TapRouteTestSupport"]),
        .testTarget(name: "TapRouteToolingTests", dependencies: ["TapRoute", "TapRouteTooling", "TapRouteTestSupport"]),
        .testTarget(
            name: "TapRouteYAMLTests",
            dependencies: ["TapRouteYAML", "TapRouteAdapters", "TapRouteTestSupport", .product(name: "Yams", package: "Yams")]
        ),
        .testTarget(
            name: "ConformanceTests",
            dependencies: [
                "TapRouteConformance", "TapRouteAdapters", "TapRouteYAML", "TapRouteTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ] + vendorAdapters.map { .target(name: $0.module) },
            exclude: ["Vectors", "Definitions"]
        ),
        .testTarget(
            name: "TapRouteDispatchTests",
            dependencies: ["TapRoute", "TapRouteDispatch", "TapRouteDispatchTesting"]
        ),
        .testTarget(
            name: "NormalizeTests",
            dependencies: [
                "normalize", "NormalizeCore", "TapRouteTestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
    ]
        + vendorAdapters.map {
            .target(name: $0.module, dependencies: ["TapRoute"], path: "adapters/\($0.folder)/Sources")
        }
)

// Fuzzing (docs/reliability.md): one libFuzzer harness per executable target under Fuzz/.
// Their entry point is libFuzzer's driver, which exists only in a `-sanitize=fuzzer` build,
// so they are part of the package only when TAPROUTE_FUZZ=1 (scripts/fuzz.sh sets it).
let fuzzHarnesses = [
    "RegistryFuzzer", "NormalizeFuzzer", "ConfigurationFuzzer", "RouteFuzzer", "AASAFuzzer", "VendorURLFuzzer", "DefinitionFuzzer",
]
if Context.environment["TAPROUTE_FUZZ"] == "1" {
    package.targets += [
        .target(name: "FuzzerDriver", path: "Fuzz/FuzzerDriver"),
        .target(
            name: "FuzzSupport",
            dependencies: ["TapRoute", "TapRouteYAML", "TapRouteAdapters", "FuzzerDriver"],
            path: "Fuzz/FuzzSupport"
        ),
    ]
    package.targets += fuzzHarnesses.map {
        .executableTarget(
            name: $0,
            dependencies: [
                "FuzzSupport", "FuzzerDriver", "NormalizeCore", "TapRoute", "TapRouteTooling", "TapRouteYAML", "TapRouteAdapters",
            ],
            path: "Fuzz/\($0)"
        )
    }
    package.products += fuzzHarnesses.map { .executable(name: $0, targets: [$0]) }
}

for target in package.targets where [.regular, .executable, .test].contains(target.type) {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    settings.append(.enableUpcomingFeature("NonisolatedNonsendingByDefault"))
    target.swiftSettings = settings
}
