import Focal
import FocalSynthetic
import Foundation
import Testing

/// Real phone photos with annotated corners (Resources/phone_photos, CC0): each document found
/// with a Jaccard index of at least 0.9 against its annotation.
@Suite struct RealPhotoTests {
    /// Photos today's page model gets wrong, and how. They are expected to fail; when one starts
    /// passing, the test says so, and it belongs with the others.
    static let knownMisses: [String: String] = [:]

    /// The same, with a cable laid across the page (thePhotosWithACableAcrossThePageAreFoundWhole).
    /// `inner-lines.webp` was one from 0.5.0 to 0.7.25 (0.895: the page's region leaked along the
    /// cable to the frame's right edge); `.high`'s network since 0.7.26 finds it (0.978).
    static let knownMissesWithACable: [String: String] = [:]

    struct Still: Decodable {
        var file: String
        var quad: [[Double]]
        var group: String
        var truth: Quad {
            Quad(unordered: quad.map { Point(x: $0[0], y: $0[1]) })
        }
    }

    static var folder: String { folder("phone_photos") }

    /// A folder of annotated photos under Resources, the one holding its `corners.json`.
    static func folder(_ name: String) -> String {
        let corners = Bundle.module.path(forResource: "corners", ofType: "json", inDirectory: "Resources/" + name)
        return corners.map { String($0.dropLast("/corners.json".count)) } ?? "missing Resources/" + name
    }

    /// The annotated photos of `folder` (the phone photos unless said).
    static func stills(in folder: String = folder) throws -> [Still] {
        struct File: Decodable { var stills: [Still] }
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/corners.json"))
        return try JSONDecoder().decode(File.self, from: data).stills
    }

    /// One photo's result: the quads found, and the first one's Jaccard index against the truth.
    struct Measured {
        var file: String
        var jaccard: Double
        var found: [Quad]
    }

    /// Each annotated photo of `folder` (the phone photos unless said), as `scene` makes it (the
    /// photo and its truth; as they are by default), through `detector`. Prints each Jaccard index
    /// and their mean, as "real photos\(label)".
    static func measured(
        _ label: String, with detector: Detector, in folder: String = folder,
        scene: (Still, Frame) throws -> (Frame, Quad) = { still, photo in (photo, still.truth) }
    ) throws -> (mean: Double, photos: [Measured]) {
        var photos: [Measured] = []
        for still in try stills(in: folder) {
            let (frame, truth) = try scene(still, try Frame(contentsOf: folder + "/" + still.file))
            let found = try detector.rectangles(in: frame).map(\.quad)
            let jaccard = found.first.map { $0.intersectionOverUnion(with: truth) } ?? 0
            photos.append(Measured(file: still.file, jaccard: jaccard, found: found))
        }
        let mean = photos.reduce(0) { $0 + $1.jaccard } / Double(photos.count)
        let scores = photos.map { "\($0.file) \(String(format: "%.3f", $0.jaccard))" }
        print("real photos\(label), mean Jaccard \(String(format: "%.3f", mean)): \(scores.joined(separator: ", "))")
        return (mean, photos)
    }

    /// Every photo found with a Jaccard index of at least 0.9; those in `knownMisses` as known issues.
    static func expectEachFound(_ photos: [Measured], knownMisses: [String: String]) {
        for photo in photos {
            if let why = knownMisses[photo.file] {
                withKnownIssue(Comment(rawValue: why)) {
                    #expect(photo.jaccard >= 0.9, "\(photo.file): Jaccard index \(photo.jaccard)")
                }
            } else {
                #expect(photo.jaccard >= 0.9, "\(photo.file): Jaccard index \(photo.jaccard), found \(photo.found)")
            }
        }
    }

