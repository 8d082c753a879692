import TapRoute

extension TapTalkAdapter {
    /// The two link forms the adapter reads.
    enum LinkForm {
        /// An http(s) link on one of the configured hosts.
        case web
        /// A link with one of the configured custom schemes.
        case customScheme
    }

    /// The form and parts of `url` when it is a TapTalk link, else `nil`.
    func link(_ url: String) -> (form: LinkForm, parts: URLParts)? {
        // Look at the scheme first: most links are not TapTalk's, and need no full parse.
        guard let scheme = URLParts.scheme(of: url) else { return nil }
        if schemeSet.contains(scheme) { return parsedLink(url) }
        guard scheme == "https" || scheme == "http" else { return nil }
        // Nor do most web links, whose host is written plainly and is another one.
        if Self.hasPlainHost(url, notIn: hosts) { return nil }
        return parsedLink(url)
    }

    /// ``link(_:)`` by the full reading of the URL (the reference for its shortcuts).
    func parsedLink(_ url: String) -> (form: LinkForm, parts: URLParts)? {
        guard let parts = URLParts(url) else { return nil }
        if schemeSet.contains(parts.scheme) { return (.customScheme, parts) }
        if parts.scheme == "https" || parts.scheme == "http", parts.hasAuthority,
            hostSet.contains(parts.normalizedHost)
        {
            return (.web, parts)
        }
        return nil
    }

    /// Whether `url` is an `http://` or `https://` link whose host is written plainly and is
    /// none of `hosts`, so that it is not a TapTalk link without being parsed.
    ///
    /// Plainly: lower-case ASCII letters, digits and hyphens in dot-separated, non-empty
    /// labels, none starting with `xn--`, the last starting with a letter; then the end, `/`,
    /// `?`, `#`, or a port of digits. The URL reading (`URLParts`) leaves such a host as it
    /// is — no letter case, percent-escape or IDNA mapping to apply, no IPv4 number, no user
    /// info, no backslash — so comparing its bytes with `hosts` gives the answer the full
    /// reading would. Anything else (`HTTPS://`, `%`, `@`, `\`, a tab, a trailing dot,
    /// non-ASCII) returns `false`, and the URL is parsed.
    static func hasPlainHost(_ url: String, notIn hosts: [String]) -> Bool {
        let answer = url.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            let count = bytes.count
            // `http://` or `https://`, as written.
            guard count > 7, bytes[0] == UInt8(ascii: "h"), bytes[1] == UInt8(ascii: "t"), bytes[2] == UInt8(ascii: "t"),
                bytes[3] == UInt8(ascii: "p")
            else { return false }
            var i = bytes[4] == UInt8(ascii: "s") ? 5 : 4
            guard i + 3 < count, bytes[i] == UInt8(ascii: ":"), bytes[i + 1] == UInt8(ascii: "/"), bytes[i + 2] == UInt8(ascii: "/")
            else { return false }
            i += 3
            let start = i
            var labelStart = i
            func isLabelByte(_ b: UInt8) -> Bool {
                (b &- UInt8(ascii: "a")) < 26 || (b &- UInt8(ascii: "0")) < 10 || b == UInt8(ascii: "-")
            }
            func startsPunycode(_ at: Int) -> Bool {
                at + 4 <= count && bytes[at] == UInt8(ascii: "x") && bytes[at + 1] == UInt8(ascii: "n")
                    && bytes[at + 2] == UInt8(ascii: "-") && bytes[at + 3] == UInt8(ascii: "-")
            }
            while i < count {
                let b = bytes[i]
                if isLabelByte(b) {
                    i += 1
                } else if b == UInt8(ascii: ".") {
                    guard i > labelStart, !startsPunycode(labelStart) else { return false }
                    i += 1
                    labelStart = i
                } else {
                    break
                }
            }
            let end = i
            // The last label: not empty, not Punycode, not a number (an IPv4 address).
            guard end > labelStart, (bytes[labelStart] &- UInt8(ascii: "a")) < 26, !startsPunycode(labelStart) else {
                return false
            }
            if i < count {
                switch bytes[i] {
                case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"):
                    break
                case UInt8(ascii: ":"):
                    i += 1
                    while i < count, (bytes[i] &- UInt8(ascii: "0")) < 10 { i += 1 }
                    guard i == count || bytes[i] == UInt8(ascii: "/") || bytes[i] == UInt8(ascii: "?") || bytes[i] == UInt8(ascii: "#")
                    else { return false }
                default:
                    return false
                }
            }
            let host = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[start..<end])
            for candidate in hosts where candidate.utf8.count == host.count {
                var candidate = candidate
                if candidate.withUTF8({ UnsafeRawBufferPointer($0).elementsEqual(host) }) { return false }
            }
            return true
        }
        return answer ?? false
    }

    /// The path words of TapTalk's link forms: `chat` (the Android docs' intent filter
    /// `pathPrefix="/chat"`) and `room` (TapRoute's `taptalkio://room/<id>`).
    static let reservedSegments: Set<String> = ["chat", "room"]

    /// Reads a universal or custom-scheme link (`reader.location` is where the URL is).
    func readLink(_ url: String, messageId: String?, using reader: inout PayloadReader) throws(NormalizationError) -> AdapterResult {
        guard let match = link(url) else {
            throw NormalizationError(
                .unrecognized,
                "'\(url)' is not a TapTalk link (hosts: \(hosts.joined(separator: ", ")); schemes: \(schemes.joined(separator: ", ")))",
                path: reader.location
            )
        }
        let parts = match.parts
        let segments: [Substring]
        let channel: Channel
        switch match.form {
        case .web:
            channel = .universalLink
            segments = parts.pathSegments
            if parts.host != parts.normalizedHost {
                reader.warn(
                    .androidDiffers,
                    "host '\(parts.host)' matched '\(parts.normalizedHost)' case-insensitively; the Android sample compares getHost() exactly and would open its fallback screen"
                )
            }
            if parts.scheme == "http" {
                reader.warn(
                    .androidDiffers,
                    "the link is http; the Android sample's intent filter accepts only https, and iOS delivers universal links only for https"
                )
            }
        case .customScheme:
            channel = .customScheme
            // taptalkio://<id> carries the ID in the host position; taptalkio://room/<id> in
            // the path. Reading host and path segments as one list covers both.
            segments = (parts.host.isEmpty ? [] : [Substring(parts.host)]) + parts.pathSegments
        }
        var roomID = segments.last.map { URLParts.percentDecoded($0) } ?? ""
        if segments.count == 1, Self.reservedSegments.contains(roomID.lowercased()) {
            reader.warn(
                .reservedPathSegment,
                "the link's only segment '\(roomID)' is a path word of TapTalk links, almost certainly not a room; it is used as the room ID, as the vendor's sample does"
            )
        }
        if !roomID.isEmpty, let problem = Self.roomIDProblem(roomID) {
            reader.warn(.invalidRoomID, "the room ID from the link \(problem); the room list is shown instead")
            roomID = ""
        }
        return AdapterResult(
            channel: channel,
            trigger: .open,
            destination: roomDestination(roomID, url: url),
            messageId: messageId
        )
    }
}
