import Foundation

extension JSONValue {
    /// Converts a property-list style value — what `UNNotificationContent.userInfo`,
    /// `launchOptions` and `JSONSerialization` hand over — into a `JSONValue`.
    ///
    /// Strings, Booleans, integers, floating-point numbers, `NSNumber`, `NSNull`, arrays and
    /// dictionaries (`[String: Any]` or `[AnyHashable: Any]`) convert; dictionary keys that
    /// are not strings are written with their description. `Date` becomes an ISO 8601 string
    /// and `Data` a base64 string, as a push payload cannot contain either.
    /// Returns `nil` for any other type.
    public init?(any value: Any) {
        switch value {
        case let v as JSONValue: self = v
        case let s as String: self = .string(s)
        case let s as Substring: self = .string(String(s))
        case let n as NSNumber:
            if let b = JSONValue.booleanIfBoxed(n) {
                self = .bool(b)
            } else if CFNumberIsFloatTypeCompat(n) {
                self = .number(JSONNumber(n.doubleValue))
            } else {
                self = .number(JSONNumber(text: n.stringValue) ?? JSONNumber(Int(truncatingIfNeeded: n.int64Value)))
            }
        case let b as Bool: self = .bool(b)
        case let i as Int: self = .number(JSONNumber(i))
        case let d as Double: self = .number(JSONNumber(d))
        case is NSNull: self = .null
        case let array as [Any]:
            var out: [JSONValue] = []
            out.reserveCapacity(array.count)
            for element in array {
                guard let converted = JSONValue(any: element) else { return nil }
                out.append(converted)
            }
            self = .array(out)
        case let dictionary as [String: Any]:
            guard let object = JSONObject(userInfo: dictionary) else { return nil }
            self = .object(object)
        case let dictionary as [AnyHashable: Any]:
            guard let object = JSONObject(userInfo: dictionary) else { return nil }
            self = .object(object)
        case let date as Date: self = .string(ISO8601DateFormatter().string(from: date))
        case let data as Data: self = .string(data.base64EncodedString())
        default: return nil
        }
    }

    /// `true`/`false` when `number` boxes a Boolean rather than a number.
    private static func booleanIfBoxed(_ number: NSNumber) -> Bool? {
        #if canImport(Darwin)
            if CFGetTypeID(number) == CFBooleanGetTypeID() { return number.boolValue }
            return nil
        #else
            let type = String(cString: number.objCType)
            return type == "c" || type == "B" ? number.boolValue : nil
        #endif
    }
}

@inline(__always)
private func CFNumberIsFloatTypeCompat(_ number: NSNumber) -> Bool {
    let type = String(cString: number.objCType)
    return type == "d" || type == "f"
}

extension JSONObject {
    /// Converts a notification's `userInfo` (or any `[AnyHashable: Any]`) into an object.
    ///
    /// Keys keep the dictionary's iteration order, which Foundation does not define; sort
    /// afterwards if you need a fixed order. Returns `nil` when a value has no JSON form
    /// (see ``JSONValue/init(any:)``).
    public init?(userInfo: [AnyHashable: Any]) {
        var members: [(String, JSONValue)] = []
        members.reserveCapacity(userInfo.count)
        for (key, value) in userInfo {
            guard let converted = JSONValue(any: value) else { return nil }
            members.append((key.base as? String ?? String(describing: key.base), converted))
        }
        self.init(members)
    }

    /// Converts a `[String: Any]` dictionary into an object.
    public init?(userInfo: [String: Any]) {
        var members: [(String, JSONValue)] = []
        members.reserveCapacity(userInfo.count)
        for (key, value) in userInfo {
            guard let converted = JSONValue(any: value) else { return nil }
            members.append((key, converted))
        }
        self.init(members)
    }
}

extension JSONValue: Codable {
    /// Decodes any JSON value (object key order follows the decoder's, which Foundation's
    /// `JSONDecoder` does not preserve; use ``JSONParser`` when order matters).
    public init(from decoder: any Decoder) throws {
        if let container = try? decoder.container(keyedBy: AnyKey.self) {
            var object = JSONObject()
            for key in container.allKeys {
                object[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
            }
            self = .object(object)
            return
        }
        if var container = try? decoder.unkeyedContainer() {
            var array: [JSONValue] = []
            while !container.isAtEnd { array.append(try container.decode(JSONValue.self)) }
            self = .array(array)
            return
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let b = try? container.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? container.decode(Int.self) {
            self = .number(JSONNumber(i))
        } else if let d = try? container.decode(Double.self) {
            self = .number(JSONNumber(d))
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    /// Encodes the value; objects are encoded in key order where the encoder keeps it.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var c = encoder.singleValueContainer()
            try c.encodeNil()
        case .bool(let b):
            var c = encoder.singleValueContainer()
            try c.encode(b)
        case .number(let n):
            var c = encoder.singleValueContainer()
            if let i = n.intValue { try c.encode(i) } else { try c.encode(n.doubleValue) }
        case .string(let s):
            var c = encoder.singleValueContainer()
            try c.encode(s)
        case .array(let a):
            var c = encoder.unkeyedContainer()
            for element in a { try c.encode(element) }
        case .object(let o):
            var c = encoder.container(keyedBy: AnyKey.self)
            for (key, value) in o { try c.encode(value, forKey: AnyKey(key)) }
        }
    }
}

private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { return nil }
}
