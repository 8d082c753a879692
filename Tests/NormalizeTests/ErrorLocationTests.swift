import Foundation
import TapRoute
import TapRouteTestSupport
import Testing

/// Errors that say where: the line of the offending value in a document, syntax errors inside
/// an array after the elements before them, and a byte order mark at the start of an input.
/// Through the built binary.
@Suite struct ErrorLocationTests {
    func errors(_ run: Run) throws -> [(line: Int, path: String, message: String)] {
        try run.lines.compactMap { line in
            guard case .object(let record) = try JSONValue(parsing: line), case .object(let error)? = record["error"] else {
                return nil
            }
            guard case .number(let number)? = error["line"], let at = Int(number.text),
                case .string(let path)? = error["path"], case .string(let message)? = error["message"]
            else { return nil }
            return (at, path, message)
        }
    }

    func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("taproute-errorlocation-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    @Test func aDocumentsErrorNamesTheLineOfTheOffendingValue() throws {
        let text = """
            {
              "kind": "url",

              "url": 42
            }
            """
        let run = try normalize([try file("one.json", Array(text.utf8))])
        #expect(run.status == 1)
        let found = try errors(run)
        #expect(found.count == 1)
        #expect(found.first?.line == 4)
        #expect(found.first?.path == "$.url")
    }

    @Test func anArrayElementsErrorNamesItsOwnLines() throws {
        let text = """
            [
              {"kind": "url", "url": "https://a.example/x"},
              {"kind": "url",
               "url": 42},
              {"kind": "notification",
               "userInfo": {"aps": {}},
               "action": 7},
              {"kind": "url", "url": "https://a.example/y"}
            ]
            """
        let run = try normalize([try file("array.json", Array(text.utf8))])
        #expect(run.status == 1)
        #expect(run.lines.count == 4)
        let found = try errors(run)
        #expect(found.map(\.line) == [4, 7])
        #expect(found.map(\.path) == ["$[1].url", "$[2].action"])
    }

    @Test func aSyntaxErrorInAnArrayComesAfterTheElementsBeforeIt() throws {
        let text = """
            [
              {"kind": "url", "url": "https://a.example/x"},
              {"kind": "url", "url": "https://a.example/y"},
              {"kind": "url", "url": tru}
            ]
            """
        let run = try normalize([try file("broken.json", Array(text.utf8))])
        #expect(run.status == 1)
        #expect(run.lines.count == 3)
        #expect(run.lines.prefix(2).allSatisfy { $0.hasPrefix(#"{"vendor":"link""#) })
        let found = try errors(run)
        #expect(found.count == 1)
        #expect(found.first?.line == 4)
        #expect(found.first?.message.contains("line 4 column 26") == true)
    }

    @Test func aByteOrderMarkStartsAnyInput() throws {
        let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        let record = Array(#"{"kind":"url","url":"https://a.example/x"}"#.utf8)
        let document = try normalize([try file("bom.json", mark + record)])
        #expect(document.status == 0)
        #expect(document.lines.count == 1)
        let lines = try normalize(["--lines", try file("bom.jsonl", mark + record + [0x0A] + record + [0x0A])])
        #expect(lines.status == 0)
        #expect(lines.lines.count == 2)
        let standardInput = try normalize(["--lines"], stdin: "\u{FEFF}" + String(decoding: record, as: UTF8.self) + "\n")
        #expect(standardInput.status == 0)
        #expect(standardInput.lines.count == 1)
        // Only at the very start: a mark inside the input is not JSON.
        let inside = try normalize(["--lines", try file("inside.jsonl", record + [0x0A] + mark + record + [0x0A])])
        #expect(inside.status == 1)
        #expect(try errors(inside).map(\.line) == [2])
        // An apple-app-site-association file too.
        let aasa = try String(contentsOfFile: TestPaths.path("examples/aasa/apple-example.json"), encoding: .utf8)
        let lint = try normalize(["aasa", "lint", try file("bom-aasa.json", mark + Array(aasa.utf8))])
        #expect(lint.status == 0)
        #expect(!lint.stdout.contains("invalidJSON"))
        // A mark alone is an empty input.
        let alone = try normalize(["--lines", try file("alone.jsonl", mark)])
        #expect(alone.status == 0)
        #expect(alone.stdout.isEmpty)
    }

    @Test func aLineThatIsNotJSONSaysWhatWasFoundAndWhatARecordLooksLike() throws {
        let run = try normalize(["--lines"], stdin: "this line is not JSON\n[1,\n")
        #expect(run.status == 1)
        let found = try errors(run)
        #expect(found.count == 2)
        #expect(found.first?.message.contains("unexpected 'this', expected a JSON value") == true)
        #expect(found.first?.message.contains(#"a record is one JSON object, an input envelope such as {"kind":"url""#) == true)
        // A record that begins as JSON gets the parser's own message, without the hint.
        #expect(found.last?.message.contains("a record is one JSON object") == false)
    }
}
