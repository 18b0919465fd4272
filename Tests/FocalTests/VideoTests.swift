import Focal
import Foundation
import Testing

@Suite struct VideoTests {
    /// A 30-frame 160×120 clip: a white square moving 3 px right per frame on black.
    static func squareFrame(_ index: Int, format: PixelFormat = .bgr8) throws -> Frame {
        var frame = try Frame(width: 160, height: 120, format: format, color: .black)
        let x = 20.0 + 3 * Double(index)
        try frame.fill([Point(x: x, y: 40), Point(x: x + 30, y: 40), Point(x: x + 30, y: 70), Point(x: x, y: 70)], color: .white)
        return frame
    }

    static func writeSquareClip(to path: String, settings: VideoWriter.Settings = .init(), count: Int = 30) throws {
        let writer = try VideoWriter(path: path, width: 160, height: 120, framesPerSecond: 30, settings: settings)
        for index in 0..<count { try writer.append(squareFrame(index)) }
        try writer.finish()
    }

    @Test func h264RoundTripKeepsCountSizeRateTimesAndContent() throws {
        let folder = TemporaryFolder()
        let path = folder.file("square.mp4")
        try Self.writeSquareClip(to: path)
        #expect(folder.contents == ["square.mp4"])

        let reader = try VideoReader(path: path)
        #expect(reader.width == 160 && reader.height == 120)
        #expect(abs(reader.framesPerSecond - 30) < 0.01)
        #expect(reader.frameCount == 30)
        #expect(reader.codecName == "h264")
        var index = 0
        while let frame = try reader.read() {
            #expect(frame.format == .yuv420)
            #expect(abs((frame.timestamp ?? -1) - Double(index) / 30) < 0.002)
            let centre = try #require(try brightCentroid(frame))
            #expect(abs(centre.x - (20 + 3 * Double(index) + 15)) < 1.0, "frame \(index) square at \(centre)")
            #expect(abs(centre.y - 55) < 1.0)
            index += 1
        }
        #expect(index == 30)
        #expect(try reader.read() == nil, "reading past the end stays at the end")
    }

    @Test func asyncSequenceYieldsEveryFrameInOrder() async throws {
        let folder = TemporaryFolder()
        let path = folder.file("square.mp4")
        try Self.writeSquareClip(to: path)
        var times: [Double] = []
        for try await frame in try VideoReader(path: path, pixelFormat: .gray8).frames {
            #expect(frame.format == .gray8)
            times.append(frame.timestamp ?? -1)
        }
        #expect(times.count == 30)
        #expect(times == times.sorted())
    }

    @Test(arguments: [PixelFormat.bgr8, .bgra8, .gray8, .yuv420])
    func readerDeliversEachFormat(format: PixelFormat) throws {
        let folder = TemporaryFolder()
        let path = folder.file("square.mp4")
        try Self.writeSquareClip(to: path, count: 3)
        let frame = try #require(try VideoReader(path: path, pixelFormat: format).read())
        #expect(frame.format == format)
        let expected = try Self.squareFrame(0).converted(to: format)
        #expect(meanAbsoluteDifference(frame, expected) < 6)
    }

    @Test func losslessCodecIsExact() throws {
        let folder = TemporaryFolder()
        let path = folder.file("lossless.mkv")
        let frames = try (0..<5).map { try Self.squareFrame($0, format: .yuv420) }
        let writer = try VideoWriter(path: path, width: 160, height: 120, framesPerSecond: 25, settings: .init(codec: .ffv1))
        for frame in frames { try writer.append(frame) }
        try writer.finish()
        let reader = try VideoReader(path: path)
        for original in frames {
            var read = try #require(try reader.read())
            read.timestamp = nil
            #expect(read == original)
        }
    }

