import Focal
import FocalSynthetic
import Testing

/// A tracked page carried through frames a camera's refocusing blurs past finding (``TrackCoast``
/// in the library), on a rendered page whose corners are known.
@Suite struct TrackCoastTests {
    static let width = 1280, height = 720
    static let truth = SyntheticScene.corners(
        frameWidth: width, frameHeight: height, center: Point(x: 600, y: 380), fill: 0.5, rotation: -8, tilt: 0.2)
    static let options = DetectorOptions(accuracy: .high, tracking: true)

    static func desk() throws -> Frame { try SyntheticBackground.wood.render(width: width, height: height, seed: 41) }

    /// A video frame (YUV 4:2:0) of the page, defocused by `sigma` pixels.
    static func frame(defocus sigma: Double) throws -> Frame {
        try SyntheticScene(
            background: try desk(), page: try SyntheticPage(width: 425, height: 550, seed: 42), corners: truth,
            blur: .init(sigma: sigma), noise: 2, seed: 43
        ).frame.converted(to: .yuv420)
    }

    /// The defocus at which the search finds nothing of the page on its own, not even weakly.
    static let lost = 32.0

    @Test func aTrackedPageIsCarriedThroughDefocusAndLetGoWhenItLasts() throws {
        let sharp = try Self.frame(defocus: 1), blurred = try Self.frame(defocus: Self.lost)
        var untracked = Self.options
        untracked.tracking = false
        untracked.minimumConfidence = 0.3
        try #require(try Detector(type: .rectangle, options: untracked).rectangles(in: blurred).isEmpty)
        let detector = try Detector(type: .rectangle, options: Self.options)
        let before = try detector.rectangles(in: sharp) + detector.rectangles(in: sharp)
        try #require(before.count == 2 && before.allSatisfy { $0.trackingID == 1 })
        var confidence = before[1].confidence
        // Carried where it is, its confidence decaying, for at most six frames...
        for index in 0..<6 where confidence * 0.93 >= Self.options.minimumConfidence {
            confidence *= 0.93
            let carried = try detector.rectangles(in: blurred)
            try #require(carried.count == 1, "not carried in blurred frame \(index)")
            #expect(carried[0].trackingID == 1)
            #expect(abs(carried[0].confidence - confidence) < 1e-9)
            let error = RectangleDetectorTests.cornerError(carried[0].quad, Self.truth)
            #expect(error < 8, "blurred frame \(index): corner error \(error) px")
        }
        // ... then let go; the page in focus again is found on its track.
        #expect(try detector.rectangles(in: blurred).isEmpty)
        #expect(try detector.rectangles(in: sharp).first?.trackingID == 1)
    }

    /// The desk left behind is darker than the page; `ConfidenceHoldTests.aPageTakenAwayIsNotHeld`
    /// takes a page off a wall about as bright, which the looks' likeness tells apart.
    @Test func aPageTakenAwayInTheBlurIsNotCarried() throws {
        let detector = try Detector(type: .rectangle, options: Self.options)
        let sharp = try Self.frame(defocus: 1)
        let desk = try Self.desk().gaussianBlurred(sigma: Self.lost).converted(to: .yuv420)
        #expect(try detector.rectangles(in: sharp).count == 1)
        #expect(try detector.rectangles(in: sharp).count == 1)
        #expect(try detector.rectangles(in: desk).isEmpty)
    }
}
