import Foundation
import TapRoute
import TapRouteYAML
import Testing

/// Reading a configuration and checking its routes take time in proportion to their size:
/// four times the input may not take ten times as long (linear is about four, quadratic
/// sixteen). Each size is timed three times and the fastest run counts, to damp noise from
/// other work on the machine.
@Suite(.serialized) struct ConfigurationScalingTests {
    func fastest(_ body: () throws -> Void) rethrows -> Double {
        var best = Double.infinity
        for _ in 0..<3 {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start))
        }
        return best
    }

    @Test func aMappingOfManyKeysIsReadInLinearTime() throws {
        func mapping(_ n: Int) -> String { "{" + (0..<n).map { "k\($0): 1" }.joined(separator: ", ") + "}" }
        let small = mapping(3_000)
        let large = mapping(12_000)
        let ratio =
            try fastest { _ = try YAMLConfiguration.document(yaml: large) } / fastest { _ = try YAMLConfiguration.document(yaml: small) }
        #expect(ratio < 10, "ratio \(ratio)")
    }

    @Test func findingShadowedRoutesTakesLinearTime() throws {
        func routes(_ n: Int) throws -> [Route] {
            try (0..<n).map { try Route(pattern: "myapp://p/l\($0)/{id}", screen: "s") }
        }
        let small = try routes(2_000)
        let large = try routes(8_000)
        let ratio = fastest { _ = Route.firstShadowing(in: large) } / fastest { _ = Route.firstShadowing(in: small) }
        #expect(ratio < 10, "ratio \(ratio)")
    }
}
