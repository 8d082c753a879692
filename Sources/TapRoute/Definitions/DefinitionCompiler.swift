/// Compiles a definition document into a ``DefinitionPlan``, collecting every mistake as a
/// ``ConfigurationError`` with the key path inside the definition.
struct DefinitionCompiler {
    typealias KeyPath = ConfigurationError.KeyPath

    static let topLevelKeys = [
        "version", "id", "summary", "reads", "channel", "recognize", "values", "reject", "trigger", "buttons",
        "destination", "behavior", "messageId", "payload", "tracking", "warnings", "encode",
    ]
    static let builtInReferences = ["action", "url", "key"]

    var errors = ConfigurationErrorList()
    /// The named values, by name, with their index.
    var names: [String: Int] = [:]
    /// Whether paths may refer to named values (not inside a named value).
    var namedAllowed = true
    /// Whether `@key` and relative paths are allowed (inside `buttons`).
    var insideButtons = false
    /// The list searches (`[field=…]`) and JSON decodings so far, each bounded.
    var findSteps = 0
    var decodings = 0
    /// Whether the predicate being compiled is `recognize`, which decodes nothing.
    var inRecognize = false
    /// The named values that decode JSON, by index.
    var decodingNames: Set<Int> = []
    /// The interned paths of predicates and values (the plan's `paths`), each once per
    /// context: the same text reads from another base inside `buttons`.
    var pathTable: [DPath] = []
    var pathIDs: [InternedPath: DPathID] = Dictionary(minimumCapacity: 128)
    /// How many interned paths a run caches.
    var cachedPaths = 0
    /// Each path text parsed so far, under what its parse depends on, as an index into
    /// `parsedList`: a definition reads the same paths in many rules, and each text is parsed
    /// and interned once.
    var parsedPaths: [ParsedPathKey: Int] = Dictionary(minimumCapacity: 128)
    /// The parsed paths, each with its interned id once it has one.
    var parsedList: [(path: DPath, id: DPathID?)] = []
    /// Whether a path compiled now reads the values it finds, not only their kind or keys
    /// (``DPath/mayReachAlertText``): false for `exists`, the `is…` tests, `anyKeyHasPrefix`,
    /// a reject's `at` and the `encode` section.
    var pathUseReadsValues = true
    /// Whether a run may read the text of a notification's alert (`aps.alert`'s strings):
    /// set by a value-reading path that may reach it and by a payload that keeps `aps`.
    var readsAlertText = false

    struct ParsedPathKey: Hashable {
        var text: String
        var namedAllowed: Bool
        var insideButtons: Bool
        /// How many named values there are: names are only ever added, so the count says
        /// which are known.
        var names: Int
    }
    /// The predicates compiled so far and their literals, strings and parts.
    var tables = DPredicateTables()

    /// The nodes and lists added so far, so that a repeated condition is one node.
    /// (Sized for a large definition up front: growing a table rehashes every key.)
    var nodeIDs: [NodeKey: DPredicate] = Dictionary(minimumCapacity: 128)
    var literalLists: [[DLiteral]: Range<Int>] = Dictionary(minimumCapacity: 32)
    var stringLists: [[String]: Range<Int>] = Dictionary(minimumCapacity: 32)
    var partLists: [[DPredicate]: Range<Int>] = Dictionary(minimumCapacity: 32)

    struct NodeKey: Hashable {
        var node: DPredicateNode
        var insideButtons: Bool
    }

    /// Adds a predicate node to the table, or counts another use of the same node.
    mutating func add(_ node: DPredicateNode) -> DPredicate {
        let key = NodeKey(node: node, insideButtons: insideButtons)
        if let id = nodeIDs[key] {
            tables.uses[id.index] += 1
            return id
        }
        tables.nodes.append(node)
        tables.uses.append(1)
        tables.insideButtons.append(insideButtons)
        let id = DPredicate(index: tables.nodes.count - 1)
        nodeIDs[key] = id
        return id
    }

    /// The range of `table` holding `items`, appended the first time that list is seen.
    static func intern<T: Hashable>(_ items: [T], in table: inout [T], seen: inout [[T]: Range<Int>]) -> Range<Int> {
        if let range = seen[items] { return range }
        let range = table.count..<table.count + items.count
        table += items
        seen[items] = range
        return range
    }

    mutating func intern(literals: [DLiteral]) -> Range<Int> {
        Self.intern(literals, in: &tables.literals, seen: &literalLists)
    }

    mutating func intern(strings: [String]) -> Range<Int> {
        Self.intern(strings, in: &tables.strings, seen: &stringLists)
    }

    mutating func intern(parts: [DPredicate]) -> Range<Int> {
        Self.intern(parts, in: &tables.parts, seen: &partLists)
    }

    struct InternedPath: Hashable {
        var path: DPath
        var insideButtons: Bool
    }

    /// Compiles `json`; `nil` when an error was found (the errors are in `errors`).
    static func compile(_ json: JSONValue, errors: inout ConfigurationErrorList) -> (id: String, summary: String, plan: DefinitionPlan)? {
        if let error = checkBounds(json) {
            errors.append(error)
            return nil
        }
        var compiler = DefinitionCompiler()
        let result = compiler.document(json)
        errors.list += compiler.errors.list
        return compiler.errors.list.isEmpty ? result : nil
    }

    /// The document's depth and node count, checked without recursion.
    static func checkBounds(_ json: JSONValue) -> ConfigurationError? {
        var stack: [(JSONValue, Int)] = []
        stack.reserveCapacity(256)
        stack.append((json, 1))
        var nodes = 0
        while let (value, depth) = stack.popLast() {
            nodes += 1
            if nodes > DefinitionBounds.maxNodes {
                return ConfigurationError(
                    "the definition has more than \(DefinitionBounds.maxNodes) nodes",
                    kind: .limitExceeded
                )
            }
            if depth > DefinitionBounds.maxDocumentDepth {
                return ConfigurationError(
                    "the definition nests deeper than \(DefinitionBounds.maxDocumentDepth) levels",
                    kind: .limitExceeded
                )
            }
            switch value {
            case .array(let a): for v in a { stack.append((v, depth + 1)) }
            case .object(let o): for (_, v) in o { stack.append((v, depth + 1)) }
            default: break
            }
        }
        return nil
    }

    // MARK: - Helpers

