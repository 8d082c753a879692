/// The root filters of the definitions in a detection order, asked about an input's root
/// object in one pass over its keys.
///
/// Detection asks each adapter in turn whether it recognizes the input, and most inputs are
/// no definition's: asked one by one, each definition's ``DRootFilter`` reads every root key
/// again. The prefilter reads each key once and answers for up to 64 definitions at a time: bit
/// `n` of ``admitted(_:)`` is set when the `n`th filtered definition's filter would admit the
/// root, so a definition whose bit is clear does not recognize the input (for the input kinds
/// the filters apply to: a notification, an in-app message, a vendor event).
struct DetectionPrefilter: Sendable {
    /// For each position in the detection order, the bit of the definition there, or 0 when
    /// the adapter there is not filtered (a Swift adapter, a definition without a root
    /// requirement, or one past the 64th).
    let bits: [UInt64]
    /// The required keys, each with the bits of the definitions that require it, grouped by
    /// UTF-8 length modulo 64 (a root key is compared only with the keys of its length).
    private let keysByLength: [[(key: String, bits: UInt64)]]
    /// The required prefixes, each with its first byte and UTF-8 length (read once here, not
    /// for each key compared) and the bits of the definitions that require it.
    private let prefixes: [(prefix: String, first: UInt8, length: Int, bits: UInt64)]
    /// Bit `n % 64` is set when some key is `n` bytes long.
    private let keyLengths: UInt64
    /// The first bytes of the prefixes, as a 256-bit set (bit `b % 64` of word `b / 64`).
    private let prefixFirstBytes: (UInt64, UInt64, UInt64, UInt64)
    /// The definitions with an empty prefix: they admit any root with a key.
    private let anyKeyBits: UInt64
    /// The bits of every filtered definition: once all are set, the other keys are not read.
    private let allBits: UInt64
    /// The required keys of at most 15 ASCII bytes, as the two words of their small string
    /// (``JSONObject/smallASCIITag``), grouped by length: a root key held the same way is one
    /// of them exactly when its words are, compared as integers without a call. Empty where
    /// that layout is not the platform's.
    private let smallKeysByLength: [[(words: (UInt64, UInt64), bits: UInt64)]]
    /// The required prefixes of 1 to 15 ASCII bytes, as the words of their small string masked
    /// to their bytes: a small ASCII key has one exactly when its words, masked the same way,
    /// are equal (and it is at least as long). A small ASCII key has no other prefix: a longer
    /// one does not fit, a non-ASCII one would need a non-ASCII byte.
    private let smallPrefixes: [(words: (UInt64, UInt64), masks: (UInt64, UInt64), first: UInt8, length: Int, bits: UInt64)]
    /// ``JSONObject/smallASCIITag`` when every required key and prefix of at most 15 ASCII
    /// bytes is in the two tables above, so that a small ASCII root key may be compared with
    /// those alone; `nil` otherwise (every key then takes the byte path).
    private let smallTag: UInt64?

    /// Whether no definition is filtered (detection then asks each adapter as it is).
    var isEmpty: Bool { bits.allSatisfy { $0 == 0 } }

    /// Builds the prefilter of `requirements`, one per position of a detection order (`nil`
    /// for an adapter that is not filtered).
    init(_ requirements: [DRootRequirement?]) {
        var bits: [UInt64] = []
        var keys: [(key: String, bits: UInt64)] = []
        var prefixes: [(prefix: String, bits: UInt64)] = []
        var anyKeyBits: UInt64 = 0
        var next: UInt64 = 0
        for requirement in requirements {
            guard let requirement, next < 64 else {
                bits.append(0)
                continue
            }
            let bit: UInt64 = 1 << next
            next += 1
            bits.append(bit)
            // Shared by byte, not by `==`: canonically equivalent keys of other lengths are
            // different keys to the length test.
            for key in requirement.keys {
                if let i = keys.firstIndex(where: { $0.key.utf8.elementsEqual(key.utf8) }) {
                    keys[i].bits |= bit
                } else {
                    keys.append((key, bit))
                }
            }
            for prefix in requirement.prefixes {
                if prefix.isEmpty {
                    anyKeyBits |= bit
                } else if let i = prefixes.firstIndex(where: { $0.prefix.utf8.elementsEqual(prefix.utf8) }) {
                    prefixes[i].bits |= bit
                } else {
                    prefixes.append((prefix, bit))
                }
            }
        }
        self.bits = bits
        var keysByLength = [[(key: String, bits: UInt64)]](repeating: [], count: 64)
        for entry in keys { keysByLength[entry.key.utf8.count & 63].append(entry) }
        self.keysByLength = keysByLength
        self.prefixes = prefixes.map { ($0.prefix, $0.prefix.utf8.first ?? 0, $0.prefix.utf8.count, $0.bits) }
        self.anyKeyBits = anyKeyBits
        allBits = bits.reduce(0, |)
        keyLengths = keys.reduce(0) { $0 | 1 << UInt64($1.key.utf8.count & 63) }
        prefixFirstBytes = Self.firstByteSet(prefixes.map(\.prefix))
        var smallKeysByLength = [[(words: (UInt64, UInt64), bits: UInt64)]](repeating: [], count: 16)
        var smallPrefixes: [(words: (UInt64, UInt64), masks: (UInt64, UInt64), first: UInt8, length: Int, bits: UInt64)] = []
        var smallTag = JSONObject.smallASCIITag
        if smallTag != nil {
            // A text of at most 15 ASCII bytes whose words cannot be made would be missed by
            // the small path: then no key takes it.
            func words(_ text: String) -> (UInt64, UInt64)? {
                let words = Self.smallASCIIWords(text)
                if words == nil, text.utf8.count <= 15, text.utf8.allSatisfy({ $0 < 0x80 }) { smallTag = nil }
                return words
            }
            for (key, bits) in keys {
                guard let words = words(key) else { continue }
                smallKeysByLength[key.utf8.count].append((words, bits))
            }
            for (prefix, bits) in prefixes where !prefix.isEmpty {
                guard let words = words(prefix) else { continue }
                let length = prefix.utf8.count
                let masks = Self.prefixMasks(length: length)
                smallPrefixes.append(((words.0 & masks.0, words.1 & masks.1), masks, prefix.utf8.first ?? 0, length, bits))
            }
        }
        self.smallKeysByLength = smallKeysByLength
        self.smallPrefixes = smallPrefixes
        self.smallTag = smallTag
    }

