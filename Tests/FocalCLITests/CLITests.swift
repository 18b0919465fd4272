import Focal
import FocalSynthetic
import Foundation
import Testing

/// Runs the built `focal` binary as a user would.
struct CLIRun {
    let status: Int32
    let output: String
    let error: String

    /// The environment a focal child gets: this process's, without the decoder limit that a
    /// FocalServer starting in another test sets for an instant while it loads the codecs (a
    /// child spawned in that instant inherited it and refused a 48-megapixel photo).
    static var environment: [String: String] {
        ProcessInfo.processInfo.environment.filter { $0.key != "OPENCV_IO_MAX_IMAGE_PIXELS" }
    }

    static var binary: String {
        // The test bundle sits beside the products of the same build.
        let products = Bundle.main.bundleURL.deletingLastPathComponent().path
        for candidate in [products + "/focal", Bundle.main.bundleURL.path + "/focal"]
        where FileManager.default.isExecutableFile(atPath: candidate) {
            return candidate
        }
        return products + "/focal"
    }

    init(_ arguments: [String], environment: [String: String] = CLIRun.environment) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLIRun.binary)
        process.arguments = arguments
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        status = process.terminationStatus
        output = String(decoding: outData, as: UTF8.self)
        error = String(decoding: errData, as: UTF8.self)
    }
}

extension CLIRun {
    /// Runs focal with arguments and sends it `signal` (SIGINT unless said) after `seconds`:
    /// whether it was still running then, its exit status and what it wrote to standard error.
    static func interrupted(_ arguments: [String], after seconds: Double, signal: Int32 = SIGINT) throws -> (
        wasRunning: Bool, status: Int32, error: String
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        usleep(UInt32(seconds * 1_000_000))
        let wasRunning = process.isRunning
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (wasRunning, process.terminationStatus, message)
    }
}

/// Renders clip into an H.264 file at path.
func writeClip(_ clip: SyntheticClip, to path: String) throws {
    let writer = try VideoWriter(path: path, width: clip.width, height: clip.height, framesPerSecond: clip.framesPerSecond)
    for index in 0..<clip.frameCount { try writer.append(try clip.scene(at: index).frame) }
    try writer.finish()
}

/// What poppler's pdfinfo says of a PDF, and its exit status.
func pdfInfo(_ path: String) throws -> (text: String, status: Int32) {
    let info = Process()
    info.executableURL = URL(fileURLWithPath: "/usr/bin/pdfinfo")
    info.arguments = [path]
    let pipe = Pipe()
    info.standardOutput = pipe
    try info.run()
    let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    info.waitUntilExit()
    return (text, info.terminationStatus)
}

final class Scratch {
    let path = NSTemporaryDirectory() + "focal-cli-" + UUID().uuidString
    init() { try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(atPath: path) }
    var contents: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }
}

