import Focal
import FocalService
import FocalSynthetic
import Foundation
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A live server on a free loopback port, for the length of one test.
final class LiveServer: Sendable {
    let server: FocalServer
    let port: Int
    private let task: Task<Void, any Error>

    init(_ configure: (inout ServiceConfiguration) -> Void = { _ in }) async throws {
        var configuration = ServiceConfiguration()
        configuration.port = 0
        configuration.workers = 2
        // The suites run some fifty servers side by side on two cores, some of them spinning on
        // purpose, so a job here can take several times what it takes alone (a CI run: a 12-frame
        // video over the service's 30 s). Deadlines are tested where a test sets its own.
        configuration.requestTimeout = 120
        configure(&configuration)
        let server = FocalServer(configuration: configuration)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        // A server that fails to start ends the stream, so that this never waits for good.
        task = Task {
            defer { continuation.finish() }
            try await server.run { continuation.yield($0) }
        }
        var iterator = ports.makeAsyncIterator()
        port = await iterator.next() ?? 0
        self.server = server
    }

    /// Drained and stopped as SIGTERM does, not cancelled: a cancelled server drops a connection
    /// still being accepted unfinished, and NIO stops the whole test process for that.
    deinit { server.shutDown() }

    struct Reply {
        var status: Int
        var headers: [String: String]
        var body: Data
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
        var reason: String { ((json["error"] as? [String: Any])?["reason"] as? String) ?? "" }
    }

    func request(
        _ method: String, _ path: String, body: Data? = nil, contentType: String? = nil, headers extra: [String: String] = [:]
    ) async throws -> Reply {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        request.httpBody = body
        // A server that stops answering fails the test after this long instead of hanging it.
        request.timeoutInterval = 120
        if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        for (name, value) in extra { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse, "an HTTP answer")
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields { headers[String(describing: key).lowercased()] = String(describing: value) }
        return Reply(status: http.statusCode, headers: headers, body: data)
    }

    static func multipart(_ files: [(name: String, type: String, bytes: Data)], boundary: String = "focal-test-boundary") -> (
        Data, String
    ) {
        var body = Data()
        for file in files {
            body += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(file.name)\"\r\n".utf8)
            body += Data("Content-Type: \(file.type)\r\n\r\n".utf8)
            body += file.bytes
            body += Data("\r\n".utf8)
        }
        body += Data("--\(boundary)--\r\n".utf8)
        return (body, "multipart/form-data; boundary=\(boundary)")
    }
}

/// Rendered pages on a table with known corners and blur, as JPEG.
/// Waits until `condition` holds, for at most `seconds`: a test that waits on a server never hangs
/// (it records an issue and throws instead).
func waitUntil(
    _ what: String, within seconds: Double = 30, sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () -> Bool
) async throws {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("waited \(seconds) s for \(what)", sourceLocation: sourceLocation)
            throw CancellationError()
        }
        try await Task.sleep(for: .milliseconds(5))
    }
}

/// The server's workers kept busy, each spinning on the CPU as detection on a huge image does,
/// until ``release()``: whatever comes meanwhile waits in the queue or gets its deadline.
final class BusyWorkers: Sendable {
    private final class Flag: Sendable { let done = Atomic<Bool>(false) }
    private let flag = Flag()
    private let jobs: [Task<Void, Never>]

    init(_ live: LiveServer, count: Int) async throws {
        let flag = flag
        let spin: @Sendable () -> Void = {
            var x = 0.0
            while !flag.done.load(ordering: .relaxed) { x += sin(x) }
            _ = x
        }
        jobs = (0..<count).map { _ in Task { _ = try? await live.server.pool.run(timeout: 60, spin) } }
        try await waitUntil("\(count) worker(s) busy") { live.server.pool.load.running == count }
    }

    /// Lets the workers go, and waits until they have.
    func release() async {
        flag.done.store(true, ordering: .relaxed)
        for job in jobs { await job.value }
    }
}

enum Scenes {
    static let corners = SyntheticScene.corners(
        frameWidth: 960, frameHeight: 540, center: Point(x: 480, y: 270), fill: 0.8, rotation: 8)

