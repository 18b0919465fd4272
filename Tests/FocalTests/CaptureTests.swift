import Dispatch
import Focal
import Foundation
import Testing

@testable import Focal

/// Recorded camera buffers with known content: four solid quadrants in known colours, encoded as
/// the camera formats would carry them (video-range BT.601 for YUV, as webcams send it).
enum RecordedBuffers {
    static let colors: [(b: Double, g: Double, r: Double)] = [(40, 60, 200), (200, 120, 30), (60, 200, 90), (230, 230, 230)]

    static func quadrant(x: Int, y: Int, width: Int, height: Int) -> Int { (y < height / 2 ? 0 : 2) + (x < width / 2 ? 0 : 1) }

    static func yuv(_ c: (b: Double, g: Double, r: Double)) -> (y: UInt8, u: UInt8, v: UInt8) {
        let y = 16 + 0.257 * c.r + 0.504 * c.g + 0.098 * c.b
        let u = 128 - 0.148 * c.r - 0.291 * c.g + 0.439 * c.b
        let v = 128 + 0.439 * c.r - 0.368 * c.g - 0.071 * c.b
        return (UInt8(y.rounded()), UInt8(u.rounded()), UInt8(v.rounded()))
    }

    /// YUYV with `pad` extra bytes per row.
    static func yuyv(width: Int, height: Int, pad: Int = 0) -> [UInt8] {
        var bytes: [UInt8] = []
        for y in 0..<height {
            for x in stride(from: 0, to: width, by: 2) {
                let p = yuv(colors[quadrant(x: x, y: y, width: width, height: height)])
                bytes += [p.y, p.u, p.y, p.v]
            }
            bytes += Array(repeating: 0, count: pad)
        }
        return bytes
    }

    static func nv12(width: Int, height: Int) -> [UInt8] {
        var luma: [UInt8] = [], chroma: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width { luma.append(yuv(colors[quadrant(x: x, y: y, width: width, height: height)]).y) }
        }
        for y in stride(from: 0, to: height, by: 2) {
            for x in stride(from: 0, to: width, by: 2) {
                let p = yuv(colors[quadrant(x: x, y: y, width: width, height: height)])
                chroma += [p.u, p.v]
            }
        }
        return luma + chroma
    }

    static func bgrFrame(width: Int, height: Int) throws -> Frame {
        var frame = try Frame(width: width, height: height, format: .bgr8)
        for q in 0..<4 {
            let x0 = q % 2 == 0 ? 0 : width / 2, y0 = q < 2 ? 0 : height / 2
            let c = colors[q]
            try frame.fill(
                [
                    Point(x: Double(x0) - 0.5, y: Double(y0) - 0.5), Point(x: Double(x0 + width / 2) - 0.5, y: Double(y0) - 0.5),
                    Point(x: Double(x0 + width / 2) - 0.5, y: Double(y0 + height / 2) - 0.5),
                    Point(x: Double(x0) - 0.5, y: Double(y0 + height / 2) - 0.5),
                ], color: Color(red: c.r / 255, green: c.g / 255, blue: c.b / 255))
        }
        return frame
    }

    static func mjpeg(width: Int, height: Int) throws -> [UInt8] {
        try bgrFrame(width: width, height: height).encoded(as: .jpeg, quality: 0.95)
    }

    /// The largest channel difference from the expected colour at each quadrant's centre.
    static func error(_ frame: Frame) -> Int {
        var worst = 0
        for q in 0..<4 {
            let x = (q % 2 == 0 ? 1 : 3) * frame.width / 4, y = (q < 2 ? 1 : 3) * frame.height / 4
            let p = frame.pixel(x: x, y: y), c = colors[q]
            worst = max(worst, abs(Int(p[0]) - Int(c.b)), abs(Int(p[1]) - Int(c.g)), abs(Int(p[2]) - Int(c.r)))
        }
        return worst
    }

    static let vga = yuyv(width: 640, height: 480)
    static let hd = yuyv(width: 1280, height: 720)

    /// A camera offering YUYV and MJPEG at two sizes; frame i carries its index in its first byte
    /// pair's luma so tests can tell which frame they got.
    static func camera(frameInterval: Double = 0, disconnectAfter: Int? = nil, exposure: ClosedRange<Int>? = nil)
        -> ScriptedCamera
    {
        ScriptedCamera(
            formats: [
                CameraFormat(pixelFormat: .mjpeg, width: 1280, height: 720),
                CameraFormat(pixelFormat: .yuyv, width: 640, height: 480),
                CameraFormat(pixelFormat: .yuyv, width: 1280, height: 720),
            ], frameInterval: frameInterval, disconnectAfter: disconnectAfter, exposureRange: exposure
        ) { format, index, exposure in
            // Rendered once per size: the camera must be fast, or it could not outrun a consumer.
            var bytes = (format.width == 640 ? vga : hd)
            bytes[0] = UInt8(truncatingIfNeeded: index)
            // Shorter exposures look like sharper (less motion-blurred) frames: mark them with
            // detail the sharpness measure sees.
            if let exposure, exposure < 100 {
                for i in stride(from: 0, to: bytes.count / 2, by: 8) { bytes[i] = 235 }
            }
            return bytes
        }
    }
}

