/// A forward-only reader of JSON text, for an adapter's fast path: it reads members and
/// strings in place and builds a `String` only for a value the caller asks for, where
/// ``JSONParser`` builds a whole value tree that the adapter then looks up and frees.
///
/// It takes only what it can read exactly as ``JSONParser`` reads it — whitespace, objects,
/// arrays, literals and numbers as RFC 8259 writes them, strings whose escapes are valid
/// (a `\u` surrogate only in a pair), nesting within ``maximumDepth`` counted as the parser
/// counts it — and answers `nil` (or `false`) for anything else: an escaped key, a lone
/// surrogate, a control byte, invalid JSON, nesting too deep. `nil` means "not read here",
/// not "invalid": the caller then reads the same text with ``JSONParser``, which gives the
/// value or the error. So a fast path built on it needs no error messages of its own, and
/// never accepts what the parser would refuse.
///
/// The bytes must be valid UTF-8 (a `String`'s): the scanner does not check them.
package struct PlainJSONScanner {
    /// The text.
    private let base: UnsafePointer<UInt8>
    /// Its length in bytes.
    private let count: Int
    /// The next byte to read.
    package private(set) var position = 0
    /// The deepest nesting accepted, as ``JSONParser/maximumDepth``: the root object or array
    /// is at depth 1.
    package let maximumDepth: Int

    /// A scanner of `text`, which must be valid UTF-8 and must outlive the scanner; `nil`
    /// when the buffer has no address (as an empty one may not).
    package init?(_ text: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        guard let base = text.baseAddress else { return nil }
        self.base = base
        self.count = text.count
        self.maximumDepth = maximumDepth
    }

    // MARK: - Bytes

    /// Moves past JSON whitespace (space, tab, line feed, carriage return): the first byte
    /// looked at in line, the rest of a run out of line (``skipWhitespaceRun()``), as the
    /// parser does it.
    @inline(__always)
    package mutating func skipWhitespace() {
        if position < count, isJSONWhitespace(base[position]) { skipWhitespaceRun() }
    }

    /// Moves past the whitespace at the scanner (at least one byte of it).
    @inline(never)
    private mutating func skipWhitespaceRun() {
        repeat { position &+= 1 } while position < count && isJSONWhitespace(base[position])
    }

    /// The next byte after whitespace, without moving past it; `nil` at the end.
    @inline(__always)
    package mutating func peek() -> UInt8? {
        skipWhitespace()
        return position < count ? base[position] : nil
    }

    /// Whether only whitespace is left.
    package mutating func isAtEnd() -> Bool {
        skipWhitespace()
        return position == count
    }

    // MARK: - Containers

    /// Moves past the `{` of an object at `depth` (the root is 1); `false` when the next
    /// byte is not `{` or the object would nest deeper than ``maximumDepth``.
    package mutating func beginObject(depth: Int) -> Bool {
        guard depth <= maximumDepth, peek() == UInt8(ascii: "{") else { return false }
        position &+= 1
        return true
    }

    /// Moves past the `[` of an array at `depth`; `false` as ``beginObject(depth:)``.
    package mutating func beginArray(depth: Int) -> Bool {
        guard depth <= maximumDepth, peek() == UInt8(ascii: "[") else { return false }
        position &+= 1
        return true
    }

    /// The next member's key, its bytes between the quotes, with the scanner moved past the
    /// colon; `.some(nil)` at the object's closing brace (moved past); `nil` for anything else
    /// (a key with an escape included). `first` is whether no member has been read yet.
    package mutating func nextKey(first: Bool) -> UnsafeBufferPointer<UInt8>?? {
        guard let b = peek() else { return nil }
        if b == UInt8(ascii: "}") {
            position &+= 1
            return .some(nil)
        }
        if !first {
            guard b == UInt8(ascii: ",") else { return nil }
            position &+= 1
            skipWhitespace()
        }
        guard position < count, base[position] == UInt8(ascii: "\""), let key = plainStringAtQuote() else { return nil }
        guard peek() == UInt8(ascii: ":") else { return nil }
        position &+= 1
        skipWhitespace()
        return .some(key)
    }

    /// Whether the array has a next element (the scanner then at it); `false` at its closing
    /// bracket (moved past); `nil` for anything else. `first` is whether no element has been
    /// read yet.
    package mutating func hasNextElement(first: Bool) -> Bool? {
        guard let b = peek() else { return nil }
        if b == UInt8(ascii: "]") {
            position &+= 1
            return false
        }
        if !first {
            guard b == UInt8(ascii: ",") else { return nil }
            position &+= 1
            skipWhitespace()
        }
        return true
    }

    // MARK: - Values

    /// The first position from `p` that may hold a quote, a backslash or a control byte,
    /// found eight bytes at a time: the first such byte, or where fewer than eight bytes are
    /// left (the caller reads those one by one).
    @inline(__always)
    private func passPlainRun(from p: Int) -> Int {
        var p = p
        while p &+ 8 <= count {
            let special = jsonStringSpecialBytes(UInt64(littleEndian: UnsafeRawPointer(base + p).loadUnaligned(as: UInt64.self)))
            if special != 0 { return p &+ special.trailingZeroBitCount &>> 3 }
            p &+= 8
        }
        return p
    }

    /// The string at the scanner (its opening quote, after whitespace) when it has no escape
    /// and no control byte: its bytes between the quotes, the scanner moved past it.
    package mutating func plainString() -> UnsafeBufferPointer<UInt8>? {
        guard peek() == UInt8(ascii: "\"") else { return nil }
        return plainStringAtQuote()
    }

    /// ``plainString()`` with the scanner at the opening quote (the callers that have looked
    /// at it already: a key, a value after ``peek()``).
    @inline(__always)
    private mutating func plainStringAtQuote() -> UnsafeBufferPointer<UInt8>? {
        let start = position &+ 1
        var p = passPlainRun(from: start)
        while p < count {
            let b = base[p]
            if b == UInt8(ascii: "\"") {
                position = p &+ 1
                return UnsafeBufferPointer(start: base + start, count: p &- start)
            }
            if b == UInt8(ascii: "\\") || b < 0x20 { return nil }
            p &+= 1
        }
        return nil
    }

    /// The string at the scanner with its escapes decoded as ``JSONParser`` decodes them,
    /// the scanner moved past it; `nil` for a string ``skipString()`` does not take.
    package mutating func stringValue() -> String? {
        guard peek() == UInt8(ascii: "\"") else { return nil }
        if let plain = plainStringAtQuote() { return Self.string(plain) }
        let open = position
        guard skipString() else { return nil }
        // Between the quotes; escapes never lengthen the text, so that bounds the decoded one.
        let content = UnsafeBufferPointer(start: base + open + 1, count: position &- open &- 2)
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: content.count) { out -> String? in
            guard let length = jsonUnescape(content, into: out) else { return nil }
            return Self.string(UnsafeBufferPointer(rebasing: out[0..<length]))
        }
    }

    /// `bytes` (from this scanner's text, so valid UTF-8) as a `String`.
    package static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(knownValidUTF8: bytes, isASCII: String.isASCII(bytes))
    }

    /// Moves past the string at the scanner, escapes and all, checking each escape as
    /// ``JSONParser`` does; `false` for an escape it would refuse or that this scanner does
    /// not take (a `\u` surrogate not in a pair), a control byte, or no closing quote.
    package mutating func skipString() -> Bool {
        guard peek() == UInt8(ascii: "\"") else { return false }
        var p = position &+ 1
        while true {
            p = passPlainRun(from: p)
            guard p < count else { return false }
            let b = base[p]
            if b == UInt8(ascii: "\"") {
                position = p &+ 1
                return true
            }
            if b < 0x20 { return false }
            if b != UInt8(ascii: "\\") {
                p &+= 1
                continue
            }
            guard p &+ 1 < count else { return false }
            switch base[p &+ 1] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                p &+= 2
            case UInt8(ascii: "u"):
                // A run of `\u` escapes, escape after escape (text whose every non-ASCII
                // character is escaped: `\u0437\u0430\u043a`).
                guard JSONEscape.passUnicodeEscapes(base, &p, count: count) else { return false }
            default:
                return false
            }
        }
    }

    /// Moves past `literal` (`true`, `false`, `null`) when the text has it at the scanner.
    package mutating func skipLiteral(_ literal: StaticString) -> Bool {
        skipWhitespace()
        let length = literal.utf8CodeUnitCount
        guard count &- position >= length else { return false }
        for i in 0..<length where base[position &+ i] != literal.utf8Start[i] { return false }
        position &+= length
        return true
    }

    /// Moves past the number at the scanner when it is RFC 8259's syntax (§6), as
    /// ``JSONParser`` reads it: the run of bytes a number may hold, checked whole by
    /// ``JSONNumber``. (A run that is a valid number followed by more such bytes is refused
    /// here and by the parser alike: none of them may follow a value.)
    package mutating func skipNumber() -> Bool {
        skipWhitespace()
        var p = position
        while p < count {
            let b = base[p]
            guard
                b &- 0x30 < 10 || b == UInt8(ascii: "-") || b == UInt8(ascii: "+") || b == UInt8(ascii: ".")
                    || b | 0x20 == UInt8(ascii: "e")
            else { break }
            p &+= 1
        }
        guard JSONNumber.isValid(UnsafeBufferPointer(start: base + position, count: p &- position)) else { return false }
        position = p
        return true
    }

    /// Moves past the value at the scanner, of any kind, checking it as ``JSONParser`` reads
    /// it; `depth` is the depth of the object or array that holds it (0 for the root).
    /// `false` for anything ``JSONParser`` would refuse or this scanner does not take.
    package mutating func skipValue(depth: Int) -> Bool {
        guard let b = peek() else { return false }
        switch b {
        case UInt8(ascii: "\""):
            return skipString()
        case UInt8(ascii: "{"):
            guard beginObject(depth: depth &+ 1) else { return false }
            var first = true
            while true {
                guard let key = nextKey(first: first) else { return false }
                guard key != nil else { return true }
                guard skipValue(depth: depth &+ 1) else { return false }
                first = false
            }
        case UInt8(ascii: "["):
            guard beginArray(depth: depth &+ 1) else { return false }
            var first = true
            while true {
                guard let more = hasNextElement(first: first) else { return false }
                guard more else { return true }
                guard skipValue(depth: depth &+ 1) else { return false }
                first = false
            }
        case UInt8(ascii: "t"): return skipLiteral("true")
        case UInt8(ascii: "f"): return skipLiteral("false")
        case UInt8(ascii: "n"): return skipLiteral("null")
        default: return skipNumber()
        }
    }

    // MARK: - Keys

    /// A few keys, each found by its UTF-8 bytes as ``JSONObject``'s lookups match them.
    package struct Keys: Sendable {
        /// A key of at most 24 bytes as its length and three words that hold every byte
        /// (``signature(_:count:)``); `index` is its position in the list given.
        private struct Entry: Sendable {
            let count: Int
            let words: (UInt64, UInt64, UInt64)
            let index: Int
        }

        /// The keys of at most 24 bytes.
        private let entries: [Entry]
        /// The longer keys' bytes, with their positions.
        private let longKeys: [(bytes: [UInt8], index: Int)]

        /// The keys, in the order ``index(of:)`` numbers them.
        package init(_ keys: [String]) {
            var entries: [Entry] = []
            var longKeys: [(bytes: [UInt8], index: Int)] = []
            for (i, key) in keys.enumerated() {
                let bytes = Array(key.utf8)
                if bytes.count <= 24 {
                    let words = bytes.withUnsafeBufferPointer { Self.signature($0.baseAddress, count: $0.count) }
                    entries.append(Entry(count: bytes.count, words: words, index: i))
                } else {
                    longKeys.append((bytes, i))
                }
            }
            self.entries = entries
            self.longKeys = longKeys
        }

        /// Three words that together hold each of the `count` (at most 24) bytes at `start`,
        /// read in overlapping loads that stay inside them: two keys of one length have the
        /// same words exactly when they have the same bytes.
        @inline(__always)
        private static func signature(_ start: UnsafePointer<UInt8>?, count: Int) -> (UInt64, UInt64, UInt64) {
            guard let start, count > 0 else { return (0, 0, 0) }
            let raw = UnsafeRawPointer(start)
            @inline(__always) func word(_ offset: Int) -> UInt64 { raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self) }
            @inline(__always) func half(_ offset: Int) -> UInt64 {
                UInt64(raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            }
            switch count {
            case 1...3:
                return (UInt64(start[0]) | UInt64(start[count >> 1]) << 8 | UInt64(start[count - 1]) << 16, 0, 0)
            case 4...7: return (half(0) | half(count - 4) << 32, 0, 0)
            case 8...16: return (word(0), word(count - 8), 0)
            default: return (word(0), word(8), word(count - 8))
            }
        }

        /// The position in the list given of the key whose bytes are `bytes`, or `nil`.
        package func index(of bytes: UnsafeBufferPointer<UInt8>) -> Int? {
            let count = bytes.count
            guard count <= 24 else {
                return longKeys.first { $0.bytes.elementsEqual(bytes) }?.index
            }
            let words = Self.signature(bytes.baseAddress, count: count)
            for entry in entries
            where entry.count == count && entry.words.0 == words.0 && entry.words.1 == words.1 && entry.words.2 == words.2 {
                return entry.index
            }
            return nil
        }
    }
}