    /// Each annotated photo of `folder` through the rectangle detector at `accuracy`, found as
    /// `expectEachFound` asks, with the known misses given for that accuracy; `count` of them,
    /// where given. Prints its figures as "real photos\(label) at \(accuracy)".
    static func expectEachFound(
        in folder: String, at accuracy: DetectorOptions.Accuracy, label: String, count: Int? = nil,
        knownMisses: [DetectorOptions.Accuracy: [String: String]] = [:]
    ) throws {
        let detector = try Detector(type: .rectangle, options: .init(accuracy: accuracy))
        let (_, photos) = try measured("\(label) at \(accuracy)", with: detector, in: folder)
        if let count { try #require(photos.count == count) }
        expectEachFound(photos, knownMisses: knownMisses[accuracy] ?? [:])
    }

    @Test func everyAnnotatedPhotoHasItsDocumentFound() throws {
        let (mean, photos) = try Self.measured("", with: try Detector(type: .rectangle))
        try #require(photos.count == 11)
        Self.expectEachFound(photos, knownMisses: Self.knownMisses)
        // The edges-only detector scores 0.409 here; today's page model 0.991 (0.971 with the open
        // book reported whole, before its page was cut at the gutter; the network before, never
        // trained on quarter turns, 0.966; without quads on its outline's straight stretches 0.931;
        // the first model, on the frame squeezed to a square, 0.833).
        #expect(mean >= 0.95)
    }

    /// At `.low`, where the network sees each photo once, at about its own proportions (160 × 288
    /// for these portrait photos): squeezed to a square, as before, 0.912, the card held up by a
    /// hand cut to a strip at 0.753; now 0.931, the card at 0.998. The ruled pages stay the
    /// weakest (0.72 and 0.90: the network's region takes in only the ruled area at this size).
    @Test func thePhotosAreFoundAtLowAccuracyToo() throws {
        let detector = try Detector(type: .rectangle, options: DetectorOptions(accuracy: .low))
        let (mean, photos) = try Self.measured(" at .low", with: detector)
        for photo in photos where photo.file == "holding-with-a-hand.webp" {
            #expect(photo.jaccard >= 0.9, "the card held up by a hand: Jaccard index \(photo.jaccard), found \(photo.found)")
        }
        #expect(mean >= 0.92)
    }

    /// The same photos turned a quarter, a half and three quarters round: a page photographed
    /// sideways or from across the desk is still a page. The network trained only on mirrored
    /// scenes scored 0.880, 0.901 and 0.948 here (a white page on white lost when turned a
    /// quarter); trained on quarter turns too, 0.949, 0.937 and 0.965; with an open book's page cut
    /// at its gutter, 0.970, 0.964 and 0.991 (the book 0.997 each way round).
    @Test(arguments: [Orientation.right, .down, .left])
    func thePhotosTurnedAreFoundToo(turn: Orientation) throws {
        let (mean, _) = try Self.measured(" turned \(turn)", with: try Detector(type: .rectangle)) { still, photo in
            let (width, height) = (Double(photo.width), Double(photo.height))
            var photo = photo
            photo.orientation = turn
            // Where each annotated corner lands once the pixels are turned (pixel centres at integers).
            let truth = Quad(
                unordered: still.truth.corners.map { p in
                    switch turn {
                    case .right: Point(x: height - 1 - p.y, y: p.x)
                    case .down: Point(x: width - 1 - p.x, y: height - 1 - p.y)
                    default: Point(x: p.y, y: width - 1 - p.x)
                    }
                })
            return (try photo.oriented(), truth)
        }
        #expect(mean >= 0.94)
    }

    /// The same photos with a dark cable laid across each page, from the desk on its left to the
    /// desk on its right (as on a cluttered desk): the page runs on under it. The part of the page
    /// on either side of the cable has four clear sides, and the table page's upper part was
    /// reported (0.399; mean 0.822) until the network's agreement with the whole page overruled
    /// them (mean 0.876).
    @Test func thePhotosWithACableAcrossThePageAreFoundWhole() throws {
        let detector = try Detector(type: .rectangle)
        let (_, photos) = try Self.measured(" with a cable across the page", with: detector, scene: Self.withACable)
        Self.expectEachFound(photos, knownMisses: Self.knownMissesWithACable)
    }

    /// The same at `.low`, where the network sees each photo 96 pixels across its shorter side and
    /// its coarser region stops at the cable on three of them (the two cards 0.618 and 0.846, the
    /// receipt on a white desk 0.881 until 0.7.8). The outline map still runs along each side, and
    /// its straight stretches, tried where the region's quad is not outlined all round, make the
    /// whole page's quad. With `.high`'s network at 96 (0.7.68) the card held up by a hand was cut at
    /// the cable (0.765; 0.998 with `.low`'s own network until 0.7.67), until the finer view at 160
    /// was blended in (0.998 again; the book's page 0.906 → 0.899).
    @Test func thePhotosWithACableAcrossThePageAreFoundWholeAtLowAccuracyToo() throws {
        let detector = try Detector(type: .rectangle, options: DetectorOptions(accuracy: .low))
        let (_, photos) = try Self.measured(" with a cable across the page at .low", with: detector, scene: Self.withACable)
        Self.expectEachFound(photos, knownMisses: Self.knownMissesWithACableAtLowAccuracy)
    }

    static let knownMissesWithACableAtLowAccuracy = [
        "book.webp": "0.899 at .low, just under the bar: 0.906 before .low's finer view (0.7.68), 0.970 at .high"
    ]

    /// A photo with a dark cable across its page: a third of the way down the left side to half way
    /// down the right, each end out over the desk by half the way from the centre, bowed up by 4 %
    /// of the page's height.
    static func withACable(_ still: Still, _ photo: Frame) throws -> (Frame, Quad) {
        var photo = photo
        let page = still.truth
        var from = page.topLeft + (page.bottomLeft - page.topLeft) * 0.35
        var to = page.topRight + (page.bottomRight - page.topRight) * 0.55
        from = from + (from - page.center) * 0.5
        to = to + (to - page.center) * 0.5
        let height = page.topLeft.distance(to: page.bottomLeft)
        let bend = (from + to) * 0.5 + Point(x: 0, y: -0.04 * height)
        let cable = (0...24).map { k -> Point in
            let t = Double(k) / 24
            return from * ((1 - t) * (1 - t)) + bend * (2 * (1 - t) * t) + to * (t * t)
        }
        try photo.stroke(
            cable, color: Color(red: 0.1, green: 0.1, blue: 0.12), lineWidth: (0.017 * Double(photo.width)).rounded(),
            closed: false)
        return (photo, page)
    }
}

/// Scenes the classical detector cannot see through: a corner under an object, a white page on a
/// near-white desk; and page-like things with no page.
@Suite struct PageModelTests {
    static let width = 960, height = 540

    static func page(seed: UInt64) throws -> SyntheticPage { try SyntheticPage(width: 425, height: 550, seed: seed) }

    static let truth = SyntheticScene.corners(
        frameWidth: width, frameHeight: height, center: Point(x: 470, y: 270), fill: 0.8, rotation: 10, tilt: 0.15)

    @Test func aPageWithACornerUnderAMugIsFoundWithinAFewPixels() throws {
        let desk = try SyntheticBackground.wood.render(width: Self.width, height: Self.height, seed: 4)
        var frame = try SyntheticScene(background: desk, page: try Self.page(seed: 5), corners: Self.truth, noise: 2).frame
        // A dark mug over the bottom-right corner, a pen across the top side.
        try frame.circle(center: Self.truth.bottomRight, radius: 55, color: Color(red: 0.15, green: 0.2, blue: 0.45))
        let top = (Self.truth.topLeft + Self.truth.topRight) * 0.5
        try frame.stroke(
            [Point(x: top.x - 120, y: top.y - 30), Point(x: top.x + 100, y: top.y + 40)],
            color: Color(red: 0.8, green: 0.1, blue: 0.1), lineWidth: 9, closed: false)
        let found = try Detector(type: .rectangle).rectangles(in: frame)
        try #require(found.count == 1, "\(found.count) rectangles")
        let error = RectangleDetectorTests.cornerError(found[0].quad, Self.truth)
        #expect(error < 8, "corner error \(error) px: \(found[0].quad.corners)")
    }

