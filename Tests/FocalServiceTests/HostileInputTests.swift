import Focal
import FocalService
import FocalSynthetic
import Foundation
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What an attacker sends, crafted here: each gets a 4xx with a JSON error, and the server stays
/// up and healthy after it.
@Suite struct HostileInputTests {
    /// A PNG of 45 bytes whose header claims width x height pixels.
    static func pngHeader(width: UInt32, height: UInt32) -> Data {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]
        for value in [width, height] { bytes += withUnsafeBytes(of: value.bigEndian, Array.init) }
        bytes += [8, 2, 0, 0, 0] + [UInt8](repeating: 0, count: 16)
        return Data(bytes)
    }

    /// A little-endian TIFF of 38 bytes whose first IFD claims width x height.
    static func tiffHeader(width: UInt32, height: UInt32) -> Data {
        var bytes: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0, 2, 0]
        for (tag, value) in [(UInt16(256), width), (257, height)] {
            bytes += withUnsafeBytes(of: tag.littleEndian, Array.init) + [4, 0] + [1, 0, 0, 0]
            bytes += withUnsafeBytes(of: value.littleEndian, Array.init)
        }
        return Data(bytes)
    }

    static func expectAlive(_ live: LiveServer, after what: String) async throws {
        let health = try await live.request("GET", "/v1/health")
        #expect(health.status == 200, "the server is down after \(what)")
    }

    static func expectJSONError(_ reply: LiveServer.Reply, _ statuses: ClosedRange<Int>, _ what: String) {
        #expect(statuses.contains(reply.status), "\(what): \(reply.status) \(reply.reason)")
        #expect(reply.headers["content-type"] == "application/json", "\(what)")
        #expect(!reply.reason.isEmpty, "\(what): no reason in \(String(decoding: reply.body, as: UTF8.self))")
        // Never the server's files: no temp paths, no model paths.
        for leak in ["/tmp", "/usr/", "/work/", NSTemporaryDirectory()] where !leak.isEmpty {
            #expect(!reply.reason.contains(leak), "\(what) shows a server path: \(reply.reason)")
        }
    }

    @Test func headersClaimingGigapixelsAreRefusedWithoutATrap() async throws {
        let live = try await LiveServer()
        let bombs = [
            ("png", "image/png", Self.pngHeader(width: .max, height: .max)),
            ("tiff", "image/tiff", Self.tiffHeader(width: .max, height: .max)),
            ("png 100000", "image/png", Self.pngHeader(width: 100_000, height: 100_000)),
        ]
        for (name, type, bytes) in bombs {
            #expect(bytes.count < 100)
            let detect = try await live.request("POST", "/v1/detect", body: bytes, contentType: type)
            Self.expectJSONError(detect, 413...413, "\(name) to /v1/detect")
            let (burst, form) = LiveServer.multipart([("a.jpg", "image/jpeg", try Scenes.jpeg(blur: 0)), ("b", type, bytes)])
            let scan = try await live.request("POST", "/v1/scan", body: burst, contentType: form)
            Self.expectJSONError(scan, 413...413, "\(name) in a /v1/scan burst")
            try await Self.expectAlive(live, after: name)
        }
    }

    @Test func malformedMultipartIsABadRequestNeverACrash() async throws {
        let live = try await LiveServer()
        let image = try Scenes.jpeg(blur: 0)
        func part(_ head: [UInt8]) -> Data {
            Data(Array("--b\r\n".utf8) + head + Array("\r\n\r\n".utf8)) + image + Data("\r\n--b--\r\n".utf8)
        }
        let bodies: [(String, Data)] = [
            ("a byte >= 0x80 in a header name", part([0xC3, 0xA9] + Array("x: y".utf8))),
            ("0xFF in a header name", part([0xFF, 0x3A, 0x20, 0x61])),
            ("a control character in a value", part(Array("Content-Type: image/jpeg\u{1}".utf8))),
            ("no colon", part(Array("Content-Disposition form-data".utf8))),
            ("an empty header name", part(Array(": value".utf8))),
            ("no closing boundary", Data("--b\r\nContent-Type: image/jpeg\r\n\r\nabc".utf8)),
            ("no boundary line at all", Data("just some bytes".utf8)),
            ("headers that never end", Data("--b\r\n".utf8 + [UInt8](repeating: 0x61, count: 20_000))),
            ("a delimiter without CRLF", Data("--bXYZ\r\n\r\nabc\r\n--b--".utf8)),
        ]
        for (name, body) in bodies {
            let reply = try await live.request("POST", "/v1/detect", body: body, contentType: "multipart/form-data; boundary=b")
            Self.expectJSONError(reply, 400...400, name)
        }
        for contentType in ["multipart/form-data; boundary=", "multipart/form-data; boundary=\(String(repeating: "x", count: 71))",
            "multipart/form-data; boundary=\"a\u{7F}b\""]
        {
            let reply = try await live.request("POST", "/v1/scan", body: part([]), contentType: contentType)
            Self.expectJSONError(reply, 400...400, contentType)
        }
        // Still a multipart server: a well-formed body, with a UTF-8 file name, is read.
        let good = Data("--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"páge.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n".utf8)
            + image + Data("\r\n--b--\r\n".utf8)
        let reply = try await live.request("POST", "/v1/detect", body: good, contentType: "multipart/form-data; boundary=b")
        #expect(reply.status == 200 && reply.json["source"] as? String == "páge.jpg", "\(reply.reason)")
    }

    @Test func uploadsThatPointAtOtherFilesAreNeverOpened() async throws {
        let live = try await LiveServer()
        // A real video on the server, which playlists and concat lists name.
        let path = NSTemporaryDirectory() + "focal-secret-\(UUID().uuidString).mp4"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let clip = try SyntheticClip(width: 320, height: 180, frameCount: 6, sharpestFrame: 3, firstPageFrame: 0, seed: 4)
        let writer = try VideoWriter(path: path, width: 320, height: 180, framesPerSecond: 30)
        for index in 0..<clip.frameCount { try writer.append(try clip.scene(at: index).frame) }
        try writer.finish()
        let missing = NSTemporaryDirectory() + "focal-missing-\(UUID().uuidString).mp4"

        func playlist(_ target: String) -> Data {
            Data("#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\n\(target)\n#EXT-X-ENDLIST\n".utf8)
        }
        func concat(_ target: String) -> Data { Data("ffconcat version 1.0\nfile '\(target)'\n".utf8) }
        var answers: [String: (Int, String)] = [:]
        for (name, body) in [
            ("hls file URL", playlist("file://" + path)), ("hls path", playlist(path)), ("concat", concat(path)),
            ("hls missing", playlist("file://" + missing)), ("concat missing", concat(missing)),
        ] {
            for type in ["video/mp4", "application/octet-stream", "application/vnd.apple.mpegurl"] where type.hasPrefix("video") || name.hasPrefix("hls") {
                let reply = try await live.request("POST", "/v1/scan", body: body, contentType: type)
                Self.expectJSONError(reply, 400...499, "\(name) as \(type)")
                #expect(reply.json["documents"] == nil, "\(name): the server read a file it was pointed at")
                answers[name] = (reply.status, reply.reason.replacingOccurrences(of: missing, with: path))
            }
        }
        // No file-existence oracle: a path that exists and one that does not get the same answer.
        #expect(answers["hls file URL"]?.0 == answers["hls missing"]?.0)
        #expect(answers["concat"]?.0 == answers["concat missing"]?.0)
        try await Self.expectAlive(live, after: "playlists")
    }

    @Test func damagedOrRandomVideosAreTheClientsFault() async throws {
        let live = try await LiveServer()
        let clip = try SyntheticClip(width: 320, height: 180, frameCount: 10, sharpestFrame: 5, firstPageFrame: 0, seed: 5)
        let path = NSTemporaryDirectory() + "focal-damage-\(UUID().uuidString).mp4"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try VideoWriter(path: path, width: 320, height: 180, framesPerSecond: 30)
        for index in 0..<clip.frameCount { try writer.append(try clip.scene(at: index).frame) }
        try writer.finish()
        let video = try Data(contentsOf: URL(fileURLWithPath: path))

        var generator = SplitMix(seed: 18)
        var bodies: [(String, Data)] = [
            ("the first 40 % of an MP4", video.prefix(video.count * 2 / 5)),
            ("an MP4's header alone", video.prefix(64)),
            ("an EBML header with no segment (zero-frame MKV)", Data([0x1A, 0x45, 0xDF, 0xA3, 0x80, 0x42, 0x82, 0x88] + Array("matroska".utf8))),
            ("a RIFF AVI header alone", Data("RIFF\u{0}\u{0}\u{0}\u{0}AVI LIST".utf8)),
        ]
        for round in 0..<4 {
            var damaged = [UInt8](video)
            for _ in 0..<max(1, damaged.count / 100) { damaged[Int(generator.next() % UInt64(damaged.count))] = UInt8(truncatingIfNeeded: generator.next()) }
            bodies.append(("1 % damaged MP4 #\(round)", Data(damaged)))
        }
        for round in 0..<16 {
            let count = 1024 + Int(generator.next() % 4096)
            bodies.append(("random \(count) bytes #\(round)", Data((0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) })))
        }
        for (name, body) in bodies {
            let reply = try await live.request("POST", "/v1/scan", body: body, contentType: "video/mp4")
            if reply.status == 200 { continue }  // a damaged MP4 may still decode
            Self.expectJSONError(reply, 400...499, name)
        }
        try await Self.expectAlive(live, after: "damaged videos")
    }

    @Test func aMissingModelFailsReadinessAndNoAnswerNamesItsPath() async throws {
        let missing = "/nonexistent-focal-models/ppocr-v4-det.onnx"
        let live = try await LiveServer { $0.textModelPath = missing }
        #expect(live.server.unavailableTypes == [.text])
        let health = try await live.request("GET", "/v1/health")
        #expect(health.status == 503)
        #expect(health.json["status"] as? String == "unavailable")
        #expect(health.json["unavailableTypes"] as? [String] == ["text"])
        let text = try await live.request(
            "POST", "/v1/detect?types=text", body: try Scenes.jpeg(blur: 0), contentType: "image/jpeg")
        Self.expectJSONError(text, 503...503, "text detection without its model")
        for reply in [health, text] {
            #expect(!String(decoding: reply.body, as: UTF8.self).contains("nonexistent"), "a server path in an answer")
        }
        // The other detectors still work.
        let rectangle = try await live.request("POST", "/v1/detect", body: try Scenes.jpeg(blur: 0), contentType: "image/jpeg")
        #expect(rectangle.status == 200)
    }

    @Test func theHTTPLayerAnswersAsAProxyExpects() async throws {
        let live = try await LiveServer {
            $0.maximumBodyBytes = 1 << 20; $0.idleTimeout = 1
        }
        // A declared body over the limit: 413 at once, with or without Expect, and no 100 first.
        for expect in ["", "Expect: 100-continue\r\n"] {
            let connection = try RawConnection(port: live.port)
            connection.send("POST /v1/detect HTTP/1.1\r\nHost: x\r\nContent-Type: image/jpeg\r\nContent-Length: 10737418240\r\n\(expect)\r\n")
            let (text, _) = await connection.answer(within: 5, until: "}\n")
            #expect(text.hasPrefix("HTTP/1.1 413"), "\(expect): \(text)")
            #expect(text.contains("application/json") && text.contains("larger than"), "\(text)")
        }
        // Expect: 100-continue on an acceptable body: 100, then the answer. QR codes only: the
        // answer is what is tested, and a page search in a debug build on a machine running every
        // other suite took over a minute once.
        let image = try Scenes.jpeg(blur: 0)
        let connection = try RawConnection(port: live.port)
        connection.send("POST /v1/detect?types=qr HTTP/1.1\r\nHost: x\r\nContent-Type: image/jpeg\r\nContent-Length: \(image.count)\r\nExpect: 100-continue\r\n\r\n")
        // The body follows the interim answer on a thread of its own: a task resumed late by a
        // busy test executor sent it after the 1 s idle timeout once (a CI run: no answer at all).
        let (interim, final) = await offTheTestExecutor { () -> (String, String) in
            let interim = connection.receive(within: 5, until: "\r\n\r\n").text
            connection.send([UInt8](image))
            return (interim, connection.receive(within: 120, until: "}\n").text)
        }
        #expect(interim.hasPrefix("HTTP/1.1 100"), "\(interim)")
        #expect(final.contains("HTTP/1.1 200"), "\(final)")

        // Half a request head: closed after the idle timeout, not kept open.
        let slow = try RawConnection(port: live.port)
        slow.send("GET /v1/health HTTP/1.1\r\nHo")
        let (_, closed) = await slow.answer(within: 6)
        #expect(closed, "a connection that sends half a head is closed")

        // Heads too long, and bytes that are not HTTP.
        let longURI = try RawConnection(port: live.port)
        longURI.send("GET /v1/health?\(String(repeating: "a", count: 10_000)) HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(await longURI.answer(within: 5, until: "}\n").text.hasPrefix("HTTP/1.1 414"))
        let bigHeaders = try RawConnection(port: live.port)
        bigHeaders.send("GET /v1/health HTTP/1.1\r\nHost: x\r\n" + (0..<40).map { "X-\($0): \(String(repeating: "b", count: 1000))\r\n" }.joined() + "\r\n")
        #expect(await bigHeaders.answer(within: 5, until: "}\n").text.hasPrefix("HTTP/1.1 431"))
        let garbage = try RawConnection(port: live.port)
        garbage.send([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03] + Array("\r\n\r\n".utf8))
        #expect(await garbage.answer(within: 5, until: "}\n").text.hasPrefix("HTTP/1.1 400"))

        // Methods and routes: JSON 405 with Allow, JSON 404, HEAD on health.
        let put = try await live.request("PUT", "/v1/detect", body: Data("x".utf8), contentType: "image/jpeg")
        Self.expectJSONError(put, 405...405, "PUT /v1/detect")
        #expect(put.headers["allow"] == "POST")
        let getDetect = try await live.request("GET", "/v1/detect")
        #expect(getDetect.status == 405 && getDetect.headers["allow"] == "POST")
        let deleteScan = try await live.request("DELETE", "/v1/scans/abc")
        #expect(deleteScan.status == 405 && deleteScan.headers["allow"] == "GET")
        Self.expectJSONError(try await live.request("GET", "/v2/nothing"), 404...404, "unknown route")
        let head = try await live.request("HEAD", "/v1/health")
        #expect(head.status == 200 && head.body.isEmpty)
        try await Self.expectAlive(live, after: "HTTP abuse")
    }

    @Test func healthAnswersWhileEveryWorkerIsBusyAndDeadlinesAreKept() async throws {
        let live = try await LiveServer {
            $0.workers = 2; $0.queueDepth = 2; $0.requestTimeout = 1
        }
        // Both workers spin on the CPU, as detection on a huge image does, until the test is done.
        let busy = try await BusyWorkers(live, count: 2)
        // Each answer reports both workers busy, so it came while they were: before the workers
        // had threads of their own, health waited for them and then reported none.
        for _ in 0..<10 {
            let health = try await live.request("GET", "/v1/health")
            #expect(health.status == 200 && health.json["busy"] as? Int == 2, "\(health.json)")
            try await Task.sleep(for: .milliseconds(100))
        }

        // A request queued behind them gets its 503 at its deadline (1 s): the workers never
        // finish while it waits, so the answer can only come from the deadline.
        let queued = try await live.request("POST", "/v1/detect", body: try Scenes.jpeg(blur: 0), contentType: "image/jpeg")
        #expect(queued.status == 503 && queued.reason.contains("longer than"), "\(queued.status) \(queued.reason)")
        #expect(live.server.pool.load.running == 2, "still spinning")
        await busy.release()
        let metrics = String(decoding: try await live.request("GET", "/metrics").body, as: UTF8.self)
        #expect(metrics.contains("focal_requests_timed_out_total 1"), "\(metrics)")
    }

    /// The program around the server keeps every thread of Swift concurrency's shared pool busy,
    /// as a test process running detection beside a live server does: health is answered all the
    /// same. Before the server's tasks had threads of their own (``HTTPExecutor``), it waited for
    /// the program's work to end, here 10 s (a CI run: over 20 s).
    @Test func healthAnswersWhileTheSharedPoolIsBusy() async throws {
        let live = try await LiveServer()
        let connection = try RawConnection(port: live.port)
        let spinners = PoolSpinners()
        let (text, seconds) = await offTheTestExecutor { () -> (String, Double) in
            spinners.start(ProcessInfo.processInfo.activeProcessorCount)
            defer { spinners.release() }
            let start = Date()
            connection.send("GET /v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            return (connection.receive(within: 10, until: "}").text, Date().timeIntervalSince(start))
        }
        let busy = "\(spinners.started) spinning tasks"
        #expect(text.hasPrefix("HTTP/1.1 200"), "\(text.prefix(100)), after \(seconds) s, \(busy)")
        #expect(seconds < 5, "health took \(seconds) s, \(busy)")
    }

    @Test func workPastItsDeadlineStopsAtTheNextStage() async throws {
        let pool = WorkerPool(workers: 1, queueDepth: 0)
        let stages = Mutex(0)
        await #expect(throws: WorkerPool.Refusal.timedOut) {
            try await pool.run(timeout: 0.2) { (deadline: WorkerPool.Deadline) throws -> Int in
                for _ in 0..<20 {
                    try deadline.checkpoint()
                    stages.withLock { $0 += 1 }
                    usleep(100_000)
                }
                return 0
            }
        }
        // The job goes on past the answer until its next checkpoint, then stops.
        try await waitUntil("the job to stop") { pool.load.running == 0 }
        #expect(stages.withLock { $0 } <= 4, "the job ran \(stages.withLock { $0 }) stages of 20")
        #expect(pool.totals.timedOut == 1 && pool.totals.stoppedAfterDeadline == 1)
    }
}

/// Tasks on Swift concurrency's shared pool that spin on the CPU until released, one per thread
/// the pool has (one per core).
final class PoolSpinners: Sendable {
    private let running = Atomic(0)
    private let released = Atomic(false)

    /// How many of the tasks were running when the wait for them ended.
    var started: Int { running.load(ordering: .relaxed) }

    /// Starts `count` tasks and waits up to 2 s for them all to run (fewer run when the pool's
    /// threads are already busy, which is as busy as it gets).
    func start(_ count: Int) {
        for _ in 0..<count {
            Task.detached { [self] in
                running.add(1, ordering: .relaxed)
                while !released.load(ordering: .relaxed) {}
            }
        }
        let deadline = Date().addingTimeInterval(2)
        while started < count, Date() < deadline { usleep(10_000) }
    }

    func release() { released.store(true, ordering: .relaxed) }
}

/// A small seeded generator, so that the random bodies are the same on every run.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
