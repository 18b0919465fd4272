import Focal
import Foundation
import Testing

@Suite struct ImageIOTests {
    @Test(arguments: [("png", 0.0), ("tiff", 0.0), ("bmp", 0.0), ("jpg", 6.0), ("webp", 6.0)])
    func filesRoundTrip(ext: String, tolerance: Double) throws {
        let folder = TemporaryFolder()
        let scene = try SyntheticTestScenes.smoothScene()
        let path = folder.file("image." + ext)
        try scene.write(to: path, quality: 0.95)
        let read = try Frame(contentsOf: path)
        #expect(read.width == scene.width && read.height == scene.height && read.format == .bgr8)
        let difference = meanAbsoluteDifference(read, scene)
        #expect(difference <= tolerance, "mean difference \(difference) for .\(ext)")
        #expect(folder.contents == ["image." + ext], "no temporary file left behind")
    }

    @Test func grayStaysGray() throws {
        let folder = TemporaryFolder()
        let gray = try SyntheticTestScenes.smoothScene().converted(to: .gray8)
        try gray.write(to: folder.file("gray.png"))
        let read = try Frame(contentsOf: folder.file("gray.png"))
        #expect(read.format == .gray8)
        #expect(read == gray)
    }

    @Test func decodesFromMemoryAndQualityChangesSize() throws {
        let scene = try SyntheticTestScenes.smoothScene()
        let high = try scene.encoded(as: .jpeg, quality: 0.95)
        let low = try scene.encoded(as: .jpeg, quality: 0.3)
        #expect(low.count < high.count)
        let decoded = try Frame(decoding: high)
        #expect(decoded.width == scene.width)
        #expect(meanAbsoluteDifference(decoded, scene) < 4)
    }

    @Test func exifOrientationIsAppliedOrPreserved() throws {
        // A 40×20 JPEG, white on the left half, with an EXIF block saying "rotate 90° clockwise" (6).
        var frame = try Frame(width: 40, height: 20, format: .bgr8, color: .black)
        try frame.fill([Point(x: 0, y: 0), Point(x: 19, y: 0), Point(x: 19, y: 19), Point(x: 0, y: 19)], color: .white)
        let jpeg = SyntheticTestScenes.addingEXIFOrientation(6, to: try frame.encoded(as: .jpeg, quality: 0.95))

        let upright = try Frame(decoding: jpeg)
        #expect(upright.width == 20 && upright.height == 40)
        #expect(upright.orientation == .up)
        #expect(upright.pixel(x: 10, y: 5)[0] > 200, "the stored left half is on top after a clockwise turn")
        #expect(upright.pixel(x: 10, y: 35)[0] < 50)

        let stored = try Frame(decoding: jpeg, orientation: .preserve)
        #expect(stored.width == 40 && stored.height == 20)
        #expect(stored.orientation == .right)
        #expect(meanAbsoluteDifference(try stored.oriented(), upright) < 1)
    }

    @Test func yuvFramesEncodeAsColour() throws {
        let scene = try SyntheticTestScenes.smoothScene()
        let bytes = try scene.converted(to: .yuv420).encoded(as: .png)
        let read = try Frame(decoding: bytes)
        #expect(read.format == .bgr8)
        #expect(meanAbsoluteDifference(read, scene) < 4)
    }
}

/// Small scenes and byte surgery the I/O tests share.
enum SyntheticTestScenes {
    /// A 96×64 BGR image of soft shapes that every codec keeps well.
    static func smoothScene() throws -> Frame {
        var frame = try Frame(width: 96, height: 64, format: .bgr8, color: Color(red: 0.9, green: 0.85, blue: 0.7))
        try frame.fill(
            [Point(x: 10, y: 10), Point(x: 60, y: 14), Point(x: 55, y: 50), Point(x: 12, y: 44)],
            color: Color(red: 0.2, green: 0.3, blue: 0.7))
        try frame.circle(center: Point(x: 75, y: 32), radius: 14, color: Color(red: 0.8, green: 0.2, blue: 0.1))
        return try frame.gaussianBlurred(sigma: 1.5)
    }

    /// Inserts an APP1 EXIF segment holding only an orientation tag right after the JPEG's SOI marker.
    static func addingEXIFOrientation(_ value: UInt16, to jpeg: [UInt8]) -> [UInt8] {
        var tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8]  // big-endian, IFD at offset 8
        tiff += [0, 1]  // one entry
        tiff += [0x01, 0x12, 0x00, 0x03, 0, 0, 0, 1, UInt8(value >> 8), UInt8(value & 0xFF), 0, 0]  // Orientation, SHORT, 1
        tiff += [0, 0, 0, 0]  // no next IFD
        let payload: [UInt8] = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        return Array(jpeg[0..<2]) + [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + Array(jpeg[2...])
    }
}
