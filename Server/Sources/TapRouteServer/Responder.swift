import Dispatch
import Hummingbird
import Logging
import NIOCore
import Synchronization
import TapRoute

/// The service's limits.
public struct ServiceLimits: Sendable, Hashable {
    /// The longest body of a single JSON envelope or message, in bytes (413 beyond).
    public var maxBodyBytes: Int
    /// The longest JSON line, in bytes; `nil`: the configuration's `limits.maxRecordBytes`.
    public var maxRecordBytes: Int?
    /// The most requests handled at once; more get 503.
    public var maxConcurrentRequests: Int
    /// Threads that normalize one JSON Lines request's records in parallel.
    public var parallelism: Int

    /// Limits with the documented defaults: 1 MiB bodies, the configuration's record limit,
    /// 256 requests at once, one thread per processor for JSON Lines.
    public init(
        maxBodyBytes: Int = 1 << 20,
        maxRecordBytes: Int? = nil,
        maxConcurrentRequests: Int = 256,
        parallelism: Int = 0
    ) {
        self.maxBodyBytes = maxBodyBytes
        self.maxRecordBytes = maxRecordBytes
        self.maxConcurrentRequests = maxConcurrentRequests
        self.parallelism = parallelism > 0 ? parallelism : System.coreCount
    }
}

/// Answers every request: the routes, the limits, the JSON errors, the metrics and the request
/// log.
public struct TapRouteResponder: HTTPResponder {
    /// The request context: Hummingbird's basic one.
    public typealias Context = BasicRequestContext

    /// Turns records into output lines.
    public let renderer: RecordRenderer
    /// The limits.
    public let limits: ServiceLimits
    /// Where the metrics go.
    public let metrics: ServerMetrics
    /// The request log.
    public let logger: Logger
    private let inFlight: InFlight

    /// A responder for `registry` under `limits`.
    public init(registry: AdapterRegistry, limits: ServiceLimits, metrics: ServerMetrics, logger: Logger) {
        self.renderer = RecordRenderer(registry: registry, maxRecordBytes: limits.maxRecordBytes)
        self.limits = limits
        self.metrics = metrics
        self.logger = logger
        self.inFlight = InFlight()
    }

    /// The media types read as one JSON envelope or message.
    static let jsonTypes = ["application/json"]
    /// The media types read as JSON Lines.
    static let lineTypes = ["application/x-ndjson", "application/jsonl", "application/json-lines"]

    /// Answers `request`.
    public func respond(to request: Request, context: Context) async throws -> Response {
        let started = DispatchTime.now()
        let path = request.uri.path
        let route = Self.routeName(path)
        guard inFlight.enter(limit: limits.maxConcurrentRequests) else {
            let response = Self.errorResponse(.overloaded(limit: limits.maxConcurrentRequests))
            finished(request, route: route, status: 503, started: started)
            return response
        }
        var response: Response
        do {
            response = try await handle(request, path: path)
        } catch let error as ServiceError {
            response = Self.errorResponse(error)
        } catch {
            inFlight.leave()
            finished(request, route: route, status: 500, started: started, error: error)
            throw error
        }
        let status = response.status.code
        let body = response.body
        let inFlight = self.inFlight
        let this = self
        response.body = ResponseBody(contentLength: body.contentLength) { writer in
            do {
                try await body.write(writer)
            } catch {
                inFlight.leave()
                this.finished(request, route: route, status: status, started: started, error: error)
                throw error
            }
            inFlight.leave()
            this.finished(request, route: route, status: status, started: started)
        }
        return response
    }

    /// Logs and counts a request once its response is written.
    private func finished(_ request: Request, route: String, status: Int, started: DispatchTime, error: (any Error)? = nil) {
        metrics.request(route: route, status: status, started: started)
        let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e6
        var metadata: Logger.Metadata = [
            "method": "\(request.method.rawValue)", "path": "\(request.uri.path)", "status": "\(status)",
            "ms": "\((milliseconds * 1000).rounded() / 1000)",
        ]
        if let error {
            metadata["error"] = "\(error)"
            logger.warning("request failed", metadata: metadata)
        } else if status >= 500 {
            logger.warning("request", metadata: metadata)
        } else if status >= 400 {
            logger.info("request", metadata: metadata)
        } else {
            logger.debug("request", metadata: metadata)
        }
    }