    /// A video frame (4:2:0) reaches the network by another path than a picture (BGR): its planes
    /// are halved before the squeeze. Both must show the network the same scene.
    @Test(arguments: [DetectorOptions.Accuracy.low, .high])
    func aVideoFrameShowsTheNetworkWhatItsPictureDoes(accuracy: DetectorOptions.Accuracy) throws {
        let desk = try SyntheticBackground.wood.render(width: Self.width, height: Self.height, seed: 4)
        let picture = try SyntheticScene(background: desk, page: try Self.page(seed: 5), corners: Self.truth, noise: 2).frame
        let video = try picture.converted(to: .yuv420)
        let detector = try Detector(type: .rectangle, options: .init(accuracy: accuracy))
        let fromPicture = try #require(try detector.pageMap(for: picture)),
            fromVideo = try #require(try detector.pageMap(for: video))
        let difference = fromPicture.withUnsafeBytes { a in
            fromVideo.withUnsafeBytes { b in zip(a, b).reduce(0.0) { $0 + abs(Double($1.0) - Double($1.1)) } / Double(a.count) }
        }
        // 0.73 at .low and 0.33 at .high; with the chroma planes swapped, 2.7 at .low.
        #expect(difference < 1.5, "page maps differ by \(difference) grey levels on average")
        let a = try detector.rectangles(in: picture), b = try detector.rectangles(in: video)
        try #require(a.count == 1 && b.count == 1, "\(a.count) and \(b.count) rectangles")
        #expect(RectangleDetectorTests.cornerError(b[0].quad, Self.truth) < 6, "\(b[0].quad.corners)")
        #expect(RectangleDetectorTests.cornerError(a[0].quad, b[0].quad) < 3, "\(a[0].quad.corners) against \(b[0].quad.corners)")
    }

    @Test func aWhitePageOnANearWhiteDeskIsFound() throws {
        let desk = try Frame(width: Self.width, height: Self.height, format: .bgr8, color: Color(white: 0.86))
        var frame = try SyntheticScene(background: desk, page: try Self.page(seed: 6), corners: Self.truth, blur: .init(sigma: 1))
            .frame
        try frame.addNoise(sigma: 3, seed: 6)
        let found = try Detector(type: .rectangle).rectangles(in: frame)
        try #require(found.count == 1, "\(found.count) rectangles")
        let error = RectangleDetectorTests.cornerError(found[0].quad, Self.truth)
        #expect(error < 6, "corner error \(error) px: \(found[0].quad.corners)")
    }

    /// An ID card whose dark blue header is printed to its edges, on a dark desk: the network takes
    /// the band for not card and stops the card at the band's inner edge (on the evaluation clips'
    /// ID cards, a sixth of the card cut off); the card's sides run on through the band to its edge.
    @Test func aCardWithAHeaderPrintedToItsEdgesIsFoundWhole() throws {
        let desk = try Frame(
            width: Self.width, height: Self.height, format: .bgr8, color: Color(red: 0.12, green: 0.14, blue: 0.1))
        let card = SyntheticScene.corners(
            frameWidth: Self.width, frameHeight: Self.height, center: Point(x: 480, y: 280), fill: 0.5, pageAspect: 54 / 85.6,
            rotation: -8, tilt: 0.1)
        var frame = try SyntheticScene(background: desk, page: try Self.page(seed: 7), corners: card, blur: .init(sigma: 0.8))
            .frame
        let depth = 0.16
        let bandLeft = card.topLeft + (card.bottomLeft - card.topLeft) * depth,
            bandRight = card.topRight + (card.bottomRight - card.topRight) * depth
        try frame.fill([card.topLeft, card.topRight, bandRight, bandLeft], color: Color(red: 0.1, green: 0.25, blue: 0.55))
        try frame.addNoise(sigma: 2, seed: 7)
        let found = try Detector(type: .rectangle).rectangles(in: frame)
        try #require(found.count == 1, "\(found.count) rectangles")
        let error = RectangleDetectorTests.cornerError(found[0].quad, card)
        #expect(error < 6, "corner error \(error) px: \(found[0].quad.corners)")
    }

    /// An open book on a blue desk, its left-hand page curling away and running out of the frame:
    /// to the network both pages are one region, cut by the frame's border, and nothing steps at
    /// the gutter (the same paper either side). The right-hand page's top and bottom edges end at
    /// the gutter, and it is the page that is found (the phone photos' book: 0.782 -> 0.997; this
    /// scene 0.727 -> 0.967). When the left-hand page's bottom edge drops past the frame's corner,
    /// the region's bottom side is fitted from the page's corner to the frame's edge, across the
    /// left-hand page, and is first turned onto the page's own bottom edge (0.709 -> 0.935; the
    /// phone photos' book upside down and turned left, 0.706 -> 0.997). The left-hand page's top
    /// there meets the page's at a shallow angle, and the two stay within a pixel or two of each
    /// other for a few pixels beyond the gutter, hence the looser bound.
    @Test(arguments: [
        (Point(x: -160, y: -60), Point(x: -160, y: 1000), 0.95), (Point(x: -160, y: 190), Point(x: -160, y: 1140), 0.92),
    ])
    func theOpenBooksWholePageIsFoundWhereItsEdgesEnd(curledTopLeft: Point, curledBottomLeft: Point, least: Double) throws {
        let (width, height) = (540, 960)
        let desk = try Frame(width: width, height: height, format: .bgr8, color: Color(red: 0.1, green: 0.12, blue: 0.55))
        let page = Quad(
            topLeft: Point(x: 130, y: 110), topRight: Point(x: 500, y: 92), bottomRight: Point(x: 494, y: 850),
            bottomLeft: Point(x: 128, y: 838))
        let curled = Quad(
            topLeft: curledTopLeft, topRight: page.topLeft, bottomRight: page.bottomLeft, bottomLeft: curledBottomLeft)
        let left = try SyntheticScene(
            background: desk, page: try SyntheticPage(width: 425, height: 550, seed: 11), corners: curled
        )
        .frame
        let book = try SyntheticScene(
            background: left, page: try SyntheticPage(width: 425, height: 550, seed: 12), corners: page, blur: .init(sigma: 0.8),
            noise: 2, seed: 11)
        let found = try Detector(type: .rectangle).rectangles(in: book.frame)
        try #require(found.count == 1, "\(found.count) rectangles")
        let jaccard = found[0].quad.intersectionOverUnion(with: page)
        print(
            "open book, left-hand page to \(curledTopLeft), \(curledBottomLeft): Jaccard index \(jaccard), \(found[0].quad.corners)"
        )
        #expect(jaccard >= least, "Jaccard index \(jaccard): \(found[0].quad.corners)")
    }

