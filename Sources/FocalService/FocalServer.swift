import Focal
import Hummingbird
import HummingbirdCore
import NIOCore
import ServiceLifecycle
import Synchronization
import UnixSignals

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The document-scanner HTTP service behind `focal serve`: JSON under `/v1`, Prometheus text at
/// `/metrics`. OpenCV work runs on a bounded ``WorkerPool``, never on the event loop; when the pool
/// and its queue are full, requests get 503 with Retry-After. The API is described in
/// `docs/openapi.yaml`.
///
/// How many threads OpenCV uses inside one call is the process's to set, before any detection
/// starts: `focal serve` sets one (`FocalRuntime.setOpenCVThreads(1)`), as a program embedding
/// the server should, since the workers already run one request each on every core. The server does
/// not set it itself: with OpenCV's TBB threads, changing the count while another thread runs a
/// detection tears down the pool that detection is using.
public struct FocalServer: Sendable {
    public let configuration: ServiceConfiguration
    public let pool: WorkerPool
    let metrics = ServiceMetrics()
    let scans: any ScanStore
    /// The scanner page's files, or nil when none were found at start-up (`/` then answers 404
    /// with the reason, and the log says where they were looked for).
    let scannerPage: ScannerPage?
    /// Feature types this server cannot detect because a model or cascade is missing, found at
    /// start-up. While any is missing, `/v1/health` answers 503 so that a load balancer keeps
    /// traffic away; the log names the files.
    public let unavailableTypes: [FeatureType]
    /// Set on SIGTERM: readiness answers 503 from then on.
    let draining = DrainFlag()
    private let shutdownRequest = ShutdownRequest()

    /// Drains and stops a running server as SIGTERM does, for programs that embed it: readiness
    /// answers 503 for ``ServiceConfiguration/drainDelay`` seconds, the listener closes, and the
    /// requests in flight get ``ServiceConfiguration/gracePeriod`` seconds. ``run(onListening:)``
    /// returns then. Cancelling its task instead stops at once, and a connection still being
    /// accepted then is dropped unfinished, which NIO stops the process for.
    public func shutDown() { shutdownRequest.request() }

    public init(configuration: ServiceConfiguration = ServiceConfiguration()) {
        self.configuration = configuration
        // The header check reads each upload's size first; the decoder is held to the same limit
        // in case it reads the header otherwise (effective when this is the process's first
        // server and nothing was decoded before, as in `focal serve`).
        Frame.limitDecodedPixels(to: configuration.maximumImagePixels)
        pool = WorkerPool(workers: configuration.workers, queueDepth: configuration.queueDepth)
        scans = configuration.scanStore ?? MemoryScanStore(capacity: configuration.keptScans)
        scannerPage = ScannerPage.load(from: configuration.scannerPageFolder)
        if scannerPage == nil {
            serviceLog.warning(
                "the scanner page is not served: no index.html in \(ScannerPage.candidates(configuration.scannerPageFolder).joined(separator: ", "))"
            )
        }
        unavailableTypes = Self.checkDetectors(DetectRequest(textModelPath: configuration.textModelPath).options)
    }

    /// Builds one detector of each type as requests will, so that a missing model shows at
    /// start-up rather than on the first request that needs it.
    static func checkDetectors(_ options: DetectorOptions) -> [FeatureType] {
        FeatureType.allCases.filter { type in
            do {
                _ = try Detector(type: type, options: options)
                return false
            } catch {
                serviceLog.error("\(type.rawValue) detection is unavailable: \(error)")
                return true
            }
        }
    }

    /// Serves until the task is cancelled or the process gets SIGTERM or SIGINT. Then it drains:
    /// readiness answers 503 for ``ServiceConfiguration/drainDelay`` seconds while requests are
    /// still served, the listener closes, and the requests in flight get
    /// ``ServiceConfiguration/gracePeriod`` seconds to finish before they are cancelled.
    /// `onListening` gets the bound port (useful with port 0).
    public func run(onListening: @escaping @Sendable (Int) -> Void = { _ in }) async throws {
        // Every task below, and each connection's task the server starts, runs on the HTTP
        // layer's own threads, never waiting for the shared pool.
        try await withTaskExecutorPreference(HTTPExecutor.shared) { try await serve(onListening: onListening) }
    }

    private func serve(onListening: @escaping @Sendable (Int) -> Void) async throws {
        FocalRuntime.keepFreedMemory()
        var groupConfiguration = ServiceGroupConfiguration(
            services: [.init(service: makeApplication(onListening: onListening))], logger: serviceLog)
        groupConfiguration.maximumGracefulShutdownDuration = .milliseconds(Int64(configuration.gracePeriod * 1000))
        let services = ServiceGroup(configuration: groupConfiguration)
        let draining = draining, drainDelay = configuration.drainDelay, scans = scans
        try await withThrowingTaskGroup(of: Bool.self) { tasks in
            // The store's own work (a connection pool) runs until the server has drained.
            tasks.addTask {
                await scans.run()
                return false
            }
            try await scans.prepare()
            tasks.addTask {
                try await services.run()
                return true
            }
            let drain: @Sendable (String) async -> Void = { why in
                draining.begin()
                serviceLog.info("\(why): draining; the listener closes in \(drainDelay) s")
                try? await Task.sleep(for: .milliseconds(Int64(drainDelay * 1000)))
                await services.triggerGracefulShutdown()
            }
            tasks.addTask {
                for await signal in await UnixSignalsSequence(trapping: .sigterm, .sigint) {
                    await drain("\(signal)")
                    break
                }
                return false
            }
            let requests = shutdownRequest.stream
            tasks.addTask {
                for await _ in requests {
                    await drain("shutDown()")
                    break
                }
                return false
            }
            // Done when the server is; the signal watcher may still be waiting.
            while let serverEnded = try await tasks.next() {
                if serverEnded { break }
            }
            tasks.cancelAll()
        }
    }

