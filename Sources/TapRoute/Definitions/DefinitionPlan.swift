/// The compiled, immutable form of an adapter definition: what the engine runs. Built once by
/// ``DefinitionCompiler``; never re-reads the document. See docs/declarative-adapters.md.
final class DefinitionPlan: Sendable {
    let reads: Set<InputKindName>
    /// `reads` for each kind, so that a run does not hash.
    let readsNotification: Bool
    let readsInAppMessage: Bool
    let readsVendorEvent: Bool
    let readsURL: Bool
    let channel: ChannelRule
    let recognize: DPredicate
    let named: [DValue]
    let reject: [DReject]
    /// Each reject rule's `when`, as plain data: the loop over the rules counts no references.
    let rejectWhens: [DPredicate]
    let trigger: [DTriggerRule]?
    let buttons: DButtons?
    let destination: DDestinationRules
    let behavior: [DBehaviorRule]
    let messageId: DValue?
    let payload: DPayload?
    let tracking: [(name: String, value: DValue)]
    /// `buttons`, `messageId`, `payload` and the values of `tracking`, unretained, for a run
    /// to borrow (`_withUnsafeGuaranteedRef`): read out of the plan, each was retained and
    /// released around its use, two atomic operations a rule a run. The properties above
    /// keep them alive as long as the plan.
    let unretainedButtons: Unmanaged<DButtons>?
    let unretainedMessageId: Unmanaged<DValue>?
    let unretainedPayload: Unmanaged<DPayload>?
    let trackingValues: [Unmanaged<DValue>]
    let warnings: [DWarningRule]
    /// The `encode` section, when there is one.
    let encoding: DEncoding?
    /// Every path the predicates and values read, interned: a rule refers to one by
    /// ``DPathID``, so that evaluating it copies no path.
    let paths: [DPath]
    /// The number of run-cache slots: one per cached path, then one per named value
    /// (``namedSlotBase``), then one per memoized predicate past the first 64 (``memo``).
    let slotCount: Int
    /// The slot of the first named value.
    let namedSlotBase: Int
    /// For each path of `paths` that is one or two keys from the root or the current base,
    /// those keys, read without the path's steps where the base is the root (outside
    /// `buttons`: a ``DPathID`` with a slot).
    let rootKeys: [DRootKeys?]
    /// For each path of `paths`, how many keys its `rootKeys` entry has (0: none): plain data,
    /// read without copying the keys.
    let rootKeyCounts: [UInt8]
    /// For each path of `paths` with a `rootKeys` entry whose first key is a small ASCII
    /// string, that key's ``JSONObject/keyBit(ofSmallASCII:)``, when the plan reads enough
    /// keys (``rootKeyBitsMinimumKeys``); 0 otherwise. A run tests it against the root's
    /// ``JSONObject/keyBits()`` before looking the key up: most of the keys such a definition
    /// reads (its tracking keys) are missing from most records.
    let rootKeyBits: [UInt64]
    /// The fewest distinct first keys a plan reads from the root for ``rootKeyBits`` to be
    /// set: the root's bits cost a pass over its keys, which a definition that reads a few
    /// keys, most of them present, does not make up for (measured with `per_vendor.sh`: Iterable
    /// and Klaviyo, 7 and 5 keys, 0.3% more instructions a record; CleverTap and Pushwoosh,
    /// 14 and 10, 1.5% fewer).
    static let rootKeyBitsMinimumKeys = 10
    /// For each path of two keys from the root (`a.b`) whose first key is itself a cached path
    /// (`a`), that path; `nil` otherwise. A run that has read `a` reads `b` in the value cached
    /// for it instead of looking `a` up in the root again: a definition reads many keys of one
    /// object (Bird's `action.type`, `action.identifier` and `action.uri`, after testing
    /// `action`).
    let parentPaths: [DPathID?]
    /// For each path with a `parentPaths` entry, its second key (`b`); `""` for the others.
    let parentKeys: [String]
    /// The predicates and what they refer to.
    let predicates: [DPredicateNode]
    let literals: [DLiteral]
    let strings: [String]
    let parts: [DPredicate]
    /// For each predicate node, where the run keeps its result, or `-1`: a node used more than
    /// once outside `buttons` is evaluated once per run (a predicate reads only the run's input,
    /// so its result cannot change within the run). Below 64 it is a bit of the run's two
    /// result words; from 64 on, the cache slot `value - 64 + memoSlotBase`.
    let memo: [Int]
    /// The slot of the first memoized predicate kept in a slot (the 65th).
    let memoSlotBase: Int
    /// For each predicate node that tests only the shape of the value at a cached path
    /// (`exists`, `nonEmpty`, `isType` outside `buttons`), that path and the shapes for which
    /// it holds; a zero mask for every other node. A run answers such a node from the path's
    /// slot with one bit test, without the general evaluation (or a memo: the slot is one).
    let shapeTests: [DShapeTest]
    /// For each path of `paths` that is a named value alone (`@name`), the value's index;
    /// otherwise `-1`.
    let namedPaths: [Int]
    /// Whether every path `recognize` reads is the root, one or two keys from it, or
    /// `@action`, so that ``DRecognizer`` can evaluate it on the input in place.
    let recognizesInPlace: Bool
    /// What the root must have for `recognize` to hold, when that can be said (see
    /// ``DRootRequirement``): detection asks every definition about every input, and most
    /// inputs lack the one key a definition looks for.
    let rootRequirement: DRootFilter?
    /// For each predicate node of `recognize` that is an `any` of several parts whose
    /// requirements can be said (``requirement(_:tables:paths:rootKeys:)``), the filter of their
    /// union; `nil` for every other node, and for every node when `recognize` is not read in
    /// place. ``DRecognizer`` asks it before the parts: a root it does not admit makes every
    /// part false at once, in one pass over the root's keys instead of a lookup or a scan of
    /// the keys per part (FCM's `recognize` names eighteen other vendors' markers).
    let anyFilters: [DAnyFilter?]
    /// Whether a run may read the text of a notification's alert (`aps.alert`'s strings):
    /// the definition reads notifications and a path that reads values may reach that text
    /// (``DPath/mayReachAlertText``), or its payload keeps `aps`. A registry none of whose
    /// adapters may reads records without building that text.
    let readsAlertText: Bool

