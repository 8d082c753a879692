public import TapRoute

/// Every single-point mutation of a known-good input, in a fixed order: each member removed,
/// each value emptied, nulled, retyped or replaced by a hostile string, each key respelled,
/// each element dropped — inside strings that hold JSON too.
///
/// Random inputs find a fault on one particular value only by luck; these reach every value
/// of every vector every time, so an adapter that traps when one of its own values is empty
/// (`URL(string: link)!`) is caught on every run, whatever the seed.
public struct Mutation: Sendable, Hashable {
    /// Where and what: `$.userInfo.acme.link = ""`.
    public var description: String
    /// The mutated input.
    public var input: JSONValue

    /// Creates a mutation.
    public init(description: String, input: JSONValue) {
        self.description = description
        self.input = input
    }

    /// Every single-point mutation of `input`, without duplicates and without `input`
    /// itself.
    public static func all(of input: JSONValue) -> [Mutation] {
        var skipped: Set<String> = []
        return all(of: input, skippingRepeatsIn: &skipped)
    }

    /// The mutations of `input` that `done` does not list yet, adding them to it.
    ///
    /// A mutation is known by its place, the value it changes and what it puts there, so
    /// across many vectors that share fields (every DashX push has the same `aps`) each
    /// change of each distinct value is tried once.
    public static func all(of input: JSONValue, skippingRepeatsIn done: inout Set<String>) -> [Mutation] {
        var out: [Mutation] = []
        var seen: Set<JSONValue> = [input]
        mutations(of: input, path: "$", depth: 0) { description, original, mutated in
            guard done.insert(description + "\u{0}" + original.jsonString()).inserted else { return }
            if seen.insert(mutated).inserted {
                out.append(Mutation(description: description, input: mutated))
            }
        }
        return out
    }

    /// Replacements for a string value. Emptiness and whitespace, percent and control
    /// characters, a scheme that is never allowed, and the value cut short.
    private static func replacements(for s: String) -> [(String, JSONValue)] {
        var out: [(String, JSONValue)] = [
            (#""""#, ""), (#"" ""#, " "), (#""%""#, "%"), (#""\u0000""#, "\u{0}"),
            (#""javascript:alert(1)""#, "javascript:alert(1)"),
            ("the value + \"%zz\"", .string(s + "%zz")),
        ]
        let scalars = Array(s.unicodeScalars)
        if scalars.count > 1 {
            var prefix = String.UnicodeScalarView()
            prefix.append(contentsOf: scalars.prefix(scalars.count / 2))
            out.append(("its first half", .string(String(prefix))))
        }
        if let colon = s.firstIndex(of: ":") {
            let scheme = String(s[..<colon])
            out.append(("its scheme only", .string(scheme + ":")))
            out.append(("its scheme + \"://\"", .string(scheme + "://")))
        }
        return out
    }

    /// Calls `emit` with each mutation of `value`, which sits at `path` of the whole input:
    /// what it is, the value it changes, and the whole input changed (each caller's frame
    /// puts the mutated value back into its container).
    private static func mutations(of value: JSONValue, path: String, depth: Int, emit: (String, JSONValue, JSONValue) -> Void) {
        guard depth < 24 else { return }
        switch value {
        case .object(let o):
            emit("\(path) = {}", value, .object([:]))
            emit("\(path) = []", value, .array([]))
            for (key, member) in o {
                let memberPath = path + "." + key
                var removed = o
                removed.removeValue(forKey: key)
                emit("\(memberPath) removed", member, .object(removed))
                let respelled = key.uppercased() == key ? key.lowercased() : key.uppercased()
                if respelled != key, o[respelled] == nil {
                    var renamed = JSONObject()
                    for (k, v) in o { renamed[k == key ? respelled : k] = v }
                    emit("\(memberPath) renamed \(respelled)", member, .object(renamed))
                }
                mutations(of: member, path: memberPath, depth: depth + 1) { description, original, mutated in
                    var copy = o
                    copy[key] = mutated
                    emit(description, original, .object(copy))
                }
            }
        case .array(let a):
            emit("\(path) = []", value, .array([]))
            emit("\(path) = {}", value, .object([:]))
            for (i, element) in a.enumerated() {
                var removed = a
                removed.remove(at: i)
                emit("\(path)[\(i)] removed", element, .array(removed))
                mutations(of: element, path: "\(path)[\(i)]", depth: depth + 1) { description, original, mutated in
                    var copy = a
                    copy[i] = mutated
                    emit(description, original, .array(copy))
                }
            }
        case .string(let s):
            emit("\(path) = null", value, .null)
            emit("\(path) = 0", value, .number(JSONNumber(0)))
            emit("\(path) = {}", value, .object([:]))
            if let inner = embeddedJSON(s) {
                emit("\(path) = \"{\"", value, "{")
                mutations(of: inner, path: path + "(json)", depth: depth + 1) { description, original, mutated in
                    emit(description, original, .string(mutated.jsonString()))
                }
            } else {
                for (description, replacement) in replacements(for: s) {
                    emit("\(path) = \(description)", value, replacement)
                }
            }
        case .number(let n):
            emit("\(path) = null", value, .null)
            emit("\(path) = \"\(n.text)\"", value, .string(n.text))
            emit("\(path) = -1", value, .number(JSONNumber(-1)))
            emit("\(path) = 1e999999", value, .number(JSONNumber(text: "1e999999")!))
            emit("\(path) = 0.5", value, .number(JSONNumber(0.5)))
        case .bool(let b):
            emit("\(path) = null", value, .null)
            emit("\(path) = \(!b)", value, .bool(!b))
            emit("\(path) = \"\(b)\"", value, .string(String(b)))
            emit("\(path) = 1", value, .number(JSONNumber(1)))
        case .null:
            emit("\(path) = \"\"", value, "")
            emit("\(path) = {}", value, .object([:]))
        }
    }
}
