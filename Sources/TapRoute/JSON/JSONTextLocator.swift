/// Finds where, in a JSON text, the value at a record path begins — so that an error found
/// after parsing (a wrong type, a rejected value) can name the line and column of the value at
/// fault, not just the line of the document.
///
/// Paths are the ones ``NormalizationError/path`` carries: `$`, then `.key` and `[index]`
/// steps (`['key']` and `["key"]` too). A key that itself contains dots or brackets is found by
/// trying the object's actual keys: the longest key that the rest of the path starts with and
/// that ends at a step boundary wins. A path that runs into a string holding JSON, or into a
/// member that does not exist, stops at the deepest value that does exist: the answer is then
/// the start of that value. A repeated key is resolved to its last occurrence, as
/// ``JSONParser`` keeps the last value.
///
/// It reads the text without building values, one value at a time, with no recursion, so it is
/// linear in the text's size and safe on any input; it answers `nil` only for text that is not
/// a JSON value at all.
package enum JSONTextLocator {
    /// A place in a text: the 0-based byte offset, the 1-based line and the 1-based column in
    /// bytes, counted as ``JSONParseError`` counts them.
    package struct Location: Sendable, Hashable {
        /// The 0-based byte offset.
        package var offset: Int
        /// The 1-based line.
        package var line: Int
        /// The 1-based column, in bytes.
        package var column: Int
    }

    /// The start of the value at `path` in `text` (or of its deepest existing ancestor).
    package static func locate(path: String, in text: UnsafeBufferPointer<UInt8>) -> Location? {
        var scanner = Scanner(bytes: text)
        scanner.skipWhitespace()
        guard scanner.position < text.count else { return nil }
        var rest = Substring(path)
        if rest.first == "$" { rest = rest.dropFirst() }
        while !rest.isEmpty {
            let current = scanner.position
            guard let next = scanner.descend(into: &rest) else {
                scanner.position = current
                break
            }
            scanner.position = next
        }
        return location(of: scanner.position, in: text)
    }

    /// The line and column of a byte offset.
    package static func location(of offset: Int, in text: UnsafeBufferPointer<UInt8>) -> Location {
        var line = 1
        var lineStart = 0
        var i = 0
        let end = min(offset, text.count)
        while i < end {
            if text[i] == 0x0A {
                line += 1
                lineStart = i + 1
            }
            i += 1
        }
        return Location(offset: offset, line: line, column: offset - lineStart + 1)
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        mutating func skipWhitespace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x20, 0x0A, 0x0D, 0x09: position += 1
                default: return
                }
            }
        }

        /// Follows the first step of `rest` from the value at `position`: on success returns the
        /// offset of the child value and removes the step from `rest`.
        mutating func descend(into rest: inout Substring) -> Int? {
            guard position < bytes.count else { return nil }
            switch bytes[position] {
            case UInt8(ascii: "["):
                guard let (index, after) = Self.indexStep(rest) else { return nil }
                guard let child = element(index) else { return nil }
                rest = after
                return child
            case UInt8(ascii: "{"):
                guard let (child, after) = member(matching: rest) else { return nil }
                rest = after
                return child
            default:
                return nil
            }
        }

        /// `[n]` at the start of `rest`.
        static func indexStep(_ rest: Substring) -> (Int, Substring)? {
            guard rest.first == "[", let close = rest.firstIndex(of: "]") else { return nil }
            guard let index = Int(rest[rest.index(after: rest.startIndex)..<close]), index >= 0 else { return nil }
            return (index, rest[rest.index(after: close)...])
        }

        /// The offset of element `index` of the array at `position`.
        mutating func element(_ index: Int) -> Int? {
            position += 1
            skipWhitespace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "]") { return nil }
            var i = 0
            while position < bytes.count {
                skipWhitespace()
                if i == index { return position }
                guard skipValue() else { return nil }
                skipWhitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ",") else { return nil }
                position += 1
                i += 1
            }
            return nil
        }

        /// The value of the member of the object at `position` that the step at the start of
        /// `rest` names, and what follows the step.
        mutating func member(matching rest: Substring) -> (Int, Substring)? {
            var best: (value: Int, after: Substring, keyLength: Int)?
            position += 1
            skipWhitespace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "}") { return nil }
            while position < bytes.count {
                skipWhitespace()
                let keyStart = position
                guard bytes[position] == UInt8(ascii: "\""), skipString() else { return nil }
                let keyBytes = UnsafeBufferPointer(rebasing: bytes[keyStart..<position])
                skipWhitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { return nil }
                position += 1
                skipWhitespace()
                let valueStart = position
                if case .string(let key)? = try? JSONParser().parse(keyBytes),
                    let after = Self.step(rest, naming: key),
                    key.utf8.count >= (best?.keyLength ?? 0)
                {
                    best = (valueStart, after, key.utf8.count)
                }
                guard skipValue() else { return nil }
                skipWhitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ",") else { break }
                position += 1
            }
            return best.map { ($0.value, $0.after) }
        }

        /// What follows a `.key`, `['key']` or `["key"]` step naming `key` at the start of
        /// `rest`, or nil when the step names another key.
        static func step(_ rest: Substring, naming key: String) -> Substring? {
            if rest.hasPrefix(".") {
                let tail = rest.dropFirst()
                guard tail.hasPrefix(key) else { return nil }
                let after = tail.dropFirst(key.count)
                guard after.isEmpty || after.first == "." || after.first == "[" else { return nil }
                return after
            }
            for quote in ["'", "\""] where rest.hasPrefix("[" + quote + key + quote + "]") {
                return rest.dropFirst(key.count + 4)
            }
            return nil
        }

        /// Skips the string at `position` (which is a quote).
        mutating func skipString() -> Bool {
            position += 1
            while position < bytes.count {
                switch bytes[position] {
                case UInt8(ascii: "\""):
                    position += 1
                    return true
                case UInt8(ascii: "\\"):
                    position += 2
                default:
                    position += 1
                }
            }
            return false
        }

        /// Skips one value of any kind, without recursion.
        mutating func skipValue() -> Bool {
            var depth = 0
            repeat {
                guard position < bytes.count else { return false }
                switch bytes[position] {
                case UInt8(ascii: "\""):
                    guard skipString() else { return false }
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                    position += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    guard depth > 0 else { return false }
                    depth -= 1
                    position += 1
                default:
                    if depth == 0 {
                        // A scalar: runs to the next delimiter.
                        while position < bytes.count {
                            switch bytes[position] {
                            case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09:
                                return true
                            default: position += 1
                            }
                        }
                        return true
                    }
                    position += 1
                }
            } while depth > 0
            return true
        }
    }
}
