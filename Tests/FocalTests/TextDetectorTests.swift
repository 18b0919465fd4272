import Focal
import FocalSynthetic
import Foundation
import Testing

/// Pages rendered with known line boxes, flat and in perspective, a blank page, a bare table and a
/// real page photo: both engines must find the lines (IoU ≥ 0.5), keep their slant, nest words and
/// characters inside them, and find nothing where there is no text.
@Suite struct TextDetectorTests {
    static func matched(_ found: [TextFeature], _ truth: [Quad], iou: Double = 0.5) -> Int {
        var used = Set<Int>()
        var count = 0
        for line in truth {
            let best = found.indices.filter { !used.contains($0) }.max {
                found[$0].quad.intersectionOverUnion(with: line) < found[$1].quad.intersectionOverUnion(with: line)
            }
            if let best, found[best].quad.intersectionOverUnion(with: line) >= iou {
                used.insert(best)
                count += 1
            }
        }
        return count
    }

    static func lines(_ frame: Frame, _ accuracy: DetectorOptions.Accuracy, searchesDocuments: Bool = true) throws
        -> [TextFeature]
    {
        var options = DetectorOptions(accuracy: accuracy)
        options.text.searchesDocuments = searchesDocuments
        return try Detector(type: .text, options: options).features(in: frame).compactMap { $0 as? TextFeature }
    }

    static func angle(_ a: Point, _ b: Point) -> Double { atan2(b.y - a.y, b.x - a.x) * 180 / .pi }

    /// A page photographed in perspective on a table, 1280×720, with the page's lines mapped into the frame.
    static func pageInPerspective(rotation: Double, tilt: Double, seed: UInt64) throws -> SyntheticScene {
        let table = try SyntheticBackground.wood.render(width: 1280, height: 720, seed: seed)
        let page = try SyntheticPage(width: 850, height: 1100, seed: seed &+ 7, withFigure: false)
        let corners = SyntheticScene.corners(
            frameWidth: 1280, frameHeight: 720, center: Point(x: 640, y: 360), fill: 0.8, rotation: rotation, tilt: tilt)
        return try SyntheticScene(background: table, page: page, corners: corners, blur: .init(sigma: 0.6), noise: 2, seed: seed)
    }

    @Test(arguments: DetectorOptions.Accuracy.allCases)
    func findsTheLinesOfAFlatPage(accuracy: DetectorOptions.Accuracy) throws {
        let page = try SyntheticPage(width: 850, height: 1100, seed: 3)
        let truth = page.textLines.map { Quad($0) }
        let found = try Self.lines(page.image, accuracy)
        let hits = Self.matched(found, truth)
        #expect(Double(hits) >= 0.9 * Double(truth.count), "\(accuracy): \(hits) of \(truth.count) lines, \(found.count) found")
        #expect(found.count <= truth.count + 2, "\(accuracy): \(found.count) lines for \(truth.count) (the figure is not text)")
    }

