import TapRoute
import Testing

/// ``RecordReader`` in process: the limits at and one past their values, and positions counted
/// in the input the record came from.
@Suite struct RecordReaderTests {
    let reader = RecordReader(limits: Limits(maxRecordBytes: 16, maxDepth: 2))

    func read(_ text: String, line: Int = 1, column: Int = 1) -> Result<JSONValue, NormalizationError> {
        Array(text.utf8).withUnsafeBufferPointer { buffer in
            Result { () throws(NormalizationError) in try reader.read(buffer, line: line, column: column) }
        }
    }

    @Test func limitsHoldAtTheirValueAndRefuseOnePast() throws {
        #expect(try read(#"{"a":"0123456"}"#).get() == ["a": "0123456"])  // 15 bytes
        #expect(try read(#"{"a":"01234567"}"#).get() == ["a": "01234567"])  // 16 bytes
        #expect(read(#"{"a":"012345678"}"#) == .failure(.limitExceeded(.recordBytes(size: 17, limit: 16))))
        #expect(try read("[[1]]").get() == [[1]])
        #expect(read("[[[1]]]", line: 4, column: 3) == .failure(.limitExceeded(.depth(limit: 2, line: 4, column: 5))))
    }

    @Test func positionsAreTheInputs() {
        // The problem is on the record's second line: its column is that line's own.
        let error = NormalizationError(
            .invalidJSON,
            "invalid literal 'tru', expected 'true' at line 6 column 5",
            cause: .invalidJSON(JSONParseError(.invalidLiteral(found: "tru", expected: "true"), line: 6, column: 5, offset: 6))
        )
        #expect(read("{\n\"a\":tru}", line: 5, column: 3) == .failure(error))
        // On the record's first line, the column is shifted by where the record starts.
        guard case .failure(let shifted) = read("[1,,]", line: 2, column: 10), case .invalidJSON(let problem)? = shifted.cause else {
            Issue.record("expected invalidJSON")
            return
        }
        #expect(problem.line == 2 && problem.column == 13 && problem.offset == 3)
        #expect(problem.problem == .unexpected(found: UInt8(ascii: ","), expected: .value))
    }
}