    mutating func fail(_ message: String, _ kind: ConfigurationError.Kind = .invalidValue, at path: KeyPath, aboutKey: Bool = false) {
        errors.append(ConfigurationError(message, kind: kind, at: path, isAboutKey: aboutKey))
    }

    mutating func mismatch(_ expected: String, _ value: JSONValue, at path: KeyPath) {
        fail("expected \(expected), got \(value.typeDescription)", .typeMismatch, at: path)
    }

    /// The value as an object whose keys are all in `allowed`; unknown keys are reported.
    mutating func object(_ value: JSONValue, allowed: [String], at path: KeyPath) -> JSONObject? {
        guard case .object(let o) = value else {
            mismatch("a mapping", value, at: path)
            return nil
        }
        errors.append(ConfigurationReader(value, at: path).unknownKeys(in: o, allowedKeys: allowed))
        return o
    }

    mutating func string(_ value: JSONValue, at path: KeyPath) -> String? {
        guard case .string(let s) = value else {
            mismatch("a string", value, at: path)
            return nil
        }
        if s.utf8.count > DefinitionBounds.maxTextBytes {
            fail("longer than \(DefinitionBounds.maxTextBytes) bytes", .limitExceeded, at: path)
            return nil
        }
        return s
    }

    mutating func list(_ value: JSONValue, at path: KeyPath) -> [(JSONValue, KeyPath)]? {
        guard case .array(let a) = value else {
            mismatch("a list", value, at: path)
            return nil
        }
        if a.count > DefinitionBounds.maxListLength {
            fail("a list of \(a.count) entries; at most \(DefinitionBounds.maxListLength)", .limitExceeded, at: path)
            return nil
        }
        return a.enumerated().map { ($0.element, path.appending($0.offset)) }
    }

    mutating func bool(_ value: JSONValue, at path: KeyPath) -> Bool? {
        guard case .bool(let b) = value else {
            mismatch("true or false", value, at: path)
            return nil
        }
        return b
    }

    mutating func oneOf<T: RawRepresentable<String>>(_ value: JSONValue, _ type: T.Type, names: [String], at path: KeyPath) -> T? {
        guard let s = string(value, at: path) else { return nil }
        guard let v = T(rawValue: s) else {
            var message = "'\(s)' is not one of: \(names.joined(separator: ", "))"
            if let close = ConfigurationReader.closest(to: s, in: names) { message += "; did you mean '\(close)'?" }
            fail(message, at: path)
            return nil
        }
        return v
    }

    /// The only key of a one-key mapping among `allowed` (`{exists: …}`).
    mutating func singleKey(_ value: JSONValue, allowed: [String], what: String, at path: KeyPath) -> (String, JSONValue)? {
        guard case .object(let o) = value else {
            mismatch("a mapping with one key (\(what))", value, at: path)
            return nil
        }
        guard o.count == 1, let (key, inner) = o.first(where: { _ in true }) else {
            fail("expected a mapping with exactly one key (\(what)), got \(o.count) keys", at: path)
            return nil
        }
        guard allowed.contains(key) else {
            var message = "unknown \(what) '\(key)'; expected one of: \(allowed.joined(separator: ", "))"
            if let close = ConfigurationReader.closest(to: key, in: allowed) { message += "; did you mean '\(close)'?" }
            fail(message, .unknownKey, at: path.appending(key), aboutKey: true)
            return nil
        }
        return (key, inner)
    }

    // MARK: - The document