@Suite struct CLITests {
    @Test func versionAndHelp() throws {
        let version = try CLIRun(["--version"])
        #expect(version.status == 0)
        #expect(version.output.trimmingCharacters(in: .whitespacesAndNewlines) == FocalVersion.string)
        let help = try CLIRun(["overlay", "--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("EXAMPLES"))
    }

    @Test func overlayWritesEveryFrameWithTheLabel() throws {
        let scratch = Scratch()
        let clip = try SyntheticClip(width: 320, height: 180, frameCount: 12, framesPerSecond: 24, sharpestFrame: 8, seed: 3)
        let input = scratch.path + "/in.mp4", output = scratch.path + "/out.mp4"
        try writeClip(clip, to: input)

        let run = try CLIRun(["overlay", input, "-o", output, "--mark-sharpest"])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.contains("sharpest #1 at frame 8"), "\(run.output)")
        let reader = try VideoReader(path: output, pixelFormat: .bgr8)
        #expect(reader.width == 320 && reader.height == 180)
        #expect(abs(reader.framesPerSecond - 24) < 0.01)
        var count = 0
        while let frame = try reader.read() {
            // The label's badge is dark and its text bright, where the scene was mid-tone wood.
            let badge = frame.pixel(x: 14, y: 14)
            #expect(badge.allSatisfy { $0 < 90 }, "frame \(count) badge \(badge)")
            count += 1
        }
        #expect(count == 12)
        #expect(scratch.contents == ["in.mp4", "out.mp4"])
    }

    @Test func overlayOnAnImageWritesAnImage() throws {
        let scratch = Scratch()
        let scene = try SyntheticScene(
            background: try SyntheticBackground.wood.render(width: 400, height: 300, seed: 1),
            page: try SyntheticPage(width: 300, height: 400, seed: 1),
            corners: SyntheticScene.corners(frameWidth: 400, frameHeight: 300, center: Point(x: 200, y: 150), fill: 0.8))
        try scene.frame.write(to: scratch.path + "/photo.jpg")
        let run = try CLIRun(["overlay", scratch.path + "/photo.jpg", "-o", scratch.path + "/annotated.png"])
        #expect(run.status == 0, "\(run.error)")
        let annotated = try Frame(contentsOf: scratch.path + "/annotated.png")
        #expect(annotated.width == 400 && annotated.height == 300)
    }

    @Test func errorsNameTheInputAndUseExitCodes() throws {
        let scratch = Scratch()
        let missing = try CLIRun(["overlay", scratch.path + "/nope.mp4", "-o", scratch.path + "/out.mp4"])
        #expect(missing.status == 1)
        #expect(missing.error.contains("nope.mp4") && missing.error.contains("no such file"), "\(missing.error)")

        let garbage = scratch.path + "/garbage.mp4"
        try Data(repeating: 0x42, count: 4096).write(to: URL(fileURLWithPath: garbage))
        let unreadable = try CLIRun(["overlay", garbage, "-o", scratch.path + "/out.mp4"])
        #expect(unreadable.status == 1)
        #expect(unreadable.error.contains("garbage.mp4"), "\(unreadable.error)")

        let clip = scratch.path + "/ok.mp4"
        let writer = try VideoWriter(path: clip, width: 64, height: 48, framesPerSecond: 10)
        try writer.append(try Frame(width: 64, height: 48, format: .bgr8, color: .white))
        try writer.finish()
        let unwritable = try CLIRun(["overlay", clip, "-o", scratch.path + "/missing/folder/out.mp4"])
        #expect(unwritable.status == 1)
        #expect(unwritable.error.contains("does not exist"), "\(unwritable.error)")

        let unknown = try CLIRun(["overlay", clip, "-o", scratch.path + "/x.mp4", "--frobnicate"])
        #expect(unknown.status == 2)
        #expect(unknown.error.contains("--frobnicate"), "\(unknown.error)")
        #expect(scratch.contents == ["garbage.mp4", "ok.mp4"], "no output or temporary file left: \(scratch.contents)")
    }
}

@Suite struct DetectCLITests {
    @Test func detectWritesThePredictionsSchema() throws {
        let scratch = Scratch()
        let clip = try SyntheticClip(width: 640, height: 360, frameCount: 10, sharpestFrame: 6, firstPageFrame: 3, seed: 12)
        let input = scratch.path + "/clip.mp4", output = scratch.path + "/clip.json"
        try writeClip(clip, to: input)

        let run = try CLIRun(["detect", input, "--json", output])
        #expect(run.status == 0, "\(run.error)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output))) as! [String: Any]
        #expect(json["source"] as? String == "clip.mp4")
        #expect(json["width"] as? Int == 640 && json["height"] as? Int == 360)
        #expect(json["documents"] is [Any])
        let frames = try #require(json["frames"] as? [[String: Any]])
        #expect(frames.map { $0["index"] as! Int } == Array(3..<10), "frames without a page are left out")
        for frame in frames {
            let index = frame["index"] as! Int
            let feature = try #require((frame["features"] as? [[String: Any]])?.first)
            #expect(feature["type"] as? String == "rectangle")
            #expect(feature["trackID"] as? Int == 1)
            let corners = try #require(feature["corners"] as? [[Double]])
            let truth = try #require(clip.corners(at: index))
            for (found, expected) in zip(corners, truth.corners) {
                #expect(
                    abs(found[0] - expected.x) < 3 && abs(found[1] - expected.y) < 3, "frame \(index): \(found) vs \(expected)")
            }
        }
    }

