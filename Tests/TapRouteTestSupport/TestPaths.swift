public import TapRoute

/// Paths and helpers shared by TapRoute's own test targets (not a product).
public enum TestPaths {
    /// The repository root, found from this source file's location.
    public static let repositoryRoot: String = {
        var path = #filePath
        for _ in 0..<3 {  // Tests/TapRouteTestSupport/TestPaths.swift
            if let slash = path.lastIndex(of: "/") { path = String(path[..<slash]) }
        }
        return path
    }()

    /// An absolute path inside the repository.
    public static func path(_ relative: String) -> String {
        repositoryRoot + "/" + relative
    }
}

/// Parses JSON text in tests, failing loudly on a typo in a fixture.
public func json(_ text: String) throws -> JSONValue {
    try JSONValue(parsing: text)
}
