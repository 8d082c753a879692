import TapRoute

/// One normalized (or failed) input, ready to be admitted under the lock.
struct Arrival: Sendable {
    var input: InputEvent
    var phase: Phase
    /// The registry's resolution: the interaction and the URLs its policy refused.
    var result: Result<Resolution, NormalizationError>
    /// The notification's identity, for notification inputs.
    var notification: NotificationIdentity?
    /// A notification from launch options: the action the user took is not known yet.
    var actionUnknown: Bool
}

/// Which notification an input is: its origin and `userInfo` (the same for launch
/// options and every response to it).
struct NotificationIdentity: Sendable, Hashable {
    var origin: InputEvent.NotificationOrigin
    var userInfo: JSONObject

    init?(_ input: InputEvent) {
        guard case .notification(let userInfo, _, let origin) = input.kind else { return nil }
        self.origin = origin
        self.userInfo = userInfo
    }
}

/// An interaction waiting in the queue, or being delivered.
struct Entry: Sendable {
    var sequence: UInt64
    var input: InputEvent
    var interaction: Interaction
    var phase: Phase
    /// For an app link re-dispatched from an interaction whose handler answered
    /// `notHandled`: that interaction.
    var origin: Interaction?
    /// The de-duplication keys remembered under this entry's sequence (two once a response
    /// completed a launch-options notification, none for a re-dispatched link).
    var keys: [DeduplicationKey] = []
    /// The identity remembered for it as a launch-options notification.
    var launchIdentity: NotificationIdentity?
    /// The identity remembered for it as a notification response.
    var responseIdentity: NotificationIdentity?
    /// For a launch-options notification a response may still complete: its identity.
    /// Cleared when a response completes it or it is handed to a handler.
    var awaiting: NotificationIdentity?
    /// The URLs the policy refused in `interaction` (reported once each).
    var rejectedURLs: [RejectedURL] = []
}

/// What the pump does next, outside the lock.
enum Work: Sendable {
    /// Tell the observer.
    case notify([DispatchEvent])
    /// Hand an entry to the handler that was attached as `attachment`.
    case deliver(any InteractionHandler, attachment: UInt64, Entry)
}

/// Everything the dispatcher mutates; only ever touched inside ``Locked/withLock(_:)``.
///
/// Every operation is O(1) amortized (hashing an interaction's key aside): the queue is a
/// ring buffer, held notifications are released by age from their own queue, a response
/// finds the launch-options notification it completes through a dictionary, and the
/// de-duplication memories are dictionaries with eviction queues. Nothing scans the queue.
struct Storage: Sendable {
    private(set) var handler: (any InteractionHandler)?
    /// Changes at every attach and detach: a handler's `notHandled` counts only if the
    /// attachment it was called under is still the current one when it returns.
    private var attachment: UInt64 = 0
    /// The waiting interactions, oldest first (by sequence number).
    private(set) var pending = Deque<Entry>()
    /// Observer events collected under the lock, told by the pump after it.
    private var outbox: [DispatchEvent] = []
    /// Whether some caller is running the pump.
    private var pumping = false
    private var nextSequence: UInt64 = 1
    /// The latest clock reading seen. Callers read the clock before taking the lock, so
    /// two racing callers may arrive with readings out of order; time never goes backwards
    /// for the storage.
    private var latestReading: UInt64 = 0
    /// Sequence numbers of the launch-options notifications held back for their response.
    private var held: Set<UInt64> = []
    /// The same, in arrival order with their arrival times, to release them by age without
    /// scanning. Elements no longer in `held` are stale and skipped.
    private var heldOrder = Deque<(sequence: UInt64, arrival: UInt64)>()
    /// Queue positions of the launch-options notifications a response may complete, by
    /// notification, oldest first.
    private var awaiting: [NotificationIdentity: [Int]] = [:]
    private var keys: DeduplicationMemory<DeduplicationKey>
    /// Notifications that came through launch options (action unknown).
    private var launchNotifications: DeduplicationMemory<NotificationIdentity>
    /// Notification responses (action known).
    private var responses: DeduplicationMemory<NotificationIdentity>
    let capacity: Int
    private let observing: Bool
    let window: UInt64

    init(configuration: Dispatcher.Configuration, observing: Bool) {
        window = configuration.windowNanoseconds
        capacity = max(configuration.queueCapacity, 0)
        keys = DeduplicationMemory(window: window, capacity: configuration.deduplicationMemory)
        launchNotifications = DeduplicationMemory(window: window, capacity: configuration.deduplicationMemory)
        responses = DeduplicationMemory(window: window, capacity: configuration.deduplicationMemory)
        self.observing = observing
    }

    private mutating func notify(_ event: DispatchEvent) {
        if observing { outbox.append(event) }
    }

    private mutating func takeSequence() -> UInt64 {
        defer { nextSequence += 1 }
        return nextSequence
    }

    /// `reading`, or the latest reading seen when that is later.
    mutating func monotonic(_ reading: UInt64) -> UInt64 {
        latestReading = max(latestReading, reading)
        return latestReading
    }