    @Test func pageLikeThingsWithoutAPageGiveNothing() throws {
        // A monitor showing a picture in its dark bezel, and a white-framed window onto a street,
        // on a wooden desk: rectangles with straight edges and corners, but no page.
        var frame = try SyntheticBackground.wood.render(width: Self.width, height: Self.height, seed: 8)
        let picture = try SyntheticBackground.cluttered.render(width: 425, height: 550, seed: 9)
        let monitor = SyntheticScene.corners(
            frameWidth: Self.width, frameHeight: Self.height, center: Point(x: 260, y: 230), fill: 0.55, pageAspect: 0.6)
        try frame.fill(monitor.corners, color: Color(white: 0.08))
        let screen = Quad(unordered: monitor.corners.map { monitor.center + ($0 - monitor.center) * 0.9 })
        frame = try SyntheticScene(background: frame, page: SyntheticPage(image: picture, textLines: []), corners: screen).frame
        let window = SyntheticScene.corners(
            frameWidth: Self.width, frameHeight: Self.height, center: Point(x: 720, y: 260), fill: 0.6, pageAspect: 1.2)
        let street = try SyntheticBackground.cluttered.render(width: 425, height: 550, seed: 10)
        frame = try SyntheticScene(background: frame, page: SyntheticPage(image: street, textLines: []), corners: window).frame
        try frame.stroke(window.corners, color: Color(white: 0.92), lineWidth: 12)
        let middle = (window.topLeft + window.topRight) * 0.5, bottom = (window.bottomLeft + window.bottomRight) * 0.5
        try frame.stroke([middle, bottom], color: Color(white: 0.92), lineWidth: 10, closed: false)
        try frame.addNoise(sigma: 2, seed: 8)
        let found = try Detector(type: .rectangle, options: .init(maximumFeatureCount: 4)).rectangles(in: frame)
        #expect(found.isEmpty, "found \(found.map { ($0.quad.corners, $0.confidence) })")
    }

    /// Two rendered frames with no document (`scripts/eval/page-like-scenes.py 1`, the development
    /// set page-like-1): a window whose white frame and mullions surround a dark street, beside a
    /// cardboard box and beside a monitor. Before the search asked part of a page to be paper that
    /// is plain in the frame's light (`PlainPaper` in the shim), the window was a page in both, at
    /// both accuracies.
    @Test(arguments: [DetectorOptions.Accuracy.high, .low])
    func windowsOnADeskGiveNothing(accuracy: DetectorOptions.Accuracy) throws {
        try expectNothingFound(in: ["07-window-box.jpg", "13-window-monitor.jpg"], accuracy: accuracy)
    }

    /// Two rendered frames with no document (`scripts/eval/page-like-scenes.py`, seeds 1 and 3, the
    /// development sets page-like-1 and -3): a keyboard with pale keys on a dark desk, and one beside
    /// a dark keyboard on pale concrete. Its keys are as plain as paper; before the search asked a
    /// page's paper to be in one piece (`PaperInOnePiece` in the shim), each was a page at both
    /// accuracies.
    @Test(arguments: [DetectorOptions.Accuracy.high, .low])
    func keyboardsOnADeskGiveNothing(accuracy: DetectorOptions.Accuracy) throws {
        try expectNothingFound(in: ["05-keyboard.jpg", "17-keyboard-keyboard.jpg"], accuracy: accuracy)
    }

    /// A rendered frame with no document (`scripts/eval/page-like-scenes.py 1`, page-like-1): a
    /// monitor showing a pale green picture in its black bezel on a dark desk. Its picture is the
    /// brightest thing in the frame, and so was the white that paper's colour was judged against:
    /// it passed for plain paper and was a page at both accuracies until paper had to be plain in
    /// the raw colours too where the frame's white is too coloured to be light's
    /// (`PlainPaper::most_white_saturation` in the shim).
    @Test(arguments: [DetectorOptions.Accuracy.high, .low])
    func screensShowingAPalePictureGiveNothing(accuracy: DetectorOptions.Accuracy) throws {
        try expectNothingFound(in: ["18-monitor.jpg"], accuracy: accuracy)
    }

    /// Two rendered frames with no document (`scripts/eval/page-like-scenes.py`, seeds 6 and 9, the
    /// development sets page-like-6 and -9): windows whose thin white frames and mullions run round
    /// coloured panes on a desk. The frame and mullions are plain paper enough for the other tests,
    /// but only as thin lines; before the search asked some of a page's plain paper to lie deep
    /// within it (`DeepPaper` in the shim), the first was a page at `.high`, the second at both
    /// accuracies.
    @Test(arguments: [DetectorOptions.Accuracy.high, .low])
    func windowsWithThinFramesGiveNothing(accuracy: DetectorOptions.Accuracy) throws {
        try expectNothingFound(in: ["seed6-07-window.jpg", "seed9-13-window.jpg"], accuracy: accuracy)
    }

    /// A rendered frame with no document (`scripts/eval/page-like-scenes.py 6`, page-like-6): a dark
    /// keyboard on pale concrete. Judged against its own brightest tenth, where the gaps between its
    /// keys catch the light, its body is paper; before the search asked a page to be among the
    /// brightest things in view (`PaperAmongTheBrightest` in the shim) it was a page at both
    /// accuracies.
    @Test(arguments: [DetectorOptions.Accuracy.high, .low])
    func darkKeyboardsOnAPaleDeskGiveNothing(accuracy: DetectorOptions.Accuracy) throws {
        try expectNothingFound(in: ["seed6-23-keyboard.jpg"], accuracy: accuracy)
    }

    /// Two rendered frames with no document (`scripts/eval/page-like-scenes.py`, seeds 8 and 13, the
    /// development sets page-like-8 and -13): a window whose white frame and one mullion run round a
    /// blue pane, and a framed picture beside a window of four panes. The first look at `.high`
    /// finds nothing in either; until 0.7.43 a second look at 96, whose coarse maps fill the panes,
    /// reported each window as a page. Where nothing was found and 96 finds nothing filling the
    /// frame, a look at 192 replaces it now (`AccuracyProfile.emptyFrameLookPageModelInput`,
    /// `EmptyFrameLook` in the shim). `.low`, whose second look was left at 160, still reports the
    /// first window.
    @Test func windowsTheFirstLookPassedOverGiveNothingAtHigh() throws {
        try expectNothingFound(in: ["seed8-07-window.jpg", "seed13-08-framed-window.jpg"], accuracy: .high)
    }