@Suite struct CameraConversionTests {
    @Test func yuyvWithPaddedRowsConverts() throws {
        let padded = CameraBuffer(
            format: CameraFormat(pixelFormat: .yuyv, width: 64, height: 48, bytesPerLine: 64 * 2 + 32),
            bytes: RecordedBuffers.yuyv(width: 64, height: 48, pad: 32), timestamp: 0, sequence: 0)
        let frame = try padded.frame()
        #expect(frame.width == 64 && frame.height == 48 && frame.format == .bgr8)
        #expect(RecordedBuffers.error(frame) <= 3, "error \(RecordedBuffers.error(frame))")
    }

    @Test func nv12Converts() throws {
        let buffer = CameraBuffer(
            format: CameraFormat(pixelFormat: .nv12, width: 64, height: 48), bytes: RecordedBuffers.nv12(width: 64, height: 48),
            timestamp: 0, sequence: 0)
        #expect(RecordedBuffers.error(try buffer.frame()) <= 3)
    }

    @Test func mjpegDecodes() throws {
        let buffer = CameraBuffer(
            format: CameraFormat(pixelFormat: .mjpeg, width: 64, height: 48),
            bytes: try RecordedBuffers.mjpeg(width: 64, height: 48),
            timestamp: 0, sequence: 0)
        #expect(RecordedBuffers.error(try buffer.frame()) <= 6)
    }

    @Test func shortOrCorruptBuffersAreErrors() throws {
        let short = CameraBuffer(
            format: CameraFormat(pixelFormat: .yuyv, width: 64, height: 48), bytes: Array(repeating: 0, count: 100), timestamp: 0,
            sequence: 0)
        let error = try #require(throws: FocalError.self) { try short.frame() }
        #expect(error.kind == .decodeFailed && error.reason.contains("too short"), "\(error)")
        let corrupt = CameraBuffer(
            format: CameraFormat(pixelFormat: .mjpeg, width: 64, height: 48), bytes: [0xFF, 0xD8, 1, 2, 3], timestamp: 0,
            sequence: 0)
        #expect(throws: FocalError.self) { try corrupt.frame() }
        let unknown = CameraBuffer(
            format: CameraFormat(pixelFormat: CameraPixelFormat("Y41P"), width: 64, height: 48), bytes: [], timestamp: 0,
            sequence: 0)
        #expect((try? unknown.frame()) == nil)
    }
}

