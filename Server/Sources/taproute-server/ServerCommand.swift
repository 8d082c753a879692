import ArgumentParser
import Foundation
import Logging
import Metrics
import ServiceLifecycle
import TapRoute
import TapRouteServer

/// `taproute-server`: the HTTP service normalizing vendor payloads into Interactions.
@main
struct ServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "taproute-server",
        abstract: "Serve TapRoute over HTTP: POST /v1/normalize, POST /v1/encode, GET /healthz, GET /metrics."
    )

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0: any free port; the bound port is logged).")
    var port = 8080

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The registry configuration (YAML).",
            discussion: "Without it, ./config.yaml is read when present, else the embedded default configuration.",
            valueName: "file"
        )
    )
    var config: String?

    @Option(help: "The longest body of a single JSON envelope or message, in bytes (413 beyond).")
    var maxBodyBytes = 1 << 20

    @Option(help: "The longest JSON line, in bytes (default: the configuration's limits.maxRecordBytes).")
    var maxRecordBytes: Int?

    @Option(help: "The most requests handled at once; more are answered 503.")
    var maxConcurrentRequests = 256

    @Option(help: "Threads normalizing one JSON Lines request (default: the number of processors).")
    var jobs = 0

    @Option(help: "The largest request header field, in bytes.")
    var maxHeaderFieldBytes = 16 << 10

    @Option(help: "The largest request header block, in bytes.")
    var maxHeaderBytes = 64 << 10

    @Option(help: "The most request header fields.")
    var maxHeaderFields = 100

    @Option(help: "Seconds an idle connection is kept open (0: forever).")
    var idleTimeout = 60

    @Option(help: "The log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel = "info"

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0...65535, not \(port)") }
        guard maxBodyBytes > 0 else { throw ValidationError("--max-body-bytes must be positive") }
        if let maxRecordBytes, maxRecordBytes <= 0 { throw ValidationError("--max-record-bytes must be positive") }
        guard maxConcurrentRequests > 0 else { throw ValidationError("--max-concurrent-requests must be positive") }
        guard jobs >= 0 else { throw ValidationError("--jobs must be 0 (the processors) or more") }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical")
        }
    }

    func run() async throws {
        let level = Logger.Level(rawValue: logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "taproute-server")
        let registry: AdapterRegistryAndName
        do {
            registry = try TapRouteServer.loadRegistry(configPath: config)
        } catch {
            FileHandle.standardError.write(Data((error.description + "\n").utf8))
            throw ExitCode(2)
        }
        logger.info("configuration", metadata: ["file": "\(registry.1)"])
        let metrics = ServerMetrics()
        MetricsSystem.bootstrap(metrics.metricsFactory)
        let options = ServerOptions(
            host: host,
            port: port,
            configPath: config,
            limits: ServiceLimits(
                maxBodyBytes: maxBodyBytes,
                maxRecordBytes: maxRecordBytes,
                maxConcurrentRequests: maxConcurrentRequests,
                parallelism: jobs
            ),
            maxHeaderFieldBytes: maxHeaderFieldBytes,
            maxHeaderListBytes: maxHeaderBytes,
            maxHeaderFields: maxHeaderFields,
            idleTimeoutSeconds: idleTimeout > 0 ? idleTimeout : nil
        )
        let app = TapRouteServer.makeApplication(registry: registry.0, options: options, metrics: metrics, logger: logger)
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [app],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
        try await group.run()
    }
}

typealias AdapterRegistryAndName = (AdapterRegistry, String)
