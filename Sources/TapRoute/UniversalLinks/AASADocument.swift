/// An apple-app-site-association (AASA) file: the universal-link rules a domain publishes
/// for the apps associated with it.
///
/// Only the `applinks` section is modelled; `webcredentials`, `appclips` and
/// `activitycontinuation` list apps but match no URLs. Read a file with ``init(bytes:)``
/// (strict: any error throws; `normalize aasa lint` reports every problem of a file, with lint
/// warnings). Match URLs with ``AASAMatcher``.
///
/// ```swift
/// let document = try AASADocument(bytes: Array(fileContents))
/// let matcher = AASAMatcher(document: document, appID: "ABCDE12345.com.example.app")
/// matcher.match(URLParts("https://example.com/buy/42")!).opensApp   // true
/// ```
///
/// The semantics are Apple's (`docs/universal-links.md` has the details and sources).
public struct AASADocument: Sendable, Hashable {
    /// Apple's size limit for the file: 128 KB.
    public static let maximumSize = 128 * 1024

    /// Whether the file has an `applinks` section.
    public var hasApplinks: Bool
    /// `applinks.defaults`: domain-level pattern-matching settings (iOS 14+).
    public var defaults: AASAOptions
    /// `applinks.substitutionVariables`, in file order (iOS 13.5+).
    public var substitutionVariables: [AASASubstitutionVariable]
    /// `applinks.details`, in file order.
    public var details: [AASADetail]
    /// Whether `details` was the pre-iOS 13 dictionary keyed by app ID (its order is
    /// undefined; TapRoute uses the file's order).
    public var detailsWereDictionary: Bool

    /// Creates a document.
    package init(
        hasApplinks: Bool = true,
        defaults: AASAOptions = AASAOptions(),
        substitutionVariables: [AASASubstitutionVariable] = [],
        details: [AASADetail] = [],
        detailsWereDictionary: Bool = false
    ) {
        self.hasApplinks = hasApplinks
        self.defaults = defaults
        self.substitutionVariables = substitutionVariables
        self.details = details
        self.detailsWereDictionary = detailsWereDictionary
    }

    /// Reads a file, strictly. The lint checks do not run (`normalize aasa lint` runs them),
    /// and a file larger than ``maximumSize`` is refused before it is parsed.
    /// - Throws: ``AASAError`` when the file is larger than ``maximumSize``, is not JSON, or
    ///   has any value of the wrong type.
    public init(bytes: [UInt8]) throws(AASAError) {
        if let tooLarge = AASADocument.sizeDiagnostic(byteCount: bytes.count) {
            throw AASAError(diagnostics: [tooLarge])
        }
        let analysis = AASADocument.analyze(bytes: bytes)
        if analysis.hasErrors { throw AASAError(diagnostics: analysis.diagnostics) }
        self = analysis.document
    }

    /// Reads a parsed file, strictly, without the lint checks (the size limit is not
    /// checked: there are no bytes).
    /// - Throws: ``AASAError`` when any value has the wrong type.
    public init(json: JSONValue) throws(AASAError) {
        let analysis = AASADocument.analyze(json: json)
        if analysis.hasErrors { throw AASAError(diagnostics: analysis.diagnostics) }
        self = analysis.document
    }

    /// The `tooLarge` error for a file of `byteCount` bytes (`exact: false`: of more than
    /// ``maximumSize`` bytes, reading stopped there), or `nil` when Apple accepts that size.
    package static func sizeDiagnostic(byteCount: Int, exact: Bool = true) -> AASADiagnostic? {
        guard byteCount > maximumSize else { return nil }
        let size = exact ? "\(byteCount) bytes" : "more than \(maximumSize) bytes"
        return AASADiagnostic(.error, .tooLarge, "the file is \(size); Apple accepts at most \(maximumSize) (128 KB)", at: "$")
    }