    init(
        reads: Set<InputKindName>,
        channel: ChannelRule,
        recognize: DPredicate,
        named: [DValue],
        reject: [DReject],
        trigger: [DTriggerRule]?,
        buttons: DButtons?,
        destination: [DDestinationRule],
        behavior: [DBehaviorRule],
        messageId: DValue?,
        payload: DPayload?,
        tracking: [(name: String, value: DValue)],
        warnings: [DWarningRule],
        paths: [DPath],
        pathSlots: [Int],
        cachedPaths: Int,
        tables: DPredicateTables,
        encoding: DEncoding? = nil,
        readsAlertText: Bool = true
    ) {
        self.encoding = encoding
        self.readsAlertText = readsAlertText && reads.contains(.notification)
        self.reads = reads
        self.readsNotification = reads.contains(.notification)
        self.readsInAppMessage = reads.contains(.inAppMessage)
        self.readsVendorEvent = reads.contains(.vendorEvent)
        self.readsURL = reads.contains(.url)
        self.channel = channel
        self.recognize = recognize
        self.named = named
        self.reject = reject
        self.rejectWhens = reject.map(\.when)
        self.trigger = trigger
        self.buttons = buttons
        self.destination = DDestinationRules(destination)
        self.behavior = behavior
        self.messageId = messageId
        self.payload = payload
        self.tracking = tracking
        self.unretainedButtons = buttons.map(Unmanaged.passUnretained)
        self.unretainedMessageId = messageId.map(Unmanaged.passUnretained)
        self.unretainedPayload = payload.map(Unmanaged.passUnretained)
        self.trackingValues = tracking.map { Unmanaged.passUnretained($0.value) }
        self.warnings = warnings
        self.paths = paths
        self.namedSlotBase = cachedPaths
        self.rootKeys = paths.map { path in
            guard path.base == .root || path.base == .current, (1...2).contains(path.steps.count),
                case .key(let first) = path.steps[0]
            else { return nil }
            if path.steps.count == 1 { return DRootKeys(first: first, second: nil) }
            guard case .key(let second) = path.steps[1] else { return nil }
            return DRootKeys(first: first, second: second)
        }
        self.rootKeyCounts = rootKeys.map { keys in keys.map { $0.second == nil ? 1 : 2 } ?? 0 }
        let summarized = Set(rootKeys.compactMap { $0?.first }).count >= Self.rootKeyBitsMinimumKeys
        self.rootKeyBits = rootKeys.map { keys in
            guard summarized, let first = keys?.first else { return 0 }
            return JSONObject.keyBit(of: first) ?? 0
        }
        // A cached path reads from the root (outside `buttons`), whatever its base says.
        var cachedFirstKeys: [String: DPathID] = [:]
        for (index, keys) in rootKeys.enumerated() where pathSlots[index] >= 0 && keys?.second == nil {
            if let first = keys?.first { cachedFirstKeys[first] = DPathID(index: index, slot: pathSlots[index]) }
        }
        let parentPaths: [DPathID?] = rootKeys.enumerated().map { index, keys in
            guard pathSlots[index] >= 0, let keys, keys.second != nil else { return nil }
            return cachedFirstKeys[keys.first]
        }
        self.parentPaths = parentPaths
        self.parentKeys = zip(rootKeys, parentPaths).map { keys, parent in parent == nil ? "" : keys?.second ?? "" }
        self.predicates = tables.nodes
        self.literals = tables.literals
        self.strings = tables.strings
        self.parts = tables.parts
        let shapeTests = tables.nodes.map(DShapeTest.init)
        self.shapeTests = shapeTests
        var memoCount = 0
        self.memo = tables.nodes.indices.map { i in
            guard tables.uses[i] > 1, !tables.insideButtons[i], tables.nodes[i] != .always, shapeTests[i].mask == 0 else {
                return -1
            }
            memoCount += 1
            return memoCount - 1
        }
        self.memoSlotBase = cachedPaths + named.count
        self.slotCount = memoSlotBase + max(0, memoCount - 64)
        self.namedPaths = paths.map { path in
            guard case .reference(.named(let index)) = path.base, path.steps.isEmpty else { return -1 }
            return index
        }
        let rootKeys = self.rootKeys
        self.recognizesInPlace = Self.readsInPlace(recognize, tables: tables) { id in
            let path = paths[id.index]
            let rootItself = (path.base == .root || path.base == .current) && path.steps.isEmpty
            return id.slot >= 0
                && (rootKeys[id.index] != nil || rootItself || (path.base == .reference(.action) && path.steps.isEmpty))
        }
        self.rootRequirement =
            recognizesInPlace
            ? Self.requirement(recognize, tables: tables, paths: paths, rootKeys: rootKeys).map(DRootFilter.init) : nil
        var anyFilters = [DAnyFilter?](repeating: nil, count: tables.nodes.count)
        if recognizesInPlace {
            Self.collectAnyFilters(recognize, top: true, tables: tables, paths: paths, rootKeys: rootKeys, into: &anyFilters)
        }
        self.anyFilters = anyFilters
    }
}