    /// Expects no rectangle in each of the page-like frames named (`Resources/page_like`).
    private func expectNothingFound(in files: [String], accuracy: DetectorOptions.Accuracy) throws {
        let folder = RealPhotoTests.folder("page_like")
        let detector = try Detector(type: .rectangle, options: .init(accuracy: accuracy, maximumFeatureCount: 4))
        for file in files {
            let found = try detector.rectangles(in: try Frame(contentsOf: folder + "/" + file))
            #expect(found.isEmpty, "\(file): found \(found.map { ($0.quad.corners, $0.confidence) })")
        }
    }

    @Test func aMissingOrCorruptModelIsAClearError() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("focal-page-model-\(getpid())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let missing = scratch.path + "/none.onnx"
        #expect {
            _ = try Detector(type: .rectangle, options: .init(pageModelPath: missing))
        } throws: { error in
            guard let error = error as? FocalError else { return false }
            return error.kind == .modelMissing && error.path == missing
        }
        let corrupt = scratch.path + "/corrupt.onnx"
        try Data("not a network".utf8).write(to: URL(fileURLWithPath: corrupt))
        #expect {
            _ = try Detector(type: .rectangle, options: .init(pageModelPath: corrupt))
        } throws: { error in
            guard let error = error as? FocalError else { return false }
            return error.path == corrupt && "\(error)".contains("corrupt.onnx")
        }
        // Without the model, the edges-only detector still works.
        #expect(throws: Never.self) {
            _ = try Detector(type: .rectangle, options: .init(usesPageModel: false, pageModelPath: missing))
        }
    }
}

/// Phone photos from another project's tests (Resources/jscanify_photos, MIT; annotated here, not
/// with Focal's detector): pages on desks, a dollar bill, a receipt, a page that fills the frame.
@Suite struct JscanifyPhotoTests {
    static let folder = RealPhotoTests.folder("jscanify_photos")

    @Test(arguments: [DetectorOptions.Accuracy.high, .low])
    func eachPageIsFound(accuracy: DetectorOptions.Accuracy) throws {
        try RealPhotoTests.expectEachFound(in: Self.folder, at: accuracy, label: " of jscanify")
    }
}

/// Phone photos with a picture printed on the page, across it or at a side (Resources/picture_pages):
/// the whole page is found, picture included, not the page's part beside the picture.
@Suite struct PicturePageTests {
    static let folder = RealPhotoTests.folder("picture_pages")

    /// Before a quad gave way to one around it whose sides run on from its own along the image's
    /// edges (`SidesRunOn` in the shim's quads.cpp, 0.7.17), the quad of
    /// `a4-on-white-background-band-across.jpg` at `.high` was the text below the band: Jaccard
    /// index 0.225. Before it also did so where one of those sides steps only faintly, a dark band
    /// against a dark desk (0.7.23), the quad of `inner-table-on-a-dark-desk-band-across.jpg` at
    /// `.high` was the table's heading above the band: 0.201. Before the two quads' shared corners
    /// might lie 0.03 of the page's size apart rather than 0.02 (0.7.24), the quad of
    /// `a4-on-white-background-band-below-the-text.jpg` at `.high` was the text above the band: 0.344.
    /// Before a page of less than 0.35 paper could be taken where most of its paper is plain
    /// (`PictureOnPaper`, 0.7.25), `.low` found nothing on
    /// `inner-table-on-a-dark-desk-picture-over-two-thirds.jpg`. Before a quad gave way to one
    /// around it more than twice as deep where one of its sides barely steps (0.7.27), the quad of
    /// `a4-on-white-background-picture-across-the-top.jpg` at `.high` was the text below the
    /// picture, the page's paper sides hardly stepping against the white desk: 0.422. Before a quad
    /// around might score 0.7 minimum confidences rather than 0.8 (0.7.28), the quad of
    /// `with-graphics-picture-over-a-corner.jpg` at `.high` was the page's part above the picture:
    /// 0.241. Before a page left after cutting off a sheet below on the image's clear edges had to be
    /// half plain paper (0.7.29), `.high` cut the table's white strip beside the picture off
    /// `inner-table-on-a-dark-desk-picture-to-a-corner.jpg` (0.783) and the table below a pale band
    /// off `inner-table-on-a-dark-desk-pale-band-across.jpg` (0.863). Before a quad around with two
    /// sides or more along the image's border gave way to a page inside it wholly in view
    /// (`FrameAround`, 0.7.35), the second look's quad round the page and the desk out to the frame
    /// took the place of `inner-table-on-wood-picture-over-the-top.jpg` at `.high` (0.672). Before a
    /// quad might give way to one inside it whose corners lie 0.03 of its size from its own rather
    /// than 0.02 (`ObjectsBeside`, 0.7.37), the quad of
    /// `inner-table-on-wood-picture-over-the-top-left.jpg` at `.high` ran on over the wooden desk to
    /// the frame's top edge (0.813). Before `.high` counted the paper of a quad refused as too little
    /// paper again on a finer grid (`PictureOnPaper::finer_cells`, 0.7.59), it found no page on
    /// `low-contrast-page-picture-over-most.jpg`, whose paper falls between the 7 × 7 grid's points.
    @Test(arguments: [DetectorOptions.Accuracy.high, .low])
    func theWholePageIsFoundPictureIncluded(accuracy: DetectorOptions.Accuracy) throws {
        try RealPhotoTests.expectEachFound(
            in: Self.folder, at: accuracy, label: " with pictures", count: 13, knownMisses: Self.knownMisses)
    }

    static let knownMisses: [DetectorOptions.Accuracy: [String: String]] = [
        // inner-table-band-across.jpg was one at .high from 0.7.26 to 0.7.51 (0.890: the whole page's
        // quad refused by PictureOnPaper as 0.33 paper); 0.7.52's network finds it (0.939).
        .high: [:],
        // At .low, with its own network until 0.7.67, four more: inner-table-on-a-dark-desk-band-across.jpg
        // (0.201), with-graphics-picture-over-a-corner.jpg (0.238), inner-table-on-wood-picture-over-the-top.jpg
        // (0.836) and low-contrast-page-picture-over-most.jpg (0.197); with .high's network 0.998, 0.969,
        // 0.987 and 0.985.
        .low: [
            "a4-on-white-background-picture-across-the-top.jpg":
                "0.835 at .low: the whole page is found, but its quad's top runs out to the frame's top corners over the white desk"
        ],
    ]
}

