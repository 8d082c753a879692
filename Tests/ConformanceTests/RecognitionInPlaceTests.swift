import Foundation
import TapRouteAdapters
import TapRouteConformance
import TapRouteTestSupport
import Testing

@testable import TapRoute

/// A definition whose `recognize` reads only keys near the root is evaluated on the input in
/// place (`DRecognizer`), without the run state a full read sets up. Both must always agree:
/// on every shipped vector's input and on their single-point mutations, for every built-in
/// definition, the answer in place equals the answer through the run state.
@Suite struct RecognitionInPlaceTests {
    /// Detection's root filter skips keys by length and first byte; it must admit exactly the
    /// roots the requirement, compared text by text, admits (empty prefixes and keys too).
    /// What a requirement admits, read off its definition: one of the keys (as a lookup
    /// finds it) or a key with one of the prefixes, compared text by text.
    static func admits(_ requirement: DRootRequirement, _ root: JSONObject) -> Bool {
        requirement.keys.contains { root[$0] != nil }
            || root.contains { member in requirement.prefixes.contains { member.key.utf8.starts(with: $0.utf8) } }
    }

    @Test func rootFilterAdmitsWhatTheRequirementAdmits() {
        let words = ["", "a", "ab", "ab_", "abc", "_", "_uaid", "custom", "é", "e\u{301}", "gcm.n", "gcm.", "x", "aps", "🔔"]
        var generator = SplitMix64(seed: 2_026_112_402)
        var admitted = 0
        for _ in 0..<5_000 {
            let keys = (0..<generator.below(3)).map { _ in words[generator.below(words.count)] }
            let prefixes = (0..<generator.below(3)).map { _ in words[generator.below(words.count)] }
            let requirement = DRootRequirement(keys: keys, prefixes: prefixes)
            let filter = DRootFilter(requirement)
            let root = JSONObject((0..<generator.below(5)).map { _ in (words[generator.below(words.count)], JSONValue.null) })
            let expected = Self.admits(requirement, root)
            if expected { admitted += 1 }
            #expect(filter.admits(root) == expected, "keys \(keys), prefixes \(prefixes), root \(root.keys)")
        }
        #expect(admitted > 500 && admitted < 4_500)
    }

    /// Detection's prefilter answers for many definitions in one pass: each definition's bit
    /// must be set exactly when that definition's own filter admits the root, with keys and
    /// prefixes shared between definitions, empty prefixes, and more definitions than bits.
    @Test func prefilterAdmitsWhatEachDefinitionsFilterAdmits() {
        // Keys and prefixes of every length around the small strings' 8 and 15 bytes, ASCII
        // and not: a key of at most 15 ASCII bytes is compared by its words.
        let words = [
            "", "a", "ab", "ab_", "abc", "_", "_uaid", "custom", "é", "e\u{301}", "gcm.n", "gcm.", "x", "aps", "🔔", "abcdefg",
            "abcdefgh", "abcdefghi", "abcdefghijklmn", "abcdefghijklmno", "abcdefghijklmnop", "google.c.", "google.c.a.c_id",
            "google.c.a.c_idx", "com.urbanairship.metadata", "W$", "wzrk_", "Ab", "ab\u{301}", "abcdefghijklmné", "abcdefgz", "abcdefghz",
        ]
        var generator = SplitMix64(seed: 2_026_112_404)
        var admittedBits = 0
        for _ in 0..<400 {
            // Some positions are not filtered (Swift adapters); past 64 nothing is.
            let requirements: [DRootRequirement?] = (0..<(1 + generator.below(70))).map { _ in
                guard generator.below(4) != 0 else { return nil }
                return DRootRequirement(
                    keys: (0..<generator.below(3)).map { _ in words[generator.below(words.count)] },
                    prefixes: (0..<generator.below(3)).map { _ in words[generator.below(words.count)] }
                )
            }
            let prefilter = DetectionPrefilter(requirements)
            #expect(prefilter.bits.count == requirements.count)
            #expect(prefilter.bits.filter { $0 != 0 }.count == min(64, requirements.compactMap(\.self).count))
            #expect(Set(prefilter.bits.filter { $0 != 0 }).count == prefilter.bits.filter { $0 != 0 }.count)
            for _ in 0..<10 {
                let root = JSONObject((0..<generator.below(5)).map { _ in (words[generator.below(words.count)], JSONValue.null) })
                let admitted = prefilter.admitted(root)
                for (requirement, bit) in zip(requirements, prefilter.bits) {
                    guard let requirement else {
                        #expect(bit == 0)
                        continue
                    }
                    guard bit != 0 else { continue }
                    let expected = Self.admits(requirement, root)
                    if expected { admittedBits += 1 }
                    #expect((admitted & bit != 0) == expected, "requirement \(requirement), root \(root.keys)")
                }
            }
        }
        #expect(admittedBits > 5_000)
    }

