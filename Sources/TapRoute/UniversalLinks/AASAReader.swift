/// Reads the JSON of an AASA file into an ``AASADocument``, collecting a diagnostic for
/// every value of the wrong type (an error: the value's rule is dropped) and every key
/// Apple does not define (a warning: ignored).
struct AASAReader {
    var diagnostics: [AASADiagnostic] = []

    private static let sectionKeys = ["applinks", "webcredentials", "appclips", "activitycontinuation"]
    private static let applinksKeys = ["apps", "details", "defaults", "substitutionVariables"]
    private static let detailKeys = ["appID", "appIDs", "components", "paths", "defaults"]
    private static let componentKeys = ["/", "?", "#", "exclude", "comment", "caseSensitive", "percentEncoded"]

    mutating func read(_ json: JSONValue) -> AASADocument {
        guard case .object(let root) = json else {
            error(.invalidType, "the file must be a JSON object, got \(json.typeDescription)", at: "$")
            return AASADocument(hasApplinks: false)
        }
        unknownKeys(of: root, allowed: Self.sectionKeys, at: "$")
        for key in Self.sectionKeys.dropFirst() {
            if let section = root[key] { readAppsSection(section, at: jsonPath("$", key)) }
        }
        guard let applinksValue = root["applinks"] else {
            warning(.noApplinks, "the file has no applinks section, so no URL on the domain opens an app", at: "$")
            return AASADocument(hasApplinks: false)
        }
        let at = "$.applinks"
        guard case .object(let applinks) = applinksValue else {
            mismatch(applinksValue, expected: "an object", at: at)
            return AASADocument(hasApplinks: false)
        }
        unknownKeys(of: applinks, allowed: Self.applinksKeys, at: at)
        var document = AASADocument()
        if let apps = applinks["apps"] {
            if case .array(let list) = apps {
                if !list.isEmpty {
                    warning(.appsNotEmpty, "the legacy apps list must be empty ([]); apps are named in details", at: jsonPath(at, "apps"))
                }
            } else {
                mismatch(apps, expected: "an array", at: jsonPath(at, "apps"))
            }
        }
        if let defaults = applinks["defaults"] {
            document.defaults = readOptions(defaults, at: jsonPath(at, "defaults"), isDefaults: true) ?? AASAOptions()
        }
        if let variables = applinks["substitutionVariables"] {
            document.substitutionVariables = readVariables(variables, at: jsonPath(at, "substitutionVariables"))
        }
        switch applinks["details"] {
        case nil:
            warning(.noRules, "applinks has no details, so no URL on the domain opens an app", at: at)
        case .array(let entries)?:
            for (i, entry) in entries.enumerated() {
                if let detail = readDetail(entry, at: "\(at).details[\(i)]", keyedAppID: nil) {
                    document.details.append(detail)
                }
            }
        case .object(let entries)?:
            document.detailsWereDictionary = true
            warning(
                .legacyDetailsDictionary,
                "details is the pre-iOS 13 dictionary keyed by app ID; its order is undefined (TapRoute uses the file's order); write an array of objects with appIDs",
                at: jsonPath(at, "details")
            )
            for (appID, entry) in entries {
                if let detail = readDetail(entry, at: jsonPath(jsonPath(at, "details"), appID), keyedAppID: appID) {
                    document.details.append(detail)
                }
            }
        case let other?:
            mismatch(other, expected: "an array", at: jsonPath(at, "details"))
        }
        return document
    }

    private mutating func readAppsSection(_ value: JSONValue, at: String) {
        guard case .object(let section) = value else {
            mismatch(value, expected: "an object", at: at)
            return
        }
        unknownKeys(of: section, allowed: ["apps"], at: at)
        if let apps = section["apps"] { _ = readStrings(apps, at: jsonPath(at, "apps")) }
    }

