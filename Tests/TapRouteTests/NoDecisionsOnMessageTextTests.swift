import Foundation
import TapRouteTestSupport
import Testing

/// No decision in the package is made by comparing an error's or a warning's text: errors have
/// kinds to switch on (``JSONParseError/problem``, ``NormalizationError/cause``,
/// ``URLSafety/Rejection/rule``, …), and messages are for people. This scans every Swift file
/// of Sources/, adapters/, Fuzz/ and Benchmarks/ for a comparison or a prefix, suffix or
/// substring test on `reason`, `message`, `description` or `localizedDescription`.
@Suite struct NoDecisionsOnMessageTextTests {
    static let pattern = try! NSRegularExpression(
        pattern: #"\b(reason|message|description|localizedDescription|errorDescription)\s*(==|!=)"#
            + #"|(==|!=)\s*[\w.]*\b(reason|message|localizedDescription)\b"#
            + #"|\b(reason|message|description|localizedDescription)\s*\??\.\s*(hasPrefix|hasSuffix|contains|starts|range|firstRange|firstMatch|wholeMatch|prefixMatch|split|components)\b"#
            + #"|\\\(\w+\)"\s*\.\s*(hasPrefix|hasSuffix|contains|starts)\b"#
    )

    /// Whether `line` (code, not a comment) decides on message text.
    static func decidesOnText(_ line: String) -> Bool {
        let code = line.trimmingCharacters(in: .whitespaces)
        if code.hasPrefix("//") { return false }
        return pattern.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil
    }

    @Test func theScanFindsWhatItLooksFor() {
        for line in [
            #"if error.reason.hasPrefix("nesting deeper") {"#,
            #"guard warning.message == "x" else { return }"#,
            #"if "\(error)".contains("too deep") {"#,
            #"let deep = error.description.contains("limits.maxDepth")"#,
            #"if "x" == failure.reason {"#,
        ] {
            #expect(Self.decidesOnText(line), "\(line)")
        }
        for line in [
            "if error.kind == .tooDeep {",
            "case .limitExceeded(.depth(let limit, _, _))?:",
            "/// A message == text comparison, in a comment",
            #"out.append(error.message)"#,
        ] {
            #expect(!Self.decidesOnText(line), "\(line)")
        }
    }

    @Test func noSourceDecidesOnMessageText() throws {
        var found: [String] = []
        var scanned = 0
        for folder in ["Sources", "adapters", "Fuzz", "Benchmarks"] {
            let root = TestPaths.path(folder)
            guard let files = FileManager.default.enumerator(atPath: root) else { continue }
            for case let file as String in files {
                if file.split(separator: "/").last?.hasPrefix(".") == true {
                    files.skipDescendants()  // .build and the like
                    continue
                }
                guard file.hasSuffix(".swift") else { continue }
                let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
                scanned += 1
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                where Self.decidesOnText(String(line)) {
                    found.append("\(folder)/\(file):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(scanned > 50, "only \(scanned) Swift files found under \(TestPaths.repositoryRoot)")
        #expect(found.isEmpty, "decisions on message text:\n\(found.joined(separator: "\n"))")
    }
}
