import Foundation
import TapRoute
import TapRouteAdapters
import TapRouteYAML
import Testing

/// The host allow-list bypass through a backslash (and its `@`, user-info and
/// missing-slash relatives), closed in every vendor position: with
/// `security: {allowedSchemes: [https], allowedHosts: [allowed.com]}` (or `*.allowed.com`),
/// no hostile URL may become a destination, only `{"type":"app"}` with `urlRejected` (or a
/// record error).
@Suite struct URLBypassTests {
    /// URLs whose host is `evil.com` for a browser, but `allowed.com` (or `www.allowed.com`)
    /// by the last `@`; and relatives a browser reads differently from iOS.
    static let hostile = [
        #"https://evil.com\@allowed.com/x"#,
        #"https://evil.com\@www.allowed.com/x"#,
        #"https://evil.com\\@allowed.com/x"#,
        #"https:\\evil.com\@allowed.com/x"#,
        #"https:/evil.com\@allowed.com/x"#,
        #"HTTPS://EVIL.COM\@ALLOWED.COM/x"#,
        "https://evil.com%5C@allowed.com/x",
        "https://evil.com\u{FF3C}@allowed.com/x",
        "https://allowed.com@evil.com/x",
        "https://allowed.com/\u{202E}moc.live",
        "https://allowed.com/%E2%80%AEmoc.live",
        "https://allowed.com/%C2%85",
    ]

    static let configurations = [
        security(schemes: "[https]", hosts: "[allowed.com, www.allowed.com]"),
        security(schemes: "[https]", hosts: "['*.allowed.com']"),
    ]

    /// The default configuration (every built-in adapter) with these security settings.
    static func security(schemes: String, hosts: String) -> String {
        DefaultConfiguration.yaml
            .replacingOccurrences(
                of: "allowedSchemes: [https, http, campaigndemoapp, taptalkio, tel, mailto]",
                with: "allowedSchemes: \(schemes)"
            )
            .replacingOccurrences(of: "allowedHosts: []", with: "allowedHosts: \(hosts)")
    }

    /// One envelope per vendor position, with `URL` where the link goes.
    static let positions: [(name: String, envelope: @Sendable (String) -> JSONValue)] = [
        ("link url", { .object(["kind": "url", "url": .string($0), "automaticallyOpenDeeplinks": true]) }),
        (
            "userActivity",
            {
                .object(["kind": "userActivity", "activityType": "NSUserActivityTypeBrowsingWeb", "webpageURL": .string($0)])
            }
        ),
        (
            "DashX url",
            { url in
                let dashx = JSONValue.object(["id": "n-1", "title": "Hi", "body": "x", "url": .string(url)])
                return .object([
                    "kind": "notification",
                    "userInfo": ["aps": ["alert": ["title": "Hi", "body": "x"]], "dashx": .string(dashx.jsonString())],
                ])
            }
        ),
        (
            "DashX button",
            { url in
                let button = JSONValue.object(["identifier": "go", "label": "Go", "url": .string(url)])
                let dashx = JSONValue.object(["id": "n-1", "title": "Hi", "body": "x", "action_buttons": [button]])
                return .object([
                    "kind": "notification", "action": "go",
                    "userInfo": ["aps": ["alert": ["title": "Hi", "body": "x"]], "dashx": .string(dashx.jsonString())],
                ])
            }
        ),
        (
            "Adobe alert url",
            { url in
                .object([
                    "kind": "inAppMessage", "action": "confirm",
                    "message": [
                        "id": "m1", "type": "iam",
                        "detail": [
                            "template": "alert", "title": "T", "content": "C", "confirm": "Go", "cancel": "No", "url": .string(url),
                        ],
                    ],
                ])
            }
        ),
        (
            "Adobe adbinapp url=",
            { url in
                .object(["kind": "url", "url": .string("adbinapp://confirm/?id=h1,a1,3&url=" + Self.encoded(url)), "messageId": "fs"])
            }
        ),
        (
            "Adobe adbinapp link=",
            { url in
                .object([
                    "kind": "url", "url": .string("adbinapp://dismiss?interaction=buy&link=" + Self.encoded(Self.encoded(url))),
                    "messageId": "fs",
                ])
            }
        ),
        (
            "Bird tap",
            { .object(["kind": "vendorEvent", "event": ["type": "Tap", "action": ["type": "URL", "uri": .string($0)]]]) }
        ),
        (
            "Bird button",
            {
                .object([
                    "kind": "vendorEvent",
                    "event": ["type": "Button", "action": ["type": "DEEP_LINK", "uri": .string($0), "identifier": "b"]],
                ])
            }
        ),
    ]

