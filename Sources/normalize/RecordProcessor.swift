import TapRoute

/// Turns input records into output records: one Interaction or one error per record.
struct RecordProcessor: Sendable {
    let registry: AdapterRegistry
    let vendor: String?
    let pretty: Bool

    /// The output for one record of JSON text.
    func output(for record: UnsafeBufferPointer<UInt8>, line: Int, file: String?) -> (bytes: [UInt8], failed: Bool) {
        do throws(NormalizationError) {
            let json = try registry.parse(record: record)
            return (render(try normalize(json)), false)
        } catch {
            return (renderError(error, line: line, file: file), true)
        }
    }

    func normalize(_ json: JSONValue) throws(NormalizationError) -> Interaction {
        var event = try InputEvent(json: json)
        if event.vendor == nil, let vendor { event.vendor = vendor }
        return try registry.normalize(event)
    }

    func render(_ interaction: Interaction) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(512)
        JSONWriter(pretty: pretty).write(interaction.jsonValue, into: &out)
        out.append(0x0A)
        return out
    }

    func renderError(_ error: NormalizationError, line: Int, file: String?) -> [UInt8] {
        var fields: [(String, JSONValue)] = [
            ("code", .string(error.code.rawValue)),
            ("message", .string(error.message)),
            ("line", .number(JSONNumber(line))),
            ("path", .string(error.path)),
        ]
        if let file { fields.append(("file", .string(file))) }
        var out: [UInt8] = []
        JSONWriter(pretty: pretty).write(["error": .object(JSONObject(fields))], into: &out)
        out.append(0x0A)
        return out
    }

    /// Processes JSON Lines, streaming; returns the number of failed records.
    ///
    /// Memory stays bounded: a line longer than `limits.maxRecordBytes` is not kept — its
    /// bytes are skipped up to the next newline and it yields one `limitExceeded` record.
    func processLines(from input: InputSource, file: String?, into output: OutputSink) -> Int {
        let limit = registry.configuration.limits.maxRecordBytes
        var failed = 0
        var lineNumber = 0
        var pending: [UInt8] = []  // the start of a line that continues in the next chunk
        var inLine = false
        var oversized = false

        func finish(_ record: UnsafeBufferPointer<UInt8>) {
            lineNumber += 1
            if oversized {
                oversized = false
                failed += 1
                let error = NormalizationError(.limitExceeded, "record is longer than limits.maxRecordBytes (\(limit) bytes)")
                output.append(renderError(error, line: lineNumber, file: file))
                return
            }
            guard !Self.isBlank(record) else { return }
            let result = self.output(for: record, line: lineNumber, file: file)
            if result.failed { failed += 1 }
            output.append(result.bytes)
        }

        while true {
            let chunk = input.read()
            if chunk.isEmpty { break }
            chunk.withUnsafeBufferPointer { buffer in
                var start = 0
                while let newline = Self.index(of: 0x0A, in: buffer, from: start) {
                    let segment = buffer[start..<newline]
                    if inLine {
                        if !oversized { pending.append(contentsOf: segment) }
                        pending.withUnsafeBufferPointer { finish($0) }
                        pending.removeAll(keepingCapacity: pending.capacity <= 1 << 20)
                        inLine = false
                    } else {
                        finish(UnsafeBufferPointer(rebasing: segment))
                    }
                    start = newline + 1
                }
                if start < buffer.count {
                    inLine = true
                    if !oversized {
                        pending.append(contentsOf: buffer[start..<buffer.count])
                        if pending.count > limit {
                            oversized = true
                            pending = []
                        }
                    }
                }
            }
        }
        if inLine {
            pending.withUnsafeBufferPointer { finish($0) }
        }
        return failed
    }

    /// Processes one JSON document: an envelope, or an array of envelopes.
    func processDocument(from input: InputSource, file: String?, into output: OutputSink) -> Int {
        let bytes = input.readAll()
        let limits = registry.configuration.limits
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONParseError) -> JSONValue in try JSONParser(maximumDepth: limits.maxDepth + 1).parse(buffer) }
        }
        switch parsed {
        case .failure(let error):
            var message = error.description
            if error.reason == "unexpected data after the JSON value" {
                message += "; for JSON Lines (one envelope per line) pass --lines"
            }
            let code: NormalizationError.Code = error.reason.hasPrefix("nesting deeper") ? .limitExceeded : .invalidJSON
            output.append(renderError(NormalizationError(code, message), line: error.line, file: file))
            return 1
        case .success(.array(let elements)):
            var failed = 0
            for (i, element) in elements.enumerated() {
                do throws(NormalizationError) {
                    output.append(render(try normalize(element)))
                } catch {
                    var located = error
                    located.path = "$[\(i)]" + error.path.dropFirst()
                    output.append(renderError(located, line: 1, file: file))
                    failed += 1
                }
            }
            return failed
        case .success(let value):
            do throws(NormalizationError) {
                output.append(render(try normalize(value)))
                return 0
            } catch {
                output.append(renderError(error, line: 1, file: file))
                return 1
            }
        }
    }

    static func isBlank(_ record: UnsafeBufferPointer<UInt8>) -> Bool {
        for b in record where b != 0x20 && b != 0x09 && b != 0x0D { return false }
        return true
    }

    static func index(of byte: UInt8, in buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var i = start
        while i < buffer.count {
            if buffer[i] == byte { return i }
            i += 1
        }
        return nil
    }
}
