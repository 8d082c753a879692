import FuzzSupport
import TapRoute
import TapRouteAdapters
import TapRouteYAML

/// Envelopes that reach every adapter and the policy (routes, schemes, hosts, AASA rules),
/// normalized with each configuration the fuzzer finds acceptable.
private let probes: [JSONValue] = [
    ["kind": "url", "url": "campaigndemoapp://products/42?ref=push"],
    ["kind": "url", "url": "https://web.taptalk.io/chat/room-1"],
    ["kind": "url", "url": "taptalkio://room/7"],
    ["kind": "url", "url": "adbinapp://confirm/?id=h1,d1,3&url=https%3A%2F%2Fexample.com%2Fa"],
    ["kind": "url", "url": "javascript:alert(1)"],
    ["kind": "userActivity", "activityType": "NSUserActivityTypeBrowsingWeb", "webpageURL": "https://example.com/e/1"],
    [
        "kind": "notification",
        "userInfo": ["aps": ["alert": "x"], "dashx": #"{"id":"1","title":"t","body":"b","url":"https://example.com/x"}"#],
    ],
    ["kind": "notification", "userInfo": ["adb_uri": "campaigndemoapp://products/1", "_xdm": ["cjm": [:]]], "action": "b1"],
    ["kind": "vendorEvent", "event": ["type": "Tap", "action": ["type": "URL", "uri": "https://example.com/bird"]]],
]

/// YAML text → `YAMLConfiguration.parse` → `AdapterRegistry`: a configuration error is a
/// typed ``ConfigurationError`` with a message, never a crash; a configuration that loads
/// builds a registry or says why not, and that registry's answers to the probes pass
/// ``FuzzSupport``'s checks.
///
/// The harness runs in a scratch directory (scripts/fuzz.sh), so relative `app.aasa` paths
/// name nothing.
@_cdecl("LLVMFuzzerTestOneInput")
public func configurationFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let yaml = FuzzSupport.text(data, size)
    let configuration: Configuration
    do {
        configuration = try YAMLConfiguration.parse(yaml: yaml, file: "fuzz.yaml")
    } catch {
        if error.message.isEmpty { FuzzSupport.fail("a configuration error without a message: \(error)") }
        return 0
    }
    let registry: AdapterRegistry
    do {
        registry = try AdapterRegistry(
            configuration: configuration,
            adapterTypes: AdapterRegistry.builtInAdapterTypes,
            definitions: AdapterRegistry.builtInDefinitions()
        )
    } catch {
        if error.message.isEmpty { FuzzSupport.fail("a registry error without a message: \(error)") }
        return 0
    }
    for probe in probes {
        FuzzSupport.normalizeChecked(probe, registry: registry)
    }
    return 0
}