    /// Every byte but unreserved ones percent-encoded.
    static func encoded(_ text: String) -> String {
        text.utf8.map { b in
            (b >= 0x30 && b <= 0x39) || ((b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A) || b == 0x2D || b == 0x2E || b == 0x5F || b == 0x7E
                ? String(UnicodeScalar(b)) : "%" + (b < 16 ? "0" : "") + String(b, radix: 16, uppercase: true)
        }.joined()
    }

    /// The URLs an interaction's destinations carry.
    static func urls(in interaction: Interaction) -> [String] {
        ([interaction.destination] + interaction.buttons.map(\.destination)).compactMap { destination in
            switch destination {
            case .url(let url, _): url
            case .screen(_, _, let url?): url
            default: nil
            }
        }
    }

    @Test(arguments: 0..<positions.count)
    func noHostileURLBecomesADestination(position: Int) throws {
        let (name, envelope) = Self.positions[position]
        for yaml in Self.configurations {
            #expect(yaml.contains("allowedHosts: [") && !yaml.contains("allowedHosts: []"))
            let registry = try AdapterRegistry(
                configuration: YAMLConfiguration.parse(yaml: yaml),
                adapterTypes: AdapterRegistry.builtInAdapterTypes,
                definitions: AdapterRegistry.builtInDefinitions()
            )
            // The position works: a plain allowed URL gets through.
            let plain = try registry.normalize(json: envelope("https://www.allowed.com/x"))
            #expect(Self.urls(in: plain).contains("https://www.allowed.com/x"), "\(name): \(plain.jsonString())")
            for url in Self.hostile {
                do {
                    let interaction = try registry.normalize(json: envelope(url))
                    let carried = Self.urls(in: interaction)
                    #expect(
                        !carried.contains { $0.contains("evil") || $0.contains("\\") || $0.contains("moc") || $0.contains("%C2%85") },
                        "\(name) \(url): \(interaction.jsonString())"
                    )
                    #expect(interaction.warnings.contains { $0.code == .urlRejected }, "\(name) \(url): \(interaction.jsonString())")
                } catch {
                    // A record error is no destination either (Adobe declines a broken click URL).
                }
            }
        }
    }

    /// TapTalk recognizes links on `web.taptalk.io` by their host: a link a browser reads as
    /// `evil.com` is not TapTalk's, and the link fallback rejects it.
    @Test(arguments: [
        #"https://evil.com\@web.taptalk.io/2-4096"#, "https://evil.com@web.taptalk.io/2-4096", #"https:\\evil.com\@web.taptalk.io/2-4096"#,
        "https://web.taptalk.io/2-4096\u{2066}", "https://web.taptalk.io/2-4096%E2%81%A6",
    ])
    func tapTalkDoesNotClaimLinksABrowserReadsElsewhere(url: String) throws {
        let registry = try AdapterRegistry(
            configuration: YAMLConfiguration.parse(yaml: Self.security(schemes: "[https, taptalkio]", hosts: "[web.taptalk.io]")),
            adapterTypes: AdapterRegistry.builtInAdapterTypes,
            definitions: AdapterRegistry.builtInDefinitions()
        )
        let plain = try registry.normalize(
            json: .object(["kind": "userActivity", "webpageURL": "https://web.taptalk.io/2-4096"])
        )
        #expect(plain.vendor == "taptalk")
        let interaction = try registry.normalize(json: .object(["kind": "userActivity", "webpageURL": .string(url)]))
        #expect(interaction.destination == .app, "\(interaction.jsonString())")
        #expect(interaction.warnings.contains { $0.code == .urlRejected })
    }
}