    @Test(arguments: [(VideoCodec.mpeg4, "avi"), (.mjpeg, "avi"), (.vp8, "webm"), (.h264, "mkv"), (.mpeg4, "mov")])
    func otherCodecsWriteCompleteFiles(codec: VideoCodec, ext: String) throws {
        let folder = TemporaryFolder()
        let path = folder.file("clip." + ext)
        try #require(codec.isAvailable(forPath: path), "\(codec) not in this build")
        try Self.writeSquareClip(to: path, settings: .init(codec: codec), count: 10)
        let reader = try VideoReader(path: path)
        var count = 0
        while let frame = try reader.read() {
            let centre = try #require(try brightCentroid(frame))
            #expect(abs(centre.x - (35 + 3 * Double(count))) < 1.5)
            count += 1
        }
        #expect(count == 10)
    }

    /// YUV frames go to the encoder without a copy; writing to the frame right after appending it
    /// must not reach the encoder, whether it lets go at once (x264) or keeps frames back for
    /// B-frames and reordering (MPEG-4 Part 2).
    @Test(arguments: [
        ("mp4", VideoWriter.Settings.lowMemory), ("mp4", .compact), ("avi", .init(codec: .mpeg4, bFrames: 2)),
        ("mkv", .init(codec: .ffv1)),
    ])
    func framesLentToTheEncoderStayValues(ext: String, settings: VideoWriter.Settings) throws {
        let folder = TemporaryFolder()
        let path = folder.file("lent." + ext)
        let writer = try VideoWriter(path: path, width: 160, height: 120, framesPerSecond: 30, settings: settings)
        var frame = try Self.squareFrame(0, format: .yuv420)
        for index in 0..<12 {
            frame = try Self.squareFrame(index, format: .yuv420)
            try writer.append(frame)
            try frame.fill(.white)  // after the append: must not show in the video
        }
        try writer.finish()
        let reader = try VideoReader(path: path)
        var count = 0
        while let decoded = try reader.read() {
            let centre = try #require(try brightCentroid(decoded), "frame \(count) is blank")
            #expect(abs(centre.x - (35 + 3 * Double(count))) < 1.5, "frame \(count): square at \(centre)")
            count += 1
        }
        #expect(count == 12)
    }

    @Test func unfinishedWriterLeavesNothing() throws {
        let folder = TemporaryFolder()
        do {
            let writer = try VideoWriter(path: folder.file("dropped.mp4"), width: 160, height: 120, framesPerSecond: 30)
            try writer.append(Self.squareFrame(0))
            #expect(folder.contents.count == 1 && folder.contents[0].hasPrefix("."), "only a hidden temporary file while writing")
        }
        #expect(folder.contents.isEmpty, "dropping the writer removes its temporary file")

        let cancelled = try VideoWriter(path: folder.file("cancelled.mp4"), width: 160, height: 120, framesPerSecond: 30)
        try cancelled.append(Self.squareFrame(0))
        cancelled.cancel()
        #expect(folder.contents.isEmpty)
        #expect(throws: FocalError.self) { try cancelled.append(Self.squareFrame(1)) }
    }

    @Test func failedAppendKeepsTheOldFile() throws {
        let folder = TemporaryFolder()
        let path = folder.file("keep.mp4")
        try Self.writeSquareClip(to: path, count: 4)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        do {
            let writer = try VideoWriter(path: path, width: 160, height: 120, framesPerSecond: 30)
            try writer.append(Self.squareFrame(0))
            #expect(throws: FocalError.self) { try writer.append(Frame(width: 80, height: 60, format: .bgr8)) }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "the earlier file is untouched")
        #expect(folder.contents == ["keep.mp4"])
    }

    @Test func truncatedVideoEndsOrFailsCleanly() throws {
        let folder = TemporaryFolder()
        let path = folder.file("full.mp4")
        try Self.writeSquareClip(to: path)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let cut = folder.file("cut.mp4")
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: cut))
        // Half an .mp4 whose index is at the end: either it opens and yields fewer frames, or it fails
        // with a decode error naming the file. Never a crash or a hang.
        func countFrames() throws(FocalError) -> Int {
            let reader = try VideoReader(path: cut)
            var count = 0
            while try reader.read() != nil { count += 1 }
            return count
        }
        switch Result(catching: countFrames) {
        case .success(let count):
            #expect(count <= 30)
        case .failure(let error):
            #expect(error.path == cut)
            #expect([.decodeFailed, .ioFailed].contains(error.kind), "\(error)")
        }
    }
}
