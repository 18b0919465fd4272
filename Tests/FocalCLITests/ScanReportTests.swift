import Focal
import FocalSynthetic
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `focal scan`'s summary.json and `POST /v1/scan` report one photo's document alike: both are the
/// library's ScanReport, and a photo goes through DocumentScanner.scans(inPhoto:) in both.
@Suite struct ScanReportTests {
    @Test func theCommandAndTheServiceReportAPhotosDocumentAlike() async throws {
        let scratch = Scratch()
        let scene = try SyntheticScene(
            background: try SyntheticBackground.wood.render(width: 960, height: 720, seed: 4),
            page: try SyntheticPage(width: 600, height: 800, seed: 4),
            corners: SyntheticScene.corners(frameWidth: 960, frameHeight: 720, center: Point(x: 470, y: 360), fill: 0.8))
        let photo = scratch.path + "/photo.jpg"
        try scene.frame.write(to: photo)
        let run = try CLIRun(["scan", photo, "--out", scratch.path + "/scans", "--format", "jpg"])
        #expect(run.status == 0, "\(run.error)")
        let summary = try Self.object(Data(contentsOf: URL(fileURLWithPath: scratch.path + "/scans/summary.json")))
        let fromCommand = try #require((summary["documents"] as? [[String: Any]])?.first)

        let server = try ServeProcess(["serve", "--port", "0", "--workers", "1"])
        var request = URLRequest(url: URL(string: server.base + "/v1/scan?inline=base64")!)
        request.httpMethod = "POST"
        request.httpBody = try Data(contentsOf: URL(fileURLWithPath: photo))
        request.setValue("image/jpeg", forHTTPHeaderField: "Content-Type")
        let (data, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200, "\(String(decoding: data, as: UTF8.self))")
        let answer = try Self.object(data)
        let fromService = try #require((answer["documents"] as? [[String: Any]])?.first)

        #expect(summary["frames"] as? Int == 1 && answer["frames"] as? Int == 1)
        // The command names files and adds the best frame's image; the service inlines the scan.
        #expect(Set(fromCommand.keys).subtracting(["bestFrameImage"]) == Set(fromService.keys))
        for key in ["trackID", "firstFrame", "lastFrame", "bestFrame"] {
            #expect(fromCommand[key] as? Int == fromService[key] as? Int, "\(key)")
        }
        for key in ["sharpness", "aspectRatio"] {
            let (a, b) = (fromCommand[key] as? Double ?? -1, fromService[key] as? Double ?? -2)
            #expect(abs(a - b) <= 1e-9 * max(1, abs(a)), "\(key): \(a) and \(b)")
        }
        let corners = (fromCommand["corners"] as? [[Double]], fromService["corners"] as? [[Double]])
        #expect(corners.0 != nil && corners.0 == corners.1, "corners as [[x, y], …] in both")
        let scans = (fromCommand["scan"] as? [String: Any], fromService["scan"] as? [String: Any])
        #expect(
            scans.0?["width"] as? Int == scans.1?["width"] as? Int && scans.0?["height"] as? Int == scans.1?["height"] as? Int)
        #expect(scans.0?["file"] as? String == "document-1.jpg" && scans.1?["base64"] is String)
    }

    static func object(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}
