import Focal
import FocalSynthetic
import Foundation
import Testing

/// Scenes with known corners: the detector must land within a few pixels, find nothing on empty
/// tables, and every option must change the result as its documentation says.
@Suite struct RectangleDetectorTests {
    static let width = 960, height = 540

    static func scene(
        background: SyntheticBackground, corners: Quad?, blur: Double = 0, noise: Double = 2,
        seed: UInt64 = 1, pageSize: (Int, Int) = (425, 550)
    ) throws -> SyntheticScene {
        let table = try background.render(width: width, height: height, seed: seed)
        let page = try SyntheticPage(width: pageSize.0, height: pageSize.1, seed: seed &+ 50)
        return try SyntheticScene(
            background: table, page: corners == nil ? nil : page, corners: corners,
            blur: .init(sigma: blur), noise: noise, seed: seed)
    }

    static func cornerError(_ found: Quad, _ truth: Quad) -> Double {
        // Best cyclic shift: the page's own top-left need not be the on-screen top-left.
        (0..<4).map { shift in
            (0..<4).map { found.corners[$0].distance(to: truth.corners[($0 + shift) % 4]) }.max()!
        }.min()!
    }

    @Test(arguments: [
        (SyntheticBackground.wood, 0.0, 0.0, 1 as UInt64), (.cluttered, 12.0, 0.15, 2), (.wood, -18.0, 0.25, 3),
        (.cluttered, 25.0, 0.1, 4), (.plain(Color(red: 0.3, green: 0.32, blue: 0.35)), -5.0, 0.3, 5),
    ])
    func findsThePageWithinTwoPixels(background: SyntheticBackground, rotation: Double, tilt: Double, seed: UInt64) throws {
        let truth = SyntheticScene.corners(
            frameWidth: Self.width, frameHeight: Self.height,
            center: Point(x: 470, y: 275), fill: 0.78, rotation: rotation, tilt: tilt)
        let scene = try Self.scene(background: background, corners: truth, blur: 0.8, seed: seed)
        for accuracy in DetectorOptions.Accuracy.allCases {
            let found = try Detector(type: .rectangle, options: .init(accuracy: accuracy)).rectangles(in: scene.frame)
            try #require(found.count == 1, "\(accuracy): \(found.count) rectangles")
            let error = Self.cornerError(found[0].quad, truth)
            #expect(error < 2.0, "\(accuracy) corner error \(error) px, found \(found[0].quad.corners)")
            #expect(found[0].confidence >= 0.6 && found[0].confidence <= 1)
            #expect(found[0].quad.isConvex)
        }
    }

    @Test func blurAndNoiseStillLandWithinThreePixels() throws {
        let truth = SyntheticScene.corners(
            frameWidth: Self.width, frameHeight: Self.height, center: Point(x: 480, y: 270),
            fill: 0.8, rotation: 8, tilt: 0.2)
        let scene = try Self.scene(background: .wood, corners: truth, blur: 2.5, noise: 6, seed: 9)
        let found = try Detector(type: .rectangle).rectangles(in: scene.frame)
        try #require(found.count == 1)
        #expect(Self.cornerError(found[0].quad, truth) < 3.0)
    }

    @Test(arguments: [SyntheticBackground.wood, .cluttered, .plain(Color(white: 0.4))], [UInt64(11), 12, 13])
    func emptyTablesGiveNothing(background: SyntheticBackground, seed: UInt64) throws {
        let scene = try Self.scene(background: background, corners: nil, blur: 1, seed: seed)
        for accuracy in DetectorOptions.Accuracy.allCases {
            #expect(try Detector(type: .rectangle, options: .init(accuracy: accuracy)).rectangles(in: scene.frame).isEmpty)
        }
    }

