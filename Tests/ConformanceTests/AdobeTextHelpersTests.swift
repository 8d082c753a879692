import TapRouteTestSupport
import Testing

@testable import AdobeAdapter

/// Adobe's click-URL text helpers read bytes when the text is ASCII; they must give what their
/// definitions (`String` operations on `Character`s) give, on generated text.
@Suite struct AdobeTextHelpersTests {
    @Test func helpersAgreeWithTheirDefinitions() {
        let pieces = [
            ",", "+", "a", "messageId", "messag", "mm", "é", "e\u{301}", "+\u{301}", ",\u{301}", "123", "%2C", " ", "3", "4", "5", "6",
            "34",
        ]
        var generator = SplitMix64(seed: 11)
        var trackedCount = 0
        for _ in 0..<5_000 {
            var text = ""
            for _ in 0..<generator.below(9) { text += pieces[generator.below(pieces.count)] }
            #expect(AdobeAdapter.splitOnComma(text) == text.split(separator: ",", omittingEmptySubsequences: false), "\(text)")
            let bytes = Array(text.utf8)
            let token = Array("messageId".utf8)
            let holdsToken =
                bytes.count >= token.count && (0...(bytes.count - token.count)).contains { Array(bytes[$0..<($0 + token.count)]) == token }
            #expect(AdobeAdapter.containsToken(text) == holdsToken, "\(text)")
            #expect(AdobeAdapter.containsPlus(Substring(text)) == text.contains("+"), "\(text)")
            #expect(AdobeAdapter.isASCII(text) == text.utf8.allSatisfy { $0 < 0x80 })
            let tokens = text.split(separator: ",", omittingEmptySubsequences: false)
            let tracked = tokens.count == 3 && ["3", "4", "5"].contains(tokens[2])
            let id = AdobeAdapter.trackedCampaignID(text)
            #expect((id != nil) == tracked, "\(text)")
            if tracked { trackedCount += 1 }
            if let id, tracked {
                #expect([id.broadlogId, id.deliveryId, id.tag] == tokens.map(String.init), "\(text)")
            }
            let key = ["adb_", "adb", "ad", "b_", "_", "é", "\u{301}", "x", "adb_\u{301}"][generator.below(9)] + text
            #expect(AdobeAdapter.hasReservedPrefix(key) == key.hasPrefix("adb_"), "\(key)")
        }
        // Campaign ids: broadlogId,deliveryId,tag, and near misses.
        let tokens = ["", "438200", "999bc6", "é", "e\u{301}", "a,b", "3", "5", "6", "34", "3\u{301}", ",\u{301}", " 4"]
        for _ in 0..<5_000 {
            let text = (0..<3).map { _ in tokens[generator.below(tokens.count)] }.joined(separator: ",")
            let split = text.split(separator: ",", omittingEmptySubsequences: false)
            let tracked = split.count == 3 && ["3", "4", "5"].contains(split[2])
            if tracked { trackedCount += 1 }
            let id = AdobeAdapter.trackedCampaignID(text)
            #expect((id != nil) == tracked, "\(text)")
            if let id, tracked {
                #expect([id.broadlogId, id.deliveryId, id.tag] == split.map(String.init), "\(text)")
            }
        }
        #expect(trackedCount > 500, "only \(trackedCount) tracked ids")
    }
}
