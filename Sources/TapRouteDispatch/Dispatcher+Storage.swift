import TapRoute

/// One normalized (or failed) input, ready to be admitted under the lock.
struct Arrival: Sendable {
    var input: InputEvent
    var phase: Phase
    var result: Result<Interaction, NormalizationError>
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

/// An interaction waiting in the queue.
struct Entry: Sendable {
    var sequence: UInt64
    var input: InputEvent
    var interaction: Interaction
    var phase: Phase
    var arrival: UInt64
    /// A launch-options notification waiting for its response (not delivered meanwhile).
    var held: Bool
    /// For a launch-options notification: its identity, so a response can complete it.
    var launchNotification: NotificationIdentity?
}

/// What the pump does next, outside the lock.
enum Work: Sendable {
    /// Tell the observer.
    case notify([DispatchEvent])
    /// Hand an entry to the handler.
    case deliver(any InteractionHandler, Entry)
}

/// Everything the dispatcher mutates; only ever touched inside ``Locked/withLock(_:)``.
struct Storage: Sendable {
    var handler: (any InteractionHandler)?
    var pending = FIFO<Entry>()
    /// Observer events collected under the lock, told by the pump after it.
    private var outbox: [DispatchEvent] = []
    /// Whether some caller is running the pump.
    private var pumping = false
    private var nextSequence: UInt64 = 1
    /// The latest clock reading seen. Callers read the clock before taking the lock, so
    /// two racing callers may arrive with readings out of order; time never goes backwards
    /// for the storage.
    private var latestReading: UInt64 = 0
    private var heldCount = 0
    /// How many pending entries are launch-options notifications a response may complete
    /// (so a response need not scan the queue when there are none).
    private var awaitingResponse = 0
    private var recent: RecentKeys<DeduplicationKey>
    /// Notifications that came through launch options (action unknown).
    private var launchNotifications: RecentKeys<NotificationIdentity>
    /// Notification responses (action known).
    private var responses: RecentKeys<NotificationIdentity>
    private let capacity: Int
    private let observing: Bool
    let window: UInt64

    init(configuration: Dispatcher.Configuration, observing: Bool) {
        window = configuration.windowNanoseconds
        capacity = max(configuration.queueCapacity, 0)
        recent = RecentKeys(window: window, capacity: configuration.deduplicationMemory)
        launchNotifications = RecentKeys(window: window, capacity: configuration.deduplicationMemory)
        responses = RecentKeys(window: window, capacity: configuration.deduplicationMemory)
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

    /// The next thing to do, or `nil` (and the pump released) when there is nothing.
    mutating func nextWork() -> Work? {
        if !outbox.isEmpty {
            defer { outbox = [] }
            return .notify(outbox)
        }
        if let handler, let first = pending.first, !first.held {
            _ = pending.removeFirst()
            if first.launchNotification != nil { awaitingResponse -= 1 }
            return .deliver(handler, first)
        }
        pumping = false
        return nil
    }

    /// Releases held launch-options notifications: all of them (`olderThan == nil`) or
    /// those that waited at least `olderThan` nanoseconds.
    mutating func releaseHeld(olderThan age: UInt64?, now: UInt64) {
        guard heldCount > 0 else { return }
        for i in pending.indices where pending[i].held {
            if let age, elapsed(since: pending[i].arrival, now: now) < age { continue }
            pending[i].held = false
            heldCount -= 1
        }
    }

    /// Drops the oldest waiting interactions while no handler is attached and the queue
    /// is over capacity.
    mutating func trimToCapacity() {
        guard handler == nil else { return }
        while pending.count > capacity, let oldest = pending.removeFirst() {
            if oldest.held { heldCount -= 1 }
            if oldest.launchNotification != nil { awaitingResponse -= 1 }
            notify(
                .dropped(
                    DroppedInteraction(
                        sequence: oldest.sequence,
                        interaction: oldest.interaction,
                        phase: oldest.phase,
                        reason: .queueOverflow(capacity: capacity)
                    )
                )
            )
        }
    }

    /// Admits one arrival: reports a failure, merges a response into its launch-options
    /// notification, drops a duplicate, or queues it.
    mutating func admit(_ arrival: Arrival, now: UInt64) -> Admission {
        let interaction: Interaction
        switch arrival.result {
        case .failure(let error):
            notify(.unrecognized(arrival.input, error: error))
            return .failed(error)
        case .success(let value):
            interaction = value
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
                if awaitingResponse > 0,
                    let i = pending.indices.first(where: { pending[$0].launchNotification == identity })
                {
                    var entry = pending[i]
                    let earlierWarnings = entry.interaction.warnings
                    if entry.held { heldCount -= 1 }
                    var completed = interaction
                    completed.phase = entry.phase
                    entry.input = arrival.input
                    entry.input.phase = entry.phase
                    entry.interaction = completed
                    entry.held = false
                    entry.launchNotification = nil
                    awaitingResponse -= 1
                    pending[i] = entry
                    recent.insert(key, sequence: entry.sequence, now: now)
                    responses.insert(identity, sequence: entry.sequence, now: now)
                    reportRejections(in: completed, sequence: entry.sequence, except: earlierWarnings)
                    return .merged(into: entry.sequence)
                }
                // A response to a launch-options notification already delivered.
                if let first = launchNotifications.sequence(of: identity, now: now) {
                    return duplicate(interaction, phase: arrival.phase, of: first)
                }
            }
        }
        if let first = recent.sequence(of: key, now: now) {
            return duplicate(interaction, phase: arrival.phase, of: first)
        }

        let sequence = takeSequence()
        recent.insert(key, sequence: sequence, now: now)
        let held = arrival.actionUnknown && window > 0
        if let identity = arrival.notification {
            if arrival.actionUnknown {
                launchNotifications.insert(identity, sequence: sequence, now: now)
            } else {
                responses.insert(identity, sequence: sequence, now: now)
            }
        }
        if held { heldCount += 1 }
        if arrival.actionUnknown { awaitingResponse += 1 }
        pending.append(
            Entry(
                sequence: sequence,
                input: arrival.input,
                interaction: interaction,
                phase: arrival.phase,
                arrival: now,
                held: held,
                launchNotification: arrival.actionUnknown ? arrival.notification : nil
            )
        )
        reportRejections(in: interaction, sequence: sequence)
        trimToCapacity()
        return .queued(sequence: sequence)
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

    private mutating func reportRejections(in interaction: Interaction, sequence: UInt64, except reported: [Warning] = []) {
        for warning in interaction.warnings where warning.code == .urlRejected && !reported.contains(warning) {
            notify(.rejectedURL(URLRejection(warning: warning, sequence: sequence, interaction: interaction)))
        }
    }
}
