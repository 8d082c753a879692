import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle
import TapRoute
import TapRouteAdapters
import TapRouteYAML

/// What the server is started with: where it listens, its configuration file and its limits.
public struct ServerOptions: Sendable {
    /// The address to listen on.
    public var host: String
    /// The port to listen on; `0` picks any free port (reported by `onListening`).
    public var port: Int
    /// The configuration file; `nil`: `./config.yaml` when present, else the embedded default.
    public var configPath: String?
    /// The request and record limits.
    public var limits: ServiceLimits
    /// The largest request header field, in bytes.
    public var maxHeaderFieldBytes: Int
    /// The largest request header block (all fields), in bytes.
    public var maxHeaderListBytes: Int
    /// The most request header fields.
    public var maxHeaderFields: Int
    /// How long a connection may stay idle before it is closed; `nil`: never.
    public var idleTimeoutSeconds: Int?

    /// Options with the documented defaults: `127.0.0.1:8080`, the CLI's configuration lookup,
    /// ``ServiceLimits``' defaults, 16 KiB header fields, 64 KiB of headers, 100 fields, and a
    /// 60-second idle timeout.
    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        configPath: String? = nil,
        limits: ServiceLimits = ServiceLimits(),
        maxHeaderFieldBytes: Int = 16 << 10,
        maxHeaderListBytes: Int = 64 << 10,
        maxHeaderFields: Int = 100,
        idleTimeoutSeconds: Int? = 60
    ) {
        self.host = host
        self.port = port
        self.configPath = configPath
        self.limits = limits
        self.maxHeaderFieldBytes = maxHeaderFieldBytes
        self.maxHeaderListBytes = maxHeaderListBytes
        self.maxHeaderFields = maxHeaderFields
        self.idleTimeoutSeconds = idleTimeoutSeconds
    }
}

/// Builds and runs the HTTP service.
public enum TapRouteServer {
    /// The registry for the configuration at `path` — or, when `path` is `nil`,
    /// `./config.yaml` when present, else the embedded default — with every built-in adapter
    /// and definition, exactly as the `normalize` CLI loads it. Returns the registry and the
    /// configuration's name.
    /// - Throws: `ConfigurationLoadError` (from TapRouteYAML), as the CLI reports it.
    public static func loadRegistry(configPath path: String?) throws(ConfigurationLoadError) -> (AdapterRegistry, String) {
        let location = ConfigurationLocation.locate(explicitPath: path)
        let configuration = try location.load(embedded: Configuration.embeddedDefault)
        do throws(ConfigurationError) {
            return (try AdapterRegistry.builtIn(configuration: configuration), location.name)
        } catch {
            throw location.failure(error)
        }
    }

    /// The Hummingbird application serving `registry` under `options`; `onListening` is called
    /// with the bound host and port once the server accepts connections.
    public static func makeApplication(
        registry: AdapterRegistry,
        options: ServerOptions,
        metrics: ServerMetrics,
        logger: Logger,
        onListening: @escaping @Sendable (_ host: String, _ port: Int) async -> Void = { _, _ in }
    ) -> some ApplicationProtocol {
        let responder = TapRouteResponder(registry: registry, limits: options.limits, metrics: metrics, logger: logger)
        let decoder = HTTP1Channel.Configuration.DecoderConfiguration(
            maxHeaderFieldSize: options.maxHeaderFieldBytes,
            maxHeaderListSize: options.maxHeaderListBytes,
            maxHeaderFieldCount: options.maxHeaderFields
        )
        let http = HTTP1Channel.Configuration(
            additionalChannelHandlers: [ExpectContinueHandler()],
            idleTimeout: options.idleTimeoutSeconds.map { .seconds(Int64($0)) },
            httpDecoderConfiguration: decoder
        )
        return Application(
            responder: responder,
            server: .http1(configuration: http),
            configuration: ApplicationConfiguration(
                address: .hostname(options.host, port: options.port),
                serverName: "taproute-server"
            ),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? options.port
                logger.notice("listening", metadata: ["host": "\(options.host)", "port": "\(port)"])
                await onListening(options.host, port)
            },
            logger: logger
        )
    }
}