/// Keys of which a root object must have one, or prefixes one of its keys must start with,
/// for a predicate to hold.
///
/// Every leaf predicate is false for a missing value, so a leaf on `a` or `a.b` needs the
/// root key `a`, and `anyKeyHasPrefix` on the root needs a key with that prefix; `all` needs
/// what any one of its parts needs (the narrowest is kept); `any` needs one of the things its
/// parts need, and nothing when one of its parts needs nothing; a negation, `origin` and
/// `always` need nothing that can be said this way.
struct DRootRequirement: Sendable {
    var keys: [String]
    var prefixes: [String]
}

/// A ``DRootRequirement`` made for asking about every input: the ``DetectionPrefilter`` of
/// this one requirement (a key is compared with the required keys only when one of them has
/// its UTF-8 length, and with the prefixes only when one of them starts with its first byte;
/// most keys pass neither test).
final class DRootFilter: Sendable {
    /// The requirement it asks about.
    let requirement: DRootRequirement
    private let prefilter: DetectionPrefilter

    init(_ requirement: DRootRequirement) {
        self.requirement = requirement
        prefilter = DetectionPrefilter([requirement])
    }

    /// Whether `root` has one of the keys or a key with one of the prefixes.
    func admits(_ root: JSONObject) -> Bool {
        prefilter.admitted(root) != 0
    }
}

extension DefinitionPlan {
    /// What the root must have for `p` to hold, or `nil` when nothing can be said.
    static func requirement(_ p: DPredicate, tables: DPredicateTables, paths: [DPath], rootKeys: [DRootKeys?]) -> DRootRequirement? {
        guard !p.negated else { return nil }
        switch tables.nodes[p.index] {
        case .always, .origin:
            return nil
        case .all(let parts):
            // What one part needs, the whole needs: take the narrowest.
            var narrowest: DRootRequirement?
            for part in parts {
                guard let needed = requirement(tables.parts[part], tables: tables, paths: paths, rootKeys: rootKeys) else { continue }
                if let current = narrowest, current.keys.count + current.prefixes.count <= needed.keys.count + needed.prefixes.count {
                    continue
                }
                narrowest = needed
            }
            return narrowest
        case .any(let parts):
            var union = DRootRequirement(keys: [], prefixes: [])
            for part in parts {
                guard let needed = requirement(tables.parts[part], tables: tables, paths: paths, rootKeys: rootKeys) else { return nil }
                union.keys += needed.keys.filter { !union.keys.contains($0) }
                union.prefixes += needed.prefixes.filter { !union.prefixes.contains($0) }
            }
            return union
        case .anyKeyHasPrefix(let path, let prefix):
            let read = paths[path.index]
            if read.base == .root || read.base == .current, read.steps.isEmpty {
                return DRootRequirement(keys: [], prefixes: [tables.strings[prefix]])
            }
            guard let keys = rootKeys[path.index] else { return nil }
            return DRootRequirement(keys: [keys.first], prefixes: [])
        case .exists(let path), .nonEmpty(let path), .isType(let path, _), .isTrue(let path), .equals(let path, _, _),
            .oneOf(let path, _, _), .hasScheme(let path, _):
            guard let keys = rootKeys[path.index] else { return nil }
            return DRootRequirement(keys: [keys.first], prefixes: [])
        }
    }
}