    mutating func document(_ json: JSONValue) -> (id: String, summary: String, plan: DefinitionPlan)? {
        let root: KeyPath = []
        guard let doc = object(json, allowed: Self.topLevelKeys, at: root) else { return nil }
        if let v = doc["version"] {
            if case .number(let n) = v, n.intValue == 1 {
            } else {
                fail("the format version must be 1", at: ["version"])
            }
        }
        var id = ""
        if let v = doc["id"] {
            if let s = string(v, at: ["id"]) {
                let valid =
                    !s.isEmpty
                    && s.utf8.allSatisfy {
                        ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x5F
                    }
                if valid { id = s } else { fail("'\(s)' is not an adapter id (letters, digits, '-' and '_')", at: ["id"]) }
            }
        } else {
            fail("missing required key 'id'", .missingKey, at: root)
        }
        var summary = ""
        if let v = doc["summary"] {
            summary = string(v, at: ["summary"]) ?? ""
        } else {
            fail("missing required key 'summary'", .missingKey, at: root)
        }
        var reads: Set<InputKindName> = []
        if let v = doc["reads"] {
            for (element, path) in list(v, at: ["reads"]) ?? [] {
                if let kind = oneOf(element, InputKindName.self, names: InputKindName.allCases.map(\.rawValue), at: path) {
                    reads.insert(kind)
                }
            }
            if case .array(let a) = v, a.isEmpty { fail("reads must name at least one input kind", at: ["reads"]) }
        } else {
            fail("missing required key 'reads'", .missingKey, at: root)
        }
        var channel = ChannelRule.byKind
        if let v = doc["channel"] {
            let names = Channel.allCases.map(\.rawValue) + ["origin"]
            if let s = string(v, at: ["channel"]) {
                if s == "origin" {
                    channel = .origin
                } else if let c = Channel(rawValue: s) {
                    channel = .fixed(c)
                } else {
                    var message = "'\(s)' is not one of: \(names.joined(separator: ", "))"
                    if let close = ConfigurationReader.closest(to: s, in: names) { message += "; did you mean '\(close)'?" }
                    fail(message, at: ["channel"])
                }
            }
        }
        // Named values first: everything else may refer to them.
        var named: [DValue] = []
        if let v = doc["values"], let o = anyMapping(v, at: ["values"]) {
            namedAllowed = false
            for (name, value) in o {
                let path: KeyPath = ["values", .key(name)]
                if Self.builtInReferences.contains(name) || !isName(name) {
                    fail("'\(name)' cannot name a value (letters, digits and '_'; not action, url or key)", at: path, aboutKey: true)
                    continue
                }
                if let compiled = self.value(value, at: path) {
                    if case .json = compiled.conversion { decodingNames.insert(named.count) }
                    names[name] = named.count
                    named.append(compiled)
                }
            }
            namedAllowed = true
        }
        var recognize = DPredicate.always
        if let v = doc["recognize"] {
            inRecognize = true
            recognize = predicate(v, at: ["recognize"], depth: 1) ?? .always
            inRecognize = false
        } else {
            fail("missing required key 'recognize'", .missingKey, at: root)
        }
        var reject: [DReject] = []
        if let v = doc["reject"] {
            for (element, path) in list(v, at: ["reject"]) ?? [] {
                if let r = rejectRule(element, at: path) { reject.append(r) }
            }
        }
        var trigger: [DTriggerRule]?
        if let v = doc["trigger"] {
            trigger = []
            for (element, path) in list(v, at: ["trigger"]) ?? [] {
                if let r = triggerRule(element, at: path) { trigger?.append(r) }
            }
        }
        var buttons: DButtons?
        if let v = doc["buttons"] { buttons = self.buttons(v, at: ["buttons"]) }
        var destination: [DDestinationRule] = []
        if let v = doc["destination"] { destination = destinationRules(v, at: ["destination"]) }
        var behavior: [DBehaviorRule] = []
        if let v = doc["behavior"] {
            if case .array = v {
                for (element, path) in list(v, at: ["behavior"]) ?? [] {
                    guard let o = object(element, allowed: ["when", "opensURL", "followsEventOverride"], at: path) else { continue }
                    let when = o["when"].flatMap { predicate($0, at: path.appending("when"), depth: 1) }
                    if let b = vendorBehavior(o, at: path) { behavior.append(DBehaviorRule(when: when, behavior: b)) }
                }
            } else if let o = object(v, allowed: ["opensURL", "followsEventOverride"], at: ["behavior"]),
                let b = vendorBehavior(o, at: ["behavior"])
            {
                behavior = [DBehaviorRule(when: nil, behavior: b)]
            }
        }
        var messageId: DValue?
        if let v = doc["messageId"] { messageId = value(v, at: ["messageId"], defaultConversion: .text) }
        var payload: DPayload?
        if let v = doc["payload"] { payload = self.payload(v, at: ["payload"]) }
        var tracking: [(name: String, value: DValue)] = []
        if let v = doc["tracking"], let o = anyMapping(v, at: ["tracking"]) {
            if o.count > DefinitionBounds.maxListLength {
                fail("\(o.count) tracking fields; at most \(DefinitionBounds.maxListLength)", .limitExceeded, at: ["tracking"])
            } else {
                for (name, field) in o {
                    if let compiled = value(field, at: ["tracking", .key(name)], defaultConversion: .any) {
                        tracking.append((name, compiled))
                    }
                }
            }
        }
        var warnings: [DWarningRule] = []
        if let v = doc["warnings"] {
            for (element, path) in list(v, at: ["warnings"]) ?? [] {
                guard let o = object(element, allowed: ["when", "code", "message"], at: path) else { continue }
                let when = required(o, "when", at: path).flatMap { predicate($0, at: path.appending("when"), depth: 1) }
                let warning = self.warning(o, at: path)
                if let when, let warning { warnings.append(DWarningRule(when: when, warning: warning)) }
            }
        }
        var encoding: DEncoding?
        if let v = doc["encode"] {
            // Encoding reads a message, not an input.
            encoding = readingKindsOnly { $0.encoding(v, at: ["encode"]) }
        }
        let plan = DefinitionPlan(
            reads: reads,
            channel: channel,
            recognize: recognize,
            named: named,
            reject: reject,
            trigger: trigger,
            buttons: buttons,
            destination: destination,
            behavior: behavior,
            messageId: messageId,
            payload: payload,
            tracking: tracking,
            warnings: warnings,
            paths: pathTable,
            pathSlots: pathSlots(),
            cachedPaths: cachedPaths,
            tables: tables,
            encoding: encoding,
            readsAlertText: readsAlertText
        )
        return (id, summary, plan)
    }

    /// A mapping whose keys are names the definition chooses (`values`, `tracking`,
    /// `parameters`).
    mutating func anyMapping(_ value: JSONValue, at path: KeyPath) -> JSONObject? {
        guard case .object(let o) = value else {
            mismatch("a mapping", value, at: path)
            return nil
        }
        return o
    }

    func paths(of source: DSource) -> [DPath] {
        switch source {
        case .path(let p): [pathTable[p.index]]
        case .first(let ps), .firstPresent(let ps): ps.map { pathTable[$0.index] }
        case .literal: []
        }
    }

    /// The interned id of a path. A run caches every path read outside `buttons` (its base
    /// is the root or a value fixed for the run); inside `buttons` the base changes from
    /// button to button, so those are read each time.
    mutating func intern(_ path: DPath) -> DPathID {
        let key = InternedPath(path: path, insideButtons: insideButtons)
        if let id = pathIDs[key] { return id }
        var slot = -1
        if !insideButtons {
            slot = cachedPaths
            cachedPaths += 1
        }
        let id = DPathID(index: pathTable.count, slot: slot)
        pathTable.append(path)
        pathIDs[key] = id
        return id
    }

    /// The cache slot of each interned path (`-1`: read each time), by its index in `pathTable`.
    func pathSlots() -> [Int] {
        var slots = [Int](repeating: -1, count: pathTable.count)
        for id in pathIDs.values { slots[id.index] = id.slot }
        return slots
    }

    /// `body`'s result, with the paths it compiles taken as reading no values, only kinds or
    /// keys (``pathUseReadsValues``).
    mutating func readingKindsOnly<T>(_ body: (inout DefinitionCompiler) -> T) -> T {
        let reads = pathUseReadsValues
        pathUseReadsValues = false
        defer { pathUseReadsValues = reads }
        return body(&self)
    }

    /// ``pathID(_:at:)`` for a test of the value's kind or keys, which reads no text.
    mutating func shapePathID(_ value: JSONValue, at keyPath: KeyPath) -> DPathID? {
        readingKindsOnly { $0.pathID(value, at: keyPath) }
    }

    /// Compiles and interns a path string.
    mutating func pathID(_ value: JSONValue, at keyPath: KeyPath) -> DPathID? {
        guard let (path, slot) = parsedPath(value, at: keyPath) else { return nil }
        if let id = parsedList[slot].id { return id }
        let id = intern(path)
        parsedList[slot].id = id
        return id
    }

    func isName(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.count <= 64
            && s.utf8.allSatisfy { ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F }
    }

    mutating func required(_ o: JSONObject, _ key: String, at path: KeyPath) -> JSONValue? {
        guard let v = o[key] else {
            fail("missing required key '\(key)'", .missingKey, at: path)
            return nil
        }
        return v
    }