    public func makeApplication(onListening: @escaping @Sendable (Int) -> Void = { _ in }) -> some ApplicationProtocol {
        let limits = RequestHeadGuard.Limits(bodyBytes: configuration.maximumBodyBytes)
        let timing = ConnectionWatch.Limits(
            headTimeout: configuration.idleTimeout, bodyTimeout: configuration.bodyTimeout,
            minimumBodyRate: configuration.minimumBodyRate)
        let registry = ConnectionRegistry(capacity: configuration.maximumConnections)
        return Application(
            router: makeRouter(),
            server: .http1(
                configuration: .init(
                    additionalChannelHandlers: [
                        ConnectionWatch(limits: timing, registry: registry), RequestHeadGuard(limits: limits),
                    ],
                    // A connection that sends nothing (or half a request head) for this long is closed.
                    idleTimeout: .nanoseconds(Int64(configuration.idleTimeout * 1e9)))),
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port), serverName: "focal",
                // The registry keeps the connections at the cap by closing idle ones; this backstop
                // above it only stops accepting if closing falls behind.
                availableConnectionsDelegate: MaximumAvailableConnections(
                    configuration.maximumConnections + max(16, configuration.maximumConnections / 8))),
            onServerRunning: { channel in onListening(channel.localAddress?.port ?? 0) })
    }

    /// Runs the handler, timing it and turning refusals into JSON errors.
    func answer(_ endpoint: String, _ handler: () async throws(ServiceError) -> Response) async -> Response {
        let start = MonotonicClock.now()
        let response: Response
        do {
            response = try await handler()
        } catch {
            var headers: HTTPFields = [:]
            if let retry = error.retryAfter { headers[.retryAfter] = String(retry) }
            response = Self.error(error.status, error.reason, headers: headers)
        }
        metrics.request(endpoint: endpoint, status: Int(response.status.code), seconds: MonotonicClock.now() - start)
        return response
    }

    func uploads(of request: Request) async throws(ServiceError) -> [Upload] {
        try await form(of: request).files
    }

    func form(of request: Request) async throws(ServiceError) -> (files: [Upload], fields: [String: String]) {
        var request = request
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: configuration.maximumBodyBytes)
        } catch is NIOTooManyBytesError {
            throw ServiceError(413, "the body is larger than \(configuration.maximumBodyBytes) bytes")
        } catch {
            throw ServiceError(400, "the body could not be read")
        }
        return try Upload.parseForm(body: body, contentType: request.headers[.contentType])
    }

    func work<T: Sendable>(
        _ body: @escaping @Sendable (WorkerPool.Deadline) throws(ServiceError) -> T
    ) async throws(ServiceError) -> T {
        do {
            return try await pool.run(timeout: configuration.requestTimeout) { (deadline) throws -> T in try body(deadline) }
        } catch let error as ServiceError {
            throw error
        } catch WorkerPool.Refusal.overloaded {
            throw ServiceError(
                503, "all \(pool.workers) workers are busy and \(pool.queueDepth) requests are waiting", retryAfter: 1)
        } catch WorkerPool.Refusal.timedOut {
            throw ServiceError(503, "the request took longer than \(Int(configuration.requestTimeout)) s", retryAfter: 5)
        } catch {
            throw ServiceError(internal: error, what: "the request")
        }
    }

    static func query(_ request: Request) -> [String: String] {
        var values: [String: String] = [:]
        for (key, value) in request.uri.queryParameters { values[String(key)] = String(value) }
        return values
    }

    static func json(_ status: Int, _ value: some Encodable, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "application/json"
        return Response(
            status: HTTPResponse.Status(code: status), headers: fields,
            body: .init(byteBuffer: ByteBuffer(bytes: encodedJSON(value))))
    }

    static func error(_ status: Int, _ reason: String, headers: HTTPFields = [:]) -> Response {
        json(status, ServiceError.Body(error: .init(status: status, reason: reason)), headers: headers)
    }

    /// The response, without its body for a HEAD request.
    static func answering(_ request: Request, with response: Response) -> Response {
        request.method == .head ? Response(status: response.status, headers: response.headers) : response
    }

    /// "ok", "draining" after SIGTERM, "unavailable" while a detector's model is missing, or
    /// "store unavailable" while the scan store cannot keep scans (a full or read-only disk).
    func readiness() async -> String {
        if draining.isDraining { return "draining" }
        guard unavailableTypes.isEmpty else { return "unavailable" }
        return await scans.canKeepScans() ? "ok" : "store unavailable"
    }

    struct Probe: Encodable {
        var status: String
    }

    struct Health: Encodable {
        var status: String
        var version: String
        var workers: Int
        var busy: Int
        var waiting: Int
        /// Present only when a detector's model is missing.
        var unavailableTypes: [String]?
    }
}

/// A request to drain and stop, from ``FocalServer/shutDown()``.
final class ShutdownRequest: Sendable {
    let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() { (stream, continuation) = AsyncStream.makeStream(of: Void.self) }

    func request() { continuation.yield() }
}

/// Whether the server has begun to drain.
final class DrainFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var isDraining: Bool { flag.load(ordering: .relaxed) }
    func begin() { flag.store(true, ordering: .relaxed) }
}
