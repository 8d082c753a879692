import Foundation
import TapRoute
import TapRouteTestSupport
import Testing

/// Definition files named by `config.yaml`, through the built binary: `normalize --config`
/// runs them, `check-config` validates them (errors at `file:line:column` with the path inside
/// the definition, in file order), `normalize adapters` says where each adapter comes from.
@Suite struct DefinitionCommandTests {
    static let shop = """
        id: shop
        summary: "The app's own pushes: deep_link, orderId"
        reads: [notification]
        recognize: {exists: deep_link}
        destination:
          - url: deep_link
          - app
        messageId: orderId
        """

    static let config = """
        app: {schemes: [myapp]}
        adapters:
          - dashx
          - id: shop
            definition: definitions/shop.yaml
        """

    static let push = #"{"kind":"notification","userInfo":{"aps":{"alert":"Order 42"},"deep_link":"myapp://orders/42","orderId":"42"}}"#

    /// A scratch folder holding `files`, removed after `body`.
    func inFolder<T>(_ files: [String: String], _ body: (URL) throws -> T) throws -> T {
        try TemporaryFolder.with(files, prefix: "taproute-definition-cli", body)
    }

    @Test func normalizeRunsADefinitionTheConfigurationNames() throws {
        try inFolder(["app/config.yaml": Self.config, "app/definitions/shop.yaml": Self.shop]) { folder in
            let run = try normalize(["--config", "app/config.yaml"], stdin: Self.push + "\n", in: folder.path)
            #expect(run.status == 0, "\(run.stderr)")
            let interaction = try JSONValue(parsing: run.lines[0])
            #expect(interaction["vendor"] == "shop")
            #expect(interaction["messageId"] == "42")
            #expect(interaction["destination"]?["url"] == "myapp://orders/42")
        }
    }

    /// The CLI reads records without building a notification's alert text only while no
    /// enabled adapter reads it (docs/performance.md, the twenty-second round): a definition
    /// that does gets the text, as a line and inside a document.
    @Test func aDefinitionThatReadsTheAlertTextGetsIt() throws {
        let titled = Self.shop.replacingOccurrences(of: "messageId: orderId", with: "messageId: aps.alert")
        try inFolder(["app/config.yaml": Self.config, "app/definitions/shop.yaml": titled]) { folder in
            for (arguments, input) in [(["--lines"], Self.push + "\n"), ([], "[" + Self.push + "]\n")] {
                let run = try normalize(["--config", "app/config.yaml"] + arguments, stdin: input, in: folder.path)
                #expect(run.status == 0, "\(run.stderr)")
                let interaction = try JSONValue(parsing: run.lines[0])
                #expect(interaction["messageId"] == "Order 42", "\(arguments)")
            }
        }
    }