/// The root filter of an `any` predicate node (``DefinitionPlan/anyFilters``).
struct DAnyFilter: Sendable {
    /// Admits the roots on which some part may hold.
    let filter: DRootFilter
    /// Whether the filter's answer is the node's: every part is `anyKeyHasPrefix` on the
    /// root, which holds exactly when a key has its prefix.
    let exact: Bool
}

extension DefinitionPlan {
    /// The fewest parts an `any` node needs for a filter: one pass over the root's keys costs
    /// about what two lookups do.
    static let anyFilterMinimumParts = 3

    /// Sets the filters of the `any` nodes `p` reaches (``anyFilters``). `top` says that `p`
    /// is `recognize` itself, whose requirement the root filter (``rootRequirement``) has
    /// already asked about: it gets a filter only when the filter's answer is its own.
    static func collectAnyFilters(
        _ p: DPredicate,
        top: Bool = false,
        tables: DPredicateTables,
        paths: [DPath],
        rootKeys: [DRootKeys?],
        into filters: inout [DAnyFilter?]
    ) {
        switch tables.nodes[p.index] {
        case .all(let parts):
            for part in parts {
                collectAnyFilters(tables.parts[part], tables: tables, paths: paths, rootKeys: rootKeys, into: &filters)
            }
        case .any(let parts):
            for part in parts {
                collectAnyFilters(tables.parts[part], tables: tables, paths: paths, rootKeys: rootKeys, into: &filters)
            }
            guard filters[p.index] == nil else { return }
            // The requirement of the node itself, not of `p`: a negation is applied to the
            // node's result after the filter has answered for the node.
            let node = DPredicate(index: p.index, negated: false)
            let prefixesOnly = parts.allSatisfy { part in
                let q = tables.parts[part]
                guard !q.negated, case .anyKeyHasPrefix(let path, _) = tables.nodes[q.index] else { return false }
                let read = paths[path.index]
                return (read.base == .root || read.base == .current) && read.steps.isEmpty
            }
            guard top ? prefixesOnly && !p.negated : parts.count >= anyFilterMinimumParts || (prefixesOnly && parts.count > 1),
                let requirement = requirement(node, tables: tables, paths: paths, rootKeys: rootKeys)
            else { return }
            filters[p.index] = DAnyFilter(filter: DRootFilter(requirement), exact: prefixesOnly)
        case .always, .origin, .exists, .nonEmpty, .isType, .isTrue, .equals, .oneOf, .anyKeyHasPrefix, .hasScheme:
            return
        }
    }
}

extension DefinitionPlan {
    /// Whether every path a predicate reads passes `readable`.
    static func readsInPlace(_ p: DPredicate, tables: DPredicateTables, readable: (DPathID) -> Bool) -> Bool {
        switch tables.nodes[p.index] {
        case .always, .origin: return true
        case .all(let parts), .any(let parts):
            return parts.allSatisfy { readsInPlace(tables.parts[$0], tables: tables, readable: readable) }
        case .exists(let path), .nonEmpty(let path), .isType(let path, _), .isTrue(let path), .equals(let path, _, _),
            .oneOf(let path, _, _), .anyKeyHasPrefix(let path, _), .hasScheme(let path, _):
            return readable(path)
        }
    }
}

/// The input kinds a definition may read.
enum InputKindName: String, Sendable, Hashable, CaseIterable {
    case notification, inAppMessage, vendorEvent, url
}

/// How the channel is chosen.
enum ChannelRule: Sendable {
    case fixed(Channel)
    case origin
    case byKind
}

/// A reference usable where a path is.
enum DReference: Sendable, Hashable {
    case action
    case url
    case key
    case named(Int)
}

/// Where a path starts.
enum DBase: Sendable, Hashable {
    /// The context's base: the root, or the button inside `buttons`.
    case current
    /// The root (`$.`), even inside `buttons`.
    case root
    case reference(DReference)
}

