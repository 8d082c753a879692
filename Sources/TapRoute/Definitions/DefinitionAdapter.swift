/// The adapter a registry builds from an ``AdapterDefinition``: it runs the definition's
/// compiled plan through the ``PayloadReader`` it is given and returns an ``AdapterResult``,
/// like any Swift adapter.
///
/// ```swift
/// let adapter = DefinitionAdapter(definition: definition)
/// let result = try adapter.read(.notification(userInfo: ["acme": ["link": "https://acme.example/x"]]))
/// ```
public struct DefinitionAdapter: PayloadAdapter {
    /// The id of the adapter type; each adapter's own ``id`` is its definition's.
    public static let id = "definition"
    /// One line for the type.
    public static let summary = "An adapter described by a definition (docs/declarative-adapters.md)"

    /// The definition it runs.
    public var definition: AdapterDefinition { held.definition }
    /// The definition's id.
    public var id: String { held.id }
    /// The definition's summary.
    public var summary: String { held.definition.summary }
    var plan: DefinitionPlan { held.plan }
    /// Whether a run may read the text of a notification's alert: the definition reads
    /// notifications, and a path it reads values at (not only kinds or keys) may reach that
    /// text, or its payload keeps `aps` (docs/declarative-adapters.md, "Payload").
    public var readsAlertText: Bool { held.plan.readsAlertText }
    /// The definition and its plan behind one reference, so that the adapter is one word
    /// and passing it around (the registry, protocol witnesses) copies no fields.
    private let held: Held

    private final class Held: Sendable {
        let definition: AdapterDefinition
        let plan: DefinitionPlan
        /// The id on its own: the registry asks for it on every input, and reading it through
        /// `definition` would copy the whole definition.
        let id: String
        init(_ definition: AdapterDefinition) {
            self.definition = definition
            self.plan = definition.plan
            self.id = definition.id
        }
    }

    /// Creates the adapter running `definition`.
    public init(definition: AdapterDefinition) {
        self.held = Held(definition)
    }

    /// A definition adapter cannot be made from a configuration alone: the registry makes it
    /// from its definition (``AdapterRegistry/init(configuration:adapterTypes:definitions:classifier:)``).
    /// - Throws: always, a ``ConfigurationError`` saying so.
    public init(configuration: AdapterConfiguration) throws(ConfigurationError) {
        throw ConfigurationError(
            "adapter '\(configuration.id)' is a definition; pass it to the registry's definitions",
            kind: .unknownAdapter,
            at: ["id"]
        )
    }

    /// Whether the input is one of the kinds the definition reads and its `recognize`
    /// predicate holds. Decodes no JSON held in strings.
    public func recognizes(_ input: InputEvent) -> Bool {
        // Detection asks every adapter in turn, so most inputs are not this vendor's: a
        // `recognize` that reads only keys near the root runs on the input as it is, without
        // the run state a full read sets up.
        recognizes(input, rootAdmitted: false)
    }

    /// ``recognizes(_:)``, told whether the root filter (``DefinitionPlan/rootRequirement``)
    /// is known to admit the input's root already (detection's ``DetectionPrefilter`` asked
    /// it for every definition at once), so that it is not asked again.
    func recognizes(_ input: InputEvent, rootAdmitted: Bool) -> Bool {
        // Read once: each use of the computed `plan` retains and releases it.
        let plan = self.plan
        switch input.kind {
        case .notification(let userInfo, let action, let origin):
            guard plan.readsNotification else { return false }
            if plan.recognizesInPlace {
                guard rootAdmitted || plan.rootRequirement?.admits(userInfo) ?? true else { return false }
                return DRecognizer.holds(plan.recognize, plan: plan, root: userInfo, action: action, origin: origin)
            }
        case .inAppMessage(let message, let action):
            guard plan.readsInAppMessage else { return false }
            if plan.recognizesInPlace {
                guard rootAdmitted || plan.rootRequirement?.admits(message) ?? true else { return false }
                return DRecognizer.holds(plan.recognize, plan: plan, root: message, action: action, origin: nil)
            }
        case .vendorEvent(let event):
            guard plan.readsVendorEvent else { return false }
            if plan.recognizesInPlace {
                guard rootAdmitted || plan.rootRequirement?.admits(event) ?? true else { return false }
                return DRecognizer.holds(plan.recognize, plan: plan, root: event, action: nil, origin: nil)
            }
        case .url:
            // Most definitions read no links: answered without a run's set-up.
            guard plan.readsURL else { return false }
        case .userActivity:
            return false
        }
        guard var context = DContext.make(plan: plan, input: input) else { return false }
        return context.holds(plan.recognize)
    }

    /// Runs the definition on a recognized input.
    /// - Throws: ``NormalizationError``: a reject rule's error, a payload rule's, or
    ///   `unrecognized` for an input kind the definition does not read.
    public func read(_ input: InputEvent, using reader: inout PayloadReader) throws(NormalizationError) -> AdapterResult {
        guard var context = DContext.make(plan: plan, input: input) else {
            throw NormalizationError(
                .unrecognized,
                "the \(definition.id) definition reads \(plan.reads.map(\.rawValue).sorted().joined(separator: ", ")), not \(input.kind.name)"
            )
        }
        // Each path outside `buttons`, and each named value, is read once per run and kept, in
        // slots on the stack (the heap when there are many): no allocation, and no copy-on-write
        // check on each write.
        // The result is returned through the closure as it is, not wrapped in a `Result`:
        // each wrapping and unwrapping copied the whole `AdapterResult` (measured: seven
        // copies a record).
        return try withUnsafeTemporaryAllocation(
            of: DContext.Slot.self,
            capacity: plan.slotCount
        ) { slots throws(NormalizationError) -> AdapterResult in
            slots.initialize(repeating: .unresolved)
            defer { DContext.destroy(slots) }
            context.slots = slots
            defer { context.slots = DContext.noSlots }
            context.limits = reader.limits
            return try run(&context, reader: &reader)
        }
    }

