import TapRoute

// MARK: - Campaign alert messages

extension AdobeAdapter {
    /// A Campaign rules consequence `{"id","type":"iam","detail":{"template":"alert",…}}` and
    /// the button pressed. Adobe opens the confirm `url` itself
    /// (``VendorBehavior/sdkOpensURL``).
    static func inAppMessage(
        _ message: JSONObject,
        action: String?,
        reader: inout PayloadReader
    ) throws(NormalizationError) -> AdapterResult {
        let messageId = message["id"]?.stringValue
        guard let detailValue = message["detail"], !detailValue.isNull else {
            throw .invalidPayload(
                "message.detail is missing: Adobe drops a rules consequence without details",
                path: "$.message.detail"
            )
        }
        guard case .object(let detail) = detailValue else {
            throw .invalidPayload(
                "message.detail is \(detailValue.typeDescription), not an object: Adobe drops a rules consequence without details",
                path: "$.message.detail"
            )
        }
        guard !detail.isEmpty else {
            throw .invalidPayload(
                "message.detail is empty: Adobe drops a rules consequence without details",
                path: "$.message.detail"
            )
        }
        switch detail["template"] {
        case .string("alert")?:
            break
        case .string("fullscreen")?:
            throw .invalidPayload(
                "message.detail.template is 'fullscreen': a fullscreen message's buttons arrive as adbinapp:// url envelopes, not as an inAppMessage",
                path: "$.message.detail.template"
            )
        case .string("local")?:
            throw .invalidPayload(
                "message.detail.template is 'local': a local notification rule is tapped as a notification envelope with origin 'local'",
                path: "$.message.detail.template"
            )
        case .string(let other)?:
            throw .invalidPayload(
                "message.detail.template '\(other)' is not alert, fullscreen or local",
                path: "$.message.detail.template"
            )
        case let other:
            throw .invalidPayload(
                "message.detail.template is \(other?.typeDescription ?? "missing"); expected 'alert'",
                path: "$.message.detail.template"
            )
        }
        _ = try requiredAlertText(detail, "title")
        _ = try requiredAlertText(detail, "content")
        let cancel = try requiredAlertText(detail, "cancel")
        let confirm = reader.nonEmptyString(detail["confirm"], otherType: { ignoredField("message.detail.confirm", $0) })
        let url = reader.nonEmptyString(detail["url"], otherType: { ignoredField("message.detail.url", $0) })

        let confirmDestination: Destination = url.map { .url($0, target: .external) } ?? .app
        // Adobe adds the cancel action first, then confirm when it has text.
        var buttons = [Interaction.Button(id: "cancel", label: cancel, destination: .none)]
        if let confirm { buttons.append(Interaction.Button(id: "confirm", label: confirm, destination: confirmDestination)) }

        let trigger: Trigger
        let destination: Destination
        switch action {
        case "confirm"?:
            guard let confirm else {
                throw .invalidEnvelope(
                    "action is 'confirm' but the alert has no confirm button (message.detail.confirm is missing or empty)",
                    path: "$.action"
                )
            }
            trigger = .button(id: "confirm", label: confirm)
            destination = confirmDestination
        case "cancel"?:
            trigger = .button(id: "cancel", label: cancel)
            destination = .none
        case nil:
            throw .invalidEnvelope(
                "an Adobe alert is answered by one of its buttons: action must be 'confirm' or 'cancel'",
                path: "$.action"
            )
        case let other?:
            throw .invalidEnvelope(
                "action '\(other)' is not a button of an Adobe alert; expected 'confirm' or 'cancel'",
                path: "$.action"
            )
        }
        return AdapterResult(
            channel: .inApp,
            trigger: trigger,
            destination: destination,
            buttons: buttons,
            messageId: messageId,
            vendorBehavior: .sdkOpensURL
        )
    }

