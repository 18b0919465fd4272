import Focal
import FocalSynthetic
import Testing

@Suite struct BurstRankingTests {
    static let page = try! SyntheticPage(width: 425, height: 550, seed: 21)
    static let table = try! SyntheticBackground.wood.render(width: 640, height: 360, seed: 21)
    static let corners = SyntheticScene.corners(
        frameWidth: 640, frameHeight: 360, center: Point(x: 320, y: 180), fill: 0.85, rotation: 4)

    static func burst(_ blurs: [SyntheticScene.Blur], noise: Double) throws -> [Frame] {
        try blurs.enumerated().map { index, blur in
            try SyntheticScene(background: table, page: page, corners: corners, blur: blur, noise: noise, seed: UInt64(index + 1))
                .frame
        }
    }

    @Test(arguments: [0.0, 3.0])
    func rankingFollowsGaussianBlur(noise: Double) throws {
        let sigmas = [1.6, 0.0, 2.4, 0.8, 1.2]
        let frames = try Self.burst(sigmas.map { SyntheticScene.Blur(sigma: $0) }, noise: noise)
        let ranked = try Sharpness.rank(frames, options: noise > 0 ? .noiseResistant : .plain).map(\.index)
        #expect(ranked == sigmas.indices.sorted { sigmas[$0] < sigmas[$1] }, "ranking \(ranked)")
    }

    @Test func rankingFollowsMotionBlur() throws {
        let lengths = [6.0, 0.0, 3.0, 9.0]
        let frames = try Self.burst(lengths.map { SyntheticScene.Blur(motionLength: $0, motionAngle: 30) }, noise: 1)
        #expect(try Sharpness.rank(frames).map(\.index) == [1, 2, 0, 3])
    }

    /// On heavy sensor noise the plain measure can prefer a noisier, slightly blurred frame; the
    /// noise-resistant one still picks the sharp frame.
    @Test func noiseResistantPicksTheSharpFrameUnderHeavyNoise() throws {
        let sharpButClean = try SyntheticScene(
            background: Self.table, page: Self.page, corners: Self.corners, blur: .none, noise: 3, seed: 1
        ).frame
        let blurredAndNoisy = try SyntheticScene(
            background: Self.table, page: Self.page, corners: Self.corners,
            blur: SyntheticScene.Blur(sigma: 1.2), noise: 25, seed: 2
        ).frame
        let robust = try Sharpness.rank([blurredAndNoisy, sharpButClean], options: .noiseResistant)
        #expect(robust.first?.index == 1)
        let plain = try Sharpness.rank([blurredAndNoisy, sharpButClean], options: .plain)
        #expect(plain.first?.index == 0, "if the plain measure also gets this right, the scene no longer tests noise resistance")
    }

    @Test func regionSharpnessIgnoresASharpBackground() throws {
        // The table is a newspaper: fine print across the frame. The document is smaller, on top.
        let newspaper = try SyntheticPage(width: 640, height: 360, seed: 6, withFigure: false).image
        let small = SyntheticScene.corners(
            frameWidth: 640, frameHeight: 360, center: Point(x: 320, y: 180), fill: 0.45, rotation: 4)
        let blurredPage = SyntheticPage(image: try Self.page.image.gaussianBlurred(sigma: 2.5), textLines: Self.page.textLines)
        let a = try SyntheticScene(background: newspaper, page: blurredPage, corners: small).frame  // sharp table, soft page
        let b = try SyntheticScene(background: try newspaper.gaussianBlurred(sigma: 2.5), page: Self.page, corners: small).frame
        #expect(try Sharpness.measure(a) > Sharpness.measure(b), "the whole frame prefers the sharp table")
        #expect(try Sharpness.measure(b, inside: small) > Sharpness.measure(a, inside: small), "inside the page, b is sharper")
    }

    @Test func vectorPathMatchesOpenCVsIdiom() throws {
        var frame = try Self.burst([.none], noise: 8)[0]
        frame = try frame.converted(to: .yuv420)  // padded luma plane of a 4:2:0 frame
        let fast = try Sharpness.laplacian(of: frame), reference = try Sharpness.laplacianByOpenCV(of: frame)
        #expect(abs(fast.variance - reference.variance) <= 1e-6 * reference.variance, "\(fast.variance) vs \(reference.variance)")
        for width in [3, 17, 33, 130] {  // widths around the vector length exercise the scalar tail
            var small = try Frame(width: width, height: 5, format: .gray8)
            var random = SeededGenerator(seed: UInt64(width))
            small.withUnsafeMutableBytes { bytes in
                for i in bytes.indices { bytes[i] = UInt8.random(in: 0...255, using: &random) }
            }
            let a = try Sharpness.laplacian(of: small).variance, b = try Sharpness.laplacianByOpenCV(of: small).variance
            #expect(abs(a - b) <= 1e-6 * max(b, 1), "width \(width)")
        }
    }

