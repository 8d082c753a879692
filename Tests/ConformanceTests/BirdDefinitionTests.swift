import BirdAdapter
import Foundation
import TapRoute
import TapRouteAdapters
import TapRouteConformance
import TapRouteTestSupport
import TapRouteYAML
import Testing

/// Proof of expressiveness (issue 14): the Bird adapter re-expressed as a definition
/// (`Tests/ConformanceTests/Definitions/bird.yaml`) gives byte-identical answers to the Swift
/// `BirdAdapter` — on every Bird vector and on every single-point mutation of them (the
/// conformance kit's hostile inputs) — in a registry where the definition replaces the Swift
/// adapter.
@Suite struct BirdDefinitionTests {
    static let definitionPath = "Tests/ConformanceTests/Definitions/bird.yaml"

    /// The repository's configuration document.
    static func base() throws -> JSONObject {
        try YAMLConfiguration.document(yaml: DefaultConfiguration.yaml, file: "config.yaml").0.objectValue ?? [:]
    }

    static func registries() throws -> (swift: DefinitionRegistries, definition: DefinitionRegistries) {
        let definition = try DefinitionFiles.load(definitionPath)
        let base = try base()
        let others = AdapterRegistry.builtInAdapterTypes.filter { $0.id != BirdAdapter.id }
        let builtIn = try AdapterRegistry.builtInDefinitions()
        return (
            DefinitionRegistries(base: base, adapterTypes: AdapterRegistry.builtInAdapterTypes, definitions: builtIn),
            DefinitionRegistries(base: base, adapterTypes: others, definitions: builtIn + [definition])
        )
    }

