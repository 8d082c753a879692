/// A double-ended queue on a ring buffer: O(1) amortized append, prepend and removal at
/// the front.
///
/// Elements are addressed by a *position* that stays the same while the element is in the
/// queue (positions grow at the back and shrink at the front), so the dispatcher can find a
/// waiting entry again in O(1) without scanning.
struct Deque<Element> {
    private var buffer: [Element?] = []
    /// The buffer slot of the first element.
    private var head = 0
    /// The number of elements.
    private(set) var count = 0
    /// The position of the first element (may be negative after prepending).
    private(set) var startPosition = 0

    /// Whether it is empty.
    var isEmpty: Bool { count == 0 }
    /// The position after the last element.
    var endPosition: Int { startPosition + count }
    /// The first element.
    var first: Element? { count == 0 ? nil : buffer[head] }

    /// Appends at the back and returns the element's position.
    @discardableResult
    mutating func append(_ element: Element) -> Int {
        growIfFull()
        buffer[slot(count)] = element
        count += 1
        return endPosition - 1
    }

    /// Inserts at the front and returns the element's position.
    @discardableResult
    mutating func prepend(_ element: Element) -> Int {
        growIfFull()
        head = head == 0 ? buffer.count - 1 : head - 1
        buffer[head] = element
        count += 1
        startPosition -= 1
        return startPosition
    }

    /// Removes and returns the first element.
    mutating func removeFirst() -> Element? {
        guard count > 0 else { return nil }
        let element = buffer[head]
        buffer[head] = nil
        head = head + 1 == buffer.count ? 0 : head + 1
        count -= 1
        startPosition += 1
        shrinkIfSparse()
        return element
    }

    /// Whether `position` holds an element.
    func contains(position: Int) -> Bool {
        position >= startPosition && position < endPosition
    }

    /// The element at `position` (``startPosition`` is the first).
    subscript(position position: Int) -> Element {
        get {
            precondition(contains(position: position), "position \(position) is not in the queue")
            return buffer[slot(position - startPosition)]!
        }
        set {
            precondition(contains(position: position), "position \(position) is not in the queue")
            buffer[slot(position - startPosition)] = newValue
        }
    }

    /// The elements, first to last.
    var elements: [Element] {
        (0..<count).map { buffer[slot($0)]! }
    }

    private func slot(_ offset: Int) -> Int {
        let slot = head + offset
        return slot >= buffer.count ? slot - buffer.count : slot
    }

    private mutating func growIfFull() {
        guard count == buffer.count else { return }
        relocate(capacity: max(16, buffer.count * 2))
    }

    /// Gives memory back after a burst: a quarter-full buffer of more than 64 slots halves.
    private mutating func shrinkIfSparse() {
        guard buffer.count > 64, count * 4 <= buffer.count else { return }
        relocate(capacity: buffer.count / 2)
    }

    private mutating func relocate(capacity: Int) {
        var fresh = [Element?](repeating: nil, count: capacity)
        for offset in 0..<count { fresh[offset] = buffer[slot(offset)] }
        buffer = fresh
        head = 0
    }
}

extension Deque: Sendable where Element: Sendable {}
