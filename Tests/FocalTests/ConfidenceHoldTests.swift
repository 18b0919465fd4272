import Focal
import FocalSynthetic
import Testing

/// A tracked document is held through a frame in which its evidence fades (the camera swinging
/// past a page on a pebble-dash wall), at its track's decaying confidence, and let go when the
/// fading goes on or the page is gone. The hold's rule on its own, whatever the network's weights:
/// `ConfidenceHoldRuleTests`.
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
        let sharp = try Self.frame(motion: 0), smeared = try Self.frame(motion: 54)
        let before = try detector.rectangles(in: sharp) + detector.rectangles(in: sharp)
        try #require(before.count == 2 && before.allSatisfy { $0.trackingID == 1 && $0.confidence >= 0.9 })
        // On its own, the smeared frame's page is not sure enough to report. The smear is the one
        // `.high`'s network fades the page in, and it moves with the network: 32 pixels until
        // 0.7.25, 48 to 0.7.47, 44 to 0.7.51 (0.71 with 0.7.48's network). 0.7.52's reports the
        // page on its own smeared by 40 and 44, 26 and 30 pixels off; at 48 its weak quad lies 46
        // pixels off; at 46, 50 and 56 to 70 it finds no quad where the page is; at 54 it finds the
        // page weakly, in place.
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
