import Focal
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `focal serve` as a subprocess: it prints the port it bound, answers, and stops cleanly on SIGINT.
@Suite struct ServeCLITests {
    @Test func servesOnAFreePortAndStopsOnInterrupt() async throws {
        let server = try ServeProcess(["serve", "--port", "0", "--workers", "1"])
        let process = server.process
        #expect(server.firstLine.contains("127.0.0.1"), "loopback by default: \(server.firstLine)")
        let (data, response) = try await URLSession.shared.data(from: URL(string: server.base + "/v1/health")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self).contains("\"status\":\"ok\""))
        process.interrupt()
        let stopBy = Date().addingTimeInterval(10)
        while process.isRunning, Date() < stopBy { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!process.isRunning, "SIGINT stops the server")
        #expect(process.terminationStatus == 0)
    }

    @Test func sigtermDrainsFinishingTheRequestsInFlight() async throws {
        // A request that takes seconds: a large photo through all four detectors.
        var photo = try Frame(width: 4000, height: 3000, format: .bgr8, color: Color(white: 0.8))
        for index in 0..<30 {
            try photo.text(
                "line \(index) of a page", at: Point(x: 200, y: Double(100 + index * 90)), size: 40, color: .black, weight: 2)
        }
        let body = Data(try photo.encoded(as: .png))
        // The drain delay leaves the probes below many seconds to arrive, however loaded the machine:
        // with 6 s, a CI run of every suite at once saw the listener close before the live probe. The
        // request's own deadline is far off too: on a machine shared three ways it ran past the default 30 s.
        let server = try ServeProcess([
            "serve", "--port", "0", "--workers", "1", "--drain-delay", "20", "--grace", "110", "--timeout", "100",
        ])
        let process = server.process
        let base = server.base
        func status(_ path: String) async -> Int? {
            guard let (_, response) = try? await URLSession.shared.data(from: URL(string: base + path)!) else { return nil }
            return (response as? HTTPURLResponse)?.statusCode
        }
        #expect(await status("/v1/health/ready") == 200)
        #expect(await status("/v1/health/live") == 200)

        let slow = Task {
            var request = URLRequest(url: URL(string: base + "/v1/detect?types=rectangle,text,face,qr")!)
            request.httpMethod = "POST"
            request.httpBody = body
            request.setValue("image/png", forHTTPHeaderField: "Content-Type")
            request.timeoutInterval = 120
            let (_, response) = try await URLSession.shared.data(for: request)
            return (response as? HTTPURLResponse)?.statusCode
        }
        try await Task.sleep(for: .milliseconds(500))
        process.terminate()  // SIGTERM
        // The server notices the signal when the machine lets it run: ask until it says so, within the drain delay.
        let signalled = Date()
        var ready = await status("/v1/health/ready")
        while ready != 503, Date() < signalled.addingTimeInterval(10) {
            try await Task.sleep(for: .milliseconds(50))
            ready = await status("/v1/health/ready")
        }
        #expect(ready == 503, "ready fails while draining")
        let live = await status("/v1/health/live")
        let since = Date().timeIntervalSince(signalled)
        #expect(
            live == 200, "requests are still served during the drain delay: \(String(describing: live)), \(since) s after SIGTERM"
        )
        let finished = try await slow.value
        #expect(finished == 200, "the request in flight finishes: \(String(describing: finished))")
        let stopBy = Date().addingTimeInterval(30)
        while process.isRunning, Date() < stopBy { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!process.isRunning)
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
    }

    @Test func badOptionsAreUsageErrors() throws {
        let run = try CLIRun(["serve", "--workers", "0"])
        #expect(run.status == 2 && run.error.contains("--workers"))
    }

    @Test func aScanStoreURLThatCannotWorkIsAUsageErrorSayingWhatToWrite() throws {
        for (url, reason) in [
            ("redis://cache/0", "is not a postgres:// URL"), ("postgres://db.internal/focal", "names no user"),
            ("postgres://focal@db.internal/", "names no database"),
            ("postgres://focal@db.internal/focal?sslmode=verify-full", "sslmode=verify-full"),
        ] {
            let run = try CLIRun(["serve", "--scan-postgres", url])
            #expect(run.status == 2, "\(url)")
            #expect(
                run.error.contains(reason) && run.error.contains("postgres://user[:password]@host[:port]/database"),
                "\(run.error)")
        }
        let both = try CLIRun(["serve", "--scan-dir", "/tmp/scans", "--scan-postgres", "postgres://focal@db/focal"])
        #expect(both.status == 2 && both.error.contains("give one"))
    }

    @Test func anUnreachableScanStoreStopsTheStartNamingItWithoutThePassword() throws {
        // Port 1 on loopback: nothing listens, the connection is refused at once.
        let run = try CLIRun(["serve", "--port", "0", "--scan-postgres", "postgres://focal:hunter2@127.0.0.1:1/focal"])
        #expect(run.status == 1)
        #expect(run.error.contains("postgres://focal@127.0.0.1:1/focal") && !run.error.contains("hunter2"), "\(run.error)")
    }
}

/// `focal serve` on a free loopback port as a subprocess, stopped when dropped.
final class ServeProcess {
    let process = Process()
    /// What the server printed first: the address it listens on.
    let firstLine: String
    let base: String

    init(_ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: CLIRun.binary)
        process.environment = CLIRun.environment
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The first line names the port. Reads wait at most until the deadline (poll, not a
        // blocking read), and a server that never says it is killed by the deinit.
        var text = ""
        let deadline = Date().addingTimeInterval(30)
        let descriptor = out.fileHandleForReading.fileDescriptor
        while !text.contains("\n"), Date() < deadline {
            var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&waiting, 1, 100) >= 0 else { break }
            guard waiting.revents != 0 else { continue }
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        firstLine = text
        let port = try #require(text.split(separator: ":").last.flatMap { Int($0.prefix { $0.isNumber }) }, "\(text)")
        base = "http://127.0.0.1:\(port)"
    }

    deinit { if process.isRunning { process.terminate() } }
}
