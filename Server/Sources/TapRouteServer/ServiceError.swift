import TapRoute

/// A request the service refuses before any record is read: its HTTP status and the JSON error
/// body `{"error":{"code":…,"message":…}}`.
public enum ServiceError: Error, Sendable, Equatable {
    /// No route has this path (404).
    case notFound(path: String)
    /// The route exists but not for this method (405); `allowed` goes in the `Allow` header.
    case methodNotAllowed(method: String, path: String, allowed: String)
    /// The body's content type is not one the route reads (415).
    case unsupportedMediaType(contentType: String?, accepted: [String])
    /// The body is longer than `--max-body-bytes` (413).
    case bodyTooLarge(limit: Int)
    /// More requests are in flight than `--max-concurrent-requests` (503).
    case overloaded(limit: Int)
    /// A query parameter is missing or invalid (400).
    case badQuery(name: String, message: String)

    /// The HTTP status code.
    public var status: Int {
        switch self {
        case .notFound: 404
        case .methodNotAllowed: 405
        case .unsupportedMediaType: 415
        case .bodyTooLarge: 413
        case .overloaded: 503
        case .badQuery: 400
        }
    }

    /// The `code` of the JSON error: what a client switches on.
    public var code: String {
        switch self {
        case .notFound: "notFound"
        case .methodNotAllowed: "methodNotAllowed"
        case .unsupportedMediaType: "unsupportedMediaType"
        case .bodyTooLarge: "bodyTooLarge"
        case .overloaded: "overloaded"
        case .badQuery: "badQuery"
        }
    }

    /// What went wrong, for a person.
    public var message: String {
        switch self {
        case .notFound(let path):
            "no route '\(path)'; the routes are POST /v1/normalize, POST /v1/encode?vendor=ID, GET /healthz, GET /metrics"
        case .methodNotAllowed(let method, let path, let allowed):
            "\(method) is not allowed on '\(path)'; use \(allowed)"
        case .unsupportedMediaType(let contentType, let accepted):
            "content type '\(contentType ?? "(none)")' is not accepted; send one of: \(accepted.joined(separator: ", "))"
        case .bodyTooLarge(let limit):
            "the request body is longer than \(limit) bytes (--max-body-bytes); for many envelopes send JSON Lines (application/x-ndjson), which is streamed"
        case .overloaded(let limit):
            "the server is handling \(limit) requests (--max-concurrent-requests); retry later"
        case .badQuery(let name, let message):
            "query parameter '\(name)': \(message)"
        }
    }

    /// The JSON body, with a final newline.
    public var body: [UInt8] {
        var out: [UInt8] = []
        JSONWriter().write(["error": ["code": .string(code), "message": .string(message)]], into: &out)
        out.append(0x0A)
        return out
    }
}