/// One step of a path.
enum DStep: Sendable, Hashable {
    case key(String)
    case index(Int)
    case find(field: String, equals: DOperand)
}

/// What a find step compares with.
enum DOperand: Sendable, Hashable {
    case literal(String)
    case reference(DReference)
}

/// A path of the plan's table: its index there, and its slot in a run's cache (`-1` when the
/// path is not cached: inside `buttons`, where its base changes from button to button).
struct DPathID: Sendable, Hashable {
    var index: Int
    var slot: Int
}

/// The one or two keys of a path from the root.
struct DRootKeys: Sendable {
    var first: String
    var second: String?
}

extension DefinitionPlan {
    /// The value at path `index`, one of one or two keys (`rootKeyCounts[index]` > 0), under
    /// `object`, and whether it sits in an object inside `object`; `nil` when it is missing.
    ///
    /// The keys are read where the plan keeps them and the object on the way is not copied:
    /// copying either counts references (the keys a call each, the object an atomic).
    @inline(__always)
    func rootKeysValue(_ index: Int, in object: JSONObject) -> (value: JSONValue, nested: Bool)? {
        rootKeys.withUnsafeBufferPointer { all -> (value: JSONValue, nested: Bool)? in
            guard let i = object.position(of: all[index].unsafelyUnwrapped.first) else { return nil }
            if rootKeyCounts[index] == 1 { return (object.storage[i].value, false) }
            return object.storage[i].value[all[index].unsafelyUnwrapped.second.unsafelyUnwrapped].map { ($0, true) }
        }
    }
}

/// A compiled path.
struct DPath: Sendable, Hashable {
    var base: DBase
    var steps: [DStep]
    /// The JSONPath suffix of the steps, for error paths (`.action['gcm.x'][0]`).
    var display: String
    /// The last key step, for `{@key}`.
    var lastKey: String?

    /// Whether the value this path finds in a notification may be, or hold, the text of its
    /// alert (`aps.alert`, or a string in it): the root or the current base itself, `aps`, a
    /// path through `aps.alert`, or one whose first or second step is not a key (an index or
    /// a search, taken as reaching anything). A path from a reference (`@action`, a named
    /// value) finds what that names, whose own paths are judged where they are read.
    var mayReachAlertText: Bool {
        if case .reference = base { return false }
        guard let first = steps.first else { return true }
        guard case .key(let key) = first else { return true }
        guard key == "aps" else { return false }
        guard steps.count > 1, case .key(let second) = steps[1] else { return true }
        return second == "alert"
    }

    /// Paths are equal when their base and steps are: `display` and `lastKey` are made from
    /// the steps, so comparing and hashing them too would only cost time.
    static func == (lhs: DPath, rhs: DPath) -> Bool { lhs.base == rhs.base && lhs.steps == rhs.steps }

    func hash(into hasher: inout Hasher) {
        hasher.combine(base)
        hasher.combine(steps)
    }
}

/// How strings compare.
package enum DMatch: String, Sendable, Hashable {
    case exact, `case`, caseAndSeparators
}

/// A literal to compare with, precomputed for its match.
struct DLiteral: Sendable, Hashable {
    var value: JSONValue
    /// A string literal folded under the rule's match (a short one is stored inline, so
    /// comparing with it counts no references).
    var folded: String
    /// `folded` as two words, when the literal is a string that folds to at most 16 ASCII
    /// bytes (`nil` for a number, a Boolean or null, which no text equals).
    var short: DShortFold?

    init(value: JSONValue, folded: String) {
        self.value = value
        self.folded = folded
        if case .string = value { short = DShortFold(folded: folded) }
    }
}

/// A map from spellings to canonical strings.
struct DMap: Sendable {
    var match: DMatch
    /// Each spelling folded under `match` (and as two words when it is short), with the value
    /// it stands for.
    var entries: [(folded: String, short: DShortFold?, canonical: String)]
}

