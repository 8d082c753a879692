import Foundation
import TapRoute
import TapRouteTestSupport
import TapRouteYAML
import Testing

/// The broken definitions scripts/check-definitions.py proves the JSON Schema rejects
/// (`Tests/ConformanceTests/Definitions/Broken`) are rejected by the compiler too, each with
/// a located error at the key path its first line names: the schema and the compiler agree
/// on what a mistake is.
@Suite struct BrokenDefinitionTests {
    static let directory = "Tests/ConformanceTests/Definitions/Broken"

    /// `# mistake: …; the error names PATH` → PATH (`the document` → the root).
    static func expectedPath(_ text: String) -> String? {
        guard let first = text.split(separator: "\n").first, let range = first.range(of: "the error names ") else { return nil }
        let path = String(first[range.upperBound...])
        return path == "the document" ? "" : path
    }

    @Test func everyBrokenDefinitionIsALocatedError() throws {
        let files = try DefinitionFiles.yamlFiles(in: Self.directory)
        #expect(files.count >= 20)
        for file in files {
            let text = try String(contentsOfFile: TestPaths.path(file), encoding: .utf8)
            let expected = try #require(Self.expectedPath(text), "\(file): the first line names no path")
            do {
                _ = try DefinitionFiles.load(file)
                Issue.record("\(file): compiled, but it is broken")
            } catch let error as ConfigurationError {
                let paths = error.errors.map(\.keyPath.description)
                #expect(paths.contains(expected), "\(file): expected an error at '\(expected)', got \(error.errors)")
                for one in error.errors {
                    #expect(one.file == file, "\(file): \(one)")
                    #expect(one.line != nil && one.column != nil, "\(file): not located: \(one)")
                    #expect(!one.message.isEmpty, "\(file)")
                }
            }
        }
    }

    /// Every valid fixture and shipped definition compiles.
    @Test func everyShippedDefinitionCompiles() throws {
        var files = try DefinitionFiles.yamlFiles(in: "Tests/ConformanceTests/Definitions")
        files += try DefinitionFiles.yamlFiles(in: "examples/app-convention").filter { !$0.hasSuffix("/config.yaml") }
        for folder in try FileManager.default.contentsOfDirectory(atPath: TestPaths.path("adapters")).sorted() {
            files += try DefinitionFiles.yamlFiles(in: "adapters/\(folder)")
        }
        #expect(files.count >= 2)
        for file in files {
            #expect(throws: Never.self, "\(file)") { _ = try DefinitionFiles.load(file) }
        }
    }
}