    /// Runs the plan with the run state's slots in place.
    private func run(_ context: inout DContext, reader: inout PayloadReader) throws(NormalizationError) -> AdapterResult {
        // Read once: each use of the computed `plan` retains and releases it.
        let plan = self.plan
        // The rules' conditions are plain data; a rule itself is read only when it applies.
        for index in plan.rejectWhens.indices where context.holds(plan.rejectWhens[index]) {
            // The first reject rule that holds fails the input.
            let rule = plan.reject[index]
            let path = rule.at.map { context.errorPath($0, location: reader.location) } ?? reader.location
            throw NormalizationError(rule.code, context.render(rule.message, extras: .none), path: path)
        }
        var buttons: [Interaction.Button] = []
        // The plan's rules borrowed, here and below (``DefinitionPlan/unretainedButtons``).
        if let spec = plan.unretainedButtons { buttons = spec._withUnsafeGuaranteedRef { context.buttons($0, reader: &reader) } }
        context.buttons = buttons
        let trigger = context.trigger()
        var behavior: VendorBehavior?
        let destination = context.destination(plan.destination, reader: &reader, behavior: &behavior)
        if behavior == nil {
            for index in plan.behavior.indices where context.applies(plan.behavior[index].when) {
                behavior = plan.behavior[index].behavior
                break
            }
        }
        // By index, here and below: a rule copied out of the plan retains its strings and
        // values, and releases them again, even when it does not apply.
        for index in plan.warnings.indices where context.holds(plan.warnings[index].when) {
            let warning = plan.warnings[index].warning
            reader.warn(warning.code, context.render(warning.message, extras: .none))
        }
        var messageId: String?
        if let spec = plan.unretainedMessageId,
            case .string(let s)? = spec._withUnsafeGuaranteedRef({ context.evaluate($0, reader: &reader) })
        {
            messageId = s
        }
        var payload: JSONObject = [:]
        if let spec = plan.unretainedPayload {
            var failure: NormalizationError?
            payload = spec._withUnsafeGuaranteedRef { spec in
                do throws(NormalizationError) {
                    return try context.payload(spec, reader: &reader)
                } catch {
                    failure = error
                    return [:]
                }
            }
            if let failure { throw failure }
        }
        var tracking: JSONObject = [:]
        for index in plan.tracking.indices {
            let value = plan.trackingValues[index]._withUnsafeGuaranteedRef { context.evaluate($0, reader: &reader) }
            if let value { tracking[plan.tracking[index].name] = value }
        }
        return AdapterResult(
            channel: context.channel(),
            trigger: trigger,
            destination: destination,
            buttons: buttons,
            messageId: messageId,
            payload: payload,
            tracking: tracking,
            vendorBehavior: behavior ?? .appOpens
        )
    }
}

/// The state of one run of a plan.
struct DContext {
    let plan: DefinitionPlan
    let kind: InputKindName
    /// The root object. Kept once: a copy as a `JSONValue` too was one more retain and
    /// release of its storage a run.
    let rootObject: JSONObject
    /// The depth of the root object in the record (the record's top level is 1).
    let rootDepth: Int
    let action: String?
    let url: String?
    let origin: InputEvent.NotificationOrigin?
    /// What relative paths read from inside `buttons`: the button (`baseIsRoot` false).
    var base: JSONValue = .null
    /// Whether relative paths read from the root object, as they do outside `buttons`: a
    /// flag rather than a copy of the root in `base`, which was a retain and a release a run.
    var baseIsRoot = true
    var baseDepth: Int
    var key: String?
    var buttons: [Interaction.Button] = []
    /// This run's cache: the value of each cached path (``DPathID/slot``), then of each named
    /// value (from ``DefinitionPlan/namedSlotBase``), then the result of each memoized
    /// predicate past the first 64 (``DefinitionPlan/memo``). Empty when the run caches nothing.
    var slots: UnsafeMutableBufferPointer<Slot> = DContext.noSlots
    /// No slots: recognition, the paths inside `buttons`, and a run outside ``DefinitionAdapter/read(_:using:)``.
    static var noSlots: UnsafeMutableBufferPointer<Slot> { UnsafeMutableBufferPointer(start: nil, count: 0) }
    /// The root's ``JSONObject/keyBits()``, once ``rootKeyBitsRead`` (read when a path first
    /// needs it, ``DefinitionPlan/rootKeyBits``).
    var rootKeyBits: UInt64 = 0
    var rootKeyBitsRead = false
    /// The results of the first 64 memoized predicates (``DefinitionPlan/memo``): a node's bit
    /// is set in one word once it has been evaluated in this run.
    var memoHolds: UInt64 = 0
    var memoFails: UInt64 = 0
    /// The text a string test folded last (``foldedTest(_:slot:)``): its slot (`-1`: none),
    /// the match, and the fold (`nil`: the text has no short form). One entry rather than one
    /// per slot: rules test one path after another, and a larger slot costs every slot.
    var foldedSlot = -1
    var foldedMatch = DMatch.exact
    var folded: DShortFold?
    /// The limits of the run's reader, for the silent readers of named values and the
    /// trigger: JSON they decode (`as: json`) is bounded by the registry's `limits.maxDepth`
    /// like any other (recognition decodes none).
    var limits = Limits()

    /// A reader that raises no warnings, under the run's limits.
    func silentReader() -> PayloadReader {
        PayloadReader(limits: limits)
    }

    /// A cache slot: a value and its shape, so that type and emptiness tests read only the
    /// shape. `value` is `null` while the slot is unresolved or the value missing.
    struct Slot {
        var shape: Shape
        var depth: Int32
        var value: JSONValue
        static let unresolved = Slot(shape: .unresolved, depth: 0, value: .null)
    }

    /// Destroys the slots one by one, each with `Slot`'s own code: `deinitialize()` on the
    /// buffer goes through the runtime's generic array destruction, a call through the type's
    /// metadata for each slot (350 instructions a record on Bird's, measured).
    static func destroy(_ slots: UnsafeMutableBufferPointer<Slot>) {
        guard let base = slots.baseAddress else { return }
        for i in 0..<slots.count { _ = (base + i).move() }
    }

