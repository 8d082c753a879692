import Foundation
public import TapRoute

/// An encode vector: a message, and the payload a vendor's encoder must write for it (or the
/// error it must give). Files live in the adapter's `Vectors/encode/` folder
/// (docs/encode.md, "Vectors"):
///
/// ```json
/// {"description": "…", "source": "https://… (where the vendor documents this payload)",
///  "message": {"body": "Hi", "destination": {"type": "url", "url": "https://example.com/a"}},
///  "options": {"screens": "route"}, "config": {…},
///  "payload": {"kind": "notification", "userInfo": {…}, "origin": "remote"}}
/// ```
///
/// `payload` is the encoded `InputEvent`'s envelope form; `error` (`{"code": …, "field": …}`)
/// replaces it for a message the vendor cannot express.
public struct EncodeVector: Sendable, Hashable {
    /// What the vector shows.
    public var description: String
    /// Where the vendor documents the payload's shape.
    public var source: String
    /// The file it came from (`encode/03-buttons.json`).
    public var location: String
    /// The message, in its JSON form.
    public var message: JSONValue
    /// The options to encode with.
    public var options: EncodeOptions
    /// A configuration overlay, as a read vector's `config`.
    public var config: JSONValue?
    /// What encoding must give.
    public var expected: Expected

    /// An encode vector's expectation.
    public enum Expected: Sendable, Hashable {
        /// This envelope.
        case payload(JSONValue)
        /// An `EncodingError` with this code and field.
        case error(code: String, field: String?)
    }

    /// Reads a vector.
    /// - Throws: ``ConformanceError`` naming the field that is missing or wrong.
    public init(json: JSONValue, location: String) throws(ConformanceError) {
        guard case .object(let o) = json else {
            throw ConformanceError(.vectorNotAnObject(found: json.typeDescription), location: location)
        }
        for key in o.keys where !["description", "source", "message", "options", "config", "payload", "error"].contains(key) {
            throw ConformanceError(.unknownVectorKey(key), location: location)
        }
        guard case .string(let description)? = o["description"], !description.isEmpty else {
            throw ConformanceError(.invalidVectorField(field: "description", requirement: "a non-empty string"), location: location)
        }
        guard case .string(let source)? = o["source"], !source.isEmpty else {
            throw ConformanceError(
                .invalidVectorField(field: "source", requirement: "a non-empty string: where the vendor documents the payload"),
                location: location
            )
        }
        guard let message = o["message"] else {
            throw ConformanceError(.invalidVectorField(field: "message", requirement: "a message object"), location: location)
        }
        var options = EncodeOptions()
        if let v = o["options"] {
            guard case .object(let opts) = v else {
                throw ConformanceError(.invalidVectorField(field: "options", requirement: "an object"), location: location)
            }
            for key in opts.keys where key != "screens" {
                throw ConformanceError(.unknownVectorKey("options." + key), location: location)
            }
            if let s = opts["screens"] {
                guard case .string(let name) = s, let fallback = EncodeOptions.ScreenFallback(rawValue: name) else {
                    throw ConformanceError(
                        .invalidVectorField(field: "options.screens", requirement: "'error' or 'route'"),
                        location: location
                    )
                }
                options.screens = fallback
            }
        }
        let expected: Expected
        switch (o["payload"], o["error"]) {
        case (let payload?, nil):
            guard case .object = payload else {
                throw ConformanceError(.invalidVectorField(field: "payload", requirement: "an envelope object"), location: location)
            }
            expected = .payload(payload)
        case (nil, .object(let e)?):
            guard case .string(let code)? = e["code"] else {
                throw ConformanceError(.invalidVectorField(field: "error.code", requirement: "a string"), location: location)
            }
            expected = .error(code: code, field: e["field"]?.stringValue)
        default:
            throw ConformanceError(
                .invalidVectorField(field: "payload", requirement: "exactly one of payload (an envelope) and error (an object)"),
                location: location
            )
        }
        self.description = description
        self.source = source
        self.location = location
        self.message = message
        self.options = options
        self.config = o["config"]
        self.expected = expected
    }