    /// The route label of `path` for metrics: the route, or `other`.
    static func routeName(_ path: String) -> String {
        switch path {
        case "/v1/normalize", "/v1/encode", "/healthz", "/metrics": path
        default: "other"
        }
    }

    private func handle(_ request: Request, path: String) async throws -> Response {
        switch path {
        case "/v1/normalize":
            guard request.method == .post else {
                throw ServiceError.methodNotAllowed(method: request.method.rawValue, path: path, allowed: "POST")
            }
            return try await normalize(request)
        case "/v1/encode":
            guard request.method == .post else {
                throw ServiceError.methodNotAllowed(method: request.method.rawValue, path: path, allowed: "POST")
            }
            return try await encode(request)
        case "/healthz":
            guard request.method == .get || request.method == .head else {
                throw ServiceError.methodNotAllowed(method: request.method.rawValue, path: path, allowed: "GET")
            }
            return Self.response(status: .ok, contentType: "application/json", bytes: Array(#"{"status":"ok"}"#.utf8) + [0x0A])
        case "/metrics":
            guard request.method == .get || request.method == .head else {
                throw ServiceError.methodNotAllowed(method: request.method.rawValue, path: path, allowed: "GET")
            }
            return Self.response(status: .ok, contentType: "text/plain; version=0.0.4; charset=utf-8", bytes: metrics.exposition())
        default:
            throw ServiceError.notFound(path: path)
        }
    }

    /// The kind of body a request sends.
    enum BodyKind {
        case json
        case lines
    }

    private func bodyKind(_ request: Request) throws(ServiceError) -> BodyKind {
        let header = request.headers[.contentType]
        let mediaType = header.map { value in
            String(value.split(separator: ";", maxSplits: 1).first ?? "")
                .trimmingCharacters(in: .whitespaces).lowercased()
        }
        if let mediaType, Self.jsonTypes.contains(mediaType) { return .json }
        if let mediaType, Self.lineTypes.contains(mediaType) { return .lines }
        throw .unsupportedMediaType(contentType: header, accepted: Self.jsonTypes + Self.lineTypes)
    }

    private func normalize(_ request: Request) async throws -> Response {
        var renderer = self.renderer
        if let vendor = request.uri.queryParameters.get("vendor") { renderer.vendor = vendor }
        switch try bodyKind(request) {
        case .json:
            let body = try await collect(request)
            var out: [UInt8] = []
            let failure = Self.withRecord(body) { record in
                renderer.appendNormalized(record, line: 1, into: &out)
            }
            metrics.recordsProcessed(1)
            if let failure { metrics.recordErrors(code: failure, route: "/v1/normalize") }
            return Self.response(status: failure != nil ? .unprocessableContent : .ok, contentType: "application/json", bytes: out)
        case .lines:
            return streamLines(request, stream: LineStream(renderer: renderer, parallelism: limits.parallelism), route: "/v1/normalize")
        }
    }

    private func encode(_ request: Request) async throws -> Response {
        guard let vendor = request.uri.queryParameters.get("vendor"), !vendor.isEmpty else {
            throw ServiceError.badQuery(
                name: "vendor",
                message: "missing: name the adapter whose payload to write, as in /v1/encode?vendor=dashx"
            )
        }
        var options = EncodeOptions()
        if let screens = request.uri.queryParameters.get("screens") {
            guard let fallback = EncodeOptions.ScreenFallback(rawValue: screens) else {
                throw ServiceError.badQuery(name: "screens", message: "must be 'error' or 'route', not '\(screens)'")
            }
            options.screens = fallback
        }
        switch try bodyKind(request) {
        case .json:
            let body = try await collect(request)
            var out: [UInt8] = []
            let failure = Self.withRecord(body) { record in
                renderer.appendEncoded(record, line: 1, vendor: vendor, options: options, into: &out)
            }
            metrics.recordsProcessed(1)
            if let failure { metrics.recordErrors(code: failure, route: "/v1/encode") }
            return Self.response(status: failure != nil ? .unprocessableContent : .ok, contentType: "application/json", bytes: out)
        case .lines:
            let stream = LineStream(
                renderer: renderer,
                operation: .encode(vendor: vendor, options: options),
                parallelism: limits.parallelism
            )
            return streamLines(request, stream: stream, route: "/v1/encode")
        }
    }

    /// The body of a single-record request, up to `maxBodyBytes`.
    private func collect(_ request: Request) async throws -> ByteBuffer {
        let limit = limits.maxBodyBytes
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit {
            throw ServiceError.bodyTooLarge(limit: limit)
        }
        var collected = ByteBuffer()
        for try await var piece in request.body {
            guard collected.readableBytes + piece.readableBytes <= limit else { throw ServiceError.bodyTooLarge(limit: limit) }
            collected.writeBuffer(&piece)
        }
        return collected
    }

    /// A response whose body is the output of `stream` on the request's body, written as the
    /// body arrives.
    private func streamLines(_ request: Request, stream: LineStream, route: String) -> Response {
        let body = request.body
        let metrics = self.metrics
        return Response(
            status: .ok,
            headers: [.contentType: "application/x-ndjson"],
            body: ResponseBody { writer in
                var stream = stream
                var counted = (records: 0, errors: [String: Int]())
                func count() {
                    metrics.recordsProcessed(stream.records - counted.records)
                    for (code, total) in stream.errorCodes {
                        metrics.recordErrors(code: code, route: route, count: total - counted.errors[code, default: 0])
                    }
                    counted = (stream.records, stream.errorCodes)
                }
                // One task reads the body while this one normalizes what has arrived.
                let queue = BodyQueue(capacity: 4 << 20)
                let reader = Task {
                    do {
                        for try await piece in body { await queue.put(piece) }
                        queue.finish()
                    } catch {
                        queue.finish(failure: error)
                    }
                }
                defer { reader.cancel() }
                var block: [UInt8] = []
                while let pieces = try await queue.takeAll() {
                    block.removeAll(keepingCapacity: true)
                    for piece in pieces { block.append(contentsOf: piece.readableBytesView) }
                    let out = block.withUnsafeBytes { stream.consume($0) }
                    if !out.isEmpty { try await writer.write(ByteBuffer(bytes: out)) }
                    if stream.records - counted.records >= 4096 { count() }
                }
                let out = stream.finish()
                if !out.isEmpty { try await writer.write(ByteBuffer(bytes: out)) }
                count()
                try await writer.finish(nil)
            }
        )
    }

    /// Calls `body` with the record in `buffer`: its bytes without a UTF-8 byte order mark at
    /// the start, which the CLI skips too.
    static func withRecord<R>(_ buffer: ByteBuffer, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        buffer.withUnsafeReadableBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            let bom = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
            return body(bom ? UnsafeBufferPointer(rebasing: bytes[3...]) : bytes)
        }
    }

    static func response(status: HTTPResponse.Status, contentType: String, bytes: [UInt8]) -> Response {
        Response(
            status: status,
            headers: [.contentType: contentType, .contentLength: String(bytes.count)],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes))
        )
    }

    static func errorResponse(_ error: ServiceError) -> Response {
        var response = response(
            status: HTTPResponse.Status(code: error.status),
            contentType: "application/json",
            bytes: error.body
        )
        if case .methodNotAllowed(_, _, let allowed) = error { response.headers[.allow] = allowed }
        return response
    }
}

/// The number of requests being handled.
final class InFlight: Sendable {
    private let count = Mutex(0)

    /// Counts one more request, unless `limit` are already in flight; returns whether it did.
    func enter(limit: Int) -> Bool {
        count.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    /// Counts one request done.
    func leave() {
        count.withLock { $0 -= 1 }
    }
}
