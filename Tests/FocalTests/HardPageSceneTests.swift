import Focal
import FocalSynthetic
import Foundation
import Testing

/// Rendered scenes of the kinds real desks show and the page network once missed: a page among
/// clutter with pens and a cable across it, a white sheet on a white desk under objects standing
/// on it, seen by a grey 640 × 480 camera, a sheet bowed in a hand, and a page that fills the
/// frame. Each is found with its corners within a few pixels of where the page was drawn; a page on
/// a stack of papers is not yet.
@Suite struct HardPageSceneTests {
    static func page(seed: UInt64) throws -> SyntheticPage { try SyntheticPage(width: 425, height: 550, seed: seed) }

    static func found(_ frame: Frame, accuracy: DetectorOptions.Accuracy = .high) throws -> [RectangleFeature] {
        try Detector(type: .rectangle, options: .init(accuracy: accuracy)).rectangles(in: frame)
    }

    @Test func aPageAmongClutterWithPensAndACableAcrossItIsFound() throws {
        let width = 1280, height = 720
        let truth = SyntheticScene.corners(
            frameWidth: width, frameHeight: height, center: Point(x: 600, y: 370), fill: 0.78, rotation: -8, tilt: 0.2)
        let desk = try SyntheticBackground.cluttered.render(width: width, height: height, seed: 21)
        var frame = try SyntheticScene(background: desk, page: try Self.page(seed: 22), corners: truth, noise: 2).frame
        // A black cable from the desk on the left, over the page, to the desk on the right.
        try frame.stroke(
            [Point(x: 0, y: 300), Point(x: 420, y: 340), Point(x: 800, y: 420), Point(x: 1280, y: 470)],
            color: Color(white: 0.06), lineWidth: 10, closed: false)
        // A pen and a yellow highlighter lying on the page, one across its left side.
        try frame.stroke(
            [Point(x: 380, y: 520), Point(x: 560, y: 470)], color: Color(red: 0.1, green: 0.15, blue: 0.6), lineWidth: 12,
            closed: false)
        try frame.stroke(
            [Point(x: 620, y: 560), Point(x: 760, y: 610)], color: Color(red: 0.95, green: 0.9, blue: 0.1), lineWidth: 22,
            closed: false)
        // A mug and an orange beside it on the desk.
        try frame.circle(center: Point(x: 1050, y: 200), radius: 80, color: Color(red: 0.85, green: 0.85, blue: 0.8))
        try frame.circle(center: Point(x: 180, y: 560), radius: 60, color: Color(red: 0.95, green: 0.5, blue: 0.05))
        let found = try Self.found(frame)
        try #require(!found.isEmpty, "nothing found")
        let error = RectangleDetectorTests.cornerError(found[0].quad, truth)
        #expect(error < 10, "corner error \(error) px: \(found[0].quad.corners)")
    }

    /// A page on a pale pebble-dash wall, in a video frame smeared by the camera swinging past: the
    /// network read the page's region away when a video frame was averaged to its input by area
    /// (at .high, confidence 0.51 before 0.7.0, 0.94 since).
    @Test(arguments: [DetectorOptions.Accuracy.high, .low])
    func aPageOnAPebbleDashWallInASmearedVideoFrameIsFound(accuracy: DetectorOptions.Accuracy) throws {
        let found = try Self.found(try ConfidenceHoldTests.frame(motion: 16), accuracy: accuracy)
        try #require(!found.isEmpty, "nothing found")
        let error = RectangleDetectorTests.cornerError(found[0].quad, ConfidenceHoldTests.truth)
        #expect(error < 8, "corner error \(error) px: \(found[0].quad.corners)")
    }

