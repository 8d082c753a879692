/// A JSON value whose objects keep the order of their keys.
///
/// `JSONValue` is the currency of TapRoute: input envelopes, vendor payloads, the `payload`
/// and `tracking` fields of an ``Interaction`` and the conformance vectors are all
/// `JSONValue`s. Objects are ``JSONObject``s, which remember insertion order (so output is
/// stable) but compare as JSON does, without regard to order.
///
/// ```swift
/// let value: JSONValue = ["campaign": "spring", "count": 3]
/// print(value.jsonString())   // {"campaign":"spring","count":3}
/// ```
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, kept as its JSON text so that no precision is lost.
    case number(JSONNumber)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, in key order.
    case object(JSONObject)

    /// The string, when this value is a string.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The object, when this value is an object.
    public var objectValue: JSONObject? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// The array, when this value is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The Boolean, when this value is `true` or `false`.
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The number, when this value is a number.
    public var numberValue: JSONNumber? {
        if case .number(let n) = self { return n }
        return nil
    }

    /// Whether this value is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The member named `key`, when this value is an object that has it.
    public subscript(key: String) -> JSONValue? {
        // Looked up where the object is: `objectValue?[key]` would copy the object out first
        // (a retain and a release of its members).
        switch self {
        case .object(let object): object[key]
        default: nil
        }
    }

    /// The kind of a value, without its contents.
    package enum Kind: Sendable, Hashable {
        case null, bool, number, string, array, object
    }

    /// The kind of this value.
    package var kind: Kind {
        switch self {
        case .null: .null
        case .bool: .bool
        case .number: .number
        case .string: .string
        case .array: .array
        case .object: .object
        }
    }

    /// A short English description of the value's type ("an object", "a string", …), for
    /// error messages.
    public var typeDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A JSON number, stored as its canonical JSON text.
///
/// Keeping the text means a number read from a payload is written back exactly as it came
/// (`12345678901234567890` stays that, `1.50` stays `1.50`), which matters when a vendor
/// sends identifiers as numbers.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number's JSON text, for example `42`, `-1.5` or `1e3`.
    public let text: String

    /// Creates a number from JSON number text, or returns `nil` when `text` is not a JSON
    /// number (RFC 8259 §6).
    public init?(text: String) {
        guard JSONNumber.isValid(text.utf8) else { return nil }
        self.text = text
    }

    /// Creates a number from text already known to be valid JSON number syntax.
    init(validatedText: String) {
        self.text = validatedText
    }

    /// Creates a number from an integer.
    public init(_ value: Int) {
        self.text = String(value)
    }

    /// Creates a number from a floating-point value. Non-finite values become `0`, since
    /// JSON cannot represent them.
    public init(_ value: Double) {
        guard value.isFinite else {
            self.text = "0"
            return
        }
        if value == value.rounded(.towardZero), abs(value) < 1e15 {
            self.text = String(Int64(value))
        } else {
            self.text = String(value)
        }
    }

    /// The value as a `Double` (possibly rounded, or infinite for huge exponents).
    public var doubleValue: Double { Double(text) ?? .nan }

    /// The value as an `Int`, when it is an integer that fits.
    public var intValue: Int? { Int(text) }

    /// The JSON text.
    public var description: String { text }

    static func isValid<C: Collection>(_ bytes: C) -> Bool where C.Element == UInt8 {
        var i = bytes.startIndex
        let end = bytes.endIndex
        func digit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
        if i < end, bytes[i] == UInt8(ascii: "-") { i = bytes.index(after: i) }
        guard i < end else { return false }
        if bytes[i] == UInt8(ascii: "0") {
            i = bytes.index(after: i)
        } else if digit(bytes[i]) {
            while i < end, digit(bytes[i]) { i = bytes.index(after: i) }
        } else {
            return false
        }
        if i < end, bytes[i] == UInt8(ascii: ".") {
            i = bytes.index(after: i)
            guard i < end, digit(bytes[i]) else { return false }
            while i < end, digit(bytes[i]) { i = bytes.index(after: i) }
        }
        if i < end, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i = bytes.index(after: i)
            if i < end, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i = bytes.index(after: i) }
            guard i < end, digit(bytes[i]) else { return false }
            while i < end, digit(bytes[i]) { i = bytes.index(after: i) }
        }
        return i == end
    }
}