    @Test func passesEveryBirdVector() throws {
        let vectors = try ConformanceVectors.directory(BirdConformanceTests.vectorsDirectory)
        #expect(vectors.vectors.count >= 30)
        let failures = try Self.registries().definition.failures(vectors)
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    /// The conformance kit runs the definition exactly as BirdConformanceTests runs the
    /// Swift adapter: the repository's configuration, every built-in adapter (the Swift Bird
    /// replaced by the definition), every other shipped vector.
    @Test func conformsThroughTheKit() async throws {
        try await AdapterConformanceTest(
            definition: DefinitionFiles.load(Self.definitionPath),
            // Bird's reading vectors; its encode vectors are the Swift adapter's (the
            // definition re-expresses reading only).
            vectors: ConformanceVectors(ConformanceVectors.directory(BirdConformanceTests.vectorsDirectory).vectors),
            options: .init(
                baseConfiguration: .yaml(DefaultConfiguration.yaml),
                registryAdapters: AdapterRegistry.builtInAdapterTypes,
                otherVectors: ShippedVectors.all(),
                registryDefinitions: AdapterRegistry.builtInDefinitions()
            )
        ).run()
    }

    @Test func answersEveryBirdVectorByteForByteAsTheSwiftAdapter() throws {
        let (swift, definition) = try Self.registries()
        let vectors = try ConformanceVectors.directory(BirdConformanceTests.vectorsDirectory)
        for vector in vectors.vectors {
            let expected = try swift.answer(for: vector)
            let actual = try definition.answer(for: vector)
            #expect(actual == expected, "\(vector.location)\n  swift:      \(expected)\n  definition: \(actual)")
        }
    }

    /// Every mutation of every Bird vector's input (each member removed, emptied, nulled,
    /// retyped, given a hostile string, its key respelled): the definition answers as the
    /// Swift adapter does, interaction or error, message included.
    @Test func answersEveryMutationAsTheSwiftAdapter() throws {
        let (swift, definition) = try Self.registries()
        let vectors = try ConformanceVectors.directory(BirdConformanceTests.vectorsDirectory)
        var done: Set<String> = []
        var tried = 0
        var differences: [String] = []
        for vector in vectors.vectors {
            let swiftRegistry = try swift.registry(for: vector)
            let definitionRegistry = try definition.registry(for: vector)
            for mutation in Mutation.all(of: vector.input, skippingRepeatsIn: &done) {
                tried += 1
                let expected = DefinitionRegistries.answer(swiftRegistry, mutation.input)
                let actual = DefinitionRegistries.answer(definitionRegistry, mutation.input)
                if actual != expected {
                    differences.append("\(vector.location) \(mutation.description)\n  swift:      \(expected)\n  definition: \(actual)")
                }
            }
        }
        #expect(tried > 500)
        #expect(differences.isEmpty, "\(differences.count) of \(tried):\n\(differences.prefix(20).joined(separator: "\n"))")
    }

    /// Inputs the conformance kit's generator writes from the Bird vectors (their keys and
    /// values, hostile strings, other envelopes), from the kit's default seed: the definition
    /// answers each as the Swift adapter does.
    @Test func answersGeneratedHostileInputsAsTheSwiftAdapter() throws {
        let (swift, definition) = try Self.registries()
        let vectors = try ConformanceVectors.directory(BirdConformanceTests.vectorsDirectory)
        let plain = ConformanceVector(description: "", location: "", input: [:], expected: .error(code: "unrecognized", path: nil))
        let swiftRegistry = try swift.registry(for: plain)
        let definitionRegistry = try definition.registry(for: plain)
        var generator = HostileJSON(seed: AdapterConformanceTest.defaultSeed, adapterID: "bird", seeds: vectors.vectors.map(\.input))
        var differences: [String] = []
        for _ in 0..<2000 {
            let input = generator.input()
            let expected = DefinitionRegistries.answer(swiftRegistry, input)
            let actual = DefinitionRegistries.answer(definitionRegistry, input)
            if actual != expected {
                differences.append("\(input.jsonString())\n  swift:      \(expected)\n  definition: \(actual)")
            }
        }
        #expect(differences.isEmpty, "\(differences.count) of 2000:\n\(differences.prefix(20).joined(separator: "\n"))")
    }

    /// The spellings and edge values the Swift adapter's own tests try (letter case,
    /// separators, long unknown values, payload strings).
    @Test func answersTheSwiftAdapterEdgeCasesAlike() throws {
        let (swift, definition) = try Self.registries()
        let plain = ConformanceVector(description: "", location: "", input: [:], expected: .error(code: "unrecognized", path: nil))
        let swiftRegistry = try swift.registry(for: plain)
        let definitionRegistry = try definition.registry(for: plain)
        let long = String(repeating: "X", count: 5000)
        var events: [JSONObject] = []
        for spelling in [
            "OPEN_APP", "openApp", "open_app", "OPENAPP", "URL", "url", "openUrl", "OPEN_URL", "openURL", "DEEP_LINK", "deepLink",
            "openDeepLink", "deep-link", "app", "open", "link", "OPEN_DEEP", "", long, "ＵＲＬ", "deep__link", "-url-",
        ] {
            events.append(["type": "Tap", "action": ["type": .string(spelling), "uri": "https://example.com/x"]])
        }
        for type in ["Tap", "tap", "TAP", "Button", "BUTTON", "Received", "RECEIVED", "Swipe", "", long, "ｔａｐ", "Tap "] {
            events.append(["type": .string(type), "action": ["type": "URL", "identifier": "b", "uri": "https://example.com/x"]])
        }
        for payload: JSONValue in [
            " {\"a\": {\"b\": [1, 2]}} ", "{}", "", "42", "\"quoted\"", .null, 1, true, ["a"], ["a": 1], "{broken", " \t\n{", "[1]",
            .string(String(repeating: "[", count: 200)),
            .string("{\"a\":" + String(repeating: "[", count: 200) + String(repeating: "]", count: 200) + "}"),
        ] {
            events.append(["type": "Tap", "payload": payload, "action": ["type": "OPEN_APP"]])
        }
        for uri: JSONValue in [.null, "", " ", 5, ["x"], "campaigndemoapp://search?q=café au lait", "javascript:alert(1)", .string(long)] {
            events.append(["type": "Tap", "action": ["type": "DEEP_LINK", "uri": uri]])
            events.append(["type": "Tap", "action": ["type": "URL", "uri": .null, "url": uri]])
        }
        for event in events {
            for input: JSONValue in [
                ["kind": "vendorEvent", "event": .object(event)],
                ["kind": "vendorEvent", "automaticallyOpenDeeplinks": true, "event": .object(event)],
            ] {
                let expected = DefinitionRegistries.answer(swiftRegistry, input)
                let actual = DefinitionRegistries.answer(definitionRegistry, input)
                #expect(actual == expected, "\(input.jsonString().prefix(300))\n  swift:      \(expected)\n  definition: \(actual)")
            }
        }
    }

    /// The one difference found: the format's `match: caseAndSeparators` ignores spaces as
    /// well as `_` and `-`, while the Swift adapter ignores only `_` and `-`, so `open app`
    /// and `OPEN URL` are Bird action types to the definition and unknown ones (the app,
    /// with `unknownActionType`) to the Swift adapter. No Bird SDK writes a space; the format
    /// has no match mode without it. When one exists, this known issue stops occurring and
    /// the test fails until the definition uses it.
    /// `caseAndSeparators` ignores `_` and `-` but not spaces, as Bird's spellings do: `open
    /// app` is no action type to either.
    @Test func spacesInActionTypesMeanNothingToEither() throws {
        let (swift, definition) = try Self.registries()
        let plain = ConformanceVector(description: "", location: "", input: [:], expected: .error(code: "unrecognized", path: nil))
        let swiftRegistry = try swift.registry(for: plain)
        let definitionRegistry = try definition.registry(for: plain)
        for spelling in ["open app", "OPEN URL", "deep link"] {
            let input: JSONValue = [
                "kind": "vendorEvent", "event": ["type": "Tap", "action": ["type": .string(spelling), "uri": "https://example.com/x"]],
            ]
            #expect(
                DefinitionRegistries.answer(definitionRegistry, input) == DefinitionRegistries.answer(swiftRegistry, input),
                "\(spelling)"
            )
        }
    }

    /// The definition replaces the Swift adapter under the same id; both at once is a
    /// configuration error, not a silent choice.
    @Test func definitionAndSwiftAdapterWithOneIDIsAnError() throws {
        let definition = try DefinitionFiles.load(Self.definitionPath)
        #expect(throws: ConfigurationError.self) {
            _ = try AdapterRegistry(
                configuration: Configuration(json: .object(try Self.base())),
                adapterTypes: AdapterRegistry.builtInAdapterTypes,
                definitions: try AdapterRegistry.builtInDefinitions() + [definition]
            )
        }
    }
}