/// The checking and decoding of `\u` escapes, shared by the parser and ``PlainJSONScanner``.
enum JSONEscape {
    /// Moves `p` from a `\u` escape (its backslash) past it and every `\u` escape right after
    /// it, as the parser checks them: four hexadecimal digits, a high surrogate only
    /// with a low one after it, no low surrogate alone. `false` at the first escape that is
    /// not such (`p` is then somewhere in the run). The parser's and ``PlainJSONScanner``'s
    /// string skipping share it.
    @inline(__always)
    static func passUnicodeEscapes(_ base: UnsafePointer<UInt8>, _ p: inout Int, count: Int) -> Bool {
        repeat {
            guard let scalar = hex4(base, at: p &+ 2, count: count) else { return false }
            p &+= 6
            if scalar >= 0xD800 && scalar < 0xDC00 {
                guard p &+ 1 < count, base[p] == UInt8(ascii: "\\"), base[p &+ 1] == UInt8(ascii: "u"),
                    let low = hex4(base, at: p &+ 2, count: count), low >= 0xDC00 && low < 0xE000
                else { return false }
                p &+= 6
            } else if scalar >= 0xDC00 && scalar < 0xE000 {
                return false
            }
        } while p &+ 1 < count && base[p] == UInt8(ascii: "\\") && base[p &+ 1] == UInt8(ascii: "u")
        return true
    }