    /// Detection with the prefilter picks the adapter that asking each enabled adapter in
    /// order picks, on every shipped input and its mutations: with the built-in registry, and
    /// with 69 definitions (the built-in ones and 60 that recognize nothing here) before,
    /// between and after the Swift adapters: past the 64th, definitions are asked one by one.
    @Test func detectionPicksTheFirstAdapterThatRecognizes() throws {
        var inputs: [InputEvent] = []
        for vector in try ShippedVectors.all().vectors {
            // Detection itself: an envelope naming its vendor is not detected.
            guard var input = try? InputEvent(json: vector.input) else { continue }
            input.vendor = nil
            inputs.append(input)
            inputs += Self.mutations(of: input)
        }
        let builtIn = try AdapterRegistry.builtIn()
        let originals = try AdapterRegistry.builtInDefinitions()
        // Fillers that recognize nothing the inputs have, so that the last originals sit
        // past the 64th filtered definition.
        let fillers = try (0..<60).map { n in
            var json = originals[n % originals.count].document.objectValue ?? [:]
            json["id"] = .string("filler-\(n)")
            json["recognize"] = ["isObject": .string("filler\(n)")]
            return try AdapterDefinition(json: .object(json))
        }
        let ids = originals.map(\.id)
        let fillerIDs = fillers.map(\.id)
        let order =
            ids[0..<2] + fillerIDs[0..<30] + ["dashx", "adobe"] + fillerIDs[30...] + ["bird", "taptalk"] + ids[2...]
        let many = try AdapterRegistry(
            configuration: Configuration(adapters: order.map { AdapterSettings(id: $0) }),
            adapterTypes: AdapterRegistry.builtInAdapterTypes,
            definitions: originals + fillers
        )
        #expect(many.adapters.count == 73)
        var picked: [[String: Int]] = []
        for registry in [builtIn, many] {
            let candidates = registry.adapters.filter { !($0 is LinkAdapter) }
            var counts: [String: Int] = [:]
            for input in inputs {
                let expected = candidates.first { $0.recognizes(input) }?.id ?? (LinkAdapter().recognizes(input) ? LinkAdapter.id : nil)
                let found = try? registry.adapter(for: input).id
                #expect(found == expected, "\(input)")
                if let found { counts[found, default: 0] += 1 }
            }
            picked.append(counts)
        }
        #expect(picked[0].count > 12)
        // In the large registry, definitions before and past the 64th (from the fifth
        // original on) are picked.
        #expect(picked[1][ids[0], default: 0] > 1)
        #expect(ids[4...].allSatisfy { picked[1][$0, default: 0] > 1 })
    }

    @Test func inPlaceAndFullRecognitionAgreeOnEveryShippedInput() throws {
        let definitions = try DefinitionFiles.shipped()
        // The fast path is the common one: most shipped definitions take it.
        #expect(definitions.filter(\.plan.recognizesInPlace).count >= definitions.count - 2)
        var inputs: [InputEvent] = []
        for vector in try ShippedVectors.all().vectors {
            guard let input = try? InputEvent(json: vector.input) else { continue }
            inputs.append(input)
            inputs += Self.mutations(of: input)
        }
        #expect(inputs.count > 1000)
        var claimed = 0
        for definition in definitions where definition.plan.recognizesInPlace {
            let adapter = DefinitionAdapter(definition: definition)
            for input in inputs {
                let inPlace = adapter.recognizes(input)
                var context = DContext.make(plan: definition.plan, input: input)
                let full = context?.holds(definition.plan.recognize) ?? false
                #expect(inPlace == full, "\(definition.id): \(input)")
                if inPlace { claimed += 1 }
            }
        }
        #expect(claimed > 100)
    }

