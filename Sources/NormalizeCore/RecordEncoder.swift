package import TapRoute

/// What `normalize encode` does with each record: reads it as an ``OutgoingMessage`` and
/// writes the vendor's payload, or an error record naming the code, the vendor and the message
/// field. ``RecordProcessor`` frames the input (JSON Lines or a document, streamed, in
/// parallel, each record held to the limits) as it does for normalizing.
package struct RecordEncoder: Sendable {
    package let vendor: String
    package let options: EncodeOptions
    /// Added to a push's payload as `"Simulator Target Bundle"` (for `xcrun simctl push`).
    package let simulator: String?

    package init(vendor: String, options: EncodeOptions, simulator: String?) {
        self.vendor = vendor
        self.options = options
        self.simulator = simulator
    }

    /// Appends the payload (or the error record) for the message `json`, record `index` of a
    /// document when there is one, to `out`; returns whether it was encoded.
    func output(
        for json: JSONValue,
        registry: AdapterRegistry,
        line: Int,
        index: Int?,
        name: InputName,
        pretty: Bool,
        into out: inout JSONOutputBuffer
    ) -> Bool {
        let prefix = index.map { "$[\($0)]" } ?? "$"
        func fail(_ error: EncodingError) -> Bool {
            var o: JSONObject = [
                "code": .string(error.code.rawValue), "vendor": .string(error.vendor), "message": .string(error.message),
                "line": .number(JSONNumber(line)), "path": .string(prefix + error.field.dropFirst()),
            ]
            if let file = name.file { o["file"] = .string(file) }
            JSONWriter(pretty: pretty).write(["error": .object(o)], into: &out)
            out.append(0x0A)
            return false
        }
        let message: OutgoingMessage
        do throws(ModelDecodingError) {
            message = try OutgoingMessage(jsonValue: json)
        } catch {
            return fail(EncodingError(.invalidMessage, vendor: vendor, field: error.path, error.message))
        }
        let event: InputEvent
        do throws(EncodingError) {
            event = try registry.encode(message, vendor: vendor, options: options)
        } catch {
            return fail(error)
        }
        let payload: JSONValue
        if case .notification(var userInfo, _, _) = event.kind {
            if let simulator { userInfo["Simulator Target Bundle"] = .string(simulator) }
            payload = .object(userInfo)
        } else {
            guard simulator == nil else {
                return fail(
                    EncodingError(
                        .cannotExpress,
                        vendor: vendor,
                        field: "$",
                        "\(vendor) payloads are \(event.kind.name) inputs, not pushes; --simulator needs a push"
                    )
                )
            }
            payload = event.jsonValue
        }
        JSONWriter(pretty: pretty).write(payload, into: &out)
        out.append(0x0A)
        return true
    }
}
