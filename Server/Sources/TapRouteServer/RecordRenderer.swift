import TapRoute

/// Turns one record — an input envelope or an outgoing message, as JSON text — into its output
/// line, exactly as the `normalize` CLI writes it: the compact Interaction (or vendor payload),
/// or the error record, each followed by a newline.
public struct RecordRenderer: Sendable {
    /// The registry that normalizes and encodes.
    public let registry: AdapterRegistry
    /// The limits every record is read under: the configuration's, with
    /// `limits.maxRecordBytes` replaced by the server's `--max-record-bytes` when given. A
    /// message to encode is read whole by it; an envelope is read by the registry under its
    /// limits (``normalize(_:line:)``).
    public let reader: RecordReader
    /// The adapter used for envelopes that name none (`?vendor=`), like the CLI's `--vendor`.
    public var vendor: String?

    /// A renderer for `registry`; `maxRecordBytes` overrides the configuration's
    /// `limits.maxRecordBytes`, `vendor` skips detection for envelopes that name no vendor.
    public init(registry: AdapterRegistry, maxRecordBytes: Int? = nil, vendor: String? = nil) {
        self.registry = registry
        var limits = registry.configuration.limits
        if let maxRecordBytes { limits.maxRecordBytes = maxRecordBytes }
        self.reader = RecordReader(limits: limits)
        self.vendor = vendor
    }

    /// The longest record accepted, in bytes.
    public var maxRecordBytes: Int { reader.limits.maxRecordBytes }

    /// Normalizes the record `record`, which starts on line `line` of its input, as the CLI
    /// does: read under ``reader``'s limits, the alert's text checked but not built when no
    /// enabled adapter reads it (`AdapterRegistry.normalize(record:limits:line:vendor:)`).
    /// - Throws: ``NormalizationError``, as `normalize` reports it.
    public func normalize(_ record: UnsafeBufferPointer<UInt8>, line: Int) throws(NormalizationError) -> Interaction {
        try registry.normalize(record: record, limits: reader.limits, line: line, vendor: vendor)
    }

    /// Appends the output line for one envelope to `out`; returns the `code` of the error
    /// record written, or `nil` when the envelope was normalized.
    @discardableResult
    public func appendNormalized(_ record: UnsafeBufferPointer<UInt8>, line: Int, into out: inout [UInt8]) -> String? {
        do throws(NormalizationError) {
            let interaction = try normalize(record, line: line)
            interaction.writeJSON(into: &out)
            out.append(0x0A)
            return nil
        } catch {
            Self.appendError(error, line: line, into: &out)
            return error.code.rawValue
        }
    }

    /// Appends the CLI's error record for `error`, found on line `line`, to `out`:
    /// `{"error":{"code":…,"message":…,"line":…,"path":…}}` and a newline.
    public static func appendError(_ error: NormalizationError, line: Int, into out: inout [UInt8]) {
        let record: JSONValue = [
            "error": [
                "code": .string(error.code.rawValue),
                "message": .string(error.message),
                "line": .number(JSONNumber(line)),
                "path": .string(error.path),
            ]
        ]
        JSONWriter().write(record, into: &out)
        out.append(0x0A)
    }

    /// Appends the error record of an over-long line (`limitExceeded`) of `size` bytes, line
    /// `line` of the input, to `out`.
    public func appendOversized(size: Int, line: Int, into out: inout [UInt8]) {
        Self.appendError(.limitExceeded(reader.oversized(size: size)), line: line, into: &out)
    }

    /// Appends the output line for one message to encode for `vendor` to `out` — the vendor's
    /// payload, or `normalize encode`'s error record; returns the `code` of the error record
    /// written, or `nil` when the message was encoded.
    @discardableResult
    public func appendEncoded(
        _ record: UnsafeBufferPointer<UInt8>,
        line: Int,
        vendor: String,
        options: EncodeOptions,
        into out: inout [UInt8]
    ) -> String? {
        func fail(_ error: EncodingError) -> String? {
            let record: JSONValue = [
                "error": [
                    "code": .string(error.code.rawValue),
                    "vendor": .string(error.vendor),
                    "message": .string(error.message),
                    "line": .number(JSONNumber(line)),
                    "path": .string(error.field),
                ]
            ]
            JSONWriter().write(record, into: &out)
            out.append(0x0A)
            return error.code.rawValue
        }
        let json: JSONValue
        do throws(NormalizationError) {
            json = try reader.read(record, line: line)
        } catch {
            Self.appendError(error, line: line, into: &out)
            return error.code.rawValue
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
        if case .notification(let userInfo, _, _) = event.kind {
            payload = .object(userInfo)
        } else {
            payload = event.jsonValue
        }
        JSONWriter().write(payload, into: &out)
        out.append(0x0A)
        return nil
    }
}