    /// The value of four hexadecimal digits at `i`, or `nil`.
    ///
    /// The four bytes are read as one word and checked and converted together, without a
    /// branch per digit: each byte must be `0`–`9` or, with its case bit set, `a`–`f`.
    @inline(__always)
    static func hex4(_ source: UnsafePointer<UInt8>, at i: Int, count: Int) -> UInt32? {
        guard i + 4 <= count else { return nil }
        let word = UInt32(littleEndian: UnsafeRawPointer(source + i).loadUnaligned(as: UInt32.self))
        let ones: UInt32 = 0x0101_0101
        let highs: UInt32 = 0x8080_8080
        guard word & highs == 0 else { return nil }
        // With every byte below 0x80, `x + (0x80 - c)` sets a byte's high bit exactly when
        // that byte is at least `c`, and no byte carries into the next.
        @inline(__always) func atLeast(_ x: UInt32, _ c: UInt32) -> UInt32 { (x &+ ones &* (0x80 - c)) & highs }
        let lower = word | 0x2020_2020
        let digits = atLeast(word, 0x30) & ~atLeast(word, 0x3A)
        let letters = atLeast(lower, 0x61) & ~atLeast(lower, 0x67)
        guard digits | letters == highs else { return nil }
        // A digit's value is its low four bits; a letter's (`a` = 0x61) is its low four bits
        // plus nine.
        let values = (word & 0x0F0F_0F0F) &+ (letters >> 7) &* 9
        // The first byte is the most significant digit.
        let pairs = (values & 0x000F_000F) << 4 | (values >> 8) & 0x000F_000F
        return (pairs & 0xFF) << 8 | (pairs >> 16) & 0xFF
    }
}