    /// Caches a value in a slot (taking it: a value read for the slot is moved in, not copied).
    mutating func store(_ value: consuming JSONValue?, depth: Int, in slot: Int) {
        guard let value else {
            slots[slot].shape = .missing
            return
        }
        slots[slot] = Slot(shape: .of(value), depth: Int32(depth), value: value)
    }

    /// The value a resolved slot holds.
    @inline(__always)
    func cached(_ slot: Int) -> Found? {
        // Read in place: the value is copied once, into the answer.
        switch slots[slot].shape {
        case .unresolved, .missing: return nil
        default: return Found(value: slots[slot].value, holderDepth: Int(slots[slot].depth))
        }
    }

    /// What a predicate needs to know of a value without reading it.
    enum Shape: UInt8 {
        case unresolved, missing, null, bool, number, emptyString, string, emptyObject, object, emptyArray, array
        /// A memoized predicate's result (``DefinitionPlan/memo``).
        case holds, fails

        /// The shapes a resolved path's slot can have: a value's, or missing.
        static let valueShapes: [Shape] = [
            .missing, .null, .bool, .number, .emptyString, .string, .emptyObject, .object, .emptyArray, .array,
        ]

        /// The shape of `value`. A static function rather than an initializer: an
        /// initializer takes its argument owned, so each caller would copy the value (and
        /// count a reference) only for this to read it.
        static func of(_ value: JSONValue) -> Shape {
            switch value {
            case .null: .null
            case .bool: .bool
            case .number: .number
            case .string(let s): s.isEmpty ? .emptyString : .string
            case .object(let o): o.isEmpty ? .emptyObject : .object
            case .array(let a): a.isEmpty ? .emptyArray : .array
            }
        }

        /// Present and not null.
        var exists: Bool {
            switch self {
            case .bool, .number, .emptyString, .string, .emptyObject, .object, .emptyArray, .array: true
            default: false
            }
        }
        /// Present and none of null, `""`, `{}`, `[]`.
        var nonEmpty: Bool {
            switch self {
            case .bool, .number, .string, .object, .array: true
            default: false
            }
        }

        func `is`(_ type: DJSONType) -> Bool {
            switch (self, type) {
            case (.string, .string), (.emptyString, .string), (.number, .number), (.bool, .bool), (.object, .object),
                (.emptyObject, .object), (.array, .array), (.emptyArray, .array), (.null, .null):
                true
            default: false
            }
        }
    }

    init(plan: DefinitionPlan, kind: InputKindName, root: JSONObject, action: String?, url: String?, origin: InputEvent.NotificationOrigin?)
    {
        self.plan = plan
        self.kind = kind
        self.rootObject = root
        self.rootDepth = 2
        self.action = action
        self.url = url
        self.origin = origin
        self.baseDepth = 2
    }

    /// The run state for an input of a kind the plan reads; `nil` for another kind.
    static func make(plan: DefinitionPlan, input: InputEvent) -> DContext? {
        switch input.kind {
        case .notification(let userInfo, let action, let origin):
            guard plan.readsNotification else { return nil }
            return DContext(plan: plan, kind: .notification, root: userInfo, action: action, url: nil, origin: origin)
        case .inAppMessage(let message, let action):
            guard plan.readsInAppMessage else { return nil }
            return DContext(plan: plan, kind: .inAppMessage, root: message, action: action, url: nil, origin: nil)
        case .vendorEvent(let event):
            guard plan.readsVendorEvent else { return nil }
            return DContext(plan: plan, kind: .vendorEvent, root: event, action: nil, url: nil, origin: nil)
        case .url(let link, _):
            guard plan.readsURL else { return nil }
            var query = JSONObject()
            if let mark = link.utf8.firstIndex(of: UInt8(ascii: "?")) {
                var rest = link[link.utf8.index(after: mark)...]
                if let hash = rest.utf8.firstIndex(of: UInt8(ascii: "#")) { rest = rest[..<hash] }
                for item in QueryItem.items(of: String(rest)) { query[item.name] = .string(item.value) }
            }
            return DContext(plan: plan, kind: .url, root: query, action: nil, url: link, origin: nil)
        case .userActivity:
            return nil
        }
    }

    // MARK: - Paths

    /// A value found at a path, with the depth of the object or array holding it.
    struct Found {
        var value: JSONValue
        var holderDepth: Int
        /// The index in the plan's `paths` of the path a value was read at (for `{@key}`),
        /// or `-1`.
        var pathIndex = -1
    }

    /// The last key of the path a value was read at.
    func keyOf(_ found: Found) -> String? {
        found.pathIndex >= 0 ? plan.paths[found.pathIndex].lastKey : nil
    }

    mutating func reference(_ r: DReference) -> JSONValue? {
        switch r {
        case .action: action.map(JSONValue.string)
        case .url: url.map(JSONValue.string)
        case .key: key.map(JSONValue.string)
        case .named(let i): namedValue(i)
        }
    }

    /// A named value, evaluated at its first use in the run and kept. Named values are only
    /// referred to outside `buttons` (the compiler refuses them inside), where the base is the
    /// root; a named value raises no warnings (a scratch reader) and cannot refer to another
    /// named value, so the value is the same wherever it is used.
    mutating func namedValue(_ index: Int) -> JSONValue? {
        let slot = plan.namedSlotBase + index
        if slot < slots.count, slots[slot].shape != .unresolved { return cached(slot)?.value }
        var scratch = silentReader()
        let value = evaluate(plan.named[index], reader: &scratch)
        if slot < slots.count {
            store(value, depth: rootDepth, in: slot)
        }
        return value
    }

    /// The value at an interned path: read once per run when the path is cached.
    mutating func resolve(_ id: DPathID) -> Found? {
        guard id.slot >= 0, id.slot < slots.count else { return resolveInterned(id) }
        if slots[id.slot].shape == .unresolved { fill(id) }
        return cached(id.slot)
    }