    mutating func vendorBehavior(_ o: JSONObject, at path: KeyPath) -> VendorBehavior? {
        var b = VendorBehavior(opensURL: false)
        if let v = o["opensURL"] { b.opensURL = bool(v, at: path.appending("opensURL")) ?? false }
        if let v = o["followsEventOverride"] { b.followsEventOverride = bool(v, at: path.appending("followsEventOverride")) ?? true }
        return b
    }

    // MARK: - Paths

    /// Compiles a path string.
    mutating func path(_ value: JSONValue, at keyPath: KeyPath) -> DPath? {
        parsedPath(value, at: keyPath)?.path
    }

    /// Compiles a path string: the path and its index in `parsedList`.
    mutating func parsedPath(_ value: JSONValue, at keyPath: KeyPath) -> (path: DPath, slot: Int)? {
        guard let text = string(value, at: keyPath) else { return nil }
        let key = ParsedPathKey(text: text, namedAllowed: namedAllowed, insideButtons: insideButtons, names: names.count)
        let parsed: Result<(path: DPath, slot: Int), DSyntaxProblem>
        if let slot = parsedPaths[key] {
            parsed = .success((parsedList[slot].path, slot))
        } else {
            parsed = DPathParser.parse(text, names: names, namedAllowed: namedAllowed, insideButtons: insideButtons).map { path in
                parsedList.append((path, nil))
                parsedPaths[key] = parsedList.count - 1
                return (path, parsedList.count - 1)
            }
        }
        switch parsed {
        case .success(let (path, slot)):
            let finds = path.steps.filter { if case .find = $0 { true } else { false } }.count
            if inRecognize, case .reference(.named(let index)) = path.base, decodingNames.contains(index) {
                fail("'\(text)' decodes JSON; recognize must stay cheap and decode nothing", at: keyPath)
                return nil
            }
            if insideButtons, case .reference(.named) = path.base {
                // A named value may search lists or decode JSON: once per button would be
                // quadratic in the input.
                fail("'\(text)': named values are not available inside buttons; read the value with a path", at: keyPath)
                return nil
            }
            if insideButtons, path.base == .root, finds > 0 {
                fail("'\(text)': a path from the root inside buttons cannot search a list (it would run once per button)", at: keyPath)
                return nil
            }
            findSteps += finds
            if findSteps > DefinitionBounds.maxSearches, findSteps - finds <= DefinitionBounds.maxSearches {
                fail("more than \(DefinitionBounds.maxSearches) list searches ([field=…]) in the definition", .limitExceeded, at: keyPath)
                return nil
            }
            if pathUseReadsValues, path.mayReachAlertText { readsAlertText = true }
            return (path, slot)
        case .failure(let problem):
            fail("'\(text)' is not a path: \(problem.message)", at: keyPath)
            return nil
        }
    }

    // MARK: - Values

    mutating func value(_ json: JSONValue, at path: KeyPath, defaultConversion: DConversion = .string) -> DValue? {
        switch json {
        case .string:
            guard let p = self.pathID(json, at: path) else { return nil }
            return DValue(source: .path(p), conversion: defaultConversion)
        case .array:
            guard let paths = pathList(json, at: path) else { return nil }
            return DValue(source: .first(paths), conversion: defaultConversion)
        case .object:
            let allowed = [
                "path", "first", "firstPresent", "literal", "as", "map", "match", "default", "trimmedWarning",
            ]
            guard let o = object(json, allowed: allowed, at: path) else { return nil }
            let sourceKeys = ["path", "first", "firstPresent", "literal"].filter { o[$0] != nil }
            guard sourceKeys.count == 1 else {
                fail(
                    "a value needs exactly one of path, first, firstPresent, literal; got \(sourceKeys.isEmpty ? "none" : sourceKeys.joined(separator: ", "))",
                    sourceKeys.isEmpty ? .missingKey : .invalidValue,
                    at: path
                )
                return nil
            }
            let source: DSource
            switch sourceKeys[0] {
            case "path":
                guard let p = self.pathID(o["path"]!, at: path.appending("path")) else { return nil }
                source = .path(p)
            case "first":
                guard let ps = pathList(o["first"]!, at: path.appending("first")) else { return nil }
                source = .first(ps)
            case "firstPresent":
                guard let ps = pathList(o["firstPresent"]!, at: path.appending("firstPresent")) else { return nil }
                source = .firstPresent(ps)
            default:
                source = .literal(o["literal"]!)
            }
            var conversion = defaultConversion
            if let v = o["as"] {
                let names = ["string", "text", "boolean", "json", "url", "any"]
                if let s = string(v, at: path.appending("as")) {
                    switch s {
                    case "string": conversion = .string
                    case "text": conversion = .text
                    case "boolean": conversion = .boolean
                    case "json":
                        conversion = .json
                        if insideButtons, paths(of: source).contains(where: { $0.base == .root }) {
                            fail(
                                "a value from the root inside buttons cannot be decoded as JSON (it would run once per button)",
                                at: path.appending("as")
                            )
                        }
                        decodings += 1
                        if decodings == DefinitionBounds.maxSearches + 1 {
                            fail(
                                "more than \(DefinitionBounds.maxSearches) JSON decodings in the definition",
                                .limitExceeded,
                                at: path.appending("as")
                            )
                        }
                    case "any": conversion = .any
                    case "url":
                        var code: Warning.Code = "urlTrimmed"
                        var message: DTemplate?
                        if let w = o["trimmedWarning"],
                            let ow = object(w, allowed: ["code", "message"], at: path.appending("trimmedWarning")),
                            let warning = warning(ow, at: path.appending("trimmedWarning"))
                        {
                            code = warning.code
                            message = warning.message
                        }
                        conversion = .url(code: code, message: message)
                    default:
                        var message = "'\(s)' is not a conversion; expected one of: \(names.joined(separator: ", "))"
                        if let close = ConfigurationReader.closest(to: s, in: names) { message += "; did you mean '\(close)'?" }
                        fail(message, at: path.appending("as"))
                    }
                }
            } else if o["trimmedWarning"] != nil {
                fail("trimmedWarning applies only with as: url", at: path.appending("trimmedWarning"))
            }
            var match = DMatch.exact
            if let v = o["match"],
                let m = oneOf(v, DMatch.self, names: ["exact", "case", "caseAndSeparators"], at: path.appending("match"))
            {
                match = m
            }
            var map: DMap?
            if let v = o["map"] {
                map = self.map(v, match: match, at: path.appending("map"))
            } else if o["match"] != nil {
                fail("match applies only with map", at: path.appending("match"))
            }
            return DValue(source: source, conversion: conversion, map: map, defaultValue: o["default"])
        default:
            mismatch("a path, a list of paths or a mapping", json, at: path)
            return nil
        }
    }

