public import TapRoute

/// What makes two arrivals "the same interaction" for de-duplication.
///
/// Two interactions are the same when they agree on `vendor`, `channel`, `trigger`
/// (including the button id), `destination`, `messageId`, `payload` and `tracking`. The
/// key ignores `phase` (the same tap arrives cold through launch options and warm through
/// `didReceive`), `handling` (a per-event override may differ between entry points),
/// `buttons` and `warnings` (both follow from the rest).
///
/// So a notification forwarded twice (launch options and `didReceive`, `willConnect` and
/// `didReceive`, or the same `didReceive` twice) has one key, and so does a link that
/// arrives as a URL context and again as a user activity with the same URL. Two taps on
/// different buttons of one notification, or the same link with a different query, are
/// different keys.
public struct DeduplicationKey: Sendable, Hashable {
    /// The adapter id.
    public var vendor: String
    /// The channel.
    public var channel: Channel
    /// The trigger, with its button id and label.
    public var trigger: Trigger
    /// The destination.
    public var destination: Destination
    /// The vendor's message id.
    public var messageId: String?
    /// The sender's custom data.
    public var payload: JSONObject
    /// The vendor's tracking fields.
    public var tracking: JSONObject

    /// The key of an interaction.
    public init(_ interaction: Interaction) {
        vendor = interaction.vendor
        channel = interaction.channel
        trigger = interaction.trigger
        destination = interaction.destination
        messageId = interaction.messageId
        payload = interaction.payload
        tracking = interaction.tracking
    }
}

/// Keys seen recently, each with the time it was first seen and the sequence number it
/// was delivered (or queued) under. Entries expire after the window; at most `capacity`
/// are kept (the oldest go first).
struct RecentKeys<Key: Hashable> {
    private struct Seen {
        var time: UInt64
        var sequence: UInt64
    }

    private var seen: [Key: Seen] = [:]
    private var order = FIFO<(key: Key, time: UInt64, sequence: UInt64)>()
    let window: UInt64
    let capacity: Int

    init(window: UInt64, capacity: Int) {
        self.window = window
        self.capacity = max(capacity, 0)
    }

    /// The sequence number `key` was first seen under, when that was less than the window
    /// before `now`.
    func sequence(of key: Key, now: UInt64) -> UInt64? {
        guard let entry = seen[key], elapsed(since: entry.time, now: now) < window else { return nil }
        return entry.sequence
    }

    /// Records `key` as first seen `now` under `sequence`, unless it is already recorded
    /// within the window.
    mutating func insert(_ key: Key, sequence: UInt64, now: UInt64) {
        prune(now: now)
        guard capacity > 0, window > 0, self.sequence(of: key, now: now) == nil else { return }
        seen[key] = Seen(time: now, sequence: sequence)
        order.append((key, now, sequence))
        while order.count > capacity, let oldest = order.removeFirst() {
            forget(oldest)
        }
    }

    private mutating func prune(now: UInt64) {
        while let oldest = order.first, elapsed(since: oldest.time, now: now) >= window {
            _ = order.removeFirst()
            forget(oldest)
        }
    }

    private mutating func forget(_ entry: (key: Key, time: UInt64, sequence: UInt64)) {
        if seen[entry.key]?.sequence == entry.sequence { seen[entry.key] = nil }
    }
}

/// Nanoseconds from `start` to `now`; 0 when `now` is not later.
func elapsed(since start: UInt64, now: UInt64) -> UInt64 {
    now > start ? now - start : 0
}

/// A first-in first-out queue with O(1) amortized append and removal at the front.
struct FIFO<Element> {
    private var storage: [Element] = []
    private var head = 0

    /// The number of elements.
    var count: Int { storage.count - head }
    /// Whether it is empty.
    var isEmpty: Bool { count == 0 }
    /// The oldest element.
    var first: Element? { head < storage.count ? storage[head] : nil }

    /// Appends at the back.
    mutating func append(_ element: Element) {
        storage.append(element)
    }

    /// Removes and returns the oldest element.
    mutating func removeFirst() -> Element? {
        guard head < storage.count else { return nil }
        let element = storage[head]
        head += 1
        if head >= 64 && head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return element
    }

    /// The positions of the elements, oldest first, for ``subscript(_:)``.
    var indices: Range<Int> { 0..<count }

    /// The element at `position` (0 is the oldest).
    subscript(position: Int) -> Element {
        get { storage[head + position] }
        set { storage[head + position] = newValue }
    }
}

extension RecentKeys: Sendable where Key: Sendable {}

extension FIFO: Sendable where Element: Sendable {}
