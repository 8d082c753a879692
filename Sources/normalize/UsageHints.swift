import ArgumentParser
import Foundation
import TapRoute

/// Hints for an input that could not be opened because it does not exist, when its name shows
/// what was meant instead: a subcommand typed wrong, or a URL given where a file is expected.
enum UsageHint {
    /// The subcommands of `normalize`, as typed.
    static var subcommandNames: [String] {
        Normalize.configuration.subcommands.compactMap { $0.configuration.commandName }
    }

    /// The hint for the missing input `name`; `first` tells whether it is the first file
    /// argument (where a subcommand would have been).
    static func forMissingInput(_ name: String, first: Bool) -> String? {
        if looksLikeURL(name) {
            var envelope = Array(#"{"kind":"url","url":"#.utf8)
            JSONWriter.writeString(name, into: &envelope)
            envelope.append(contentsOf: "}".utf8)
            return "'\(name)' is not a file: to resolve a URL use 'normalize route URL', to normalize a URL envelope pipe "
                + "\(String(decoding: envelope, as: UTF8.self)) into 'normalize'"
        }
        if first, let subcommand = nearestSubcommand(to: name) {
            return "did you mean 'normalize \(subcommand) …'?"
        }
        return nil
    }

    /// The hint for a URL given where a local file is expected (`--config`, `check-config
    /// FILE`, `aasa lint FILE`, `aasa match --file`), or `nil` when `name` is not a URL or is a
    /// file that exists.
    static func forURLArgument(_ name: String) -> String? {
        guard looksLikeURL(name), !FileManager.default.fileExists(atPath: name) else { return nil }
        return "'\(name)' is not a file: a local file is expected; download it first (curl -fLo FILE '\(name)')"
    }

    /// Whether `text` starts with a URL scheme (`scheme:` with at least two characters, so a
    /// drive letter is not one) followed by something.
    static func looksLikeURL(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), text.index(after: colon) < text.endIndex else { return false }
        let scheme = text[..<colon]
        guard scheme.count >= 2, let first = scheme.unicodeScalars.first, first.isASCIILetter else { return false }
        return scheme.unicodeScalars.allSatisfy { $0.isASCIILetter || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0) }
    }

    /// The subcommand closest to `name`, when it is within a typo of it: one edit for names
    /// of up to four characters, two for longer ones (an adjacent swap counts as one edit).
    static func nearestSubcommand(to name: String) -> String? {
        guard !name.isEmpty, !name.contains("/"), name.count <= 20 else { return nil }
        let typed = Array(name.lowercased())
        var best: (name: String, distance: Int)?
        for candidate in subcommandNames {
            let distance = editDistance(typed, Array(candidate))
            let allowed = candidate.count <= 4 ? 1 : 2
            if distance <= allowed && distance < best?.distance ?? .max { best = (candidate, distance) }
        }
        return best?.name
    }

    /// The optimal-string-alignment distance: insertions, deletions, substitutions and swaps
    /// of adjacent characters.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] { value = min(value, table[i - 2][j - 2] + 1) }
                table[i][j] = value
            }
        }
        return table[a.count][b.count]
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
