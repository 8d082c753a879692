import Foundation
import TapRoute
import TapRouteDispatch
import TapRouteDispatchTesting

/// A small vendor adapter for the dispatcher tests, shaped like the real push SDKs: the
/// vendor block `acme` in a notification's `userInfo` (or an in-app message) carries the
/// message id, a body URL, whether the URL is a rich landing page, and the buttons. Like
/// DashX, the vendor opens links itself (`vendorBehavior: .sdkOpensURL`).
///
/// The dispatcher does not care which vendor produced an interaction; this adapter exists
/// so the tests can drive notifications with buttons without depending on a vendor module.
struct AcmeAdapter: PayloadAdapter {
    static let id = "acme"

    init(configuration: AdapterConfiguration) throws(ConfigurationError) {}

    func recognizes(_ input: InputEvent) -> Bool {
        switch input.kind {
        case .notification(let userInfo, _, _): userInfo["acme"] != nil
        case .inAppMessage(let message, _): message["acme"] != nil
        default: false
        }
    }

    func read(_ input: InputEvent, using reader: inout PayloadReader) throws(NormalizationError) -> AdapterResult {
        let container: JSONObject
        let action: String?
        let channel: Channel
        let root: String
        switch input.kind {
        case .notification(let userInfo, let a, let origin):
            container = userInfo
            action = a
            channel = origin == .local ? .local : .push
            root = "$.userInfo"
        case .inAppMessage(let message, let a):
            container = message
            action = a
            channel = .inApp
            root = "$.message"
        default:
            throw NormalizationError(.unrecognized, "acme reads notifications and in-app messages")
        }
        guard case .object(let block)? = container["acme"] else {
            throw .invalidPayload("acme must be an object", path: root + ".acme")
        }
        let browser = block["browser"]?.boolValue ?? false
        func destination(_ value: JSONValue?) -> Destination {
            guard let url = value?.stringValue else { return .app }
            return .url(url, target: browser ? .inAppBrowser : .external)
        }
        var buttons: [Interaction.Button] = []
        for (i, value) in (block["buttons"]?.arrayValue ?? []).enumerated() {
            guard case .object(let button) = value, let id = button["id"]?.stringValue else {
                throw .invalidPayload("a button needs an id", path: "\(root).acme.buttons[\(i)]")
            }
            buttons.append(Interaction.Button(id: id, label: button["label"]?.stringValue, destination: destination(button["url"])))
        }
        var trigger = Trigger(notificationAction: action)
        let target: Destination
        switch trigger {
        case .button(let id, _):
            let button = buttons.first { $0.id == id }
            trigger = .button(id: id, label: button?.label)
            target = button?.destination ?? .app
        case .dismiss:
            target = .none
        case .tap, .open:
            target = destination(block["url"])
        }
        return AdapterResult(
            channel: channel,
            trigger: trigger,
            destination: target,
            buttons: buttons,
            messageId: block["id"]?.stringValue,
            payload: container.removing(["acme", "aps"]),
            vendorBehavior: .sdkOpensURL
        )
    }
}

/// The app the tests pretend to be: scheme `myapp`, universal links on `app.example.com`,
/// a `product` route, the `acme` adapter.
func makeRegistry(adapters: [AdapterSettings] = [AdapterSettings(id: "acme")]) throws -> AdapterRegistry {
    let configuration = Configuration(
        app: AppSettings(schemes: ["myapp"], domains: ["app.example.com"]),
        adapters: adapters,
        routes: [try Route(pattern: "myapp://products/{id}", screen: "product")],
        security: SecuritySettings(allowedSchemes: ["https", "http", "myapp", "tel", "mailto"])
    )
    return try AdapterRegistry(configuration: configuration, adapterTypes: [AcmeAdapter.self])
}

/// A dispatcher with recording doubles around it.
struct Harness {
    let dispatcher: Dispatcher
    let opener = RecordingURLOpener()
    let observer = RecordingInteractionObserver()
    let clock = ManualClock()

    init(
        configuration: Dispatcher.Configuration = Dispatcher.Configuration(),
        adapters: [AdapterSettings] = [AdapterSettings(id: "acme")]
    ) throws {
        dispatcher = Dispatcher(
            registry: try makeRegistry(adapters: adapters),
            opener: opener,
            observer: observer,
            configuration: configuration,
            clock: clock
        )
    }
}

/// The `userInfo` of an acme push with a body URL and two buttons.
func acmePush(
    id: String = "m-1",
    url: String? = "https://shop.example.com/sale",
    browser: Bool = false,
    buttons: [(id: String, label: String, url: String?)] = [
        ("track", "Track", "https://shop.example.com/track/1"),
        ("later", "Later", nil),
    ]
) -> JSONObject {
    var block: JSONObject = ["id": .string(id)]
    if let url { block["url"] = .string(url) }
    if browser { block["browser"] = true }
    block["buttons"] = .array(
        buttons.map { button in
            var object: JSONObject = ["id": .string(button.id), "label": .string(button.label)]
            if let url = button.url { object["url"] = .string(url) }
            return .object(object)
        }
    )
    return ["aps": ["alert": "Sale!"], "acme": .object(block), "campaign": "spring"]
}

/// Runs `body(0)` … `body(count - 1)` on `count` new threads (not the cooperative pool,
/// which has as many threads as cores), released together, and returns when all are done.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let ready = DispatchSemaphore(value: 0)
    let go = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    for index in 0..<count {
        done.enter()
        Thread.detachNewThread {
            ready.signal()
            go.wait()
            body(index)
            done.leave()
        }
    }
    for _ in 0..<count { ready.wait() }
    for _ in 0..<count { go.signal() }
    done.wait()
}

/// One call of a ``CallLog`` handler: which handler, what it got, what it answered.
struct Call: Sendable {
    var handler: Int
    var delivery: Delivery
    var result: HandlerResult
}

/// A log shared by several handlers, in the order the dispatcher called them, that also
/// counts overlapping calls across all of them.
final class CallLog: Sendable {
    private struct State {
        var calls: [Call] = []
        var inFlight = 0
        var maximumInFlight = 0
    }

    private let state = Locked(State())

    /// Every call, in call order.
    var calls: [Call] { state.withLock { $0.calls } }
    /// The most calls that ever ran at once, across all handlers of the log.
    var maximumConcurrentCalls: Int { state.withLock { $0.maximumInFlight } }

    /// A handler numbered `id` that logs here and answers with `respond`.
    func handler(_ id: Int, respond: @escaping @Sendable (Delivery) -> HandlerResult) -> some InteractionHandler {
        LoggingHandler(id: id, log: self, respond: respond)
    }

    fileprivate func enter() {
        state.withLock {
            $0.inFlight += 1
            $0.maximumInFlight = max($0.maximumInFlight, $0.inFlight)
        }
    }

    fileprivate func leave(_ call: Call) {
        state.withLock {
            $0.inFlight -= 1
            $0.calls.append(call)
        }
    }
}

private struct LoggingHandler: InteractionHandler {
    let id: Int
    let log: CallLog
    let respond: @Sendable (Delivery) -> HandlerResult

    func handle(_ delivery: Delivery) -> HandlerResult {
        log.enter()
        let result = respond(delivery)
        log.leave(Call(handler: id, delivery: delivery, result: result))
        return result
    }
}
