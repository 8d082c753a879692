/// AASA files shared by the tests of the matcher (TapRouteTests) and of the linter
/// (TapRouteToolingTests).
public enum AASATestFiles {
    /// The app the test files list.
    public static let app = "ABCDE12345.com.example.app"

    /// Apple's overview file (the `applinks` example of Apple's `applinks` page).
    public static let appleOverview = """
        {"applinks": {"details": [{
          "appIDs": ["ABCDE12345.com.example.app", "ABCDE12345.com.example.app2"],
          "components": [
            {"#": "no_universal_links", "exclude": true},
            {"/": "/buy/*"},
            {"/": "/help/website/*", "exclude": true},
            {"/": "/help/*", "?": {"articleNumber": "????"}}
          ]}]}}
        """

    /// A file with one details entry for ``app`` holding `components` (JSON texts) and,
    /// optionally, `defaults` at domain and app level and substitution variables.
    public static func file(
        components: [String],
        domainDefaults: String? = nil,
        appDefaults: String? = nil,
        variables: String? = nil
    ) -> String {
        var applinks: [String] = []
        if let domainDefaults { applinks.append(#""defaults": \#(domainDefaults)"#) }
        if let variables { applinks.append(#""substitutionVariables": \#(variables)"#) }
        var detail = [#""appIDs": ["\#(app)"]"#, #""components": [\#(components.joined(separator: ","))]"#]
        if let appDefaults { detail.append(#""defaults": \#(appDefaults)"#) }
        applinks.append(#""details": [{\#(detail.joined(separator: ","))}]"#)
        return #"{"applinks": {\#(applinks.joined(separator: ","))}}"#
    }
}
