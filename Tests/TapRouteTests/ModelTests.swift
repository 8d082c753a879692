import TapRoute
import TapRouteTestSupport
import Testing

@Suite struct InteractionJSONTests {
    @Test func fullFormHasStableKeyOrderAndOmitsEmptyFields() {
        let interaction = Interaction(
            vendor: "dashx",
            channel: .push,
            trigger: .button(id: "track", label: "Track"),
            destination: .url("https://shop.example.com/t/1", target: .external),
            handling: .automatic,
            messageId: "msg-1",
            payload: ["campaign": "spring"],
            tracking: ["notificationId": "msg-1"],
            buttons: [
                Interaction.Button(id: "track", label: "Track", destination: .url("https://shop.example.com/t/1", target: .external))
            ],
            phase: .cold,
            warnings: [Warning(.androidDiffers, "…")]
        )
        #expect(
            interaction.jsonString()
                == #"{"vendor":"dashx","channel":"push","trigger":{"type":"button","id":"track","label":"Track"},"destination":{"type":"url","url":"https://shop.example.com/t/1","target":"external"},"handling":"automatic","messageId":"msg-1","payload":{"campaign":"spring"},"tracking":{"notificationId":"msg-1"},"buttons":[{"id":"track","label":"Track","destination":{"type":"url","url":"https://shop.example.com/t/1","target":"external"}}],"phase":"cold","warnings":[{"code":"androidDiffers","message":"…"}]}"#
        )
        let minimal = Interaction(vendor: "link", channel: .customScheme, trigger: .open, destination: .none)
        #expect(
            minimal.jsonString()
                == #"{"vendor":"link","channel":"customScheme","trigger":{"type":"open"},"destination":{"type":"none"},"handling":"app"}"#
        )
    }

    @Test(arguments: [
        Destination.app, .none, .clickAction("OPEN_ORDERS"), .url("tel:1", target: .external),
        .screen(name: "product", parameters: ["id": "1", "ref": "x"], url: "myapp://p/1?ref=x"), .screen(name: "home"),
    ])
    func destinationsRoundTrip(destination: Destination) throws {
        let interaction = Interaction(vendor: "x", channel: .inApp, trigger: .dismiss, destination: destination)
        #expect(try Interaction(jsonValue: JSONValue(parsing: interaction.jsonString())) == interaction)
    }

    @Test func screenParametersKeepCaptureThenQueryOrder() {
        let destination = Destination.screen(name: "p", parameters: ["id": "1", "a": "2"])
        #expect(destination.jsonValue.jsonString() == #"{"type":"screen","name":"p","parameters":{"id":"1","a":"2"}}"#)
    }

    /// The array initializer (what adapters in other modules call) and the generic one (any
    /// sequence) make the same parameters: order kept, a repeated name's first value, past the
    /// size where names are indexed.
    @Test func screenParametersFromAnArrayAsFromAnySequence() {
        var generator = SplitMix64(seed: 20_261_128)
        for _ in 0..<500 {
            let pairs = (0..<generator.below(40)).map { _ in ("n\(generator.below(24))", "v\(generator.below(1_000))") }
            let fromArray = ScreenParameters(pairs)
            let fromSequence = ScreenParameters(pairs.lazy.map { $0 })
            #expect(fromArray == fromSequence)
            #expect(fromArray.map(\.name) == fromSequence.map(\.name))
            var firstValues: [String: String] = [:]
            for (name, value) in pairs where firstValues[name] == nil { firstValues[name] = value }
            #expect(fromArray.count == firstValues.count)
            for (name, value) in firstValues { #expect(fromArray[name] == value) }
        }
    }

    @Test func decodingNamesTheBadKeyPath() throws {
        let bad = try JSONValue(
            parsing:
                #"{"vendor":"x","channel":"push","trigger":{"type":"tap"},"destination":{"type":"url","url":"a:b","target":"safari"},"handling":"app"}"#
        )
        #expect(
            throws: ModelDecodingError(.notOneOf("safari", allowed: ["app", "external", "inAppBrowser"]), at: "$.destination.target")
        ) {
            try Interaction(jsonValue: bad)
        }
        let error = ModelDecodingError(.notOneOf("safari", allowed: ["app", "external", "inAppBrowser"]), at: "$.destination.target")
        #expect(error.description == "$.destination.target: 'safari' is not one of 'app', 'external', 'inAppBrowser'")
    }

    @Test func triggerFromNotificationAction() {
        #expect(Trigger(notificationAction: nil) == .tap)
        #expect(Trigger(notificationAction: NotificationAction.defaultIdentifier) == .tap)
        #expect(Trigger(notificationAction: NotificationAction.dismissIdentifier) == .dismiss)
        #expect(Trigger(notificationAction: "later", label: "Later") == .button(id: "later", label: "Later"))
    }

    /// The identifiers are recognized by their bytes however the string was made, and an
    /// identifier one byte away from them — of their length or not — is a button.
    @Test func onlyTheExactIdentifiersAreTapAndDismiss() {
        for (identifier, trigger) in [
            (NotificationAction.defaultIdentifier, Trigger.tap), (NotificationAction.dismissIdentifier, .dismiss),
        ] {
            // Made at run time from bytes, as a parsed record's are.
            let made = String(decoding: Array(identifier.utf8), as: UTF8.self)
            #expect(Trigger(notificationAction: made) == trigger)
            var bytes = Array(identifier.utf8)
            for i in [0, bytes.count / 2, bytes.count - 1] {
                let kept = bytes[i]
                bytes[i] = kept == UInt8(ascii: "x") ? UInt8(ascii: "y") : UInt8(ascii: "x")
                let near = String(decoding: bytes, as: UTF8.self)
                #expect(Trigger(notificationAction: near) == .button(id: near, label: nil))
                bytes[i] = kept
            }
            for near in [String(identifier.dropLast()), identifier + "s", identifier.lowercased(), ""] {
                #expect(Trigger(notificationAction: near, label: "L") == .button(id: near, label: "L"))
            }
        }
    }
}