    @Test func laplacianImageShowsEdgesOnly() throws {
        var frame = try Frame(width: 64, height: 32, format: .gray8, color: Color(white: 0.2))
        try frame.fill([Point(x: 32, y: -1), Point(x: 70, y: -1), Point(x: 70, y: 40), Point(x: 32, y: 40)], color: .white)
        let laplacian = try Sharpness.laplacianImage(of: frame)
        #expect(laplacian.pixel(x: 10, y: 16) == [0])
        #expect(laplacian.pixel(x: 50, y: 16) == [0])
        #expect(laplacian.pixel(x: 31, y: 16)[0] > 200 || laplacian.pixel(x: 32, y: 16)[0] > 200)
    }
}

@Suite struct DocumentScannerTests {
    static let table = try! SyntheticBackground.wood.render(width: 640, height: 360, seed: 8)

    @Test func bestFrameIsTheSharpestAndTrackSurvivesAShortOcclusion() throws {
        let clip = try SyntheticClip(width: 640, height: 360, frameCount: 24, sharpestFrame: 15, firstPageFrame: 2, seed: 31)
        let scanner = try DocumentScanner()
        var finished: [DocumentScan] = []
        var ids: Set<Int> = []
        for index in 0..<clip.frameCount {
            // Frames 9 and 10: a hand covers the page (the table alone).
            let frame = (9...10).contains(index) ? Self.table : try clip.scene(at: index).frame
            let step = try scanner.process(frame)
            ids.formUnion(step.documents.compactMap(\.trackingID))
            finished += step.finished
        }
        finished += scanner.finish()
        #expect(ids.count == 1, "one document, one tracking ID: \(ids)")
        try #require(finished.count == 1)
        #expect(finished[0].bestFrame == clip.sharpestFrame)
        #expect(finished[0].firstFrame == 2 && finished[0].lastFrame == 23)
    }

    @Test func twoDocumentsGetTwoTracksAndTwoScans() throws {
        var frame = Self.table
        let quads = [
            SyntheticScene.corners(frameWidth: 640, frameHeight: 360, center: Point(x: 165, y: 180), fill: 0.75, rotation: -5),
            SyntheticScene.corners(frameWidth: 640, frameHeight: 360, center: Point(x: 470, y: 185), fill: 0.65, rotation: 8),
        ]
        for (index, quad) in quads.enumerated() {
            frame = try SyntheticScene(
                background: frame, page: try SyntheticPage(width: 425, height: 550, seed: UInt64(40 + index)), corners: quad
            ).frame
        }
        let scanner = try DocumentScanner()
        for _ in 0..<3 { _ = try scanner.process(frame) }
        let scans = scanner.finish()
        #expect(scans.count == 2)
        #expect(Set(scans.map(\.trackingID)).count == 2)
    }

    @Test func aDocumentLeavingViewIsReportedAfterTheGap() throws {
        let clip = try SyntheticClip(width: 640, height: 360, frameCount: 6, sharpestFrame: 3, seed: 33)
        let scanner = try DocumentScanner(maximumMissedFrames: 3)
        var reportedAt: Int?
        for index in 0..<14 {
            let frame = index < 6 ? try clip.scene(at: index).frame : Self.table
            if !(try scanner.process(frame).finished.isEmpty) { reportedAt = index }
        }
        #expect(reportedAt == 9, "last seen at 5, gone after 3 missed frames")
        #expect(scanner.finish().isEmpty)
    }

