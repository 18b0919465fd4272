import Focal
import FocalSynthetic
import Testing

/// A tracked document is held through a frame in which its evidence fades (the camera swinging
/// past a page on a pebble-dash wall), at its track's decaying confidence, and let go when the
/// fading goes on or the page is gone.
@Suite struct ConfidenceHoldTests {
    static let width = 1280, height = 720
    static let truth = SyntheticScene.corners(
        frameWidth: width, frameHeight: height, center: Point(x: 640, y: 360), fill: 0.6, rotation: 6, tilt: 0.15)
    static let options = DetectorOptions(accuracy: .high, minimumConfidence: 0.8, tracking: true)

    static func wall() throws -> Frame { try SyntheticBackground.pebbleDash.render(width: width, height: height, seed: 31) }

    /// A video frame (YUV 4:2:0) of the page, smeared by `motion` pixels as the camera moves.
    static func frame(motion: Double) throws -> Frame {
        try SyntheticScene(
            background: try wall(), page: try SyntheticPage(width: 425, height: 550, seed: 32), corners: truth,
            blur: .init(sigma: 1.5, motionLength: motion, motionAngle: 80), noise: 2, seed: 33
        ).frame.converted(to: .yuv420)
    }

    @Test func aTrackedPageIsHeldThroughAFrameOfBlurAndLetGoWhenTheBlurLasts() throws {
        let detector = try Detector(type: .rectangle, options: Self.options)
        let sharp = try Self.frame(motion: 0), smeared = try Self.frame(motion: 44)
        let before = try detector.rectangles(in: sharp) + detector.rectangles(in: sharp)
        try #require(before.count == 2 && before.allSatisfy { $0.trackingID == 1 && $0.confidence >= 0.9 })
        // On its own, the smeared frame's page is not sure enough to report: 0.71 with `.high`'s
        // network of 0.7.48. The smear is the one that network fades the page in: smeared by 32
        // pixels, as until 0.7.25, it finds the page at 0.92 on its own; by 48, as from 0.7.26 to
        // 0.7.47, its weak quad lies 30 pixels off, and nothing is held.
        var untracked = Self.options
        untracked.tracking = false
        #expect(try Detector(type: .rectangle, options: untracked).rectangles(in: smeared).isEmpty)
        // Tracked, it is held once at its track's confidence decayed, where the page is...
        let held = try detector.rectangles(in: smeared)
        try #require(held.count == 1, "not held")
        #expect(held[0].trackingID == 1)
        #expect(abs(held[0].confidence - before[1].confidence * 0.85) < 1e-9)
        let error = RectangleDetectorTests.cornerError(held[0].quad, Self.truth)
        #expect(error < 12, "corner error \(error) px")
        // ... and let go in the next, when the decayed confidence falls below the minimum.
        #expect(try detector.rectangles(in: smeared).isEmpty)
        #expect(try detector.rectangles(in: sharp).first?.trackingID == 1)
    }

    @Test func aPageTakenAwayIsNotHeld() throws {
        let detector = try Detector(type: .rectangle, options: Self.options)
        let sharp = try Self.frame(motion: 0), wall = try Self.wall().converted(to: .yuv420)
        #expect(try detector.rectangles(in: sharp).count == 1)
        #expect(try detector.rectangles(in: sharp).count == 1)
        #expect(try detector.rectangles(in: wall).isEmpty)
        #expect(try detector.rectangles(in: wall).isEmpty)
    }
}
