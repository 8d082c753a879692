import FuzzSupport
import TapRoute

/// The custom-scheme URLs vendors define, through their adapters as `url` envelopes: Adobe's
/// in-app click links (`adbinapp://confirm/?id=…&url=…`, `adbinapp://cancel?id=…`,
/// `adbinapp://dismiss?link=…`) and TapTalk's chat links (`taptalkio://<room>`,
/// `taptalkio://room/<id>`, `https://web.taptalk.io/chat/<id>` as a universal link).
///
/// The input is the text after the scheme (the fuzzer mutates hosts, paths, queries and
/// escapes), tried behind each vendor prefix, and as a whole URL; each goes through the
/// registry by detection, and with the vendor named in the envelope, and every result must
/// pass ``FuzzSupport``'s checks.
@_cdecl("LLVMFuzzerTestOneInput")
public func vendorURLFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = FuzzSupport.text(data, size)
    let candidates: [(url: String, vendor: String)] = [
        ("adbinapp://" + text, "adobe"),
        ("taptalkio://" + text, "taptalk"),
        ("https://web.taptalk.io/" + text, "taptalk"),
        (text, "adobe"),
        (text, "taptalk"),
    ]
    for (url, vendor) in candidates {
        let detected = FuzzSupport.normalizeChecked(["kind": "url", "url": .string(url)])
        let named = FuzzSupport.normalizeChecked(["kind": "url", "url": .string(url), "vendor": .string(vendor)])
        // Naming the vendor that detection picked changes nothing.
        if let detected, detected.vendor == vendor, named != detected {
            FuzzSupport.fail("url '\(url)': naming vendor \(vendor) gives another Interaction than detecting it")
        }
    }
    // A universal link arrives as a browsing-web user activity too.
    FuzzSupport.normalizeChecked([
        "kind": "userActivity", "activityType": "NSUserActivityTypeBrowsingWeb",
        "webpageURL": .string("https://web.taptalk.io/" + text),
    ])
    return 0
}