    /// The shim's own network layers run AVX-512 code where the machine has it, AVX2 code where it
    /// has only that, and baseline code elsewhere (`has_avx512`, `has_avx2_and_fma` in
    /// `dnn_layers.hpp`, asked of OpenCV); `OPENCV_CPU_DISABLE` makes this machine one without them,
    /// for OpenCV's layers and the shim's alike. Real phone photos give the same pages and text lines
    /// on every path, at both accuracies: AVX2's to the bit as AVX-512's (each sum is taken in the same
    /// order), the baseline's within half a pixel.
    @Test(arguments: ["high", "low"])
    func machinesWithoutAVX512OrAVX2FindTheSamePages(accuracy: String) throws {
        let scratch = Scratch()
        let photos = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FocalTests/Resources/phone_photos")
        let cases = [
            ("a4-on-dark-background.webp", "rectangle"), ("holding-with-a-hand.webp", "rectangle"),
            ("card-on-dark-background.webp", "rectangle"), ("inner-table.webp", "rectangle,text"),
        ]
        let paths = [
            ("fastest", [String: String]()), ("avx2", ["OPENCV_CPU_DISABLE": "AVX512F"]),
            ("baseline", ["OPENCV_CPU_DISABLE": "AVX512F,AVX,AVX2,FMA3"]),
        ]
        for (photo, types) in cases {
            var features: [[[String: Any]]] = []
            for (label, disabled) in paths {
                let output = scratch.path + "/\(photo)-\(label).json"
                let run = try CLIRun(
                    [
                        "detect", photos.appendingPathComponent(photo).path, "--types", types, "--accuracy", accuracy,
                        "--json", output,
                    ],
                    environment: CLIRun.environment.merging(disabled) { $1 })
                #expect(run.status == 0, "\(photo), \(label): \(run.error)")
                let json =
                    try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output))) as! [String: Any]
                let frame = try #require((json["frames"] as? [[String: Any]])?.first, "\(photo), \(label): no frame")
                features.append(try #require(frame["features"] as? [[String: Any]]))
            }
            #expect(features[0].contains { $0["type"] as? String == "rectangle" }, "\(photo): no page found")
            for (path, tolerance) in [(1, 0.0), (2, 0.5)] {
                let (fast, other) = (features[0], features[path])
                #expect(fast.count == other.count, "\(photo): \(fast.count) features fastest, \(other.count) \(paths[path].0)")
                for (a, b) in zip(fast, other) {
                    let (cornersA, cornersB) = (a["corners"] as! [[Double]], b["corners"] as! [[Double]])
                    let apart = zip(cornersA, cornersB).map { max(abs($0[0] - $1[0]), abs($0[1] - $1[1])) }.max() ?? 0
                    #expect(
                        a["type"] as? String == b["type"] as? String && apart <= tolerance,
                        "\(photo), \(paths[path].0): \(cornersA) vs \(cornersB)")
                }
            }
        }
    }

    @Test func detectPrintsATableAndRejectsBadTypes() throws {
        let scratch = Scratch()
        let scene = try SyntheticScene(
            background: try SyntheticBackground.wood.render(width: 640, height: 360, seed: 2),
            page: try SyntheticPage(width: 425, height: 550, seed: 2),
            corners: SyntheticScene.corners(frameWidth: 640, frameHeight: 360, center: Point(x: 320, y: 180), fill: 0.8))
        try scene.frame.write(to: scratch.path + "/page.png")
        let table = try CLIRun(["detect", scratch.path + "/page.png"])
        #expect(table.status == 0)
        #expect(table.output.contains("rectangle"), "\(table.output)")
        let bad = try CLIRun(["detect", scratch.path + "/page.png", "--types", "rectangle,unicorn"])
        #expect(bad.status == 2)
        #expect(bad.error.contains("unicorn"))
    }
}