    /// The same page smeared further (28 px): at `.high` nothing was found in it before the second
    /// look at the network's coarser input (``AccuracyProfile/secondLookPageModelInput``). Each side
    /// is smeared over 28 px, so its corners should be found within half that; with `.high`'s
    /// network of 0.7.48 (the first blocks cut) they were 16.8 px off, with 0.7.52's 23.7;
    /// 0.7.47's found them within 14, and so does 0.7.53's with its finer view blended into its
    /// maps (``AccuracyProfile/finerViewPageModelInput``): 12.5 px. The page must be found within
    /// half the smear.
    @Test func aPageOnAPebbleDashWallSmearedFurtherIsFoundByASecondCoarserLook() throws {
        let found = try Self.found(try ConfidenceHoldTests.frame(motion: 28), accuracy: .high)
        try #require(!found.isEmpty, "nothing found")
        let error = RectangleDetectorTests.cornerError(found[0].quad, ConfidenceHoldTests.truth)
        #expect(error < 28, "corner error \(error) px: \(found[0].quad.corners)")
        #expect(error < 14, "corner error \(error) px: \(found[0].quad.corners)")
    }

    /// The sheet is white on a white desk; a dark cylinder and a box stand on it, hiding part of
    /// two sides and a corner; the camera gives single-channel 640 × 480 frames. With `.high`'s
    /// network of 0.7.26, before quads joined from the image's own straight edges competed where the
    /// network's likeliest quad does not lie on edges all round (`ImageLines` in the shim, 0.7.40),
    /// the corner error was 12.1 px (a known issue until then).
    @Test func aWhiteSheetUnderStandingObjectsSeenByAGreyCameraIsFound() throws {
        let width = 640, height = 480
        let truth = SyntheticScene.corners(
            frameWidth: width, frameHeight: height, center: Point(x: 320, y: 250), fill: 0.8, rotation: 5, tilt: 0.25)
        let desk = try Frame(width: width, height: height, format: .bgr8, color: Color(white: 0.8))
        var frame = try SyntheticScene(background: desk, page: try Self.page(seed: 23), corners: truth, blur: .init(sigma: 0.8))
            .frame
        // A cylinder standing on the page's right side: its body, and its top seen from above.
        let right = (truth.topRight + truth.bottomRight) * 0.5
        try frame.fill(
            [
                Point(x: right.x - 40, y: right.y - 120), Point(x: right.x + 40, y: right.y - 120),
                Point(x: right.x + 40, y: right.y + 10), Point(x: right.x - 40, y: right.y + 10),
            ],
            color: Color(white: 0.3))
        try frame.circle(center: Point(x: right.x, y: right.y - 120), radius: 40, color: Color(white: 0.45))
        // A box over the bottom-left corner.
        let corner = truth.bottomLeft
        try frame.fill(
            [
                corner + Point(x: -30, y: -70), corner + Point(x: 50, y: -90), corner + Point(x: 70, y: -10),
                corner + Point(x: -10, y: 10),
            ],
            color: Color(white: 0.55))
        try frame.addNoise(sigma: 3, seed: 23)
        let grey = try frame.converted(to: .gray8)
        let found = try Self.found(grey)
        try #require(!found.isEmpty, "nothing found")
        let error = RectangleDetectorTests.cornerError(found[0].quad, truth)
        #expect(error < 12, "corner error \(error) px: \(found[0].quad.corners)")
    }

    /// A white sheet that nearly fills a grey camera's frame of a pale desk, a few pixels to a few
    /// dozen from its border: the page network takes the desk's strips for page, and the quad
    /// must still be the sheet's, not the frame's.
    @Test func aWhiteSheetThatNearlyFillsAGreyFrameIsFoundNotTheFrame() throws {
        let width = 480, height = 640
        let truth = Quad(
            topLeft: Point(x: 32, y: 14), topRight: Point(x: 458, y: 18), bottomRight: Point(x: 470, y: 626),
            bottomLeft: Point(x: 26, y: 620))
        let desk = try SyntheticBackground.plain(Color(white: 0.88)).render(width: width, height: height, seed: 27)
        var frame = try SyntheticScene(background: desk, page: try Self.page(seed: 27), corners: truth, blur: .init(sigma: 1.2))
            .frame
        try frame.addNoise(sigma: 3, seed: 27)
        frame = try frame.converted(to: .gray8)
        let found = try Self.found(frame)
        try #require(!found.isEmpty, "nothing found")
        let jaccard = found[0].quad.intersectionOverUnion(with: truth)
        #expect(jaccard > 0.97, "Jaccard index \(jaccard): \(found[0].quad.corners)")
    }