    @Test func flattenedScanMatchesThePage() throws {
        let page = try SyntheticPage(width: 425, height: 550, seed: 51)
        // A true pinhole view of the page (tilted 25° about x, turned 10°), not just a trapezoid.
        let corners = PinholeView.project(
            width: 425, height: 550, frameWidth: 960, frameHeight: 540, focal: 800, tiltDegrees: 25, rollDegrees: 10)
        let scene = try SyntheticScene(
            background: try SyntheticBackground.wood.render(width: 960, height: 540, seed: 51), page: page,
            corners: corners, noise: 1)
        let scan = DocumentScan(
            trackingID: 1, firstFrame: 0, lastFrame: 0, bestFrame: 0,
            sharpness: SharpnessScore(variance: 1), quad: corners, frame: scene.frame)
        let flat = try scan.flattened()
        let aspect = Double(flat.width) / Double(flat.height)
        #expect(abs(aspect / (425.0 / 550.0) - 1) < 0.01, "aspect \(aspect)")
        let reference = try page.image.resized(width: flat.width, height: flat.height, interpolation: .area)
        let similarity = try normalizedCrossCorrelation(try flat.converted(to: .gray8), try reference.converted(to: .gray8))
        #expect(similarity > 0.9, "correlation \(similarity)")
        // And the aspect ratio from camera geometry beats side lengths on this tilted view.
        let sides = corners.averageSideLengths
        #expect(
            abs(corners.estimatedAspectRatio(imageWidth: 960, imageHeight: 540) - 425.0 / 550.0)
                < abs(sides.width / sides.height - 425.0 / 550.0))
    }

    @Test func flatteningThroughGivenCornersMatchesThePageAndRefusesBadCorners() throws {
        var page = try SyntheticPage(width: 425, height: 550, seed: 52)
        // Dots near the page's corners, whose places on the flat page are known.
        let dots = [Point(x: 20, y: 20), Point(x: 405, y: 20), Point(x: 405, y: 530), Point(x: 20, y: 530)]
        for dot in dots { try page.image.circle(center: dot, radius: 5, color: Color(white: 0)) }
        let corners = PinholeView.project(
            width: 425, height: 550, frameWidth: 960, frameHeight: 540, focal: 800, tiltDegrees: 20, rollDegrees: -8)
        let scene = try SyntheticScene(
            background: try SyntheticBackground.wood.render(width: 960, height: 540, seed: 52), page: page,
            corners: corners, noise: 1)
        let flat = try scene.frame.flattened(through: corners)
        let aspect = Double(flat.width) / Double(flat.height)
        #expect(abs(aspect / (425.0 / 550.0) - 1) < 0.01, "aspect \(aspect)")
        let reference = try page.image.resized(width: flat.width, height: flat.height, interpolation: .area)
        #expect(try normalizedCrossCorrelation(try flat.converted(to: .gray8), try reference.converted(to: .gray8)) > 0.9)
        // Each dot where it belongs on the flat page: the centroid of the dark pixels near it.
        let gray = try flat.converted(to: .gray8)
        let sx = Double(flat.width) / 425, sy = Double(flat.height) / 550
        var errors: [Double] = []
        for dot in dots {
            let expected = Point(x: (dot.x + 0.5) * sx - 0.5, y: (dot.y + 0.5) * sy - 0.5)
            var sum = Point(x: 0, y: 0), count = 0.0
            for y in max(0, Int(expected.y) - 14)...min(flat.height - 1, Int(expected.y) + 14) {
                for x in max(0, Int(expected.x) - 14)...min(flat.width - 1, Int(expected.x) + 14)
                where gray.pixel(x: x, y: y)[0] < 90 {
                    sum = Point(x: sum.x + Double(x), y: sum.y + Double(y))
                    count += 1
                }
            }
            try #require(count > 20, "the dot near \(expected) is missing")
            errors.append(Point(x: sum.x / count, y: sum.y / count).distance(to: expected))
        }
        print("flatten through known corners: corner dots \(errors.map { decimal($0, places: 2) }) px from their places")
        #expect(errors.allSatisfy { $0 < 0.5 }, "corner dots off by \(errors) px")

        let c = corners.corners
        let refused: [(String, Quad)] = [
            ("outside", Quad(topLeft: Point(x: -3, y: c[0].y), topRight: c[1], bottomRight: c[2], bottomLeft: c[3])),
            ("crossed", Quad(topLeft: c[0], topRight: c[1], bottomRight: c[3], bottomLeft: c[2])),
            ("anticlockwise", Quad(topLeft: c[0], topRight: c[3], bottomRight: c[2], bottomLeft: c[1])),
            ("degenerate", Quad(topLeft: c[0], topRight: c[0] + Point(x: 3, y: 0), bottomRight: c[2], bottomLeft: c[3])),
            ("not a number", Quad(topLeft: Point(x: .nan, y: 1), topRight: c[1], bottomRight: c[2], bottomLeft: c[3])),
        ]
        for (name, quad) in refused {
            #expect(throws: FocalError.self, "\(name)") { try scene.frame.flattened(through: quad) }
            do { _ = try scene.frame.flattened(through: quad) } catch { #expect(error.kind == .invalidArgument, "\(name)") }
        }
    }

    @Test(arguments: [(0.0, 0.0), (3.0, 0.0), (30.0, 15.0), (45.0, -20.0)])
    func aspectRatioFromCameraGeometry(tilt: Double, roll: Double) {
        for (w, h) in [(210.0, 297.0), (85.6, 54.0)] {
            let quad = PinholeView.project(
                width: w, height: h, frameWidth: 1280, frameHeight: 720, focal: 1000, tiltDegrees: tilt, rollDegrees: roll)
            let estimate = quad.estimatedAspectRatio(imageWidth: 1280, imageHeight: 720)
            let known = quad.estimatedAspectRatio(imageWidth: 1280, imageHeight: 720, focalLength: 1000)
            #expect(abs(known / (w / h) - 1) < 1e-6, "with the true focal length the ratio is exact")
            #expect(abs(estimate / (w / h) - 1) < 0.03, "tilt \(tilt): \(estimate) vs \(w / h)")
        }
    }
}

