import Foundation
import TapRoute
import TapRouteTestSupport
import Testing

/// `check-config` and configuration loading through the built binary: bounded reading,
/// every error at once, declared schemes, default adapters, `./config.yaml` named as such.
@Suite struct CheckConfigCommandTests {
    /// A scratch folder holding `files`, removed after `body`.
    func inFolder<T>(_ files: [String: String], _ body: (URL) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("taproute-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, text) in files {
            try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return try body(folder)
    }

    @Test func theAliasBombExitsTwoAtItsFirstAlias() throws {
        var lines = [#"a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]"#]
        var previous = "a"
        for name in ["b", "c", "d", "e", "f", "g", "h"] {
            lines.append("\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 9).joined(separator: ",") + "]")
            previous = name
        }
        try inFolder(["bomb.yaml": lines.joined(separator: "\n") + "\n"]) { folder in
            for arguments in [["check-config", "bomb.yaml"], ["--config", "bomb.yaml"], ["adapters", "--config", "bomb.yaml"]] {
                let run = try normalize(arguments, stdin: "{}", in: folder.path)
                #expect(run.status == 2, "\(arguments)")
                #expect(run.stderr == "bomb.yaml:2:8: error: YAML aliases are not accepted in a configuration (*a): write the value out\n")
            }
        }
    }

    @Test func mergeKeysAndAnchorsExitTwoWithTheirLocation() throws {
        try inFolder(["merge.yaml": "app: {schemes: [myapp]}\nadapters:\n  - id: bird\n    <<: {automaticallyOpenDeeplinks: true}\n"]) {
            let run = try normalize(["check-config", "merge.yaml"], in: $0.path)
            #expect(run.status == 2)
            #expect(run.stderr.hasPrefix("merge.yaml:4:5: error: adapters[0].<<: YAML merge keys (<<) are not accepted"))
        }
    }

    @Test func aConfigurationOverTheNodeBudgetExitsTwo() throws {
        let schemes = Array(repeating: "s", count: 100_001).joined(separator: ",")
        try inFolder(["big.yaml": "app: {schemes: [\(schemes)]}\n"]) {
            let run = try normalize(["check-config", "big.yaml"], in: $0.path)
            #expect(run.status == 2)
            #expect(run.stderr.hasPrefix("big.yaml:1:"))
            #expect(run.stderr.contains("more than 100000 nodes"))
        }
    }

    @Test func everyErrorIsReportedInFileOrder() throws {
        let yaml = """
            version: 1
            colour: blue
            app:
              schemes: [myapp, "not ok"]
              domian: [x.com]
            adapters:
              - id: acme
              - id: bird
                colour: red
            routes:
              - url: "myapp://p/{id}"
                screen: p
              - url: "myapp://p/new"
                screen: n
              - url: "other://x"
                screen: o
            security:
              allowedSchemes: [https, javascript]
            limits: {maxDepth: deep}
            """
        try inFolder(["many.yaml": yaml]) {
            let run = try normalize(["check-config", "many.yaml"], in: $0.path)
            #expect(run.status == 2)
            #expect(run.stdout.isEmpty)
            let lines = run.stderr.split(separator: "\n").map(String.init)
            #expect(
                lines.map { $0.split(separator: ":").prefix(3).joined(separator: ":") } == [
                    "many.yaml:2:1", "many.yaml:4:20", "many.yaml:5:3", "many.yaml:7:9", "many.yaml:9:5", "many.yaml:13:10",
                    "many.yaml:15:10", "many.yaml:18:27", "many.yaml:19:20",
                ],
                "\(run.stderr)"
            )
            #expect(lines[2].hasSuffix("did you mean 'domains'?"))
            #expect(lines[5].contains("routes[1].url: route 'myapp://p/new' can never match: routes[0] 'myapp://p/{id}' comes first"))
            #expect(lines[6].contains("routes[2].url: route 'other://x' can never match"))
        }
    }

    @Test func aRouteMerelyOverlappingAnEarlierOneIsValid() throws {
        let yaml = "app: {schemes: [myapp]}\nroutes:\n  - {url: \"myapp://p/new\", screen: n}\n  - {url: \"myapp://p/{id}\", screen: p}\n"
        try inFolder(["ok.yaml": yaml]) {
            let run = try normalize(["check-config", "ok.yaml"], in: $0.path)
            #expect(run.status == 0, "\(run.stderr)")
        }
    }

    @Test func aMinimalConfigurationRoutesTheAppsOwnLinks() throws {
        let yaml = "app: {schemes: [myapp]}\nroutes:\n  - url: \"myapp://product/{id}\"\n    screen: product\n"
        try inFolder(["min.yaml": yaml]) { folder in
            let check = try normalize(["check-config", "min.yaml"], in: folder.path)
            #expect(check.status == 0, "\(check.stderr)")
            #expect(check.stdout.contains("    - myapp (app.schemes)\n"))
            #expect(check.stdout.contains("    - https (built-in default)\n"))
            #expect(check.stdout.contains("    - taptalkio (adapter taptalk)\n"))
            let run = try normalize(["--config", "min.yaml"], stdin: #"{"kind":"url","url":"myapp://product/42"}"#, in: folder.path)
            #expect(run.status == 0)
            let value = try JSONValue(parsing: run.stdout)
            #expect(value["destination"] == ["type": "screen", "name": "product", "parameters": ["id": "42"], "url": "myapp://product/42"])
            #expect(value["warnings"] == nil)
        }
    }

    @Test func withoutAdaptersEveryBuiltInAdapterNormalizes() throws {
        let push = try String(contentsOfFile: TestPaths.path("examples/dashx-push.json"), encoding: .utf8)
        try inFolder(["none.yaml": "app: {schemes: [myapp]}\n", "empty.yaml": "adapters: []\n"]) { folder in
            let run = try normalize(["--config", "none.yaml"], stdin: push, in: folder.path)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try JSONValue(parsing: run.lines[0])["vendor"] == "dashx")
            let adapters = try normalize(["adapters", "--config", "none.yaml"], in: folder.path)
            // The four Swift adapters and the nine built-in definitions.
            #expect(adapters.lines.filter { $0.contains(" enabled ") }.count == 13)
            let none = try normalize(["--config", "empty.yaml"], stdin: push, in: folder.path)
            #expect(none.status == 1)
            #expect(try JSONValue(parsing: none.lines[0])["error"]?["code"] == "unrecognized")
        }
    }

    @Test func aConfigYamlInTheCurrentDirectoryIsNamedInEveryErrorWithAHint() throws {
        try inFolder(["config.yaml": "server: {port: 8080}\n"]) { folder in
            for arguments in [["check-config"], ["adapters"], ["route", "https://example.com"], []] {
                let run = try normalize(arguments, stdin: "{}", in: folder.path)
                #expect(run.status == 2, "\(arguments)")
                #expect(
                    run.stderr == """
                        ./config.yaml:1:1: error: server: unknown key 'server'; expected one of: version, app, defaults, adapters, routes, security, limits
                        note: ./config.yaml was read because it is in the current directory; pass --config FILE to use another configuration

                        """,
                    "\(arguments)"
                )
            }
            // --config chooses another file, and the note goes away.
            try "app: {schemes: [x]}\nversion: 3\n".write(
                to: folder.appendingPathComponent("other.yaml"),
                atomically: true,
                encoding: .utf8
            )
            let other = try normalize(["check-config", "--config", "other.yaml"], in: folder.path)
            #expect(other.stderr == "other.yaml:2:10: error: version: unsupported version 3; only 1 exists\n")
        }
    }

    @Test func anAASAFileForADomainThatIsNotTheAppsExitsTwo() throws {
        let yaml = "app:\n  appID: ABCDE12345.com.example.app\n  domains: [a.example]\n  aasa: {b.example: aasa.json}\n"
        try inFolder(["aasa.yaml": yaml, "aasa.json": #"{"applinks":{"details":[]}}"#]) {
            let run = try normalize(["check-config", "aasa.yaml"], in: $0.path)
            #expect(run.status == 2)
            #expect(run.stderr.hasPrefix("aasa.yaml:4:10: error: app.aasa.b.example: 'b.example' is not one of app.domains"))
        }
    }
}