    static func jpeg(blur: Double, seed: UInt64 = 3) throws -> Data {
        let table = try SyntheticBackground.wood.render(width: 960, height: 540, seed: seed)
        let page = try SyntheticPage(width: 425, height: 550, seed: seed)
        let scene = try SyntheticScene(
            background: table, page: page, corners: corners, blur: .init(sigma: blur), noise: 2, seed: seed)
        return Data(try scene.frame.encoded(as: .jpeg, quality: 0.92))
    }

    static func cornerError(_ corners: [[Double]]) -> Double {
        let found = corners.map { Point(x: $0[0], y: $0[1]) }
        return zip(found, Self.corners.corners).map { $0.distance(to: $1) }.max() ?? .infinity
    }
}

@Suite struct ServiceTests {
    @Test func healthAndMetrics() async throws {
        let live = try await LiveServer()
        let health = try await live.request("GET", "/v1/health")
        #expect(health.status == 200 && health.json["status"] as? String == "ok" && health.json["workers"] as? Int == 2)
        #expect(health.json["version"] as? String == FocalVersion.string)
        _ = try await live.request("POST", "/v1/detect", body: Data("x".utf8), contentType: "text/plain")
        let metrics = try await live.request("GET", "/metrics")
        let text = String(decoding: metrics.body, as: UTF8.self)
        #expect(metrics.status == 200)
        #expect(text.contains("focal_requests_total{endpoint=\"detect\",status=\"415\"} 1"), "\(text)")
        #expect(text.contains("focal_request_duration_seconds_bucket"))
        #expect(ServiceConfiguration().host == "127.0.0.1", "loopback by default")
    }

    @Test func detectFindsThePageInARawOrMultipartImage() async throws {
        let live = try await LiveServer()
        let image = try Scenes.jpeg(blur: 0.5)
        let raw = try await live.request(
            "POST", "/v1/detect?types=rectangle&accuracy=high", body: image, contentType: "image/jpeg")
        #expect(raw.status == 200, "\(raw.reason)")
        let frames = try #require(raw.json["frames"] as? [[String: Any]])
        let feature = try #require((frames.first?["features"] as? [[String: Any]])?.first)
        #expect(feature["type"] as? String == "rectangle")
        #expect(Scenes.cornerError(feature["corners"] as! [[Double]]) < 4)
        #expect(raw.json["width"] as? Int == 960)
        let (body, type) = LiveServer.multipart([("page.jpg", "image/jpeg", image)])
        let form = try await live.request("POST", "/v1/detect?types=rectangle,qr", body: body, contentType: type)
        #expect(form.status == 200 && form.json["source"] as? String == "page.jpg", "\(form.reason)")
    }

    @Test func scanPicksTheSharpestOfABurstAndServesTheFlatScan() async throws {
        let live = try await LiveServer()
        let burst = try [2.5, 0.0, 1.2].enumerated().map {
            ("shot\($0.offset).jpg", "image/jpeg", try Scenes.jpeg(blur: $0.element))
        }
        let (body, type) = LiveServer.multipart(burst)
        let reply = try await live.request("POST", "/v1/scan", body: body, contentType: type)
        #expect(reply.status == 200, "\(reply.reason)")
        let documents = try #require(reply.json["documents"] as? [[String: Any]])
        try #require(documents.count == 1)
        #expect(documents[0]["bestFrame"] as? Int == 1, "the unblurred shot")
        #expect(Scenes.cornerError(documents[0]["corners"] as! [[Double]]) < 4)
        let scan = try #require(documents[0]["scan"] as? [String: Any])
        let url = try #require(scan["url"] as? String)
        let image = try await live.request("GET", url)
        #expect(image.status == 200 && image.headers["content-type"] == "image/jpeg")
        let flat = try Frame(decoding: Array(image.body))
        #expect(flat.height > flat.width, "a portrait page")
        let inline = try await live.request("POST", "/v1/scan?inline=base64", body: body, contentType: type)
        let inlineScan = ((inline.json["documents"] as? [[String: Any]])?.first?["scan"] as? [String: Any]) ?? [:]
        #expect(Data(base64Encoded: inlineScan["base64"] as? String ?? "") != nil)
        let missing = try await live.request("GET", "/v1/scans/nope")
        #expect(missing.status == 404)
    }