    /// The shape of the value at an interned path, without copying the value when it is cached.
    /// Inlined where predicates test it: a cached shape is one load.
    @inline(__always)
    mutating func shape(_ id: DPathID) -> Shape {
        guard id.slot >= 0, id.slot < slots.count else { return uncachedShape(id) }
        if slots[id.slot].shape == .unresolved { fill(id) }
        return slots[id.slot].shape
    }

    /// The shape of the value at a path this run does not cache.
    @inline(never)
    mutating func uncachedShape(_ id: DPathID) -> Shape {
        resolveInterned(id).map { Shape.of($0.value) } ?? .missing
    }

    /// Reads a cached path into its slot.
    mutating func fill(_ id: DPathID) {
        guard let found = resolveInterned(id) else {
            slots[id.slot].shape = .missing
            return
        }
        store(found.value, depth: found.holderDepth, in: id.slot)
    }

    /// Reads an interned path: one or two keys from the root in place, any other path by
    /// walking it. Only a path read outside `buttons` (one with a cache slot, whether or not
    /// this run caches) has its base at the root.
    mutating func resolveInterned(_ id: DPathID) -> Found? {
        let named = plan.namedPaths[id.index]
        if named >= 0 { return namedValue(named).map { Found(value: $0, holderDepth: rootDepth) } }
        guard id.slot >= 0, plan.rootKeyCounts[id.index] != 0 else { return resolve(plan.paths[id.index]) }
        if let parent = plan.parentPaths[id.index], parent.slot < slots.count, slots[parent.slot].shape != .unresolved {
            // `a.b` read in the value cached for `a`, once the run has read `a`: filling `a`'s
            // slot for it (a copy of the object kept) cost more than it saved where only
            // `recognize` reads `a` (Braze's records). The lookup is made in the slot itself:
            // through a closure, the object was copied out of the slot (a retain and a release).
            guard slots[parent.slot].shape == .object, let value = slots[parent.slot].value[plan.parentKeys[id.index]] else {
                return nil
            }
            return Found(value: value, holderDepth: rootDepth + 1)
        }
        let bit = plan.rootKeyBits[id.index]
        if bit != 0 {
            // A missing key (most of such a definition's tracking keys) told by one bit test.
            if !rootKeyBitsRead {
                rootKeyBits = rootObject.keyBits()
                rootKeyBitsRead = true
            }
            if rootKeyBits & bit == 0 { return nil }
        }
        guard let found = plan.rootKeysValue(id.index, in: rootObject) else { return nil }
        return Found(value: found.value, holderDepth: found.nested ? rootDepth + 1 : rootDepth)
    }

    mutating func resolve(_ path: DPath) -> Found? {
        // The common paths of one or two keys read straight from the base, without copying
        // each object they pass through (the general walk below copies every step's value).
        if path.steps.count <= 2, !path.steps.isEmpty, case .key(let k) = path.steps[0] {
            switch path.base {
            case .current:
                let found =
                    baseIsRoot
                    ? Self.keys(k, path.steps, inObject: rootObject, depth: baseDepth)
                    : Self.keys(k, path.steps, in: base, depth: baseDepth)
                if let found { return found }
            case .root:
                if let found = Self.keys(k, path.steps, inObject: rootObject, depth: rootDepth) { return found }
            case .reference:
                break
            }
        }
        var current: JSONValue
        var depth: Int
        switch path.base {
        case .current:
            current = baseIsRoot ? .object(rootObject) : base
            depth = baseDepth
        case .root:
            current = .object(rootObject)
            depth = rootDepth
        case .reference(let r):
            guard let v = reference(r) else { return nil }
            return Found(value: v, holderDepth: rootDepth)
        }
        var holder = depth - 1
        for step in path.steps {
            holder = depth
            switch step {
            case .key(let k):
                guard case .object(let o) = current, let next = o[k] else { return nil }
                current = next
            case .index(let i):
                guard case .array(let a) = current, i < a.count else { return nil }
                current = a[i]
            case .find(let field, let operand):
                guard case .array(let a) = current else { return nil }
                let wanted: String
                switch operand {
                case .literal(let s): wanted = s
                case .reference(let r):
                    guard case .string(let s)? = reference(r) else { return nil }
                    wanted = s
                }
                guard let match = a.first(where: { if case .string(let s)? = $0[field] { s == wanted } else { false } }) else {
                    return nil
                }
                current = match
            }
            depth += 1
        }
        return Found(value: current, holderDepth: holder)
    }

    /// A path an error may name, spelled out only when an error is thrown.
    struct DErrorPath {
        var path: DPath
    }

    /// A one- or two-key path's value under `start`: `nil` when the path has another kind of
    /// step (the caller walks it), `.some(nil)` when the value is not there.
    @inline(__always)
    static func keys(_ first: String, _ steps: [DStep], in start: JSONValue, depth: Int) -> Found?? {
        guard case .object(let o) = start else { return .some(nil) }
        return keys(first, steps, inObject: o, depth: depth)
    }

    /// ``keys(_:_:in:depth:)`` from an object.
    static func keys(_ first: String, _ steps: [DStep], inObject o: JSONObject, depth: Int) -> Found?? {
        if steps.count == 1 {
            guard let next = o[first] else { return .some(nil) }
            return .some(Found(value: next, holderDepth: depth))
        }
        guard case .key(let second) = steps[1] else { return nil }
        guard case .object(let inner)? = o[first], let next = inner[second] else { return .some(nil) }
        return .some(Found(value: next, holderDepth: depth + 1))
    }

    func errorPath(_ path: DPath, location: String) -> String {
        switch path.base {
        case .reference: return location
        case .root, .current: return location + path.display
        }
    }

    static func isAbsent(_ v: JSONValue) -> Bool {
        switch v {
        case .null: true
        case .string(let s): s.isEmpty
        case .object(let o): o.isEmpty
        case .array(let a): a.isEmpty
        default: false
        }
    }

    // MARK: - Predicates

