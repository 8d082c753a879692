import TapRouteTestSupport
import Testing

@testable import TapRoute

/// An envelope's members are told apart by their keys' exact bytes, and a notification's
/// `origin` by its name's: read from a short key's own two words where the key is held that
/// way (`EnvelopeMember(key:)`), and compared by bytes rather than by a `switch` over strings.
/// Checked here against a list of the names written out apart from the code, for every key a
/// byte away from a member's, for keys held in the string's storage rather than its words,
/// and through both ways of reading a record.
@Suite struct EnvelopeMemberKeyTests {
    /// The members' keys, written apart from `EnvelopeMember.key`.
    static let names: [(key: String, member: EnvelopeMember)] = [
        ("userInfo", .userInfo), ("action", .action), ("origin", .origin), ("url", .url), ("messageId", .messageId),
        ("activityType", .activityType), ("webpageURL", .webpageURL), ("message", .message), ("event", .event),
        ("phase", .phase), ("vendor", .vendor), ("automaticallyOpenDeeplinks", .automaticallyOpenDeeplinks),
    ]

    /// The member whose key has exactly the bytes of `key`, by the list.
    static func expected(_ key: [UInt8]) -> EnvelopeMember? {
        names.first { Array($0.key.utf8) == key }?.member
    }

    /// `bytes` as a string held in its own storage, not in its two words, whatever its length.
    static func stored(_ bytes: [UInt8]) -> String {
        var text = String()
        text.reserveCapacity(64)
        text += String(decoding: bytes, as: UTF8.self)
        return text
    }

    /// Every key one byte away from a member's (each byte replaced by a letter of the other
    /// case, a digit, a space, a DEL or a non-ASCII letter; one byte left off either end; one
    /// added), the members' keys themselves, and keys of the lengths the members' keys have.
    static func keys() -> [[UInt8]] {
        var keys: [[UInt8]] = [[], Array("kind".utf8), Array("é".utf8), Array("userInfó".utf8), Array("ürl".utf8)]
        for (name, _) in names {
            let bytes = Array(name.utf8)
            keys.append(bytes)
            keys.append(Array(bytes.dropFirst()))
            keys.append(Array(bytes.dropLast()))
            keys.append(bytes + [UInt8(ascii: "s")])
            keys.append([UInt8(ascii: "_")] + bytes)
            for i in bytes.indices {
                for replacement in [bytes[i] ^ 0x20, UInt8(ascii: "0"), 0x20, 0x7F] {
                    var changed = bytes
                    changed[i] = replacement
                    keys.append(changed)
                }
                var accented = bytes
                accented.replaceSubrange(i...i, with: Array("é".utf8))
                keys.append(accented)
            }
        }
        return keys
    }

    @Test func everyKeyIsItsMemberExactly() {
        var checked = 0
        for key in Self.keys() {
            let want = Self.expected(key)
            let small = String(decoding: key, as: UTF8.self)
            #expect(EnvelopeMember(key: small) == want, "\(small)")
            #expect(EnvelopeMember(key: Self.stored(key)) == want, "\(small), held in storage")
            checked += 1
        }
        #expect(checked > 500)
        // Every member's own key, as the enumeration spells it.
        for (_, member) in Self.names {
            #expect(EnvelopeMember(key: member.key) == member)
        }
    }

    /// What reading `record` gives, by members and from the whole object: the event's JSON or
    /// the error's code and path.
    static func outcomes(_ record: String) -> (members: String, whole: String) {
        let reader = RecordReader(limits: Limits())
        func outcome(_ read: () throws(NormalizationError) -> InputEvent) -> String {
            do throws(NormalizationError) {
                return try read().jsonValue.jsonString()
            } catch {
                return "\(error.code.rawValue) at \(error.path)"
            }
        }
        let bytes = Array(record.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            (
                outcome { () throws(NormalizationError) in try reader.readEvent(buffer) },
                outcome { () throws(NormalizationError) in try InputEvent(json: reader.read(buffer)) }
            )
        }
    }

    @Test func aKeyAByteAwayFromAMemberIsNotThatMember() {
        for key in Self.keys() {
            let name = JSONValue.string(String(decoding: key, as: UTF8.self)).jsonString()
            let record = #"{"kind":"url","url":"myapp://a","# + name + #":"dashx"}"#
            let (members, whole) = Self.outcomes(record)
            #expect(members == whole, "\(record)")
            // Only `vendor` itself names the vendor.
            let bytes = Array(record.utf8)
            let event = bytes.withUnsafeBufferPointer { try? InputEvent(json: RecordReader(limits: Limits()).read($0)) }
            #expect((event?.vendor == "dashx") == (Self.expected(key) == .vendor), "\(record)")
        }
    }

    @Test(
        arguments: [
            ("remote", "remote"), ("local", "local"), ("Remote", nil), ("remotE", nil), ("remote ", nil), (" local", nil),
            ("loca", nil), ("locals", nil), ("lócal", nil), ("", nil), ("r\\u0065mote", "remote"), ("LOCAL", nil),
        ] as [(String, String?)]
    )
    func anOriginIsItsExactName(name: String, origin: String?) throws {
        let record = #"{"kind":"notification","userInfo":{},"origin":""# + name + #""}"#
        let (members, whole) = Self.outcomes(record)
        #expect(members == whole)
        if let origin {
            #expect(members.contains(#""origin":""# + origin + #"""#), "\(members)")
        } else {
            #expect(members == "invalidEnvelope at $.origin", "\(members)")
        }
    }
}
