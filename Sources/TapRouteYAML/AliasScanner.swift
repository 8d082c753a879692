import Yams

/// Finds, without parsing, every place in YAML text where an anchor (`&name`) or an alias
/// (`*name`) may start, so that aliases can be refused before anything is expanded.
///
/// libyaml reads an anchor or alias name as a run of ASCII letters, digits, `_` and `-`
/// after `&` or `*`, at the start of a token: never right after such a character. Every
/// `&` or `*` followed by a name character and not preceded by one is a candidate; that
/// includes some inside quoted strings, comments and block scalars, which is harmless: a
/// candidate is only acted on where the parser confirms it. Lines and columns are counted
/// as libyaml counts them (1-based; columns in Unicode scalars; CR LF, CR, LF, NEL, LS and
/// PS end a line).
enum AliasScanner {
    /// A place where an anchor or alias may start.
    struct Candidate: Equatable {
        /// `&` (an anchor) rather than `*` (an alias).
        var isAnchor: Bool
        /// The name after the indicator.
        var name: String
        /// The 1-based line of the indicator.
        var line: Int
        /// The 1-based column of the indicator, in Unicode scalars.
        var column: Int
        /// The UTF-8 offset of the indicator.
        var offset: Int
    }

    private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x5F, 0x2D: true
        default: false
        }
    }

    /// Every candidate, in text order.
    static func candidates(in yaml: String) -> [Candidate] {
        let scalars = Array(yaml.unicodeScalars)
        var result: [Candidate] = []
        var line = 1
        var column = 1
        var offset = 0
        var i = 0
        if scalars.first == "\u{FEFF}" {
            offset = 3
            i = 1
        }
        while i < scalars.count {
            let scalar = scalars[i]
            if scalar == "&" || scalar == "*", i + 1 < scalars.count, isNameCharacter(scalars[i + 1]),
                i == 0 || !isNameCharacter(scalars[i - 1])
            {
                var end = i + 1
                while end < scalars.count, isNameCharacter(scalars[end]) { end += 1 }
                let name = String(String.UnicodeScalarView(scalars[(i + 1)..<end]))
                result.append(Candidate(isAnchor: scalar == "&", name: name, line: line, column: column, offset: offset))
            }
            offset += UTF8.width(scalar)
            switch scalar {
            case "\r":
                if i + 1 < scalars.count, scalars[i + 1] == "\n" {
                    i += 1
                    offset += 1
                }
                line += 1
                column = 1
            case "\n", "\u{85}", "\u{2028}", "\u{2029}":
                line += 1
                column = 1
            default:
                column += 1
            }
            i += 1
        }
        return result
    }

    /// `yaml` with every anchor candidate turned into something that is not an anchor and
    /// keeps every position: `&name` becomes the tag `!name`, or spaces when a tag follows
    /// (a node has at most one) or when the name is followed by a character a tag would
    /// take in (`:`, `?`, `%`, `@`: `{&a:*b}` must keep its alias).
    static func blankingAnchors(_ candidates: [Candidate], in yaml: String) -> String {
        var bytes = Array(yaml.utf8)
        let tagCharacters: Set<UInt8> = [UInt8(ascii: ":"), UInt8(ascii: "?"), UInt8(ascii: "%"), UInt8(ascii: "@")]
        for candidate in candidates where candidate.isAnchor {
            let nameEnd = candidate.offset + 1 + candidate.name.utf8.count
            var next = nameEnd
            while next < bytes.count, bytes[next] == UInt8(ascii: " ") || bytes[next] == UInt8(ascii: "\t") { next += 1 }
            if next < bytes.count, bytes[next] == UInt8(ascii: "!") || (next == nameEnd && tagCharacters.contains(bytes[next])) {
                for j in candidate.offset..<nameEnd { bytes[j] = UInt8(ascii: " ") }
            } else {
                bytes[candidate.offset] = UInt8(ascii: "!")
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension YamlError {
    /// Where the problem is, when the error says.
    var mark: Mark? {
        switch self {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _): mark
        case .duplicatedKeysInMapping(_, let context): context.mark
        default: nil
        }
    }
}
