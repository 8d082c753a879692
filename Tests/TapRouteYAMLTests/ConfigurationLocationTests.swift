import Foundation
import TapRoute
import TapRouteYAML
import Testing

/// The configuration lookup `normalize` and the HTTP service share. (`./config.yaml` found in
/// the current directory is tested by running the tools in a folder: changing this process's
/// directory would disturb the tests running beside these.)
@Suite struct ConfigurationLocationTests {
    @Test func aNamedFileIsReadAndNamedAsGiven() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("taproute-location-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = folder.appendingPathComponent("good.yaml").path
        try "app: {schemes: [shop]}\n".write(toFile: good, atomically: true, encoding: .utf8)
        let location = ConfigurationLocation.locate(explicitPath: good)
        #expect(location == .file(good))
        #expect(location.name == good)
        #expect(location.note == nil)
        #expect(try location.load(embeddedDefault: "").app.schemes == ["shop"])

        let bad = folder.appendingPathComponent("bad.yaml").path
        try "app: {schemes: [shop]}\nserver: 1\n".write(toFile: bad, atomically: true, encoding: .utf8)
        #expect {
            try ConfigurationLocation.file(bad).load(embeddedDefault: "")
        } throws: { error in
            guard let error = error as? ConfigurationLoadError, let first = error.error.errors.first else { return false }
            return first.file == bad && first.line == 2 && error.note == nil && error.description.hasPrefix(bad + ":2:1: error: ")
        }
    }

    @Test func aMissingFileIsAnErrorNamingIt() {
        let path = "/nonexistent-\(UUID().uuidString)/config.yaml"
        #expect {
            try ConfigurationLocation.file(path).text(embeddedDefault: "app: {}")
        } throws: { error in
            guard let error = error as? ConfigurationLoadError else { return false }
            return error.error.errors.first?.file == path && error.error.errors.first?.kind == .unreadable
        }
    }

    @Test func theEmbeddedDefaultIsTheTextGiven() throws {
        let location = ConfigurationLocation.embedded
        #expect(location.name == "<embedded config.yaml>")
        #expect(location.note == nil)
        #expect(try location.text(embeddedDefault: "app: {schemes: [x]}\n") == "app: {schemes: [x]}\n")
        #expect(try location.load(embeddedDefault: "app: {schemes: [x]}\n").app.schemes == ["x"])
    }

    @Test func theEmbeddedDefaultCanBeBuiltWithoutYAML() throws {
        // Embedded: the closure builds it, and its errors come back as load errors.
        var built = 0
        let configuration = try ConfigurationLocation.embedded.load { () throws(ConfigurationError) in
            built += 1
            var configuration = Configuration()
            configuration.app.schemes = ["x"]
            return configuration
        }
        #expect(built == 1 && configuration.app.schemes == ["x"])
        #expect {
            try ConfigurationLocation.embedded.load { () throws(ConfigurationError) -> Configuration in
                throw ConfigurationError("broken", file: "<embedded config.yaml>")
            }
        } throws: { error in
            (error as? ConfigurationLoadError)?.description == "<embedded config.yaml>: error: broken"
        }
        // A file: read from the file, the closure never called.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("taproute-location-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("c.yaml").path
        try "app: {schemes: [shop]}\n".write(toFile: path, atomically: true, encoding: .utf8)
        let fromFile = try ConfigurationLocation.file(path).load { () throws(ConfigurationError) -> Configuration in
            Issue.record("the embedded default was built for a file")
            return Configuration()
        }
        #expect(fromFile.app.schemes == ["shop"])
        // A file that cannot be read is an error naming it, not the embedded default.
        let missing = folder.appendingPathComponent("missing.yaml").path
        #expect {
            try ConfigurationLocation.file(missing).load { () throws(ConfigurationError) -> Configuration in
                Configuration()
            }
        } throws: { error in
            guard let error = error as? ConfigurationLoadError else { return false }
            return error.error.errors.first?.file == missing && error.error.errors.first?.kind == .unreadable
        }
    }

    @Test func theCurrentDirectoryFileIsNamedAsTheUserSeesItWithANote() {
        let location = ConfigurationLocation.currentDirectory
        #expect(location.name == "./config.yaml")
        let note = location.note ?? ""
        #expect(note.hasPrefix("note: ./config.yaml was read because it is in the current directory"))
        let failure = location.failure(ConfigurationError("bad", file: "./config.yaml"))
        #expect(failure.note == note)
        #expect(failure.description == "./config.yaml: error: bad\n" + note)
    }
}
