import ArgumentParser
import Dispatch
import Focal
import FocalPostgres
import FocalService

#if canImport(Glibc)
    import Glibc
#endif

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve document detection and scanning over HTTP, for scanner apps.",
        discussion: """
            JSON under /v1 (documented in docs/openapi.yaml):
              GET  /v1/health              status, version, workers busy and waiting (also HEAD)
              GET  /v1/health/live         200 while the process answers (Kubernetes' liveness probe)
              GET  /v1/health/ready        200 while it takes requests; 503 once draining, while a model is
                                           missing or while the scan store cannot keep scans
              POST /v1/detect              one image (raw body or multipart) → features, as focal detect --json
                                           query: types=rectangle,text,face,qr accuracy=low|high maxFeatures=N
              POST /v1/scan                a burst (multipart images) or a short video → per document: best frame,
                                           sharpness, corners and the flat scan (a URL, or base64 with inline=base64)
              GET  /v1/scans/{id}          a flat scan as JPEG
              POST /v1/documents           a multi-page document: add photos as pages (corners detected or
                                           given), change corners, enhancement and turn, reorder, delete,
                                           each page's flat image, one PDF (see docs/openapi.yaml)
              GET  /metrics                Prometheus text: requests, latencies, frames processed, pool load
              GET  /                       the scanner page for people: camera or photos, corners dragged
                                           into place, enhancement, order, PDF (no key needed for the page)

            Detection runs on --workers threads of their own, never on the event loop, so health and \
            metrics answer however busy they are. Up to --queue requests wait for a worker; beyond \
            that a request gets 503 with Retry-After. A request still running at --timeout gets 503 \
            then, and its work stops at the next stage. It listens on loopback unless --host says \
            otherwise. On SIGTERM or SIGINT it drains: /v1/health/ready answers 503 for \
            --drain-delay seconds while requests are still served, then the listener closes and the \
            requests in flight get --grace seconds to finish; it exits 0.

            Every error is JSON and names no server path: 422 for input that does not decode, 415 \
            for a format Focal does not read, 413 over a limit (a Content-Length over --max-body-mb \
            is refused before the body is read, an image over --max-pixels before it is decoded), \
            400 for a malformed request, 404 and 405 for wrong paths and methods, and 500 only for a \
            fault of the server's own, whose details go to the log. Videos are read from memory as \
            MP4/MOV, Matroska/WebM or AVI only, so an upload can never make the server open another \
            file. A path is served only as spelled canonically: '//v1/detect', '/v1/./scan', \
            '/v1/%64etect' and the like get 400, so no spelling passes the key check. A connection \
            idle for --idle-timeout seconds, or whose request head takes longer to arrive, is \
            closed; a body slower than --body-timeout and --min-body-rate allow gets 408. At \
            --max-connections a new connection closes the one that has waited longest for a \
            request, so that health probes always get in. If a detector's model is missing at \
            start-up, the log names the file and /v1/health answers 503.

            Flat scans stay in this process's memory unless told otherwise, which suits a single \
            process only. Replicas behind a load balancer share them: --scan-dir on a volume every \
            replica mounts, or --scan-postgres on a PostgreSQL database every replica reaches (the \
            table focal_scans is created if missing; the password may come from PGPASSWORD instead \
            of the URL). A store that cannot be used at start-up stops the start; one that stops \
            answering later (a database gone, a full or read-only disk) makes scan requests 503 \
            with Retry-After, and /v1/health/ready 503 until it can keep scans again.

            EXAMPLES
              focal serve
              focal serve --port 9000 --workers 2
              curl -s --data-binary @receipt.jpg -H 'Content-Type: image/jpeg' localhost:8080/v1/detect
              curl -s -F a=@1.jpg -F b=@2.jpg 'localhost:8080/v1/scan?inline=base64'
              focal serve --host 0.0.0.0 --scan-dir /shared/scans --api-keys /etc/focal/keys
              PGPASSWORD=… focal serve --scan-postgres postgres://focal@db.internal/focal
            """
    )

    /// The service's own defaults, so that each flag's default is defined once, in the library.
    static let defaults = ServiceConfiguration()

    @Option(help: ArgumentHelp("Address to listen on (loopback by default).", valueName: "host"))
    var host: String = Self.defaults.host

    @Option(
        parsing: .unconditional, help: ArgumentHelp("Port to listen on (0 picks a free one and prints it).", valueName: "port"))
    var port: Int = Self.defaults.port

    @Option(parsing: .unconditional, help: ArgumentHelp("Requests processed at once (default: one per core).", valueName: "n"))
    var workers: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Requests that may wait for a worker before 503 (default: 4 per worker).", valueName: "n"))
    var queue: Int?

    @Option(
        name: .customLong("max-body-mb"), parsing: .unconditional,
        help: ArgumentHelp("Largest request body, in MiB.", valueName: "mb"))
    var maxBodyMegabytes: Int = Self.defaults.maximumBodyBytes >> 20

    @Option(
        name: .customLong("max-pixels"), parsing: .unconditional,
        help: ArgumentHelp("Largest image, in megapixels, checked before decoding.", valueName: "mp"))
    var maxMegapixels: Double = Double(Self.defaults.maximumImagePixels) / 1_000_000

    @Option(
        name: .customLong("max-frames"), parsing: .unconditional,
        help: ArgumentHelp("Most frames one scan request may process.", valueName: "n"))
    var maxFrames: Int = Self.defaults.maximumFrames

    @Option(parsing: .unconditional, help: ArgumentHelp("Seconds a request may take before 503.", valueName: "s"))
    var timeout: Double = Self.defaults.requestTimeout

    @Option(
        name: .customLong("idle-timeout"), parsing: .unconditional,
        help: ArgumentHelp(
            "Seconds a silent connection stays open, and a whole request head may take to arrive.", valueName: "s"))
    var idleTimeout: Double = Self.defaults.idleTimeout

    @Option(
        name: .customLong("body-timeout"), parsing: .unconditional,
        help: ArgumentHelp(
            "Seconds a request body has, and one more for every --min-body-rate bytes it delivers; then 408.",
            valueName: "s"))
    var bodyTimeout: Double = Self.defaults.bodyTimeout

    @Option(
        name: .customLong("min-body-rate"), parsing: .unconditional,
        help: ArgumentHelp("Bytes a second a request body must keep up.", valueName: "bytes"))
    var minBodyRate: Double = Self.defaults.minimumBodyRate

    @Option(
        name: .customLong("max-connections"), parsing: .unconditional,
        help: ArgumentHelp(
            "Connections open at once; a new one beyond it closes the one idle longest.", valueName: "n"))
    var maxConnections: Int = Self.defaults.maximumConnections

    @Option(
        name: .customLong("drain-delay"), parsing: .unconditional,
        help: ArgumentHelp(
            "Seconds after SIGTERM during which /v1/health/ready answers 503 and requests are still served.",
            valueName: "s"))
    var drainDelay: Double = Self.defaults.drainDelay

    @Option(
        name: .customLong("grace"), parsing: .unconditional,
        help: ArgumentHelp("Seconds the requests in flight at shutdown have to finish.", valueName: "s"))
    var grace: Double = Self.defaults.gracePeriod

    @Option(
        name: .customLong("scan-dir"),
        help: ArgumentHelp(
            "Keep flat scans as files in this folder, shared by every replica (default: the last 64 in this process's memory, for a single process only).",
            valueName: "dir"))
    var scanFolder: String?

    @Option(
        name: .customLong("scan-postgres"),
        help: ArgumentHelp(
            "Keep flat scans in this PostgreSQL database, shared by every replica: postgres://user@host[:port]/db, with ?sslmode=disable|prefer|require or ?host=/socket/folder.",
            valueName: "url"))
    var scanDatabase: String?

    @Option(
        name: .customLong("scan-ttl"), parsing: .unconditional,
        help: ArgumentHelp("With --scan-dir or --scan-postgres, seconds a scan stays.", valueName: "s"))
    var scanLifetime: Double = 3600

    @Option(
        name: .customLong("scan-store-mb"), parsing: .unconditional,
        help: ArgumentHelp(
            "With --scan-dir or --scan-postgres, MiB the scans may take; the oldest go first.", valueName: "mb"))
    var scanStoreMegabytes: Int = 1024

    @Option(
        name: .customLong("document-pages"), parsing: .unconditional,
        help: ArgumentHelp("Pages one document of /v1/documents may hold.", valueName: "n"))
    var documentPages: Int = 100

    @Option(
        name: .customLong("document-mb"), parsing: .unconditional,
        help: ArgumentHelp("MiB of photos one document of /v1/documents may hold.", valueName: "mb"))
    var documentMegabytes: Int = 256

    @Option(
        name: .customLong("scanner-page"),
        help: ArgumentHelp(
            "The folder of the scanner page served at / (default: the one installed with focal; see docs/openapi.yaml).",
            valueName: "dir"))
    var scannerPage: String?

    @Option(
        name: .customLong("text-model"),
        help: ArgumentHelp("The text model (default: searched as focal detect does; see Models/README.md).", valueName: "path"))
    var textModel: String?

    @Option(
        name: .customLong("api-keys"),
        help: ArgumentHelp(
            "A file of API keys, one per line: every request but health and metrics then needs Authorization: Bearer <key>. Re-read on SIGHUP: delete a key's line to revoke it; an emptied or deleted file revokes every key.",
            valueName: "file"))
    var apiKeysFile: String?

    /// Each limit's range: wide enough for any real deployment, narrow enough that no arithmetic on
    /// it can overflow (body bytes are MiB << 20, pixels are megapixels × 10⁶).
    static let ranges = (
        workers: 1...256, queue: 0...10_000, bodyMegabytes: 1...4096, megapixels: 0.01...1000.0, frames: 1...100_000,
        seconds: 0.1...3600.0, connections: 1...100_000
    )

    func validate() throws {
        let ranges = Self.ranges
        func check<T: Comparable>(_ flag: String, _ value: T, _ range: ClosedRange<T>) throws {
            guard range.contains(value) else {
                throw ValidationError("\(flag) must be within \(range.lowerBound)…\(range.upperBound), not \(value)")
            }
        }
        try check("--port", port, 0...65535)
        if let workers { try check("--workers", workers, ranges.workers) }
        if let queue { try check("--queue", queue, ranges.queue) }
        try check("--max-body-mb", maxBodyMegabytes, ranges.bodyMegabytes)
        // A NaN is inside no range, and fails here too.
        try check("--max-pixels", maxMegapixels, ranges.megapixels)
        try check("--max-frames", maxFrames, ranges.frames)
        try check("--timeout", timeout, ranges.seconds)
        try check("--idle-timeout", idleTimeout, ranges.seconds)
        try check("--body-timeout", bodyTimeout, ranges.seconds)
        try check("--min-body-rate", minBodyRate, 1...1e9)
        try check("--max-connections", maxConnections, ranges.connections)
        try check("--drain-delay", drainDelay, 0...3600)
        try check("--scan-ttl", scanLifetime, 1...31_536_000)
        try check("--scan-store-mb", scanStoreMegabytes, 1...(1 << 30))
        try check("--grace", grace, ranges.seconds)
        try check("--document-pages", documentPages, 1...10_000)
        try check("--document-mb", documentMegabytes, 1...(1 << 20))
        if scanFolder != nil, scanDatabase != nil {
            throw ValidationError("--scan-dir and --scan-postgres are two places for the same scans: give one")
        }
    }

    func run() async throws {
        var configuration = try configured()
        try useScanStore(&configuration)
        var reloadKeys: (any DispatchSourceSignal)?
        if let apiKeysFile {
            let keys: APIKeys
            do { keys = try APIKeys(path: apiKeysFile) } catch {
                printError(error.reason)
                throw ExitCode(1)
            }
            configuration.apiKeys = keys
            reloadKeys = Self.reloadOnHangUp(keys, from: apiKeysFile)
        }
        defer { reloadKeys?.cancel() }
        let host = self.host, workers = configuration.workers
        // The server stops gracefully on SIGINT and SIGTERM; a parent may have started us with them
        // ignored or blocked (both survive exec), which would leave Ctrl-C without effect.
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
        unblockStopSignals()
        // Parallelism comes from the workers, one request each: OpenCV's own threads on top would
        // oversubscribe the cores (measured: 61 % of in-process throughput with them, see README).
        // Set here, before any detection runs (FocalServer's documentation says why not later).
        FocalRuntime.setOpenCVThreads(1)
        do {
            try await FocalServer(configuration: configuration).run { port in
                // Unbuffered: a supervisor (or a test) reads the port as soon as it is bound.
                let line = "focal serve: listening on http://\(host):\(port) with \(workers) worker(s)\n"
                _ = line.withCString { write(STDOUT_FILENO, $0, strlen($0)) }
            }
        } catch let error as ServiceError {
            printError(error.reason)
            throw ExitCode(1)
        } catch {
            printError("Cannot serve on \(host):\(port): \(error)")
            throw ExitCode(1)
        }
    }

    /// The service's configuration from the flags, but for its scan store and keys.
    private func configured() throws -> ServiceConfiguration {
        var configuration = ServiceConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.textModelPath = textModel
        if let workers {
            configuration.workers = workers
            configuration.queueDepth = 4 * workers
        }
        if let queue { configuration.queueDepth = queue }
        configuration.maximumBodyBytes = maxBodyMegabytes << 20
        configuration.maximumImagePixels = Int(maxMegapixels * 1_000_000)
        configuration.maximumFrames = maxFrames
        configuration.requestTimeout = timeout
        configuration.idleTimeout = idleTimeout
        configuration.bodyTimeout = bodyTimeout
        configuration.minimumBodyRate = minBodyRate
        configuration.maximumConnections = maxConnections
        configuration.drainDelay = drainDelay
        configuration.gracePeriod = grace
        configuration.maximumDocumentPages = documentPages
        configuration.maximumDocumentBytes = documentMegabytes << 20
        configuration.scannerPageFolder = scannerPage
        return configuration
    }

    /// The scan folder or database the flags name, checked now: a store that cannot work stops the start.
    private func useScanStore(_ configuration: inout ServiceConfiguration) throws {
        if let scanFolder {
            do {
                try configuration.useScanFolder(scanFolder, lifetime: scanLifetime, maximumBytes: scanStoreMegabytes << 20)
            } catch {
                printError(error.reason)
                throw ExitCode(1)
            }
        }
        if let scanDatabase {
            do {
                configuration.scanStore = try PostgresScanStore(
                    url: scanDatabase, password: getenv("PGPASSWORD").map { String(cString: $0) },
                    lifetime: scanLifetime, maximumBytes: scanStoreMegabytes << 20)
            } catch {
                printError("--scan-postgres: \(error.reason)")
                throw ExitCode(2)
            }
        }
    }

    /// SIGHUP re-reads the key file: keys rotate and are revoked without a restart. A file that
    /// has become empty, unreadable or missing revokes every key (fails closed).
    private static func reloadOnHangUp(_ keys: APIKeys, from path: String) -> any DispatchSourceSignal {
        signal(SIGHUP, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGHUP)
        source.setEventHandler {
            switch keys.reload() {
            case .success(let count): printError("re-read \(count) API key(s) from '\(path)'")
            case .failure(let error): printError("\(error.reason): every key is revoked until the file holds keys again")
            }
        }
        source.resume()
        return source
    }
}