    private mutating func readDetail(_ value: JSONValue, at: String, keyedAppID: String?) -> AASADetail? {
        guard case .object(let o) = value else {
            mismatch(value, expected: "an object", at: at)
            return nil
        }
        unknownKeys(of: o, allowed: Self.detailKeys, at: at)
        let errorsBefore = errorCount
        var appIDs: [String] = keyedAppID.map { [$0] } ?? []
        if let v = o["appID"] {
            if case .string(let id) = v { appIDs.append(id) } else { mismatch(v, expected: "a string", at: jsonPath(at, "appID")) }
        }
        if let v = o["appIDs"], let ids = readStrings(v, at: jsonPath(at, "appIDs")) { appIDs += ids }
        if o["appID"] != nil, o["appIDs"] != nil {
            warning(.appIDAndAppIDs, "the entry has both appID and appIDs; it applies to the apps of both", at: at)
        }
        var unique: [String] = []
        var seen: Set<String> = []
        for id in appIDs where seen.insert(id).inserted { unique.append(id) }
        for id in unique where !Self.isWellFormedAppID(id) {
            warning(.malformedAppID, "app ID '\(id)' is not of the form TEAMID.bundle.identifier", at: at)
        }
        if unique.isEmpty, errorCount == errorsBefore {
            warning(.noAppID, "the entry names no app (appIDs), so it applies to none", at: at)
        }
        var detail = AASADetail(appIDs: unique, location: at)
        if let v = o["defaults"] { detail.defaults = readOptions(v, at: jsonPath(at, "defaults"), isDefaults: true) ?? AASAOptions() }
        if let v = o["components"] {
            if case .array(let list) = v {
                var components: [AASAComponent] = []
                for (i, element) in list.enumerated() {
                    if let component = readComponent(element, index: i, at: "\(jsonPath(at, "components"))[\(i)]") {
                        components.append(component)
                    }
                }
                detail.components = components
            } else {
                mismatch(v, expected: "an array", at: jsonPath(at, "components"))
            }
        }
        if let v = o["paths"] {
            if case .array(let list) = v {
                var paths: [AASALegacyPath] = []
                for (i, element) in list.enumerated() {
                    if case .string(let text) = element {
                        paths.append(AASALegacyPath(text, index: i))
                    } else {
                        mismatch(element, expected: "a string", at: "\(jsonPath(at, "paths"))[\(i)]")
                    }
                }
                detail.paths = paths
            } else {
                mismatch(v, expected: "an array", at: jsonPath(at, "paths"))
            }
        }
        if o["components"] == nil, o["paths"] == nil {
            warning(.noRules, "the entry has neither components nor paths, so it matches no URL", at: at)
        }
        if o["components"] != nil, o["paths"] != nil {
            warning(
                .mixedPathsAndComponents,
                "the entry has both paths and components; iOS 13 and later use only components (paths serve iOS 12 and earlier), so TapRoute ignores paths here",
                at: at
            )
        }
        return detail
    }

    private mutating func readComponent(_ value: JSONValue, index: Int, at: String) -> AASAComponent? {
        guard case .object(let o) = value else {
            mismatch(value, expected: "an object", at: at)
            return nil
        }
        unknownKeys(of: o, allowed: Self.componentKeys, at: at)
        let errorsBefore = errorCount
        var component = AASAComponent(index: index)
        component.path = readString(o["/"], at: jsonPath(at, "/"))
        component.fragment = readString(o["#"], at: jsonPath(at, "#"))
        component.comment = readString(o["comment"], at: jsonPath(at, "comment"))
        component.exclude = readBool(o["exclude"], at: jsonPath(at, "exclude")) ?? false
        component.options = AASAOptions(
            caseSensitive: readBool(o["caseSensitive"], at: jsonPath(at, "caseSensitive")),
            percentEncoded: readBool(o["percentEncoded"], at: jsonPath(at, "percentEncoded"))
        )
        switch o["?"] {
        case nil: break
        case .string(let pattern)?: component.query = .whole(pattern)
        case .object(let items)?:
            var patterns: [AASAQueryItemPattern] = []
            var voidedBy: String?
            for (name, v) in items {
                if case .string(let pattern) = v {
                    patterns.append(AASAQueryItemPattern(name: name, pattern: pattern))
                } else if voidedBy == nil {
                    voidedBy = name
                }
            }
            if let voidedBy {
                component.query = .voided(nonStringKey: voidedBy, original: items)
                warning(
                    .queryDictionaryVoided,
                    "query item '\(voidedBy)' has a \(items[voidedBy]?.typeDescription ?? "non-string") value; a value that is not a string makes iOS ignore the whole ? dictionary, so the query is unconstrained",
                    at: jsonPath(at, "?")
                )
            } else {
                component.query = .items(patterns)
            }
        case let other?:
            mismatch(other, expected: "a string or an object", at: jsonPath(at, "?"))
        }
        return errorCount == errorsBefore ? component : nil
    }

