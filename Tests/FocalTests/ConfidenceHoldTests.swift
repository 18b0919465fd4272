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

    /// The smears, in pixels, searched for the one in which `.high`'s network fades the page. That
    /// smear moves with the network's weights (32 pixels until 0.7.25, 48 to 0.7.47, 44 to 0.7.51, 54
    /// to 0.7.54; 48 since 0.7.55, whose weak quad there lies 33 pixels off a corner, unseen while
    /// the test named 54), so the test looks for it instead of naming it.
    static let fadingSmears = Array(stride(from: 40.0, through: 90.0, by: 2.0))

    /// The first smear of `fadingSmears` in which a detector that tracked the page through two sharp
    /// frames holds it (reports it at its track's confidence decayed, as a held document is reported):
    /// the smear, the sharp frames' documents, the held ones, and that detector, to go on with. Nil
    /// where no smear does. In the smears before it, the page is found sure enough to report, or
    /// nowhere near where it was heading.
    static func firstHeldSmear() throws -> (
        motion: Double, before: [RectangleFeature], held: [RectangleFeature], detector: Detector
    )? {
        let sharp = try frame(motion: 0)
        for motion in fadingSmears {
            let detector = try Detector(type: .rectangle, options: options)
            let before = try detector.rectangles(in: sharp) + detector.rectangles(in: sharp)
            guard before.count == 2 else { return nil }
            let held = try detector.rectangles(in: try frame(motion: motion))
            let decayed = before[1].confidence * 0.85  // the track's confidence, decayed once
            if held.contains(where: { abs($0.confidence - decayed) < 1e-9 }) { return (motion, before, held, detector) }
        }
        return nil
    }

    @Test func aTrackedPageIsHeldThroughAFrameOfBlurAndLetGoWhenTheBlurLasts() throws {
        let found = try Self.firstHeldSmear()
        let (motion, before, held, detector) = try #require(
            found, "no smear of \(Self.fadingSmears.first!) to \(Self.fadingSmears.last!) px in which the page is held")
        try #require(before.allSatisfy { $0.trackingID == 1 && $0.confidence >= 0.9 })
        // On its own, the page is not sure enough to report in that smear...
        let smeared = try Self.frame(motion: motion)
        var untracked = Self.options
        untracked.tracking = false
        #expect(try Detector(type: .rectangle, options: untracked).rectangles(in: smeared).isEmpty, "at \(motion) px")
        // ... tracked, it is held once, on its track, where the page is...
        try #require(held.count == 1, "held \(held.count) at \(motion) px")
        #expect(held[0].trackingID == 1)
        let error = RectangleDetectorTests.cornerError(held[0].quad, Self.truth)
        #expect(error < 12, "corner error \(error) px at \(motion) px")
        // ... and let go in the next, when the decayed confidence falls below the minimum.
        #expect(try detector.rectangles(in: smeared).isEmpty)
        #expect(try detector.rectangles(in: Self.frame(motion: 0)).first?.trackingID == 1)
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