/// A folded text of at most 16 ASCII bytes, held as two little-endian words and its length,
/// so that comparing two is comparing three integers.
///
/// A literal's is made when the definition is compiled; a record's text is folded into one
/// once, on the fly, and compared with each literal's (``DFold/first(_:_:count:short:literal:)``).
/// Two texts that fold to such a form are equal under their match exactly when their forms
/// are, and a text with one can equal no literal without one (a literal folding to non-ASCII
/// bytes, or to more than 16), so the forms alone decide.
package struct DShortFold: Sendable, Hashable {
    /// Bytes 0–7, the first in the low eight bits; zero past the end.
    let low: UInt64
    /// Bytes 8–15, likewise.
    let high: UInt64
    /// The number of bytes.
    let count: UInt8

    /// The form of bytes that are already folded; `nil` when they are more than 16 or not
    /// all ASCII.
    package init?(folded: String) {
        var packed = Packing()
        for b in folded.utf8 {
            guard b < 0x80, packed.append(b) else { return nil }
        }
        self = packed.form
    }

    /// Bytes packed into the two words one at a time.
    private struct Packing {
        var low: UInt64 = 0
        var high: UInt64 = 0
        var count = 0

        /// Adds `byte` after the others; `false` when 16 are held already.
        @inline(__always)
        mutating func append(_ byte: UInt8) -> Bool {
            guard count < 16 else { return false }
            if count < 8 {
                low |= UInt64(byte) << UInt64(8 &* count)
            } else {
                high |= UInt64(byte) << UInt64(8 &* (count &- 8))
            }
            count &+= 1
            return true
        }

        var form: DShortFold { DShortFold(low: low, high: high, count: UInt8(count)) }
    }

    init(low: UInt64, high: UInt64, count: UInt8) {
        self.low = low
        self.high = high
        self.count = count
    }

    /// `text` folded under `match` (`case` or `caseAndSeparators`: ASCII letters lower-cased,
    /// and `_` and `-` dropped for the second), when the text is ASCII, at most 64 bytes, and
    /// folds to at most 16; `nil` otherwise, for the slower comparisons. ASCII folds to the
    /// same bytes here as `String.lowercased()` gives.
    package static func fold(_ text: String, _ match: DMatch) -> DShortFold? {
        let dropSeparators = match == .caseAndSeparators
        if let tag = JSONObject.smallASCIITag {
            // A string of at most 15 ASCII bytes holds them in its own two words (the count
            // and tag in the last byte; the bytes past the count are zero), as
            // ``JSONObject/position(of:)`` reads keys: its letters are lower-cased a word at a
            // time. One with a separator to drop is folded byte by byte below.
            let bits = unsafeBitCast(text, to: (UInt64, UInt64).self)
            if bits.1 & JSONObject.tagMask == tag {
                let high = bits.1 & 0x00FF_FFFF_FFFF_FFFF
                if !dropSeparators || Self.separators(bits.0) | Self.separators(high) == 0 {
                    return DShortFold(
                        low: Self.lowercased(bits.0),
                        high: Self.lowercased(high),
                        count: UInt8(truncatingIfNeeded: (bits.1 >> 56) & 0x0F)
                    )
                }
            }
        }
        guard text.utf8.count <= 64 else { return nil }
        // A short string's bytes are copied to the stack; a longer one's read in place.
        var copy = text
        return copy.withUTF8 { bytes -> DShortFold? in
            var packed = Packing()
            for b in bytes {
                guard b < 0x80 else { return nil }
                if dropSeparators, DFold.isSeparator(b) { continue }
                guard packed.append(b &- 0x41 < 26 ? b | 0x20 : b) else { return nil }
            }
            return packed.form
        }
    }

    /// The ASCII bytes of `word` (every byte below 0x80) with `A`–`Z` lower-cased: the high
    /// bit of `byte + 0x3F` is set from `A` up and that of `byte + 0x25` from `[` up (no sum
    /// carries into the next byte), so their difference marks the capitals, and each mark
    /// shifted to 0x20 is the bit that lower-cases its letter.
    @inline(__always)
    static func lowercased(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let fromA = (word &+ ones &* 0x3F) & highs
        let fromBracket = (word &+ ones &* 0x25) & highs
        return word | (fromA & ~fromBracket) >> 2
    }

    /// Non-zero when `word` holds a `_` or a `-`.
    @inline(__always)
    static func separators(_ word: UInt64) -> UInt64 {
        bytesEqual(word, to: UInt8(ascii: "_")) | bytesEqual(word, to: UInt8(ascii: "-"))
    }
}

/// How a value is converted.
enum DConversion: Sendable {
    case string
    case text
    case boolean
    case json
    case url(code: Warning.Code, message: DTemplate?)
    case any
}

/// Where a value comes from.
enum DSource: Sendable {
    case path(DPathID)
    case first([DPathID])
    case firstPresent([DPathID])
    case literal(JSONValue)
}

/// A compiled value. The plan's nodes are classes: a run refers to them without copying
/// their fields.
final class DValue: Sendable {
    let source: DSource
    let conversion: DConversion
    let map: DMap?
    let defaultValue: JSONValue?

    init(source: DSource, conversion: DConversion, map: DMap? = nil, defaultValue: JSONValue? = nil) {
        self.source = source
        self.conversion = conversion
        self.map = map
        self.defaultValue = defaultValue
    }
}

/// JSON types for type tests.
enum DJSONType: Sendable, Hashable {
    case string, number, bool, object, array, null
}

