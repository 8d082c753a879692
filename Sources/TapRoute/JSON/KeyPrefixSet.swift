/// A few key prefixes, asked whether a key starts with one of them, by its UTF-8 bytes (as
/// ``Swift/String/hasUTF8Prefix(_:)`` compares): the `withoutPrefixes` of a definition's
/// payload, asked for every key of the object it keeps.
///
/// Most keys are small ASCII strings (at most 15 bytes, held in the string's own 16 bytes,
/// ``JSONObject/smallASCIITag``). A prefix of 1 to 15 ASCII bytes is kept as the words of its
/// small string and a mask of its bytes: a small ASCII key starts with it exactly when the
/// key's words, masked, equal the prefix's and the key is at least as long, two compares
/// without a call. A small ASCII key has no other prefix: a longer one does not fit in it, a
/// non-ASCII one would need a non-ASCII byte. Any other key is compared byte by byte, after a
/// test of its first byte.
package struct KeyPrefixSet: Sendable {
    /// The prefixes, in the order given (duplicates kept: they cost one compare each).
    package let prefixes: [String]
    /// Whether one prefix is empty: every key starts with it.
    private let hasEmpty: Bool
    /// The first bytes of the prefixes, as a 256-bit set (bit `b % 64` of word `b / 64`).
    private let firstBytes: (UInt64, UInt64, UInt64, UInt64)
    /// The prefixes of 1 to 15 ASCII bytes: the words of their small string masked to their
    /// bytes, the masks, and their length.
    private let small: [(words: (UInt64, UInt64), masks: (UInt64, UInt64), length: Int)]
    /// ``JSONObject/smallASCIITag`` when every prefix of 1 to 15 ASCII bytes is in ``small``
    /// (its small string could be made), so that a small ASCII key is compared with those
    /// alone; `nil` otherwise, and every key takes the byte path.
    private let smallTag: UInt64?

    /// The set of `prefixes`.
    package init(_ prefixes: [String]) {
        self.prefixes = prefixes
        hasEmpty = prefixes.contains { $0.isEmpty }
        firstBytes = DetectionPrefilter.firstByteSet(prefixes)
        var small: [(words: (UInt64, UInt64), masks: (UInt64, UInt64), length: Int)] = []
        var smallTag = JSONObject.smallASCIITag
        for prefix in prefixes where !prefix.isEmpty {
            let length = prefix.utf8.count
            guard let words = DetectionPrefilter.smallASCIIWords(prefix) else {
                // A prefix a small ASCII key could start with, whose words could not be made:
                // no key takes the small path.
                if length <= 15, prefix.utf8.allSatisfy({ $0 < 0x80 }) { smallTag = nil }
                continue
            }
            let masks = DetectionPrefilter.prefixMasks(length: length)
            small.append(((words.0 & masks.0, words.1 & masks.1), masks, length))
        }
        self.small = small
        self.smallTag = smallTag
    }

    /// Whether there is no prefix.
    package var isEmpty: Bool { prefixes.isEmpty }

    /// Whether `key` starts with one of the prefixes (by its UTF-8 bytes). Not inlined: where
    /// it is asked for every key of an object (a payload's `withoutPrefixes`), its code in the
    /// caller's loop made the compiler leave the loop's array appends generic (measured: +150
    /// instructions a record for payloads without prefixes).
    @inline(never)
    package func matches(_ key: String) -> Bool {
        if prefixes.isEmpty { return false }
        if hasEmpty { return true }
        if let smallTag {
            let words = unsafeBitCast(key, to: (UInt64, UInt64).self)
            if words.1 & JSONObject.tagMask == smallTag {
                let length = Int(truncatingIfNeeded: words.1 >> 56) & 0x0F
                for i in small.indices where small[i].length <= length {
                    let p = small[i]
                    if words.0 & p.masks.0 == p.words.0, words.1 & p.masks.1 == p.words.1 { return true }
                }
                return false
            }
        }
        return matchesBytes(key)
    }

    /// ``matches(_:)`` for a key that is not a small ASCII string: by its first byte, then
    /// its bytes.
    private func matchesBytes(_ key: String) -> Bool {
        guard let first = key.utf8.first, DetectionPrefilter.contains(firstBytes, first) else { return false }
        for prefix in prefixes where key.hasUTF8Prefix(prefix) { return true }
        return false
    }
}
