import ArgumentParser
import Foundation
import NormalizeCore
import TapRoute

/// `normalize encode --vendor ID [FILE…]`: write each message as the vendor's payload.
struct EncodeMessages: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encode",
        abstract: "Write each message as the payload a vendor's SDK receives (docs/encode.md).",
        discussion: """
            Each FILE is a message document (one message, or an array of messages) or, with --lines \
            or a .jsonl/.ndjson name, JSON Lines (one message per line; blank lines are skipped). \
            '-' or no FILE reads standard input. Output is one JSON object per message, in input \
            order: a push's device payload (the notification's userInfo, which `normalize` reads back), \
            the envelope for other kinds of payload, or {"error":{…}} naming the code, the vendor, \
            the message field at fault and the line. A document, like each line, is held to \
            limits.maxRecordBytes and limits.maxDepth. The exit status is 1 when a message could not \
            be encoded, 2 when an input could not be read.
            """
    )

    @OptionGroup var options: ConfigurationOptions

    @Option(name: .long, help: ArgumentHelp("The adapter whose payload to write.", valueName: "id"))
    var vendor: String

    @Option(
        name: .long,
        help: ArgumentHelp(
            "What to do with a screen the vendor cannot name: 'error' (default) or 'route' (the URL of the configuration's route to it).",
            valueName: "error|route"
        )
    )
    var screens = "error"

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Add \"Simulator Target Bundle\" so the payload can go to `xcrun simctl push booted FILE`.",
            valueName: "bundle id"
        )
    )
    var simulator: String?

    @Flag(name: .long, help: "Read JSON Lines: one message per line.")
    var lines = false

    @Flag(name: .long, help: "Indent the output JSON.")
    var pretty = false

    @Argument(help: ArgumentHelp("Message files; '-' or none for standard input.", valueName: "file"))
    var files: [String] = []

    func validate() throws {
        if vendor.isEmpty { throw ValidationError("--vendor needs an adapter id") }
        if let simulator, simulator.isEmpty { throw ValidationError("--simulator needs the app's bundle id") }
        if EncodeOptions.ScreenFallback(rawValue: screens) == nil {
            throw ValidationError("--screens must be 'error' or 'route', not '\(screens)'")
        }
    }

    func run() throws {
        let registry = try options.loadRegistry()
        guard registry.adapters.contains(where: { $0.id == vendor }) else {
            let enabled = registry.adapters.map(\.id).joined(separator: ", ")
            throw ValidationError("--vendor: no enabled adapter has id '\(vendor)'; enabled: \(enabled)")
        }
        guard registry.canEncode(vendor: vendor) else {
            let encoders = registry.adapters.map(\.id).filter { registry.canEncode(vendor: $0) }
            throw ValidationError(
                "--vendor: adapter '\(vendor)' cannot encode messages; these can: \(encoders.isEmpty ? "none" : encoders.joined(separator: ", "))"
            )
        }
        let encoder = MessageWriter(
            registry: registry,
            vendor: vendor,
            options: EncodeOptions(screens: EncodeOptions.ScreenFallback(rawValue: screens) ?? .error),
            simulator: simulator,
            pretty: pretty
        )
        let output = OutputSink()
        var failed = 0
        var unreadable = 0
        for file in files.isEmpty ? ["-"] : files {
            let asLines = lines || file.hasSuffix(".jsonl") || file.hasSuffix(".ndjson")
            do throws(IOFailure) {
                let input = try InputSource(path: file)
                let limit = registry.configuration.limits.maxRecordBytes
                if asLines {
                    try InputLines.read(input, limit: limit) { (line: Int, bytes: ArraySlice<UInt8>?) throws(IOFailure) in
                        if let bytes {
                            encoder.write(bytes, line: line, into: output, failed: &failed)
                        } else {
                            encoder.writeTooLong(line: line, limit: limit, into: output, failed: &failed)
                        }
                        try output.checkpoint()
                    }
                } else {
                    if let bytes = try InputLines.readAll(input, limit: limit) {
                        encoder.writeDocument(bytes, into: output, failed: &failed)
                    } else {
                        encoder.writeTooLong(line: nil, limit: limit, into: output, failed: &failed)
                    }
                }
                try output.flush()
            } catch {
                if error.isWriteFailure { throw error }
                try output.flush()
                StandardError.writeLine("normalize encode: \(error)")
                unreadable += 1
            }
        }
        try output.flush()
        if unreadable > 0 { throw ExitCode(2) }
        if failed > 0 { throw ExitCode(1) }
    }
}

/// Encodes records and writes one output line per message.
struct MessageWriter {
    let registry: AdapterRegistry
    let vendor: String
    let options: EncodeOptions
    let simulator: String?
    let pretty: Bool