    @Test func checkConfigAndAdaptersSayWhereEachAdapterComesFrom() throws {
        try inFolder(["app/config.yaml": Self.config, "app/definitions/shop.yaml": Self.shop]) { folder in
            let check = try normalize(["check-config", "app/config.yaml"], in: folder.path)
            #expect(check.status == 0, "\(check.stderr)")
            #expect(
                check.stdout.contains(
                    "  - shop: The app's own pushes: deep_link, orderId\n      from: definition app/definitions/shop.yaml\n"
                )
            )
            #expect(check.stdout.contains("  - dashx: "))

            let adapters = try normalize(["adapters", "--config", "app/config.yaml"], in: folder.path)
            #expect(adapters.status == 0, "\(adapters.stderr)")
            let rows = adapters.lines.map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
            let shop = try #require(rows.first { $0.first == "shop" })
            #expect(shop.prefix(4) == ["shop", "enabled", "definition", "app/definitions/shop.yaml"])
            let dashx = try #require(rows.first { $0.first == "dashx" })
            #expect(dashx.prefix(3) == ["dashx", "enabled", "swift"])
            let bird = try #require(rows.first { $0.first == "bird" })
            #expect(bird.prefix(3) == ["bird", "disabled", "swift"])
            #expect(rows.last?.prefix(2) == ["link", "fallback"])
        }
    }

    /// With the repository's configuration, `normalize adapters` lists the thirteen vendors in
    /// detection order (the nine built-in definitions after the Swift adapters, FCM last) and
    /// the `link` fallback, each with where it comes from; and each vendor's example push
    /// normalizes to it through the binary.
    @Test func adaptersListsThirteenVendorsAndLink() throws {
        let adapters = try normalize(["adapters", "--config", "config.yaml"])
        #expect(adapters.status == 0, "\(adapters.stderr)")
        let rows = adapters.lines.map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
            .filter { $0.count > 2 && ($0[1] == "enabled" || $0[1] == "fallback") }
        let swift = ["dashx", "adobe", "bird", "taptalk"]
        let definitions = ["onesignal", "braze", "airship", "iterable", "clevertap", "customerio", "klaviyo", "pushwoosh", "fcm"]
        #expect(rows.map { $0[0] } == swift + definitions + ["link"])
        for row in rows where swift.contains(row[0]) { #expect(row[2] == "swift") }
        for row in rows where definitions.contains(row[0]) { #expect(row.dropFirst(2).prefix(2) == ["built-in", "definition"]) }
        for id in definitions {
            let run = try normalize(["--config", "config.yaml", "examples/\(id)-push.json"])
            #expect(run.status == 0, "\(id): \(run.stderr)")
            #expect(try JSONValue(parsing: run.lines[0])["vendor"] == .string(id))
        }
    }

    /// `check-config`'s standard error for a configuration naming `definition` next to it.
    func checkErrors(_ definition: String?, config: String = "adapters:\n  - id: shop\n    definition: shop.yaml\n") throws -> (
        Int32, [String]
    ) {
        var files = ["config.yaml": config]
        if let definition { files["shop.yaml"] = definition }
        return try inFolder(files) { folder in
            let run = try normalize(["check-config", "config.yaml"], in: folder.path)
            #expect(run.stdout.isEmpty)
            return (run.status, run.stderr.split(separator: "\n").map(String.init))
        }
    }

    @Test func aMissingDefinitionFileIsLocatedAtTheConfigurationKey() throws {
        let (status, lines) = try checkErrors(nil)
        #expect(status == 2)
        #expect(lines == ["config.yaml:3:17: error: adapters[0].definition: cannot read the definition file 'shop.yaml': no such file"])
    }

    @Test func badYAMLInADefinitionIsLocatedInItsFile() throws {
        let (status, lines) = try checkErrors("id: shop\nreads: [notification\n")
        #expect(status == 2)
        #expect(lines.count == 2)
        #expect(
            lines.first
                == "config.yaml:3:17: error: adapters[0].definition: the definition file 'shop.yaml' is not valid: 1 error in it, listed after this configuration's"
        )
        #expect(lines.last?.hasPrefix("shop.yaml:3:1: error: YAML syntax error") == true)
    }

    @Test func anAliasInADefinitionIsRefusedWhereItIs() throws {
        let (status, lines) = try checkErrors("id: &i shop\nsummary: *i\n")
        #expect(status == 2)
        #expect(lines.last == "shop.yaml:2:10: error: YAML aliases are not accepted in a configuration (*i): write the value out")
    }

    @Test func mistakesInsideADefinitionHaveTheirPathInTheDefinitionInFileOrder() throws {
        let broken = Self.shop
            .replacingOccurrences(of: "reads: [notification]", with: "reads: [notification]\nrecognise: {exists: x}")
            .replacingOccurrences(of: "  - url: deep_link", with: "  - url: deep_link\n    colour: red")
        let config = "colour: blue\nadapters:\n  - id: shop\n    definition: shop.yaml\n  - id: nothing\n"
        let (status, lines) = try checkErrors(broken, config: config)
        #expect(status == 2)
        let locations = lines.map { String($0.prefix { $0 != " " }) }
        // The configuration's errors in file order, then the definition's, in file order.
        #expect(locations.prefix(3) == ["config.yaml:1:1:", "config.yaml:4:17:", "config.yaml:5:9:"])
        #expect(lines.contains { $0.hasPrefix("shop.yaml:4:1: error: recognise: unknown key 'recognise'") })
        #expect(lines.contains { $0.hasPrefix("shop.yaml:8:5: error: destination[0].colour: unknown key 'colour'") })
        let definitionLines = locations.dropFirst(3).map { Int($0.split(separator: ":")[1]) ?? 0 }
        #expect(definitionLines == definitionLines.sorted())
        #expect(locations.dropFirst(3).allSatisfy { $0.hasPrefix("shop.yaml:") })
    }

    @Test func aDefinitionFileThatIsADirectoryExitsTwo() throws {
        try inFolder(["config.yaml": "adapters:\n  - id: shop\n    definition: defs\n", "defs/x.yaml": "x: 1\n"]) { folder in
            for arguments in [["check-config", "config.yaml"], ["--config", "config.yaml"], ["adapters", "--config", "config.yaml"]] {
                let run = try normalize(arguments, stdin: "{}", in: folder.path)
                #expect(run.status == 2, "\(arguments)")
                #expect(
                    run.stderr
                        == "config.yaml:3:17: error: adapters[0].definition: cannot read the definition file 'defs': it is a directory\n"
                )
            }
        }
    }
}
