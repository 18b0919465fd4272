import Focal
import Testing

@Suite struct FrameTests {
    @Test func rowsArePaddedAndPaddingIsHonoured() throws {
        // 5 BGR pixels = 15 bytes per row, supplied with rows 24 bytes apart; padding holds junk.
        let width = 5, height = 3, stride = 24
        var bytes = [UInt8](repeating: 0xEE, count: stride * height)
        for y in 0..<height {
            for x in 0..<width { for c in 0..<3 { bytes[y * stride + x * 3 + c] = UInt8(y * 50 + x * 10 + c) } }
        }
        let frame = try bytes.withUnsafeBytes {
            try Frame(width: width, height: height, format: .bgr8, bytesPerRow: stride, bytes: $0)
        }
        #expect(frame.bytesPerRow >= width * 3)
        #expect(frame.bytesPerRow % 64 == 0)  // Focal pads its own rows, so nothing may assume rowBytes == width
        for y in 0..<height {
            for x in 0..<width {
                #expect(
                    frame.pixel(x: x, y: y) == [UInt8(y * 50 + x * 10), UInt8(y * 50 + x * 10 + 1), UInt8(y * 50 + x * 10 + 2)])
            }
        }
        // Every operation must read through the stride: gray conversion of the padded frame matches per pixel.
        let gray = try frame.converted(to: .gray8)
        for y in 0..<height {
            for x in 0..<width {
                let p = frame.pixel(x: x, y: y).map(Double.init)
                let expected = 0.114 * p[0] + 0.587 * p[1] + 0.299 * p[2]
                #expect(abs(Double(gray.pixel(x: x, y: y)[0]) - expected) <= 1)
            }
        }
    }

    @Test func tooFewBytesForTheStrideIsAnError() throws {
        let bytes = [UInt8](repeating: 0, count: 40)
        #expect(throws: FocalError.self) {
            try bytes.withUnsafeBytes { try Frame(width: 5, height: 3, format: .bgr8, bytesPerRow: 16, bytes: $0) }
        }
    }

    @Test func copiesAreIndependentAfterAWrite() throws {
        let original = try gradientFrame(width: 32, height: 16)
        var copy = original
        try copy.fill(.white)
        #expect(copy.pixel(x: 3, y: 3) == [255, 255, 255])
        #expect(original.pixel(x: 3, y: 3) != [255, 255, 255])
        #expect(original == (try gradientFrame(width: 32, height: 16)))
    }

    @Test func conversionsRoundTrip() throws {
        let bgr = try gradientFrame(width: 64, height: 48)
        let bgra = try bgr.converted(to: .bgra8)
        #expect(bgra.pixel(x: 10, y: 7) == bgr.pixel(x: 10, y: 7) + [255])
        #expect(try bgra.converted(to: .bgr8) == bgr)
        // 4:2:0 halves chroma resolution, so compare a smooth image.
        var smooth = try Frame(width: 64, height: 48, format: .bgr8, color: Color(red: 0.8, green: 0.4, blue: 0.2))
        try smooth.fill([Point(x: 0, y: 0), Point(x: 31, y: 0), Point(x: 31, y: 47), Point(x: 0, y: 47)], color: .blue)
        let yuv = try smooth.converted(to: .yuv420)
        let back = try yuv.converted(to: .bgr8)
        #expect(meanAbsoluteDifference(back, smooth) < 4)
        // Gray from 4:2:0 is full range, like gray from BGR; the luma plane is the stored Y, without a copy.
        #expect(meanAbsoluteDifference(try yuv.converted(to: .gray8), try smooth.converted(to: .gray8)) < 2)
        let luma = try #require(yuv.lumaPlane)
        #expect(luma.format == .gray8)
        #expect(luma.pixel(x: 5, y: 5) == [yuv.pixel(x: 5, y: 5)[0]])
        let black = try Frame(width: 16, height: 16, format: .bgr8, color: .black).converted(to: .yuv420)
        #expect(black.lumaPlane?.pixel(x: 3, y: 3) == [16], "video range keeps black at 16")
        #expect(try black.converted(to: .gray8).pixel(x: 3, y: 3) == [0])
    }

    @Test(arguments: [(7, 5), (8, 6), (1, 1), (33, 17)])
    func oddSizedYUVConvertsBothWays(size: (Int, Int)) throws {
        let frame = try Frame(width: size.0, height: size.1, format: .bgr8, color: Color(red: 0.1, green: 0.7, blue: 0.3))
        let yuv = try frame.converted(to: .yuv420)
        #expect(yuv.width == size.0 && yuv.height == size.1)
        let back = try yuv.converted(to: .bgr8)
        #expect(meanAbsoluteDifference(back, frame) < 4)
    }

    /// A marker at stored pixel (1, 0) of a 4×3 image must land where each EXIF orientation says.
    @Test(arguments: [
        (Orientation.up, 1, 0), (.upMirrored, 2, 0), (.down, 2, 2), (.downMirrored, 1, 2),
        (.leftMirrored, 0, 1), (.right, 2, 1), (.rightMirrored, 2, 2), (.left, 0, 2),
    ])
    func orientationMovesPixelsAsEXIFSays(orientation: Orientation, x: Int, y: Int) throws {
        var frame = try Frame(width: 4, height: 3, format: .gray8)
        frame.withUnsafeMutableBytes { $0[1] = 255 }
        frame.orientation = orientation
        let shown = try frame.oriented()
        #expect(shown.orientation == .up)
        #expect(shown.width == (orientation.swapsDimensions ? 3 : 4))
        var found: [(Int, Int)] = []
        for yy in 0..<shown.height {
            for xx in 0..<shown.width where shown.pixel(x: xx, y: yy)[0] == 255 { found.append((xx, yy)) }
        }
        #expect(found.count == 1)
        #expect(found.first?.0 == x && found.first?.1 == y, "marker at \(found) for \(orientation)")
    }

    @Test func resizeAndFitKeepContent() throws {
        var frame = try Frame(width: 200, height: 100, format: .bgr8, color: .black)
        try frame.fill([Point(x: 100, y: 0), Point(x: 199, y: 0), Point(x: 199, y: 99), Point(x: 100, y: 99)], color: .white)
        let small = try frame.fitted(maxWidth: 50, maxHeight: 50)
        #expect(small.width == 50 && small.height == 25)
        #expect(small.pixel(x: 40, y: 12) == [255, 255, 255])
        #expect(small.pixel(x: 10, y: 12) == [0, 0, 0])
        let yuvSmall = try frame.converted(to: .yuv420).resized(width: 20, height: 10)
        #expect(yuvSmall.pixel(x: 15, y: 5)[0] > 200 && yuvSmall.pixel(x: 3, y: 5)[0] < 40)
    }

    @Test(arguments: [PixelFormat.bgr8, .yuv420])
    func pasteCopiesPixelForPixelAndClips(format: PixelFormat) throws {
        var canvas = try Frame(width: 40, height: 30, format: format, color: .black)
        let patch = try Frame(width: 10, height: 8, format: .bgr8, color: .white)
        try canvas.paste(patch, x: 4, y: 6)  // converted to the canvas's format on the way
        try canvas.paste(patch, x: 36, y: -4)  // hangs over the top-right corner: clipped
        let bgr = try canvas.converted(to: .bgr8)
        #expect(bgr.pixel(x: 4, y: 6).allSatisfy { $0 > 240 } && bgr.pixel(x: 13, y: 13).allSatisfy { $0 > 240 })
        #expect(bgr.pixel(x: 14, y: 6).allSatisfy { $0 < 15 } && bgr.pixel(x: 4, y: 14).allSatisfy { $0 < 15 })
        #expect(bgr.pixel(x: 39, y: 0).allSatisfy { $0 > 240 } && bgr.pixel(x: 39, y: 3).allSatisfy { $0 > 240 })
        #expect(bgr.pixel(x: 39, y: 4).allSatisfy { $0 < 15 } && bgr.pixel(x: 35, y: 0).allSatisfy { $0 < 15 })
    }

    @Test func invalidSizesAreErrors() {
        #expect(throws: FocalError.self) { try Frame(width: 0, height: 10, format: .gray8) }
        #expect(throws: FocalError.self) { try Frame(width: 10, height: -1, format: .bgr8) }
    }
}