@Suite struct CameraSourceTests {
    @Test func negotiatesThePresetInTheBestFormat() throws {
        let camera = RecordedBuffers.camera()
        let hd = try CameraSource(device: camera, preset: .hd1280x720)
        #expect(hd.format == CameraFormat(pixelFormat: .yuyv, width: 1280, height: 720))  // uncompressed preferred
        let vga = try CameraSource(device: RecordedBuffers.camera(), preset: .vga640x480)
        #expect(vga.format.width == 640 && vga.format.height == 480)
        let full = try CameraSource(device: RecordedBuffers.camera(), preset: .hd1920x1080)
        #expect(full.format.width == 1280, "nearest offered size")
        let jpeg = try CameraSource(device: RecordedBuffers.camera(), preset: .hd1280x720, pixelFormat: .mjpeg)
        #expect(jpeg.format.pixelFormat == .mjpeg)
        let error = try #require(throws: FocalError.self) {
            try CameraSource(device: RecordedBuffers.camera(), preset: .hd1280x720, pixelFormat: .nv12)
        }
        #expect(error.kind == .unsupportedFormat && error.path == "/dev/scripted0", "\(error)")
    }

    @Test func streamsFramesWithTheirPixelsOrientedAndMirrored() throws {
        let pipeline = FramePipeline(orientation: .right, mirrored: true, filters: [.grayscale])
        let source = try CameraSource(
            device: RecordedBuffers.camera(frameInterval: 0.005), preset: .vga640x480, pipeline: pipeline)
        try source.start()
        defer { source.stop() }
        let frame = try #require(try source.nextFrame())
        #expect(frame.width == 480 && frame.height == 640 && source.width == 480 && source.height == 640)
        // Turned a quarter clockwise after mirroring: the original top-left quadrant (red) ends up
        // top-right, in gray.
        let p = frame.pixel(x: 3 * 480 / 4, y: 640 / 4)
        #expect(abs(Int(p[0]) - Int(p[2])) <= 2, "gray: \(p)")
        let red = 0.299 * 200 + 0.587 * 60 + 0.114 * 40
        #expect(abs(Double(p[1]) - red) < 6, "\(p) vs \(red)")
    }

    @Test func aSlowConsumerSeesTheNewestFrameAndTheDropsAreCounted() throws {
        let camera = RecordedBuffers.camera(frameInterval: 0.002)
        let source = try CameraSource(device: camera, preset: .vga640x480)
        try source.start()
        var seen: [Int] = []
        for _ in 0..<5 {
            let buffer = try #require(try source.nextBuffer())
            seen.append(buffer.sequence)
            Thread.sleep(forTimeInterval: 0.05)  // a consumer far slower than the camera
        }
        source.stop()
        // Each buffer taken is the newest: the sequence jumps by the frames that arrived meanwhile.
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $1 - $0 > 3 }, "\(seen)")
        let captured = source.capturedFrameCount, dropped = source.droppedFrameCount
        #expect(captured == camera.deliveredCount)
        // Every captured frame was either taken or dropped (one may sit unread at the stop).
        #expect(
            captured - dropped - seen.count <= 1 && captured - dropped - seen.count >= 0, "\(captured) \(dropped) \(seen.count)")
        #expect(dropped > 10)
    }

    @Test func aDisconnectEndsTheStreamWithAnErrorAndNothingHangs() async throws {
        let source = try CameraSource(
            device: RecordedBuffers.camera(frameInterval: 0.001, disconnectAfter: 5), preset: .vga640x480)
        try source.start()
        var frames = 0
        do {
            for try await _ in source.frames() { frames += 1 }
            Issue.record("the stream should end with an error")
        } catch let error as FocalError {
            #expect(error.kind == .deviceDisconnected, "\(error)")
            #expect(error.path == "/dev/scripted0")
        }
        #expect(frames >= 1 && frames <= 5)
        // Later reads fail at once instead of waiting.
        #expect(throws: FocalError.self) { try source.nextFrame() }
    }

    @Test(arguments: [FocalError.Kind.deviceBusy, .permissionDenied])
    func startFailuresReachTheCallerNamed(kind: FocalError.Kind) throws {
        let failing = ScriptedCamera(
            formats: [CameraFormat(pixelFormat: .yuyv, width: 640, height: 480)],
            startFailure: FocalError(kind, operation: "start camera", path: "/dev/scripted0", reason: "scripted")
        ) { _, _, _ in [] }
        let source = try CameraSource(device: failing, preset: .vga640x480)
        let error = try #require(throws: FocalError.self) { try source.start() }
        #expect(error.kind == kind && error.path == "/dev/scripted0")
        // Nothing was started, so stopping (and releasing) the source must not wait for a loop.
        source.stop()
    }

    @Test func deliversOnASerialQueueOneAtATime() throws {
        let source = try CameraSource(
            device: RecordedBuffers.camera(frameInterval: 0.002, disconnectAfter: 40), preset: .vga640x480)
        try source.start()
        let queue = DispatchQueue(label: "consumer")
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var delivered = 0
        nonisolated(unsafe) var ending: FocalError.Kind?
        source.deliver(on: queue) { result in
            switch result {
            case .success(let frame?):
                delivered += 1
                #expect(frame.width == 640)
                Thread.sleep(forTimeInterval: 0.01)
            case .success(nil): done.signal()
            case .failure(let error):
                ending = error.kind
                done.signal()
            }
        }
        #expect(done.wait(timeout: .now() + 10) == .success, "delivery must end")
        #expect(ending == .deviceDisconnected)
        #expect(delivered >= 2 && delivered < 40, "\(delivered)")
        #expect(source.droppedFrameCount > 0)
    }

    @Test func realDevicesGiveClearErrors() throws {
        let missing = try #require(throws: FocalError.self) { try V4L2Camera(path: "/dev/video-focal-missing") }
        #expect(missing.kind == .fileNotFound && missing.path == "/dev/video-focal-missing", "\(missing)")
        let notACamera = try #require(throws: FocalError.self) { try V4L2Camera(path: "/dev/null") }
        #expect(notACamera.kind == .unsupportedFormat && "\(notACamera)".contains("/dev/null"), "\(notACamera)")
    }
}

