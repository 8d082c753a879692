import TapRouteAdapters
import TapRouteTestSupport
import Testing

@testable import TapRoute

/// A run answers `exists`, `nonEmpty` and the type tests on a cached path from the slot's
/// shape with one bit test (``DefinitionPlan/shapeTests``) instead of the general evaluation.
/// The answer must be the leaf's own (``DRecognizer/test(_:_:plan:)``) for a value of every
/// shape, negated or not, on the first reading of the path and on the next, and in every
/// built-in definition on every value its shape tests meet.
@Suite struct ShapeTestTests {
    /// One value of each shape a slot can hold, and a missing one (`nil`).
    static let values: [JSONValue?] = [
        nil, .null, .bool(true), .bool(false), .number(JSONNumber(0)), .string(""), .string("x"), .object([:]),
        .object(["k": 1]), .array([]), .array([1]),
    ]

    /// Whether a run of `plan` on `input`, with its slots in place as ``DefinitionAdapter``
    /// sets them up, finds each of `predicates` to hold: each asked twice, the second time
    /// from the filled slot.
    static func fastAnswers(_ plan: DefinitionPlan, _ input: InputEvent, _ predicates: [DPredicate]) throws -> [[Bool]] {
        var context = try #require(DContext.make(plan: plan, input: input))
        return withUnsafeTemporaryAllocation(of: DContext.Slot.self, capacity: plan.slotCount) { slots in
            slots.initialize(repeating: .unresolved)
            defer { DContext.destroy(slots) }
            context.slots = slots
            defer { context.slots = DContext.noSlots }
            return predicates.map { p in [context.holds(p), context.holds(p)] }
        }
    }

    /// The value `path` finds under `root`, read step by step as the definition says.
    static func value(at path: DPath, in root: JSONObject) -> JSONValue? {
        var current = JSONValue.object(root)
        for step in path.steps {
            guard case .key(let key) = step, case .object(let o) = current, let next = o[key] else { return nil }
            current = next
        }
        return current
    }

    @Test func everyShapeGivesTheLeafsAnswer() throws {
        let tests = ["exists", "nonEmpty", "isString", "isNumber", "isBool", "isObject", "isArray", "isNull"]
        var rules: [JSONValue] = []
        for path in ["v", "o.v"] {
            for test in tests {
                let leaf: JSONValue = .object([test: .string(path)])
                for when in [leaf, .object(["not": leaf])] {
                    rules.append(.object(["when": when, "error": "invalidPayload", "message": "no"]))
                }
            }
        }
        let definition = try AdapterDefinition(
            json: .object([
                "id": "shapes", "summary": "shape tests", "reads": ["vendorEvent"], "recognize": ["exists": "v"],
                "reject": .array(rules),
            ])
        )
        let plan = definition.plan
        let predicates = plan.rejectWhens
        #expect(predicates.count == 32)
        // Every rule's leaf is answered from its slot.
        #expect(predicates.allSatisfy { plan.shapeTests[$0.index].mask != 0 })
        var held = 0
        for value in Self.values {
            for nested in [false, true] {
                var root: JSONObject = [:]
                if let value { root = nested ? ["o": .object(["v": value])] : ["v": value] }
                let answers = try Self.fastAnswers(plan, InputEvent(.vendorEvent(root)), predicates)
                for (p, answer) in zip(predicates, answers) {
                    let node = plan.predicates[p.index]
                    let path = plan.shapeTests[p.index].path
                    let leaf = DRecognizer.test(node, Self.value(at: plan.paths[path.index], in: root), plan: plan) != p.negated
                    if leaf { held += 1 }
                    #expect(answer == [leaf, leaf], "\(node) negated \(p.negated) on \(String(describing: value)) nested \(nested)")
                }
            }
        }
        // Both answers occur for every test.
        #expect(held > 100 && held < 604)
    }

    /// In every built-in definition (and Bird's and the example app's), each shape test answers as
    /// its leaf does on the values of every shape at its path.
    @Test func builtInDefinitionsShapeTestsGiveTheLeafsAnswer() throws {
        let definitions = try DefinitionFiles.shipped()
        var checked = 0
        for definition in definitions {
            let plan = definition.plan
            let kind = plan.readsVendorEvent ? "vendorEvent" : plan.readsNotification ? "notification" : "inAppMessage"
            for index in plan.predicates.indices where plan.shapeTests[index].mask != 0 {
                let path = plan.paths[plan.shapeTests[index].path.index]
                guard path.base == .root || path.base == .current, !path.steps.isEmpty,
                    path.steps.allSatisfy({ if case .key = $0 { true } else { false } })
                else { continue }
                for value in Self.values {
                    var root: JSONValue = value ?? .null
                    var keys: [String] = []
                    for step in path.steps { if case .key(let k) = step { keys.append(k) } }
                    for key in keys.reversed() { root = .object([key: root]) }
                    if value == nil { root = .object([:]) }
                    let object = root.objectValue ?? [:]
                    let input: InputEvent
                    switch kind {
                    case "vendorEvent": input = InputEvent(.vendorEvent(object))
                    case "notification": input = InputEvent(.notification(userInfo: object, action: nil, origin: .remote))
                    default: input = InputEvent(.inAppMessage(message: object, action: nil))
                    }
                    let p = DPredicate(index: index)
                    let answers = try Self.fastAnswers(plan, input, [p])
                    let leaf = DRecognizer.test(plan.predicates[index], Self.value(at: path, in: object), plan: plan)
                    #expect(answers == [[leaf, leaf]], "\(definition.id): \(plan.predicates[index]) on \(String(describing: value))")
                    checked += 1
                }
            }
        }
        #expect(checked > 100)
    }

