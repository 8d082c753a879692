public import Foundation

/// A fresh folder under the temporary directory, for tests that read files from disk.
public enum TemporaryFolder {
    /// Writes `files` (paths relative to a fresh folder, intermediate folders created) into a
    /// new folder, runs `body` with its URL, and removes the folder afterwards.
    public static func with<T>(_ files: [String: String], prefix: String = "taproute", _ body: (URL) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, text) in files {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return try body(folder)
    }
}