@Suite struct ScanAndSharpestCLITests {
    @Test func scanWritesTheBestFrameAndAFlatScan() throws {
        let scratch = Scratch()
        let clip = try SyntheticClip(width: 640, height: 360, frameCount: 14, sharpestFrame: 9, firstPageFrame: 2, seed: 17)
        let input = scratch.path + "/clip.mp4"
        try writeClip(clip, to: input)
        let run = try CLIRun(["scan", input, "--out", scratch.path + "/scans"])
        #expect(run.status == 0, "\(run.error)")
        let summary =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: scratch.path + "/scans/summary.json")))
            as! [String: Any]
        let documents = try #require(summary["documents"] as? [[String: Any]])
        try #require(documents.count == 1)
        #expect(documents[0]["bestFrame"] as? Int == 9)
        #expect(documents[0]["firstFrame"] as? Int == 2)
        let scan = try Frame(contentsOf: scratch.path + "/scans/document-1.png")
        #expect(scan.height > scan.width, "a portrait page comes out portrait")
        _ = try Frame(contentsOf: scratch.path + "/scans/document-1-best.jpg")
    }

    @Test func scanWritesAPDFThatPdfinfoReads() throws {
        let scratch = Scratch()
        let clip = try SyntheticClip(width: 640, height: 360, frameCount: 14, sharpestFrame: 9, firstPageFrame: 2, seed: 17)
        let input = scratch.path + "/clip.mp4"
        try writeClip(clip, to: input)
        let run = try CLIRun(["scan", input, "--pdf", scratch.path + "/clip.pdf", "--enhance", "gray"])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.contains("1 page(s)"), "\(run.output)")
        let (text, status) = try pdfInfo(scratch.path + "/clip.pdf")
        #expect(
            status == 0 && text.contains("Pages:           1") && text.contains("Title:           Scan of clip.mp4"), "\(text)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/scans"), "no folder without --out")

        let nowhere = try CLIRun(["scan", input])
        #expect(nowhere.status == 2 && nowhere.error.contains("--pdf"), "\(nowhere.error)")
        let blank = scratch.path + "/blank.png"
        try Frame(width: 320, height: 240, format: .bgr8, color: Color(white: 0.5)).write(to: blank)
        let empty = try CLIRun(["scan", blank, "--pdf", scratch.path + "/blank.pdf"])
        #expect(empty.status == 3 && empty.error.contains("no document found"), "\(empty.error)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/blank.pdf"))
    }

    @Test func sharpestRanksPhotosAndDrawsTheSheet() throws {
        let scratch = Scratch()
        let table = try SyntheticBackground.wood.render(width: 480, height: 270, seed: 4)
        let page = try SyntheticPage(width: 425, height: 550, seed: 4)
        let corners = SyntheticScene.corners(frameWidth: 480, frameHeight: 270, center: Point(x: 240, y: 135), fill: 0.85)
        for (name, sigma) in [("soft", 2.0), ("sharp", 0.0), ("medium", 1.0)] {
            try SyntheticScene(background: table, page: page, corners: corners, blur: .init(sigma: sigma)).frame
                .write(to: scratch.path + "/\(name).png")
        }
        let run = try CLIRun(
            ["sharpest"] + ["soft", "sharp", "medium"].map { scratch.path + "/\($0).png" }
                + ["--sheet", scratch.path + "/sheet.png", "--laplacian", scratch.path + "/lap", "--json", "-"])
        #expect(run.status == 0, "\(run.error)")
        let ranking = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as! [[String: Any]]
        #expect(ranking.map { ($0["file"] as! String).split(separator: "/").last! } == ["sharp.png", "medium.png", "soft.png"])
        let sheet = try Frame(contentsOf: scratch.path + "/sheet.png")
        #expect(sheet.height > 3 * 300, "one row per photo")
        #expect(FileManager.default.fileExists(atPath: scratch.path + "/lap/sharp-laplacian.png"))
        let missing = try CLIRun(["sharpest", scratch.path + "/nope.jpg"])
        #expect(missing.status == 1 && missing.error.contains("nope.jpg"))
    }
}

