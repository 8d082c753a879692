import TapRouteTestSupport
import Testing

@testable import AdobeAdapter

/// Adobe's click-URL text helpers read bytes when the text is ASCII; they must give what their
/// definitions (`String` operations on `Character`s) give, on generated text.
@Suite struct AdobeTextHelpersTests {
    @Test func helpersAgreeWithTheirDefinitions() {
        let pieces = [",", "+", "a", "messageId", "messag", "mm", "é", "e\u{301}", "+\u{301}", ",\u{301}", "123", "%2C", " "]
        var generator = SplitMix64(seed: 11)
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
        }
    }
}