    /// A sheet bent by the hand that holds it: its sides curve out (in) by `bow` of its width, 18
    /// (13) px at 0.04 (-0.03). Its quad joins its four corners, as the field counts it: where the
    /// curves of its sides meet, not where straight lines fitted across their bulges would (12–15 px
    /// off). A sheet sagging by a tenth of its width (43 px, 7.5 % of the sides' length) bows beyond
    /// what the image's edges alone are searched for; the page network's outline says which edge is
    /// the page's side there (`BowSearch::outlined_reach`). Searched as before, its quad joined two
    /// corners to points partway down the opposite side (Jaccard index 0.84, 70 px off). A parabola
    /// fitted to these sine-shaped sides meets a few pixels from the corner: `within` pixels.
    @Test(arguments: [
        (DetectorOptions.Accuracy.high, 0.04, 4.0), (.low, 0.04, 4), (.high, -0.03, 4), (.high, 0.10, 6), (.low, 0.10, 6),
        (.high, -0.08, 6), (.low, -0.08, 6),
    ])
    func aBowedPageIsFoundWhole(accuracy: DetectorOptions.Accuracy, bow: Double, within: Double) throws {
        let width = 1280, height = 720
        let truth = SyntheticScene.corners(
            frameWidth: width, frameHeight: height, center: Point(x: 620, y: 370), fill: 0.8, rotation: 4, tilt: 0.1)
        let desk = try SyntheticBackground.wood.render(width: width, height: height, seed: 25)
        var frame = try SyntheticScene.bowedPage(on: desk, page: try Self.page(seed: 26), corners: truth, bow: bow)
        try frame.addNoise(sigma: 2, seed: 25)
        let found = try Self.found(frame, accuracy: accuracy)
        try #require(!found.isEmpty, "nothing found")
        let jaccard = found[0].quad.intersectionOverUnion(with: truth)
        let error = RectangleDetectorTests.cornerError(found[0].quad, truth)
        #expect(jaccard > 0.98 && error < within, "Jaccard index \(jaccard), corner error \(error) px: \(found[0].quad.corners)")
    }

    /// A page lying on a stack of other papers, turned and pushed off so that the sheet below shows
    /// along two of its sides: the page on top is the document, not the stack's outline around both.
    /// Not yet: the network takes both sheets for one page, and the quad joins the lower sheet's
    /// sides to the upper's (Models/page-detector/MODEL_CARD.md, "Limits").
    @Test(arguments: [DetectorOptions.Accuracy.high, .low])
    func aPageOnAStackOfPapersIsFoundNotTheStack(accuracy: DetectorOptions.Accuracy) throws {
        let width = 1280, height = 720
        let below = SyntheticScene.corners(
            frameWidth: width, frameHeight: height, center: Point(x: 600, y: 360), fill: 0.8, rotation: -3, tilt: 0.15)
        let truth = SyntheticScene.corners(
            frameWidth: width, frameHeight: height, center: Point(x: 660, y: 395), fill: 0.72, rotation: 9, tilt: 0.15)
        let desk = try SyntheticBackground.wood.render(width: width, height: height, seed: 27)
        let stack = try SyntheticScene(background: desk, page: try Self.page(seed: 28), corners: below).frame
        let frame = try SyntheticScene(background: stack, page: try Self.page(seed: 29), corners: truth, noise: 2).frame
        let found = try Self.found(frame, accuracy: accuracy)
        try #require(!found.isEmpty, "nothing found")
        let error = RectangleDetectorTests.cornerError(found[0].quad, truth)
        withKnownIssue("the sheet below is taken for part of the page") {
            #expect(error < 10, "corner error \(error) px: \(found[0].quad.corners)")
        }
    }

