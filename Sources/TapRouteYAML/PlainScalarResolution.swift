import Yams

/// The type YAML gives a plain scalar that carries no tag, decided as Yams'
/// `Resolver.default` decides it — its rules for booleans, integers, floats and null, in its
/// order (Yams 6, `Sources/Yams/Resolver.swift`) — without regular expressions.
///
/// `Resolver.default` holds seven `NSRegularExpression`s. Compiling the first sets up ICU's
/// regular-expression tables, about 8.8 M instructions, and Yams compiles them on first use
/// of `Resolver.default`: 18% of what `normalize` runs before it reads its first record.
/// ``YAMLConfiguration`` therefore parses with `Resolver.basic` (no rules) and types each
/// untagged plain scalar here. A test holds every answer equal to `Resolver.default`'s, on
/// every example of its rules and on generated scalars built from the characters the
/// rules name.
///
/// The rules' other tags — merge (`<<`), timestamp and value (`=`) — are read as strings by
/// a configuration, as they were when Yams resolved them, so they are ``string`` here.
enum PlainScalarResolution: Equatable {
    case null
    case bool(Bool)
    case int
    case float
    case string

    /// The type of the untagged plain scalar `text`.
    ///
    /// The rules are anchored with ICU's `$`, which also matches before one line
    /// terminator at the end of the input; the same allowance is made here.
    init(_ text: String) {
        let scalars = Array(text.unicodeScalars)
        var body = scalars[...]
        if let last = body.last {
            switch last.value {
            case 0x0A:
                body = body.dropLast()
                if body.last == "\r" { body = body.dropLast() }
            case 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029:
                body = body.dropLast()
            default: break
            }
        }
        // No rule matches a line terminator itself, so the text without it decides the tag;
        // a boolean's value is then read from the whole text, as Yams' `Bool.construct`
        // reads it, and text it cannot read stays a string.
        self = Self.resolve(body)
        if case .bool = self, body.count != scalars.count { self = .string }
    }

    private static func resolve(_ s: ArraySlice<Unicode.Scalar>) -> Self {
        // The rules' fixed words first, compared once as text: none of them matches another
        // rule, so the order of the rules (bool, int, float, null) is kept.
        switch String(String.UnicodeScalarView(s)) {
        // bool: yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF
        case "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON": return .bool(true)
        case "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF": return .bool(false)
        // float: [-+]?\.(?:inf|Inf|INF) | \.(?:nan|NaN|NAN)
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF", ".nan", ".NaN", ".NAN":
            return .float
        // null: ~|null|Null|NULL| (the empty scalar too)
        case "", "~", "null", "Null", "NULL": return .null
        default: break
        }
        if isInt(s) { return .int }
        if isFloat(s) { return .float }
        return .string
    }

    /// `[-+]?0b[0-1_]+ | [-+]?0o?[0-7_]+ | [-+]?(?:0|[1-9][0-9_]*) | [-+]?0x[0-9a-fA-F_]+ |
    /// [-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+`.
    private static func isInt(_ whole: ArraySlice<Unicode.Scalar>) -> Bool {
        var s = whole
        if let first = s.first, first == "-" || first == "+" { s = s.dropFirst() }
        guard let first = s.first else { return false }
        if first == "0" {
            let rest = s.dropFirst()
            if rest.isEmpty { return true }  // 0
            if rest.first == "b", all(rest.dropFirst(), in: "01_", atLeastOne: true) { return true }
            if rest.first == "x", all(rest.dropFirst(), in: "0123456789abcdefABCDEF_", atLeastOne: true) { return true }
            if rest.first == "o", all(rest.dropFirst(), in: "01234567_", atLeastOne: true) { return true }
            return all(rest, in: "01234567_", atLeastOne: true)
        }
        guard isDigit(first, from: "1") else { return false }
        // [1-9][0-9_]* then, for the sexagesimal form, (:[0-5]?[0-9])+.
        let digits = s.dropFirst().prefix { isDigit($0) || $0 == "_" }
        let tail = s[digits.endIndex...]
        return tail.isEmpty || isSexagesimalTail(tail)
    }

    /// `[-+]?[0-9][0-9_]*(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)? | \.[0-9_]+(?:[eE][-+][0-9]+)? |
    /// [-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*` (the infinities and NaN are words, read by
    /// `resolve`).
    private static func isFloat(_ whole: ArraySlice<Unicode.Scalar>) -> Bool {
        if whole.first == "." {
            // \.[0-9_]+(?:[eE][-+][0-9]+)?
            let body = whole.dropFirst()
            let run = body.prefix { isDigit($0) || $0 == "_" }
            guard !run.isEmpty else { return false }
            let tail = body[run.endIndex...]
            return tail.isEmpty || isExponent(tail, signRequired: true)
        }
        var s = whole
        if let first = s.first, first == "-" || first == "+" { s = s.dropFirst() }
        guard let first = s.first, isDigit(first) else { return false }
        let run = s.dropFirst().prefix { isDigit($0) || $0 == "_" }
        let afterRun = s[run.endIndex...]
        // The sexagesimal form: (:[0-5]?[0-9])+ then a mandatory \.[0-9_]*.
        if afterRun.first == ":" {
            guard let dot = afterRun.firstIndex(of: ".") else { return false }
            return isSexagesimalTail(afterRun[..<dot]) && all(afterRun[(dot + 1)...], in: "0123456789_", atLeastOne: false)
        }
        var rest = afterRun
        if rest.first == "." {
            rest = rest.dropFirst()
            rest = rest[(rest.prefix { isDigit($0) || $0 == "_" }).endIndex...]
        }
        return rest.isEmpty || isExponent(rest, signRequired: false)
    }

    /// `(?::[0-5]?[0-9])+`, the whole of `s`.
    private static func isSexagesimalTail(_ s: ArraySlice<Unicode.Scalar>) -> Bool {
        var s = s
        guard !s.isEmpty else { return false }
        while let colon = s.first {
            guard colon == ":" else { return false }
            s = s.dropFirst()
            // [0-5]?[0-9]: one digit, or two whose first is 0-5.
            guard let a = s.first, isDigit(a) else { return false }
            s = s.dropFirst()
            if let b = s.first, isDigit(b), isDigit(a, through: "5") { s = s.dropFirst() }
        }
        return true
    }

    /// `[eE][-+]?[0-9]+` (`[eE][-+][0-9]+` with `signRequired`), the whole of `s`.
    private static func isExponent(_ s: ArraySlice<Unicode.Scalar>, signRequired: Bool) -> Bool {
        guard let e = s.first, e == "e" || e == "E" else { return false }
        var digits = s.dropFirst()
        if let sign = digits.first, sign == "-" || sign == "+" {
            digits = digits.dropFirst()
        } else if signRequired {
            return false
        }
        return all(digits, in: "0123456789", atLeastOne: true)
    }

    private static func all(_ s: ArraySlice<Unicode.Scalar>, in set: String, atLeastOne: Bool) -> Bool {
        (!atLeastOne || !s.isEmpty) && s.allSatisfy { set.unicodeScalars.contains($0) }
    }

    private static func isDigit(_ c: Unicode.Scalar, from low: Unicode.Scalar = "0", through high: Unicode.Scalar = "9") -> Bool {
        c.value >= low.value && c.value <= high.value
    }
}