    /// The first bytes of `texts` (the empty ones have none), as a 256-bit set (bit `b % 64`
    /// of word `b / 64`), for ``contains(_:_:)``.
    static func firstByteSet(_ texts: [String]) -> (UInt64, UInt64, UInt64, UInt64) {
        var set: [UInt64] = [0, 0, 0, 0]
        for text in texts {
            if let first = text.utf8.first { set[Int(first >> 6)] |= 1 << UInt64(first & 63) }
        }
        return (set[0], set[1], set[2], set[3])
    }

    /// The masks of the two words of a small string (``smallASCIIWords(_:)``) that keep its
    /// first `length` bytes (1 to 15): a small ASCII key starts with a prefix of that length
    /// exactly when its words, masked, equal the prefix's and it is at least as long.
    static func prefixMasks(length: Int) -> (UInt64, UInt64) {
        (
            length >= 8 ? ~0 : (1 << UInt64(8 * length)) &- 1,
            length <= 8 ? 0 : (1 << UInt64(8 * (length - 8))) &- 1
        )
    }

    /// Whether the 256-bit set `set` (bit `b % 64` of word `b / 64`) holds `byte`.
    @inline(__always)
    static func contains(_ set: (UInt64, UInt64, UInt64, UInt64), _ byte: UInt8) -> Bool {
        let word: UInt64
        switch byte >> 6 {
        case 0: word = set.0
        case 1: word = set.1
        case 2: word = set.2
        default: word = set.3
        }
        return word & (1 << UInt64(byte & 63)) != 0
    }

    /// The two words of `text` as a small ASCII string (made anew from its bytes, so that the
    /// standard library's small form is used whatever form `text` is in), or `nil` when it is
    /// longer than 15 bytes, not ASCII, or the layout is not the platform's.
    static func smallASCIIWords(_ text: String) -> (UInt64, UInt64)? {
        guard let tag = JSONObject.smallASCIITag, text.utf8.count <= 15, text.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        let copy = String(decoding: Array(text.utf8), as: UTF8.self)
        let words = unsafeBitCast(copy, to: (UInt64, UInt64).self)
        return words.1 & JSONObject.tagMask == tag ? words : nil
    }

    /// The bits of the definitions whose root filter admits `root`: one of its keys is
    /// required, or starts with a required prefix.
    func admitted(_ root: JSONObject) -> UInt64 {
        var result: UInt64 = root.isEmpty ? 0 : anyKeyBits
        let keyLengths = keyLengths
        let firstBytes = prefixFirstBytes
        let hasPrefixes = !prefixes.isEmpty
        let allBits = allBits
        if result == allBits { return result }
        let smallTag = smallTag
        // Reads the keys until one sets the last bit (for one definition: its first match).
        _ = root.containsKey { key in
            if let smallTag {
                // Most keys are small ASCII strings: compared by their words.
                let words = unsafeBitCast(key, to: (UInt64, UInt64).self)
                if words.1 & JSONObject.tagMask == smallTag {
                    let length = Int(truncatingIfNeeded: words.1 >> 56) & 0x0F
                    if keyLengths & (1 << UInt64(length)) != 0 {
                        let group = smallKeysByLength[length]
                        for i in group.indices where group[i].words == words { result |= group[i].bits }
                    }
                    guard hasPrefixes, length > 0 else { return result == allBits }
                    let first = UInt8(truncatingIfNeeded: words.0)
                    guard Self.contains(firstBytes, first) else { return result == allBits }
                    for i in smallPrefixes.indices where smallPrefixes[i].first == first && smallPrefixes[i].length <= length {
                        let p = smallPrefixes[i]
                        if words.0 & p.masks.0 == p.words.0, words.1 & p.masks.1 == p.words.1 { result |= p.bits }
                    }
                    return result == allBits
                }
            }
            let utf8 = key.utf8
            let length = utf8.count
            if keyLengths & (1 << UInt64(length & 63)) != 0 {
                let group = keysByLength[length & 63]
                for i in group.indices where group[i].key.utf8.count == length && group[i].key == key {
                    result |= group[i].bits
                }
            }
            guard hasPrefixes, let first = utf8.first else { return result == allBits }
            guard Self.contains(firstBytes, first) else { return result == allBits }
            for i in prefixes.indices where prefixes[i].first == first && prefixes[i].length <= length {
                if result & prefixes[i].bits != prefixes[i].bits, key.hasUTF8Prefix(prefixes[i].prefix) { result |= prefixes[i].bits }
            }
            return result == allBits
        }
        return result
    }
}

extension InputEvent.Kind {
    /// The object a definition's root filter reads: a notification's `userInfo`, an in-app
    /// message, a vendor event; `nil` for a URL or a user activity.
    var rootObject: JSONObject? {
        switch self {
        case .notification(let userInfo, _, _): userInfo
        case .inAppMessage(let message, _): message
        case .vendorEvent(let event): event
        case .url, .userActivity: nil
        }
    }
}