    mutating func pathList(_ json: JSONValue, at path: KeyPath) -> [DPathID]? {
        guard let elements = list(json, at: path) else { return nil }
        if elements.isEmpty {
            fail("expected at least one path", at: path)
            return nil
        }
        var out: [DPathID] = []
        for (e, p) in elements {
            if let compiled = self.pathID(e, at: p) { out.append(compiled) }
        }
        return out.count == elements.count ? out : nil
    }

    mutating func map(_ json: JSONValue, match: DMatch, at path: KeyPath) -> DMap? {
        guard case .object(let o) = json else {
            mismatch("a mapping of canonical values to lists of spellings", json, at: path)
            return nil
        }
        var entries: [(folded: String, short: DShortFold?, canonical: String)] = []
        for (canonical, spellings) in o {
            for (s, p) in list(spellings, at: path.appending(canonical)) ?? [] {
                guard let text = string(s, at: p) else { continue }
                let folded = String(decoding: DFold.fold(text, match), as: UTF8.self)
                if entries.contains(where: { $0.folded == folded && $0.canonical != canonical }) {
                    fail("'\(text)' is already a spelling of another value", at: p)
                }
                entries.append((folded, DShortFold(folded: folded), canonical))
            }
        }
        if entries.count > DefinitionBounds.maxListLength * 4 {
            fail("more than \(DefinitionBounds.maxListLength * 4) spellings", .limitExceeded, at: path)
            return nil
        }
        return DMap(match: match, entries: entries)
    }

    // MARK: - Predicates

    static let predicateNames = [
        "exists", "nonEmpty", "isString", "isNumber", "isBool", "isObject", "isArray", "isNull", "isTrue", "equals", "oneOf",
        "anyKeyHasPrefix", "hasScheme", "all", "any", "not", "origin",
    ]

    mutating func predicate(_ json: JSONValue, at path: KeyPath, depth: Int) -> DPredicate? {
        if depth > DefinitionBounds.maxPredicateDepth {
            fail("predicates nest deeper than \(DefinitionBounds.maxPredicateDepth) levels", .limitExceeded, at: path)
            return nil
        }
        guard let (op, operand) = singleKey(json, allowed: Self.predicateNames, what: "predicate", at: path) else { return nil }
        let inner = path.appending(op)
        switch op {
        case "exists": return shapePathID(operand, at: inner).map { add(.exists($0)) }
        case "nonEmpty": return self.pathID(operand, at: inner).map { add(.nonEmpty($0)) }
        case "isTrue": return self.pathID(operand, at: inner).map { add(.isTrue($0)) }
        case "isString": return shapePathID(operand, at: inner).map { add(.isType($0, .string)) }
        case "isNumber": return shapePathID(operand, at: inner).map { add(.isType($0, .number)) }
        case "isBool": return shapePathID(operand, at: inner).map { add(.isType($0, .bool)) }
        case "isObject": return shapePathID(operand, at: inner).map { add(.isType($0, .object)) }
        case "isArray": return shapePathID(operand, at: inner).map { add(.isType($0, .array)) }
        case "isNull": return shapePathID(operand, at: inner).map { add(.isType($0, .null)) }
        case "equals":
            guard let o = object(operand, allowed: ["path", "to", "match"], at: inner) else { return nil }
            let p = required(o, "path", at: inner).flatMap { self.pathID($0, at: inner.appending("path")) }
            let match =
                o["match"].flatMap { oneOf($0, DMatch.self, names: ["exact", "case", "caseAndSeparators"], at: inner.appending("match")) }
                ?? .exact
            let to = required(o, "to", at: inner).flatMap { literal($0, match: match, at: inner.appending("to")) }
            guard let p, let to else { return nil }
            return add(.equals(p, literal: intern(literals: [to]).lowerBound, match))
        case "oneOf":
            guard let o = object(operand, allowed: ["path", "values", "match"], at: inner) else { return nil }
            let p = required(o, "path", at: inner).flatMap { self.pathID($0, at: inner.appending("path")) }
            let match =
                o["match"].flatMap { oneOf($0, DMatch.self, names: ["exact", "case", "caseAndSeparators"], at: inner.appending("match")) }
                ?? .exact
            var literals: [DLiteral] = []
            var ok = true
            if let vs = required(o, "values", at: inner) {
                for (v, vp) in list(vs, at: inner.appending("values")) ?? [] {
                    if let l = literal(v, match: match, at: vp) { literals.append(l) } else { ok = false }
                }
            }
            guard let p, ok else { return nil }
            return add(.oneOf(p, literals: intern(literals: literals), match))
        case "anyKeyHasPrefix":
            guard let o = object(operand, allowed: ["path", "prefix"], at: inner) else { return nil }
            let p =
                o["path"].map { shapePathID($0, at: inner.appending("path")) }
                ?? intern(DPath(base: .current, steps: [], display: "", lastKey: nil))
            let prefix = required(o, "prefix", at: inner).flatMap { string($0, at: inner.appending("prefix")) }
            guard let p, let prefix else { return nil }
            return add(.anyKeyHasPrefix(p, prefix: intern(strings: [prefix]).lowerBound))
        case "hasScheme":
            guard let o = object(operand, allowed: ["path", "schemes"], at: inner) else { return nil }
            let p = required(o, "path", at: inner).flatMap { self.pathID($0, at: inner.appending("path")) }
            var schemes: [String] = []
            for (s, sp) in (required(o, "schemes", at: inner).flatMap { list($0, at: inner.appending("schemes")) }) ?? [] {
                guard let text = string(s, at: sp) else { continue }
                if URLParts.isSchemeName(text) { schemes.append(text.lowercased()) } else { fail("'\(text)' is not a URL scheme", at: sp) }
            }
            guard let p else { return nil }
            return add(.hasScheme(p, schemes: intern(strings: schemes)))
        case "origin":
            guard let s = string(operand, at: inner) else { return nil }
            guard let origin = InputEvent.NotificationOrigin(rawValue: s) else {
                fail("'\(s)' is not one of: remote, local", at: inner)
                return nil
            }
            return add(.origin(origin))
        case "not":
            return predicate(operand, at: inner, depth: depth + 1).map { DPredicate(index: $0.index, negated: !$0.negated) }
        default:  // all, any
            var parts: [DPredicate] = []
            var ok = true
            for (e, p) in list(operand, at: inner) ?? [] {
                if let c = predicate(e, at: p, depth: depth + 1) { parts.append(c) } else { ok = false }
            }
            guard ok else { return nil }
            let range = intern(parts: parts)
            return add(op == "all" ? .all(range) : .any(range))
        }
    }

