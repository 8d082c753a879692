import TapRoute
import TapRouteTestSupport
import Testing

/// `ConfigurationError.KeyPath` is a shared chain of steps: paths built by appending, from an
/// array, from a literal or by `+` are the same value, and a long chain is released without
/// exhausting the stack.
@Suite struct KeyPathTests {
    typealias KeyPath = ConfigurationError.KeyPath

    @Test func everyWayOfBuildingAPathGivesTheSameValue() {
        let appended = KeyPath().appending("adapters").appending(2).appending("definition")
        let fromArray = KeyPath([.key("adapters"), .index(2), .key("definition")])
        let literal: KeyPath = ["adapters", 2, "definition"]
        let joined = KeyPath(["adapters"]) + KeyPath([.index(2), .key("definition")])
        for path in [fromArray, literal, joined] {
            #expect(path == appended)
            #expect(path.hashValue == appended.hashValue)
            #expect(path.components == appended.components)
        }
        #expect(appended.count == 3)
        #expect(appended.description == "adapters[2].definition")
        #expect(Set([appended, fromArray, literal, joined]).count == 1)
    }

    @Test func pathsThatDifferAnywhereAreDifferent() {
        let base: KeyPath = ["a", "b"]
        #expect(base.appending("c") != base.appending("d"))
        #expect(base.appending("c") != KeyPath(["a", "x", "c"]))
        #expect(base != base.appending("c"))
        #expect(KeyPath(["0"]) != KeyPath([.index(0)]))
        #expect(KeyPath() == KeyPath([]))
        #expect(KeyPath().isEmpty && !base.isEmpty)
    }

    @Test func removingLastWalksBackToTheRoot() {
        var path: KeyPath = ["a", 1, "b"]
        path = path.removingLast()
        #expect(path == ["a", 1])
        path = path.removingLast().removingLast()
        #expect(path.isEmpty)
        #expect(path.removingLast().isEmpty)
    }

    @Test func settingComponentsReplacesThePath() {
        var path: KeyPath = ["a", "b"]
        let before = path
        path.components.append(.index(3))
        #expect(path == ["a", "b", 3])
        #expect(before == ["a", "b"])
    }

    @Test func aPathSharedByManyExtensionsKeepsItsSteps() {
        let base = KeyPath(Array(repeating: .key("k"), count: 50))
        var extensions = (0..<100).map { base.appending($0) }
        extensions.removeAll { $0.components.last == .index(0) }
        #expect(base.count == 50)
        #expect(extensions.allSatisfy { $0.removingLast() == base })
    }

    /// A million steps, built by appending and released at once: a release that recursed
    /// once a step would overflow the stack long before that.
    @Test func aMillionStepPathIsReleasedWithoutRecursion() {
        var path = KeyPath()
        for i in 0..<1_000_000 { path = path.appending(i) }
        #expect(path.count == 1_000_000)
        var shared: KeyPath? = path.removingLast()
        path = KeyPath()
        #expect(shared?.count == 999_999)
        shared = nil
        #expect(shared == nil)
    }
}