@Suite struct BurstAndPairTests {
    @Test func aBracketedBurstIsRankedBySharpness() throws {
        let camera = RecordedBuffers.camera(frameInterval: 0.001, exposure: 1...1000)
        let source = try CameraSource(device: camera, preset: .vga640x480)
        try source.start()
        defer { source.stop() }
        let shots = try source.captureBurst(exposures: [400, 50, 200])
        #expect(shots.count == 3)
        #expect(
            shots[0].exposure == 50, "the short exposure is the sharp one: \(shots.map { ($0.exposure, $0.sharpness.variance) })")
        #expect(shots[0].sharpness > shots[1].sharpness && shots[1].sharpness >= shots[2].sharpness)
        #expect(camera.exposuresSet == [400, 50, 200])
        let plain = try source.captureBurst(count: 4)
        #expect(plain.count == 4 && plain.allSatisfy { $0.exposure == nil })
        let noControl = try CameraSource(device: RecordedBuffers.camera(), preset: .vga640x480)
        try noControl.start()
        defer { noControl.stop() }
        let error = try #require(throws: FocalError.self) { try noControl.captureBurst(exposures: [10]) }
        #expect(error.kind == .unavailable)
    }

    static func scratch() throws -> String {
        let folder = NSTemporaryDirectory() + "focal-pairs-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func pairsAreWrittenTogetherAndListed() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let source = try CameraSource(device: RecordedBuffers.camera(frameInterval: 0.001), preset: .vga640x480)
        try source.start()
        defer { source.stop() }
        let store = try CaptureStore(folder: folder)
        for _ in 0..<2 {
            let buffer = try #require(try source.nextBuffer())
            var processed = try buffer.frame()
            try FrameFilter.documentEnhance.apply(to: &processed)
            try store.save(raw: buffer, processed: processed)
        }
        let entries = try store.entries()
        #expect(entries.map(\.id) == ["capture-00001", "capture-00002"])
        for entry in entries {
            let raw = try CaptureStore.readRaw(folder + "/" + entry.raw)
            #expect(raw.format.pixelFormat == .yuyv && raw.format.width == 640 && raw.bytes.count == 640 * 480 * 2)
            #expect(RecordedBuffers.error(try raw.frame()) <= 3, "the raw file holds the camera's bytes")
            let jpeg = try Frame(contentsOf: folder + "/" + entry.processed)
            #expect(jpeg.width == 640 && jpeg.height == 480)
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(files == ["capture-00001.jpg", "capture-00001.raw", "capture-00002.jpg", "capture-00002.raw", "manifest.json"])
    }

    @Test func aFailureBetweenTheTwoWritesLeavesNoHalfPair() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let buffer = CameraBuffer(
            format: CameraFormat(pixelFormat: .yuyv, width: 64, height: 48), bytes: RecordedBuffers.yuyv(width: 64, height: 48),
            timestamp: 1, sequence: 1)
        let store = try CaptureStore(folder: folder)
        try store.save(raw: buffer, processed: try buffer.frame())
        store.failBetweenFiles = true
        let error = try #require(throws: FocalError.self) { try store.save(raw: buffer, processed: try buffer.frame()) }
        #expect(error.reason.contains("injected"))
        #expect(try store.entries().map(\.id) == ["capture-00001"])
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(files == ["capture-00001.jpg", "capture-00001.raw", "manifest.json"], "no partial or temporary file: \(files)")
        let missing = try #require(throws: FocalError.self) { try CaptureStore(folder: folder + "/nope") }
        #expect(missing.kind == .directoryNotFound)
    }
}