/// A compiled predicate: a node of the plan's `predicates` table. Rules refer to predicates,
/// and predicates to their parts, by index, so that evaluating one copies nothing that counts
/// references.
struct DPredicate: Sendable, Hashable {
    var index: Int
    /// Whether the reference is to the node's negation: `not` costs no node of its own.
    var negated = false
    /// The predicate that always holds (the table's first node).
    static let always = DPredicate(index: 0)
}

/// A predicate node answered by the shape of the value at a cached path alone (see
/// ``DefinitionPlan/shapeTests``).
struct DShapeTest: Sendable {
    /// The path whose slot holds the shape.
    var path: DPathID
    /// Bit `s` is set when the node holds for a value of shape `s` (a ``DContext/Shape`` raw
    /// value); zero when the node is not such a test.
    var mask: UInt16

    /// The shape test `node` is, or a zero mask when it is none: another kind of node, or one
    /// whose path is read each time (inside `buttons`, no slot).
    init(_ node: DPredicateNode) {
        let holds: (DContext.Shape) -> Bool
        let path: DPathID
        switch node {
        case .exists(let p):
            path = p
            holds = { $0.exists }
        case .nonEmpty(let p):
            path = p
            holds = { $0.nonEmpty }
        case .isType(let p, let type):
            path = p
            holds = { $0.is(type) }
        default:
            self.init(path: DPathID(index: 0, slot: -1), mask: 0)
            return
        }
        guard path.slot >= 0 else {
            self.init(path: path, mask: 0)
            return
        }
        var mask: UInt16 = 0
        for shape in DContext.Shape.valueShapes where holds(shape) { mask |= 1 << UInt16(shape.rawValue) }
        self.init(path: path, mask: mask)
    }

    init(path: DPathID, mask: UInt16) {
        self.path = path
        self.mask = mask
    }
}

/// A node of the predicate table. Literals, strings and parts are ranges of the plan's
/// `literals`, `strings` and `parts` tables.
enum DPredicateNode: Sendable, Hashable {
    case exists(DPathID)
    case nonEmpty(DPathID)
    case isType(DPathID, DJSONType)
    case isTrue(DPathID)
    case equals(DPathID, literal: Int, DMatch)
    case oneOf(DPathID, literals: Range<Int>, DMatch)
    case anyKeyHasPrefix(DPathID, prefix: Int)
    case hasScheme(DPathID, schemes: Range<Int>)
    case origin(InputEvent.NotificationOrigin)
    case all(Range<Int>)
    case any(Range<Int>)
    case always
}

/// The tables the predicates index.
struct DPredicateTables: Sendable {
    var nodes: [DPredicateNode] = [.always]
    var literals: [DLiteral] = []
    var strings: [String] = []
    var parts: [DPredicate] = []
    /// For each node, how many rules and predicates refer to it (a definition that repeats a
    /// condition gets one node), and whether it reads from inside `buttons`.
    var uses: [Int] = [0]
    var insideButtons: [Bool] = [false]
}

/// A message template.
struct DTemplate: Sendable {
    enum Filter: Sendable { case raw, quoted, type }
    enum Subject: Sendable {
        case path(DPath)
        case key
        case clause
        case value
    }
    enum Part: Sendable {
        case text(String)
        case insert(Subject, Filter)
    }
    var parts: [Part]
}

/// A warning a rule raises.
struct DWarning: Sendable {
    var code: Warning.Code
    var message: DTemplate
}

/// A reject rule.
final class DReject: Sendable {
    let when: DPredicate
    let code: NormalizationError.Code
    let at: DPath?
    let message: DTemplate

    init(when: DPredicate, code: NormalizationError.Code, at: DPath?, message: DTemplate) {
        self.when = when
        self.code = code
        self.at = at
        self.message = message
    }
}

/// A trigger rule.
final class DTriggerRule: Sendable {
    enum Kind: Sendable {
        case tap, dismiss, open, action
        case button(id: DValue, label: DValue?)
    }
    let when: DPredicate?
    let kind: Kind

    init(when: DPredicate?, kind: Kind) {
        self.when = when
        self.kind = kind
    }
}

/// What `ifAbsent` says.
enum DIfAbsent: Sendable {
    case next, app, none
}