    mutating func holds(_ p: DPredicate) -> Bool {
        // A test of a cached value's shape is one bit of its mask: most reject rules are.
        let test = plan.shapeTests[p.index]
        if test.mask != 0, test.path.slot < slots.count {
            if slots[test.path.slot].shape == .unresolved { fill(test.path) }
            let holds = test.mask &>> UInt16(slots[test.path.slot].shape.rawValue) & 1 != 0
            return holds != p.negated
        }
        let m = plan.memo[p.index]
        if m < 0 { return evaluate(p) != p.negated }
        if m < 64 {
            let bit: UInt64 = 1 << UInt64(m)
            if memoHolds & bit != 0 { return !p.negated }
            if memoFails & bit != 0 { return p.negated }
            let result = evaluate(p)
            if result { memoHolds |= bit } else { memoFails |= bit }
            return result != p.negated
        }
        let slot = plan.memoSlotBase + m - 64
        guard slot < slots.count else { return evaluate(p) != p.negated }
        switch slots[slot].shape {
        case .holds: return !p.negated
        case .fails: return p.negated
        default: break
        }
        let result = evaluate(p)
        slots[slot].shape = result ? .holds : .fails
        return result != p.negated
    }

    /// Evaluates a predicate node.
    mutating func evaluate(_ p: DPredicate) -> Bool {
        // A node is plain data: reading it from the table copies nothing that counts references.
        switch plan.predicates[p.index] {
        case .always: return true
        case .exists(let path):
            return shape(path).exists
        case .nonEmpty(let path):
            return shape(path).nonEmpty
        case .isType(let path, let type):
            return shape(path).is(type)
        case .isTrue(let path), .equals(let path, _, _), .oneOf(let path, _, _), .anyKeyHasPrefix(let path, _),
            .hasScheme(let path, _):
            guard path.slot >= 0, path.slot < slots.count else {
                return DRecognizer.test(plan.predicates[p.index], resolve(path)?.value, plan: plan)
            }
            // A cached value is tested where it is kept.
            if slots[path.slot].shape == .unresolved { fill(path) }
            if slots[path.slot].shape == .missing { return DRecognizer.test(plan.predicates[p.index], nil, plan: plan) }
            if let answer = foldedTest(plan.predicates[p.index], slot: path.slot) { return answer }
            return DRecognizer.test(plan.predicates[p.index], present: slots[path.slot].value, plan: plan)
        case .origin(let o):
            return origin == o
        case .all(let parts):
            for i in parts where !holds(plan.parts[i]) { return false }
            return true
        case .any(let parts):
            for i in parts where holds(plan.parts[i]) { return true }
            return false
        }
    }

    /// The answer of an `equals` or `oneOf` under a case-insensitive match on the text in
    /// `slot`, from the text's short fold, kept while the tests stay on that slot and match:
    /// a rule set often compares the same text several times in a row (Bird's `type` three
    /// times a record), and folding it, and copying it out of the slot for the comparison,
    /// was most of each comparison's cost. `nil` when the node is neither, the match is
    /// exact, the value is not a string or its text has no short fold: the general test
    /// decides. Gives what ``DRecognizer/test(_:present:plan:)`` gives
    /// (``DFold/first(_:_:count:short:literal:)`` compares short folds alone when the text
    /// has one).
    @inline(__always)
    mutating func foldedTest(_ node: DPredicateNode, slot: Int) -> Bool? {
        let match: DMatch
        switch node {
        case .equals(_, _, let m), .oneOf(_, _, let m): match = m
        default: return nil
        }
        guard match != .exact, slots[slot].shape == .string || slots[slot].shape == .emptyString else { return nil }
        if foldedSlot != slot || foldedMatch != match {
            guard case .string(let text) = slots[slot].value else { return nil }
            folded = DShortFold.fold(text, match)
            foldedSlot = slot
            foldedMatch = match
        }
        guard let folded else { return nil }
        switch node {
        case .equals(_, let literal, _):
            // A literal that is not a string, or folds to no short form, has no `short`: no
            // text with one equals it.
            return plan.literals[literal].short == folded
        case .oneOf(_, let literals, _):
            for i in literals where plan.literals[i].short == folded { return true }
            return false
        default:
            return nil
        }
    }

    /// Whether a rule's optional `when` lets it apply (no closure: the run state is large).
    mutating func applies(_ when: DPredicate?) -> Bool {
        guard let when else { return true }
        return holds(when)
    }

    /// Whether `v` equals literal `i` of `literals` under `match`; the literal is read where
    /// it is kept, not copied (this runs for every `equals` and `oneOf` a record meets).
    static func equal(_ v: JSONValue, literal i: Int, of literals: [DLiteral], _ match: DMatch) -> Bool {
        if case .string(let s) = v {
            guard case .string = literals[i].value else { return false }
            if match != .exact, let folded = DShortFold.fold(s, match) { return literals[i].short == folded }
            return DFold.matches(s, text: literals[i].folded, match)
        }
        return v == literals[i].value
    }

    // MARK: - Values

    /// The raw value a source finds.
    @inline(__always)
    mutating func find(_ source: DSource) -> Found? {
        // Only values carry the key they were read at (for `{@key}`); predicates resolve
        // paths without it.
        switch source {
        case .path(let p):
            guard var f = resolve(p), !f.value.isNull else { return nil }
            f.pathIndex = p.index
            return f
        case .first(let paths):
            for p in paths {
                if var f = resolve(p), !Self.isAbsent(f.value) {
                    f.pathIndex = p.index
                    return f
                }
            }
            return nil
        case .firstPresent(let paths):
            for p in paths {
                if var f = resolve(p), !f.value.isNull {
                    f.pathIndex = p.index
                    return f
                }
            }
            return nil
        case .literal(let v):
            return Found(value: v, holderDepth: rootDepth)
        }
    }

    /// The converted, mapped value; `nil` when absent.
    mutating func evaluate(_ spec: DValue, reader: inout PayloadReader) -> JSONValue? {
        guard let found = find(spec.source) else { return spec.defaultValue }
        return finish(found, spec, reader: &reader)
    }

