/// A few keys, each with bits to mark it by: ``marks(in:)`` gives the bits of the keys an
/// object has, in one pass over its members' keys read in place — what detection asks of
/// every record, where a lookup per key (or a closure per member, which retains each key)
/// costs several times as much.
///
/// Keys are matched by their UTF-8 bytes, as ``JSONObject``'s lookups match them (so KELVIN
/// SIGN is not `K`). On the platforms where a key of at most 15 ASCII bytes is held in the
/// string's own 16 bytes (``JSONObject/smallASCIITag``), such a key is compared with the keys
/// of its length by those two words; any other key is compared byte by byte.
package struct KeyMarks: Sendable {
    /// The keys, in the order given (a key given twice is kept once, its bits combined).
    @usableFromInline let keys: [String]
    /// The bits of each key.
    @usableFromInline let bits: [UInt64]
    /// Bit `n` is set when a key is `n` UTF-8 bytes long (bit 63: 63 or more).
    @usableFromInline let lengths: UInt64
    /// The keys held as small ASCII strings, as their two words and bits, in order of length.
    @usableFromInline let small: [SmallKey]
    /// Where the small keys of each length start in ``small``: those of length `n` are
    /// `small[smallStarts[n] ..< smallStarts[n + 1]]`.
    @usableFromInline let smallStarts: [Int]
    /// Whether some key is not in ``small`` (longer than 15 bytes, not ASCII, or not held as
    /// a small string): only then is a small key also compared byte by byte.
    @usableFromInline let hasOtherKeys: Bool

    /// A key held as a small ASCII string.
    @usableFromInline
    struct SmallKey: Sendable {
        @usableFromInline let low: UInt64
        @usableFromInline let high: UInt64
        @usableFromInline let bits: UInt64
    }

    /// The keys with their bits.
    package init(_ marks: [(key: String, bits: UInt64)]) {
        var keys: [String] = []
        var bits: [UInt64] = []
        for (key, mark) in marks {
            if let i = keys.firstIndex(where: { $0.hasSameUTF8(as: key) }) {
                bits[i] |= mark
            } else {
                keys.append(key)
                bits.append(mark)
            }
        }
        self.keys = keys
        self.bits = bits
        lengths = keys.reduce(0) { $0 | SmallStringSet.lengthBit($1.utf8.count) }
        var small: [(length: Int, key: SmallKey)] = []
        var hasOtherKeys = false
        for (key, mark) in zip(keys, bits) {
            let words = unsafeBitCast(key, to: (UInt64, UInt64).self)
            if let tag = JSONObject.smallASCIITag, words.1 & JSONObject.tagMask == tag {
                small.append((key.utf8.count, SmallKey(low: words.0, high: words.1, bits: mark)))
            } else {
                hasOtherKeys = true
            }
        }
        small.sort { $0.length < $1.length }
        self.small = small.map(\.key)
        smallStarts = (0...16).map { length in small.firstIndex { $0.length >= length } ?? small.count }
        self.hasOtherKeys = hasOtherKeys
    }

    /// The union of the bits of the keys `object` has.
    @inlinable
    package func marks(in object: JSONObject) -> UInt64 {
        var result: UInt64 = 0
        object.storage.withUnsafeBufferPointer { members in
            guard let base = members.baseAddress else { return }
            let stride = MemoryLayout<JSONObject.Member>.stride
            for i in 0..<members.count {
                if let tag = JSONObject.smallASCIITag {
                    // A member's key is its first field: its two words, read in place.
                    let element = UnsafeRawPointer(base) + i &* stride
                    let high = element.load(fromByteOffset: 8, as: UInt64.self)
                    if high & JSONObject.tagMask == tag {
                        // A small string's count is the low four bits of its last byte.
                        let length = Int(truncatingIfNeeded: (high >> 56) & 0x0F)
                        guard lengths & (1 << UInt64(length)) != 0 else { continue }
                        let low = element.load(as: UInt64.self)
                        for j in smallStarts[length]..<smallStarts[length &+ 1]
                        where small[j].high == high && small[j].low == low {
                            result |= small[j].bits
                        }
                        if !hasOtherKeys { continue }
                    }
                }
                let key = members[i].key
                guard lengths & SmallStringSet.lengthBit(key.utf8.count) != 0 else { continue }
                for j in keys.indices where keys[j].hasSameUTF8(as: key) { result |= bits[j] }
            }
        }
        return result
    }
}
