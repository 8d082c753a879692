/// A compiled AASA pattern: `*` (zero or more characters), `?` (exactly one), `$(name)`
/// (one of the variable's alternatives), anything else literally. The whole subject must
/// match. Foundation-free; matching is a forward pass over the pattern, linear in the
/// subject for each token, so no input can make it exponential.
///
/// A "character" is one Unicode scalar. With case-insensitive matching, literals and
/// alternatives are lower-cased when compiled and the subject when matched.
package struct AASAPattern: Sendable, Hashable {
    enum Token: Sendable, Hashable {
        case scalar(Unicode.Scalar)
        case any
        case star
        case characterClass(AASACharacterClass)
        case alternatives(AASAAlternatives)
    }

    /// A problem found while compiling; the pattern then never matches.
    package enum Issue: Sendable, Hashable {
        case undefinedVariable(String)
        case unterminatedVariable
    }

    var tokens: [Token]
    /// Set when the pattern references an undefined variable or has an unterminated `$(`.
    var neverMatches: Bool

    /// Compiles `text`. `variables` resolves `$(name)`; `nil` means the pattern has no
    /// variables (legacy `paths`: `$(` is literal there).
    package static func compile(_ text: String, caseSensitive: Bool, variables: AASAVariables?) -> (AASAPattern, [Issue]) {
        var tokens: [Token] = []
        var issues: [Issue] = []
        var literal = ""
        func flush() {
            guard !literal.isEmpty else { return }
            let folded = caseSensitive ? literal : literal.lowercased()
            for scalar in folded.unicodeScalars { tokens.append(.scalar(scalar)) }
            literal = ""
        }
        let scalars = Array(text.unicodeScalars)
        var i = 0
        while i < scalars.count {
            let c = scalars[i]
            if c == "*" {
                flush()
                if tokens.last != .star { tokens.append(.star) }
                i += 1
            } else if c == "?" {
                flush()
                tokens.append(.any)
                i += 1
            } else if let variables, c == "$", i + 1 < scalars.count, scalars[i + 1] == "(" {
                flush()
                guard let close = scalars[(i + 2)...].firstIndex(of: ")") else {
                    issues.append(.unterminatedVariable)
                    break
                }
                var name = ""
                name.unicodeScalars.append(contentsOf: scalars[(i + 2)..<close])
                if let token = variables.token(for: name, caseSensitive: caseSensitive) {
                    tokens.append(token)
                } else {
                    issues.append(.undefinedVariable(name))
                }
                i = close + 1
            } else {
                literal.unicodeScalars.append(c)
                i += 1
            }
        }
        flush()
        return (AASAPattern(tokens: tokens, neverMatches: !issues.isEmpty), issues)
    }

    /// Whether the whole of `subject` (already lower-cased for a case-insensitive pattern)
    /// matches. `memo` keeps, for this subject, where each variable's literal alternatives
    /// occur; share one across the patterns matched against the same subject.
    func matches(_ subject: [Unicode.Scalar], memo: AASALiteralMemo = AASALiteralMemo()) -> Bool {
        if neverMatches { return false }
        var start = [Bool](repeating: false, count: subject.count + 1)
        start[0] = true
        guard let end = AASAPattern.advance(tokens, from: start, over: subject, memo: memo) else { return false }
        return end[subject.count]
    }

    /// Whether the pattern matches every string (it is `*`).
    var matchesEverything: Bool { !neverMatches && tokens == [.star] }

    /// Given the subject positions reachable before `tokens`, the positions reachable after
    /// them, or `nil` when none is.
    static func advance(_ tokens: [Token], from start: [Bool], over subject: [Unicode.Scalar], memo: AASALiteralMemo) -> [Bool]? {
        let n = subject.count
        var current = start
        for token in tokens {
            var next = [Bool](repeating: false, count: n + 1)
            var any = false
            switch token {
            case .scalar(let c):
                for j in 0..<n where current[j] && subject[j] == c {
                    next[j + 1] = true
                    any = true
                }
            case .any:
                for j in 0..<n where current[j] {
                    next[j + 1] = true
                    any = true
                }
            case .star:
                if let first = current.firstIndex(of: true) {
                    for k in first...n { next[k] = true }
                    any = true
                }
            case .characterClass(let set):
                for j in 0..<n where current[j] && set.contains(subject[j]) {
                    next[j + 1] = true
                    any = true
                }
            case .alternatives(let alternatives):
                any = alternatives.markEnds(from: current, in: subject, into: &next, memo: memo)
            }
            guard any else { return nil }
            current = next
        }
        return current
    }
}

