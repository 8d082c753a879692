extension Interaction {
    /// Appends the compact canonical JSON text of this interaction to `out`.
    ///
    /// This writes the bytes directly, without building the ``jsonValue`` tree first; the
    /// result is byte-for-byte what `JSONWriter().write(jsonValue, into:)` produces (a test
    /// holds the two paths to that on every vector and a generated corpus).
    public func writeJSON(into out: inout [UInt8]) {
        out.append(contentsOf: #"{"vendor":"#.utf8)
        JSONWriter.writeString(vendor, into: &out)
        out.append(contentsOf: #","channel":""#.utf8)
        out.append(contentsOf: channel.rawValue.utf8)
        out.append(contentsOf: #"","trigger":"#.utf8)
        trigger.writeJSON(into: &out)
        out.append(contentsOf: #","destination":"#.utf8)
        destination.writeJSON(into: &out)
        out.append(contentsOf: #","handling":""#.utf8)
        out.append(contentsOf: handling.rawValue.utf8)
        out.append(UInt8(ascii: "\""))
        if let messageId, !messageId.isEmpty {
            out.append(contentsOf: #","messageId":"#.utf8)
            JSONWriter.writeString(messageId, into: &out)
        }
        let writer = JSONWriter()
        if !payload.isEmpty {
            out.append(contentsOf: #","payload":"#.utf8)
            writer.write(.object(payload), into: &out)
        }
        if !tracking.isEmpty {
            out.append(contentsOf: #","tracking":"#.utf8)
            writer.write(.object(tracking), into: &out)
        }
        if !buttons.isEmpty {
            out.append(contentsOf: #","buttons":["#.utf8)
            for (i, button) in buttons.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                out.append(contentsOf: #"{"id":"#.utf8)
                JSONWriter.writeString(button.id, into: &out)
                if let label = button.label {
                    out.append(contentsOf: #","label":"#.utf8)
                    JSONWriter.writeString(label, into: &out)
                }
                out.append(contentsOf: #","destination":"#.utf8)
                button.destination.writeJSON(into: &out)
                out.append(UInt8(ascii: "}"))
            }
            out.append(UInt8(ascii: "]"))
        }
        if let phase {
            out.append(contentsOf: #","phase":""#.utf8)
            out.append(contentsOf: phase.rawValue.utf8)
            out.append(UInt8(ascii: "\""))
        }
        if !warnings.isEmpty {
            out.append(contentsOf: #","warnings":["#.utf8)
            for (i, warning) in warnings.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                out.append(contentsOf: #"{"code":"#.utf8)
                JSONWriter.writeString(warning.code.rawValue, into: &out)
                out.append(contentsOf: #","message":"#.utf8)
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
        case .tap: out.append(contentsOf: #"{"type":"tap"}"#.utf8)
        case .dismiss: out.append(contentsOf: #"{"type":"dismiss"}"#.utf8)
        case .open: out.append(contentsOf: #"{"type":"open"}"#.utf8)
        case .button(let id, let label):
            out.append(contentsOf: #"{"type":"button","id":"#.utf8)
            JSONWriter.writeString(id, into: &out)
            if let label {
                out.append(contentsOf: #","label":"#.utf8)
                JSONWriter.writeString(label, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }
}

extension Destination {
    func writeJSON(into out: inout [UInt8]) {
        switch self {
        case .app: out.append(contentsOf: #"{"type":"app"}"#.utf8)
        case .none: out.append(contentsOf: #"{"type":"none"}"#.utf8)
        case .clickAction(let value):
            out.append(contentsOf: #"{"type":"clickAction","value":"#.utf8)
            JSONWriter.writeString(value, into: &out)
            out.append(UInt8(ascii: "}"))
        case .url(let url, let target):
            out.append(contentsOf: #"{"type":"url","url":"#.utf8)
            JSONWriter.writeString(url, into: &out)
            out.append(contentsOf: #","target":""#.utf8)
            out.append(contentsOf: target.rawValue.utf8)
            out.append(contentsOf: #""}"#.utf8)
        case .screen(let name, let parameters, let url):
            out.append(contentsOf: #"{"type":"screen","name":"#.utf8)
            JSONWriter.writeString(name, into: &out)
            if !parameters.isEmpty {
                out.append(contentsOf: #","parameters":{"#.utf8)
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
                out.append(contentsOf: #","url":"#.utf8)
                JSONWriter.writeString(url, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }
}
