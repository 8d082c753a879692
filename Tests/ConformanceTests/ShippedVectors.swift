import Foundation
import TapRouteConformance
import TapRouteTestSupport

/// Every vector the repository ships (`adapters/*/Vectors`, `Tests/ConformanceTests/Vectors/*`,
/// `examples/*/Vectors`, such as the app's own push convention):
/// each adapter's conformance run checks that it claims none of the others' payloads.
enum ShippedVectors {
    static func all() throws -> ConformanceVectors {
        var directories = try FileManager.default.contentsOfDirectory(atPath: TestPaths.path("adapters")).sorted()
            .map { "adapters/\($0)/Vectors" }
        directories += try FileManager.default.contentsOfDirectory(atPath: TestPaths.path("Tests/ConformanceTests/Vectors")).sorted()
            .map { "Tests/ConformanceTests/Vectors/\($0)" }
        directories += try FileManager.default.contentsOfDirectory(atPath: TestPaths.path("examples")).sorted()
            .map { "examples/\($0)/Vectors" }
        var vectors: [ConformanceVector] = []
        for directory in directories where FileManager.default.fileExists(atPath: TestPaths.path(directory)) {
            vectors += try ConformanceVectors.directory(TestPaths.path(directory)).vectors
        }
        return ConformanceVectors(vectors)
    }
}
