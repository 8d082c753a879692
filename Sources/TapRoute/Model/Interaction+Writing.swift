/// The canonical JSON form has one source: the writers below. They write the bytes directly,
/// without building a tree (what the `normalize` CLI writes); ``Interaction/jsonValue`` and the
/// other `jsonValue` properties are these bytes read back, so the text and the tree cannot
/// disagree.
extension Interaction {
    /// Appends the compact canonical JSON text of this interaction to `out`.
    ///
    /// This writes the bytes directly, without building the ``jsonValue`` tree first; the
    /// tree is these bytes read back, so `JSONWriter().write(jsonValue, into:)` writes the
    /// same bytes.
    public func writeJSON(into out: inout [UInt8]) {
        out.appendWritten { writeJSON(into: &$0) }
    }

    /// Appends the compact canonical JSON text of this interaction to `out` (what the
    /// `normalize` CLI writes).
    package func writeJSON(into out: inout JSONOutputBuffer) {
        out.append(literal: #"{"vendor":"#)
        JSONWriter.writeString(vendor, into: &out)
        out.append(literal: #","channel":""#)
        out.append(utf8: channel.rawValue)
        out.append(literal: #"","trigger":"#)
        trigger.writeJSON(into: &out)
        out.append(literal: #","destination":"#)
        destination.writeJSON(into: &out)
        out.append(literal: #","handling":""#)
        out.append(utf8: handling.rawValue)
        out.append(UInt8(ascii: "\""))
        if let messageId, !messageId.isEmpty {
            out.append(literal: #","messageId":"#)
            JSONWriter.writeString(messageId, into: &out)
        }
        let writer = JSONWriter()
        if !payload.isEmpty {
            out.append(literal: #","payload":"#)
            writer.write(object: payload, into: &out)
        }
        if !tracking.isEmpty {
            out.append(literal: #","tracking":"#)
            writer.write(object: tracking, into: &out)
        }
        if !buttons.isEmpty {
            out.append(literal: #","buttons":["#)
            for (i, button) in buttons.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                button.writeJSON(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
        if let phase {
            out.append(literal: #","phase":""#)
            out.append(utf8: phase.rawValue)
            out.append(UInt8(ascii: "\""))
        }
        if !warnings.isEmpty {
            out.append(literal: #","warnings":["#)
            for (i, warning) in warnings.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                warning.writeJSON(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "}"))
    }
}

extension Trigger {
    func writeJSON(into out: inout JSONOutputBuffer) {
        switch self {
        case .tap: out.append(literal: #"{"type":"tap"}"#)
        case .dismiss: out.append(literal: #"{"type":"dismiss"}"#)
        case .open: out.append(literal: #"{"type":"open"}"#)
        case .button(let id, let label):
            out.append(literal: #"{"type":"button","id":"#)
            JSONWriter.writeString(id, into: &out)
            if let label {
                out.append(literal: #","label":"#)
                JSONWriter.writeString(label, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }
}

extension Destination {
    func writeJSON(into out: inout JSONOutputBuffer) {
        switch self {
        case .app: out.append(literal: #"{"type":"app"}"#)
        case .none: out.append(literal: #"{"type":"none"}"#)
        case .clickAction(let value):
            out.append(literal: #"{"type":"clickAction","value":"#)
            JSONWriter.writeString(value, into: &out)
            out.append(UInt8(ascii: "}"))
        case .url(let url, let target):
            out.append(literal: #"{"type":"url","url":"#)
            JSONWriter.writeString(url, into: &out)
            out.append(literal: #","target":""#)
            out.append(utf8: target.rawValue)
            out.append(literal: #""}"#)
        case .screen(let name, let parameters, let url):
            out.append(literal: #"{"type":"screen","name":"#)
            JSONWriter.writeString(name, into: &out)
            if !parameters.isEmpty {
                out.append(literal: #","parameters":{"#)
                var first = true
                for (key, value) in parameters {
                    if !first { out.append(UInt8(ascii: ",")) }
                    first = false
                    JSONWriter.writeString(key, into: &out)
                    out.append(UInt8(ascii: ":"))
                    JSONWriter.writeString(value, into: &out)
                }
                out.append(UInt8(ascii: "}"))
            }
            if let url {
                out.append(literal: #","url":"#)
                JSONWriter.writeString(url, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }
}

extension Interaction.Button {
    func writeJSON(into out: inout JSONOutputBuffer) {
        out.append(literal: #"{"id":"#)
        JSONWriter.writeString(id, into: &out)
        if let label {
            out.append(literal: #","label":"#)
            JSONWriter.writeString(label, into: &out)
        }
        out.append(literal: #","destination":"#)
        destination.writeJSON(into: &out)
        out.append(UInt8(ascii: "}"))
    }
}

extension Warning {
    func writeJSON(into out: inout JSONOutputBuffer) {
        out.append(literal: #"{"code":"#)
        JSONWriter.writeString(code.rawValue, into: &out)
        out.append(literal: #","message":"#)
        JSONWriter.writeString(message, into: &out)
        out.append(UInt8(ascii: "}"))
    }
}

extension JSONValue {
    /// The value a canonical writer writes, read back: how every `jsonValue` of the model is
    /// made, so that the tree is exactly the text.
    ///
    /// The writers write valid JSON of any depth (a payload an app built may nest deeper than
    /// ``JSONParser``'s default limit), so the text is read with no depth limit and cannot fail.
    static func written(capacity: Int = 256, by write: (inout JSONOutputBuffer) -> Void) -> JSONValue {
        var out = JSONOutputBuffer(capacity: capacity)
        write(&out)
        let parsed = out.withBytes { bytes in
            Result { () throws(JSONParseError) -> JSONValue in try JSONParser(maximumDepth: .max).parse(bytes) }
        }
        switch parsed {
        case .success(let value): return value
        case .failure(let error): preconditionFailure("a canonical writer wrote invalid JSON: \(error)")
        }
    }
}