    /// Reads a file and reports every problem the reader finds: errors (size, JSON, types) and
    /// structural warnings; the lint warnings are the tooling's (`normalize aasa lint`). A
    /// UTF-8 byte order mark at the start is skipped. Never throws; the document holds what
    /// could be read.
    package static func analyze(bytes: [UInt8]) -> AASAAnalysis {
        var diagnostics: [AASADiagnostic] = []
        if let tooLarge = sizeDiagnostic(byteCount: bytes.count) { diagnostics.append(tooLarge) }
        let json: JSONValue
        do {
            // A UTF-8 byte order mark before the JSON is accepted, as Foundation's JSON
            // reader on Apple platforms accepts it.
            let hasMark = bytes.starts(with: [0xEF, 0xBB, 0xBF])
            json = try bytes.withUnsafeBufferPointer { buffer throws(JSONParseError) in
                try JSONParser().parse(hasMark ? UnsafeBufferPointer(rebasing: buffer.dropFirst(3)) : buffer)
            }
        } catch {
            diagnostics.append(AASADiagnostic(.error, .invalidJSON, "not valid JSON: \(error.description)", at: "$"))
            return AASAAnalysis(document: AASADocument(hasApplinks: false), diagnostics: diagnostics)
        }
        var analysis = analyze(json: json)
        analysis.diagnostics.insert(contentsOf: diagnostics, at: 0)
        return analysis
    }

    /// Reads a parsed file and reports every problem the reader finds (except the size
    /// limit): type errors and structural warnings.
    package static func analyze(json: JSONValue) -> AASAAnalysis {
        var reader = AASAReader()
        let document = reader.read(json)
        return AASAAnalysis(document: document, diagnostics: reader.diagnostics)
    }
}

/// The outcome of reading an AASA file: what could be read and every problem found.
package struct AASAAnalysis: Sendable, Hashable {
    /// The document, without the parts that had errors.
    package var document: AASADocument
    /// Errors and warnings, in the order found.
    package var diagnostics: [AASADiagnostic]

    /// Creates an analysis.
    package init(document: AASADocument, diagnostics: [AASADiagnostic]) {
        self.document = document
        self.diagnostics = diagnostics
    }

    /// Whether any diagnostic is an error (the file must not be used).
    package var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
}

/// `caseSensitive` and `percentEncoded` at one level: built-in (both `true`) <
/// `applinks.defaults` < `details[].defaults` < the component's own keys. `nil` defers to
/// the level below.
public struct AASAOptions: Sendable, Hashable {
    /// Whether patterns compare case-sensitively.
    public var caseSensitive: Bool?
    /// Whether patterns are compared with the URL as encoded (`true`) or with the URL
    /// percent-decoded (`false`).
    public var percentEncoded: Bool?

    /// Creates options.
    package init(caseSensitive: Bool? = nil, percentEncoded: Bool? = nil) {
        self.caseSensitive = caseSensitive
        self.percentEncoded = percentEncoded
    }

    /// These options over `base`: each value that is set here wins.
    package func over(_ base: AASAOptions) -> AASAOptions {
        AASAOptions(caseSensitive: caseSensitive ?? base.caseSensitive, percentEncoded: percentEncoded ?? base.percentEncoded)
    }
}

/// One entry of `applinks.substitutionVariables`: a name and its alternatives.
public struct AASASubstitutionVariable: Sendable, Hashable {
    /// The name used as `$(name)`; case-sensitive.
    public var name: String
    /// The alternatives; each may contain `*` and `?`.
    public var values: [String]

    /// Creates a variable.
    package init(name: String, values: [String]) {
        self.name = name
        self.values = values
    }
}

/// One entry of `applinks.details`: the apps it is for and their rules.
public struct AASADetail: Sendable, Hashable {
    /// The apps (`appID` and `appIDs` together), `TEAMID.bundle.identifier`.
    public var appIDs: [String]
    /// The `components` rules (iOS 13+), or `nil` when the entry has none.
    public var components: [AASAComponent]?
    /// The legacy `paths` rules (iOS 12 and earlier), or `nil` when the entry has none.
    /// iOS 13 and later ignore them when ``components`` is present.
    public var paths: [AASALegacyPath]?
    /// `defaults`: app-level pattern-matching settings.
    public var defaults: AASAOptions
    /// Where the entry is in the file: `$.applinks.details[0]`, or
    /// `$.applinks.details["TEAMID.bundle"]` in the dictionary form.
    public var location: String

    /// Creates an entry.
    package init(
        appIDs: [String],
        components: [AASAComponent]? = nil,
        paths: [AASALegacyPath]? = nil,
        defaults: AASAOptions = AASAOptions(),
        location: String = "$.applinks.details[0]"
    ) {
        self.appIDs = appIDs
        self.components = components
        self.paths = paths
        self.defaults = defaults
        self.location = location
    }
}