    mutating func literal(_ json: JSONValue, match: DMatch, at path: KeyPath) -> DLiteral? {
        switch json {
        case .string(let s):
            guard s.utf8.count <= DefinitionBounds.maxTextBytes else {
                fail("longer than \(DefinitionBounds.maxTextBytes) bytes", .limitExceeded, at: path)
                return nil
            }
            return DLiteral(value: json, folded: String(decoding: DFold.fold(s, match), as: UTF8.self))
        case .number, .bool, .null:
            return DLiteral(value: json, folded: "")
        default:
            mismatch("a string, number, Boolean or null", json, at: path)
            return nil
        }
    }

    // MARK: - Messages

    mutating func template(_ json: JSONValue, at path: KeyPath) -> DTemplate? {
        guard let text = string(json, at: path) else { return nil }
        switch DTemplateParser.parse(text, names: names, insideButtons: insideButtons) {
        case .success(let t):
            // A path's text in a message is read; its type (`|type`) is its kind only.
            for case .insert(.path(let p), let filter) in t.parts where pathUseReadsValues && filter != .type && p.mayReachAlertText {
                readsAlertText = true
            }
            return t
        case .failure(let problem):
            fail("'\(text)' is not a message template: \(problem.message)", at: path)
            return nil
        }
    }

    mutating func warning(_ o: JSONObject, at path: KeyPath) -> DWarning? {
        let code = required(o, "code", at: path).flatMap { string($0, at: path.appending("code")) }
        if let code, !isName(code) { fail("'\(code)' is not a warning code (letters, digits and '_')", at: path.appending("code")) }
        let message = required(o, "message", at: path).flatMap { template($0, at: path.appending("message")) }
        guard let code, isName(code), let message else { return nil }
        return DWarning(code: Warning.Code(rawValue: code), message: message)
    }

    mutating func warningObject(_ json: JSONValue, at path: KeyPath) -> DWarning? {
        guard let o = object(json, allowed: ["code", "message"], at: path) else { return nil }
        return warning(o, at: path)
    }

    mutating func errorCode(_ json: JSONValue, at path: KeyPath) -> NormalizationError.Code? {
        guard let s = string(json, at: path) else { return nil }
        switch s {
        case "invalidPayload": return .invalidPayload
        case "notAnInteraction": return .notAnInteraction
        default:
            var message = "'\(s)' is not an error a definition raises; expected one of: invalidPayload, notAnInteraction"
            if let close = ConfigurationReader.closest(to: s, in: ["invalidPayload", "notAnInteraction"]) {
                message += "; did you mean '\(close)'?"
            }
            fail(message, at: path)
            return nil
        }
    }

    // MARK: - Rules

    mutating func rejectRule(_ json: JSONValue, at path: KeyPath) -> DReject? {
        guard let o = object(json, allowed: ["when", "error", "at", "message"], at: path) else { return nil }
        let when = required(o, "when", at: path).flatMap { predicate($0, at: path.appending("when"), depth: 1) }
        let code = required(o, "error", at: path).flatMap { errorCode($0, at: path.appending("error")) }
        var at: DPath?
        var atOK = true
        if let v = o["at"] {
            // Named in the error only: nothing is read there.
            at = readingKindsOnly { $0.path(v, at: path.appending("at")) }
            atOK = at != nil
        }
        let message = required(o, "message", at: path).flatMap { template($0, at: path.appending("message")) }
        guard let when, let code, atOK, let message else { return nil }
        return DReject(when: when, code: code, at: at, message: message)
    }

    mutating func ruleParts(
        _ json: JSONValue,
        kinds: [String],
        extra: [String],
        what: String,
        at path: KeyPath
    ) -> (kind: String, operand: JSONValue, object: JSONObject, when: DPredicate?, ok: Bool)? {
        if case .string(let s) = json {
            guard kinds.contains(s) else {
                var message = "unknown \(what) '\(s)'; expected one of: \(kinds.joined(separator: ", "))"
                if let close = ConfigurationReader.closest(to: s, in: kinds) { message += "; did you mean '\(close)'?" }
                fail(message, at: path)
                return nil
            }
            return (s, .bool(true), [:], nil, true)
        }
        guard let o = object(json, allowed: ["when"] + kinds + extra, at: path) else { return nil }
        let present = kinds.filter { o[$0] != nil }
        guard present.count == 1 else {
            fail(
                "a \(what) needs exactly one of: \(kinds.joined(separator: ", "))"
                    + (present.isEmpty ? "" : "; got \(present.joined(separator: ", "))"),
                present.isEmpty ? .missingKey : .invalidValue,
                at: path
            )
            return nil
        }
        var ok = true
        var when: DPredicate?
        if let w = o["when"] {
            when = predicate(w, at: path.appending("when"), depth: 1)
            ok = when != nil
        }
        return (present[0], o[present[0]]!, o, when, ok)
    }

    mutating func flag(_ json: JSONValue, at path: KeyPath) -> Bool {
        if case .bool(true) = json { return true }
        if case .object(let o) = json, o.isEmpty { return true }
        fail("expected true", at: path)
        return false
    }