/// Pearson correlation of two gray frames of one size.
func normalizedCrossCorrelation(_ a: Frame, _ b: Frame) throws -> Double {
    var sa = 0.0, sb = 0.0, saa = 0.0, sbb = 0.0, sab = 0.0, n = 0.0
    for y in 0..<a.height {
        for x in 0..<a.width {
            let p = Double(a.pixel(x: x, y: y)[0]), q = Double(b.pixel(x: x, y: y)[0])
            sa += p; sb += q; saa += p * p; sbb += q * q; sab += p * q; n += 1
        }
    }
    let cov = sab / n - sa / n * sb / n
    return cov / ((saa / n - sa * sa / n / n).squareRoot() * (sbb / n - sb * sb / n / n).squareRoot())
}

/// A rectangle of size width × height lying on a plane, seen by a pinhole camera.
enum PinholeView {
    static func project(
        width: Double, height: Double, frameWidth: Int, frameHeight: Int, focal: Double,
        tiltDegrees: Double, rollDegrees: Double
    ) -> Quad {
        let t = tiltDegrees * .pi / 180, r = rollDegrees * .pi / 180
        let distance = 2.2 * max(width, height) * focal / Double(frameWidth)
        let cx = Double(frameWidth - 1) / 2, cy = Double(frameHeight - 1) / 2
        let corners = [(-width / 2, -height / 2), (width / 2, -height / 2), (width / 2, height / 2), (-width / 2, height / 2)].map
        { (x, y) -> Point in
            let xr = x * cos(r) - y * sin(r), yr = x * sin(r) + y * cos(r)  // roll within the plane
            let yt = yr * cos(t), zt = distance + yr * sin(t)  // tilt about the x axis
            return Point(x: cx + focal * xr / zt, y: cy + focal * yt / zt)
        }
        return Quad(topLeft: corners[0], topRight: corners[1], bottomRight: corners[2], bottomLeft: corners[3])
    }
}

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct CornerTextTests {
    @Test func cornersReadAsEightNumbersOrAsJSON() throws {
        let expected = Quad(
            topLeft: Point(x: 10, y: 20), topRight: Point(x: 500, y: 25.5), bottomRight: Point(x: 490, y: 700),
            bottomLeft: Point(x: 15, y: 690))
        #expect(Quad(commaSeparated: "10,20,500,25.5,490,700,15,690") == expected)
        #expect(Quad(commaSeparated: " [[10, 20], [500, 25.5], [490, 700], [15, 690]] ") == expected)
        for bad in [
            "10,20,500,25.5,490,700,15", "[[10,20],[500,25.5],[490,700]]", "[[10,20,500],[25.5,490],[700,15],[690]]",
            "[[10,20],[500,25.5],[490,700],[15,690]", "[10,20,500,25.5,490,700,15,690]", "[[10,20]],[[500,25.5],[490,700],[15,690]]",
            "[[10,nan],[500,25.5],[490,700],[15,690]]",
        ] {
            #expect(Quad(commaSeparated: bad) == nil, "\(bad)")
        }
    }
}
