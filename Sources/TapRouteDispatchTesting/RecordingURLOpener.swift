public import TapRouteDispatch

/// A ``URLOpening`` that records every request instead of opening anything.
public final class RecordingURLOpener: URLOpening {
    private let recorded = Locked<[URLOpenRequest]>([])

    /// Creates an opener.
    public init() {}

    /// Records the request.
    public func open(_ request: URLOpenRequest) {
        recorded.withLock { $0.append(request) }
    }

    /// Every request so far, in order.
    public var requests: [URLOpenRequest] {
        recorded.withLock { $0 }
    }

    /// The URLs requested so far, in order.
    public var urls: [String] {
        requests.map(\.url)
    }
}