    mutating func triggerRule(_ json: JSONValue, at path: KeyPath) -> DTriggerRule? {
        let kinds = ["tap", "dismiss", "open", "action", "button"]
        guard let parts = ruleParts(json, kinds: kinds, extra: [], what: "trigger rule", at: path) else { return nil }
        let inner = path.appending(parts.kind)
        let kind: DTriggerRule.Kind
        switch parts.kind {
        case "button":
            guard let o = object(parts.operand, allowed: ["id", "label"], at: inner) else { return nil }
            guard let idJSON = required(o, "id", at: inner), let id = value(idJSON, at: inner.appending("id"), defaultConversion: .text)
            else {
                return nil
            }
            var label: DValue?
            if let l = o["label"] {
                label = value(l, at: inner.appending("label"))
                if label == nil { return nil }
            }
            kind = .button(id: id, label: label)
        default:
            if case .object = json, !flag(parts.operand, at: inner) { return nil }
            kind =
                switch parts.kind {
                case "tap": .tap
                case "dismiss": .dismiss
                case "open": .open
                default: .action
                }
        }
        guard parts.ok else { return nil }
        return DTriggerRule(when: parts.when, kind: kind)
    }

    mutating func destinationRules(_ json: JSONValue, at path: KeyPath) -> [DDestinationRule] {
        var out: [DDestinationRule] = []
        for (element, p) in list(json, at: path) ?? [] {
            if let r = destinationRule(element, at: p) { out.append(r) }
        }
        return out
    }

    mutating func destinationRule(_ json: JSONValue, at path: KeyPath) -> DDestinationRule? {
        let kinds = ["url", "inAppBrowser", "screen", "clickAction", "button", "app", "none"]
        let extra = ["target", "parameters", "screenURL", "ifAbsent", "problems", "warn", "behavior"]
        guard let parts = ruleParts(json, kinds: kinds, extra: extra, what: "destination rule", at: path) else { return nil }
        let o = parts.object
        let inner = path.appending(parts.kind)
        var ok = parts.ok
        for key in ["target"] where o[key] != nil && parts.kind != "url" {
            fail("\(key) applies only to a url rule", at: path.appending(key))
            ok = false
        }
        for key in ["parameters", "screenURL"] where o[key] != nil && parts.kind != "screen" {
            fail("\(key) applies only to a screen rule", at: path.appending(key))
            ok = false
        }
        let kind: DDestinationRule.Spec
        switch parts.kind {
        case "url", "inAppBrowser":
            guard let v = value(parts.operand, at: inner) else { return nil }
            var target: DValue?
            var fixed = parts.kind == "url" ? URLTarget.external : .inAppBrowser
            if let t = o["target"] {
                if case .string(let s) = t {
                    if let parsed = URLTarget(rawValue: s) {
                        fixed = parsed
                    } else {
                        fail("'\(s)' is not a URL target; expected one of: app, external, inAppBrowser", at: path.appending("target"))
                        ok = false
                    }
                } else if let compiled = value(t, at: path.appending("target")) {
                    if let map = compiled.map {
                        for entry in map.entries where URLTarget(rawValue: entry.canonical) == nil {
                            fail(
                                "'\(entry.canonical)' is not a URL target; expected one of: app, external, inAppBrowser",
                                at: path.appending("target").appending("map").appending(entry.canonical),
                                aboutKey: true
                            )
                            ok = false
                            break
                        }
                    }
                    target = compiled
                } else {
                    ok = false
                }
            }
            kind = .url(v, target: target, fixedTarget: fixed)
        case "screen":
            guard let v = value(parts.operand, at: inner) else { return nil }
            var parameters: [(name: String, value: DValue)] = []
            if let ps = o["parameters"], let po = anyMapping(ps, at: path.appending("parameters")) {
                for (name, pv) in po {
                    if let c = value(pv, at: path.appending("parameters").appending(name), defaultConversion: .text) {
                        parameters.append((name, c))
                    } else {
                        ok = false
                    }
                }
            }
            var url: DValue?
            if let u = o["screenURL"] {
                url = value(u, at: path.appending("screenURL"))
                ok = ok && url != nil
            }
            kind = .screen(v, parameters: parameters, url: url)
        case "clickAction":
            guard let v = value(parts.operand, at: inner) else { return nil }
            kind = .clickAction(v)
        default:
            if case .object = json, !flag(parts.operand, at: inner) { return nil }
            kind =
                switch parts.kind {
                case "button": .button
                case "none": .none
                default: .app
                }
            if case .button = kind, insideButtons {
                fail("a button's destination cannot be the tapped button's", at: inner)
                ok = false
            }
        }
        var ifAbsent = DIfAbsent.next
        if let v = o["ifAbsent"], let s = string(v, at: path.appending("ifAbsent")) {
            switch s {
            case "next": ifAbsent = .next
            case "app": ifAbsent = .app
            case "none": ifAbsent = .none
            default:
                fail("'\(s)' is not one of: next, app, none", at: path.appending("ifAbsent"))
                ok = false
            }
        }
        var missing: DWarning?
        var empty: DWarning?
        var wrongType: DWarning?
        if let v = o["problems"], let po = object(v, allowed: ["missing", "empty", "wrongType"], at: path.appending("problems")) {
            let pp = path.appending("problems")
            if let w = po["missing"] { missing = warningObject(w, at: pp.appending("missing")) }
            if let w = po["empty"] { empty = warningObject(w, at: pp.appending("empty")) }
            if let w = po["wrongType"] { wrongType = warningObject(w, at: pp.appending("wrongType")) }
        }
        var warn: DWarning?
        if let w = o["warn"] { warn = warningObject(w, at: path.appending("warn")) }
        var behavior: VendorBehavior?
        if let b = o["behavior"], let bo = object(b, allowed: ["opensURL", "followsEventOverride"], at: path.appending("behavior")) {
            behavior = vendorBehavior(bo, at: path.appending("behavior"))
        }
        guard ok else { return nil }
        return DDestinationRule(
            when: parts.when,
            spec: kind,
            ifAbsent: ifAbsent,
            missing: missing,
            empty: empty,
            wrongType: wrongType,
            warn: warn,
            behavior: behavior
        )
    }

    mutating func buttons(_ json: JSONValue, at path: KeyPath) -> DButtons? {
        guard let o = object(json, allowed: ["from", "id", "label", "destination"], at: path) else { return nil }
        guard let fromJSON = required(o, "from", at: path), let from = self.path(fromJSON, at: path.appending("from")) else { return nil }
        insideButtons = true
        defer { insideButtons = false }
        let id = o["id"].flatMap { value($0, at: path.appending("id"), defaultConversion: .text) }
        let label = o["label"].flatMap { value($0, at: path.appending("label")) }
        let destination = o["destination"].map { destinationRules($0, at: path.appending("destination")) } ?? []
        return DButtons(from: from, id: id, label: label, destination: DDestinationRules(destination))
    }