    mutating func finish(_ found: Found, _ spec: DValue, reader: inout PayloadReader) -> JSONValue? {
        var converted = convert(found, spec.conversion, reader: &reader)
        if spec.map != nil, let v = converted {
            converted = nil
            if case .string(let s) = v, let entries = spec.map?.entries, let match = spec.map?.match {
                // By index: each spelling is compared where it is kept.
                if let i = DFold.first(s, match, count: entries.count, short: { entries[$0].short }, literal: { entries[$0].folded }) {
                    converted = .string(entries[i].canonical)
                }
            }
        }
        return converted ?? spec.defaultValue
    }

    mutating func convert(_ found: Found, _ conversion: DConversion, reader: inout PayloadReader) -> JSONValue? {
        let v = found.value
        switch conversion {
        case .string:
            if case .string(let s) = v, !s.isEmpty { return v }
            return nil
        case .text:
            switch v {
            case .string(let s) where !s.isEmpty: return v
            case .number(let n): return .string(n.text)
            default: return nil
            }
        case .boolean:
            return PayloadReader.boolean(v).map(JSONValue.bool)
        case .json:
            if case .string(let s) = v {
                return try? reader.json(in: s, heldAt: found.holderDepth)
            }
            return Self.isAbsent(v) ? JSONValue?.none : v
        case .url(let code, let message):
            guard case .string(let s) = v else { return nil }
            // Nearly every URL: the value as found, not the copy trimming returns (a retain,
            // and the release of the value).
            if PayloadReader.hasNothingToTrim(s) { return v }
            guard let trimmed = PayloadReader.trimmedNonEmpty(s) else { return nil }
            if trimmed.utf8.count != s.utf8.count {
                let text =
                    message.map { render($0, extras: Extras(value: v, key: keyOf(found))) }
                    ?? "\(keyOf(found) ?? "the URL") had whitespace around it; it was trimmed"
                reader.warn(code, text)
            }
            return .string(trimmed)
        case .any:
            return Self.isAbsent(v) ? JSONValue?.none : v
        }
    }

    mutating func string(_ spec: DValue, reader: inout PayloadReader) -> String? {
        switch evaluate(spec, reader: &reader) {
        case .string(let s)?: s.isEmpty ? nil : s
        case .number(let n)?: n.text
        default: nil
        }
    }

    // MARK: - Messages

    struct Extras {
        var value: JSONValue?
        var key: String?
        var clause: String?
        static let none = Extras()
    }

    mutating func render(_ template: DTemplate, extras: Extras) -> String {
        var out = ""
        for part in template.parts {
            switch part {
            case .text(let t): out += t
            case .insert(let subject, let filter):
                let value: JSONValue?
                switch subject {
                case .path(let p): value = resolve(p)?.value
                case .key: value = (extras.key ?? key).map(JSONValue.string)
                case .clause: value = extras.clause.map(JSONValue.string)
                case .value: value = extras.value
                }
                out += Self.format(value, filter)
            }
        }
        return out
    }

    static func format(_ value: JSONValue?, _ filter: DTemplate.Filter) -> String {
        // A quoted value that is not there reads as `missing`, not as nothing: a message
        // says "(aps.category missing)", never "(aps.category )".
        guard let value else { return filter == .raw ? "" : "missing" }
        switch filter {
        case .type: return value.typeDescription
        case .raw: return raw(value)
        case .quoted:
            let text = raw(value)
            guard text.count > 100 else { return "'\(text)'" }
            return "'\(text.prefix(100))…' (\(text.utf8.count) bytes)"
        }
    }