@Suite struct OverlayCLITests {
    /// A clip of a page on a dark plain table with known corners, the same in every frame.
    static func stillClip(to path: String, frames: Int = 10) throws -> Quad {
        let corners = SyntheticScene.corners(
            frameWidth: 640, frameHeight: 360, center: Point(x: 320, y: 180), fill: 0.8, rotation: 5)
        let scene = try SyntheticScene(
            background: try SyntheticBackground.plain(Color(white: 0.15)).render(width: 640, height: 360, seed: 1),
            page: try SyntheticPage(width: 425, height: 550, seed: 61), corners: corners)
        let writer = try VideoWriter(path: path, width: 640, height: 360, framesPerSecond: 25)
        for _ in 0..<frames { try writer.append(scene.frame) }
        try writer.finish()
        return corners
    }

    @Test func overlayColoursTheDocumentWhereItIs() throws {
        let scratch = Scratch()
        let input = scratch.path + "/in.mp4", output = scratch.path + "/out.mp4"
        let corners = try Self.stillClip(to: input)
        let run = try CLIRun(["overlay", input, "-o", output, "--no-info", "--color", "ff0000", "--opacity", "0.5"])
        #expect(run.status == 0, "\(run.error)")
        let reader = try VideoReader(path: output, pixelFormat: .bgr8)
        #expect(reader.width == 640 && reader.height == 360 && reader.frameCount == 10)
        var frames: [Frame] = []
        while let frame = try reader.read() { frames.append(frame) }
        let last = try #require(frames.last)
        // Inside the page: white paper tinted half red. Outside: the dark table, untouched.
        let inside = corners.center + Point(x: 0, y: 60)
        let tinted = last.pixel(x: Int(inside.x), y: Int(inside.y))
        #expect(Int(tinted[2]) - Int(tinted[1]) > 60, "red tint inside the quad: \(tinted)")
        let outside = last.pixel(x: 20, y: 340)
        #expect(outside.allSatisfy { $0 < 70 }, "table untouched: \(outside)")
        // On the left edge's midpoint: the outline, red.
        let edge = (corners.topLeft + corners.bottomLeft) * 0.5
        let line = last.pixel(x: Int(edge.x.rounded()), y: Int(edge.y.rounded()))
        #expect(line[2] > 150 && line[1] < 110, "outline colour \(line)")
    }

    @Test func filterAndSizeChangeTheOutput() throws {
        let scratch = Scratch()
        let input = scratch.path + "/in.mp4"
        _ = try Self.stillClip(to: input, frames: 4)
        let run = try CLIRun([
            "overlay", input, "-o", scratch.path + "/small.mp4", "--size", "320x320", "--filter", "grayscale", "--types", "none",
        ])
        #expect(run.status == 0, "\(run.error)")
        let frame = try #require(try VideoReader(path: scratch.path + "/small.mp4", pixelFormat: .bgr8).read())
        #expect(frame.width == 320 && frame.height == 320)
        #expect(frame.pixel(x: 160, y: 10).allSatisfy { $0 < 20 }, "letterbox bars are black")
        let middle = frame.pixel(x: 160, y: 160)
        #expect(abs(Int(middle[0]) - Int(middle[2])) < 8, "grayscale: no colour left \(middle)")
        let bad = try CLIRun(["overlay", input, "-o", scratch.path + "/x.mp4", "--filter", "sepia"])
        #expect(bad.status == 2 && bad.error.contains("sepia"))
    }

    /// The default encoder holds no B-frames (they cost a frame of memory each at every encoder
    /// thread); --compact turns them back on. An MP4 has a composition-offset box (ctts) only when
    /// frames are stored out of display order, that is, only with B-frames.
    @Test(arguments: [([String](), false), (["--compact"], true), (["--low-memory"], false)])
    func encoderIsLeanUnlessCompactIsAsked(flags: [String], expectsBFrames: Bool) throws {
        let scratch = Scratch()
        let input = scratch.path + "/in.mp4", output = scratch.path + "/out.mp4"
        let corners = try Self.stillClip(to: input, frames: 12)
        let run = try CLIRun(["overlay", input, "-o", output, "--no-info", "--color", "ff0000", "--opacity", "0.5"] + flags)
        #expect(run.status == 0, "\(run.error)")
        let reader = try VideoReader(path: output, pixelFormat: .bgr8)
        var last: Frame?
        var count = 0
        while let frame = try reader.read() {
            last = frame
            count += 1
        }
        #expect(count == 12)
        let inside = corners.center + Point(x: 0, y: 60)
        let tinted = try #require(last).pixel(x: Int(inside.x), y: Int(inside.y))
        #expect(Int(tinted[2]) - Int(tinted[1]) > 60, "the overlay is drawn: \(tinted)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: output))
        #expect((bytes.range(of: Data("ctts".utf8)) != nil) == expectsBFrames, "B-frames in \(flags)")
    }

