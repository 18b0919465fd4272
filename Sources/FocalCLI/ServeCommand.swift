import ArgumentParser
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
              GET  /v1/health              status, version, workers busy and waiting
              POST /v1/detect              one image (raw body or multipart) → features, as focal detect --json
                                           query: types=rectangle,text,face,qr accuracy=low|high maxFeatures=N
              POST /v1/scan                a burst (multipart images) or a short video → per document: best frame,
                                           sharpness, corners and the flat scan (a URL, or base64 with inline=base64)
              GET  /v1/scans/{id}          a flat scan as JPEG
              GET  /metrics                Prometheus text: requests, latencies, frames processed, pool load

            Detection runs on --workers threads, never on the event loop. Up to --queue requests wait \\
            for a worker; beyond that a request gets 503 with Retry-After. Malformed input gets a 4xx \\
            JSON error naming the reason, and the server keeps serving. It listens on loopback unless \\
            --host says otherwise. SIGINT or SIGTERM stops it after the requests in flight.

            EXAMPLES
              focal serve
              focal serve --port 9000 --workers 2
              curl -s --data-binary @receipt.jpg -H 'Content-Type: image/jpeg' localhost:8080/v1/detect
              curl -s -F a=@1.jpg -F b=@2.jpg 'localhost:8080/v1/scan?inline=base64'
            """
    )

    @Option(help: ArgumentHelp("Address to listen on (loopback by default).", valueName: "host"))
    var host: String = "127.0.0.1"

    @Option(help: ArgumentHelp("Port to listen on (0 picks a free one and prints it).", valueName: "port"))
    var port: Int = 8080

    @Option(help: ArgumentHelp("Requests processed at once (default: one per core).", valueName: "n"))
    var workers: Int?

    @Option(help: ArgumentHelp("Requests that may wait for a worker before 503 (default: 4 per worker).", valueName: "n"))
    var queue: Int?

    @Option(name: .customLong("max-body-mb"), help: ArgumentHelp("Largest request body, in MiB.", valueName: "mb"))
    var maxBodyMegabytes: Int = 32

    @Option(
        name: .customLong("max-pixels"),
        help: ArgumentHelp("Largest image, in megapixels, checked before decoding.", valueName: "mp"))
    var maxMegapixels: Double = 40

    @Option(name: .customLong("max-frames"), help: ArgumentHelp("Most frames one scan request may process.", valueName: "n"))
    var maxFrames: Int = 300

    @Option(help: ArgumentHelp("Seconds a request may take before 503.", valueName: "s"))
    var timeout: Double = 30

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0…65535") }
        if let workers { guard workers >= 1 else { throw ValidationError("--workers must be 1 or more") } }
        if let queue { guard queue >= 0 else { throw ValidationError("--queue must be 0 or more") } }
        guard maxBodyMegabytes >= 1, maxMegapixels > 0, maxFrames >= 1, timeout > 0 else {
            throw ValidationError("limits must be positive")
        }
    }

    func run() async throws {
        var configuration = ServiceConfiguration()
        configuration.host = host
        configuration.port = port
        if let workers {
            configuration.workers = workers
            configuration.queueDepth = 4 * workers
        }
        if let queue { configuration.queueDepth = queue }
        configuration.maximumBodyBytes = maxBodyMegabytes << 20
        configuration.maximumImagePixels = Int(maxMegapixels * 1_000_000)
        configuration.maximumFrames = maxFrames
        configuration.requestTimeout = timeout
        let host = self.host, workers = configuration.workers
        // The server stops gracefully on SIGINT and SIGTERM; a parent may have started us with them
        // ignored or blocked (both survive exec), which would leave Ctrl-C without effect.
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        do {
            try await FocalServer(configuration: configuration).run { port in
                // Unbuffered: a supervisor (or a test) reads the port as soon as it is bound.
                let line = "focal serve: listening on http://\(host):\(port) with \(workers) worker(s)\n"
                _ = line.withCString { write(STDOUT_FILENO, $0, strlen($0)) }
            }
        } catch {
            printError("Cannot serve on \(host):\(port): \(error)")
            throw ExitCode(1)
        }
    }
}