@Suite struct InputEventTests {
    @Test func bareObjectIsARemoteNotificationTappedWithTheDefaultAction() throws {
        let event = try InputEvent(json: json(#"{"aps":{},"dashx":"{}"}"#))
        guard case .notification(let userInfo, let action, let origin) = event.kind else {
            Issue.record("expected a notification")
            return
        }
        #expect(userInfo["dashx"] == "{}")
        #expect(action == nil)
        #expect(origin == .remote)
    }

    @Test func readsEveryEnvelope() throws {
        let cases: [(String, InputEvent.Kind)] = [
            (
                #"{"kind":"notification","userInfo":{"a":1},"action":"b1","origin":"local"}"#,
                .notification(userInfo: ["a": 1], action: "b1", origin: .local)
            ),
            (#"{"kind":"url","url":"adbinapp://cancel","messageId":"m"}"#, .url("adbinapp://cancel", messageId: "m")),
            (
                #"{"kind":"userActivity","activityType":"NSUserActivityTypeBrowsingWeb","webpageURL":"https://x.y/"}"#,
                .userActivity(activityType: "NSUserActivityTypeBrowsingWeb", webpageURL: "https://x.y/")
            ),
            (#"{"kind":"inAppMessage","message":{"id":"1"},"action":"confirm"}"#, .inAppMessage(message: ["id": "1"], action: "confirm")),
            (#"{"kind":"vendorEvent","event":{"type":"Tap"}}"#, .vendorEvent(["type": "Tap"])),
        ]
        for (text, kind) in cases {
            let event = try InputEvent(json: json(text))
            #expect(event.kind == kind)
            #expect(try InputEvent(json: event.jsonValue) == event)
        }
    }

    /// Each kind by its name, with what it requires.
    @Test(arguments: [
        (#"{"kind":"notification","userInfo":{}}"#, "notification"),
        (#"{"kind":"url","url":"a:b"}"#, "url"),
        (#"{"kind":"userActivity","webpageURL":"https://a.example"}"#, "userActivity"),
        (#"{"kind":"inAppMessage","message":{}}"#, "inAppMessage"),
        (#"{"kind":"vendorEvent","event":{}}"#, "vendorEvent"),
    ])
    func readsEveryKind(text: String, name: String) throws {
        #expect(try InputEvent(json: json(text)).kind.name == name)
    }

    @Test func readsCommonFields() throws {
        let event = try InputEvent(
            json: json(#"{"kind":"url","url":"a:b","vendor":"link","phase":"warm","automaticallyOpenDeeplinks":true}"#)
        )
        #expect(event.vendor == "link")
        #expect(event.phase == .warm)
        #expect(event.automaticallyOpenDeeplinks == true)
    }

    @Test(arguments: [
        (#"[1]"#, "notAnObject", "$"),
        (#"{"kind":3}"#, "invalidEnvelope", "$.kind"),
        (#"{"kind":"push"}"#, "invalidEnvelope", "$.kind"),
        (#"{"kind":"notification"}"#, "invalidEnvelope", "$.userInfo"),
        (#"{"kind":"notification","userInfo":[]}"#, "invalidEnvelope", "$.userInfo"),
        (#"{"kind":"notification","userInfo":{},"origin":"moon"}"#, "invalidEnvelope", "$.origin"),
        (#"{"kind":"notification","userInfo":{},"action":5}"#, "invalidEnvelope", "$.action"),
        (#"{"kind":"url","url":"a:b","phase":"hot"}"#, "invalidEnvelope", "$.phase"),
        (#"{"kind":"url","url":"a:b","automaticallyOpenDeeplinks":"yes"}"#, "invalidEnvelope", "$.automaticallyOpenDeeplinks"),
        (#"{"kind":"userActivity"}"#, "invalidEnvelope", "$.webpageURL"),
        (#"{"kind":"vendorEvent","event":"x"}"#, "invalidEnvelope", "$.event"),
        // A kind is its exact name: not another case, a look-alike, a prefix or more.
        (#"{"kind":"URL","url":"a:b"}"#, "invalidEnvelope", "$.kind"),
        (#"{"kind":"Notification","userInfo":{}}"#, "invalidEnvelope", "$.kind"),
        (#"{"kind":"notificatioN","userInfo":{}}"#, "invalidEnvelope", "$.kind"),
        (#"{"kind":"userActivitY","webpageURL":"https://a.example"}"#, "invalidEnvelope", "$.kind"),
        (#"{"kind":"inAppMessagE","message":{}}"#, "invalidEnvelope", "$.kind"),
        (#"{"kind":"vendorEvent ","event":{}}"#, "invalidEnvelope", "$.kind"),
        (#"{"kind":"ur","url":"a:b"}"#, "invalidEnvelope", "$.kind"),
        (#"{"kind":"","url":"a:b"}"#, "invalidEnvelope", "$.kind"),
        (#"{"kind":"vendor\u212Avent","event":{}}"#, "invalidEnvelope", "$.kind"),
    ])
    func badEnvelopesNameTheKey(text: String, code: String, path: String) throws {
        do {
            _ = try InputEvent(json: json(text))
            Issue.record("expected an error for \(text)")
        } catch let error as NormalizationError {
            #expect(error.code.rawValue == code)
            #expect(error.path == path)
            #expect(!error.message.isEmpty)
        }
    }

    /// Each envelope error's whole message, as an object's envelope and a record's reader (the
    /// members it keeps as it parses, with and without the alert's text read for its kind)
    /// give it: the messages are built out of line, away from the reading.
    @Test(arguments: [
        (#"{"kind":3}"#, "kind must be a string, got a number", "$.kind"),
        (
            #"{"kind":"push"}"#,
            "unknown kind 'push'; expected notification, url, userActivity, inAppMessage or vendorEvent", "$.kind"
        ),
        (#"{"kind":"notification"}"#, "userInfo is required for kind 'notification'", "$.userInfo"),
        (#"{"kind":"notification","userInfo":[]}"#, "userInfo must be an object, got an array", "$.userInfo"),
        (#"{"kind":"notification","userInfo":{},"origin":"moon"}"#, "origin must be 'remote' or 'local', got 'moon'", "$.origin"),
        (#"{"kind":"notification","userInfo":{},"origin":true}"#, "origin must be a string, got a boolean", "$.origin"),
        (#"{"kind":"notification","userInfo":{},"action":5}"#, "action must be a string, got a number", "$.action"),
        (#"{"kind":"url"}"#, "url is required for kind 'url'", "$.url"),
        (#"{"kind":"url","url":{}}"#, "url must be a string, got an object", "$.url"),
        (#"{"kind":"url","url":"a:b","messageId":[]}"#, "messageId must be a string, got an array", "$.messageId"),
        (#"{"kind":"url","url":"a:b","phase":"hot"}"#, "phase must be 'cold' or 'warm', got 'hot'", "$.phase"),
        (
            #"{"kind":"url","url":"a:b","automaticallyOpenDeeplinks":"yes"}"#,
            "automaticallyOpenDeeplinks must be a boolean, got a string", "$.automaticallyOpenDeeplinks"
        ),
        (#"{"kind":"url","url":"a:b","vendor":7}"#, "vendor must be a string, got a number", "$.vendor"),
        (#"{"kind":"userActivity"}"#, "webpageURL is required for kind 'userActivity'", "$.webpageURL"),
        (#"{"kind":"inAppMessage","message":null}"#, "message must be an object, got null", "$.message"),
        (#"{"kind":"vendorEvent","event":"x"}"#, "event must be an object, got a string", "$.event"),
    ])
    func badEnvelopesSayWhatIsWrong(text: String, message: String, path: String) throws {
        let expected = NormalizationError.invalidEnvelope(message, path: path)
        #expect(throws: expected) { try InputEvent(json: json(text)) }
        for alertTextReadForKind in [false, true] {
            var reader = RecordReader(limits: Limits())
            reader.alertTextReadForKind = alertTextReadForKind
            let bytes = Array(text.utf8)
            #expect(throws: expected) {
                try bytes.withUnsafeBufferPointer { buffer throws(NormalizationError) in try reader.readEvent(buffer) }
            }
        }
    }
}
