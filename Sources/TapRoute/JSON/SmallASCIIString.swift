/// Builds strings of up to 15 ASCII bytes directly in the standard library's small-string
/// form, without the call into `String(copying:)` (about 140 instructions a string, most of
/// a record's keys and short values).
///
/// On 64-bit platforms a `String` of at most 15 UTF-8 bytes holds them inline, in its own
/// 16 bytes: the text in the first 15, and in the last a discriminator (small, ASCII,
/// immortal) with the count in its low four bits. That form is part of the standard
/// library's ABI on Apple platforms (inlinable client code reads it), and Linux uses the
/// same one — but this type does not take it on trust: ``isAvailable`` builds every length
/// from 0 to 15 both ways on first use and compares the values byte for byte with the ones
/// the standard library makes. Where any differs (another layout, a 32-bit platform), it
/// is `false` and every string is made by the standard library as before.
enum SmallASCIIString {
    /// The most bytes a small string holds.
    static let capacity = 15

    /// The last byte of a small ASCII string of no bytes: its discriminator, read from one
    /// the standard library made.
    static let discriminator: UInt8 = {
        let empty = String(decoding: [UInt8](), as: UTF8.self)
        return withUnsafeBytes(of: empty) { $0.count == 16 ? $0[15] : 0 }
    }()

    /// Whether ``make(_:discriminator:)`` builds exactly the strings the standard library builds: checked
    /// once, for every length from 0 to 15.
    static let isAvailable: Bool = {
        guard MemoryLayout<String>.size == 16, discriminator & 0x0F == 0, discriminator != 0 else { return false }
        // Two texts, so that every byte position holds two different values.
        let texts = [Array("abcdefghijklmno".utf8), Array("~ZY9 x_0/:?#%-A".utf8)]
        for text in texts {
            for length in 0...capacity {
                let slice = Array(text[0..<length])
                let expected = String(decoding: slice, as: UTF8.self)
                // The bits are compared before they are made a `String`: a value of another
                // layout is never formed (its copy or release could read them as a pointer).
                var bits = slice.withUnsafeBufferPointer { SmallASCIIString.bits($0, discriminator: discriminator) }
                let same = withUnsafeBytes(of: expected) { e in withUnsafeBytes(of: &bits) { b in e.elementsEqual(b) } }
                guard same else { return false }
                let made = string(bits)
                guard made == expected, made.utf8.count == length else { return false }
            }
        }
        return true
    }()

    /// ``discriminator`` where ``isAvailable``, else 0: what a caller reads before each
    /// string (one global read, where reading both is two — each a call to `swift_once`).
    static let availableDiscriminator: UInt8 = isAvailable ? discriminator : 0

    /// The string of `bytes`, which must be at most ``capacity`` ASCII bytes; only to be
    /// called with ``availableDiscriminator`` when it is not 0.
    @inline(__always)
    static func make(_ bytes: UnsafeBufferPointer<UInt8>, discriminator: UInt8) -> String {
        string(bits(bytes, discriminator: discriminator))
    }

    /// The string of `count` bytes (at most ``capacity``, ASCII) held in `low` then `high`
    /// as little-endian words, zero past the text (so `high`'s last byte is free for the
    /// discriminator and count); only to be called with ``availableDiscriminator`` when it is
    /// not 0.
    @inline(__always)
    static func make(low: UInt64, high: UInt64, count: Int, discriminator: UInt8) -> String {
        string(bits(low: low, high: high, count: count, discriminator: discriminator))
    }

    /// The string whose two words are `words`, taken as an owned value: moved out of the
    /// words' memory rather than bit-cast, as a bit-cast value is borrowed and its copy is a
    /// call to `swift_bridgeObjectRetain` (which does nothing for a small string, but is a
    /// call for every key and short value the parser reads).
    @inline(__always)
    static func string(_ words: (UInt64, UInt64)) -> String {
        var words = words
        return withUnsafeMutableBytes(of: &words) { raw in
            raw.baseAddress.unsafelyUnwrapped.withMemoryRebound(to: String.self, capacity: 1) { $0.move() }
        }
    }

    /// The 16 bytes of the small string of `bytes` (at most ``capacity`` ASCII bytes) with
    /// `discriminator` in the last, as two words in memory order.
    @inline(__always)
    static func bits(_ bytes: UnsafeBufferPointer<UInt8>, discriminator: UInt8) -> (UInt64, UInt64) {
        let count = bytes.count
        var low: UInt64 = 0
        var high: UInt64 = 0
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            // Whole words where the text has them; the loads never reach past its end (the
            // second of two overlapping loads ends at its last byte).
            if count >= 8 {
                low = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
                if count > 8 {
                    let tail = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
                    high = tail >> UInt64(8 * (16 - count))
                }
            } else if count >= 4 {
                let head = UInt64(UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self)))
                let tail = UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)))
                low = head | tail << UInt64(8 * (count - 4))
            } else {
                for i in 0..<count { low |= UInt64(base[i]) << UInt64(8 * i) }
            }
        }
        return bits(low: low, high: high, count: count, discriminator: discriminator)
    }

    /// The 16 bytes of the small string of `count` bytes held in `low` then `high` (as in
    /// ``make(low:high:count:discriminator:)``) with `discriminator` and the count in the last,
    /// as two words in memory order.
    @inline(__always)
    static func bits(low: UInt64, high: UInt64, count: Int, discriminator: UInt8) -> (UInt64, UInt64) {
        let top = high | UInt64(discriminator | UInt8(truncatingIfNeeded: count)) << 56
        return (low.littleEndian, top.littleEndian)
    }
}
