import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `focal serve` as a subprocess: it prints the port it bound, answers, and stops cleanly on SIGINT.
@Suite struct ServeCLITests {
    @Test func servesOnAFreePortAndStopsOnInterrupt() async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLIRun.binary)
        process.arguments = ["serve", "--port", "0", "--workers", "1"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        // The first line names the port.
        var text = ""
        let deadline = Date().addingTimeInterval(20)
        while !text.contains("\n"), Date() < deadline {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        let port = try #require(text.split(separator: ":").last.flatMap { Int($0.prefix { $0.isNumber }) }, "\(text)")
        #expect(text.contains("127.0.0.1"), "loopback by default: \(text)")
        let (data, response) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/v1/health")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self).contains("\"status\":\"ok\""))
        process.interrupt()
        let stopBy = Date().addingTimeInterval(10)
        while process.isRunning, Date() < stopBy { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!process.isRunning, "SIGINT stops the server")
        #expect(process.terminationStatus == 0)
    }

    @Test func badOptionsAreUsageErrors() throws {
        let run = try CLIRun(["serve", "--workers", "0"])
        #expect(run.status == 2 && run.error.contains("--workers"))
    }
}
