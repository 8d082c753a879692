import Foundation
import TapRoute
import TapRouteTestSupport
import TapRouteYAML
import Testing

/// Reading a configuration and checking its routes take time in proportion to their size:
/// eight times the input may not take 32 times as long (linear is about eight, quadratic
/// 64), timed with `TimeRatio` (the best of five interleaved runs, measured again when a
/// loaded machine inflates it).
@Suite(.serialized) struct ConfigurationScalingTests {
    @Test func aMappingOfManyKeysIsReadInLinearTime() throws {
        func mapping(_ n: Int) -> String { "{" + (0..<n).map { "k\($0): 1" }.joined(separator: ", ") + "}" }
        let texts = [2_000: mapping(2_000), 2_000 * TimeRatio.factor: mapping(2_000 * TimeRatio.factor)]
        #expect(throws: Never.self) { try YAMLConfiguration.document(yaml: texts[2_000] ?? "") }
        let ratio = TimeRatio.ratio(small: 2_000) { n in _ = try? YAMLConfiguration.document(yaml: texts[n] ?? "") }
        #expect(ratio < TimeRatio.maximumRatio, "ratio \(ratio)")
    }

    @Test func findingShadowedRoutesTakesLinearTime() throws {
        func routes(_ n: Int) throws -> [Route] {
            try (0..<n).map { try Route(pattern: "myapp://p/l\($0)/{id}", screen: "s") }
        }
        let sets = [1_000: try routes(1_000), 1_000 * TimeRatio.factor: try routes(1_000 * TimeRatio.factor)]
        let ratio = TimeRatio.ratio(small: 1_000) { n in _ = Route.firstShadowing(in: sets[n] ?? []) }
        #expect(ratio < TimeRatio.maximumRatio, "ratio \(ratio)")
    }
}