    @Test func maximumFeatureCountFindsSeveralDocuments() throws {
        var frame = try SyntheticBackground.wood.render(width: Self.width, height: Self.height, seed: 21)
        let quads = [
            SyntheticScene.corners(
                frameWidth: Self.width, frameHeight: Self.height, center: Point(x: 250, y: 270), fill: 0.7, rotation: -6),
            SyntheticScene.corners(
                frameWidth: Self.width, frameHeight: Self.height, center: Point(x: 700, y: 280), fill: 0.6, rotation: 9),
        ]
        for (index, quad) in quads.enumerated() {
            frame = try SyntheticScene(
                background: frame, page: try SyntheticPage(width: 425, height: 550, seed: UInt64(index)),
                corners: quad
            ).frame
        }
        let one = try Detector(type: .rectangle).rectangles(in: frame)
        #expect(one.count == 1, "the default reports the best one only")
        let both = try Detector(type: .rectangle, options: .init(maximumFeatureCount: 5)).rectangles(in: frame)
        #expect(both.count == 2)
        for quad in quads {
            #expect(both.contains { Self.cornerError($0.quad, quad) < 2.5 }, "missing the page at \(quad.center)")
        }
    }

    @Test func minimumSizeIgnoresSmallDocuments() throws {
        let small = SyntheticScene.corners(
            frameWidth: Self.width, frameHeight: Self.height, center: Point(x: 480, y: 270), fill: 0.35)
        let scene = try Self.scene(background: .wood, corners: small, seed: 31)
        // The page's shorter side is about 0.27 of the frame's height.
        #expect(try Detector(type: .rectangle, options: .init(minimumSize: 0.2)).rectangles(in: scene.frame).count == 1)
        #expect(try Detector(type: .rectangle, options: .init(minimumSize: 0.35)).rectangles(in: scene.frame).isEmpty)
    }

    @Test func aspectRatioRangeSelectsShapes() throws {
        // A receipt-like page, 0.4 wide for 1 tall.
        let truth = SyntheticScene.corners(
            frameWidth: Self.width, frameHeight: Self.height, center: Point(x: 480, y: 270),
            fill: 0.85, pageAspect: 2.5, rotation: 5)
        let scene = try Self.scene(background: .cluttered, corners: truth, seed: 41, pageSize: (300, 750))
        #expect(try Detector(type: .rectangle, options: .init(minimumAspectRatio: 0.3)).rectangles(in: scene.frame).count == 1)
        #expect(try Detector(type: .rectangle, options: .init(minimumAspectRatio: 0.5)).rectangles(in: scene.frame).isEmpty)
        #expect(
            try Detector(type: .rectangle, options: .init(minimumAspectRatio: 0.3, maximumAspectRatio: 0.35))
                .rectangles(in: scene.frame).isEmpty)
    }

    @Test func quadratureToleranceRejectsSteepPerspective() throws {
        let steep = SyntheticScene.corners(
            frameWidth: Self.width, frameHeight: Self.height, center: Point(x: 480, y: 270),
            fill: 0.75, tilt: 0.5)
        let scene = try Self.scene(background: .wood, corners: steep, seed: 51)
        let angles = steep.quadratureError
        #expect(angles > 10 && angles < 28)
        #expect(try Detector(type: .rectangle, options: .init(quadratureTolerance: 30)).rectangles(in: scene.frame).count == 1)
        #expect(
            try Detector(type: .rectangle, options: .init(quadratureTolerance: angles - 5)).rectangles(in: scene.frame).isEmpty)
    }

    @Test func minimumConfidenceFiltersWeakEdges() throws {
        let truth = SyntheticScene.corners(
            frameWidth: Self.width, frameHeight: Self.height, center: Point(x: 480, y: 270), fill: 0.8)
        let scene = try Self.scene(background: .wood, corners: truth, blur: 1, seed: 61)
        let found = try #require(try Detector(type: .rectangle).rectangles(in: scene.frame).first)
        #expect(
            try Detector(type: .rectangle, options: .init(minimumConfidence: min(1, found.confidence + 0.01)))
                .rectangles(in: scene.frame).isEmpty || found.confidence >= 0.99)
    }

    @Test func orientationTurnsResultsIntoTheUprightImage() throws {
        let truth = SyntheticScene.corners(
            frameWidth: Self.width, frameHeight: Self.height, center: Point(x: 400, y: 260),
            fill: 0.75, rotation: 10)
        let upright = try Self.scene(background: .wood, corners: truth, seed: 71).frame
        // Store the frame turned 90° counter-clockwise, tagged .right: shown upright it is the original.
        var stored = upright
        stored.orientation = .left
        stored = try stored.oriented()
        let found = try Detector(type: .rectangle).rectangles(in: stored, orientation: .right)
        try #require(found.count == 1)
        #expect(Self.cornerError(found[0].quad, truth) < 2.0, "results are in the upright image's coordinates")
    }

    @Test func trackingKeepsIDsAcrossFrames() throws {
        let clip = try SyntheticClip(width: 640, height: 360, frameCount: 8, sharpestFrame: 4, seed: 81)
        let detector = try Detector(type: .rectangle, options: .init(tracking: true))
        var ids: Set<Int> = []
        for index in 0..<clip.frameCount {
            for feature in try detector.rectangles(in: try clip.scene(at: index).frame) {
                ids.insert(try #require(feature.trackingID))
            }
        }
        #expect(ids.count == 1)
        #expect(try Detector(type: .rectangle).rectangles(in: try clip.scene(at: 0).frame).first?.trackingID == nil)
    }

    @Test func textbookBaselineStillWorksOnAnEasyScene() throws {
        let truth = SyntheticScene.corners(
            frameWidth: Self.width, frameHeight: Self.height, center: Point(x: 480, y: 270), fill: 0.8)
        let scene = try Self.scene(background: .plain(Color(white: 0.2)), corners: truth, seed: 91)
        let found = try TextbookRectangles.detect(in: scene.frame)
        try #require(found.count == 1)
        #expect(Self.cornerError(found[0].quad, truth) < 6)
    }

    @Test func badOptionsAreRejected() {
        #expect(throws: FocalError.self) {
            try Detector(type: .rectangle, options: .init(minimumAspectRatio: 0.8, maximumAspectRatio: 0.5))
        }
        #expect(throws: FocalError.self) { try Detector(type: .rectangle, options: .init(maximumFeatureCount: 0)) }
        var text = DetectorOptions()
        text.text.minimumContrast = 300
        #expect(throws: FocalError.self) { try Detector(type: .text, options: text) }
    }
}

