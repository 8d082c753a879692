/// The one toolkit every adapter reads its vendor's payload with.
///
/// The ``AdapterRegistry`` makes one reader for each input and hands it to
/// ``PayloadAdapter/read(_:using:)``. It carries where the vendor's object sits in the record
/// (``location``), the registry's ``Limits``, and the list of ``warnings`` the adapter raises
/// while reading; the registry puts those warnings first in the ``Interaction``.
///
/// Everything an adapter needs to read vendor values the way vendor SDKs encode them is here,
/// so that no adapter writes its own: non-empty strings, JSON held in a string (bounded by
/// `limits.maxDepth` counted from the record's root), lists held in a string, vendor
/// Booleans (`"1"`, `"true"`, `YES`), percent-decoding (lenient as `URLComponents`, strict
/// as `removingPercentEncoding`) and query items with their raw and decoded values.
///
/// ```swift
/// switch reader.object(userInfo["acme"], heldAt: Limits.payloadDepth) {
/// case .inPlace(let block), .inString(let block, _): …
/// case .absent: …
/// case .wrongType(let value): reader.warn(.acmeUnreadable, "acme is \(value.typeDescription)")
/// case .stringNotJSON, .stringTooDeep, .stringHoldsWrongType: …
/// }
/// ```
public struct PayloadReader: Sendable {
    /// The registry's input limits.
    public let limits: Limits
    /// The JSONPath of the input's vendor object in the record: `$.userInfo` for a
    /// notification, `$.message` for an in-app message, `$.event` for a vendor event, `$.url`
    /// for a link (`$` for a user activity).
    public let location: String
    /// The warnings raised so far, in order.
    public private(set) var warnings: [Warning] = []

    /// Creates a reader for one input.
    /// - Parameters:
    ///   - limits: the registry's limits.
    ///   - location: the JSONPath of the vendor object in the record.
    public init(limits: Limits = Limits(), location: String = "$") {
        self.limits = limits
        self.location = location
    }

    /// Creates the reader for `input`, located at its vendor object.
    public init(limits: Limits = Limits(), for input: InputEvent) {
        let location =
            switch input.kind {
            case .notification: "$.userInfo"
            case .inAppMessage: "$.message"
            case .vendorEvent: "$.event"
            case .url: "$.url"
            case .userActivity: "$.webpageURL"
            }
        self.init(limits: limits, location: location)
    }

    /// Adds a warning.
    public mutating func warn(_ warning: Warning) {
        warnings.append(warning)
    }

    /// Adds a warning with `code` and `message`.
    public mutating func warn(_ code: Warning.Code, _ message: String) {
        warnings.append(Warning(code, message))
    }

    /// Takes the warnings raised so far, leaving none.
    public mutating func takeWarnings() -> [Warning] {
        defer { warnings = [] }
        return warnings
    }

    // MARK: - Strings

    /// The string, when `value` is a non-empty string (vendor SDKs read `as? String` and
    /// treat `""` as absent).
    public static func nonEmptyString(_ value: JSONValue?) -> String? {
        if case .string(let s)? = value, !s.isEmpty { return s }
        return nil
    }

    /// The string, when `value` is a non-empty string; see ``nonEmptyString(_:)``.
    public func nonEmptyString(_ value: JSONValue?) -> String? {
        Self.nonEmptyString(value)
    }

