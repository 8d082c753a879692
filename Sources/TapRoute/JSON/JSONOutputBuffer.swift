/// A growable byte buffer that JSON is written into: one capacity check and one copy per
/// append, no copy-on-write checks, memory kept across `removeAll()`.
///
/// The writers (``JSONWriter``, `Interaction.writeJSON`) write into it; their `[UInt8]`
/// forms copy its bytes out once at the end. The `normalize` CLI keeps one buffer per worker
/// thread for a whole run.
package struct JSONOutputBuffer: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    /// The bytes it has room for before it grows.
    package private(set) var capacity: Int
    /// The number of bytes written.
    package private(set) var count: Int

    /// Creates an empty buffer with room for `capacity` bytes before it grows.
    package init(capacity: Int = 4096) {
        self.capacity = Swift.max(capacity, 16)
        base = .allocate(capacity: self.capacity)
        count = 0
    }

    deinit { base.deallocate() }

    /// Forgets the bytes written, keeping the memory.
    package mutating func removeAll() { count = 0 }

    /// Forgets the bytes written, keeping at most `limit` bytes of memory: a buffer grown past
    /// it (by output much larger than usual) is given back.
    package mutating func removeAll(keepingCapacityUpTo limit: Int) {
        count = 0
        guard capacity > limit else { return }
        base.deallocate()
        capacity = Swift.max(limit, 16)
        base = .allocate(capacity: capacity)
    }

    /// Calls `body` with the bytes written.
    package func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    package mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    @inline(never)
    private mutating func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// Appends one byte.
    @inline(__always)
    package mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    /// Appends bytes.
    @inline(__always)
    package mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    /// Appends the UTF-8 bytes of a literal.
    @inline(__always)
    package mutating func append(literal: StaticString) {
        append(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Appends the UTF-8 bytes of `string`, unquoted.
    @inline(__always)
    package mutating func append(utf8 string: String) {
        var string = string
        string.withUTF8 { append($0) }
    }

    /// Appends bytes the caller writes into `maximum` bytes of room; `body` returns how many
    /// it wrote.
    @inline(__always)
    package mutating func append(maximum: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        reserve(maximum)
        count += body(base + count)
    }
}

extension Array where Element == UInt8 {
    /// Appends what `write` puts in a fresh ``JSONOutputBuffer``.
    mutating func appendWritten(_ write: (inout JSONOutputBuffer) -> Void) {
        var buffer = JSONOutputBuffer(capacity: 1024)
        write(&buffer)
        buffer.withBytes { append(contentsOf: $0) }
    }
}
