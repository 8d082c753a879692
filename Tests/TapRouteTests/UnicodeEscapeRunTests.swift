import TapRouteTestSupport
import Testing

@testable import TapRoute

/// A run of `\u` escapes — text whose every non-ASCII character is escaped, as Python's
/// `json.dumps` writes it by default — is passed or decoded escape after escape by the
/// parser's fast string paths and by `PlainJSONScanner` (docs/performance.md, "Fortieth
/// round"). Every run of one to three escapes, valid or not, at the end of a string, before
/// more text, and cut off by the end of the input, must read as the in-order reader reads it:
/// the same value or the same error at the same place.
@Suite struct UnicodeEscapeRunTests {
    /// Escapes valid and not (a pair, a lone high or low surrogate, a high one followed by a
    /// letter's escape, too few digits, a digit that is not one), and pieces that end a run.
    static let pieces: [String] = [
        #"\u00e9"#, #"\u65B0"#, #"\ud83d\udc4b"#, #"\uD83D\uDC4B"#, #"\u0041"#, #"\u0000"#, #"\ud83d"#, #"\udc4b"#,
        #"\ud83d\u0041"#, #"\u12"#, #"\uZZZZ"#, #"\u00g0"#, "é", #"\""#, #"\n"#, "a",
    ]

    /// Every run of one to three pieces.
    static let runs: [String] = {
        var runs: [String] = []
        for a in pieces {
            runs.append(a)
            for b in pieces {
                runs.append(a + b)
                for c in pieces { runs.append(a + b + c) }
            }
        }
        return runs
    }()

    /// The run as a string member's value: closed, followed by text, and cut off.
    static func documents(_ run: String) -> [[UInt8]] {
        [#"{"k":""# + run + #""}"#, #"{"k":""# + run + #"tail"}"#, #"{"k":""# + run].map { Array($0.utf8) }
    }

    static func parse(_ bytes: [UInt8], inOrder: Bool) -> Result<JSONValue, JSONParseError> {
        var parser = JSONParser()
        parser.readsStringsInOrder = inOrder
        return Result { () throws(JSONParseError) -> JSONValue in try parser.parse(bytes) }
    }

    @Test func theFastPathsReadEveryRunAsTheInOrderReader() {
        var refused = 0
        var read = 0
        for run in Self.runs {
            for document in Self.documents(run) {
                let fast = Self.parse(document, inOrder: false)
                let reference = Self.parse(document, inOrder: true)
                #expect(fast == reference, "\(String(decoding: document, as: UTF8.self))")
                if case .failure = reference { refused += 1 } else { read += 1 }
            }
        }
        // Both outcomes are met often: the runs are not all valid, nor all broken.
        #expect(read > 2_000 && refused > 2_000, "\(read) read, \(refused) refused")
    }

    /// The alert's text, checked and not built (`alertTextReadForKind`), skips each run with
    /// the errors the whole parse gives.
    @Test func skippedAlertTextReadsEveryRunAsTheWholeParse() {
        var compared = 0
        for run in Self.runs {
            for record in AlertTextReadingTests.records(around: Array(run.utf8)) {
                let whole = AlertTextReadingTests.outcome(record, alertTextForKind: false)
                let forKind = AlertTextReadingTests.outcome(record, alertTextForKind: true)
                switch (whole, forKind) {
                case (.success(let value), .success(let skipped)):
                    #expect(skipped == AlertTextReadingTests.emptyingAlertText(value), "\(run)")
                case (.failure(let error), .failure(let same)):
                    #expect(same == error, "\(run): \(same) vs \(error)")
                default:
                    Issue.record("one parse failed and the other did not: \(String(decoding: record, as: UTF8.self))")
                }
                compared += 1
            }
        }
        #expect(compared == Self.runs.count * 15)
    }

    /// Whether `run` has a `\u` escape of a surrogate that is not half of a pair (a high one
    /// with a low one right after it), read escape by escape.
    static func hasLoneSurrogate(_ run: String) -> Bool {
        let bytes = Array(run.utf8)
        var values: [UInt32?] = []  // each escape's value, `nil` for anything else
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "\\"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "u"), i + 6 <= bytes.count,
                let value = UInt32(String(decoding: bytes[(i + 2)..<(i + 6)], as: UTF8.self), radix: 16)
            {
                values.append(value)
                i += 6
            } else {
                values.append(nil)
                i += bytes[i] == UInt8(ascii: "\\") ? 2 : 1
            }
        }
        var k = 0
        while k < values.count {
            guard let value = values[k] else {
                k += 1
                continue
            }
            if (0xD800..<0xDC00).contains(value) {
                guard k + 1 < values.count, let low = values[k + 1], (0xDC00..<0xE000).contains(low) else { return true }
                k += 2
            } else {
                if (0xDC00..<0xE000).contains(value) { return true }
                k += 1
            }
        }
        return false
    }

    /// `PlainJSONScanner` takes a run only when the parser reads it, and takes every run the
    /// parser reads that has no lone surrogate (which it leaves to the parser).
    @Test func theScannerTakesARunExactlyWhenTheParserDoes() {
        var taken = 0
        for run in Self.runs {
            for document in Self.documents(run) {
                let scanned = document.withUnsafeBufferPointer { bytes -> Bool in
                    guard var scanner = PlainJSONScanner(bytes, maximumDepth: 512) else { return false }
                    return scanner.skipValue(depth: 0) && scanner.isAtEnd()
                }
                let parses = (try? JSONParser().parse(document)) != nil
                let text = String(decoding: document, as: UTF8.self)
                if scanned {
                    taken += 1
                    #expect(parses, "\(text)")
                } else if parses {
                    #expect(Self.hasLoneSurrogate(run), "taken by the parser, refused by the scanner: \(text)")
                }
            }
        }
        #expect(taken > 1_000, "\(taken) taken")
    }
}