    /// The non-empty string `value` holds; `nil` when it is absent, `null` or `""`. A value of
    /// another type is ignored too, with the warning `otherType` makes for it.
    public mutating func nonEmptyString(_ value: JSONValue?, otherType: (JSONValue) -> Warning) -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let s)?: return s.isEmpty ? nil : s
        case let other?:
            warnings.append(otherType(other))
            return nil
        }
    }

    /// `text` without leading and trailing whitespace and newlines (Unicode's, as
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` reads them).
    public static func trimmed(_ text: String) -> String {
        // A string that starts and ends with a visible ASCII byte has nothing to trim: no
        // grapheme cluster that begins or ends with one is whitespace.
        if hasNothingToTrim(text) { return text }
        guard let first = text.firstIndex(where: { !$0.isWhitespace }),
            let last = text.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(text[first...last])
    }

    /// Whether `text` starts and ends with a visible ASCII byte: then ``trimmed(_:)`` gives
    /// it whole (no grapheme cluster that begins or ends with one is whitespace). The two
    /// bytes are read where the string keeps them (`utf8.last` was a call of about 80
    /// instructions).
    @inline(__always)
    package static func hasNothingToTrim(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { hasNothingToTrim($0) } ?? false
    }

    /// ``hasNothingToTrim(_:)`` of a string's UTF-8 bytes, read where they are.
    @inline(__always)
    package static func hasNothingToTrim(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first, let last = bytes.last else { return false }
        return first > 0x20 && first < 0x7F && last > 0x20 && last < 0x7F
    }

    /// ``trimmed(_:)``, or `nil` when nothing is left.
    public static func trimmedNonEmpty(_ text: String) -> String? {
        let trimmed = trimmed(text)
        return trimmed.isEmpty ? nil : trimmed
    }

    // MARK: - Booleans

    /// How a vendor spells a Boolean.
    public struct BooleanSpellings: OptionSet, Sendable, Hashable {
        /// The raw value.
        public let rawValue: UInt8
        /// Creates spellings.
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// JSON `true` and `false`.
        public static let json = BooleanSpellings(rawValue: 1 << 0)
        /// The numbers `1` and `0`.
        public static let numbers = BooleanSpellings(rawValue: 1 << 1)
        /// The strings `"1"` and `"0"`.
        public static let digitStrings = BooleanSpellings(rawValue: 1 << 2)
        /// The strings `"true"` and `"false"`, exactly so.
        public static let lowercaseWords = BooleanSpellings(rawValue: 1 << 3)
        /// The strings `"true"`/`"false"` and `"yes"`/`"no"` in any ASCII letter case
        /// (`"TRUE"`, `"YES"`, `"No"`), as Objective-C code that compares case-insensitively
        /// reads them.
        public static let words = BooleanSpellings(rawValue: 1 << 4)
        /// Every spelling above.
        public static let all: BooleanSpellings = [.json, .numbers, .digitStrings, .lowercaseWords, .words]
    }

    /// The Boolean `value` spells in one of `spellings`; `nil` when it is absent or spelled
    /// otherwise.
    public static func boolean(_ value: JSONValue?, spellings: BooleanSpellings = .all) -> Bool? {
        switch value {
        case .bool(let b)? where spellings.contains(.json):
            return b
        case .number(let n)? where spellings.contains(.numbers):
            switch n.text {
            case "1": return true
            case "0": return false
            default: return nil
            }
        case .string(let s)?:
            if spellings.contains(.digitStrings) {
                if s == "1" { return true }
                if s == "0" { return false }
            }
            if spellings.contains(.lowercaseWords) {
                if s == "true" { return true }
                if s == "false" { return false }
            }
            if spellings.contains(.words), s.utf8.count <= 5 {
                switch s.lowercased() {
                case "true", "yes": return true
                case "false", "no": return false
                default: return nil
                }
            }
            return nil
        default:
            return nil
        }
    }

    // MARK: - JSON held in strings

    /// What was found where a JSON value of some shape was expected, written in place or held
    /// as JSON text in a string (as FCM delivers nested data, and as several vendors send
    /// their blocks).
    public enum Held<Value: Sendable & Hashable>: Sendable, Hashable {
        /// Missing or `null`.
        case absent
        /// The value, written in place.
        case inPlace(Value)
        /// The value, decoded from JSON text in a string (`text`).
        case inString(Value, text: String)
        /// Neither the value nor a string.
        case wrongType(JSONValue)
        /// A string that is not valid JSON.
        case stringNotJSON(text: String, error: JSONParseError)
        /// A string holding JSON that nests deeper than `limits.maxDepth` allows at the depth
        /// it is held (`clause` says so, for a message:
        /// ``Limits/embeddedDepthClause(heldAt:)``).
        case stringTooDeep(text: String, clause: String)
        /// A string holding valid JSON of another type.
        case stringHoldsWrongType(JSONValue, text: String)

        /// The value, in place or decoded from a string.
        public var value: Value? {
            switch self {
            case .inPlace(let value), .inString(let value, _): value
            default: nil
            }
        }
    }

    /// Decodes JSON text held in a string at `depth` (the depth of the object or array that
    /// holds the string; the record's top level is 1), so that `limits.maxDepth` bounds the
    /// whole record, strings included. See ``Limits/parseEmbeddedJSON(_:heldAt:)``.
    /// - Throws: ``JSONParseError``, of kind ``JSONParseError/Kind/tooDeep`` when the value
    ///   nests deeper than that.
    public func json(in text: String, heldAt depth: Int) throws(JSONParseError) -> JSONValue {
        try limits.parseEmbeddedJSON(text, heldAt: depth)
    }

    /// Reads a value that should be JSON of some shape, in place or held in a string.
    /// - Parameters:
    ///   - value: the value found.
    ///   - depth: the depth of the object or array that holds `value`.
    ///   - shape: the value of the wanted shape, or `nil` for any other.
    public func held<Value>(_ value: JSONValue?, heldAt depth: Int, as shape: (JSONValue) -> Value?) -> Held<Value> {
        held(value, heldAt: depth, kindOnly: nil, as: shape)
    }

    /// ``held(_:heldAt:as:)``; when the value is JSON text, the root object's string members
    /// named in `kindOnly` are read as empty strings (``JSONParser/rootStringsReadForKind``),
    /// for an adapter that reads them only for their kind.
    package func held<Value>(
        _ value: JSONValue?,
        heldAt depth: Int,
        kindOnly: SmallStringSet?,
        as shape: (JSONValue) -> Value?
    ) -> Held<Value> {
        switch value {
        case nil, .null?:
            return .absent
        case .string(let text)?:
            let decoded: JSONValue
            do {
                decoded = try limits.parseEmbeddedJSON(text, heldAt: depth, kindOnly: kindOnly)
            } catch {
                switch error.kind {
                case .tooDeep: return .stringTooDeep(text: text, clause: limits.embeddedDepthClause(heldAt: depth))
                case .invalid, .trailingData: return .stringNotJSON(text: text, error: error)
                }
            }
            if let shaped = shape(decoded) { return .inString(shaped, text: text) }
            return .stringHoldsWrongType(decoded, text: text)
        case let other?:
            if let shaped = shape(other) { return .inPlace(shaped) }
            return .wrongType(other)
        }
    }

    /// An object, written in place or held as JSON text in a string at `depth`.
    public func object(_ value: JSONValue?, heldAt depth: Int) -> Held<JSONObject> {
        held(value, heldAt: depth) { $0.objectValue }
    }

    /// ``object(_:heldAt:)``, reading the held object's string members named in `kindOnly`
    /// as empty strings: for an adapter that asks only whether they are strings.
    package func object(_ value: JSONValue?, heldAt depth: Int, kindOnly: SmallStringSet) -> Held<JSONObject> {
        held(value, heldAt: depth, kindOnly: kindOnly) { $0.objectValue }
    }

    /// A list (a JSON array), written in place or held as JSON text in a string at `depth`.
    public func list(_ value: JSONValue?, heldAt depth: Int) -> Held<[JSONValue]> {
        held(value, heldAt: depth) {
            if case .array(let array) = $0 { return array }
            return nil
        }
    }

    // MARK: - Percent-decoding and queries

    /// Decodes percent-escapes once, as `URLComponents` does for query items: `+` stays `+`;
    /// a `%` not followed by two hexadecimal digits stays as it is; bytes that do not form
    /// UTF-8 become U+FFFD. The same as ``URLParts/percentDecoded(_:)-(String)``.
    public static func percentDecoded(_ text: String) -> String {
        URLParts.percentDecoded(text)
    }

    /// Decodes percent-escapes as Foundation's `removingPercentEncoding` does: `nil` when a
    /// `%` is not followed by two hexadecimal digits or the decoded bytes are not UTF-8.
    public static func strictlyPercentDecoded(_ text: String) -> String? {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var bytes = text.utf8.makeIterator()
        while let b = bytes.next() {
            guard b == UInt8(ascii: "%") else {
                out.append(b)
                continue
            }
            guard let h = bytes.next().flatMap(ASCIIHex.value), let l = bytes.next().flatMap(ASCIIHex.value) else { return nil }
            out.append(h << 4 | l)
        }
        // Decoding replaces ill-formed UTF-8 with U+FFFD, so a round trip that changes the
        // bytes means they were not UTF-8 (`String(validating:)` needs macOS 15 / iOS 18).
        let decoded = String(decoding: out, as: UTF8.self)
        return decoded.utf8.elementsEqual(out) ? decoded : nil
    }

    /// The items of a URL query in order, with their raw and decoded names and values; see
    /// ``QueryItem``.
    public static func queryItems(_ query: String?) -> [QueryItem] {
        QueryItem.items(of: query)
    }
}

/// One `name=value` item of a URL query, with `URLComponents.queryItems` semantics: split on
/// `&` and on the first `=`, the name and value percent-decoded once (`+` stays `+`); an item
/// without `=` has the value `""`; empty items are skipped.
public struct QueryItem: Sendable, Hashable {
    /// The name, percent-decoded once.
    public var name: String
    /// The value, percent-decoded once.
    public var value: String
    /// The value as written in the URL.
    public var rawValue: Substring

    /// Creates an item.
    public init(name: String, value: String, rawValue: Substring) {
        self.name = name
        self.value = value
        self.rawValue = rawValue
    }

    /// The items of `query` in order.
    ///
    /// One pass over the query's UTF-8 bytes: `&` and `=` are ASCII, so every cut is at a
    /// character boundary, and a part without `%` becomes its string without decoding.
    public static func items(of query: String?) -> [QueryItem] {
        guard let query, !query.isEmpty else { return [] }
        let utf8 = query.utf8
        // The raw text of bytes `range` of the query (index arithmetic is O(1) on its UTF-8).
        func raw(_ range: Range<Int>) -> Substring {
            let lower = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
            return Substring(utf8[lower..<utf8.index(lower, offsetBy: range.count)])
        }
        var text = query
        return text.withUTF8 { bytes in
            var items: [QueryItem] = []
            var start = 0
            while start < bytes.count {
                var end = start
                var equals = -1
                while end < bytes.count, bytes[end] != UInt8(ascii: "&") {
                    if equals < 0, bytes[end] == UInt8(ascii: "=") { equals = end }
                    end += 1
                }
                if end > start {
                    let nameEnd = equals >= 0 ? equals : end
                    let name = URLParts.percentDecoded(bytes: UnsafeBufferPointer(rebasing: bytes[start..<nameEnd]))
                    if equals >= 0 {
                        let value = URLParts.percentDecoded(bytes: UnsafeBufferPointer(rebasing: bytes[(equals + 1)..<end]))
                        items.append(QueryItem(name: name, value: value, rawValue: raw((equals + 1)..<end)))
                    } else {
                        items.append(QueryItem(name: name, value: "", rawValue: ""))
                    }
                }
                start = end + 1
            }
            return items
        }
    }

    /// The last item named `name` (what SDKs that copy the items into a dictionary keep).
    public static func last(_ name: String, in items: [QueryItem]) -> QueryItem? {
        items.last { $0.name == name }
    }
}

/// Hexadecimal digits, one implementation for the whole package.
package enum ASCIIHex {
    /// The value of a hexadecimal digit (`0`–`9`, `a`–`f`, `A`–`F`), or `nil`.
    @inline(__always)
    package static func value(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): b - 0x30
        case UInt8(ascii: "a")...UInt8(ascii: "f"): b - 0x61 + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): b - 0x41 + 10
        default: nil
        }
    }

    /// The upper-case digit for a value 0–15 (percent-encoding).
    @inline(__always)
    package static func upperDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? 0x30 + value : 0x41 + value - 10
    }

    /// The lower-case digit for a value 0–15 (JSON's `\\u` escapes).
    @inline(__always)
    package static func lowerDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? 0x30 + value : 0x61 + value - 10
    }
}

extension PayloadReader {
    /// The first byte of `text` that is not JSON whitespace (RFC 8259's `ws`: space, tab, line
    /// feed, carriage return), or `nil` when there is none: what a string that does not parse
    /// was meant to hold (`{` for an object, `[` for a list).
    public static func firstJSONByte(_ text: String) -> UInt8? {
        text.utf8.first { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
    }
}