/// The predefined single-character variables.
enum AASACharacterClass: Sendable, Hashable {
    case alpha, upper, lower, alnum, digit, xdigit

    func contains(_ c: Unicode.Scalar) -> Bool {
        let v = c.value
        let upper = v >= 0x41 && v <= 0x5A
        let lower = v >= 0x61 && v <= 0x7A
        let digit = v >= 0x30 && v <= 0x39
        switch self {
        case .alpha: return upper || lower
        case .upper: return upper
        case .lower: return lower
        case .alnum: return upper || lower || digit
        case .digit: return digit
        case .xdigit: return digit || (v >= 0x41 && v <= 0x46) || (v >= 0x61 && v <= 0x66)
        }
    }
}

/// Where one variable's literal alternatives occur in one subject: for each distinct
/// length, a bitset of the start positions where an alternative of that length occurs.
struct AASALiteralStarts {
    var lengths: [Int]
    var starts: [[UInt64]]
}

/// The ``AASALiteralStarts`` of the variables used so far against one subject, by variable
/// id: computed once per subject, however many patterns and `$(name)` use the variable.
final class AASALiteralMemo {
    var tables: [Int: AASALiteralStarts] = [:]
}

/// The alternatives of a substitution variable: literal ones in a trie, and those with
/// wildcards matched as small patterns.
struct AASAAlternatives: Sendable, Hashable {
    /// Identifies the variable (and case folding) in its document, for ``AASALiteralMemo``.
    var id: Int
    /// The distinct lengths of the literal alternatives, ascending.
    var literalLengths: [Int]
    /// A trie of the literal alternatives: children of each node; node 0 is the root.
    var trie: [[Unicode.Scalar: Int]]
    /// Whether a literal alternative ends at each node.
    var terminal: [Bool]
    var wildcards: [[AASAPattern.Token]]

    init(id: Int, values: [String], caseSensitive: Bool) {
        self.id = id
        var lengths: Set<Int> = []
        var trie: [[Unicode.Scalar: Int]] = [[:]]
        var terminal = [false]
        var wildcards: [[AASAPattern.Token]] = []
        for value in values {
            let folded = caseSensitive ? value : value.lowercased()
            let scalars = Array(folded.unicodeScalars)
            if scalars.contains("*") || scalars.contains("?") {
                var tokens: [AASAPattern.Token] = []
                for c in scalars {
                    switch c {
                    case "*": if tokens.last != .star { tokens.append(.star) }
                    case "?": tokens.append(.any)
                    default: tokens.append(.scalar(c))
                    }
                }
                wildcards.append(tokens)
            } else {
                var node = 0
                for c in scalars {
                    if let next = trie[node][c] {
                        node = next
                    } else {
                        trie.append([:])
                        terminal.append(false)
                        trie[node][c] = trie.count - 1
                        node = trie.count - 1
                    }
                }
                terminal[node] = true
                lengths.insert(scalars.count)
            }
        }
        self.literalLengths = lengths.sorted()
        self.trie = trie
        self.terminal = terminal
        self.wildcards = wildcards
    }

    /// Where the literal alternatives occur in `subject`: one walk of the trie from each
    /// position.
    func literalStarts(in subject: [Unicode.Scalar]) -> AASALiteralStarts {
        let words = (subject.count + 64) / 64
        var index: [Int: Int] = [:]
        for (k, length) in literalLengths.enumerated() { index[length] = k }
        var starts = [[UInt64]](repeating: [UInt64](repeating: 0, count: words), count: literalLengths.count)
        for j in 0...subject.count {
            var node = 0
            if terminal[0], let k = index[0] { starts[k][j >> 6] |= 1 << UInt64(j & 63) }
            var i = j
            while i < subject.count, let next = trie[node][subject[i]] {
                node = next
                i += 1
                if terminal[node], let k = index[i - j] { starts[k][j >> 6] |= 1 << UInt64(j & 63) }
            }
        }
        return AASALiteralStarts(lengths: literalLengths, starts: starts)
    }