/// White sheets on a pale desk under a cylinder and a box standing on and across them, seen by a grey
/// 640 × 480 camera (Resources/standing_objects, rendered): the sheet is the document, also where an
/// object hides part of it, and not the sheet with the object's silhouette.
@Suite struct StandingObjectTests {
    static let folder = RealPhotoTests.folder("standing_objects")

    /// Before the search gave way to a quad inside one that runs on beyond it over something neither
    /// paper nor edged (`ObjectsBeside` in the shim's quads.cpp, 0.7.16), the quad of
    /// `box-across-the-left-side.png` ran round the box's far side at `.high`: Jaccard index 0.820.
    /// Before it did so across a wedge, where the box hides one of the sheet's corners and the quad
    /// inside shares the other three (`ObjectsBeside::most_kept_at_the_deep_end`, 0.7.38), the two
    /// scenes with a box across the left side and a cylinder at the top right or in front were
    /// reported with the box at `.high`: 0.875 and 0.889. Before quads joined from the image's own
    /// straight edges competed where the network's likeliest quad does not lie on edges all round
    /// (`ImageLines`, 0.7.40), the quad of `box-across-the-left-side.png` ran down the cylinder's
    /// shadow beyond the sheet's right side at `.high`: 0.866. Before a blank sheet's own quad could
    /// rank up to 0.12 below the network's quad round the sheet and the objects beside it
    /// (`ObjectsBeside::most_rank_lost_unprinted`, 0.7.45), the objects across the right side of
    /// `box-and-cylinder-across-the-right-side.png` and over the top of
    /// `cylinder-and-box-over-the-top-side.png` were reported with the sheet at `.high`: 0.885 and 0.758.
    /// With 0.7.65's network the quad of the last ran along the box's top, above the sheet's hidden
    /// side (0.805), until a quad could give way inwards a second time, to the sheet's own quad
    /// (`ObjectsBeside::most_steps`, 0.7.65): 0.993.
    @Test(arguments: [DetectorOptions.Accuracy.high, .low])
    func theSheetIsFoundNotTheObjectsBesideIt(accuracy: DetectorOptions.Accuracy) throws {
        try RealPhotoTests.expectEachFound(
            in: Self.folder, at: accuracy, label: " under standing objects", count: 7,
            knownMisses: Self.knownMisses)
    }

    static let knownMisses: [DetectorOptions.Accuracy: [String: String]] = [
        .low: [
            "cylinder-and-box-over-the-top-side.png":
                "0.817 at .low: the quad runs up over the cylinder and the box to the frame's top edge (since 0.7.68, .high's network at 96; the look for blank sheets is .high's)",
        ],
        // Until 0.7.67, with .low's own network, three more: box-across-the-left-side.png (0.750, the
        // quad round the box's far side), box-across-the-left-side-cylinder-in-front.png (0.860, the
        // sheet's left side cut along the box) and box-and-cylinder-across-the-right-side.png (0.818,
        // the quad round the box and the cylinder beyond the sheet's right side); with .high's network
        // and, on the first two, .low's finer view (0.7.68): 0.939, 0.996 and 0.925.
        // At .high, box-across-the-left-side.png (0.873 with 0.7.52's network) and
        // cylinder-and-box-over-the-top-side.png (0.731 since 0.7.48's) were missed until the
        // network's finer view was blended into its maps (FinerView, 0.7.53): 0.976 and 0.996.
        .high: [:],
    ]
}

/// Real photos of a page with another photo's page laid on it (Resources/stacked_photos): the page
/// on top is the document, not the outline around both sheets.
@Suite struct StackedPhotoTests {
    static let folder = RealPhotoTests.folder("stacked_photos")

    /// Before the search kept a page lying on another (`PageOnAStack` in the shim's quads.cpp), the
    /// quad ran round both sheets of the first photo: Jaccard index 0.745 at `.high`, 0.768 at `.low`.
    /// Before it refused a quad around a page that the network likes no better and whose outline its
    /// map draws less (`OutlinePreference`), it ran round both sheets of the second: 0.754 at both.
    /// Before it cut off a deep strip of sheet below at a smaller drop of the page map
    /// (`SheetBelow::least_deep_page_drop`), it ran round both sheets of the fourth and fifth at
    /// `.low`: 0.743 and 0.665. Before it kept a page whose outline lies on edges all round and that
    /// lies towards a corner or a side of the quad around (`PageOnAStack`'s second rule), it ran
    /// round both sheets of the sixth at `.high` and the seventh at `.low`: 0.642 and 0.785. Before
    /// that rule also kept a page with one side inside the quad around whose outline map draws that
    /// side (`PageOnAStack::least_drawn_alone`, 0.7.15), it ran round both sheets of the seventh at
    /// `.high`: 0.814. Before a page kept so was spared the second look that a page the network
    /// agrees with weakly gets (`SecondLookGate`), whose quad around both sheets replaced it, the
    /// quad ran round both sheets of the eighth and ninth at `.high`: 0.633 and 0.876. Before a page
    /// found among the candidates inside the chosen quad was taken out of it (`PageLaidWithin`,
    /// 0.7.21), the quad ran round both sheets of the tenth at both accuracies (0.728 / 0.726) and of
    /// the eleventh and the ninth at `.low` (0.672, 0.874). Before a page's inner corner could have
    /// the image step on beyond it for up to 0.8 of the way, not 0.5 (`PageLaidWithin::most_run_on`,
    /// 0.7.31), the quad ran round both sheets of the twelfth at both accuracies (0.615). Before a
    /// page 0.68 plain paper sufficed there, not 0.72 (`PageLaidWithin::least_paper`, 0.7.32), it
    /// ran round both sheets of the thirteenth at `.high` (0.776). Before a page with one side inside
    /// the quad round both sheets was taken out of it (`PageBesideOneStrip`, 0.7.34), that quad was
    /// reported for the eleventh at `.high` (0.807); before the page laid within was the one ranked
    /// highest, not the one the network agrees with most, a quad joining the fourteenth's page to the
    /// sheet below was (0.847 at `.high`). Before a page's sides were asked whether they run on
    /// beyond its corners from its quad fitted to the image's edges (`QuadSearch::where_sides_end`,
    /// 0.7.66), the quad ran round both sheets of the fifteenth at `.high` (0.590).
    @Test(arguments: [DetectorOptions.Accuracy.high, .low])
    func thePageOnTopIsFoundNotTheStack(accuracy: DetectorOptions.Accuracy) throws {
        try RealPhotoTests.expectEachFound(
            in: Self.folder, at: accuracy, label: " stacked", count: 15, knownMisses: Self.knownMisses)
    }