/// A JSON object that keeps its keys in insertion order.
///
/// Lookup by key, iteration in order, and JSON equality: two objects are equal when they
/// have the same keys with equal values, whatever the order. Setting an existing key
/// replaces its value in place; a parsed object with a duplicate key keeps the last value at
/// the first key's position.
///
/// Small objects are a plain array searched in order; an object with more than 16 members
/// also keeps a hash index of its keys, so that lookup, setting
/// and building stay constant-time per key however many keys a payload has.
public struct JSONObject: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// One member of the object.
    public typealias Element = (key: String, value: JSONValue)

    /// The member count above which an object keeps a hash index of its keys (below it, a
    /// search in order is faster than hashing).
    package static let indexThreshold = 16

    /// One member as stored: a struct rather than the ``Element`` tuple, so that freeing an
    /// object's members runs the struct's own destroy function per member instead of the
    /// runtime's generic tuple one (which looks each field's type up).
    @usableFromInline
    package struct Member: Sendable {
        /// The key.
        @usableFromInline var key: String
        /// The value.
        @usableFromInline var value: JSONValue

        /// A member.
        init(_ key: String, _ value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// A key as the index holds it: equal to another exactly when their UTF-8 bytes are, as
    /// lookups compare keys (``Swift/String/hasSameUTF8(as:)``), where `String` alone also
    /// equates KELVIN SIGN with `K` and reordered combining marks. So an object finds, sets
    /// and keeps apart the same keys whatever its size.
    @usableFromInline
    package struct IndexKey: Hashable, Sendable {
        /// The key.
        @usableFromInline let text: String

        /// The key `text`.
        @inlinable init(_ text: String) { self.text = text }

        /// Whether `a` and `b` are the same key.
        @inlinable
        package static func == (a: IndexKey, b: IndexKey) -> Bool {
            a.text.hasSameUTF8(as: b.text)
        }

        /// Hashes the key (keys with the same bytes are equal strings, so hash alike).
        @inlinable
        package func hash(into hasher: inout Hasher) {
            hasher.combine(text)
            hasher.combine(text.utf8.count)
        }
    }

    @usableFromInline var storage: [Member]
    /// The position of each key in `storage`; `nil` while the object is small.
    @usableFromInline var index: [IndexKey: Int]?

    /// Creates an empty object.
    public init() {
        storage = []
        index = nil
    }

    /// Creates an object from key–value pairs in order; a repeated key keeps its last value
    /// (at the first one's position).
    public init<S: Sequence>(_ members: S) where S.Element == (String, JSONValue) {
        storage = []
        index = nil
        for (key, value) in members { self[key] = value }
    }

    /// Creates an object from a dictionary literal, keeping the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        // One member cannot repeat a key: stored as it is, without the search for one.
        if elements.count == 1 {
            self.init(uniqueMembers: [Member(elements[0].0, elements[0].1)], index: nil)
        } else {
            self.init(elements)
        }
    }

    /// Creates an object of one member: one allocation, where a dictionary literal of one
    /// pair also allocates the literal's array.
    package init(key: String, value: JSONValue) {
        self.init(uniqueMembers: [Member(key, value)], index: nil)
    }

    /// Creates an object from members known to have distinct keys, in linear time (the
    /// caller guarantees the keys differ).
    package init(uniqueMembers: [Element]) {
        self.init(uniqueMembers: uniqueMembers.map { Member($0.key, $0.value) })
    }

    /// Creates an object from members known to have distinct keys, in linear time (the
    /// caller guarantees the keys differ).
    package init(uniqueMembers: [Member]) {
        storage = uniqueMembers
        index = uniqueMembers.count > Self.indexThreshold ? Self.makeIndex(uniqueMembers) : nil
    }

    /// Creates an object from members known to have distinct keys and the position of each
    /// key (the parser builds it while checking for duplicates).
    init(uniqueMembers: [Member], index: [IndexKey: Int]?) {
        storage = uniqueMembers
        self.index = index
    }

    private static func makeIndex(_ members: [Member]) -> [IndexKey: Int] {
        var index: [IndexKey: Int] = [:]
        index.reserveCapacity(members.count)
        for (i, member) in members.enumerated() { index[IndexKey(member.key)] = i }
        return index
    }

    /// The number of members.
    public var count: Int { storage.count }

    /// Whether the object has no members.
    public var isEmpty: Bool { storage.isEmpty }

    /// The keys, in order.
    public var keys: [String] { storage.map(\.key) }

    /// The position of `key` in `storage`.
    @inlinable @inline(__always)
    func position(of key: String) -> Int? {
        if let index { return index[IndexKey(key)] }
        if let tag = Self.smallASCIITag {
            // A key of at most 15 ASCII bytes (nearly every key) is held in the string's own
            // 16 bytes, the last tagged "small, ASCII": two such keys are equal exactly when
            // their bytes are, so that each member costs two word compares, read in place (no
            // copy, no call). Other members' keys are compared by their bytes, lengths first.
            let bits = unsafeBitCast(key, to: (UInt64, UInt64).self)
            if bits.1 & Self.tagMask == tag {
                return storage.withUnsafeBufferPointer { members -> Int? in
                    guard let base = members.baseAddress else { return nil }
                    return Self.position(
                        ofSmallASCII: bits,
                        tag: tag,
                        in: UnsafeRawPointer(base),
                        count: members.count,
                        stride: MemoryLayout<Member>.stride
                    ) {
                        members[$0].key.hasSameUTF8(as: key)
                    }
                }
            }
        }
        for i in storage.indices where storage[i].key.hasSameUTF8(as: key) { return i }
        return nil
    }

    /// The position of the first of `count` strings laid out `stride` bytes apart from `base`
    /// (each the first field of its element) that equals the small ASCII string whose two
    /// words are `bits`: a string held the same way is equal exactly when its words are; one
    /// held otherwise is compared by `equalAt`.
    @inlinable @inline(__always)
    static func position(
        ofSmallASCII bits: (UInt64, UInt64),
        tag: UInt64,
        in base: UnsafeRawPointer,
        count: Int,
        stride: Int,
        equalAt: (Int) -> Bool
    ) -> Int? {
        for i in 0..<count {
            let element = base + i &* stride
            let high = element.load(fromByteOffset: 8, as: UInt64.self)
            if high == bits.1, element.load(as: UInt64.self) == bits.0 { return i }
            if high & tagMask == tag { continue }
            if equalAt(i) { return i }
        }
        return nil
    }

    /// A 64-bit summary of the keys, for telling cheaply that a key is missing: the union of
    /// ``keyBit(ofSmallASCII:)`` over the small ASCII keys when every other key is longer than
    /// 15 bytes (and so equals none of them), all bits otherwise (and for an object with an
    /// index, whose lookups need no help). A small ASCII key whose bit is clear is not in the
    /// object; one whose bit is set may be. One pass over the keys, a few instructions each:
    /// worth it for a reader that looks up many keys, most of them missing (a definition's
    /// tracking keys).
    package func keyBits() -> UInt64 {
        guard let tag = Self.smallASCIITag, index == nil else { return ~0 }
        return storage.withUnsafeBufferPointer { members -> UInt64 in
            guard let base = members.baseAddress else { return 0 }
            let raw = UnsafeRawPointer(base)
            var bits: UInt64 = 0
            for i in 0..<members.count {
                let element = raw + i &* MemoryLayout<Member>.stride
                let high = element.load(fromByteOffset: 8, as: UInt64.self)
                if high & Self.tagMask == tag {
                    bits |= Self.keyBit(ofSmallASCII: (element.load(as: UInt64.self), high))
                } else if members[i].key.utf8.count <= 15 {
                    // A short key held otherwise (on the heap, or not ASCII) is not summarized
                    // by its words: it may equal a small ASCII key held as one.
                    return ~0
                }
                // A longer key equals no small ASCII key: it needs no bit.
            }
            return bits
        }
    }

    /// The bit of ``keyBits()`` for the small ASCII key whose two words are `words`: one of
    /// 64, chosen by the top six bits of a multiplicative hash of both words (so that keys
    /// that differ only in their last bytes, `google.c.a.ts` and `google.c.a.tc`, spread).
    @inlinable @inline(__always)
    package static func keyBit(ofSmallASCII words: (UInt64, UInt64)) -> UInt64 {
        1 &<< (((words.0 &+ words.1 &* 0x9E37_79B9_7F4A_7C15) &* 0xBF58_476D_1CE4_E5B9) &>> 58)
    }

    /// The bit of ``keyBits()`` for `key` as a small ASCII string holds it (the form the parser
    /// gives such a key), or `nil` when it cannot be held so (longer than 15 bytes, not ASCII,
    /// or not this platform's layout).
    package static func keyBit(of key: String) -> UInt64? {
        DetectionPrefilter.smallASCIIWords(key).map(keyBit(ofSmallASCII:))
    }

    /// The high four bits of a string's second word, where its kind is (``smallASCIITag``).
    @inlinable static var tagMask: UInt64 { 0xF0 << 56 }

    /// The high four bits of a small ASCII string's second word, on the platforms whose
    /// layout of `String` the standard library's ABI fixes as 16 bytes with that tag (64-bit,
    /// little-endian: the same layout ``SmallASCIIString`` builds and checks; a test holds
    /// the two equal) and where an object member's key is its first field; `nil` elsewhere,
    /// where keys are compared as strings.
    @inlinable static var smallASCIITag: UInt64? {
        #if (arch(x86_64) || arch(arm64)) && _endian(little)
            return 0xE0 << 56
        #else
            return nil
        #endif
    }

    /// The value for `key`, or `nil`. Setting `nil` removes the member.
    public subscript(key: String) -> JSONValue? {
        @inlinable get {
            guard let i = position(of: key) else { return nil }
            return storage[i].value
        }
        set {
            if let i = position(of: key) {
                if let newValue {
                    storage[i].value = newValue
                } else {
                    remove(at: i)
                }
            } else if let newValue {
                // Objects built member by member (adapters' payloads and tracking) start with
                // room for four instead of growing from one: one allocation instead of three.
                if storage.capacity == 0 { storage.reserveCapacity(4) }
                storage.append(Member(key, newValue))
                if index != nil {
                    index?[IndexKey(key)] = storage.count - 1
                } else if storage.count > Self.indexThreshold {
                    index = Self.makeIndex(storage)
                }
            }
        }
    }

    private mutating func remove(at i: Int) {
        storage.remove(at: i)
        if index != nil { index = storage.count > Self.indexThreshold ? Self.makeIndex(storage) : nil }
    }

    /// Whether the object has a member `key` (matched as ``subscript(_:)`` matches), without
    /// copying its value out (a lookup compared with `nil` retains and releases what it finds).
    package func hasMember(_ key: String) -> Bool {
        position(of: key) != nil
    }

    /// `body` of the UTF-8 bytes of the member `key` when it is a string, read where the
    /// string keeps them (neither the value nor the string copied: each copy retains and
    /// releases the string's storage); `nil` when there is no such member, it is not a string,
    /// or its bytes are not contiguous (a bridged string).
    @inlinable
    package func withStringMember<Result>(_ key: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        guard let i = position(of: key) else { return nil }
        return storage.withUnsafeBufferPointer { members -> Result? in
            guard case .string(let text) = members[i].value else { return nil }
            return text.utf8.withContiguousStorageIfAvailable(body)
        }
    }

    /// Whether some key satisfies `predicate` (the keys are read in place, no member is
    /// copied).
    package func containsKey(where predicate: (String) -> Bool) -> Bool {
        storage.contains { predicate($0.key) }
    }

    /// Calls `body` with each key in order (read in place, no member is copied).
    package func forEachKey(_ body: (String) -> Void) {
        for i in storage.indices { body(storage[i].key) }
    }

    /// Returns an iterator over the members in order.
    public func makeIterator() -> Iterator {
        Iterator(members: storage.makeIterator())
    }

    /// An iterator over an object's members in order.
    public struct Iterator: IteratorProtocol, Sendable {
        var members: IndexingIterator<[Member]>

        /// The next member, or `nil` after the last.
        public mutating func next() -> Element? {
            guard let member = members.next() else { return nil }
            return (member.key, member.value)
        }
    }

    /// The number of members (a sequence's lower bound on its count).
    public var underestimatedCount: Int { storage.count }

    /// Removes and returns the value for `key`.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSONValue? {
        guard let i = position(of: key) else { return nil }
        let value = storage[i].value
        remove(at: i)
        return value
    }

    /// Returns the object without the members whose keys are in `keys`.
    ///
    /// Keys are matched as lookups match them, by their UTF-8 bytes, so that a member removed
    /// is one ``subscript(_:)`` would find under that key (a `Set` alone also takes KELVIN
    /// SIGN for `K`, which Unicode calls equivalent).
    public func removing(_ keys: Set<String>) -> JSONObject {
        kept { key in
            guard let i = keys.firstIndex(of: key) else { return true }
            return !keys[i].hasSameUTF8(as: key)
        }
    }

    /// Returns the object without the members whose keys are in `keys` — for a handful of
    /// keys, cheaper than building a `Set`. Keys are matched as lookups match them, as by the
    /// method that takes a `Set`.
    public func removing(_ keys: [String]) -> JSONObject {
        // Lengths first: a key of another length is not compared (most payload keys differ
        // from an envelope's in length, and a failed comparison of two strings is a call).
        // Read in place: iterating the array copies each key (a retain and release apiece).
        keys.withUnsafeBufferPointer { keys in
            kept { key in
                for i in 0..<keys.count where keys[i].hasSameUTF8(as: key) { return false }
                return true
            }
        }
    }

    /// Returns the object without the members whose keys `remove` accepts, in one pass over
    /// the keys (no list of the keys to remove is built first).
    package func removing(where remove: (String) -> Bool) -> JSONObject {
        kept { !remove($0) }
    }

    /// The members whose keys `keep` accepts, in order, allocating only when the result is
    /// neither this object nor empty: an object `keep` leaves whole is returned as it is (its
    /// storage shared), one it empties is the empty object, and any other result is reserved
    /// at the size it can reach, where `filter` grows its array from empty (two or three
    /// allocations for a typical payload instead of one). A notification whose `userInfo`
    /// holds nothing but a vendor's envelope keys (many do) has an empty payload.
    @inline(__always)
    private func kept(_ keep: (String) -> Bool) -> JSONObject {
        let count = storage.count
        var firstLeftOut = 0
        while firstLeftOut < count, keep(storage[firstLeftOut].key) { firstLeftOut &+= 1 }
        if firstLeftOut == count { return self }
        var nextKept = firstLeftOut &+ 1
        while nextKept < count, !keep(storage[nextKept].key) { nextKept &+= 1 }
        if firstLeftOut == 0, nextKept == count { return JSONObject() }
        var members: [Member] = []
        members.reserveCapacity(count &- 1)
        for i in 0..<firstLeftOut { members.append(storage[i]) }
        if nextKept < count {
            members.append(storage[nextKept])
            for i in (nextKept &+ 1)..<count where keep(storage[i].key) { members.append(storage[i]) }
        }
        return JSONObject(uniqueMembers: members)
    }

    /// Two objects are equal when they have the same keys with equal values, in any order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.storage.count == rhs.storage.count else { return false }
        for member in lhs.storage {
            let key = member.key
            let value = member.value
            guard let other = rhs[key], other == value else { return false }
        }
        return true
    }

    /// Hashes the members without regard to order, consistent with `==`.
    public func hash(into hasher: inout Hasher) {
        hashUnordered(storage.lazy.map { ($0.key, $0.value) }, into: &hasher)
    }
}