    /// Reads every `*.json` file of a folder, in name order; none when the folder does not
    /// exist (an adapter without encoding).
    /// - Throws: ``ConformanceError`` for an unreadable folder or an invalid file.
    public static func directory(_ path: String) throws(ConformanceError) -> [EncodeVector] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return [] }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(".json") }.sorted()
        } catch {
            throw ConformanceError(.unreadableDirectory(reason: error.localizedDescription), location: path)
        }
        var vectors: [EncodeVector] = []
        for name in names {
            vectors.append(try EncodeVector(json: ConformanceVectors.jsonFile(path + "/" + name), location: "encode/" + name))
        }
        return vectors
    }
}

/// The round trip every encoder is held to: `normalize(encode(message))` gives back the
/// message's destination, buttons, data (as `payload`) and message id.
///
/// The documented normalisations (docs/encode.md, "Round trip"): the message's destinations
/// pass through the same `HandlingPolicy` as the interaction's (a URL's `app` or `external`
/// target is the app's schemes and domains to decide, a route turns a URL into a screen), and
/// a screen's `url` is not compared when the message's screen has none (a screen written as
/// its route's URL comes back carrying that URL).
public enum EncodeRoundTrip {
    /// What differs between `sent` and what its payload for `vendor` normalizes back to;
    /// empty when the round trip holds. The payload also goes through its JSON text, as a
    /// payload file does.
    public static func problems(
        _ sent: OutgoingMessage,
        vendor: String,
        registry: AdapterRegistry,
        options: EncodeOptions = EncodeOptions()
    )
        -> [String]
    {
        let event: InputEvent
        do {
            event = try registry.encode(sent, vendor: vendor, options: options)
        } catch {
            return ["encode failed: \(error)"]
        }
        let interaction: Interaction
        do {
            let text = event.jsonValue.jsonString()
            let parsed = try JSONValue(parsing: text)
            interaction = try registry.normalize(InputEvent(json: parsed))
        } catch {
            return ["the payload does not normalize: \(error); payload: \(event.jsonValue.jsonString())"]
        }
        var problems: [String] = []
        if interaction.vendor != vendor { problems.append("normalized by '\(interaction.vendor)', not '\(vendor)'") }
        if interaction.trigger != .tap { problems.append("trigger \(interaction.trigger.jsonValue.jsonString()), not a tap") }
        if !same(sent.destination, interaction.destination, registry: registry) {
            problems.append(
                "destination \(interaction.destination.jsonValue.jsonString()), expected \(expected(sent.destination, registry: registry).jsonValue.jsonString())"
            )
        }
        if sent.buttons.count != interaction.buttons.count {
            problems.append("\(interaction.buttons.count) buttons, expected \(sent.buttons.count)")
        } else {
            for (i, (written, read)) in zip(sent.buttons, interaction.buttons).enumerated() {
                if written.id != read.id || written.label != read.label || !same(written.destination, read.destination, registry: registry)
                {
                    problems.append("button \(i): \(read.jsonValue.jsonString()), expected \(written.jsonValue.jsonString())")
                }
            }
        }
        if interaction.payload != sent.data {
            problems.append(
                "payload \(JSONValue.object(interaction.payload).jsonString()), expected the data \(JSONValue.object(sent.data).jsonString())"
            )
        }
        if interaction.messageId != sent.messageId {
            problems.append("messageId \(interaction.messageId ?? "none"), expected \(sent.messageId ?? "none")")
        }
        return problems.map { "\($0); payload: \(event.jsonValue.jsonString())" }
    }

    /// The message's destination after the registry's policy.
    static func expected(_ destination: Destination, registry: AdapterRegistry) -> Destination {
        var warnings: [Warning] = []
        return registry.policy.resolve(destination, warnings: &warnings, label: "the message's destination")
    }

    static func same(_ sent: Destination, _ read: Destination, registry: AdapterRegistry) -> Bool {
        let wanted = expected(sent, registry: registry)
        if case .screen(let name, let parameters, nil) = wanted, case .screen(name, let found, _) = read {
            return parameters == found
        }
        return wanted == read
    }
}

