import Focal

/// How `focal serve` listens, how much work it takes on, and the limits it puts on each request.
/// Every limit has a safe default; raising one lets bigger requests through at the cost of memory
/// and time per request.
public struct ServiceConfiguration: Sendable {
    /// Loopback by default: expose the service deliberately (`--host 0.0.0.0`), behind a proxy.
    public var host: String = "127.0.0.1"
    /// 0 picks a free port (tests); see ``FocalServer/run(onListening:)``.
    public var port: Int = 8080
    /// Requests processed at once, each on its own thread off the event loop. Default: the cores.
    public var workers: Int = processorCount
    /// Requests waiting for a worker before new ones get 503 with Retry-After. Default 4 per worker.
    public var queueDepth: Int = 4 * processorCount
    /// Largest request body. Default 32 MiB.
    public var maximumBodyBytes: Int = 32 << 20
    /// Largest image, in pixels, read from its header before decoding: a few kilobytes can claim
    /// gigapixels. Default 40 megapixels (a 7,700 × 5,200 photo).
    public var maximumImagePixels: Int = 40_000_000
    /// Most frames one scan request may process: images in a burst, or frames of a video.
    public var maximumFrames: Int = 300
    /// Seconds a request may take before it gets 503; its worker finishes the frame it is on.
    public var requestTimeout: Double = 30
    /// Seconds a connection may stay silent, and seconds a whole request head may take from the
    /// connection's opening or the previous answer, before it is closed. Default 30; lowering it
    /// frees idle and slow clients' connections sooner.
    public var idleTimeout: Double = 30
    /// Seconds a request's body has to arrive, before the extension of ``minimumBodyRate``; a body
    /// still short then is answered 408. The whole request head has ``idleTimeout`` seconds from
    /// the connection's opening or the previous answer. Default 20.
    public var bodyTimeout: Double = 20
    /// Bytes a second a request body must keep up: each that many extend its deadline by a second.
    /// Default 4096; lowering it lets slower uploads through and slow clients hold connections longer.
    public var minimumBodyRate: Double = 4096
    /// Connections open at once. A new one beyond it closes the connection that has waited
    /// longest for a request head (then the one longest reading a body), so that a health probe
    /// always gets in. Default 512.
    public var maximumConnections: Int = 512
    /// Seconds between SIGTERM and closing the listener, during which `/v1/health/ready` answers
    /// 503 while requests are still served, so that a load balancer stops sending new ones first.
    /// Default 0 (behind nginx, which retries a refused connection elsewhere); 5–10 behind
    /// Kubernetes, whose endpoints follow readiness a few seconds late.
    public var drainDelay: Double = 0
    /// Seconds the requests in flight at shutdown have to finish before they are cancelled.
    /// Default 30; raising it lets long scans finish during a rolling restart.
    public var gracePeriod: Double = 30
    /// Flat scans kept in memory for `GET /v1/scans/{id}`, oldest dropped first, when there is no
    /// ``scanStore``.
    public var keptScans: Int = 64
    /// Where flat scans are kept for `GET /v1/scans/{id}`; nil keeps the last ``keptScans`` in
    /// this process's memory, which only suits a single process. Replicas behind a load balancer
    /// share a folder (``useScanFolder(_:lifetime:maximumBytes:)``) or a database (`FocalPostgres`).
    public var scanStore: (any ScanStore)? = nil

    /// Keeps flat scans as files in `folder` (created 0700 if missing), which every replica
    /// mounts: a scan is served by whichever replica gets the request, and outlives restarts.
    /// Scans expire after `lifetime` seconds; beyond `maximumBytes` the oldest go first.
    public mutating func useScanFolder(_ folder: String, lifetime: Double = 3600, maximumBytes: Int = 1 << 30)
        throws(ServiceError)
    {
        scanStore = try DirectoryScanStore(folder: folder, lifetime: lifetime, maximumBytes: maximumBytes)
    }
    /// Pages one document (`/v1/documents`) may hold. Raising it allows longer documents, at the
    /// cost of longer PDF answers (every page is flattened for each).
    public var maximumDocumentPages: Int = 100
    /// Bytes of source images one document may hold. Raising it allows more or larger photos per
    /// document, at the cost of store space.
    public var maximumDocumentBytes: Int = 256 << 20
    /// The scanner page's folder (`index.html` and its files), served at `/`; nil looks where
    /// ``ScannerPage`` says. The page needs no key; everything it asks of the API does.
    public var scannerPageFolder: String? = nil
    /// The text model (PP-OCRv4's DB network), or nil to search where ``Detector`` does
    /// (`$FOCAL_MODELS`, then the models Focal ships as resources of the library).
    /// Checked at start-up: if it is missing, text detection is unavailable and health is 503.
    public var textModelPath: String? = nil
    /// When set, every `/v1` request but health needs `Authorization: Bearer <key>` with one of
    /// these keys (401 otherwise). Nil: no authentication, for a server only a proxy can reach.
    public var apiKeys: APIKeys? = nil

    public init() {}
}
