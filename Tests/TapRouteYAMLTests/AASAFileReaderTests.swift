import Foundation
import TapRoute
import TapRouteYAML
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Apple's 128 KB limit is applied before and while an AASA file is read: a larger file is
/// refused from its size without being read, and a pipe that never ends is read only to one
/// byte past the limit.
@Suite struct AASAFileReaderTests {
    private static let limit = AASADocument.maximumSize

    private func withFolder<T>(_ body: (URL) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("taproute-aasa-read-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try body(folder)
    }

    @Test func aLargeFileIsRefusedFromItsSize() throws {
        try withFolder { folder in
            let file = folder.appendingPathComponent("big.json")
            #expect(FileManager.default.createFile(atPath: file.path, contents: Data("{}".utf8)))
            let handle = try FileHandle(forWritingTo: file)
            try handle.truncate(atOffset: 3_700_000)
            try handle.close()
            let tooLarge = #expect(throws: AASAFileError.self) { _ = try AASAFileReader.read(file.path).count }
            #expect(tooLarge == .tooLarge(path: file.path, byteCount: 3_700_000, exact: true))
            // In a configuration: an error at the key, naming the size.
            let config = folder.appendingPathComponent("config.yaml")
            try Data("version: 1\napp:\n  domains: [example.com]\n  appID: A1.app\n  aasa:\n    example.com: big.json\n".utf8).write(
                to: config
            )
            let error = #expect(throws: ConfigurationError.self) { try YAMLConfiguration.load(contentsOf: config.path) }
            #expect(error?.keyPath.description == "app.aasa.example.com")
            #expect(error?.message.contains("is 3700000 bytes; Apple accepts at most 131072") == true)
        }
    }

    @Test func aFileOfExactlyTheLimitIsRead() throws {
        try withFolder { folder in
            let file = folder.appendingPathComponent("full.json")
            let json = "{\"applinks\":{\"details\":[]}}"
            let text = json + String(repeating: " ", count: Self.limit - json.utf8.count)
            try Data(text.utf8).write(to: file)
            let bytes = try AASAFileReader.read(file.path)
            #expect(bytes.count == Self.limit)
            #expect(try AASADocument(bytes: bytes).details.isEmpty)
            try Data((text + " ").utf8).write(to: file)
            let error = #expect(throws: AASAFileError.self) { _ = try AASAFileReader.read(file.path).count }
            #expect(error == .tooLarge(path: file.path, byteCount: Self.limit + 1, exact: true))
        }
    }

    @Test func aPipeThatNeverEndsIsReadOnlyPastTheLimit() throws {
        try withFolder { folder in
            let path = folder.appendingPathComponent("fifo").path
            #expect(mkfifo(path, 0o600) == 0)
            signal(SIGPIPE, SIG_IGN)
            let writer = Thread {
                let fd = open(path, O_WRONLY)
                guard fd >= 0 else { return }
                let chunk = [UInt8](repeating: 0x20, count: 65_536)
                // Up to 100 MB, stopping when the reader has gone (EPIPE).
                for _ in 0..<1_600 {
                    let written = chunk.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                    if written < 0 { break }
                }
                close(fd)
            }
            writer.start()
            let error = #expect(throws: AASAFileError.self) { _ = try AASAFileReader.read(path).count }
            #expect(error == .tooLarge(path: path, byteCount: Self.limit + 1, exact: false))
        }
    }

    @Test func aMissingFileIsUnreadable() {
        let error = #expect(throws: AASAFileError.self) { _ = try AASAFileReader.read("/nonexistent/aasa.json").count }
        #expect(error == .unreadable(path: "/nonexistent/aasa.json", reason: "no such file"))
    }
}
