/// What one push should do, written once for every vendor: the intended destination, the
/// buttons with their own destinations, custom data, a message id and the alert text.
///
/// ``AdapterRegistry/encode(_:vendor:options:)`` turns it into the payload a vendor's SDK
/// receives; reading that payload back (``AdapterRegistry/normalize(_:)``) gives an
/// ``Interaction`` with the same destination, buttons, data (as `payload`) and message id
/// (docs/encode.md, "Round trip").
///
/// ```swift
/// let message = OutgoingMessage(
///     body: "Your order has shipped",
///     destination: .screen(name: "order", parameters: ["orderId": "42"]),
///     buttons: [.init(id: "track", label: "Track", destination: .url("https://shop.example.com/track/42", target: .external))],
///     messageId: "m-42"
/// )
/// let payload = try registry.encode(message, vendor: "dashx")
/// ```
public struct OutgoingMessage: Sendable, Hashable {
    /// The alert title, when there is one.
    public var title: String?
    /// The alert body: the text a visible push shows.
    public var body: String
    /// Where a tap on the notification itself takes the user. A URL's `target` is what the
    /// message asks for: `inAppBrowser` is kept where the vendor can express it; `app` and
    /// `external` are decided by the app's schemes and domains, as for every interaction.
    public var destination: Destination
    /// The notification's buttons, each with its own destination, in order.
    public var buttons: [Interaction.Button]
    /// Custom data for the app: it becomes the interaction's `payload`.
    public var data: JSONObject
    /// The message id, which becomes the interaction's `messageId`.
    public var messageId: String?

    /// Creates a message.
    public init(
        title: String? = nil,
        body: String,
        destination: Destination = .app,
        buttons: [Interaction.Button] = [],
        data: JSONObject = [:],
        messageId: String? = nil
    ) {
        self.title = title
        self.body = body
        self.destination = destination
        self.buttons = buttons
        self.data = data
        self.messageId = messageId
    }
}

extension OutgoingMessage {
    /// The JSON form (docs/encode.md, `docs/message.schema.json`): `messageId`, `title`, `body`,
    /// `destination`, `buttons`, `data`, in that order; an absent title or message id, no
    /// buttons and empty data are omitted. Destinations and buttons have the ``Interaction``'s
    /// form.
    public var jsonValue: JSONValue {
        var o = JSONObject()
        if let messageId { o["messageId"] = .string(messageId) }
        if let title { o["title"] = .string(title) }
        o["body"] = .string(body)
        o["destination"] = destination.jsonValue
        if !buttons.isEmpty { o["buttons"] = .array(buttons.map(\.jsonValue)) }
        if !data.isEmpty { o["data"] = .object(data) }
        return .object(o)
    }

    /// Reads a message from its JSON form. A URL destination's `target` may be left out
    /// (`external`); `destination` may be left out (`{"type":"app"}`).
    /// - Throws: ``ModelDecodingError`` naming the key path that is missing or wrong, or a key
    ///   the form does not have.
    public init(jsonValue: JSONValue) throws(ModelDecodingError) {
        let o = try ModelDecodingError.object(jsonValue, at: "$")
        try ModelDecodingError.rejectUnknownKeys(
            o,
            allowed: ["messageId", "title", "body", "destination", "buttons", "data"],
            at: "$"
        )
        title = try o["title"].map { v throws(ModelDecodingError) in try ModelDecodingError.string(v, at: "$.title") }
        body = try ModelDecodingError.string(o["body"], at: "$.body")
        messageId = try o["messageId"].map { v throws(ModelDecodingError) in
            try ModelDecodingError.string(v, at: "$.messageId")
        }
        destination =
            try o["destination"].map { v throws(ModelDecodingError) in
                try Destination(messageJSON: v, at: "$.destination")
            } ?? .app
        var buttons: [Interaction.Button] = []
        if let value = o["buttons"] {
            guard case .array(let elements) = value else {
                throw ModelDecodingError(.wrongType(expected: "an array", found: value.typeDescription), at: "$.buttons")
            }
            var ids: Set<String> = []
            for (i, element) in elements.enumerated() {
                let path = "$.buttons[\(i)]"
                let b = try ModelDecodingError.object(element, at: path)
                try ModelDecodingError.rejectUnknownKeys(b, allowed: ["id", "label", "destination"], at: path)
                let id = try ModelDecodingError.string(b["id"], at: path + ".id")
                guard !id.isEmpty else { throw ModelDecodingError(.invalidValue("a button id must not be empty"), at: path + ".id") }
                guard ids.insert(id).inserted else {
                    throw ModelDecodingError(.invalidValue("button id '\(id)' is used twice"), at: path + ".id")
                }
                let label = try b["label"].map { v throws(ModelDecodingError) in
                    try ModelDecodingError.string(v, at: path + ".label")
                }
                let destination =
                    try b["destination"].map { v throws(ModelDecodingError) in
                        try Destination(messageJSON: v, at: path + ".destination")
                    } ?? .app
                buttons.append(Interaction.Button(id: id, label: label, destination: destination))
            }
        }
        self.buttons = buttons
        data = try o["data"].map { v throws(ModelDecodingError) in try ModelDecodingError.object(v, at: "$.data") } ?? [:]
    }
}

extension Destination {
    /// A destination in a message: the ``Interaction`` form, with a URL's `target` optional.
    init(messageJSON value: JSONValue, at path: String) throws(ModelDecodingError) {
        var value = value
        if case .object(var o) = value, o["type"] == .string("url"), o["target"] == nil {
            o["target"] = .string(URLTarget.external.rawValue)
            value = .object(o)
        }
        try self.init(jsonValue: value, at: path)
    }
}
