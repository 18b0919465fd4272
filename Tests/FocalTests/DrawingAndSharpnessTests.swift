import Focal
import FocalSynthetic
import Testing

@Suite struct DrawingTests {
    let quad = [Point(x: 20, y: 10), Point(x: 70, y: 16), Point(x: 64, y: 50), Point(x: 18, y: 44)]

    @Test(arguments: [PixelFormat.bgr8, .bgra8, .yuv420, .gray8])
    func filledQuadColoursInsideOnly(format: PixelFormat) throws {
        var frame = try Frame(width: 96, height: 64, format: format, color: .black)
        try frame.fill(quad, color: Color(red: 1, green: 0.5, blue: 0))
        let bgr = try frame.converted(to: .bgr8)
        let inside = bgr.pixel(x: 44, y: 30), outside = bgr.pixel(x: 85, y: 55)
        if format == .gray8 {
            let expected: Double = 0.587 * 127.5 + 0.299 * 255
            #expect(abs(Double(inside[0]) - expected) < 3)
        } else {
            let red = Int(inside[2]), green = Int(inside[1]), blue = Int(inside[0])
            #expect(abs(red - 255) < 8, "\(inside)")
            #expect(abs(green - 128) < 10, "\(inside)")
            #expect(blue < 10, "\(inside)")
        }
        #expect(outside.allSatisfy { $0 < 5 })
    }

    @Test func translucentFillBlends() throws {
        var frame = try Frame(width: 96, height: 64, format: .bgr8, color: .white)
        try frame.fill(quad, color: Color.black.withAlpha(0.25))
        let value = Double(frame.pixel(x: 44, y: 30)[0])
        #expect(abs(value - 255 * 0.75) < 3)
        #expect(frame.pixel(x: 90, y: 60) == [255, 255, 255])
    }

    @Test func strokeAndTextMarkPixels() throws {
        var frame = try Frame(width: 200, height: 80, format: .yuv420, color: .black)
        try frame.stroke(quad, color: .white, lineWidth: 3)
        #expect(frame.pixel(x: 44, y: 30)[0] < 40, "a stroke leaves the inside alone")
        #expect(frame.pixel(x: 45, y: 13)[0] > 150, "and marks the edge")
        try frame.text("Focal", at: Point(x: 100, y: 60), size: 20, color: .white, weight: 2)
        let size = Frame.measureText("Focal", size: 20, weight: 2)
        #expect(size.width > 40 && size.height >= 18)
        let centre = try #require(try brightCentroid(try frame.resized(width: 200, height: 80)))
        #expect(centre.x > 44)
    }
}

@Suite struct SharpnessTests {
    /// The Laplacian variance against a direct computation on a small image.
    @Test func matchesADirectComputation() throws {
        var frame = try Frame(width: 13, height: 9, format: .gray8)
        var random = SeededGenerator(seed: 5)
        frame.withUnsafeMutableBytes { bytes in for i in bytes.indices { bytes[i] = UInt8.random(in: 0...255, using: &random) } }
        var values: [Double] = []
        for y in 1..<8 {
            for x in 1..<12 {
                var sum = 0.0
                for dy in -1...1 {
                    for dx in -1...1 { sum += Double(frame.pixel(x: x + dx, y: y + dy)[0]) * (dx == 0 && dy == 0 ? 8 : -1) }
                }
                values.append(sum)
            }
        }
        let mean = values.reduce(0, +) / Double(values.count)
        let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count)
        let measured = try Sharpness.laplacian(of: frame)
        #expect(abs(measured.variance - variance) <= 1e-9 * variance)
    }

    @Test func blurLowersTheScoreInOrder() throws {
        let page = try SyntheticPage(width: 425, height: 550, seed: 3)
        let background = try SyntheticBackground.wood.render(width: 640, height: 360, seed: 3)
        let corners = SyntheticScene.corners(frameWidth: 640, frameHeight: 360, center: Point(x: 320, y: 180), fill: 0.85)
        let scores = try [0.0, 0.8, 1.6, 3.0].map { sigma in
            try Sharpness.laplacian(
                of: SyntheticScene(
                    background: background, page: page, corners: corners,
                    blur: .init(sigma: sigma)
                ).frame
            ).variance
        }
        #expect(scores == scores.sorted(by: >), "\(scores)")
    }
}

@Suite struct SyntheticSceneTests {
    @Test func pageLandsOnItsCorners() throws {
        let page = try SyntheticPage(width: 425, height: 550, seed: 9, withFigure: false)
        let background = try SyntheticBackground.plain(Color(red: 0.1, green: 0.1, blue: 0.1)).render(
            width: 640, height: 360, seed: 1)
        let corners = SyntheticScene.corners(
            frameWidth: 640, frameHeight: 360, center: Point(x: 330, y: 175), fill: 0.8,
            rotation: 12, tilt: 0.2)
        let scene = try SyntheticScene(background: background, page: page, corners: corners)
        let gray = try scene.frame.converted(to: .gray8)
        // Just inside each corner (towards the centre) is paper; just outside is the dark table.
        let c = corners.center
        for corner in corners.corners {
            let towards = corner + (c - corner) * (6 / corner.distance(to: c))
            let away = corner + (corner - c) * (6 / corner.distance(to: c))
            #expect(gray.pixel(x: Int(towards.x.rounded()), y: Int(towards.y.rounded()))[0] > 180, "inside \(corner)")
            #expect(gray.pixel(x: Int(away.x.rounded()), y: Int(away.y.rounded()))[0] < 60, "outside \(corner)")
        }
        #expect(scene.textLines.count > 10)
    }

    @Test func clipKnowsItsSharpestFrame() throws {
        let clip = try SyntheticClip(width: 320, height: 180, frameCount: 12, sharpestFrame: 7, firstPageFrame: 2, seed: 4)
        #expect(clip.corners(at: 1) == nil && clip.corners(at: 2) != nil)
        let blurs = (0..<12).map { clip.blur(at: $0).effectiveSigma }
        #expect(blurs[7] == 0 && blurs.enumerated().allSatisfy { $0.offset == 7 || $0.element >= 0.8 })
    }
}
