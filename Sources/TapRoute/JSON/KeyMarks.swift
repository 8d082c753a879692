/// A few keys, each with bits to mark it by: ``marks(in:)`` gives the bits of the keys an
/// object has, in one pass over its members' keys read in place — what detection asks of
/// every record, where a lookup per key (or a closure per member, which retains each key)
/// costs several times as much.
///
/// Keys are matched by their UTF-8 bytes, as ``JSONObject``'s lookups match them (so KELVIN
/// SIGN is not `K`). On the platforms where a key of at most 15 ASCII bytes is held in the
/// string's own 16 bytes (``JSONObject/smallASCIITag``), such a key is compared with the keys
/// of its length by those two words; any other key is compared byte by byte.
package final class KeyMarks: Sendable {
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
    /// The keys of at most 15 ASCII bytes not held as small strings, with their bits: the only
    /// keys besides ``small`` that a small ASCII key can equal (a longer key or one with other
    /// bytes cannot), compared with it byte by byte.
    @usableFromInline let shortOthers: [(key: String, bits: UInt64)]

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
        var shortOthers: [(key: String, bits: UInt64)] = []
        for (key, mark) in zip(keys, bits) {
            let words = unsafeBitCast(key, to: (UInt64, UInt64).self)
            if let tag = JSONObject.smallASCIITag, words.1 & JSONObject.tagMask == tag {
                small.append((key.utf8.count, SmallKey(low: words.0, high: words.1, bits: mark)))
            } else if key.utf8.count <= 15, key.utf8.allSatisfy({ $0 < 0x80 }) {
                shortOthers.append((key, mark))
            }
        }
        small.sort { $0.length < $1.length }
        self.small = small.map(\.key)
        smallStarts = (0...16).map { length in small.firstIndex { $0.length >= length } ?? small.count }
        self.shortOthers = shortOthers
    }

    /// The union of the bits of the keys `object` has.
    @inlinable
    package func marks(in object: JSONObject) -> UInt64 {
        marks(in: object, keeping: .all)
    }

    /// Which bits of a key to keep for each kind of value it holds.
    package struct KindMasks: Sendable {
        /// The bits kept for a key whose value is `null`, a string, and any other value.
        package let null: UInt64, string: UInt64, other: UInt64

        /// Keeps `null`'s, `string`'s and `other`'s bits for those kinds of value.
        @inlinable
        package init(null: UInt64 = ~0, string: UInt64 = ~0, other: UInt64 = ~0) {
            self.null = null
            self.string = string
            self.other = other
        }

        /// Every bit, whatever the value.
        package static let all = KindMasks()
    }

    /// The union of the bits of the keys `object` has, each masked by `masks` for the kind of
    /// its value (`null`, a string, or another).
    @inlinable
    package func marks(in object: JSONObject, keeping masks: KindMasks) -> UInt64 {
        var result: UInt64 = 0
        object.storage.withUnsafeBufferPointer { members in
            guard let base = members.baseAddress else { return }
            let stride = MemoryLayout<JSONObject.Member>.stride
            for i in 0..<members.count {
                var found: UInt64 = 0
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
                            found |= small[j].bits
                        }
                        if !shortOthers.isEmpty {
                            let key = members[i].key
                            for j in shortOthers.indices where shortOthers[j].key.hasSameUTF8(as: key) { found |= shortOthers[j].bits }
                        }
                        if found != 0 { result |= found & Self.mask(masks, members[i].value) }
                        continue
                    }
                }
                let key = members[i].key
                if lengths & SmallStringSet.lengthBit(key.utf8.count) != 0 {
                    for j in keys.indices where keys[j].hasSameUTF8(as: key) { found |= bits[j] }
                }
                if found != 0 { result |= found & Self.mask(masks, members[i].value) }
            }
        }
        return result
    }

    /// The mask of `masks` for `value`'s kind.
    @inlinable @inline(__always)
    static func mask(_ masks: KindMasks, _ value: JSONValue) -> UInt64 {
        switch value {
        case .null: masks.null
        case .string: masks.string
        default: masks.other
        }
    }
}
