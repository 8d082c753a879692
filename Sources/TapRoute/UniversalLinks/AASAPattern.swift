/// A compiled AASA pattern: `*` (zero or more characters), `?` (exactly one), `$(name)`
/// (one of the variable's alternatives), anything else literally. The whole subject must
/// match. Foundation-free; matching is a forward pass over the pattern, linear in the
/// subject for each token, so no input can make it exponential.
///
/// A "character" is one Unicode scalar. With case-insensitive matching, literals and
/// alternatives are lower-cased when compiled and the subject when matched.
struct AASAPattern: Sendable, Hashable {
    enum Token: Sendable, Hashable {
        case scalar(Unicode.Scalar)
        case any
        case star
        case characterClass(AASACharacterClass)
        case alternatives(AASAAlternatives)
    }

    /// A problem found while compiling; the pattern then never matches.
    enum Issue: Sendable, Hashable {
        case undefinedVariable(String)
        case unterminatedVariable
    }

    var tokens: [Token]
    /// Set when the pattern references an undefined variable or has an unterminated `$(`.
    var neverMatches: Bool

    /// Compiles `text`. `variables` resolves `$(name)`; `nil` means the pattern has no
    /// variables (legacy `paths`: `$(` is literal there).
    static func compile(_ text: String, caseSensitive: Bool, variables: AASAVariables?) -> (AASAPattern, [Issue]) {
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
    /// matches.
    func matches(_ subject: [Unicode.Scalar]) -> Bool {
        if neverMatches { return false }
        var start = [Bool](repeating: false, count: subject.count + 1)
        start[0] = true
        guard let end = AASAPattern.advance(tokens, from: start, over: subject) else { return false }
        return end[subject.count]
    }

    /// Whether the pattern matches every string (it is `*`).
    var matchesEverything: Bool { !neverMatches && tokens == [.star] }

    /// Given the subject positions reachable before `tokens`, the positions reachable after
    /// them, or `nil` when none is.
    static func advance(_ tokens: [Token], from start: [Bool], over subject: [Unicode.Scalar]) -> [Bool]? {
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
                any = alternatives.markEnds(from: current, in: subject, into: &next)
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

/// The alternatives of a substitution variable: literal ones looked up by length, and those
/// with wildcards matched as small patterns.
struct AASAAlternatives: Sendable, Hashable {
    var literals: Set<[Unicode.Scalar]>
    var literalLengths: [Int]
    var wildcards: [[AASAPattern.Token]]

    init(values: [String], caseSensitive: Bool) {
        var literals: Set<[Unicode.Scalar]> = []
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
                literals.insert(scalars)
            }
        }
        self.literals = literals
        self.literalLengths = Set(literals.map(\.count)).sorted()
        self.wildcards = wildcards
    }

    /// Marks in `ends` every position an alternative starting at one of the `starts` can end
    /// at; returns whether there was one.
    ///
    /// The wildcard alternatives run once over the whole set of start positions (the set
    /// of positions reachable after a token is the union of those reachable from each
    /// start), not once per start: a pattern of many `$(v)` with wildcard values costs time
    /// linear in the subject per token, not quadratic.
    func markEnds(from starts: [Bool], in subject: [Unicode.Scalar], into ends: inout [Bool]) -> Bool {
        var found = false
        if !literals.isEmpty {
            for start in starts.indices where starts[start] {
                for length in literalLengths {
                    let end = start + length
                    guard end <= subject.count else { break }
                    if literals.contains(Array(subject[start..<end])) {
                        ends[end] = true
                        found = true
                    }
                }
            }
        }
        for tokens in wildcards {
            guard let reached = AASAPattern.advance(tokens, from: starts, over: subject) else { continue }
            for (k, ok) in reached.enumerated() where ok {
                ends[k] = true
                found = true
            }
        }
        return found
    }
}

/// The substitution variables a document defines, over the predefined ones.
struct AASAVariables: Sendable {
    /// The predefined variable names.
    static let predefined: Set<String> = ["alpha", "upper", "lower", "alnum", "digit", "xdigit", "region", "lang"]

    private static let regionsSensitive = AASAAlternatives(values: AASAISOCodes.regions, caseSensitive: true)
    private static let regionsInsensitive = AASAAlternatives(values: AASAISOCodes.regions, caseSensitive: false)
    private static let languagesSensitive = AASAAlternatives(values: AASAISOCodes.languages, caseSensitive: true)
    private static let languagesInsensitive = AASAAlternatives(values: AASAISOCodes.languages, caseSensitive: false)

    /// The file's own variables by name (a later duplicate cannot occur: JSON keys are
    /// unique after parsing).
    var custom: [String: [String]]

    init(_ variables: [AASASubstitutionVariable]) {
        var custom: [String: [String]] = [:]
        for variable in variables { custom[variable.name] = variable.values }
        self.custom = custom
    }

    /// The token for `$(name)`, or `nil` when no such variable exists. The file's own
    /// definition wins over a predefined variable of the same name.
    func token(for name: String, caseSensitive: Bool) -> AASAPattern.Token? {
        if let values = custom[name] {
            return .alternatives(AASAAlternatives(values: values, caseSensitive: caseSensitive))
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