    @Test(arguments: [(DetectorOptions.Accuracy.low, 12.0, 0.15, 1 as UInt64), (.low, -20.0, 0.25, 2), (.high, 15.0, 0.2, 3)])
    func findsSlantedLinesOnAPageInPerspective(accuracy: DetectorOptions.Accuracy, rotation: Double, tilt: Double, seed: UInt64)
        throws
    {
        let scene = try Self.pageInPerspective(rotation: rotation, tilt: tilt, seed: seed)
        let found = try Self.lines(scene.frame, accuracy)
        let hits = Self.matched(found, scene.textLines)
        #expect(Double(hits) >= 0.85 * Double(scene.textLines.count), "\(hits) of \(scene.textLines.count) lines")
        // Boxes follow the text's slant: each line's top edge runs at its true line's angle.
        for line in scene.textLines {
            guard
                let best = found.max(by: { $0.quad.intersectionOverUnion(with: line) < $1.quad.intersectionOverUnion(with: line) }
                ),
                best.quad.intersectionOverUnion(with: line) >= 0.5
            else { continue }
            let error = abs(Self.angle(best.topLeft, best.topRight) - Self.angle(line.topLeft, line.topRight))
            #expect(error < 3, "line at \(line.topLeft): slant off by \(error)°")
        }
        // Without the page search the fast engine finds the text's slant itself and turns the frame
        // level: the same lines are found.
        if accuracy == .low, abs(rotation) >= 20 {
            let onFrame = Self.matched(try Self.lines(scene.frame, .low, searchesDocuments: false), scene.textLines)
            #expect(
                Double(onFrame) >= 0.85 * Double(scene.textLines.count), "on the frame: \(onFrame) of \(scene.textLines.count)")
        }
    }

    /// Small text on a page in a frame (lines about 7 px tall): the boxes match the lines' own
    /// boxes (the font's extent), neither loose by the network's margin nor cut inside the
    /// letters by the fit to the ink.
    @Test(arguments: DetectorOptions.Accuracy.allCases)
    func fitsBoxesToSmallTextInAFrame(accuracy: DetectorOptions.Accuracy) throws {
        let scene = try Self.pageInPerspective(rotation: 6, tilt: 0.15, seed: 5)
        let found = try Self.lines(scene.frame, accuracy)
        var overlaps: [Double] = []
        var heights: [Double] = []
        for line in scene.textLines {
            let best = found.max { $0.quad.intersectionOverUnion(with: line) < $1.quad.intersectionOverUnion(with: line) }
            guard let best, best.quad.intersectionOverUnion(with: line) >= 0.3 else { continue }
            overlaps.append(best.quad.intersectionOverUnion(with: line))
            heights.append(best.topLeft.distance(to: best.bottomLeft) / line.topLeft.distance(to: line.bottomLeft))
        }
        overlaps.sort()
        heights.sort()
        #expect(overlaps.count >= scene.textLines.count * 8 / 10, "\(overlaps.count) of \(scene.textLines.count) lines")
        let medianOverlap = overlaps.isEmpty ? 0 : overlaps[overlaps.count / 2]
        let medianHeight = heights.isEmpty ? 0 : heights[heights.count / 2]
        print("\(accuracy): median IoU \(medianOverlap), median height \(medianHeight) of the line's")
        #expect(medianOverlap >= 0.75, "\(accuracy): median IoU \(medianOverlap)")
        #expect(medianHeight > 0.8 && medianHeight < 1.3, "\(accuracy): boxes \(medianHeight) times the lines' height")
    }

    @Test(arguments: DetectorOptions.Accuracy.allCases)
    func nestsWordsAndCharactersInsideTheirLines(accuracy: DetectorOptions.Accuracy) throws {
        let page = try SyntheticPage(width: 850, height: 1100, seed: 5, withFigure: false)
        let found = try Self.lines(page.image, accuracy)
        try #require(!found.isEmpty)
        var words = 0
        for line in found {
            #expect(!line.subFeatures.isEmpty, "line at \(line.topLeft) has no words")
            for word in line.subFeatures {
                words += 1
                #expect(line.quad.grown(by: 2).contains(word.quad.center), "word outside its line")
                #expect(word.quad.area <= line.quad.area * 1.05)
                for character in word.subFeatures {
                    #expect(word.quad.grown(by: 1).contains(character.quad.center), "character outside its word")
                }
            }
        }
        // Body lines hold several words each; the fast engine also reports characters.
        #expect(words >= 3 * found.count, "\(words) words in \(found.count) lines")
        if accuracy == .low {
            let characters = found.flatMap(\.subFeatures).reduce(0) { $0 + $1.subFeatures.count }
            #expect(characters > 4 * words, "\(characters) characters in \(words) words")
        }
    }

    @Test(arguments: DetectorOptions.Accuracy.allCases)
    func findsNothingOnBlankPaperOrABareTable(accuracy: DetectorOptions.Accuracy) throws {
        var blank = try Frame(width: 850, height: 1100, format: .bgr8, color: Color(red: 0.96, green: 0.95, blue: 0.92))
        try blank.addNoise(sigma: 3, seed: 9)
        #expect(try Self.lines(blank, accuracy).isEmpty, "\(accuracy): text on blank paper")
        var plain = try Frame(width: 1280, height: 720, format: .bgr8, color: Color(white: 0.45))
        try plain.addNoise(sigma: 4, seed: 10)
        #expect(try Self.lines(plain, accuracy).isEmpty, "\(accuracy): text on a textureless table")
        let blankOnTable = try SyntheticScene(
            background: try SyntheticBackground.wood.render(width: 1280, height: 720, seed: 4),
            page: SyntheticPage(image: blank, textLines: []),
            corners: SyntheticScene.corners(
                frameWidth: 1280, frameHeight: 720, center: Point(x: 640, y: 360), fill: 0.9, rotation: 10),
            noise: 2)
        #expect(try Self.lines(blankOnTable.frame, accuracy).isEmpty, "\(accuracy): text on a blank page on wood")
    }

    /// scikit-image's page photo (Resources/page.png).
    static func pagePhoto() throws -> Frame {
        try Frame(contentsOf: try #require(Bundle.module.path(forResource: "page", ofType: "png", inDirectory: "Resources")))
    }

    /// Line boxes on scikit-image's page photo (uneven light, a curved sheet), checked by eye.
    static let photoLines: [Quad] = [
        [(8, 13), (291, 14), (291, 31), (8, 30)], [(6, 49), (375, 50), (375, 63), (6, 62)],
        [(7, 67), (375, 68), (375, 81), (7, 80)], [(8, 84), (375, 86), (375, 100), (7, 98)],
        [(7, 100), (375, 102), (375, 118), (6, 115)], [(7, 117), (170, 124), (169, 137), (6, 130)],
    ].map { c in
        Quad(
            topLeft: Point(x: c[0].0, y: c[0].1), topRight: Point(x: c[1].0, y: c[1].1),
            bottomRight: Point(x: c[2].0, y: c[2].1), bottomLeft: Point(x: c[3].0, y: c[3].1))
    }

    @Test(arguments: DetectorOptions.Accuracy.allCases)
    func findsTheLinesOfARealPagePhoto(accuracy: DetectorOptions.Accuracy) throws {
        let found = try Self.lines(try Self.pagePhoto(), accuracy)
        let hits = Self.matched(found, Self.photoLines)
        #expect(hits >= 5, "\(accuracy): \(hits) of \(Self.photoLines.count) lines, \(found.count) found")
    }

    /// A strip holding one line of the page photo, 22 px tall, is still read at `.high`: the network
    /// is skipped only on images too thin for any line (TextModel.minimumLegibleSide).
    @Test func readsAStripHoldingOneLine() throws {
        let photo = try Self.pagePhoto()
        let top = 45.0, line = Self.photoLines[1]
        let strip = try photo.rectified(
            Quad(Rect(x: 0, y: top, width: Double(photo.width), height: 22)), width: photo.width, height: 22)
        func raised(_ p: Point) -> Point { Point(x: p.x, y: p.y - top) }
        let lineInStrip = Quad(
            topLeft: raised(line.topLeft), topRight: raised(line.topRight), bottomRight: raised(line.bottomRight),
            bottomLeft: raised(line.bottomLeft))
        let found = try Self.lines(strip, .high, searchesDocuments: false)
        #expect(Self.matched(found, [lineInStrip]) == 1, "\(found.map(\.quad))")
    }

    @Test func aMissingModelIsNamed() throws {
        let missing = NSTemporaryDirectory() + "focal-no-models-\(getpid())/Models/ppocr-v4-det.onnx"
        var options = DetectorOptions(accuracy: .high)
        options.text.modelPath = missing
        let error = try #require(throws: FocalError.self) { try Detector(type: .text, options: options) }
        #expect(error.kind == .modelMissing)
        #expect(error.path == missing)
        #expect("\(error)".contains(missing))
        // The fast engine needs no model.
        options.accuracy = .low
        #expect(throws: Never.self) { try Detector(type: .text, options: options) }
    }

    @Test func tracksLinesAcrossFrames() throws {
        let scene = try Self.pageInPerspective(rotation: 8, tilt: 0.1, seed: 6)
        let detector = try Detector(type: .text, options: .init(accuracy: .low, tracking: true))
        let first = try detector.features(in: scene.frame).compactMap { $0 as? TextFeature }
        let second = try detector.features(in: scene.frame).compactMap { $0 as? TextFeature }
        try #require(!first.isEmpty && first.count == second.count)
        #expect(first.allSatisfy { $0.trackingID != nil })
        #expect(Set(first.compactMap(\.trackingID)) == Set(second.compactMap(\.trackingID)))
    }
}

extension Quad {
    /// The quad pushed outward from its centre by `pixels` along each corner's direction.
    fileprivate func grown(by pixels: Double) -> Quad {
        let c = center
        func push(_ p: Point) -> Point {
            let d = Point(x: p.x - c.x, y: p.y - c.y), length = max(1e-9, (d.x * d.x + d.y * d.y).squareRoot())
            return Point(x: p.x + d.x / length * pixels, y: p.y + d.y / length * pixels)
        }
        return Quad(
            topLeft: push(topLeft), topRight: push(topRight), bottomRight: push(bottomRight), bottomLeft: push(bottomLeft))
    }
}