    /// Makes the caller the pump when nobody is pumping.
    mutating func claimPump() -> Bool {
        if pumping { return false }
        pumping = true
        return true
    }

    // MARK: Handler

    /// Attaches `handler`, replacing any other.
    mutating func attach(_ handler: any InteractionHandler) {
        self.handler = handler
        attachment &+= 1
    }

    /// Detaches the handler; what waits is trimmed to the capacity.
    mutating func detach() {
        handler = nil
        attachment &+= 1
        trimToCapacity()
    }

    // MARK: Delivery

    /// Whether the first waiting entry is a launch-options notification held back.
    private var headIsHeld: Bool {
        pending.first.map { held.contains($0.sequence) } ?? false
    }

    /// The next thing to do, or `nil` (and the pump released) when there is nothing.
    mutating func nextWork() -> Work? {
        if let events = takeOutbox() { return .notify(events) }
        if let handler, !pending.isEmpty, !headIsHeld {
            let position = pending.startPosition
            var entry = pending.removeFirst()!
            if let identity = entry.awaiting {
                stopAwaiting(identity, at: position)
                entry.awaiting = nil
            }
            return .deliver(handler, attachment: attachment, entry)
        }
        // The pump stops: whatever still waits must fit the bound (an interaction put back
        // by ``settle(_:attachment:result:link:)`` is counted again from here).
        trimToCapacity()
        if let events = takeOutbox() { return .notify(events) }
        pumping = false
        return nil
    }

    private mutating func takeOutbox() -> [DispatchEvent]? {
        guard !outbox.isEmpty else { return nil }
        defer { outbox = [] }
        return outbox
    }

    /// Records the handler's answer for `entry`, handed to it under `attachment`; returns
    /// whether it counts as delivered.
    ///
    /// It counts when the handler answered `handled`, or when the attachment is still the
    /// same: the handler was neither detached nor replaced while it ran. Otherwise its
    /// `notHandled` says nothing about the app that is (or will be) attached now, so the
    /// entry goes back to the front of the queue, undelivered, for the next handler, and
    /// nothing is opened. A counted entry's keys become delivered keys, and `link` (the app
    /// link to re-dispatch for it) goes to the front of the queue, to be delivered next.
    mutating func settle(_ entry: Entry, attachment: UInt64, result: HandlerResult, link: Entry?) -> Bool {
        guard result == .handled || attachment == self.attachment else {
            pending.prepend(entry)
            return false
        }
        for key in entry.keys { keys.settle(key, sequence: entry.sequence) }
        if let identity = entry.launchIdentity { launchNotifications.settle(identity, sequence: entry.sequence) }
        if let identity = entry.responseIdentity { responses.settle(identity, sequence: entry.sequence) }
        if let link { pending.prepend(link) }
        return true
    }

    /// An entry for the app link `link` re-dispatched from the delivered `delivery`.
    static func redispatch(_ link: Interaction, input: InputEvent, from delivery: Delivery) -> Entry {
        Entry(sequence: delivery.sequence, input: input, interaction: link, phase: delivery.phase, origin: delivery.interaction)
    }

    // MARK: Held launch-options notifications

    /// Releases held launch-options notifications: all of them (`olderThan == nil`) or
    /// those that waited at least `olderThan` nanoseconds.
    mutating func releaseHeld(olderThan age: UInt64?, now: UInt64) {
        while let oldest = heldOrder.first {
            if held.contains(oldest.sequence) {
                if let age, elapsed(since: oldest.arrival, now: now) < age { break }
                held.remove(oldest.sequence)
            }
            _ = heldOrder.removeFirst()
        }
    }

    private mutating func hold(_ sequence: UInt64, now: UInt64) {
        held.insert(sequence)
        heldOrder.append((sequence, now))
        // Stale elements (merged or dropped notifications) behind a young one are skipped
        // only when it is released; compact once they outnumber the held ones.
        guard heldOrder.count > 2 * held.count + 64 else { return }
        var kept = Deque<(sequence: UInt64, arrival: UInt64)>()
        while let element = heldOrder.removeFirst() {
            if held.contains(element.sequence) { kept.append(element) }
        }
        heldOrder = kept
    }

    private mutating func stopAwaiting(_ identity: NotificationIdentity, at position: Int) {
        guard var positions = awaiting[identity] else { return }
        positions.removeAll { $0 == position }
        awaiting[identity] = positions.isEmpty ? nil : positions
    }

    // MARK: Overflow

    /// Drops the oldest waiting interactions while more than the capacity wait. A dropped
    /// interaction is reported and forgotten by de-duplication, so it can arrive again.
    private mutating func trimToCapacity() {
        while pending.count > capacity {
            let position = pending.startPosition
            let oldest = pending.removeFirst()!
            held.remove(oldest.sequence)
            if let identity = oldest.awaiting { stopAwaiting(identity, at: position) }
            for key in oldest.keys { keys.forget(key, sequence: oldest.sequence) }
            if let identity = oldest.launchIdentity { launchNotifications.forget(identity, sequence: oldest.sequence) }
            if let identity = oldest.responseIdentity { responses.forget(identity, sequence: oldest.sequence) }
            notify(
                .dropped(
                    DroppedInteraction(
                        sequence: oldest.sequence,
                        interaction: oldest.interaction,
                        phase: oldest.phase,
                        reason: .queueOverflow(capacity: capacity),
                        origin: oldest.origin
                    )
                )
            )
        }
    }