    /// Photos today's search gets wrong at each accuracy, and how. At `.high` `test4-on-test2.jpg` was
    /// one until the strip below its page was cut off on the image's clear edges
    /// (`SheetBelow::…_on_clear_edges`): 0.754 before; and `test-on-test4.jpg` until the page with
    /// one side inside the quad around was kept (0.814 before); and `test6-on-a4-on-dark-background.jpg`
    /// until such a page was taken out of the quad round both sheets (0.807 before, 0.7.34); and
    /// `test-on-a4-on-white-background.jpg` from 0.7.53's finer view (the quad round both sheets, 0.750)
    /// until 0.7.55's network, whose fine-tune took a stack's lower sheets for paper (0.970); and
    /// `test2-on-inner-table.jpg` from 0.7.53's finer view (the quad round both sheets, 0.774; 0.793 with
    /// 0.7.55's network) until 0.7.65's, fine-tuned on white sheets, scans and windows (0.995).
    static let knownMisses: [DetectorOptions.Accuracy: [String: String]] = [
        .low: [
            "test4-on-test2.jpg":
                "0.754 at .low (0.847 with .low's own network until 0.7.67): the sheet below shows along two sides, and the strip below the page stays (the outline map draws the page's lower side for 0.4 of its length; the cut on the image's clear edges is made at .high only)",
            "test-on-a4-on-dark-background.jpg":
                "0.803 at .low (0.642 until 0.7.67): the page's own quad is not among the candidates, only quads around both sheets (at .high it is, and is kept: 0.988)",
            "test2-on-inner-table.jpg":
                "0.765 at .low (0.645 until 0.7.67): the quad runs round both sheets, half as large again as the page (at .high the page is kept: 0.952)",
            "test4-on-inner-table-on-dark-background-8.jpg":
                "0.776 at .low: the page's own quad is not among the candidates inside the quad round both sheets (at .high it is, and is taken: 0.970)",
            // test-on-a4-on-dark-background-1.jpg was one at .low until 0.7.67 (0.623: no candidate
            // within 0.64 of the page, only quads around both sheets); 0.988 with .low's finer view.
            "test-on-a4-on-white-background-6.jpg":
                "0.881 at .low since its finer view (0.7.68; 0.918 before, 0.987 at .high)",
            "test8-on-low-contrast.jpg":
                "0.589 at .low: the quad runs round both sheets (at .high the page is taken out of it, its run-on asked from its fitted corners: 0.970)",
        ],
        .high: [
            "test4-on-inner-table-on-dark-background-8.jpg":
                "0.776 at .high since 0.7.53's finer view, 0.7.55's network too (0.833 with 0.7.48's network, 0.969 with 0.7.47's): the quad runs round both sheets, 1.28 times the page, and no page is laid within it",
        ],
    ]

    /// The sheet below shows to the left of the page and below it, and the page map covers both
    /// sheets. Where the outline map draws the page's side across the sheet below, the strip beyond
    /// it is cut off (`SheetBelow` in the shim's quads.cpp): the quad's left side lies on the page's.
    /// Before, it lay on the sheet's, 44 and 77 pixels further left at its ends (Jaccard index 0.636 → 0.754).
    @Test func theSheetBesideThePageIsCutOff() throws {
        let still = try #require(try RealPhotoTests.stills(in: Self.folder).first { $0.file == "test4-on-test2.jpg" })
        let found = try Detector(type: .rectangle).rectangles(in: try Frame(contentsOf: Self.folder + "/" + still.file))
        let quad = try #require(found.first?.quad, "nothing found")
        let side = (still.truth.topLeft, still.truth.bottomLeft)
        for corner in [quad.topLeft, quad.bottomLeft] {
            let off = Self.distance(of: corner, fromLineThrough: side.0, side.1)
            #expect(off < 3, "\(corner) lies \(off) px off the page's left side: \(quad.corners)")
        }
    }

    /// A scanned receipt that fills the image: a heading above a ruled box of items that runs on
    /// past the scan's bottom. The box's top rule steps all along and the heading above it is plain
    /// paper, as a page on a stack and the strip of sheet below it are; but the quad round both is
    /// the image's own rectangle, so the whole receipt is kept (`PageLaidWithin::most_frame_covered`).
    /// Until 0.7.40 the box was taken out of it as the page laid on top (Jaccard index 0.53 at `.high`).
    @Test func aScannedReceiptIsNotTakenForAPageOnAStack() throws {
        let receipt = try Self.scannedReceipt(boxTop: 300)
        let found = try Detector(type: .rectangle).rectangles(in: receipt)
        let whole = Quad(Rect(x: 0, y: 0, width: Double(receipt.width - 1), height: Double(receipt.height - 1)))
        let jaccard = found.first.map { $0.quad.intersectionOverUnion(with: whole) } ?? 0
        #expect(jaccard >= 0.95, "Jaccard index \(jaccard) with the whole scan: \(found.map(\.quad.corners))")
    }

    /// A receipt scanned flat, 640 × 900: a shop's name and address centred at the top, a ruled box of
    /// items from `boxTop` down past the image's bottom, 60 pixels in from each side.
    static func scannedReceipt(boxTop: Double) throws -> Frame {
        var page = try Frame(width: 640, height: 900, format: .bgr8, color: Color(white: 0.97))
        try page.addNoise(sigma: 2, seed: 5)
        let ink = Color(white: 0.1)
        func centred(_ text: String, baseline: Double, size: Double, weight: Double) throws {
            let width = Frame.measureText(text, size: size, weight: weight).width
            try page.text(text, at: Point(x: (640 - width) / 2, y: baseline), size: size, color: ink, weight: weight)
        }
        try centred("TEO HENG STATIONERY", baseline: 60, size: 24, weight: 3)
        let address = ["NO. 53, JALAN BESAR, 45600 BATANG", "SELANGOR DARUL EHSAN", "TEL: 03-3271 9872", "GST No: 000681913856"]
        for (line, text) in address.enumerated() { try centred(text, baseline: 100 + 26 * Double(line), size: 12, weight: 1) }
        try page.stroke(
            [Point(x: 60, y: boxTop), Point(x: 580, y: boxTop), Point(x: 580, y: 950), Point(x: 60, y: 950)], color: ink,
            lineWidth: 2)
        try page.stroke([Point(x: 60, y: boxTop + 30), Point(x: 580, y: boxTop + 30)], color: ink, lineWidth: 1, closed: false)
        let items = [["70549", "1", "160.00", "160.00"], ["81233", "2", "12.50", "25.00"], ["90017", "1", "8.90", "8.90"]]
        for (row, entries) in items.enumerated() {
            for (text, x) in zip(entries, [75.0, 230, 340, 480]) {
                try page.text(text, at: Point(x: x, y: boxTop + 60 + 60 * Double(row)), size: 13, color: ink, weight: 2)
            }
        }
        return try page.gaussianBlurred(sigma: 0.6)
    }