    /// A text Adobe requires (a non-empty string) or the error saying Adobe drops the alert.
    private static func requiredAlertText(_ detail: JSONObject, _ key: String) throws(NormalizationError) -> String {
        let problem: String
        switch detail[key] {
        case .string(let s)? where !s.isEmpty:
            return s
        case .string?:
            problem = "is empty"
        case nil, .null?:
            problem = "is missing"
        case let other?:
            problem = "is \(other.typeDescription), not a string"
        }
        throw .invalidPayload(
            "message.detail.\(key) \(problem): Adobe drops an alert without a non-empty \(key)",
            path: "$.message.detail.\(key)"
        )
    }
}

// MARK: - adbinapp:// click URLs

extension AdobeAdapter {
    /// An `adbinapp:` click URL of an in-app message: Campaign's `confirm` / `cancel`, or
    /// Journey Optimizer's `dismiss`. Adobe opens the destination itself
    /// (``VendorBehavior/sdkOpensURL``).
    static func inAppURL(
        _ url: String,
        messageId: String?,
        reader: inout PayloadReader
    ) throws(NormalizationError) -> AdapterResult {
        let parts: URLParts
        do {
            parts = try URLParts.parse(url)
        } catch {
            throw .invalidPayload("the in-app click URL \(error.reason): Adobe's SDK declines it", path: "$.url")
        }
        switch parts.host {
        case "confirm", "cancel":
            return try campaignClick(parts, messageId: messageId, reader: &reader)
        case "dismiss":
            return journeyOptimizerClick(parts, messageId: messageId, reader: &reader)
        case "":
            throw .invalidPayload(
                "the adbinapp link has no host: Adobe's SDK declines it (expected confirm or cancel for Campaign, dismiss for Journey Optimizer)",
                path: "$.url"
            )
        case let host:
            throw .invalidPayload(
                "adbinapp host '\(host)' is not confirm or cancel (Campaign) or dismiss (Journey Optimizer): Adobe's SDK declines the link",
                path: "$.url"
            )
        }
    }

    /// `adbinapp://confirm/?id=<broadlogId>,<deliveryId>,<tag>&url=<encoded>` or
    /// `adbinapp://cancel?id=…,5`, as Campaign's fullscreen message delegate reads them.
    private static func campaignClick(
        _ parts: URLParts,
        messageId: String?,
        reader: inout PayloadReader
    ) throws(NormalizationError) -> AdapterResult {
        let host = parts.host
        let items = PayloadReader.queryItems(parts.query)
        guard !items.isEmpty else {
            throw .invalidPayload(
                "the adbinapp://\(host) link has an empty query: Adobe's Campaign SDK declines it",
                path: "$.url"
            )
        }
        var tracking = JSONObject()
        let idValue = QueryItem.last("id", in: items)?.value ?? ""
        if let id = trackedCampaignID(idValue) {
            tracking["broadlogId"] = .string(id.broadlogId)
            tracking["deliveryId"] = .string(id.deliveryId)
            tracking["action"] = .string(id.tag)
        } else {
            let what = idValue.isEmpty ? "the link has no id" : "id '\(idValue)' is not broadlogId,deliveryId,tag with tag 3, 4 or 5"
            reader.warn(
                .untrackedInteraction,
                "\(what): Adobe's SDK records no click or view for it and opens nothing; TapRoute keeps the destination the host gives"
            )
        }
        var payload = JSONObject()
        for item in items where item.name != "id" && item.name != "url" {
            payload[item.name] = .string(item.value)
        }
        let urlItem = QueryItem.last("url", in: items).flatMap { $0.value.isEmpty ? nil : $0 }

        let trigger: Trigger = .button(id: host)
        let destination: Destination
        // Campaign's `processMessageInteraction` sends tags 3, 4 and 5 alike to
        // `clickedWithData`, which opens any `url` item whatever the host: a cancel button
        // with a url leads there too.
        if let urlItem {
            var target = urlItem.value
            if containsToken(target) {
                // An empty message id is no id: there is nothing to put in the token's place.
                if let messageId, !messageId.isEmpty {
                    target = replacingToken(in: target, with: messageId)
                } else {
                    reader.warn(
                        .tokenNotExpanded,
                        "the url holds the token 'messageId' but the envelope has no messageId to put in its place; Adobe's SDK opens nothing without one"
                    )
                }
            }
            if containsPlus(urlItem.rawValue) {
                reader.warn(
                    .androidDiffers,
                    "the url contains '+', which Adobe's iOS SDK keeps; its Android SDK decodes the query with URLDecoder and turns '+' into a space"
                )
            }
            if !payload.isEmpty {
                let names = payload.keys.map { "'\($0)'" }.joined(separator: ", ")
                reader.warn(
                    .unencodedAmpersand,
                    "the link has query items besides id and url (\(names)): an unencoded '&' in the destination splits it, as it does in Adobe's SDK, so the url is '\(target)'"
                )
            }
            destination = .url(target, target: .external)
        } else if host == "confirm" {
            destination = .app
        } else {
            destination = .none
        }
        return AdapterResult(
            channel: .inApp,
            trigger: trigger,
            destination: destination,
            messageId: messageId,
            payload: payload,
            tracking: tracking,
            vendorBehavior: .sdkOpensURL
        )
    }

