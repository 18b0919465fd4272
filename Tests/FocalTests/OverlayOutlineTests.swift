import Focal
import FocalSynthetic
import Foundation
import Testing

/// The outlines `focal overlay` draws, taken from the renderer itself (the features it reports
/// drawing on each frame), against the bundled sample's ground truth and on a still page.
@Suite(.serialized) struct OverlayOutlineTests {
    static let media = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples/Media")

    /// Ground truth of the bundled sample: corners by frame, where the page is in view.
    static func truth() throws -> [Int: [Point]] {
        struct Entry: Decodable {
            var index: Int
            var corners: [[Double]]?
        }
        struct Truth: Decodable { var frames: [Entry] }
        let data = try Data(contentsOf: media.appendingPathComponent("document.json"))
        var result: [Int: [Point]] = [:]
        for entry in try JSONDecoder().decode(Truth.self, from: data).frames {
            if let corners = entry.corners { result[entry.index] = corners.map { Point(x: $0[0], y: $0[1]) } }
        }
        return result
    }

    /// Renders `source` and returns, per frame, the document outlines drawn on it.
    static func drawnOutlines(
        _ makeSource: () throws(FocalError) -> any FrameSource, smoothing: OutlineSmoother.Mode
    ) throws -> [Int: [Quad]] {
        let folder = TemporaryFolder()
        var options = OverlayVideoRender.Options()
        options.smoothing = smoothing
        options.writer.preset = .ultrafast
        var outlines: [Int: [Quad]] = [:]
        _ = try OverlayVideoRender(options: options).render(
            makeSource, to: folder.file("overlay.mp4"),
            drawn: { index, features in
                outlines[index] = features.compactMap { ($0 as? RectangleFeature)?.quad }
            })
        return outlines
    }

    static func meanCornerError(_ outlines: [Int: [Quad]], _ truth: [Int: [Point]]) -> (error: Double, frames: Int) {
        var total = 0.0, frames = 0
        for (index, quads) in outlines {
            guard let quad = quads.first, let corners = truth[index] else { continue }
            total += zip(quad.corners, corners).map { $0.distance(to: $1) }.reduce(0, +) / 4
            frames += 1
        }
        return (total / Double(max(frames, 1)), frames)
    }

    @Test func drawnOutlinesFollowTheMovingPageOfTheBundledSample() throws {
        let truth = try Self.truth()
        let path = Self.media.appendingPathComponent("document.mp4").path
        let centered = try Self.drawnOutlines(
            { () throws(FocalError) in try VideoReader(path: path) }, smoothing: .centered(radius: 3))
        let (error, frames) = Self.meanCornerError(centered, truth)
        #expect(frames >= 70, "the page is drawn on \(frames) frames")
        #expect(error <= 1.5, "drawn corners are \(error) px from the truth on average")
        // Frame 52, where the old funnel drew the outline 13 px behind the page.
        let at52 = try #require(centered[52]?.first)
        #expect(at52.topLeft.distance(to: truth[52]![0]) < 1, "\(at52.topLeft) against \(truth[52]![0])")
        // Nothing is drawn where there is no page.
        #expect(centered.filter { truth[$0.key] == nil && !$0.value.isEmpty }.isEmpty)

        // A live camera's causal filter, well under a frame behind: the page moves up to 5.3 px a
        // frame here.
        let causal = try Self.drawnOutlines({ () throws(FocalError) in try VideoReader(path: path) }, smoothing: .causal)
        let (causalError, _) = Self.meanCornerError(causal, truth)
        #expect(causalError <= 2, "causal outlines are \(causalError) px from the truth on average")
    }

    /// A still page seen through sensor noise: the same scene with fresh noise on every frame.
    final class StillPage: FrameSource {
        let scene: Frame
        let width: Int, height: Int
        let framesPerSecond = 30.0
        let frameCount: Int? = 40
        var index = 0
        init() throws {
            let table = try SyntheticBackground.wood.render(width: 960, height: 540, seed: 5)
            let page = try SyntheticPage(width: 425, height: 550, seed: 5)
            let corners = SyntheticScene.corners(frameWidth: 960, frameHeight: 540, center: Point(x: 470, y: 270), fill: 0.8)
            scene = try SyntheticScene(background: table, page: page, corners: corners, blur: .init(sigma: 0.8)).frame
            width = scene.width
            height = scene.height
        }
        func nextFrame() throws(FocalError) -> Frame? {
            guard index < 40 else { return nil }
            var frame = scene
            try frame.addNoise(sigma: 4, seed: UInt64(index + 1))
            index += 1
            return frame
        }
    }