    @Test func interruptLeavesNothingBehind() throws {
        let scratch = Scratch()
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Samples/Media/document.mp4").path
        // 1.5 s is well inside the render: two passes over 90 frames of 720p.
        let run = try CLIRun.interrupted(
            ["overlay", sample, "-o", scratch.path + "/out.mp4", "--accuracy", "high", "--mark-sharpest"], after: 1.5)
        #expect(run.wasRunning, "the render should still be running")
        #expect(run.status == 130, "\(run.error)")
        #expect(run.error.contains("interrupted"))
        #expect(scratch.contents.isEmpty, "no output and no temporary file: \(scratch.contents)")
    }

    /// SIGKILL leaves the render no chance to remove its temporary file; the next render to the
    /// same destination removes it (they were left to pile up, 48 B to 1 MB each).
    @Test func aKilledRenderLeavesATemporaryFileTheNextOneRemoves() throws {
        let scratch = Scratch()
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Samples/Media/document.mp4").path
        let output = scratch.path + "/out.mp4"
        let render = Process()
        render.executableURL = URL(fileURLWithPath: CLIRun.binary)
        render.arguments = ["overlay", sample, "-o", output, "--accuracy", "high"]
        render.environment = CLIRun.environment
        render.standardOutput = FileHandle.nullDevice
        render.standardError = FileHandle.nullDevice
        try render.run()
        // Killed once its temporary file exists (the writer opens after the first frames).
        let start = Date()
        while render.isRunning, scratch.contents.isEmpty, Date().timeIntervalSince(start) < 60 { usleep(20_000) }
        #expect(render.isRunning, "the render should still be running")
        kill(render.processIdentifier, SIGKILL)
        render.waitUntilExit()
        let left = scratch.contents
        #expect(left.count == 1 && left[0].hasPrefix(".out.mp4.focal-") && left[0].hasSuffix(".partial"), "\(left)")
        // Another process's file of the same shape, still running (pid 1), is not touched.
        let running = scratch.path + "/.out.mp4.focal-1-abc.partial"
        #expect(FileManager.default.createFile(atPath: running, contents: Data()))
        let again = try CLIRun(["overlay", sample, "-o", output, "--accuracy", "low", "--types", "none"])
        #expect(again.status == 0, "\(again.error)")
        #expect(scratch.contents == [".out.mp4.focal-1-abc.partial", "out.mp4"], "\(scratch.contents)")
    }

    @Test func imageSequenceBecomesAVideo() throws {
        let scratch = Scratch()
        try FileManager.default.createDirectory(atPath: scratch.path + "/shots", withIntermediateDirectories: true)
        for index in [1, 2, 10] {
            try Frame(width: 160, height: 120, format: .bgr8, color: Color(white: Double(index) / 10)).write(
                to: scratch.path + "/shots/shot\(index).png")
        }
        let run = try CLIRun([
            "overlay", scratch.path + "/shots", "-o", scratch.path + "/shots.mp4", "--fps", "5", "--types", "none",
        ])
        #expect(run.status == 0, "\(run.error)")
        let reader = try VideoReader(path: scratch.path + "/shots.mp4", pixelFormat: .gray8)
        #expect(abs(reader.framesPerSecond - 5) < 0.01)
        var levels: [UInt8] = []
        while let frame = try reader.read() { levels.append(frame.pixel(x: 150, y: 110)[0]) }
        #expect(levels.count == 3)
        #expect(levels == levels.sorted(), "natural order: shot1, shot2, shot10 (\(levels))")
    }
}