/// Hashes key–value pairs without regard to their order (for types whose `==` ignores
/// order): each pair is hashed alone and the results are combined with XOR.
func hashUnordered<S: Sequence, Value: Hashable>(_ pairs: S, into hasher: inout Hasher) where S.Element == (String, Value) {
    var combined = 0
    var count = 0
    for (key, value) in pairs {
        var h = Hasher()
        h.combine(key)
        h.combine(value)
        combined ^= h.finalize()
        count += 1
    }
    hasher.combine(count)
    hasher.combine(combined)
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    /// Creates a string value.
    public init(stringLiteral value: String) { self = .string(value) }
    /// Creates a number value.
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
    /// Creates a number value.
    public init(floatLiteral value: Double) { self = .number(JSONNumber(value)) }
    /// Creates a Boolean value.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// Creates an array value.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// Creates an object value, keeping the literal's key order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
    /// Creates `null`.
    public init(nilLiteral: ()) { self = .null }
}

/// A set of a few strings (schemes, hosts, keys) that answers `contains` by comparing
/// lengths and bytes rather than hashing: for a handful of members that is several times
/// faster than `Set<String>`, which hashes every probe with SipHash.
///
/// `contains` is inlined into the adapters' modules too (a call across modules costs more than
/// the length test that answers most probes).
package struct SmallStringSet: Sendable {
    @usableFromInline let members: [String]
    @usableFromInline let hashed: Set<JSONObject.IndexKey>?
    /// Bit `n` is set when a member is `n` UTF-8 bytes long (bit 63: 63 or more), so that
    /// most strings that are not members are told apart by their length alone.
    @usableFromInline let lengths: UInt64

    /// Creates the set.
    package init<S: Sequence>(_ strings: S) where S.Element == String {
        var unique: [String] = []
        // Duplicates as `contains` sees them: the same UTF-8 bytes (so that `K` is kept beside
        // KELVIN SIGN, which is canonically equal but other bytes).
        for string in strings where !unique.contains(where: { $0.hasSameUTF8(as: string) }) {
            unique.append(string)
        }
        members = unique
        hashed = unique.count > 16 ? Set(unique.map(JSONObject.IndexKey.init)) : nil
        lengths = unique.reduce(0) { $0 | Self.lengthBit($1.utf8.count) }
    }

    @inlinable @inline(__always)
    static func lengthBit(_ length: Int) -> UInt64 {
        1 << UInt64(min(length, 63))
    }

    /// Whether the set has no member.
    package var isEmpty: Bool { members.isEmpty }

    /// Whether `string` is a member.
    @inlinable @inline(__always)
    package func contains(_ string: String) -> Bool {
        let length = string.utf8.count
        guard lengths & Self.lengthBit(length) != 0 else { return false }
        if let hashed { return hashed.contains(JSONObject.IndexKey(string)) }
        if let tag = JSONObject.smallASCIITag {
            // As in `JSONObject.position(of:)`: a string of at most 15 ASCII bytes equals a
            // member held the same way exactly when their 16 bytes do, read in place.
            let bits = unsafeBitCast(string, to: (UInt64, UInt64).self)
            if bits.1 & JSONObject.tagMask == tag {
                return members.withUnsafeBufferPointer { members -> Bool in
                    guard let base = members.baseAddress else { return false }
                    let stride = MemoryLayout<String>.stride
                    return JSONObject.position(
                        ofSmallASCII: bits,
                        tag: tag,
                        in: UnsafeRawPointer(base),
                        count: members.count,
                        stride: stride
                    ) {
                        members[$0].hasSameUTF8(as: string)
                    } != nil
                }
            }
        }
        for member in members where member.hasSameUTF8(as: string) { return true }
        return false
    }
}

