import FuzzerDriver
public import TapRoute
import TapRouteAdapters
import TapRouteYAML

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the libFuzzer harnesses under `Fuzz/` share: the registry they feed, and the
/// invariants every result must hold. A broken invariant ends the run like a crash
/// (libFuzzer saves the input as `crash-…`), so the fuzzer hunts wrong answers as well as
/// traps. `docs/reliability.md` lists the harnesses and how to run them.
public enum FuzzSupport {
    /// The registry `normalize` uses without a `config.yaml`: every built-in adapter, the
    /// embedded default configuration.
    public static let registry: AdapterRegistry = {
        do {
            let configuration = try YAMLConfiguration.parse(yaml: DefaultConfiguration.yaml, file: "<embedded config.yaml>")
            return try AdapterRegistry(
                configuration: configuration,
                adapterTypes: AdapterRegistry.builtInAdapterTypes,
                definitions: AdapterRegistry.builtInDefinitions()
            )
        } catch {
            fail("the embedded default configuration does not load: \(error)")
        }
    }()

    /// Reports a broken invariant on standard error and aborts, so that libFuzzer records
    /// the input that caused it.
    public static func fail(_ message: String) -> Never {
        let text = "TapRoute fuzz invariant broken: \(message)\n"
        var bytes = Array(text.utf8)
        _ = write(2, &bytes, bytes.count)
        abort()
    }

    /// Normalizes an envelope with `registry` and checks everything that must hold for the
    /// result, whatever the input: an error is typed, has a message and a `$` path; an
    /// Interaction's destinations pass the URL safety rules, its JSON text parses back to
    /// the same value and Interaction, and normalizing again gives the same JSON.
    @discardableResult
    public static func normalizeChecked(_ input: JSONValue, registry: AdapterRegistry = registry) -> Interaction? {
        let first = Result { () throws(NormalizationError) -> Interaction in try registry.normalize(json: input) }
        let second = Result { () throws(NormalizationError) -> Interaction in try registry.normalize(json: input) }
        switch (first, second) {
        case (.success(let interaction), .success(let again)):
            let text = interaction.jsonString()
            if again.jsonString() != text {
                fail("normalizing twice differs:\n\(text)\n\(again.jsonString())")
            }
            checkInteraction(interaction, registry: registry)
            return interaction
        case (.failure(let error), .failure(let again)):
            if error != again { fail("normalizing twice gives different errors: \(error) / \(again)") }
            checkError(error)
            return nil
        default:
            fail("normalizing twice differs: \(first) / \(second)")
        }
    }

    /// Checks an error's form: a message and a JSONPath-like path starting at `$`.
    public static func checkError(_ error: NormalizationError) {
        if error.message.isEmpty { fail("an error without a message: \(error)") }
        if !error.path.hasPrefix("$") { fail("an error path that does not start at $: \(error)") }
        if error.code.rawValue.isEmpty { fail("an error without a code: \(error)") }
    }

    /// Checks an Interaction that the registry produced: safe destinations and a JSON round
    /// trip.
    public static func checkInteraction(_ interaction: Interaction, registry: AdapterRegistry = registry) {
        for destination in [interaction.destination] + interaction.buttons.map(\.destination) {
            let url: String?
            switch destination {
            case .url(let u, _): url = u
            case .screen(_, _, let u): url = u
            default: url = nil
            }
            guard let url else { continue }
            do {
                _ = try registry.policy.safety.check(url)
            } catch {
                fail("destination url '\(url)' \(error.reason) but was not rejected:\n\(interaction.jsonString())")
            }
        }
        let text = interaction.jsonString()
        do {
            let parsed = try JSONValue(parsing: text)
            if parsed != interaction.jsonValue { fail("the output JSON parses back to another value:\n\(text)") }
            let decoded = try Interaction(jsonValue: parsed)
            if decoded != interaction { fail("the output JSON decodes to another Interaction:\n\(text)\n\(decoded.jsonString())") }
        } catch {
            fail("the output JSON does not decode (\(error)):\n\(text)")
        }
    }

    /// Checks that a parsed JSON value survives writing and parsing again unchanged.
    public static func checkJSONRoundTrip(_ value: JSONValue) {
        let text = value.jsonString()
        do {
            let again = try JSONParser(maximumDepth: Limits.depthCeiling).parse(text)
            if again != value { fail("JSON text parses back to another value:\n\(text.prefix(2000))") }
        } catch {
            fail("written JSON does not parse (\(error)):\n\(text.prefix(2000))")
        }
    }

    /// The input bytes as text; invalid UTF-8 becomes U+FFFD, as a reader of the text would
    /// see it.
    public static func text(_ data: UnsafePointer<UInt8>?, _ size: Int) -> String {
        String(decoding: bytes(data, size), as: UTF8.self)
    }

    /// The input bytes as a buffer (empty for a null pointer).
    public static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> UnsafeBufferPointer<UInt8> {
        guard let data, size > 0 else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: data, count: size)
    }
}

extension FuzzSupport {
    /// Runs libFuzzer's driver with the process's arguments (a harness's `main.swift` calls
    /// this; see `FuzzerDriver.h` for why a harness has a `main`).
    public static func main() -> Never {
        exit(taproute_fuzzer_main(CommandLine.argc, CommandLine.unsafeArgv))
    }
}
