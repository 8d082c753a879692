/// Object keys a parser has made before, kept so that a key met again is not made again.
///
/// Records of one stream repeat the same few dozen keys (`kind`, `userInfo`, `aps`, `title`,
/// …), and making each one a `String` again (copying its bytes into a small string) is a fixed
/// cost per key. With a cache, a key of up to 15 ASCII bytes with no escape — nearly every key —
/// is read as its bytes (two machine words) and looked up in a direct-mapped table
/// of 256 slots; a hit returns the `String` made before, a miss makes it and takes the slot.
/// Anything else (a longer key, an escape, a non-ASCII byte, the end of the input within 16
/// bytes) is read as if there were no cache, so the result — value or error — is the same
/// either way (held to that by a differential test).
///
/// A cache is not thread-safe: it belongs to one parse at a time (one thread's run of records,
/// as `normalize --lines` gives each parallel run its own).
package final class JSONKeyCache {
    /// The number of slots: a power of two.
    private static let slotCount = 256

    /// A key's bytes as two little-endian words, zero past its end, and the key. A key's
    /// bytes are never zero (NUL is a control character, which a JSON string must escape),
    /// so the two words give its length too. An unused slot holds the empty key.
    struct Slot {
        var low: UInt64
        var high: UInt64
        var key: String
    }

    /// The slots, which the parser reads through ``Table`` (no reference counting per key).
    private let slots: UnsafeMutablePointer<Slot>

    /// An empty cache.
    package init() {
        slots = .allocate(capacity: Self.slotCount)
        slots.initialize(repeating: Slot(low: 0, high: 0, key: ""), count: Self.slotCount)
    }

    deinit {
        slots.deinitialize(count: Self.slotCount)
        slots.deallocate()
    }

    /// The cache's slots as the parser holds them during one parse, while the cache is kept
    /// alive by the caller.
    var table: Table { Table(slots: slots) }

    /// The slots of a cache, without a reference to it.
    struct Table {
        let slots: UnsafeMutablePointer<Slot>
    }
}

extension JSONKeyCache.Table {
    /// The key whose `length` bytes (at most 15, ASCII, no escape) are `low` then `high`
    /// (little-endian, zero past the key), made from `bytes` when not cached.
    @inline(__always)
    func key(low: UInt64, high: UInt64, length: Int, bytes: UnsafePointer<UInt8>) -> String {
        let hash = (low ^ (high &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(truncatingIfNeeded: length)) &* 0x9E37_79B9_7F4A_7C15
        let slot = slots + Int(truncatingIfNeeded: hash >> 56)
        if slot.pointee.low == low, slot.pointee.high == high {
            return slot.pointee.key
        }
        let key = String(knownValidUTF8: UnsafeBufferPointer(start: bytes, count: length), isASCII: true)
        slot.pointee = JSONKeyCache.Slot(low: low, high: high, key: key)
        return key
    }
}
