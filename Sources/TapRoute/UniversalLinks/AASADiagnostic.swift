/// One problem found in an apple-app-site-association file: an error (the file, or a part of
/// it, cannot be used) or a warning (it works, but not the way its author probably meant).
///
/// `path` locates the value JSONPath-style, e.g. `$.applinks.details[0].components[2]`.
/// Its ``description`` reads `error: $.applinks.details: expected an array or an object, got a string [invalidType]`.
public struct AASADiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious a problem is.
    public enum Severity: String, Sendable, Hashable {
        /// The file, or the part at ``AASADiagnostic/path``, is not a valid AASA file.
        case error
        /// Valid, but probably not what was meant.
        case warning
    }

    /// A stable identifier for a kind of problem.
    public struct Code: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// The camelCase identifier.
        public let rawValue: String
        /// Creates a code.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Creates a code from a literal.
        public init(stringLiteral value: String) { self.rawValue = value }
        /// The identifier.
        public var description: String { rawValue }

        // Errors
        /// The file is not valid JSON (or not UTF-8).
        public static let invalidJSON: Code = "invalidJSON"
        /// The file is larger than Apple's limit of 128 KB (131,072 bytes).
        public static let tooLarge: Code = "tooLarge"
        /// A value has the wrong JSON type.
        public static let invalidType: Code = "invalidType"

        // Warnings (the lint warnings are `normalize aasa lint`'s: TapRouteTooling)
        /// A key Apple does not define; it is ignored.
        public static let unknownKey: Code = "unknownKey"
        /// The file has no `applinks` section: no URL on the domain opens an app.
        public static let noApplinks: Code = "noApplinks"
        /// `details` is the pre-iOS 13 dictionary keyed by app ID, whose order is undefined.
        public static let legacyDetailsDictionary: Code = "legacyDetailsDictionary"
        /// The legacy `apps` list is not empty; it must be `[]`.
        public static let appsNotEmpty: Code = "appsNotEmpty"
        /// A `details` entry names no app (`appID` / `appIDs`), so it applies to none.
        public static let noAppID: Code = "noAppID"
        /// A `details` entry has both `appID` and `appIDs`; both are used.
        public static let appIDAndAppIDs: Code = "appIDAndAppIDs"
        /// An app ID is not of the form `TEAMID.bundle.identifier`.
        public static let malformedAppID: Code = "malformedAppID"
        /// A `details` entry has neither `components` nor `paths`: it matches no URL.
        public static let noRules: Code = "noRules"
        /// A `details` entry has both `paths` and `components`; iOS 13 and later use only
        /// `components`.
        public static let mixedPathsAndComponents: Code = "mixedPathsAndComponents"
        /// A `?` dictionary has a value that is not a string, which voids the whole dictionary.
        public static let queryDictionaryVoided: Code = "queryDictionaryVoided"
        /// A substitution variable's value contains `$(`, which is not expanded there.
        public static let nestedVariable: Code = "nestedVariable"
        /// A substitution variable's name contains `$`, `(` or `)`, so no pattern can use it.
        public static let invalidVariableName: Code = "invalidVariableName"
        /// A substitution variable redefines a predefined one (`alpha`, `region`, …).
        public static let shadowsPredefinedVariable: Code = "shadowsPredefinedVariable"
        /// A key in `defaults` other than `caseSensitive` and `percentEncoded`; it has no
        /// defined meaning there.
        public static let ignoredDefaultsKey: Code = "ignoredDefaultsKey"
    }

    /// Error or warning.
    public var severity: Severity
    /// What kind of problem.
    public var code: Code
    /// What is wrong, as a sentence.
    public var message: String
    /// Where, JSONPath-style (`$` is the whole file).
    public var path: String

    /// Creates a diagnostic.
    package init(_ severity: Severity, _ code: Code, _ message: String, at path: String) {
        self.severity = severity
        self.code = code
        self.message = message
        self.path = path
    }

    /// `severity: path: message [code]`.
    public var description: String { "\(severity.rawValue): \(path): \(message) [\(code.rawValue)]" }
}

/// An apple-app-site-association file that cannot be used: its errors (and, for context,
/// its warnings).
public struct AASAError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Every problem found; at least one is an error.
    public var diagnostics: [AASADiagnostic]

    /// Creates an error from the diagnostics of an analysis.
    package init(diagnostics: [AASADiagnostic]) {
        self.diagnostics = diagnostics
    }

    /// The errors alone.
    public var errors: [AASADiagnostic] { diagnostics.filter { $0.severity == .error } }

    /// The first error, followed by how many more there are.
    public var description: String {
        let errors = self.errors
        guard let first = errors.first else { return "invalid apple-app-site-association file" }
        let text = "\(first.path): \(first.message)"
        return errors.count == 1 ? text : "\(text) (and \(errors.count - 1) more error\(errors.count == 2 ? "" : "s"))"
    }
}
