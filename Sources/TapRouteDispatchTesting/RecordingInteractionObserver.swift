public import TapRoute
public import TapRouteDispatch

/// An ``InteractionObserver`` that records every event, with accessors for each kind.
public final class RecordingInteractionObserver: InteractionObserver {
    private let recorded = Locked<[DispatchEvent]>([])

    /// Creates an observer.
    public init() {}

    /// Records the event.
    public func observe(_ event: DispatchEvent) {
        recorded.withLock { $0.append(event) }
    }

    /// Every event so far, in order.
    public var events: [DispatchEvent] {
        recorded.withLock { $0 }
    }

    /// The deliveries reported, with the handler's answers, in order.
    public var deliveries: [(delivery: Delivery, result: HandlerResult)] {
        events.compactMap {
            if case .delivered(let delivery, let result) = $0 { return (delivery, result) }
            return nil
        }
    }

    /// The URLs reported opened, in order.
    public var openedURLs: [OpenedURL] {
        events.compactMap {
            if case .openedURL(let opened) = $0 { return opened }
            return nil
        }
    }

    /// The URL rejections reported, in order.
    public var rejections: [URLRejection] {
        events.compactMap {
            if case .rejectedURL(let rejection) = $0 { return rejection }
            return nil
        }
    }

    /// The inputs reported as not normalized, with their errors, in order.
    public var unrecognized: [(input: InputEvent, error: NormalizationError)] {
        events.compactMap {
            if case .unrecognized(let input, let error) = $0 { return (input, error) }
            return nil
        }
    }

    /// The drops reported, in order.
    public var drops: [DroppedInteraction] {
        events.compactMap {
            if case .dropped(let drop) = $0 { return drop }
            return nil
        }
    }
}