    private mutating func readOptions(_ value: JSONValue, at: String, isDefaults: Bool) -> AASAOptions? {
        guard case .object(let o) = value else {
            mismatch(value, expected: "an object", at: at)
            return nil
        }
        for key in o.keys where key != "caseSensitive" && key != "percentEncoded" && key != "comment" {
            if Self.componentKeys.contains(key) {
                warning(
                    .ignoredDefaultsKey,
                    "'\(key)' has no defined meaning in defaults (only caseSensitive and percentEncoded do); it is ignored",
                    at: jsonPath(at, key)
                )
            } else {
                warning(.unknownKey, "unknown key '\(key)'; expected caseSensitive or percentEncoded", at: jsonPath(at, key))
            }
        }
        return AASAOptions(
            caseSensitive: readBool(o["caseSensitive"], at: jsonPath(at, "caseSensitive")),
            percentEncoded: readBool(o["percentEncoded"], at: jsonPath(at, "percentEncoded"))
        )
    }

    private mutating func readVariables(_ value: JSONValue, at: String) -> [AASASubstitutionVariable] {
        guard case .object(let o) = value else {
            mismatch(value, expected: "an object", at: at)
            return []
        }
        var variables: [AASASubstitutionVariable] = []
        for (name, v) in o {
            let here = jsonPath(at, name)
            guard let values = readStrings(v, at: here) else { continue }
            if name.contains(where: { $0 == "$" || $0 == "(" || $0 == ")" }) {
                warning(.invalidVariableName, "variable name '\(name)' contains $, ( or ), so no pattern can use it", at: here)
            }
            if AASAVariables.predefined.contains(name) {
                warning(
                    .shadowsPredefinedVariable,
                    "'\(name)' redefines the predefined $(\(name)); TapRoute uses this definition",
                    at: here
                )
            }
            for (i, text) in values.enumerated() where text.contains("$(") {
                warning(
                    .nestedVariable,
                    "a variable's value cannot use another variable; '$(' is matched literally here",
                    at: "\(here)[\(i)]"
                )
            }
            variables.append(AASASubstitutionVariable(name: name, values: values))
        }
        return variables
    }

    // MARK: Helpers

    private var errorCount: Int { diagnostics.count(where: { $0.severity == .error }) }

    private mutating func error(_ code: AASADiagnostic.Code, _ message: String, at path: String) {
        diagnostics.append(AASADiagnostic(.error, code, message, at: path))
    }

    private mutating func warning(_ code: AASADiagnostic.Code, _ message: String, at path: String) {
        diagnostics.append(AASADiagnostic(.warning, code, message, at: path))
    }

    private mutating func mismatch(_ value: JSONValue, expected: String, at path: String) {
        error(.invalidType, "expected \(expected), got \(value.typeDescription)", at: path)
    }

    private mutating func unknownKeys(of object: JSONObject, allowed: [String], at: String) {
        for key in object.keys where !allowed.contains(key) {
            warning(
                .unknownKey,
                "unknown key '\(key)' is ignored; expected one of: \(allowed.joined(separator: ", "))",
                at: jsonPath(at, key)
            )
        }
    }

    private mutating func readString(_ value: JSONValue?, at path: String) -> String? {
        guard let value else { return nil }
        guard case .string(let s) = value else {
            mismatch(value, expected: "a string", at: path)
            return nil
        }
        return s
    }

    private mutating func readBool(_ value: JSONValue?, at path: String) -> Bool? {
        guard let value else { return nil }
        guard case .bool(let b) = value else {
            mismatch(value, expected: "true or false", at: path)
            return nil
        }
        return b
    }

    private mutating func readStrings(_ value: JSONValue, at path: String) -> [String]? {
        guard case .array(let list) = value else {
            mismatch(value, expected: "an array of strings", at: path)
            return nil
        }
        var out: [String] = []
        for (i, element) in list.enumerated() {
            guard case .string(let s) = element else {
                mismatch(element, expected: "a string", at: "\(path)[\(i)]")
                return nil
            }
            out.append(s)
        }
        return out
    }

    /// `TEAMID.bundle.identifier`: a non-empty team prefix, a dot, a non-empty rest, no spaces.
    static func isWellFormedAppID(_ id: String) -> Bool {
        guard let dot = id.firstIndex(of: "."), dot != id.startIndex, id.index(after: dot) != id.endIndex else { return false }
        return !id.contains(" ")
    }
}

/// `base.key`, or `base["key"]` when the key is not a plain identifier.
package func jsonPath(_ base: String, _ key: String) -> String {
    let plain =
        !key.isEmpty
        && key.utf8.allSatisfy { ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F }
        && !(key.utf8.first.map { $0 >= 0x30 && $0 <= 0x39 } ?? false)
    return plain ? "\(base).\(key)" : "\(base)[\(JSONValue.string(key).jsonString())]"
}