/// A destination rule.
final class DDestinationRule: Sendable {
    /// What the compiler reads a rule into.
    enum Spec {
        case url(DValue, target: DValue?, fixedTarget: URLTarget)
        case screen(DValue, parameters: [(name: String, value: DValue)], url: DValue?)
        case clickAction(DValue)
        case button
        case app
        case none
    }
    /// What the rule gives. The values are fields of their own rather than an enum's payloads:
    /// an enum whose cases each hold a class packs its case into the pointers' spare bits, and
    /// a plan that lives as long as the process (the built-in definitions) would then hold
    /// pointers a leak checker cannot follow.
    enum Kind: Sendable {
        case url, screen, clickAction, button, app, none
    }
    let when: DPredicate?
    let kind: Kind
    /// The URL, the screen name or the click action.
    let value: DValue?
    /// The URL's target, read from the input (`url` rules).
    let target: DValue?
    /// The URL's target when `target` gives none.
    let fixedTarget: URLTarget
    /// The screen's parameters.
    let parameters: [(name: String, value: DValue)]
    /// The screen's URL.
    let screenURL: DValue?
    let ifAbsent: DIfAbsent
    let missing: DWarning?
    let empty: DWarning?
    let wrongType: DWarning?
    let warn: DWarning?
    let behavior: VendorBehavior?

    init(
        when: DPredicate?,
        spec: Spec,
        ifAbsent: DIfAbsent,
        missing: DWarning?,
        empty: DWarning?,
        wrongType: DWarning?,
        warn: DWarning?,
        behavior: VendorBehavior?
    ) {
        self.when = when
        switch spec {
        case .url(let value, let target, let fixedTarget):
            (kind, self.value, self.target, self.fixedTarget) = (.url, value, target, fixedTarget)
            (parameters, screenURL) = ([], nil)
        case .screen(let value, let parameters, let url):
            (kind, self.value, target, fixedTarget) = (.screen, value, nil, .app)
            (self.parameters, screenURL) = (parameters, url)
        case .clickAction(let value):
            (kind, self.value, target, fixedTarget, parameters, screenURL) = (.clickAction, value, nil, .app, [], nil)
        case .button:
            (kind, value, target, fixedTarget, parameters, screenURL) = (.button, nil, nil, .app, [], nil)
        case .app:
            (kind, value, target, fixedTarget, parameters, screenURL) = (.app, nil, nil, .app, [], nil)
        case .none:
            (kind, value, target, fixedTarget, parameters, screenURL) = (.none, nil, nil, .app, [], nil)
        }
        self.ifAbsent = ifAbsent
        self.missing = missing
        self.empty = empty
        self.wrongType = wrongType
        self.warn = warn
        self.behavior = behavior
    }
}

/// A behaviour rule.
struct DBehaviorRule: Sendable {
    var when: DPredicate?
    var behavior: VendorBehavior
}

/// The buttons: a class, so that a run reads the spec where the plan keeps it (a struct
/// read out of the plan retains and releases each of its references).
final class DButtons: Sendable {
    let from: DPath
    let id: DValue?
    let label: DValue?
    let destination: DDestinationRules

    init(from: DPath, id: DValue?, label: DValue?, destination: DDestinationRules) {
        self.from = from
        self.id = id
        self.label = label
        self.destination = destination
    }
}

/// Ordered destination rules, with each rule's `when` kept as plain data so that trying the
/// rules counts no references; a rule itself is read only when it applies.
struct DDestinationRules: Sendable {
    let rules: [DDestinationRule]
    let whens: [DPredicate?]

    init(_ rules: [DDestinationRule]) {
        self.rules = rules
        self.whens = rules.map(\.when)
    }
}

/// A payload case's handling.
struct DPayloadCase: Sendable {
    var keepAs: String?
    var warn: DWarning?
    var reject: (code: NormalizationError.Code, message: DTemplate)?
}

/// The payload projection.
final class DPayload: Sendable {
    let from: DPath?
    /// The keys left out (compared by length and bytes: most keys differ in length).
    let without: SmallStringSet
    /// The key prefixes left out (a small ASCII key compared by its words).
    let withoutPrefixes: KeyPrefixSet
    let inPlace: DPayloadCase
    let text: DPayloadCase
    let broken: DPayloadCase
    let tooDeep: DPayloadCase
    let wrongType: DPayloadCase

    init(
        from: DPath?,
        without: Set<String>,
        withoutPrefixes: [String],
        inPlace: DPayloadCase,
        text: DPayloadCase,
        broken: DPayloadCase,
        tooDeep: DPayloadCase,
        wrongType: DPayloadCase
    ) {
        self.from = from
        self.without = SmallStringSet(without)
        self.withoutPrefixes = KeyPrefixSet(withoutPrefixes)
        self.inPlace = inPlace
        self.text = text
        self.broken = broken
        self.tooDeep = tooDeep
        self.wrongType = wrongType
    }
}

/// A soft warning rule.
struct DWarningRule: Sendable {
    var when: DPredicate
    var warning: DWarning
}
