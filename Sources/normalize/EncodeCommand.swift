import ArgumentParser
import Foundation
import NormalizeCore
import TapRoute

/// `normalize encode --vendor ID [FILE…]`: write each message as the vendor's payload.
struct EncodeMessages: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encode",
        abstract: "Write each message as the payload a vendor's SDK receives (docs/encode.md).",
        discussion: """
            Each FILE is a message document (one message, or an array of messages) or, with --lines \
            or a .jsonl/.ndjson name, JSON Lines (one message per line; blank lines are skipped). \
            '-' or no FILE reads standard input. Output is one JSON object per message, in input \
            order: a push's device payload (the notification's userInfo, which `normalize` reads back), \
            the envelope for other kinds of payload, or {"error":{…}} naming the code, the vendor, \
            the message field at fault and the line. Every record (a line, an array element, a \
            document that is not an array) is held to limits.maxRecordBytes and limits.maxDepth, \
            as for normalizing. The exit status is 1 when a message could not be encoded, 2 when \
            an input could not be read.
            """
    )

    @OptionGroup var options: ConfigurationOptions

    @Option(name: .long, help: ArgumentHelp("The adapter whose payload to write.", valueName: "id"))
    var vendor: String

    @Option(
        name: .long,
        help: ArgumentHelp(
            "What to do with a screen the vendor cannot name: 'error' (default) or 'route' (the URL of the configuration's route to it).",
            valueName: "error|route"
        )
    )
    var screens = "error"

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Add \"Simulator Target Bundle\" so the payload can go to `xcrun simctl push booted FILE`.",
            valueName: "bundle id"
        )
    )
    var simulator: String?

    @Flag(name: .long, help: "Read JSON Lines: one message per line.")
    var lines = false

    @Flag(name: .long, help: "Indent the output JSON.")
    var pretty = false

    @Argument(help: ArgumentHelp("Message files; '-' or none for standard input.", valueName: "file"))
    var files: [String] = []

    func validate() throws {
        if vendor.isEmpty { throw ValidationError("--vendor needs an adapter id") }
        if let simulator, simulator.isEmpty { throw ValidationError("--simulator needs the app's bundle id") }
        if EncodeOptions.ScreenFallback(rawValue: screens) == nil {
            throw ValidationError("--screens must be 'error' or 'route', not '\(screens)'")
        }
    }

    func run() throws {
        let registry = try options.loadRegistry()
        guard registry.adapters.contains(where: { $0.id == vendor }) else {
            let enabled = registry.adapters.map(\.id).joined(separator: ", ")
            throw ValidationError("--vendor: no enabled adapter has id '\(vendor)'; enabled: \(enabled)")
        }
        guard registry.canEncode(vendor: vendor) else {
            let encoders = registry.adapters.map(\.id).filter { registry.canEncode(vendor: $0) }
            throw ValidationError(
                "--vendor: adapter '\(vendor)' cannot encode messages; these can: \(encoders.isEmpty ? "none" : encoders.joined(separator: ", "))"
            )
        }
        let encoder = RecordEncoder(
            vendor: vendor,
            options: EncodeOptions(screens: EncodeOptions.ScreenFallback(rawValue: screens) ?? .error),
            simulator: simulator
        )
        let processor = RecordProcessor(registry: registry, vendor: nil, pretty: pretty, encoder: encoder)
        try processInputs(files, lines: lines, jobs: ProcessInfo.processInfo.activeProcessorCount, quiet: false, with: processor)
    }
}
