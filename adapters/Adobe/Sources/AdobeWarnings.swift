public import TapRoute

extension Warning.Code {
    /// A Journey Optimizer push without a usable `_xdm`: Adobe's iOS SDK reports
    /// `noTrackingData` and opens no URL.
    public static let noTrackingData: Self = "noTrackingData"
    /// An `adbinapp://confirm|cancel` link whose `id` is not `broadlogId,deliveryId,tag` with
    /// tag 3, 4 or 5: Adobe's SDK records no click or view for it.
    public static let untrackedInteraction: Self = "untrackedInteraction"
    /// A query item follows the `url` of an `adbinapp://confirm` link: an unencoded `&` in the
    /// destination split it, as it does in Adobe's SDK.
    public static let unencodedAmpersand: Self = "unencodedAmpersand"
    /// The click URL holds the literal token `messageId`, but the envelope carries no message
    /// id to put in its place.
    public static let tokenNotExpanded: Self = "tokenNotExpanded"
    /// A button of the app's own notification category: Adobe's payload gives it no
    /// destination, so the app decides.
    public static let appDefinedAction: Self = "appDefinedAction"
    /// A field Adobe reads as a string has another type and was ignored, as Adobe's SDK
    /// ignores it.
    public static let ignoredField: Self = "ignoredField"
    /// No longer emitted: TapRoute 0.1.0 warned with it when an `adbinapp://cancel` link
    /// carried a `url` and treated cancel as `none`. The url is now the destination, as in
    /// Adobe's SDK (`clickedWithData` opens it for every tracked tag).
    @available(*, deprecated, message: "no longer emitted: a cancel link's url is its destination, as in Adobe's SDK")
    public static let cancelWithURL: Self = "cancelWithURL"
}

/// Reading Adobe's string fields the way its SDKs do (`as? String`, empty means absent).
struct FieldReader {
    /// Where the object sits, for warning messages (`userInfo`, `message.detail`).
    let location: String
    /// The object read.
    let object: JSONObject

    /// The non-empty string at `key`; `nil` when it is absent, `null`, empty, or not a string
    /// (that last case adds an ``Warning/Code/ignoredField`` warning).
    func string(_ key: String, warnings: inout [Warning]) -> String? {
        guard let value = object[key] else { return nil }
        switch value {
        case .string(let s):
            return s.isEmpty ? nil : s
        case .null:
            return nil
        default:
            warnings.append(
                Warning(
                    .ignoredField,
                    "\(location).\(key) is \(value.typeDescription), not a string: ignored, as Adobe's SDK reads it only as a string"
                )
            )
            return nil
        }
    }
}

/// One `name=value` item of a URL query: the raw text and its value decoded once.
struct RawQueryItem {
    /// The name, percent-decoded once.
    let name: String
    /// The value, percent-decoded once (`URLComponents.queryItems`: `+` stays `+`).
    let value: String
    /// The value as written in the URL.
    let rawValue: Substring

    /// The items of `query` in order, with `URLComponents.queryItems` semantics (split on `&`
    /// and on the first `=`; an item without `=` has the value `""`; empty items are skipped).
    static func items(of query: String?) -> [RawQueryItem] {
        guard let query, !query.isEmpty else { return [] }
        var items: [RawQueryItem] = []
        // Split on the UTF-8 bytes: '&' and '=' are ASCII, so no grapheme breaking is needed.
        for bytes in query.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let part = Substring(bytes)
            if let eq = part.utf8.firstIndex(of: UInt8(ascii: "=")) {
                let raw = part[part.index(after: eq)...]
                items.append(
                    RawQueryItem(
                        name: URLParts.percentDecoded(part[part.startIndex..<eq]),
                        value: URLParts.percentDecoded(raw),
                        rawValue: raw
                    )
                )
            } else {
                items.append(RawQueryItem(name: URLParts.percentDecoded(part), value: "", rawValue: ""))
            }
        }
        return items
    }

    /// The value of the last item named `name` (Adobe's SDKs copy the items into a
    /// dictionary, so a repeated name keeps its last value).
    static func last(_ name: String, in items: [RawQueryItem]) -> RawQueryItem? {
        items.last { $0.name == name }
    }
}

/// Percent-decoding as Foundation's `removingPercentEncoding` does it: `nil` when a `%` is not
/// followed by two hexadecimal digits or the decoded bytes are not UTF-8.
func strictlyPercentDecoded(_ text: String) -> String? {
    guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
    var out: [UInt8] = []
    out.reserveCapacity(text.utf8.count)
    var bytes = text.utf8.makeIterator()
    while let b = bytes.next() {
        guard b == UInt8(ascii: "%") else {
            out.append(b)
            continue
        }
        guard let h = bytes.next().flatMap(hexValue), let l = bytes.next().flatMap(hexValue) else { return nil }
        out.append(h << 4 | l)
    }
    // Decoding replaces ill-formed UTF-8 with U+FFFD, so a round trip that changes the bytes
    // means they were not UTF-8 (`String(validating:)` needs macOS 15 / iOS 18).
    let decoded = String(decoding: out, as: UTF8.self)
    return decoded.utf8.elementsEqual(out) ? decoded : nil
}

private func hexValue(_ b: UInt8) -> UInt8? {
    switch b {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): b - 0x30
    case UInt8(ascii: "a")...UInt8(ascii: "f"): b - 0x61 + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): b - 0x41 + 10
    default: nil
    }
}
