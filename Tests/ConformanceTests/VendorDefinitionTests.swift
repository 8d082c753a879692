import Foundation
import TapRoute
import TapRouteAdapters
import TapRouteConformance
import TapRouteTestSupport
import TapRouteYAML
import Testing

/// The vendors TapRoute ships as built-in definitions (`adapters/<Vendor>/<id>.yaml`): each
/// through the conformance kit exactly as the Swift adapters go (the repository's
/// configuration, every built-in adapter and definition in the registry, every other shipped
/// vector), each with its README and example, and all thirteen vendors together claiming
/// only their own pushes.
@Suite struct VendorDefinitionTests {
    /// The built-in definition vendors: folder and id.
    static let vendors: [(folder: String, id: String)] = [
        ("OneSignal", "onesignal"), ("Braze", "braze"), ("Airship", "airship"), ("FCM", "fcm"), ("Iterable", "iterable"),
        ("CleverTap", "clevertap"), ("CustomerIO", "customerio"), ("Klaviyo", "klaviyo"), ("Pushwoosh", "pushwoosh"),
    ]

    /// Every vendor TapRoute ships, Swift and definition: the ids `normalize adapters` lists
    /// before `link`.
    static let allVendorIDs = ["dashx", "adobe", "bird", "taptalk"] + vendors.map(\.id)

    @Test(arguments: vendors.map(\.folder))
    func conformsThroughTheKit(folder: String) async throws {
        let vendor = try #require(Self.vendors.first { $0.folder == folder })
        let definition = try #require(try AdapterRegistry.builtInDefinitions().first { $0.id == vendor.id })
        #expect(definition.origin == .builtIn)
        try await AdapterConformanceTest(
            definition: definition,
            vectors: .directory(TestPaths.path("adapters/\(folder)/Vectors")),
            options: .init(
                baseConfiguration: .yaml(DefaultConfiguration.yaml),
                registryAdapters: AdapterRegistry.builtInAdapterTypes,
                propertyCheckCount: 300,
                otherVectors: ShippedVectors.all(),
                registryDefinitions: AdapterRegistry.builtInDefinitions()
            )
        ).run()
    }

    /// The issue's bar for each vendor: at least 15 vectors, a README that cites its sources,
    /// the definition file under the folder, an example push that normalizes to the vendor.
    @Test(arguments: vendors.map(\.folder))
    func hasItsFolderAndExample(folder: String) throws {
        let vendor = try #require(Self.vendors.first { $0.folder == folder })
        let vectors = try ConformanceVectors.directory(TestPaths.path("adapters/\(folder)/Vectors"))
        #expect(vectors.vectors.count >= 15)
        #expect(
            vectors.vectors.contains { vector in
                if case .interaction(let expected) = vector.expected { return expected["vendor"]?.stringValue != vendor.id }
                return true
            },
            "no vector shows a payload that \(vendor.id) must not claim"
        )
        let readme = try String(contentsOfFile: TestPaths.path("adapters/\(folder)/README.md"), encoding: .utf8)
        #expect(readme.contains("github.com") || readme.contains("@"), "the README cites no public source")
        #expect(!readme.contains("../shared") && !readme.contains("MORE-VENDORS"))
        #expect(FileManager.default.fileExists(atPath: TestPaths.path("adapters/\(folder)/\(vendor.id).yaml")))

        let example = try JSONValue(parsing: String(contentsOfFile: TestPaths.path("examples/\(vendor.id)-push.json"), encoding: .utf8))
        let interaction = try AdapterRegistry.builtIn().normalize(json: example)
        #expect(interaction.vendor == vendor.id)
    }

    /// All thirteen vendors enabled in the repository's configuration order: every shipped
    /// vendor vector that brings no configuration of its own gets exactly its expected answer,
    /// so no adapter claims another's push. Then the same with every adapter enabled in the
    /// registry's own order (a configuration without `adapters`: the definitions after the
    /// Swift adapters, in path order, FCM before Iterable), where detection order cannot
    /// rescue a recognizer that claims too much.
    @Test func everyVendorClaimsOnlyItsOwnPushes() throws {
        let configured = try Configuration.embeddedDefault()
        #expect(configured.adapters.map(\.id) == Self.allVendorIDs.filter { $0 != "fcm" } + ["fcm"])
        var everything = configured
        everything.adapters = []
        everything.enablesEveryAdapter = true
        var checked = 0
        for configuration in [configured, everything] {
            // Without the configuration's adapter entries, adapter settings (Adobe's
            // automaticallyOpenDeeplinks) are gone: there only the claim is compared.
            let exact = !configuration.enablesEveryAdapter
            let registry = try AdapterRegistry.builtIn(configuration: configuration)
            for folder in try FileManager.default.contentsOfDirectory(atPath: TestPaths.path("adapters")).sorted() {
                let directory = TestPaths.path("adapters/\(folder)/Vectors")
                for vector in try ConformanceVectors.directory(directory).vectors where vector.config == nil {
                    let answer = Result { () throws(NormalizationError) -> Interaction in try registry.normalize(json: vector.input) }
                    switch (vector.expected, answer) {
                    case (.interaction(let expected), .success(let interaction)):
                        if exact {
                            #expect(interaction.jsonValue == expected, "\(vector.location)")
                        } else {
                            #expect(.string(interaction.vendor) == expected["vendor"], "\(vector.location)")
                        }
                    case (.error(let code, _), .failure(let error)):
                        #expect(error.code.rawValue == code, "\(vector.location)")
                    case (_, .success(let interaction)):
                        Issue.record("\(vector.location): expected an error, got \(interaction.vendor)")
                    case (_, .failure(let error)):
                        Issue.record("\(vector.location): expected an interaction, got \(error)")
                    }
                    checked += 1
                }
            }
        }
        // Thirteen vendors' vectors, twice; a vector folder that stopped loading shows here.
        #expect(checked >= 2 * 300)
    }
}
