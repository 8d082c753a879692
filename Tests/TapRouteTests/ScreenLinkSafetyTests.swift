import TapRoute
import Testing

/// A screen destination an adapter built from a link passes the URL safety rules.
@Suite struct ScreenLinkSafetyTests {
    /// Turns every `url` envelope into a `chat` screen that keeps the link.
    struct ScreenFromLinkAdapter: PayloadAdapter {
        static let id = "screenlink"
        init(configuration: AdapterConfiguration) throws(ConfigurationError) {}
        func recognizes(_ input: InputEvent) -> Bool { input.link != nil }
        func read(_ input: InputEvent, using reader: inout PayloadReader) throws(NormalizationError) -> AdapterResult {
            guard let link = input.link else { throw NormalizationError(.unrecognized, "not a link") }
            return AdapterResult(
                channel: .customScheme,
                trigger: .open,
                destination: .screen(name: "chat", parameters: ["id": "1"], url: link)
            )
        }
    }

    func registry() throws -> AdapterRegistry {
        let configuration = Configuration(
            adapters: [AdapterSettings(id: ScreenFromLinkAdapter.id)],
            security: SecuritySettings(allowedSchemes: ["https", "chat"], maxURLLength: 64)
        )
        return try AdapterRegistry(configuration: configuration, adapterTypes: [ScreenFromLinkAdapter.self])
    }

    @Test func keepsASafeLink() throws {
        let interaction = try registry().normalize(.url("chat://room/1"))
        #expect(interaction.destination == .screen(name: "chat", parameters: ["id": "1"], url: "chat://room/1"))
        #expect(interaction.warnings.isEmpty)
    }

    @Test(arguments: [
        ("other://room/1", "destination url 'other://room/1' scheme 'other' is not in security.allowedSchemes"),
        ("chat://room/%00", "destination url 'chat://room/%00' contains an encoded NUL byte (%00)"),
        ("chat://room/" + String(repeating: "a", count: 60), "is longer than 64 bytes"),
    ])
    func rejectsAnUnsafeLink(link: String, message: String) throws {
        let interaction = try registry().normalize(.url(link))
        #expect(interaction.destination == .app)
        #expect(interaction.warnings.map(\.code) == [.urlRejected])
        #expect(interaction.warnings.first?.message.hasSuffix(message) == true)
    }
}