@Suite struct QRAndFaceTests {
    /// Renders a QR code of message and composites it into frame with its square's outer corners
    /// (pixel edges, hence the half pixels) on target.
    static func draw(_ message: String, moduleSize: Int, onto frame: inout Frame, at target: Quad) throws {
        let code = try QRCode.render(message, moduleSize: moduleSize)
        let w = Double(code.width)
        let square = [
            Point(x: -0.5, y: -0.5), Point(x: w - 0.5, y: -0.5), Point(x: w - 0.5, y: w - 0.5), Point(x: -0.5, y: w - 0.5),
        ]
        try frame.composite(code, through: try Homography(from: square, to: target.corners))
    }

    @Test func qrCodeIsFoundAndDecodedInPerspective() throws {
        var frame = try Frame(width: 800, height: 600, format: .bgr8, color: Color(white: 0.85))
        let target = Quad(
            topLeft: Point(x: 250, y: 140), topRight: Point(x: 560, y: 170),
            bottomRight: Point(x: 540, y: 470), bottomLeft: Point(x: 230, y: 430))
        try Self.draw("https://focal.example/scan?id=42", moduleSize: 8, onto: &frame, at: target)
        let found = try Detector(type: .qrCode).features(in: frame).compactMap { $0 as? QRCodeFeature }
        try #require(found.count == 1)
        #expect(found[0].messageString == "https://focal.example/scan?id=42")
        // The code's corners lie inside the quiet zone of the rendered square.
        #expect(target.intersectionOverUnion(with: found[0].quad) > 0.5)
        #expect(
            try Detector(type: .qrCode).features(in: try Frame(width: 400, height: 300, format: .bgr8, color: .white)).isEmpty)
    }

    @Test func qrCodeInALargePhotoIsLocatedOnAWorkingImageAndReadAtFullSize() throws {
        // 6000 x 4000: locating runs at 2048 px on the longer side, so corners come back scaled by
        // about 2.9; they must still land on the code, and the message must still be read.
        var frame = try Frame(width: 6000, height: 4000, format: .gray8, color: Color(white: 0.8))
        let target = Quad(
            topLeft: Point(x: 3100, y: 1500), topRight: Point(x: 3600, y: 1530),
            bottomRight: Point(x: 3580, y: 2040), bottomLeft: Point(x: 3080, y: 2010))
        try Self.draw("focal large photo", moduleSize: 12, onto: &frame, at: target)
        let found = try Detector(type: .qrCode).features(in: frame).compactMap { $0 as? QRCodeFeature }
        try #require(found.count == 1)
        #expect(found[0].messageString == "focal large photo")
        #expect(target.intersectionOverUnion(with: found[0].quad) > 0.7, "\(found[0].quad)")
    }

    @Test func facesNeedTheCascadesAndFindNothingOnPages() throws {
        let detector = try Detector(type: .face)
        let page = try SyntheticPage(width: 425, height: 550, seed: 3).image
        #expect(try detector.features(in: page).isEmpty)
    }
}

