import Prometheus
import Synchronization

/// The service's Prometheus metrics: requests by endpoint and status, their latency, frames
/// processed, and the worker pool's load.
final class ServiceMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    private let frames: Counter
    private let answered = Atomic<Int>(0)

    init() {
        frames = registry.makeCounter(
            descriptor: MetricNameDescriptor(
                metricName: "focal_frames_processed", unitName: "total", helpText: "Frames (images and video frames) processed."))
    }

    /// Requests the API's endpoints (detect, scan, flatten, scans) have answered, whatever their
    /// status; health and metrics are not counted.
    var requestsAnswered: Int { answered.load(ordering: .relaxed) }

    func request(endpoint: String, status: Int, seconds: Double) {
        answered.add(1, ordering: .relaxed)
        registry.makeCounter(
            descriptor: MetricNameDescriptor(metricName: "focal_requests", unitName: "total", helpText: "Requests answered."),
            labels: [("endpoint", endpoint), ("status", String(status))]
        ).increment()
        registry.makeValueHistogram(
            descriptor: MetricNameDescriptor(
                metricName: "focal_request_duration", unitName: "seconds", helpText: "Time to answer a request."),
            labels: [("endpoint", endpoint)], buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]
        ).record(seconds)
    }

    func framesProcessed(_ count: Int) { frames.increment(by: Int64(count)) }

    /// Time to write a flat scan to the scan store, or to read one back.
    func scanStore(_ operation: String, seconds: Double) {
        registry.makeValueHistogram(
            descriptor: MetricNameDescriptor(
                metricName: "focal_scan_store_duration", unitName: "seconds",
                helpText: "Time to keep a flat scan (write) or fetch one (read)."),
            labels: [("operation", operation)], buckets: [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5]
        ).record(seconds)
    }

    func pool(running: Int, waiting: Int, totals: WorkerPool.Counts) {
        for (name, help, value) in [
            ("focal_requests_timed_out", "Requests answered 503 at their deadline.", totals.timedOut),
            (
                "focal_work_stopped_after_deadline", "Jobs that stopped at a stage boundary after their deadline.",
                totals.stoppedAfterDeadline
            ),
            ("focal_requests_refused", "Requests refused with 503 because every worker was busy and the queue full.", totals.refused),
        ] {
            // The pool keeps the counts; a scrape copies them into counters.
            let counter = registry.makeCounter(
                descriptor: MetricNameDescriptor(metricName: name, unitName: "total", helpText: help))
            counter.reset()
            counter.increment(by: Int64(value))
        }
        registry.makeGauge(
            descriptor: MetricNameDescriptor(metricName: "focal_workers_busy", unitName: "", helpText: "Workers running a request.")
        )
        .set(Double(running))
        registry.makeGauge(
            descriptor: MetricNameDescriptor(metricName: "focal_requests_waiting", unitName: "", helpText: "Requests waiting for a worker.")
        ).set(Double(waiting))
    }

    func text() -> String { registry.emitToString() }
}