    /// Marks in `ends` every position an alternative starting at one of the `starts` can end
    /// at; returns whether there was one.
    ///
    /// Each part runs once over the whole set of start positions (the set of positions
    /// reachable after a token is the union of those reachable from each start), not once
    /// per start: the literal alternatives as bitsets shifted by each length (where they
    /// occur is computed once per subject, in `memo`), the wildcard alternatives as small
    /// patterns. A pattern of many `$(name)` costs time linear in the subject per token.
    func markEnds(from starts: [Bool], in subject: [Unicode.Scalar], into ends: inout [Bool], memo: AASALiteralMemo) -> Bool {
        var found = false
        if !literalLengths.isEmpty {
            let table: AASALiteralStarts
            if let known = memo.tables[id] {
                table = known
            } else {
                table = literalStarts(in: subject)
                memo.tables[id] = table
            }
            let words = (subject.count + 64) / 64
            var current = [UInt64](repeating: 0, count: words)
            for j in starts.indices where starts[j] { current[j >> 6] |= 1 << UInt64(j & 63) }
            var reached = [UInt64](repeating: 0, count: words)
            for (k, length) in table.lengths.enumerated() {
                // reached |= (current & starts of this length) << length
                let wordShift = length >> 6
                let bitShift = UInt64(length & 63)
                let from = table.starts[k]
                var i = words - 1
                while i >= wordShift {
                    let source = i - wordShift
                    var word = (current[source] & from[source]) << bitShift
                    if bitShift > 0, source > 0 { word |= (current[source - 1] & from[source - 1]) >> (64 - bitShift) }
                    reached[i] |= word
                    i -= 1
                }
            }
            for (w, word) in reached.enumerated() where word != 0 {
                var bits = word
                while bits != 0 {
                    let j = (w << 6) + bits.trailingZeroBitCount
                    if j < ends.count {
                        ends[j] = true
                        found = true
                    }
                    bits &= bits - 1
                }
            }
        }
        for tokens in wildcards {
            guard let reached = AASAPattern.advance(tokens, from: starts, over: subject, memo: memo) else { continue }
            for (k, ok) in reached.enumerated() where ok {
                ends[k] = true
                found = true
            }
        }
        return found
    }
}

/// The substitution variables a document defines, over the predefined ones.
package struct AASAVariables: Sendable {
    /// The predefined variable names.
    static let predefined: Set<String> = ["alpha", "upper", "lower", "alnum", "digit", "xdigit", "region", "lang"]

    private static let regionsSensitive = AASAAlternatives(id: 0, values: AASAISOCodes.regions, caseSensitive: true)
    private static let regionsInsensitive = AASAAlternatives(id: 1, values: AASAISOCodes.regions, caseSensitive: false)
    private static let languagesSensitive = AASAAlternatives(id: 2, values: AASAISOCodes.languages, caseSensitive: true)
    private static let languagesInsensitive = AASAAlternatives(id: 3, values: AASAISOCodes.languages, caseSensitive: false)

    /// The file's own variables by name (a later duplicate cannot occur: JSON keys are
    /// unique after parsing).
    var custom: [String: [String]]
    /// Each of the file's variables compiled once per case folding (ids from 4 up), so that
    /// every `$(name)` shares them.
    private var compiled: [String: (sensitive: AASAAlternatives, insensitive: AASAAlternatives)]

    package init(_ variables: [AASASubstitutionVariable]) {
        var custom: [String: [String]] = [:]
        var compiled: [String: (sensitive: AASAAlternatives, insensitive: AASAAlternatives)] = [:]
        for variable in variables {
            custom[variable.name] = variable.values
            let id = 4 + 2 * compiled.count
            compiled[variable.name] = (
                AASAAlternatives(id: id, values: variable.values, caseSensitive: true),
                AASAAlternatives(id: id + 1, values: variable.values, caseSensitive: false)
            )
        }
        self.custom = custom
        self.compiled = compiled
    }

    /// The token for `$(name)`, or `nil` when no such variable exists. The file's own
    /// definition wins over a predefined variable of the same name.
    func token(for name: String, caseSensitive: Bool) -> AASAPattern.Token? {
        if let alternatives = compiled[name] {
            return .alternatives(caseSensitive ? alternatives.sensitive : alternatives.insensitive)
        }
        switch name {
        // Case-insensitive subjects are lower-cased, so the letter classes accept any letter.
        case "alpha": return .characterClass(.alpha)
        case "upper": return .characterClass(caseSensitive ? .upper : .alpha)
        case "lower": return .characterClass(caseSensitive ? .lower : .alpha)
        case "alnum": return .characterClass(.alnum)
        case "digit": return .characterClass(.digit)
        case "xdigit": return .characterClass(.xdigit)
        case "region": return .alternatives(caseSensitive ? Self.regionsSensitive : Self.regionsInsensitive)
        case "lang": return .alternatives(caseSensitive ? Self.languagesSensitive : Self.languagesInsensitive)
        default: return nil
        }
    }
}