    /// A folder of unrelated photos rendered as a sequence: each photo's page is outlined where
    /// its annotation puts it, as the single-image path outlines it. Each photo is a shot of one
    /// frame; before shots, the steadier waited for three sightings and no photo got an outline.
    @Test func aFolderOfPhotosRenderedAsASequenceOutlinesEachPage() throws {
        let stills = try RealPhotoTests.stills()
        let folder = TemporaryFolder()
        for (number, still) in stills.enumerated() {
            let photo = try Frame(contentsOf: RealPhotoTests.folder + "/" + still.file)
            try photo.write(to: folder.file(String(format: "%02d.png", number)))
        }
        let sequence = try Self.drawnOutlines(
            { () throws(FocalError) in try ImageSequenceReader(pattern: folder.path, framesPerSecond: 1) },
            smoothing: .centered(radius: 3))
        var outlined = 0
        for (number, still) in stills.enumerated() {
            let photo = try Frame(contentsOf: RealPhotoTests.folder + "/" + still.file)
            let single = try OverlayFrameRenderer(options: OverlayVideoRender.Options(), isSingleImage: true)
            var alone: [Quad] = []
            single.onDrawn = { alone = $1.compactMap { ($0 as? RectangleFeature)?.quad } }
            _ = try single.add(photo) + single.finish()
            let drawn = sequence[number] ?? []
            #expect(drawn.count == alone.count, "\(still.file): \(drawn.count) outlines in the sequence, \(alone.count) alone")
            if let quad = drawn.first, quad.intersectionOverUnion(with: still.truth) >= 0.9 { outlined += 1 }
        }
        #expect(outlined >= stills.count - 1, "\(outlined) of \(stills.count) pages outlined at Jaccard 0.9 or more")
    }

    /// Each photo of a sequence is drawn exactly as it is drawn alone: the same outline and the
    /// same label (a label measured on one photo once appeared on every photo of the sequence).
    @Test func eachPhotoOfASequenceIsDrawnAsItIsAlone() throws {
        var options = OverlayVideoRender.Options()
        options.showsInfo = false  // the only mark that names the frame
        let photos = try RealPhotoTests.stills().prefix(3).map { still throws in
            try Frame(contentsOf: RealPhotoTests.folder + "/" + still.file).oriented()
        }
        let sequence = try OverlayFrameRenderer(options: options, framesPerSecond: 1)
        var drawn: [Frame] = []
        for photo in photos { drawn += try sequence.add(photo) }
        drawn += try sequence.finish()
        try #require(drawn.count == photos.count)
        for (photo, inSequence) in zip(photos, drawn) {
            let alone = try OverlayFrameRenderer(options: options, isSingleImage: true)
            let single = try alone.add(photo) + alone.finish()
            #expect(single.first == inSequence, "a photo drawn in a sequence differs from the photo drawn alone")
        }
    }

    @Test func aStillPagesOutlineStaysStill() throws {
        for smoothing in [OutlineSmoother.Mode.centered(radius: 3), .causal] {
            let outlines = try Self.drawnOutlines({ () throws(FocalError) in try! StillPage() }, smoothing: smoothing)
            var largest = 0.0
            for index in outlines.keys.sorted() {
                guard let now = outlines[index]?.first, let next = outlines[index + 1]?.first else { continue }
                largest = max(largest, now.maximumCornerDistance(to: next))
            }
            #expect(outlines.values.filter { !$0.isEmpty }.count >= 35, "\(smoothing): drawn on most frames")
            #expect(largest <= 0.5, "\(smoothing): drawn corners move up to \(largest) px between frames")
        }
    }

    @Test func labelsKeepClearOfEachOtherAndTheInfoBoxAndGrowWithThePhoto() throws {
        // Three documents whose top corners are close together, under the info box's corner.
        func page(_ x: Double, _ y: Double, id: Int) -> RectangleFeature {
            RectangleFeature(quad: Quad(Rect(x: x, y: y, width: 300, height: 400)), confidence: 0.9, trackingID: id)
        }
        let features = [page(20, 30, id: 1), page(40, 45, id: 2), page(60, 60, id: 3)]
        let infoBox = Rect(x: 12, y: 12, width: 330, height: 40)
        var frame = try Frame(width: 1280, height: 720, format: .bgr8, color: Color(white: 0.5))
        let labels = try OverlayRenderer().draw(features, on: &frame, notes: [0: "sharpness 812"], avoiding: [infoBox])
        #expect(labels.count == 3)
        for (i, label) in labels.enumerated() {
            #expect(!label.intersects(infoBox), "label \(i) \(label) covers the info box")
            #expect(label.minX >= 0 && label.minY >= 0 && label.maxX <= 1280 && label.maxY <= 720)
            for other in labels[(i + 1)...] { #expect(!label.intersects(other), "\(label) overlaps \(other)") }
        }
        // A 4000 × 3000 photo: shown full screen (about a third of its size) its labels read as a
        // 720p video's do.
        var photo = try Frame(width: 4000, height: 3000, format: .bgr8, color: Color(white: 0.5))
        let big = try OverlayRenderer().draw(
            [RectangleFeature(quad: Quad(Rect(x: 800, y: 700, width: 2000, height: 2000)), confidence: 0.9, trackingID: 1)],
            on: &photo)
        let small = try OverlayRenderer().draw([features[0]], on: &frame)
        #expect(big[0].height > 3.5 * small[0].height, "\(big[0].height) against \(small[0].height) at 720p")
    }
}