    /// `adbinapp://dismiss?interaction=…&animate=…&link=<encoded>`, as Journey Optimizer's
    /// message delegate reads it: `interaction` is tracked, `link` decoded twice and opened.
    private static func journeyOptimizerClick(_ parts: URLParts, messageId: String?, reader: inout PayloadReader) -> AdapterResult {
        let items = PayloadReader.queryItems(parts.query)
        var tracking = JSONObject()
        if let interaction = QueryItem.last("interaction", in: items)?.value, !interaction.isEmpty {
            tracking["interaction"] = .string(interaction)
        }
        var payload = JSONObject()
        for item in items where !["interaction", "animate", "link"].contains(item.name) {
            payload[item.name] = .string(item.value)
        }
        let destination: Destination
        if let once = QueryItem.last("link", in: items)?.value, !once.isEmpty {
            if let twice = PayloadReader.strictlyPercentDecoded(once) {
                destination = twice.isEmpty ? .none : .url(twice, target: .external)
            } else {
                reader.warn(
                    .iOSWouldDrop,
                    "link '\(once)' cannot be percent-decoded a second time: Adobe's iOS SDK (removingPercentEncoding) opens nothing; TapRoute keeps the link decoded once"
                )
                destination = .url(once, target: .external)
            }
        } else {
            destination = .none
        }
        return AdapterResult(
            channel: .inApp,
            trigger: .button(id: "dismiss"),
            destination: destination,
            messageId: messageId,
            payload: payload,
            tracking: tracking,
            vendorBehavior: .sdkOpensURL
        )
    }

    /// Campaign's click-URL token: the literal text `messageId`.
    static let messageIDToken = "messageId"

    /// Whether `text` holds the token (without `String.contains(_:)`, which needs macOS 13).
    static func containsToken(_ text: String) -> Bool {
        var text = text
        var token = messageIDToken
        return text.withUTF8 { bytes in
            token.withUTF8 { token in
                guard bytes.count >= token.count else { return false }
                for start in 0...(bytes.count - token.count) where bytes[start] == token[0] {
                    var k = 1
                    while k < token.count, bytes[start + k] == token[k] { k += 1 }
                    if k == token.count { return true }
                }
                return false
            }
        }
    }