@Suite struct FeatureCodingTests {
    @Test func featuresEncodeToThePredictionsSchema() throws {
        let quad = Quad(
            topLeft: Point(x: 1, y: 2), topRight: Point(x: 10, y: 2), bottomRight: Point(x: 10, y: 12),
            bottomLeft: Point(x: 1, y: 12))
        let feature = RectangleFeature(quad: quad, confidence: 0.93, trackingID: 1)
        let json = String(decoding: try JSONEncoder.sorted.encode(AnyFeature(feature)), as: UTF8.self)
        #expect(json == #"{"confidence":0.93,"corners":[[1,2],[10,2],[10,12],[1,12]],"trackID":1,"type":"rectangle"}"#)
        let decoded = try JSONDecoder().decode(AnyFeature.self, from: Data(json.utf8))
        #expect(decoded.base as? RectangleFeature == feature)
    }

    @Test func quadGeometry() throws {
        let square = Quad(Rect(x: 0, y: 0, width: 10, height: 10))
        #expect(square.area == 100 && square.isConvex)
        #expect(square.interiorAngles.allSatisfy { abs($0 - 90) < 1e-9 })
        let shifted = Quad(Rect(x: 5, y: 0, width: 10, height: 10))
        #expect(abs(square.intersectionOverUnion(with: shifted) - 50.0 / 150.0) < 1e-9)
        let h = try square.homographyToRectangle(width: 100, height: 50)
        let mapped = try #require(h.apply(Point(x: 10, y: 10)))
        #expect(abs(mapped.x - 99.5) < 1e-6 && abs(mapped.y - 49.5) < 1e-6, "corners map onto the rectangle's pixel edges")
        #expect(Quad(unordered: [square.bottomRight, square.topLeft, square.bottomLeft, square.topRight]) == square)
    }
}

extension JSONEncoder {
    static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}

@Suite struct RealFaceTests {
    static var portrait: String {
        Bundle.module.path(forResource: "astronaut", ofType: "jpg", inDirectory: "Resources") ?? "missing astronaut.jpg"
    }

    @Test func findsTheFaceAndItsLandmarksInARealPortrait() throws {
        let photo = try Frame(contentsOf: Self.portrait)
        let faces = try Detector(type: .face).features(in: photo).compactMap { $0 as? FaceFeature }
        try #require(faces.count == 1, "\(faces.count) faces")
        let face = faces[0]
        // The face sits at about x 174…273, y 64…163 of the 512×512 portrait.
        #expect(
            face.bounds.minX > 150 && face.bounds.maxX < 300 && face.bounds.minY > 40 && face.bounds.maxY < 190, "\(face.bounds)")
        let left = try #require(face.leftEyePosition), right = try #require(face.rightEyePosition)
        #expect(left.x < right.x && abs(left.y - right.y) < 15, "eyes side by side: \(left) \(right)")
        if let mouth = face.mouthPosition {
            #expect(
                mouth.y > max(left.y, right.y) + 20 && mouth.x > left.x && mouth.x < right.x, "mouth below and between the eyes")
        }
    }

    @Test func orientationAppliesToFacesToo() throws {
        var stored = try Frame(contentsOf: Self.portrait)
        stored.orientation = .left  // store the portrait turned a quarter counter-clockwise
        stored = try stored.oriented()
        let upright = try Detector(type: .face).features(in: stored, orientation: .right).compactMap { $0 as? FaceFeature }
        try #require(upright.count == 1)
        #expect(
            upright[0].bounds.minX > 150 && upright[0].bounds.maxY < 190,
            "in the upright image's coordinates: \(upright[0].bounds)")
        #expect(try Detector(type: .face).features(in: stored).isEmpty, "a face on its side is not found without the orientation")
    }
}