    /// A magazine page: a saturated picture printed across its upper three fifths, to its edges,
    /// and text below. The page network marks only the printed part as page; before the search
    /// reached across the picture (`PictureToTheEdge` in the shim) that part was reported (JI
    /// 0.435 at both accuracies). `.high`'s network of 0.7.26 proposes a quad round the text up to
    /// the picture's slanted inner edge, ranked above the whole page, and the text's quad gave way
    /// to it and stopped there (0.650) until a quad could give way to those around it in turn
    /// (`SidesRunOn::most_steps`).
    @Test(arguments: [DetectorOptions.Accuracy.high, .low])
    func aPageWithAPicturePrintedToItsEdgesIsFoundWhole(accuracy: DetectorOptions.Accuracy) throws {
        let width = 960, height = 720
        let truth = SyntheticScene.corners(
            frameWidth: width, frameHeight: height, center: Point(x: 470, y: 360), fill: 0.85, rotation: 4, tilt: 0.1)
        var page = try Self.page(seed: 25)
        let bottom = Double(page.image.height) * 0.6, right = Double(page.image.width)
        try page.image.fill(
            [Point(x: 0, y: 0), Point(x: right, y: 0), Point(x: right, y: bottom), Point(x: 0, y: bottom)],
            color: Color(red: 0.75, green: 0.15, blue: 0.6))
        try page.image.fill(
            [Point(x: 0, y: bottom * 0.4), Point(x: right * 0.7, y: bottom), Point(x: 0, y: bottom)],
            color: Color(red: 0.2, green: 0.3, blue: 0.75))
        try page.image.circle(
            center: Point(x: right * 0.65, y: bottom * 0.35), radius: bottom * 0.22,
            color: Color(red: 0.1, green: 0.85, blue: 0.6))
        page.textLines = page.textLines.filter { $0.minY > bottom }
        // A dark desk: the search steps along grey levels, and this magenta is the grey of wood.
        let desk = try Frame(width: width, height: height, format: .bgr8, color: Color(red: 0.14, green: 0.12, blue: 0.11))
        let frame = try SyntheticScene(background: desk, page: page, corners: truth, blur: .init(sigma: 0.8), noise: 2).frame
        let found = try Self.found(frame, accuracy: accuracy)
        try #require(!found.isEmpty, "nothing found")
        let jaccard = found[0].quad.intersectionOverUnion(with: truth)
        #expect(jaccard > 0.95, "Jaccard index \(jaccard): \(found[0].quad.corners)")
    }

    /// A page photographed from close by: its corners a few pixels inside the frame's.
    @Test(arguments: [DetectorOptions.Accuracy.low, .high])
    func aPageThatFillsTheFrameIsFoundWhole(accuracy: DetectorOptions.Accuracy) throws {
        let width = 720, height = 960
        let truth = Quad(
            topLeft: Point(x: 14, y: 20), topRight: Point(x: 700, y: 12), bottomRight: Point(x: 712, y: 945),
            bottomLeft: Point(x: 6, y: 950))
        let desk = try Frame(width: width, height: height, format: .bgr8, color: Color(red: 0.12, green: 0.1, blue: 0.08))
        let frame = try SyntheticScene(background: desk, page: try Self.page(seed: 24), corners: truth, noise: 2).frame
        let found = try Self.found(frame, accuracy: accuracy)
        try #require(!found.isEmpty, "nothing found")
        let jaccard = found[0].quad.intersectionOverUnion(with: truth)
        #expect(jaccard > 0.97, "Jaccard index \(jaccard): \(found[0].quad.corners)")
    }
}
