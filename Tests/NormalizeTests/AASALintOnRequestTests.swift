import Foundation
import TapRoute
import TapRouteTestSupport
import Testing

/// Through the built binary: loading a configuration checks its AASA files for errors only
/// (lint runs when asked, `check-config --lint`), and a file over 128 KB is refused from its
/// size, by `check-config` and by `aasa lint`.
@Suite struct AASALintOnRequestTests {
    /// A folder with `config.yaml` naming `aasa.json` for example.com, removed after `body`.
    private func withConfiguration<T>(aasa: Data, _ body: (String) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("taproute-lint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try aasa.write(to: folder.appendingPathComponent("aasa.json"))
        let config = "version: 1\napp:\n  domains: [example.com]\n  appID: A1.app\n  aasa:\n    example.com: aasa.json\n"
        try Data(config.utf8).write(to: folder.appendingPathComponent("config.yaml"))
        return try body(folder.path)
    }

    @Test func checkConfigLintsOnlyWhenAsked() throws {
        let aasa = #"{"applinks":{"details":[{"appIDs":["A1.app"],"components":[{"/":"*"},{"/":"/private/*","exclude":true}]}]}}"#
        try withConfiguration(aasa: Data(aasa.utf8)) { folder in
            let plain = try normalize(["check-config", folder + "/config.yaml"])
            #expect(plain.status == 0, "\(plain.stderr)")
            #expect(!plain.stdout.contains("unreachableExclude"))
            let linted = try normalize(["check-config", "--lint", folder + "/config.yaml"])
            #expect(linted.status == 0, "\(linted.stderr)")
            #expect(linted.lines.suffix(2).first == "aasa lint:")
            let warning = "  example.com: warning: $.applinks.details[0].components[1]: this exclude never applies"
            #expect(linted.lines.last?.hasPrefix(warning) == true)
            #expect(linted.lines.last?.hasSuffix("[unreachableExclude]") == true)
        }
    }

    @Test func aFileOverTheLimitIsRefusedFromItsSize() throws {
        let big = Data(repeating: 0x20, count: AASADocument.maximumSize + 1)
        try withConfiguration(aasa: big) { folder in
            let check = try normalize(["check-config", folder + "/config.yaml"])
            #expect(check.status == 2)
            let refused = "app.aasa.example.com: AASA file '\(folder)/aasa.json' is 131073 bytes; Apple accepts at most 131072"
            #expect(check.stderr.contains(refused))
            let lint = try normalize(["aasa", "lint", folder + "/aasa.json"])
            #expect(lint.status == 1)
            let tooLarge = "error: $: the file is 131073 bytes; Apple accepts at most 131072 (128 KB) [tooLarge]"
            #expect(lint.lines.first == "\(folder)/aasa.json: \(tooLarge)")
        }
    }
}