    /// An `any` of several parts in `recognize` is asked of the root's keys in one pass first
    /// (`DefinitionPlan.anyFilters`): a root the filter does not admit makes every part false,
    /// and an `any` of root prefixes only is answered by the filter alone. Neither may change
    /// an answer: on random roots built from the keys these `recognize`s name (present, null,
    /// strings, objects, with prefixes, near misses), the answer in place equals the full run's.
    @Test func anyFiltersNeverChangeWhatIsRecognized() throws {
        let recognizes = [
            // FCM's shape: prefixes, then the absence of other vendors' markers.
            """
            all:
              - any: [{anyKeyHasPrefix: {prefix: "gcm."}}, {anyKeyHasPrefix: {prefix: "google.c."}}]
              - not:
                  any:
                    - {exists: dashx}
                    - {anyKeyHasPrefix: {prefix: "adb_"}}
                    - {isObject: data.message}
                    - {exists: custom.i}
                    - {isNull: _}
                    - {nonEmpty: "['']"}
            """,
            // At the top, an `any` of prefixes only: the filter's answer is the node's.
            "any: [{anyKeyHasPrefix: {prefix: W$}}, {anyKeyHasPrefix: {prefix: wzrk_}}, {anyKeyHasPrefix: {prefix: \"\"}}]",
            // Nested, negated, and with equals, isTrue and oneOf parts.
            """
            any:
              - all:
                  - {exists: ab}
                  - any: [{isTrue: custom.i}, {equals: {path: _, to: x}}, {oneOf: {path: data.message, values: [a, b]}}, {nonEmpty: dashx}]
              - not:
                  any: [{exists: gcm.n}, {isString: custom}, {anyKeyHasPrefix: {prefix: "ab_"}}]
            """,
        ]
        let keys = [
            "gcm.", "gcm.n", "google.c.a", "google.c", "dashx", "adb_x", "adb", "data", "custom", "_", "", "ab", "ab_c", "W$1", "wzrk_id",
            "wzrk", "x",
        ]
        let values: [JSONValue] = [
            .null, "", "x", "a", true, 1, [:], ["message": "a"], ["message": [:]], ["i": "1"], ["i": .null], ["i": true], ["n": 1],
        ]
        var generator = SplitMix64(seed: 2_026_112_901)
        for (n, recognize) in recognizes.enumerated() {
            let yaml =
                "id: anyfilter\(n)\nsummary: any filters\nreads: [notification]\nrecognize:\n"
                + recognize.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n") + "\ndestination: [app]\n"
            let definition = try DefinitionFiles.parse(yaml)
            let plan = definition.plan
            #expect(plan.recognizesInPlace, "\(recognize)")
            #expect(plan.anyFilters.contains { $0 != nil }, "no filter for \(recognize)")
            let adapter = DefinitionAdapter(definition: definition)
            var held = 0
            for _ in 0..<3_000 {
                let root = JSONObject(
                    (0..<generator.below(5)).map { _ in (keys[generator.below(keys.count)], values[generator.below(values.count)]) }
                )
                let input = InputEvent(.notification(userInfo: root, action: nil, origin: .remote))
                var context = try #require(DContext.make(plan: plan, input: input))
                let full = context.holds(plan.recognize)
                #expect(adapter.recognizes(input) == full, "\(recognize): \(root)")
                if full { held += 1 }
            }
            #expect(held > 100 && held < 2_900, "\(recognize): held \(held) times in 3,000")
        }
    }

    /// Each member of the input's root, and of each object in it, removed, set to null, to "",
    /// to {} and to its string form: the shapes recognition tests for.
    static func mutations(of input: InputEvent) -> [InputEvent] {
        let root: JSONObject
        switch input.kind {
        case .notification(let userInfo, _, _): root = userInfo
        case .inAppMessage(let message, _): root = message
        case .vendorEvent(let event): root = event
        case .url, .userActivity: return []
        }
        var roots: [JSONObject] = []
        for (key, value) in root {
            for replacement: JSONValue? in [nil, .null, "", [:], .string(value.jsonString())] {
                var changed = root
                changed[key] = replacement
                roots.append(changed)
            }
            guard case .object(let inner) = value else { continue }
            for (innerKey, innerValue) in inner {
                for replacement: JSONValue? in [nil, .null, "", [:], .string(innerValue.jsonString())] {
                    var changedInner = inner
                    changedInner[innerKey] = replacement
                    var changed = root
                    changed[key] = .object(changedInner)
                    roots.append(changed)
                }
            }
        }
        var out: [InputEvent] = []
        for changed in roots {
            do {
                var mutated = input
                switch input.kind {
                case .notification(_, let action, let origin):
                    mutated.kind = .notification(userInfo: changed, action: action, origin: origin)
                case .inAppMessage(_, let action): mutated.kind = .inAppMessage(message: changed, action: action)
                case .vendorEvent: mutated.kind = .vendorEvent(changed)
                case .url, .userActivity: continue
                }
                out.append(mutated)
            }
        }
        return out
    }
}