    static func raw(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): s
        case .number(let n): n.text
        case .bool(let b): b ? "true" : "false"
        case .null: "null"
        case .object, .array: value.typeDescription
        }
    }

    // MARK: - Parts

    func channel() -> Channel {
        switch plan.channel {
        case .fixed(let c): return c
        case .origin: return origin == .local ? .local : .push
        case .byKind:
            switch kind {
            case .notification: return origin == .local ? .local : .push
            case .inAppMessage: return .inApp
            case .vendorEvent: return .push
            case .url: return .customScheme
            }
        }
    }

    mutating func trigger() -> Trigger {
        // By index, the rules read where the plan keeps them: the array and each rule copied
        // out were three retains and releases a run.
        let count = plan.trigger?.count ?? 0
        for index in 0..<count where applies(plan.trigger.unsafelyUnwrapped[index].when) {
            switch plan.trigger.unsafelyUnwrapped[index].kind {
            case .tap: return .tap
            case .dismiss: return .dismiss
            case .open: return .open
            case .action: return actionTrigger()
            case .button(let idSpec, let labelSpec):
                var scratch = silentReader()
                guard let id = string(idSpec, reader: &scratch) else { continue }
                return .button(id: id, label: labelSpec.flatMap { string($0, reader: &scratch) })
            }
        }
        if plan.trigger == nil, kind == .notification || kind == .inAppMessage { return actionTrigger() }
        return .tap
    }

    func actionTrigger() -> Trigger {
        let label = action.flatMap { id in buttons.first { $0.id == id }?.label }
        return Trigger(notificationAction: action, label: label)
    }

    mutating func destination(_ list: DDestinationRules, reader: inout PayloadReader, behavior: inout VendorBehavior?) -> Destination {
        for index in list.whens.indices where applies(list.whens[index]) {
            // The rule is passed as the list holds it (bound to a local, it would be retained
            // and released).
            if let result = destination(by: list.rules[index], reader: &reader, behavior: &behavior) { return result }
            switch list.rules[index].ifAbsent {
            case .next: continue
            case .app: return .app
            case .none: return .none
            }
        }
        return .app
    }

    /// The destination `rule` gives, its warning raised and its behaviour noted; `nil` when
    /// the input has none for it (the rule's `ifAbsent` then says what follows).
    mutating func destination(by rule: DDestinationRule, reader: inout PayloadReader, behavior: inout VendorBehavior?) -> Destination? {
        let result: Destination?
        switch rule.kind {
        case .app: result = .app
        case .none: result = Destination.none
        case .button:
            result = action.flatMap { id in buttons.first { $0.id == id }?.destination }
        case .clickAction:
            result = rule.value.flatMap { string($0, reader: &reader) }.map(Destination.clickAction)
        case .screen:
            if let spec = rule.value, let name = string(spec, reader: &reader) {
                var pairs: [(String, String)] = []
                for (pname, pspec) in rule.parameters {
                    if let v = string(pspec, reader: &reader) { pairs.append((pname, v)) }
                }
                result = .screen(
                    name: name,
                    parameters: ScreenParameters(pairs),
                    url: rule.screenURL.flatMap { string($0, reader: &reader) }
                )
            } else {
                result = nil
            }
        case .url:
            var target = rule.fixedTarget
            if let targetSpec = rule.target, case .string(let t)? = evaluate(targetSpec, reader: &reader),
                let parsed = URLTarget(rawValue: t)
            {
                target = parsed
            }
            result = rule.value.flatMap { url($0, rule: rule, reader: &reader) }.map { .url($0, target: target) }
        }
        guard let result else { return nil }
        if let w = rule.warn { reader.warn(w.code, render(w.message, extras: .none)) }
        if case .url = result { behavior = rule.behavior } else if rule.behavior != nil { behavior = rule.behavior }
        return result
    }

    /// The URL a rule's value gives, raising its `problems` warnings.
    mutating func url(_ spec: DValue, rule: DDestinationRule, reader: inout PayloadReader) -> String? {
        guard let found = find(spec.source) else {
            if let w = rule.missing { reader.warn(w.code, render(w.message, extras: .none)) }
            if let d = spec.defaultValue, case .string(let s) = d { return s }
            return nil
        }
        switch found.value {
        case .string(let s) where s.isEmpty:
            if let w = rule.empty { reader.warn(w.code, render(w.message, extras: Extras(value: found.value, key: keyOf(found)))) }
            return nil
        case .string:
            break
        default:
            if case .text = spec.conversion, case .number = found.value { break }
            if case .json = spec.conversion { break }
            if case .any = spec.conversion { break }
            if let w = rule.wrongType { reader.warn(w.code, render(w.message, extras: Extras(value: found.value, key: keyOf(found)))) }
            return nil
        }
        if case .string(let s)? = finish(found, spec, reader: &reader), !s.isEmpty { return s }
        return nil
    }

    mutating func buttons(_ spec: DButtons, reader: inout PayloadReader) -> [Interaction.Button] {
        guard let found = resolve(spec.from) else { return [] }
        var container = found.value
        if case .string(let text) = container {
            guard let decoded = try? reader.json(in: text, heldAt: found.holderDepth) else { return [] }
            container = decoded
        }
        // The buttons are read from the array or object by index: no list of them is built.
        let count: Int
        switch container {
        case .array(let a): count = a.count
        case .object(let o): count = o.count
        default: return []
        }
        var out: [Interaction.Button] = []
        out.reserveCapacity(count)
        // The buttons are read by this run state itself, its base moved to each button, and
        // what that changes put back afterwards: a copy of the state for them would retain and
        // release every reference it holds. Paths inside buttons read from each button:
        // nothing of theirs is cached (no predicate inside them is memoized, `memo`), and
        // the memoized results are put back with the rest.
        let saved = (
            base: base, baseIsRoot: baseIsRoot, baseDepth: baseDepth, key: key, slots: slots, memoHolds: memoHolds,
            memoFails: memoFails
        )
        defer {
            base = saved.base
            baseIsRoot = saved.baseIsRoot
            baseDepth = saved.baseDepth
            key = saved.key
            slots = saved.slots
            memoHolds = saved.memoHolds
            memoFails = saved.memoFails
        }
        slots = DContext.noSlots
        baseDepth = found.holderDepth + 2
        for index in 0..<count {
            let element: (key: String?, value: JSONValue)
            switch container {
            case .array(let a): element = (nil, a[index])
            case .object(let o): element = (o.storage[index].key, o.storage[index].value)
            default: return out
            }
            base = element.value
            baseIsRoot = false
            key = element.key
            let id: String?
            if let idSpec = spec.id {
                id = string(idSpec, reader: &reader)
            } else if let key = element.key {
                id = key.isEmpty ? nil : key
            } else {
                id = PayloadReader.nonEmptyString(element.value["id"])
            }
            guard let id else {
                let name = element.key.map { "'\($0)'" } ?? "\(index)"
                reader.warn(.invalidActionButtons, "button \(name) has no id; it is left out")
                continue
            }
            var label: String?
            if let labelSpec = spec.label { label = string(labelSpec, reader: &reader) }
            var ignored: VendorBehavior?
            let destination = self.destination(spec.destination, reader: &reader, behavior: &ignored)
            out.append(Interaction.Button(id: id, label: label, destination: destination))
        }
        return out
    }

    mutating func payload(_ spec: DPayload, reader: inout PayloadReader) throws(NormalizationError) -> JSONObject {
        var object: JSONObject
        if let from = spec.from {
            // The value and its depth taken out of the `Found`: an optional `Found` kept
            // through the switch was copied for its value, and destroyed twice through the
            // runtime's generic `Optional` witnesses (830 instructions for three of Bird's
            // records, measured).
            var value: JSONValue?
            var depth = rootDepth
            if let found = resolve(from) {
                depth = found.holderDepth
                value = found.value
            }
            let path = DErrorPath(path: from)
            switch reader.object(value, heldAt: depth) {
            case .absent:
                object = [:]
            case .inString(let o, _):
                object = o
            case .inPlace(let o):
                _ = try apply(spec.inPlace, text: nil, value: value, clause: nil, path: path, reader: &reader)
                object = o
            case .stringTooDeep(let text, let clause):
                object = try apply(spec.tooDeep, text: text, value: value, clause: clause, path: path, reader: &reader) ?? [:]
            case .stringNotJSON(let text, _):
                let c = PayloadReader.firstJSONByte(text) == UInt8(ascii: "{") ? spec.broken : spec.text
                object = try apply(c, text: text, value: value, clause: nil, path: path, reader: &reader) ?? [:]
            case .stringHoldsWrongType(_, let text):
                object = try apply(spec.text, text: text, value: value, clause: nil, path: path, reader: &reader) ?? [:]
            case .wrongType(let v):
                object = try apply(spec.wrongType, text: nil, value: v, clause: nil, path: path, reader: &reader) ?? [:]
            }
        } else if baseIsRoot {
            object = rootObject
        } else if case .object(let o) = base {
            object = o
        } else {
            object = [:]
        }
        if !spec.without.isEmpty || !spec.withoutPrefixes.isEmpty {
            // One pass over the keys, read in place; the members kept are copied once into an
            // array of their final size (`filter` copies each member out as a tuple, grows an
            // array of tuples and converts it), and an object that loses nothing is returned
            // as it is.
            object = object.removing { key in
                spec.without.contains(key) || spec.withoutPrefixes.matches(key)
            }
        }
        return object
    }

    mutating func apply(
        _ c: DPayloadCase,
        text: String?,
        value: JSONValue?,
        clause: String?,
        path: DErrorPath,
        reader: inout PayloadReader
    ) throws(NormalizationError) -> JSONObject? {
        let extras = Extras(value: value, key: nil, clause: clause)
        if let reject = c.reject {
            throw NormalizationError(
                reject.code,
                render(reject.message, extras: extras),
                path: errorPath(path.path, location: reader.location)
            )
        }
        if let w = c.warn { reader.warn(w.code, render(w.message, extras: extras)) }
        if let name = c.keepAs {
            if let text { return [name: .string(text)] }
            if let value { return [name: value] }
        }
        return nil
    }
}