    /// How far p lies from the line through a and b.
    static func distance(of p: Point, fromLineThrough a: Point, _ b: Point) -> Double {
        let d = b - a
        return abs(d.x * (p.y - a.y) - d.y * (p.x - a.x)) / a.distance(to: b)
    }
}

/// Pages of the phone photos flattened and cropped inside their own sides, as a scanner or a scan
/// app's crop gives them (`Resources/scanned_pages`): no side of the page shows, and the whole image
/// is the document.
@Suite struct ScannedPageTests {
    static let folder = RealPhotoTests.folder("scanned_pages")

    /// No quad of the network's maps or of the image's edges finds sides that are not there, so the
    /// search takes the frame itself where it finds nothing else, the network agreeing with it in
    /// part and the frame being plain paper, and at `.high` where the network agrees with the frame
    /// clearly more than with the quad kept (`FrameItself` in the shim's quads.cpp). Before 0.7.46,
    /// `.high` found nothing on `book-scanned.jpg` and a part of the card on `card-scanned.jpg`
    /// (Jaccard index 0.17).
    @Test(arguments: [DetectorOptions.Accuracy.high, .low])
    func theWholeImageIsFoundAsThePage(accuracy: DetectorOptions.Accuracy) throws {
        try RealPhotoTests.expectEachFound(in: Self.folder, at: accuracy, label: " of the scanned pages", count: 3)
    }
}

/// Real receipts scanned and cropped to their edges (`Resources/cropped_receipts`, CC BY 4.0): the
/// whole image is the receipt, and long receipts are narrow (ten of the 26 are 0.25 to 0.30 as wide
/// as they are long).
@Suite struct CroppedReceiptTests {
    static let folder = RealPhotoTests.folder("cropped_receipts")

    /// The search takes the frame itself as the page, and the default least aspect ratio (0.2 since
    /// 0.7.47) lets it be reported. At 0.3, `.high` found nothing on the ten narrowest (the set
    /// 0.575 at `.high`, 0.640 at `.low`; 0.998 and 0.948 with 0.7.47's `.high` network, 0.985 with
    /// 0.7.48's, which cuts two receipts' tops off).
    @Test(arguments: [DetectorOptions.Accuracy.high, .low])
    func eachReceiptIsFoundAsTheWholeImage(accuracy: DetectorOptions.Accuracy) throws {
        // Until 0.7.67 .low kept a quad inside four receipts (0.29 to 0.84: rossmann_27022020_01_00195.jpg,
        // ikea_08102016_12_13439.jpg, toom_04042020_03_04877.jpg, toom_06042020_01_04999.jpg), and only
        // .high let the frame replace a quad kept; since 0.7.68 .low does too, on .high's network
        // (1.000, 1.000, 0.857, 0.988).
        let misses = [
            "toom_04042020_03_04877.jpg": "at .low the quad leaves out the receipt's top, its logo (0.86)"
        ]
        // 0.7.48's `.high` network (the first blocks cut, MODEL_CARD.md) missed two receipts that
        // 0.7.47's found whole (1.000 and 0.997); 0.7.52's finds hornbach_23092016_03_15200.jpg
        // whole again (1.000, 0.843 before), and with the network's finer view blended into its maps
        // (FinerView, 0.7.53) toom_04042020_03_04877.jpg too (0.997; 0.890 before, its logo cut off).
        let highMisses: [String: String] = [:]
        try RealPhotoTests.expectEachFound(
            in: Self.folder, at: accuracy, label: " of the cropped receipts", count: 26,
            knownMisses: [.low: misses, .high: highMisses])
    }

    /// The default is the documented one, and a caller asking for wider shapes than a receipt still
    /// gets nothing on the narrowest.
    @Test func aCallerAskingForWiderShapesGetsNoNarrowReceipt() throws {
        #expect(DetectorOptions().minimumAspectRatio == 0.2)
        let receipt = try Frame(contentsOf: Self.folder + "/real_24042020_08_02642.jpg")
        #expect(Double(receipt.width) / Double(receipt.height) < 0.3)
        let wider = try Detector(type: .rectangle, options: .init(minimumAspectRatio: 0.3))
        #expect(try wider.rectangles(in: receipt).isEmpty)
        #expect(try Detector(type: .rectangle).rectangles(in: receipt).count == 1)
    }
}

/// A real phone photo with a cluttered desk drawn on it (`Resources/cluttered_photos`, CC0): a
/// highlighter, an orange and a pen on the page, a mug beside it and a cable laid across it.
@Suite struct ClutteredPhotoTests {
    static let folder = RealPhotoTests.folder("cluttered_photos")

    /// The cable makes the page's part above it a quad with four clear edges, which the network
    /// likes less than the whole page (0.72 against 0.84) but not by NetworkPreference's margin.
    /// The network's outline map leaves that part's lower side, along the cable, undrawn and draws
    /// every side of the whole page, so the whole page is reported (`OutlineAround` in the shim's
    /// quads.cpp). Before, at `.high`, the part was: Jaccard index 0.400.
    @Test(arguments: [DetectorOptions.Accuracy.high, .low])
    func theWholePageIsFoundNotItsPartAboveTheCable(accuracy: DetectorOptions.Accuracy) throws {
        try RealPhotoTests.expectEachFound(in: Self.folder, at: accuracy, label: " among clutter", count: 1)
    }
}
