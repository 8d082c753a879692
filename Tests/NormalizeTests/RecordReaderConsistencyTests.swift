import Foundation
import TapRoute
import Testing

/// One record reader (``RecordReader``) for every way a record arrives: the same hostile record
/// as a JSON line, as an element of a document's array and as a whole document gives the same
/// output or the same error — code, message, line, and path (`$[0]…` for the element) — through
/// the built binary, and that error is the one ``AdapterRegistry/normalize(record:)`` and the
/// reader itself give.
@Suite struct RecordReaderConsistencyTests {
    static let maxRecordBytes = 100
    static let maxDepth = 5

    /// A URL envelope of exactly `size` bytes.
    static func envelope(bytes size: Int) -> String {
        let frame = #"{"kind":"url","url":"tel:"}"#.utf8.count
        return #"{"kind":"url","url":"tel:"# + String(repeating: "1", count: size - frame) + #""}"#
    }

    /// An envelope nesting `depth` levels: the envelope, userInfo, then arrays.
    static func nested(_ depth: Int) -> String {
        let arrays = depth - 2
        return #"{"kind":"notification","userInfo":{"x":"# + String(repeating: "[", count: arrays)
            + String(repeating: "]", count: arrays) + "}}"
    }

    /// The hostile records, each with the error code it gives (`nil`: an Interaction).
    static let records: [(name: String, bytes: [UInt8], code: String?)] = [
        ("at maxRecordBytes", Array(envelope(bytes: maxRecordBytes).utf8), nil),
        ("one byte over maxRecordBytes", Array(envelope(bytes: maxRecordBytes + 1).utf8), "limitExceeded"),
        ("far over maxRecordBytes", Array(envelope(bytes: 50 * maxRecordBytes).utf8), "limitExceeded"),
        // Read, then refused by detection (no adapter reads it): not a limit.
        ("at maxDepth", Array(nested(maxDepth).utf8), "unrecognized"),
        ("one level over maxDepth", Array(nested(maxDepth + 1).utf8), "limitExceeded"),
        ("a misspelt literal", Array(#"{"kind":"url","url":tru}"#.utf8), "invalidJSON"),
        ("an invalid escape", Array(#"{"kind":"url","url":"tel:\q"}"#.utf8), "invalidJSON"),
        ("a line that is not JSON", Array("this is not JSON".utf8), "invalidJSON"),
        ("a control character in a string", Array("{\"kind\":\"url\",\"url\":\"tel:\u{01}\"}".utf8), "invalidJSON"),
        ("invalid UTF-8", Array(#"{"kind":"url","url":"tel:"#.utf8) + [0xFF] + Array(#""}"#.utf8), "invalidJSON"),
        ("a wrong type after parsing", Array(#"{"kind":"url","url":["tel:1"]}"#.utf8), "invalidEnvelope"),
    ]

    static let configuration = """
        limits: {maxRecordBytes: \(maxRecordBytes), maxDepth: \(maxDepth)}
        """

    /// The first output record of a run, parsed; with `single`, the run must have no other.
    static func first(_ run: Child, single: Bool = true, _ name: String) throws -> JSONValue {
        try #require(single ? run.lines.count == 1 : !run.lines.isEmpty, "\(name): \(run.lines)")
        return try JSONValue(parsing: run.lines[0])
    }

    @Test(arguments: records.indices)
    func aRecordGivesTheSameResultAsALineAnElementOrADocument(index: Int) throws {
        let (name, bytes, code) = Self.records[index]
        let config = try Scratch.file("limits.yaml", Self.configuration + "\n")
        // The record starts on line 2, column 1, whichever way it arrives.
        let newline: [UInt8] = [0x0A]
        let asLine = try Self.first(try Child.run(["--config", config, "--lines"], stdin: .bytes(newline + bytes + newline)), name)
        // A broken element may break the array around it too (an unterminated string runs to
        // the end of the input): its own record comes first.
        let elementRun = try Child.run(["--config", config], stdin: .bytes(Array("[\n".utf8) + bytes + Array("\n]\n".utf8)))
        let asElement = try Self.first(elementRun, single: code != "invalidJSON", name)
        let asDocument = try Self.first(try Child.run(["--config", config], stdin: .bytes(newline + bytes + newline)), name)

        #expect(asLine["error"]?["code"]?.stringValue == code, "\(name): \(asLine)")
        guard code != nil else {
            #expect(asLine["error"] == nil, "\(name): \(asLine)")
            #expect(asElement == asLine, "\(name)")
            #expect(asDocument == asLine, "\(name)")
            return
        }
        let line = try #require(asLine["error"]?.objectValue, "\(name): \(asLine)")
        let element = try #require(asElement["error"]?.objectValue, "\(name): \(asElement)")
        let document = try #require(asDocument["error"]?.objectValue, "\(name): \(asDocument)")
        #expect(element["code"] == line["code"], "\(name)")
        #expect(element["message"] == line["message"], "\(name)")
        #expect(element["line"] == line["line"] && line["line"] == 2, "\(name): \(line)")
        #expect(element["path"]?.stringValue == "$[0]" + (line["path"]?.stringValue ?? "").dropFirst(), "\(name)")
        #expect(document["code"] == line["code"], "\(name)")
        #expect(document["line"] == line["line"], "\(name)")
        #expect(document["path"] == line["path"], "\(name)")
        if bytes.count > Self.maxRecordBytes {
            // A whole document is read only up to the limit, so its message cannot give its size.
            #expect(
                document["message"]?.stringValue?.contains("limits.maxRecordBytes (\(Self.maxRecordBytes) bytes)") == true,
                "\(name): \(document)"
            )
        } else {
            #expect(document["message"] == line["message"], "\(name)")
        }

        // The registry and the reader give that error, with its typed cause.
        let registry = try AdapterRegistry(
            configuration: Configuration(limits: Limits(maxRecordBytes: Self.maxRecordBytes, maxDepth: Self.maxDepth)),
            adapterTypes: []
        )
        let viaReader = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(NormalizationError) in try registry.recordReader.read(buffer, line: 2) }
        }
        guard case .failure(let error) = viaReader else {
            // An error found after reading: the reader accepted the record.
            #expect(line["code"] != "limitExceeded" && line["code"] != "invalidJSON", "\(name): \(line)")
            return
        }
        #expect(JSONValue.string(error.message) == line["message"], "\(name)")
        #expect(JSONValue.string(error.code.rawValue) == line["code"], "\(name)")
        switch error.cause {
        case .limitExceeded(.recordBytes(let size, let limit))?:
            #expect(size == bytes.count && limit == Self.maxRecordBytes, "\(name)")
        case .limitExceeded(.depth(let limit, let errorLine, _))?:
            #expect(limit == Self.maxDepth && errorLine == 2, "\(name)")
        case .invalidJSON(let problem)?:
            #expect(problem.line == 2 && error.code == .invalidJSON, "\(name)")
        default:
            Issue.record("\(name): the reader's error has no cause: \(error)")
        }
        let viaRegistry = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(NormalizationError) in try registry.parse(record: buffer) }
        }
        let viaLineOne = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(NormalizationError) in try registry.recordReader.read(buffer) }
        }
        #expect(viaRegistry == viaLineOne, "\(name)")
    }
}
