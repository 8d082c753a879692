/// What the dispatcher remembers for de-duplication: keys of interactions that are waiting
/// or being delivered (*live*), and keys of interactions that were delivered.
///
/// Each key is remembered with the time of its first arrival and the sequence number of the
/// interaction that carries it, and counts for ``window`` nanoseconds from that arrival.
/// - A live key stays until its interaction is delivered (``settle(_:sequence:)``: it
///   becomes a delivered key) or dropped (``forget(_:sequence:)``: it is gone, so the same
///   interaction arriving again is new). Live keys are bounded by the queue, not by
///   ``capacity``: a waiting interaction is never forgotten while it waits.
/// - At most ``capacity`` delivered keys are kept; the first delivered goes first.
///
/// Every operation is O(1) amortized.
struct DeduplicationMemory<Key: Hashable> {
    private struct Seen {
        var time: UInt64
        var sequence: UInt64
        var live: Bool
    }

    private var seen: [Key: Seen] = [:]
    /// Delivered keys in the order they were delivered, for eviction. An element whose key
    /// has since been replaced or evicted is stale and skipped.
    private var delivered = Deque<(key: Key, sequence: UInt64)>()
    private var deliveredCount = 0
    let window: UInt64
    let capacity: Int

    init(window: UInt64, capacity: Int) {
        self.window = window
        self.capacity = max(capacity, 0)
    }

    /// Whether anything is remembered at all (a window and a capacity above 0).
    var isEnabled: Bool { window > 0 && capacity > 0 }

    /// The sequence number of the interaction `key` arrived with less than the window
    /// before `now`, waiting or delivered.
    func sequence(of key: Key, now: UInt64) -> UInt64? {
        guard let entry = seen[key], elapsed(since: entry.time, now: now) < window else { return nil }
        return entry.sequence
    }

    /// Remembers `key` as live under `sequence`, first seen `now`, unless it is remembered
    /// within the window already. Returns whether it was recorded.
    @discardableResult
    mutating func remember(_ key: Key, sequence: UInt64, now: UInt64) -> Bool {
        guard isEnabled, self.sequence(of: key, now: now) == nil else { return false }
        if let old = seen[key], !old.live { deliveredCount -= 1 }
        seen[key] = Seen(time: now, sequence: sequence, live: true)
        return true
    }

    /// The interaction numbered `sequence` was delivered: its live `key` becomes a
    /// delivered key (keeping its first arrival time), and the oldest delivered keys beyond
    /// the capacity are forgotten.
    mutating func settle(_ key: Key, sequence: UInt64) {
        guard var entry = seen[key], entry.sequence == sequence, entry.live else { return }
        entry.live = false
        seen[key] = entry
        deliveredCount += 1
        delivered.append((key, sequence))
        while deliveredCount > capacity, let oldest = delivered.removeFirst() {
            if let entry = seen[oldest.key], entry.sequence == oldest.sequence, !entry.live {
                seen[oldest.key] = nil
                deliveredCount -= 1
            }
        }
        compact()
    }

    /// The interaction numbered `sequence` was dropped undelivered: forgets its live `key`.
    mutating func forget(_ key: Key, sequence: UInt64) {
        guard let entry = seen[key], entry.sequence == sequence, entry.live else { return }
        seen[key] = nil
    }

    /// Drops stale elements of the eviction order once they outnumber the valid ones, so
    /// its size follows the number of delivered keys.
    private mutating func compact() {
        guard delivered.count > 2 * deliveredCount + 64 else { return }
        var kept = Deque<(key: Key, sequence: UInt64)>()
        while let element = delivered.removeFirst() {
            if let entry = seen[element.key], entry.sequence == element.sequence, !entry.live {
                kept.append(element)
            }
        }
        delivered = kept
    }
}

extension DeduplicationMemory: Sendable where Key: Sendable {}

/// Nanoseconds from `start` to `now`; 0 when `now` is not later.
func elapsed(since start: UInt64, now: UInt64) -> UInt64 {
    now > start ? now - start : 0
}