/// Messages generated within what a vendor can express, for the round-trip check: every
/// destination kind the vendor declares, 0–3 buttons, custom data of strings, numbers,
/// booleans and nested objects, a message id and a title about half the time.
public enum MessageGenerator {
    /// One message from the generator's state.
    public static func message(within capabilities: EncodingCapabilities, appSchemes: [String], using rng: inout some RandomNumberGenerator)
        -> OutgoingMessage
    {
        func word(_ rng: inout some RandomNumberGenerator, _ range: ClosedRange<Int> = 1...8) -> String {
            let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789")
            return String((0..<Int.random(in: range, using: &rng)).map { _ in letters[Int.random(in: 0..<letters.count, using: &rng)] })
        }
        func text(_ rng: inout some RandomNumberGenerator) -> String {
            let words = ["Your", "order", "42", "has", "shipped", "Café", "au", "lait", "🎉", "—", "\"quoted\"", "a/b", "50%", "x&y"]
            return (0..<Int.random(in: 1...6, using: &rng)).map { _ in words[Int.random(in: 0..<words.count, using: &rng)] }.joined(
                separator: " "
            )
        }
        func destination(_ kinds: Set<DestinationKind>, _ rng: inout some RandomNumberGenerator) -> Destination {
            let sorted = kinds.sorted { $0.rawValue < $1.rawValue }
            guard let kind = sorted.randomElement(using: &rng) else { return .app }
            switch kind {
            case .app: return .app
            case .none: return .none
            case .clickAction: return .clickAction("OPEN_" + word(&rng).uppercased())
            case .screen:
                var parameters = ScreenParameters()
                if let screens = capabilities.screens,
                    let (name, names) = screens.sorted(by: { $0.key < $1.key }).randomElement(using: &rng)
                {
                    for parameter in names.sorted() { parameters[parameter] = word(&rng) }
                    return .screen(name: name, parameters: parameters)
                }
                for _ in 0..<Int.random(in: 0...2, using: &rng) { parameters["p" + word(&rng, 1...4)] = word(&rng) }
                return .screen(name: "s" + word(&rng), parameters: parameters)
            case .inAppBrowser:
                return .url("https://example.com/" + word(&rng) + "?q=" + word(&rng), target: .inAppBrowser)
            case .url:
                var choices = ["https://example.com/" + word(&rng), "https://shop.example.org/p/" + word(&rng) + "?ref=" + word(&rng)]
                if let scheme = appSchemes.first { choices.append(scheme + "://" + word(&rng) + "/" + word(&rng)) }
                if let allowed = capabilities.urlSchemes {
                    choices = choices.filter { allowed.contains(String($0.prefix { $0 != ":" }).lowercased()) }
                    if choices.isEmpty, let scheme = allowed.sorted().first { choices = [scheme + "://example.com/" + word(&rng)] }
                }
                return .url(choices.randomElement(using: &rng)!, target: .external)
            }
        }
        var message = OutgoingMessage(body: text(&rng))
        if Bool.random(using: &rng) { message.title = text(&rng) }
        message.destination = destination(capabilities.destinations, &rng)
        if !capabilities.buttonDestinations.isEmpty {
            for i in 0..<Int.random(in: 0...3, using: &rng) {
                var button = Interaction.Button(
                    id: "b\(i)-" + word(&rng, 1...5),
                    label: capabilities.buttonLabels ? text(&rng) : nil,
                    destination: destination(capabilities.buttonDestinations, &rng)
                )
                if capabilities.buttonIDsAreLabels { button.label = button.id }
                message.buttons.append(button)
            }
        }
        if capabilities.data {
            for _ in 0..<Int.random(in: 0...3, using: &rng) {
                let key = "x" + word(&rng, 1...6)
                guard !capabilities.reserves(key) else { continue }
                switch Int.random(in: 0...3, using: &rng) {
                case 0: message.data[key] = .string(text(&rng))
                case 1: message.data[key] = .number(JSONNumber(Int.random(in: -1000...100_000, using: &rng)))
                case 2: message.data[key] = .bool(Bool.random(using: &rng))
                default:
                    message.data[key] = .object(["k": .string(word(&rng)), "n": .number(JSONNumber(Int.random(in: 0...9, using: &rng)))])
                }
            }
        }
        if capabilities.requiresMessageId || (capabilities.messageId && Bool.random(using: &rng)) {
            message.messageId = "m-" + word(&rng, 4...12)
        }
        return message
    }
}

/// A small, seedable random number generator (SplitMix64), so generated messages repeat for a
/// seed.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64
    /// Starts from a seed.
    public init(seed: UInt64) { state = seed }
    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
