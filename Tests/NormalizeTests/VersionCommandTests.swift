import TapRoute
import TapRouteTestSupport
import Testing

@Suite struct VersionCommandTests {
    /// `normalize --version` prints the core's version and nothing else, whatever the
    /// default subcommand would do with the rest of the arguments.
    @Test(arguments: [["--version"], ["--version", "examples/dashx-push.json"]])
    func versionPrintsTheCoreVersion(arguments: [String]) throws {
        let run = try normalize(arguments)
        #expect(run.status == 0)
        #expect(run.stdout == TapRoutePackage.version + "\n")
        #expect(run.stderr.isEmpty)
    }
}