/// One `components` rule. A URL matches it when every key it has matches; a missing `/`,
/// `?` or `#` matches anything.
public struct AASAComponent: Sendable, Hashable {
    /// `/`: the path pattern.
    public var path: String?
    /// `?`: the query pattern, as a string or a dictionary of query items.
    public var query: AASAQueryPattern?
    /// `#`: the fragment pattern.
    public var fragment: String?
    /// `exclude`: a matching URL is not a universal link (evaluation stops).
    public var exclude: Bool
    /// `comment`: ignored by iOS.
    public var comment: String?
    /// The component's own `caseSensitive` and `percentEncoded`.
    public var options: AASAOptions
    /// Its index in the file's `components` array (rules the reader had to drop do not
    /// shift the others).
    public var index: Int

    /// Creates a rule.
    package init(
        path: String? = nil,
        query: AASAQueryPattern? = nil,
        fragment: String? = nil,
        exclude: Bool = false,
        comment: String? = nil,
        options: AASAOptions = AASAOptions(),
        index: Int = 0
    ) {
        self.path = path
        self.query = query
        self.fragment = fragment
        self.exclude = exclude
        self.comment = comment
        self.options = options
        self.index = index
    }

    /// The rule's matching keys as JSON, for messages: `{"/":"/help/*","exclude":true}`.
    public var summary: String {
        var o = JSONObject()
        if let path { o["/"] = .string(path) }
        if let query { o["?"] = query.jsonValue }
        if let fragment { o["#"] = .string(fragment) }
        if exclude { o["exclude"] = .bool(true) }
        if let value = options.caseSensitive { o["caseSensitive"] = .bool(value) }
        if let value = options.percentEncoded { o["percentEncoded"] = .bool(value) }
        return JSONValue.object(o).jsonString()
    }
}

/// The `?` key of a component.
public enum AASAQueryPattern: Sendable, Hashable {
    /// A pattern matched against the whole query (after `?`, before `#`).
    case whole(String)
    /// Patterns for named query items; items not named are ignored. Every occurrence of a
    /// named item must match; a missing item is treated as present with the value `""`.
    case items([AASAQueryItemPattern])
    /// A dictionary with a value that is not a string (`nonStringKey`): iOS then ignores the
    /// whole dictionary, so the query is unconstrained.
    case voided(nonStringKey: String, original: JSONObject)

    /// The pattern as written.
    package var jsonValue: JSONValue {
        switch self {
        case .whole(let pattern): return .string(pattern)
        case .items(let items): return .object(JSONObject(items.map { ($0.name, JSONValue.string($0.pattern)) }))
        case .voided(_, let original): return .object(original)
        }
    }
}

/// One entry of a `?` dictionary.
public struct AASAQueryItemPattern: Sendable, Hashable {
    /// The query item name, compared literally (no wildcards).
    public var name: String
    /// The pattern for its value.
    public var pattern: String

    /// Creates an entry.
    package init(name: String, pattern: String) {
        self.name = name
        self.pattern = pattern
    }
}

/// One entry of the legacy `paths` array: a path pattern, `"NOT "` in front to exclude.
public struct AASALegacyPath: Sendable, Hashable {
    /// The path pattern without `NOT `.
    public var pattern: String
    /// Whether it was written `NOT pattern`.
    public var exclude: Bool
    /// Its index in the file's `paths` array.
    public var index: Int

    /// Creates an entry.
    package init(pattern: String, exclude: Bool = false, index: Int = 0) {
        self.pattern = pattern
        self.exclude = exclude
        self.index = index
    }

    /// The entry as written in the file, as a JSON string: `"NOT /private/*"`.
    public var summary: String {
        JSONValue.string(exclude ? "NOT \(pattern)" : pattern).jsonString()
    }

    /// Parses an entry as written in the file.
    package init(_ text: String, index: Int = 0) {
        if text.hasPrefix("NOT ") {
            self.init(pattern: String(text.dropFirst(4)), exclude: true, index: index)
        } else {
            self.init(pattern: text, exclude: false, index: index)
        }
    }
}
