import CoreMetrics
import Dispatch
import Prometheus

/// The service's metrics, made by one `MetricsFactory` (the Prometheus registry's, which
/// `GET /metrics` exports).
public struct ServerMetrics: Sendable {
    /// The Prometheus registry the metrics are kept in.
    public let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory
    private let normalized: CoreMetrics.Counter

    /// Metrics kept in `registry`.
    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        self.factory = PrometheusMetricsFactory(registry: registry)
        self.normalized = CoreMetrics.Counter(label: "taproute_records_total", factory: factory)
    }

    /// The factory, for `MetricsSystem.bootstrap` (the executable bootstraps with it).
    public var metricsFactory: any MetricsFactory { factory }

    /// Counts `count` records processed (Interactions and error records alike).
    public func recordsProcessed(_ count: Int) {
        guard count > 0 else { return }
        normalized.increment(by: count)
    }

    /// Counts `count` error records with `code`, on `route`.
    public func recordErrors(code: String, route: String, count: Int = 1) {
        guard count > 0 else { return }
        CoreMetrics.Counter(label: "taproute_record_errors_total", dimensions: [("code", code), ("route", route)], factory: factory)
            .increment(by: count)
    }

    /// Counts one request answered, and how long it took (until its body was written).
    public func request(route: String, status: Int, started: DispatchTime) {
        CoreMetrics.Counter(
            label: "taproute_http_requests_total",
            dimensions: [("route", route), ("status", String(status))],
            factory: factory
        ).increment()
        let elapsed = DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds
        CoreMetrics.Timer(label: "taproute_http_request_duration_seconds", dimensions: [("route", route)], factory: factory)
            .recordNanoseconds(Int64(clamping: elapsed))
    }

    /// The Prometheus text exposition of every metric.
    public func exposition() -> [UInt8] {
        var out: [UInt8] = []
        registry.emit(into: &out)
        return out
    }
}