    /// `text` with every occurrence of `messageId` replaced by `value`, as Campaign's
    /// `expandTokens` does.
    static func replacingToken(in text: String, with value: String) -> String {
        if isASCII(text) {
            // ASCII has no combining marks, so byte matches are the character matches below.
            let token = Array(messageIDToken.utf8)
            var out: [UInt8] = []
            var bytes = text
            bytes.withUTF8 { source in
                out.reserveCapacity(source.count + value.utf8.count)
                var i = 0
                while i < source.count {
                    if source[i] == token[0], i + token.count <= source.count,
                        UnsafeBufferPointer(rebasing: source[i..<(i + token.count)]).elementsEqual(token)
                    {
                        out.append(contentsOf: value.utf8)
                        i += token.count
                    } else {
                        out.append(source[i])
                        i += 1
                    }
                }
            }
            return String(decoding: out, as: UTF8.self)
        }
        var out = ""
        var rest = text[...]
        while let first = rest.first {
            if rest.hasPrefix(messageIDToken) {
                out += value
                rest = rest.dropFirst(messageIDToken.count)
            } else {
                out.append(first)
                rest = rest.dropFirst()
            }
        }
        return out
    }

    /// Whether every byte of `text` is ASCII.
    static func isASCII<S: StringProtocol>(_ text: S) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { bytes in bytes.allSatisfy { $0 < 0x80 } }
            ?? text.utf8.allSatisfy { $0 < 0x80 }
    }

    /// The tokens of a Campaign in-app click's `id` (`broadlogId,deliveryId,tag`) when it has
    /// exactly three, split on `,` as ``splitOnComma(_:)`` splits, and the tag is `3`, `4` or `5`
    /// (the clicks Campaign tracks); else `nil`. Read from the bytes when the text is ASCII.
    static func trackedCampaignID(_ text: String) -> (broadlogId: String, deliveryId: String, tag: String)? {
        let fromBytes = text.utf8.withContiguousStorageIfAvailable { bytes -> (String, String, String)?? in
            var first = -1
            var second = -1
            for i in bytes.indices {
                let b = bytes[i]
                if b >= 0x80 { return nil }
                guard b == UInt8(ascii: ",") else { continue }
                if first < 0 {
                    first = i
                } else if second < 0 {
                    second = i
                } else {
                    return .some(nil)
                }
            }
            guard second >= 0, bytes.count == second + 2, bytes[second + 1] &- UInt8(ascii: "3") < 3 else { return .some(nil) }
            func token(_ range: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
            return .some((token(0..<first), token((first + 1)..<second), token((second + 1)..<bytes.count)))
        }
        if let fromBytes, let fromBytes { return fromBytes }
        let tokens = splitOnComma(text)
        guard tokens.count == 3, ["3", "4", "5"].contains(tokens[2]) else { return nil }
        return (String(tokens[0]), String(tokens[1]), String(tokens[2]))
    }

    /// `text.split(separator: ",", omittingEmptySubsequences: false)`, comparing bytes when the
    /// text is ASCII (where a comma is always a character of its own).
    static func splitOnComma(_ text: String) -> [Substring] {
        guard isASCII(text) else { return text.split(separator: ",", omittingEmptySubsequences: false) }
        // Cut at the commas' byte offsets (O(1) index arithmetic on a native string).
        let utf8 = text.utf8
        var copy = text
        return copy.withUTF8 { bytes in
            var pieces: [Substring] = []
            var start = utf8.startIndex
            for offset in bytes.indices where bytes[offset] == UInt8(ascii: ",") {
                let comma = utf8.index(utf8.startIndex, offsetBy: offset)
                pieces.append(Substring(utf8[start..<comma]))
                start = utf8.index(after: comma)
            }
            pieces.append(Substring(utf8[start...]))
            return pieces
        }
    }

    /// `text.contains("+")`, comparing bytes when the text is ASCII.
    static func containsPlus(_ text: Substring) -> Bool {
        // One pass: a `+` found, unless a byte that is not ASCII sends it to the characters.
        let answer = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
            var plus = false
            for b in bytes {
                if b >= 0x80 { return nil }
                plus = plus || b == UInt8(ascii: "+")
            }
            return plus
        }
        if let answer, let answer { return answer }
        return text.contains("+")
    }
}
