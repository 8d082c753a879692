/// Why a path or a message template does not parse.
struct DSyntaxProblem: Error {
    var message: String
}

/// Parses the path syntax of docs/declarative-adapters.md ("Paths").
enum DPathParser {
    static func parse(_ text: String, names: [String: Int], namedAllowed: Bool, insideButtons: Bool) -> Result<DPath, DSyntaxProblem> {
        var bytes = Array(text.utf8)[...]
        guard !bytes.isEmpty else { return .failure(DSyntaxProblem(message: "a path cannot be empty")) }
        var base = DBase.current
        var steps: [DStep] = []
        // At most one step per '.' or '[' and one more: one allocation for the steps.
        steps.reserveCapacity(1 + bytes.lazy.filter { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "[") }.count)
        var display = ""
        var lastKey: String?

        func reference(_ name: String) -> Result<DReference, DSyntaxProblem> {
            switch name {
            case "action": return .success(.action)
            case "url": return .success(.url)
            case "key":
                return insideButtons ? .success(.key) : .failure(DSyntaxProblem(message: "@key is only known inside buttons"))
            default:
                guard let index = names[name] else {
                    let known = ["action", "url"] + (insideButtons ? ["key"] : []) + names.keys.sorted()
                    var message = "unknown reference '@\(name)'; known: \(known.map { "@" + $0 }.joined(separator: ", "))"
                    if let close = ConfigurationReader.closest(to: name, in: known) { message += "; did you mean '@\(close)'?" }
                    return .failure(DSyntaxProblem(message: message))
                }
                guard namedAllowed else {
                    return .failure(DSyntaxProblem(message: "a named value cannot refer to another (@\(name))"))
                }
                return .success(.named(index))
            }
        }

        func isNameByte(_ b: UInt8) -> Bool { b != UInt8(ascii: ".") && b != UInt8(ascii: "[") && b != UInt8(ascii: "]") }