    mutating func payloadCase(_ json: JSONValue?, allowsReject: Bool, at path: KeyPath) -> DPayloadCase {
        var c = DPayloadCase()
        guard let json else { return c }
        guard let o = object(json, allowed: allowsReject ? ["keepAs", "warn", "reject"] : ["keepAs", "warn"], at: path) else { return c }
        if let k = o["keepAs"] { c.keepAs = string(k, at: path.appending("keepAs")) }
        if let w = o["warn"] { c.warn = warningObject(w, at: path.appending("warn")) }
        if let r = o["reject"], let ro = object(r, allowed: ["error", "message"], at: path.appending("reject")) {
            let rp = path.appending("reject")
            let code = required(ro, "error", at: rp).flatMap { errorCode($0, at: rp.appending("error")) }
            let message = required(ro, "message", at: rp).flatMap { template($0, at: rp.appending("message")) }
            if let code, let message { c.reject = (code, message) }
        }
        if c.reject != nil, c.keepAs != nil || c.warn != nil {
            fail("reject cannot be combined with keepAs or warn", at: path)
        }
        return c
    }

    mutating func payload(_ json: JSONValue, at path: KeyPath) -> DPayload? {
        let allowed = ["from", "without", "withoutPrefixes", "inPlace", "text", "broken", "tooDeep", "wrongType"]
        guard let o = object(json, allowed: allowed, at: path) else { return nil }
        var from: DPath?
        if let f = o["from"] { from = self.path(f, at: path.appending("from")) }
        var without: Set<String> = []
        if let w = o["without"] {
            for (k, kp) in list(w, at: path.appending("without")) ?? [] { if let s = string(k, at: kp) { without.insert(s) } }
        }
        var prefixes: [String] = []
        if let w = o["withoutPrefixes"] {
            for (k, kp) in list(w, at: path.appending("withoutPrefixes")) ?? [] {
                if let s = string(k, at: kp) {
                    if s.isEmpty { fail("an empty prefix would remove every key", at: kp) } else { prefixes.append(s) }
                }
            }
        }
        if o["from"] == nil {
            for key in ["inPlace", "text", "broken", "tooDeep", "wrongType"] where o[key] != nil {
                fail("\(key) applies only with from", at: path.appending(key))
            }
            // The root's members are copied: `aps` among them unless left out.
            if !without.contains("aps"), !prefixes.contains(where: { "aps".hasPrefix($0) }) { readsAlertText = true }
        }
        return DPayload(
            from: from,
            without: without,
            withoutPrefixes: prefixes,
            inPlace: payloadCase(o["inPlace"], allowsReject: false, at: path.appending("inPlace")),
            text: payloadCase(o["text"], allowsReject: true, at: path.appending("text")),
            broken: payloadCase(o["broken"], allowsReject: true, at: path.appending("broken")),
            tooDeep: payloadCase(o["tooDeep"], allowsReject: true, at: path.appending("tooDeep")),
            wrongType: payloadCase(o["wrongType"], allowsReject: true, at: path.appending("wrongType"))
        )
    }
}

/// Folds strings for comparison under a ``DMatch``, without allocating for ASCII input.
package enum DFold {
    static func fold(_ s: String, _ match: DMatch) -> [UInt8] {
        switch match {
        case .exact: return Array(s.utf8)
        case .case: return Array(s.lowercased().utf8)
        case .caseAndSeparators: return Array(s.lowercased().utf8.filter { !isSeparator($0) })
        }
    }

    @inline(__always) static func isSeparator(_ b: UInt8) -> Bool { b == 0x5F || b == 0x2D }

    /// The index of the first of `count` folded literals (`literal(i)`, and `short(i)` its
    /// ``DShortFold``; `nil` for one that is not a string) that `s` folds to, or `nil` when
    /// none does. A text that folds to 16 ASCII bytes or fewer is folded into two words and
    /// compared with each literal's; another ASCII `s` of up to 64 bytes is folded once, on
    /// the stack, and compared with each; any other is compared literal by literal with
    /// ``matches(_:text:_:)``.
    package static func first(
        _ s: String,
        _ match: DMatch,
        count: Int,
        short: (Int) -> DShortFold?,
        literal: (Int) -> String?
    ) -> Int? {
        if match != .exact, let folded = DShortFold.fold(s, match) {
            for i in 0..<count where short(i) == folded { return i }
            return nil
        }
        if match != .exact, s.utf8.count <= 64 {
            var text = s
            let answer: Int?? = text.withUTF8 { bytes in
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { buffer in
                    var n = 0
                    for b in bytes {
                        if b >= 0x80 { return nil }
                        if match == .caseAndSeparators, isSeparator(b) { continue }
                        buffer[n] = b >= 0x41 && b <= 0x5A ? b | 0x20 : b
                        n += 1
                    }
                    let folded = UnsafeBufferPointer(rebasing: buffer[..<n])
                    for i in 0..<count {
                        guard var expected = literal(i), expected.utf8.count == n else { continue }
                        if expected.withUTF8({ $0.elementsEqual(folded) }) { return .some(i) }
                    }
                    return .some(nil)
                }
            }
            if let answer { return answer }
        }
        for i in 0..<count {
            if let expected = literal(i), matches(s, text: expected, match) { return i }
        }
        return nil
    }

    /// Whether `s` folds to the folded literal `folded`.
    static func matches(_ s: String, text folded: String, _ match: DMatch) -> Bool {
        switch match {
        case .exact:
            return s == folded
        case .case, .caseAndSeparators:
            let dropSeparators = match == .caseAndSeparators
            // Both strings' bytes in place (a short string's are copied to the stack).
            var text = s
            var literal = folded
            let answer: Bool? = text.withUTF8 { bytes in
                literal.withUTF8 { expected in
                    var i = 0
                    for b in bytes {
                        if b >= 0x80 { return nil }
                        if dropSeparators, isSeparator(b) { continue }
                        let lower = b >= 0x41 && b <= 0x5A ? b | 0x20 : b
                        guard i < expected.count, expected[i] == lower else { return false }
                        i += 1
                    }
                    return i == expected.count
                }
            }
            return answer ?? (String(decoding: fold(s, match), as: UTF8.self) == folded)
        }
    }
}