/// Evaluates a `recognize` predicate whose paths are all one or two keys from the root (or the
/// action), on the input's root object as it is: no run state, no cache, nothing copied but
/// the values tested. ``DefinitionPlan/recognizesInPlace`` says when it applies.
enum DRecognizer {
    /// Whether `p` holds for the input with root object `root`. Functions of their inputs
    /// rather than methods of a value holding them: a value would retain the plan and the root
    /// as it is made and release them after, four atomic operations a detection (measured on
    /// Bird's records), where parameters are only borrowed.
    static func holds(
        _ p: DPredicate,
        plan: DefinitionPlan,
        root: JSONObject,
        action: String?,
        origin: InputEvent.NotificationOrigin?
    ) -> Bool {
        let node = plan.predicates[p.index]
        let result: Bool
        switch node {
        case .always: result = true
        case .origin(let o): result = origin == o
        case .all(let parts):
            result = parts.allSatisfy { holds(plan.parts[$0], plan: plan, root: root, action: action, origin: origin) }
        case .any(let parts):
            if let any = plan.anyFilters[p.index] {
                // Every part is false on a root the filter does not admit.
                let admitted = any.filter.admits(root)
                result =
                    any.exact || !admitted
                    ? admitted
                    : parts.contains { holds(plan.parts[$0], plan: plan, root: root, action: action, origin: origin) }
            } else {
                result = parts.contains { holds(plan.parts[$0], plan: plan, root: root, action: action, origin: origin) }
            }
        case .exists(let path), .nonEmpty(let path), .isType(let path, _), .isTrue(let path), .equals(let path, _, _),
            .oneOf(let path, _, _), .anyKeyHasPrefix(let path, _), .hasScheme(let path, _):
            result = test(node, value(path, plan: plan, root: root, action: action), plan: plan)
        }
        return result != p.negated
    }

    /// The value at a path the plan marked readable in place.
    static func value(_ id: DPathID, plan: DefinitionPlan, root: JSONObject, action: String?) -> JSONValue? {
        guard plan.rootKeyCounts[id.index] != 0 else {
            // The other paths `recognizesInPlace` admits: the root itself, and `@action`.
            if plan.paths[id.index].steps.isEmpty, plan.paths[id.index].base != .reference(.action) { return .object(root) }
            return action.map(JSONValue.string)
        }
        return plan.rootKeysValue(id.index, in: root)?.value
    }

    /// Whether a leaf predicate holds for the value at its path (`nil`: missing). The one
    /// definition of the leaves, for a full run and for recognition in place.
    static func test(_ node: DPredicateNode, _ value: JSONValue?, plan: DefinitionPlan) -> Bool {
        guard let value else {
            // Only isTrue has an answer for a missing value other than false: also false.
            return false
        }
        return test(node, present: value, plan: plan)
    }

    /// ``test(_:_:plan:)`` for a value that is there.
    static func test(_ node: DPredicateNode, present value: JSONValue, plan: DefinitionPlan) -> Bool {
        switch node {
        case .exists: return !value.isNull
        case .nonEmpty: return !DContext.isAbsent(value)
        case .isType(_, let type): return DContext.Shape.of(value).is(type)
        case .isTrue: return PayloadReader.boolean(value) == true
        case .equals(_, let literal, let match):
            return DContext.equal(value, literal: literal, of: plan.literals, match)
        case .oneOf(_, let literals, let match):
            if case .string(let s) = value {
                // The text is folded once for all the literals; no string equals a literal
                // that is not one.
                let literalTable = plan.literals
                return DFold.first(
                    s,
                    match,
                    count: literals.count,
                    short: { literalTable[literals.lowerBound + $0].short }
                ) { i in
                    let literal = literalTable[literals.lowerBound + i]
                    guard case .string = literal.value else { return nil }
                    return literal.folded
                } != nil
            }
            for i in literals where DContext.equal(value, literal: i, of: plan.literals, match) { return true }
            return false
        case .anyKeyHasPrefix(_, let prefix):
            guard case .object(let o) = value else { return false }
            let text = plan.strings[prefix]
            return o.containsKey { $0.hasUTF8Prefix(text) }
        case .hasScheme(_, let schemes):
            guard case .string(let s) = value else { return false }
            for i in schemes where URLParts.hasScheme(plan.strings[i], s) { return true }
            return false
        case .always, .origin, .all, .any:
            return false
        }
    }
}