        if bytes.first == UInt8(ascii: "@") {
            let name = bytes.dropFirst().prefix { isNameByte($0) }
            bytes = bytes.dropFirst(1 + name.count)
            switch reference(String(decoding: name, as: UTF8.self)) {
            case .success(let r): base = .reference(r)
            case .failure(let f): return .failure(f)
            }
            guard bytes.isEmpty else { return .failure(DSyntaxProblem(message: "a reference cannot be followed by steps")) }
            return .success(DPath(base: base, steps: [], display: "", lastKey: nil))
        }
        if bytes.first == UInt8(ascii: "$") {
            guard insideButtons else {
                return .failure(DSyntaxProblem(message: "'$' (the root) is only needed inside buttons; write the path from the root"))
            }
            base = .root
            bytes = bytes.dropFirst()
            if bytes.isEmpty { return .success(DPath(base: base, steps: [], display: "", lastKey: nil)) }
            guard bytes.first == UInt8(ascii: ".") || bytes.first == UInt8(ascii: "[") else {
                return .failure(DSyntaxProblem(message: "'$' must be followed by '.' or '['"))
            }
            if bytes.first == UInt8(ascii: ".") { bytes = bytes.dropFirst() }
        }
        var first = true
        while !bytes.isEmpty {
            if steps.count >= DefinitionBounds.maxPathSteps {
                return .failure(DSyntaxProblem(message: "more than \(DefinitionBounds.maxPathSteps) steps"))
            }
            if !first, bytes.first == UInt8(ascii: ".") {
                bytes = bytes.dropFirst()
                guard let b = bytes.first, b != UInt8(ascii: "[") else {
                    return .failure(DSyntaxProblem(message: "a '.' must be followed by a key"))
                }
            } else if !first, bytes.first != UInt8(ascii: "[") {
                return .failure(DSyntaxProblem(message: "expected '.' or '[' after a step"))
            }
            first = false
            if bytes.first == UInt8(ascii: "[") {
                bytes = bytes.dropFirst()
                if bytes.first == UInt8(ascii: "'") {
                    bytes = bytes.dropFirst()
                    guard let key = quoted(&bytes) else { return .failure(DSyntaxProblem(message: "an unterminated quoted key")) }
                    guard bytes.first == UInt8(ascii: "]") else {
                        return .failure(DSyntaxProblem(message: "expected ']' after a quoted key"))
                    }
                    bytes = bytes.dropFirst()
                    steps.append(.key(key))
                    display += "["
                    display += jsonPathQuoted(key)
                    display += "]"
                    lastKey = key
                    continue
                }
                let inside = bytes.prefix { $0 != UInt8(ascii: "]") }
                guard inside.count < bytes.count else { return .failure(DSyntaxProblem(message: "a '[' without ']'")) }
                bytes = bytes.dropFirst(inside.count + 1)
                if let eq = inside.firstIndex(of: UInt8(ascii: "=")) {
                    let field = String(decoding: inside[inside.startIndex..<eq], as: UTF8.self)
                    var rhs = inside[inside.index(after: eq)...]
                    guard !field.isEmpty else { return .failure(DSyntaxProblem(message: "a find step needs a field name before '='")) }
                    let operand: DOperand
                    if rhs.first == UInt8(ascii: "'") {
                        rhs = rhs.dropFirst()
                        guard let literal = quoted(&rhs), rhs.isEmpty else {
                            return .failure(DSyntaxProblem(message: "a find step compares with 'text' or @reference"))
                        }
                        operand = .literal(literal)
                    } else if rhs.first == UInt8(ascii: "@") {
                        switch reference(String(decoding: rhs.dropFirst(), as: UTF8.self)) {
                        case .success(let r): operand = .reference(r)
                        case .failure(let f): return .failure(f)
                        }
                    } else {
                        return .failure(DSyntaxProblem(message: "a find step compares with 'text' or @reference"))
                    }
                    steps.append(.find(field: field, equals: operand))
                    display += "[?(@."
                    display += field
                    display += ")]"
                    lastKey = nil
                    continue
                }
                guard !inside.isEmpty, inside.count <= 9, inside.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                    let index = Int(String(decoding: inside, as: UTF8.self))
                else {
                    return .failure(DSyntaxProblem(message: "'[…]' holds an index, a quoted key or field=value"))
                }
                steps.append(.index(index))
                display += "[\(index)]"
                lastKey = nil
                continue
            }
            let name = bytes.prefix { isNameByte($0) }
            guard !name.isEmpty else { return .failure(DSyntaxProblem(message: "an empty key")) }
            if steps.isEmpty, base == .current, name.first == UInt8(ascii: "@") || name.first == UInt8(ascii: "$") {
                return .failure(DSyntaxProblem(message: "a bare key cannot start with '@' or '$'; quote it: ['…']"))
            }
            bytes = bytes.dropFirst(name.count)
            let key = String(decoding: name, as: UTF8.self)
            steps.append(.key(key))
            if isPlainJSONPathName(key) {
                display += "."
                display += key
            } else {
                display += "["
                display += jsonPathQuoted(key)
                display += "]"
            }
            lastKey = key
        }
        return .success(DPath(base: base, steps: steps, display: display, lastKey: lastKey))
    }

    /// Reads a quoted text after its opening `'`, up to and including its closing `'`.
    static func quoted(_ bytes: inout ArraySlice<UInt8>) -> String? {
        var out: [UInt8] = []
        while let b = bytes.first {
            bytes = bytes.dropFirst()
            if b == UInt8(ascii: "\\") {
                guard let next = bytes.first else { return nil }
                bytes = bytes.dropFirst()
                out.append(next)
            } else if b == UInt8(ascii: "'") {
                return String(decoding: out, as: UTF8.self)
            } else {
                out.append(b)
            }
        }
        return nil
    }

    static func isPlainJSONPathName(_ key: String) -> Bool {
        guard let f = key.utf8.first, !(f >= 0x30 && f <= 0x39) else { return false }
        return key.utf8.allSatisfy { ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F || $0 == 0x2D }
    }

    static func jsonPathQuoted(_ key: String) -> String {
        // Most keys need no escape: one copy between the quotes.
        if !key.utf8.contains(where: { $0 == UInt8(ascii: "'") || $0 == UInt8(ascii: "\\") }) {
            var out = "'"
            out += key
            out += "'"
            return out
        }
        var out = "'"
        for c in key.unicodeScalars {
            if c == "'" || c == "\\" { out.unicodeScalars.append("\\") }
            out.unicodeScalars.append(c)
        }
        return out + "'"
    }
}