    /// `equals` and `oneOf` under a case-insensitive match compare a cached text's short fold,
    /// kept while the tests stay on one slot and match. In any order of tests over two paths
    /// and the three matches, each answer must be the leaf's: texts that fold short or not
    /// (long, non-ASCII, the Kelvin sign), separators, literals that are not strings.
    @Test func foldedComparisonsGiveTheLeafsAnswer() throws {
        let literals: [JSONValue] = ["Tap", "open_app", "OPEN-APP", "k", "abcdefghijklmnopq", "Éa", 3, true]
        var rules: [JSONValue] = []
        for path in ["a", "o.b"] {
            for match in ["exact", "case", "caseAndSeparators"] {
                for literal in literals {
                    rules.append(
                        .object([
                            "when": .object(["equals": .object(["path": .string(path), "to": literal, "match": .string(match)])]),
                            "error": "invalidPayload", "message": "no",
                        ])
                    )
                }
                rules.append(
                    .object([
                        "when": .object(["oneOf": .object(["path": .string(path), "values": .array(literals), "match": .string(match)])]),
                        "error": "invalidPayload", "message": "no",
                    ])
                )
            }
        }
        let definition = try AdapterDefinition(
            json: .object([
                "id": "folds", "summary": "folded comparisons", "reads": ["vendorEvent"], "recognize": ["exists": "a"],
                "reject": .array(rules),
            ])
        )
        let plan = definition.plan
        let texts: [JSONValue] = [
            "tap", "TAP", "Tap", "ta_p", "openapp", "OPEN_APP", "Open-App", "open__app", "\u{212A}", "K", "k", "",
            "abcdefghijklmnopq", "ABCDEFGHIJKLMNOPQ", "éa", "Éa", "ÉA", 3, true, .null, ["x": 1],
        ]
        var generator = SplitMix64(seed: 2_026_113_033)
        var held = 0
        for _ in 0..<600 {
            let a = texts[generator.below(texts.count)]
            let b = texts[generator.below(texts.count)]
            let root: JSONObject = ["a": a, "o": .object(["b": b])]
            var order = plan.rejectWhens
            for i in order.indices.reversed() { order.swapAt(i, generator.below(i + 1)) }
            let answers = try Self.fastAnswers(plan, InputEvent(.vendorEvent(root)), order)
            for (p, answer) in zip(order, answers) {
                let node = plan.predicates[p.index]
                guard case .equals(let id, _, _) = node else {
                    guard case .oneOf(let id, _, _) = node else { continue }
                    let leaf = DRecognizer.test(node, Self.value(at: plan.paths[id.index], in: root), plan: plan)
                    #expect(answer == [leaf, leaf], "\(node) on \(root)")
                    continue
                }
                let leaf = DRecognizer.test(node, Self.value(at: plan.paths[id.index], in: root), plan: plan)
                if leaf { held += 1 }
                #expect(answer == [leaf, leaf], "\(node) on \(root)")
            }
        }
        #expect(held > 500)
    }
}

/// A path of two keys from the root (`a.b`) whose first key is itself a cached path (`a`)
/// is read in the value cached for `a` once `a` is read (``DefinitionPlan/parentPaths``). It must find what
/// reading it from the root finds, whatever `a` holds and in whichever order `a` and `a.b`
/// are first read.
@Suite struct ParentPathTests {
    @Test func readingInTheParentsSlotFindsWhatTheRootGives() throws {
        var rules: [JSONValue] = []
        for path in ["a.b", "a", "a.c", "z.b"] {
            for test in ["exists", "nonEmpty", "isString", "isObject"] {
                rules.append(.object(["when": .object([test: .string(path)]), "error": "invalidPayload", "message": "no"]))
            }
            rules.append(
                .object([
                    "when": .object(["equals": .object(["path": .string(path), "to": "x"])]), "error": "invalidPayload", "message": "no",
                ])
            )
        }
        let definition = try AdapterDefinition(
            json: .object([
                "id": "parents", "summary": "parent paths", "reads": ["vendorEvent"], "recognize": ["exists": "a"],
                "reject": .array(rules),
            ])
        )
        let plan = definition.plan
        // `a.b` and `a.c` are read through `a`'s slot; `z.b` has no cached parent.
        let parented = plan.paths.indices.filter { plan.parentPaths[$0] != nil }.map { plan.paths[$0].display }
        #expect(parented.sorted() == [".a.b", ".a.c"])
        let holders: [JSONValue?] = [
            nil, .null, "x", 1, [], ["b": "x"], ["b": "y", "c": "x"], ["c": .null], ["b": ["b": "x"]], ["b": "x", "b ": "x"], .array(["x"]),
            .object([:]),
        ]
        var generator = SplitMix64(seed: 2_026_113_034)
        var held = 0
        for holder in holders {
            for _ in 0..<8 {
                var root: JSONObject = ["z": ["b": "x"]]
                if let holder { root["a"] = holder }
                var order = plan.rejectWhens
                for i in order.indices.reversed() { order.swapAt(i, generator.below(i + 1)) }
                let answers = try ShapeTestTests.fastAnswers(plan, InputEvent(.vendorEvent(root)), order)
                // Without slots, every path is read from the root.
                var plain = try #require(DContext.make(plan: plan, input: InputEvent(.vendorEvent(root))))
                for (p, answer) in zip(order, answers) {
                    let expected = plain.holds(p)
                    if expected { held += 1 }
                    #expect(answer == [expected, expected], "\(plan.predicates[p.index]) on \(root)")
                }
            }
        }
        #expect(held > 50)
    }
}