extension String {
    /// Whether the two strings are the same UTF-8 bytes: how the keys of a ``JSONObject``
    /// and the members of a ``SmallStringSet`` are told apart. `==` is Unicode canonical
    /// equivalence, which also takes KELVIN SIGN (U+212A) for `K`, `é` for `e` with a
    /// combining accent and reordered combining marks for each other; iOS's dictionaries
    /// compare keys literally, and keep all of those apart.
    @inlinable @inline(__always)
    package func hasSameUTF8(as other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        if let tag = JSONObject.smallASCIITag {
            // The same two words are the same bytes (the same small string, or the same
            // storage); two small ASCII strings (nearly every key) are the same bytes only then.
            let a = unsafeBitCast(self, to: (UInt64, UInt64).self)
            let b = unsafeBitCast(other, to: (UInt64, UInt64).self)
            if a == b { return true }
            if a.1 & JSONObject.tagMask == tag, b.1 & JSONObject.tagMask == tag { return false }
        }
        // Unequal strings cannot be the same bytes (the standard library's fast paths answer
        // most); equal ones are compared byte by byte, since equivalence also matches other
        // code points of the same length (combining marks in another order).
        guard self == other else { return false }
        return Self.sameBytes(self, other)
    }

    /// Whether `a` and `b` have the same UTF-8 bytes, compared one by one.
    @usableFromInline
    static func sameBytes(_ a: String, _ b: String) -> Bool {
        // Read in place (a native string's storage, a small one's copy on the stack): no
        // copy of either string, and so no retain and release.
        let answer = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in
                guard x.count == y.count else { return false }
                guard let p = x.baseAddress, let q = y.baseAddress else { return true }
                // Eight bytes at a time, then the last eight (overlapping what was compared).
                let count = x.count
                guard count >= 8 else {
                    for i in 0..<count where p[i] != q[i] { return false }
                    return true
                }
                var i = 0
                while i &+ 8 <= count {
                    let u = UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)
                    let v = UnsafeRawPointer(q + i).loadUnaligned(as: UInt64.self)
                    if u != v { return false }
                    i &+= 8
                }
                return UnsafeRawPointer(p + (count &- 8)).loadUnaligned(as: UInt64.self)
                    == UnsafeRawPointer(q + (count &- 8)).loadUnaligned(as: UInt64.self)
            }
        }
        if let answer, let answer { return answer }
        return Array(a.utf8) == Array(b.utf8)
    }

    /// Whether the UTF-8 bytes of the string begin with those of `prefix` — bytes, not
    /// Unicode canonical equivalence (`"é"` written as `e` and a combining accent does not
    /// start with `"é"` written as one scalar). The same answer as
    /// `utf8.starts(with: prefix.utf8)`, without iterating either view a byte at a time.
    @inline(__always)
    package func hasUTF8Prefix(_ prefix: String) -> Bool {
        let count = prefix.utf8.count
        guard utf8.count >= count else { return false }
        let answer = utf8.withContiguousStorageIfAvailable { text in
            prefix.utf8.withContiguousStorageIfAvailable { prefix in
                for i in 0..<count where text[i] != prefix[i] { return false }
                return true
            }
        }
        if let answer, let answer { return answer }
        return utf8.starts(with: prefix.utf8)
    }
}