    /// A document: one message, or an array of messages.
    func writeDocument(_ bytes: [UInt8], into output: OutputSink, failed: inout Int) {
        let value: JSONValue
        do throws(NormalizationError) {
            value = try bytes.withUnsafeBufferPointer { buffer throws(NormalizationError) in try registry.parse(record: buffer) }
        } catch {
            writeError(error.jsonValue, line: nil, into: output, failed: &failed)
            return
        }
        if case .array(let messages) = value {
            for (i, message) in messages.enumerated() { write(message, line: nil, prefix: "$[\(i)]", into: output, failed: &failed) }
        } else {
            write(value, line: nil, prefix: "$", into: output, failed: &failed)
        }
    }

    /// One JSON Lines record.
    func write(_ bytes: ArraySlice<UInt8>, line: Int, into output: OutputSink, failed: inout Int) {
        let value: JSONValue
        do throws(NormalizationError) {
            value = try bytes.withUnsafeBufferPointer { buffer throws(NormalizationError) in try registry.parse(record: buffer) }
        } catch {
            writeError(error.jsonValue, line: line, into: output, failed: &failed)
            return
        }
        write(value, line: line, prefix: "$", into: output, failed: &failed)
    }

    func writeTooLong(line: Int?, limit: Int, into output: OutputSink, failed: inout Int) {
        let error = NormalizationError(.limitExceeded, "the record is longer than limits.maxRecordBytes (\(limit) bytes)", path: "$")
        writeError(error.jsonValue, line: line, into: output, failed: &failed)
    }

    func write(_ value: JSONValue, line: Int?, prefix: String, into output: OutputSink, failed: inout Int) {
        let message: OutgoingMessage
        do throws(ModelDecodingError) {
            message = try OutgoingMessage(jsonValue: value)
        } catch {
            let located = prefix + error.path.dropFirst()
            let failure = EncodingError(.invalidMessage, vendor: vendor, field: located, error.message)
            writeError(failure.jsonValue, line: line, into: output, failed: &failed)
            return
        }
        do throws(EncodingError) {
            let event = try registry.encode(message, vendor: vendor, options: options)
            var payload: JSONValue
            if case .notification(let userInfo, _, _) = event.kind {
                var o = userInfo
                if let simulator { o["Simulator Target Bundle"] = .string(simulator) }
                payload = .object(o)
            } else {
                guard simulator == nil else {
                    let failure = EncodingError(
                        .cannotExpress,
                        vendor: vendor,
                        field: prefix,
                        "\(vendor) payloads are \(event.kind.name) inputs, not pushes; --simulator needs a push"
                    )
                    writeError(failure.jsonValue, line: line, into: output, failed: &failed)
                    return
                }
                payload = event.jsonValue
            }
            output.append(line: payload.jsonString(pretty: pretty))
        } catch {
            var e = error
            if prefix != "$" { e = EncodingError(e.code, vendor: e.vendor, field: prefix + e.field.dropFirst(), e.message) }
            writeError(e.jsonValue, line: line, into: output, failed: &failed)
        }
    }

    func writeError(_ error: JSONValue, line: Int?, into output: OutputSink, failed: inout Int) {
        failed += 1
        var o = error.objectValue ?? [:]
        if let line { o["line"] = .number(JSONNumber(line)) }
        output.append(line: JSONValue.object(["error": .object(o)]).jsonString(pretty: pretty))
    }
}

/// Reads an input whole or line by line, holding each record to a byte limit.
enum InputLines {
    /// Calls `body` with each non-blank line's number and bytes (`nil` for a line over
    /// `limit`, whose bytes are skipped).
    static func read(_ input: InputSource, limit: Int, _ body: (Int, ArraySlice<UInt8>?) throws(IOFailure) -> Void) throws(IOFailure) {
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
        defer { chunk.deallocate() }
        var current: [UInt8] = []
        var tooLong = false
        var line = 1
        func finish() throws(IOFailure) {
            defer {
                current.removeAll(keepingCapacity: true)
                tooLong = false
                line += 1
            }
            if tooLong { return try body(line, nil) }
            var slice = current[...]
            if slice.last == UInt8(ascii: "\r") { slice = slice.dropLast() }
            if slice.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
            try body(line, slice)
        }
        while true {
            let n = try input.read(into: chunk)
            if n == 0 { break }
            for b in chunk[..<n] {
                if b == UInt8(ascii: "\n") {
                    try finish()
                } else if !tooLong {
                    if current.count >= limit {
                        tooLong = true
                        current.removeAll(keepingCapacity: true)
                    } else {
                        current.append(b)
                    }
                }
            }
        }
        if !current.isEmpty || tooLong { try finish() }
    }

    /// The whole input, or `nil` when it is longer than `limit`.
    static func readAll(_ input: InputSource, limit: Int) throws(IOFailure) -> [UInt8]? {
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
        defer { chunk.deallocate() }
        var all: [UInt8] = []
        while true {
            let n = try input.read(into: chunk)
            if n == 0 { return all }
            if all.count + n > limit { return nil }
            all += chunk[..<n]
        }
    }
}

extension EncodingError {
    /// The error record's body: `code`, `vendor`, `message` and the message field as `path`.
    var jsonValue: JSONValue {
        ["code": .string(code.rawValue), "vendor": .string(vendor), "message": .string(message), "path": .string(field)]
    }
}