/// Splits template text into literal text and `{…}` inserts: `{{` and `}}` are literal
/// braces, a lone `}` and a `{` without its `}` are mistakes. Message templates and encode
/// payload templates share it.
enum DBraces {
    enum Piece {
        case text(String)
        case insert(String)
    }

    static func split(_ text: String) -> Result<[Piece], DSyntaxProblem> {
        // Text without braces, the most common template, is one piece: no copy.
        if !text.utf8.contains(where: { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "}") }) {
            return .success(text.isEmpty ? [] : [.text(text)])
        }
        var text = text
        return text.withUTF8 { bytes in
            var pieces: [Piece] = []
            // The literal text since the last insert; runs between doubled braces are copied
            // into it whole.
            var literal: [UInt8] = []
            var runStart = 0
            var i = 0
            while i < bytes.count {
                let b = bytes[i]
                if b == UInt8(ascii: "}") {
                    guard i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "}") else {
                        return .failure(DSyntaxProblem(message: "a '}' must be written '}}'"))
                    }
                    literal += bytes[runStart...i]
                    i += 2
                    runStart = i
                    continue
                }
                guard b == UInt8(ascii: "{") else {
                    i += 1
                    continue
                }
                if i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "{") {
                    literal += bytes[runStart...i]
                    i += 2
                    runStart = i
                    continue
                }
                guard let close = bytes[(i + 1)...].firstIndex(of: UInt8(ascii: "}")) else {
                    return .failure(DSyntaxProblem(message: "a '{' without '}' (write '{{' for a brace)"))
                }
                literal += bytes[runStart..<i]
                if !literal.isEmpty {
                    pieces.append(.text(String(decoding: literal, as: UTF8.self)))
                    literal.removeAll(keepingCapacity: true)
                }
                pieces.append(.insert(String(decoding: bytes[(i + 1)..<close], as: UTF8.self)))
                i = close + 1
                runStart = i
            }
            literal += bytes[runStart..<bytes.count]
            if !literal.isEmpty { pieces.append(.text(String(decoding: literal, as: UTF8.self))) }
            return .success(pieces)
        }
    }
}

/// Parses message templates (docs/declarative-adapters.md, "Messages").
enum DTemplateParser {
    static func parse(_ text: String, names: [String: Int], insideButtons: Bool) -> Result<DTemplate, DSyntaxProblem> {
        let pieces: [DBraces.Piece]
        switch DBraces.split(text) {
        case .success(let p): pieces = p
        case .failure(let problem): return .failure(problem)
        }
        var parts: [DTemplate.Part] = []
        for piece in pieces {
            let insert: String
            switch piece {
            case .text(let text):
                parts.append(.text(text))
                continue
            case .insert(let text):
                insert = text
            }
            var subjectText = insert
            var filter = DTemplate.Filter.raw
            // Bytes, not Characters: a combining mark after `|` must not hide it.
            if let bar = insert.utf8.lastIndex(of: UInt8(ascii: "|")) {
                subjectText = String(decoding: insert.utf8[..<bar], as: UTF8.self)
                let name = String(decoding: insert.utf8[insert.utf8.index(after: bar)...], as: UTF8.self)
                switch name {
                case "quoted": filter = .quoted
                case "type": filter = .type
                default:
                    var message = "unknown filter '\(name)'; expected quoted or type"
                    if let close = ConfigurationReader.closest(to: name, in: ["quoted", "type"]) {
                        message += "; did you mean '\(close)'?"
                    }
                    return .failure(DSyntaxProblem(message: message))
                }
            }
            let subject: DTemplate.Subject
            switch subjectText {
            case "@key" where !insideButtons: subject = .key
            case "@clause": subject = .clause
            case "@value": subject = .value
            default:
                switch DPathParser.parse(subjectText, names: names, namedAllowed: true, insideButtons: insideButtons) {
                case .success(let p):
                    if insideButtons, case .reference(.named) = p.base {
                        return .failure(DSyntaxProblem(message: "{\(subjectText)}: named values are not available inside buttons"))
                    }
                    subject = .path(p)
                case .failure(let f): return .failure(DSyntaxProblem(message: "{\(subjectText)}: \(f.message)"))
                }
            }
            parts.append(.insert(subject, filter))
        }
        return .success(DTemplate(parts: parts))
    }
}
