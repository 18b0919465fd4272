import Focal
import FocalSynthetic
import Foundation
import Testing

/// `focal capture` with a rendered clip standing in for a camera, and the errors a missing or
/// wrong device gives.
@Suite struct CaptureCLITests {
    @Test func capturesPairsAndABurstRanking() throws {
        let scratch = Scratch()
        let clip = try SyntheticClip(width: 320, height: 240, frameCount: 12, sharpestFrame: 6, firstPageFrame: 0, seed: 5)
        let video = scratch.path + "/camera.mp4"
        try writeClip(clip, to: video)
        let pairs = try CLIRun([
            "capture", "--video", video, "--shots", "2", "--filter", "grayscale", "--out", scratch.path + "/pairs",
        ])
        #expect(pairs.status == 0, "\(pairs.error)")
        let files = try FileManager.default.contentsOfDirectory(atPath: scratch.path + "/pairs").sorted()
        #expect(files == ["capture-00001.jpg", "capture-00001.raw", "capture-00002.jpg", "capture-00002.raw", "manifest.json"])
        let raw = try CaptureStore.readRaw(scratch.path + "/pairs/capture-00001.raw")
        #expect(raw.format.width == 320 && raw.format.height == 240 && raw.bytes.count == 320 * 240 * 3)
        let processed = try Frame(contentsOf: scratch.path + "/pairs/capture-00001.jpg")
        let p = processed.pixel(x: 160, y: 120)
        #expect(p.count == 1 || (abs(Int(p[0]) - Int(p[2])) <= 3), "the JPEG is filtered to gray: \(p)")

        let burst = try CLIRun(["capture", "--video", video, "--burst", "4", "--out", scratch.path + "/burst", "--json", "-"])
        #expect(burst.status == 0, "\(burst.error)")
        let ranking = try JSONSerialization.jsonObject(with: Data(burst.output.utf8)) as! [[String: Any]]
        #expect(ranking.count == 4)
        let variances = ranking.map { $0["variance"] as! Double }
        #expect(variances == variances.sorted(by: >), "sharpest first")
        #expect(ranking.map { $0["rank"] as! Int } == [1, 2, 3, 4])
    }

    @Test func missingAndWrongDevicesAreNamed() throws {
        let missing = try CLIRun(["capture", "--device", "/dev/video-focal-missing", "--out", NSTemporaryDirectory() + "focal-x"])
        #expect(
            missing.status == 1 && missing.error.contains("/dev/video-focal-missing") && missing.error.contains("no such device"))
        let notACamera = try CLIRun(["devices", "--device", "/dev/null"])
        #expect(notACamera.status == 1 && notACamera.error.contains("not a V4L2 device"), "\(notACamera.error)")
        let nothing = try CLIRun(["capture"])
        #expect(nothing.status == 2 && nothing.error.contains("--device"))
        let overlay = try CLIRun([
            "overlay", "--camera", "/dev/video-focal-missing", "-o", NSTemporaryDirectory() + "focal-x.mp4",
        ])
        #expect(overlay.status == 1 && overlay.error.contains("/dev/video-focal-missing"), "\(overlay.error)")
    }
}
