import TapRoute

extension TapTalkAdapter {
    /// The two link forms the adapter reads.
    enum LinkForm {
        /// An http(s) link on one of the configured hosts.
        case web
        /// A link with one of the configured custom schemes.
        case customScheme
    }

    /// The form and parts of `url` when it is a TapTalk link, else `nil`. `screening`: look
    /// at a web link's host before parsing it, which pays when most links are not TapTalk's
    /// (detection) and not when the link was recognized already (reading).
    func link(_ url: String, screening: Bool = true) -> (form: LinkForm, parts: URLParts)? {
        // Look at the scheme first: most links are not TapTalk's, and need no full parse.
        guard let scheme = URLParts.scheme(of: url), schemeSet.contains(scheme) || scheme == "https" || scheme == "http"
        else { return nil }
        // A web link whose host is plain and none of TapTalk's (most links) needs no parse.
        if screening, !schemeSet.contains(scheme), let host = URLParts.plainHost(of: url), !hostSet.contains(host) { return nil }
        guard let parts = URLParts(url) else { return nil }
        if schemeSet.contains(parts.scheme) { return (.customScheme, parts) }
        if parts.scheme == "https" || parts.scheme == "http", parts.hasAuthority,
            hostSet.contains(parts.normalizedHost)
        {
            return (.web, parts)
        }
        return nil
    }

    /// The path words of TapTalk's link forms: `chat` (the Android docs' intent filter
    /// `pathPrefix="/chat"`) and `room` (TapRoute's `taptalkio://room/<id>`).
    static let reservedSegments: Set<String> = ["chat", "room"]

    /// Reads a universal or custom-scheme link (`reader.location` is where the URL is).
    func readLink(_ url: String, messageId: String?, using reader: inout PayloadReader) throws(NormalizationError) -> AdapterResult {
        guard let match = link(url, screening: false) else {
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
