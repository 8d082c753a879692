import Foundation
import TapRoute
import TapRouteTestSupport
import Testing

@Suite struct VersionTests {
    @Test func versionIsSemantic() {
        let parts = TapRoutePackage.version.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3)
        #expect(parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
    }

    /// The newest `## x.y.z` heading of CHANGELOG.md is the version the code reports.
    @Test func changelogNewestVersionIsTheCurrentVersion() throws {
        let changelog = try String(contentsOfFile: TestPaths.path("CHANGELOG.md"), encoding: .utf8)
        let versions = changelog.split(separator: "\n").compactMap { line -> Substring? in
            guard line.hasPrefix("## ") else { return nil }
            let heading = line.dropFirst(3).prefix { $0 != " " }
            return heading.first?.isNumber == true ? heading : nil
        }
        #expect(versions.first.map(String.init) == TapRoutePackage.version)
    }
}