    // MARK: Admission

    /// Admits one arrival: reports a failure, merges a response into its launch-options
    /// notification, drops a duplicate, or queues it.
    mutating func admit(_ arrival: Arrival, now: UInt64) -> Admission {
        let interaction: Interaction
        let rejected: [RejectedURL]
        switch arrival.result {
        case .failure(let error):
            notify(.unrecognized(arrival.input, error: error))
            return .failed(error)
        case .success(let resolution):
            interaction = resolution.interaction
            rejected = resolution.rejectedURLs
        }
        let key = DeduplicationKey(interaction)

        if let identity = arrival.notification {
            if arrival.actionUnknown {
                // Launch options after (or twice with) the same notification.
                if let first = responses.sequence(of: identity, now: now)
                    ?? launchNotifications.sequence(of: identity, now: now)
                {
                    return duplicate(interaction, phase: arrival.phase, of: first)
                }
            } else {
                // A response completing a launch-options notification that still waits.
                if let position = awaiting[identity]?.first {
                    return merge(arrival, interaction: interaction, rejected: rejected, key: key, into: position, now: now)
                }
                // A response to a launch-options notification delivered or being delivered.
                if let first = launchNotifications.sequence(of: identity, now: now) {
                    return duplicate(interaction, phase: arrival.phase, of: first)
                }
            }
        }
        if let first = keys.sequence(of: key, now: now) {
            return duplicate(interaction, phase: arrival.phase, of: first)
        }

        let sequence = takeSequence()
        var entry = Entry(sequence: sequence, input: arrival.input, interaction: interaction, phase: arrival.phase)
        entry.rejectedURLs = rejected
        if keys.remember(key, sequence: sequence, now: now) { entry.keys = [key] }
        if let identity = arrival.notification {
            if arrival.actionUnknown {
                if launchNotifications.remember(identity, sequence: sequence, now: now) { entry.launchIdentity = identity }
                entry.awaiting = identity
            } else if responses.remember(identity, sequence: sequence, now: now) {
                entry.responseIdentity = identity
            }
        }
        let position = pending.append(entry)
        if let identity = entry.awaiting { awaiting[identity, default: []].append(position) }
        if arrival.actionUnknown && window > 0 { hold(sequence, now: now) }
        reportRejections(rejected, in: interaction, sequence: sequence)
        // The bound: unless this call is about to deliver everything waiting (a handler is
        // attached, nobody else is delivering and nothing held blocks the queue), at most
        // `capacity` interactions wait.
        if handler == nil || pumping || headIsHeld { trimToCapacity() }
        return .queued(sequence: sequence)
    }

    /// A response completes the launch-options notification at `position` in place: it
    /// keeps its sequence number, position and phase, and takes the response's action.
    private mutating func merge(
        _ arrival: Arrival,
        interaction: Interaction,
        rejected: [RejectedURL],
        key: DeduplicationKey,
        into position: Int,
        now: UInt64
    ) -> Admission {
        var entry = pending[position: position]
        let reported = entry.rejectedURLs
        var completed = interaction
        completed.phase = entry.phase
        entry.input = arrival.input
        entry.input.phase = entry.phase
        entry.interaction = completed
        if let identity = entry.awaiting {
            stopAwaiting(identity, at: position)
            entry.awaiting = nil
        }
        held.remove(entry.sequence)
        if keys.remember(key, sequence: entry.sequence, now: now) { entry.keys.append(key) }
        if let identity = arrival.notification, responses.remember(identity, sequence: entry.sequence, now: now) {
            entry.responseIdentity = identity
        }
        pending[position: position] = entry
        entry.rejectedURLs = rejected
        reportRejections(rejected, in: completed, sequence: entry.sequence, except: reported)
        return .merged(into: entry.sequence)
    }

    private mutating func duplicate(_ interaction: Interaction, phase: Phase, of first: UInt64) -> Admission {
        let sequence = takeSequence()
        notify(
            .dropped(
                DroppedInteraction(sequence: sequence, interaction: interaction, phase: phase, reason: .duplicate(of: first))
            )
        )
        return .duplicate(sequence: sequence, of: first)
    }

    /// Reports each URL the policy refused, but those already reported for the entry.
    private mutating func reportRejections(
        _ rejected: [RejectedURL],
        in interaction: Interaction,
        sequence: UInt64,
        except reported: [RejectedURL] = []
    ) {
        for url in rejected where !reported.contains(url) {
            notify(.rejectedURL(URLRejection(rejected: url, sequence: sequence, interaction: interaction)))
        }
    }
}
