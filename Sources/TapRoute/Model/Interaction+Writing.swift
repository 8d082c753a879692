extension Interaction {
    /// Appends the compact canonical JSON text of this interaction to `out`.
    ///
    /// This writes the bytes directly, without building the ``jsonValue`` tree first; the
    /// result is byte-for-byte what `JSONWriter().write(jsonValue, into:)` produces (a test
    /// holds the two paths to that on every vector and a generated corpus).
    public func writeJSON(into out: inout [UInt8]) {
        out.appendLiteral(#"{"vendor":"#)
        JSONWriter.writeString(vendor, into: &out)
        out.appendLiteral(#","channel":""#)
        out.appendUTF8(channel.rawValue)
        out.appendLiteral(#"","trigger":"#)
        trigger.writeJSON(into: &out)
        out.appendLiteral(#","destination":"#)
        destination.writeJSON(into: &out)
        out.appendLiteral(#","handling":""#)
        out.appendUTF8(handling.rawValue)
        out.append(UInt8(ascii: "\""))
        if let messageId, !messageId.isEmpty {
            out.appendLiteral(#","messageId":"#)
            JSONWriter.writeString(messageId, into: &out)
        }
        let writer = JSONWriter()
        if !payload.isEmpty {
            out.appendLiteral(#","payload":"#)
            writer.write(.object(payload), into: &out)
        }
        if !tracking.isEmpty {
            out.appendLiteral(#","tracking":"#)
            writer.write(.object(tracking), into: &out)
        }
        if !buttons.isEmpty {
            out.appendLiteral(#","buttons":["#)
            for (i, button) in buttons.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                out.appendLiteral(#"{"id":"#)
                JSONWriter.writeString(button.id, into: &out)
                if let label = button.label {
                    out.appendLiteral(#","label":"#)
                    JSONWriter.writeString(label, into: &out)
                }
                out.appendLiteral(#","destination":"#)
                button.destination.writeJSON(into: &out)
                out.append(UInt8(ascii: "}"))
            }
            out.append(UInt8(ascii: "]"))
        }
        if let phase {
            out.appendLiteral(#","phase":""#)
            out.appendUTF8(phase.rawValue)
            out.append(UInt8(ascii: "\""))
        }
        if !warnings.isEmpty {
            out.appendLiteral(#","warnings":["#)
            for (i, warning) in warnings.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                out.appendLiteral(#"{"code":"#)
                JSONWriter.writeString(warning.code.rawValue, into: &out)
                out.appendLiteral(#","message":"#)
                JSONWriter.writeString(warning.message, into: &out)
                out.append(UInt8(ascii: "}"))
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "}"))
    }
}

extension Trigger {
    func writeJSON(into out: inout [UInt8]) {
        switch self {
        case .tap: out.appendLiteral(#"{"type":"tap"}"#)
        case .dismiss: out.appendLiteral(#"{"type":"dismiss"}"#)
        case .open: out.appendLiteral(#"{"type":"open"}"#)
        case .button(let id, let label):
            out.appendLiteral(#"{"type":"button","id":"#)
            JSONWriter.writeString(id, into: &out)
            if let label {
                out.appendLiteral(#","label":"#)
                JSONWriter.writeString(label, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }
}

extension Destination {
    func writeJSON(into out: inout [UInt8]) {
        switch self {
        case .app: out.appendLiteral(#"{"type":"app"}"#)
        case .none: out.appendLiteral(#"{"type":"none"}"#)
        case .clickAction(let value):
            out.appendLiteral(#"{"type":"clickAction","value":"#)
            JSONWriter.writeString(value, into: &out)
            out.append(UInt8(ascii: "}"))
        case .url(let url, let target):
            out.appendLiteral(#"{"type":"url","url":"#)
            JSONWriter.writeString(url, into: &out)
            out.appendLiteral(#","target":""#)
            out.appendUTF8(target.rawValue)
            out.appendLiteral(#""}"#)
        case .screen(let name, let parameters, let url):
            out.appendLiteral(#"{"type":"screen","name":"#)
            JSONWriter.writeString(name, into: &out)
            if !parameters.isEmpty {
                out.appendLiteral(#","parameters":{"#)
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
                out.appendLiteral(#","url":"#)
                JSONWriter.writeString(url, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }
}
