import Foundation
import TapRoute
import TapRouteYAML
import Testing

/// Reading a configuration and checking its routes take time in proportion to their size:
/// eight times the input may not take 32 times as long (linear is about eight, quadratic
/// 64). Each size is timed five times and the fastest run counts, to damp noise from other
/// work on the machine.
@Suite(.serialized) struct ConfigurationScalingTests {
    func fastest(_ body: () throws -> Void) rethrows -> Double {
        var best = Double.infinity
        for _ in 0..<5 {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start))
        }
        return best
    }

    @Test func aMappingOfManyKeysIsReadInLinearTime() throws {
        func mapping(_ n: Int) -> String { "{" + (0..<n).map { "k\($0): 1" }.joined(separator: ", ") + "}" }
        let small = mapping(2_000)
        let large = mapping(16_000)
        let ratio =
            try fastest { _ = try YAMLConfiguration.document(yaml: large) } / fastest { _ = try YAMLConfiguration.document(yaml: small) }
        #expect(ratio < 32, "ratio \(ratio)")
    }

    @Test func findingShadowedRoutesTakesLinearTime() throws {
        func routes(_ n: Int) throws -> [Route] {
            try (0..<n).map { try Route(pattern: "myapp://p/l\($0)/{id}", screen: "s") }
        }
        let small = try routes(1_000)
        let large = try routes(8_000)
        let ratio = fastest { _ = Route.firstShadowing(in: large) } / fastest { _ = Route.firstShadowing(in: small) }
        #expect(ratio < 32, "ratio \(ratio)")
    }
}