    @Test func scanReadsAShortVideo() async throws {
        let live = try await LiveServer()
        let clip = try SyntheticClip(width: 480, height: 270, frameCount: 12, sharpestFrame: 7, firstPageFrame: 1, seed: 8)
        let path = NSTemporaryDirectory() + "focal-service-\(UUID().uuidString).mp4"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try VideoWriter(path: path, width: 480, height: 270, framesPerSecond: 30)
        for index in 0..<clip.frameCount { try writer.append(try clip.scene(at: index).frame) }
        try writer.finish()
        let video = try Data(contentsOf: URL(fileURLWithPath: path))
        let reply = try await live.request("POST", "/v1/scan", body: video, contentType: "video/mp4")
        #expect(reply.status == 200, "\(reply.reason)")
        #expect(reply.json["frames"] as? Int == 12)
        let documents = reply.json["documents"] as? [[String: Any]] ?? []
        #expect(documents.first?["bestFrame"] as? Int == 7)
    }

    @Test func malformedInputGetsAFourHundredAndTheServerKeepsServing() async throws {
        let live = try await LiveServer {
            $0.maximumBodyBytes = 2_000_000; $0.maximumImagePixels = 10_000_000
        }
        let image = try Scenes.jpeg(blur: 0)
        // A PNG header claiming 100,000 × 100,000 pixels: refused before decoding.
        var bomb = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])
        bomb += Data([0x00, 0x01, 0x86, 0xA0, 0x00, 0x01, 0x86, 0xA0, 8, 2, 0, 0, 0]) + Data(count: 64)
        let cases: [(String, Data?, String?, Int, String)] = [
            ("not an image", Data("hello, world".utf8), "image/jpeg", 422, "not a JPEG"),
            ("truncated JPEG", image.prefix(image.count / 3), "image/jpeg", 422, "could not be decoded"),
            ("wrong content type", image, "text/plain", 415, "Content-Type"),
            ("empty body", Data(), "image/jpeg", 400, "empty"),
            ("huge dimensions", bomb, "image/png", 413, "100000x100000"),
            ("bad multipart", Data("--x\r\nnonsense".utf8), "multipart/form-data; boundary=x", 400, "multipart"),
            ("no boundary", Data("abc".utf8), "multipart/form-data", 400, "boundary"),
            ("too large", Data(count: 3_000_000), "image/jpeg", 413, "larger than"),
        ]
        for (name, body, type, status, reason) in cases {
            let reply = try await live.request("POST", "/v1/detect", body: body, contentType: type)
            #expect(reply.status == status, "\(name): \(reply.status) \(reply.reason)")
            #expect(reply.reason.contains(reason), "\(name): \(reply.reason)")
            #expect(reply.headers["content-type"] == "application/json", "\(name)")
        }
        let badOption = try await live.request("POST", "/v1/detect?types=cats", body: image, contentType: "image/jpeg")
        #expect(badOption.status == 400 && badOption.reason.contains("cats"))
        let after = try await live.request("POST", "/v1/detect", body: image, contentType: "image/jpeg")
        #expect(after.status == 200, "still serving")
    }

    @Test func aFullPoolAnswersServiceUnavailableWithRetryAfter() async throws {
        let live = try await LiveServer {
            $0.workers = 1; $0.queueDepth = 0
        }
        let release = DispatchSemaphore(value: 0)
        // Its deadline only has to outlast the request below, however slow the machine.
        let blocker = Task { try await live.server.pool.run(timeout: 120) { release.wait() } }
        // Waits without blocking a thread of the test's own executor.
        try await waitUntil("the blocking job running") { live.server.pool.load.running == 1 }
        let reply = try await live.request("POST", "/v1/detect", body: try Scenes.jpeg(blur: 0), contentType: "image/jpeg")
        #expect(reply.status == 503)
        #expect(reply.headers["retry-after"] == "1")
        #expect(reply.reason.contains("busy"))
        release.signal()
        try await blocker.value
        let later = try await live.request("POST", "/v1/detect", body: try Scenes.jpeg(blur: 0), contentType: "image/jpeg")
        #expect(later.status == 200)
    }

    @Test func waitingJobsRunInTurnAndTimeOutsAreReported() async throws {
        let pool = WorkerPool(workers: 1, queueDepth: 2)
        async let first = pool.run(timeout: 5) {
            usleep(100_000); return 1
        }
        async let second = pool.run(timeout: 5) { 2 }
        #expect(try await first + second == 3)
        await #expect(throws: WorkerPool.Refusal.timedOut) { try await pool.run(timeout: 0.05) { usleep(300_000) } }
        #expect(pool.load.running <= 1)
    }
}
