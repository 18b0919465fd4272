/// The step every overlay takes with each frame, for videos, image sequences and single images
/// alike: detect, steady the document outlines, filter, measure, draw, label, fit to the output
/// size.
///
/// Frames go in with ``add(_:)`` in stream order and come out drawn, in the same order, as soon as
/// the outline smoother's window allows (``OverlayVideoRender/Options/smoothing``); ``finish()``
/// draws the rest. Where the stream cuts to an unrelated scene (the next photo of a folder), the
/// detectors' tracks end and each shot is steadied on its own, so a page seen in one photo alone is
/// still outlined.
///
/// ```swift
/// let renderer = try OverlayFrameRenderer(options: OverlayVideoRender.Options(), isSingleImage: true)
/// let drawn = try renderer.add(photo) + renderer.finish()
/// try drawn[0].write(to: "photo-overlay.png")
/// ```
public final class OverlayFrameRenderer {
    /// What is detected and how it is drawn.
    public let options: OverlayVideoRender.Options
    /// Called with each frame's index and the features drawn on it (after steadying), in order.
    public var onDrawn: (Int, [any Feature]) -> Void = { _, _ in }

    /// The documents outlined so far: one per track across the frames of a shot, one per outline in
    /// a photo of its own.
    public var documentCount: Int { documents.count + untrackedDocuments }
    /// Frames drawn so far.
    public private(set) var framesDrawn = 0

    private let detectors: [Detector]
    /// The same detectors without tracking, made when first needed: a shot that turns out to be a
    /// single frame (a photo among others) is drawn with their features, which need
    /// ``DetectorOptions/minimumConfidence`` as a lone photo does, not a new track's
    /// ``DetectorOptions/acquisitionConfidence``.
    private var stillDetectors: [Detector]?
    /// Whether the frames are untracked already (a single image).
    private let isSingleImage: Bool
    /// The last frame added, as read: redetected as a lone photo if the next frame cuts away.
    private var lastOriginal: Frame?
    private let overlay: OverlayRenderer
    private let pool: FramePool
    private let framesPerSecond: Double
    private var smoother: OutlineSmoother
    private var cuts = SceneCuts()
    /// The first frame of each shot, in order.
    private var shotStarts = [0]
    private var pending: [Pending] = []
    private var framesAdded = 0
    /// The tracks of the documents drawn so far, and how many documents were drawn untracked.
    private var documents = Set<Int>()
    private var untrackedDocuments = 0
    /// Each track's label sharpness, refreshed every third frame.
    private var labelScores: [Int: Double] = [:]
    /// The sharpest frame of each document, from a first pass over the same stream, by frame.
    private let sharpest: [Int: [SharpestDocument]]
    private var lastSharpest: (document: Int, frame: Int)?

    /// A frame detected, copied, filtered and measured while still in the cache from detection,
    /// waiting for the frames after it before its marks are drawn.
    private struct Pending {
        var frame: Frame
        var detected: [any Feature]
        /// For the first frame of a shot: its features found as in a lone photo.
        var still: [any Feature]?
        /// The label sharpness of the untracked documents drawn on this frame, by their place
        /// among its features (a track's is in `labelScores`, shared along the track).
        var untrackedScores: [Int: Double] = [:]
        var index: Int
        var info: (text: String, sharpness: Double)?
    }

    /// A document at its sharpest frame, as the first pass found it.
    struct SharpestDocument: Sendable {
        var document: Int
        var quad: Quad
    }

    /// The documents' label sharpness: noise-resistant on a 256-pixel view, a quarter of the work
    /// of the 512-pixel view that best-frame selection uses.
    static let labelSharpness = SharpnessOptions(noiseSuppression: 1, regionSize: 256)

    /// - Parameters:
    ///   - options: what to detect and how to draw it.
    ///   - framesPerSecond: the stream's rate, for the causal smoother and the sharpest badge.
    ///   - isSingleImage: a lone photo: features are detected without tracking, as
    ///     ``Detector`` does by default, so that a page needs ``DetectorOptions/minimumConfidence``
    ///     rather than a new track's ``DetectorOptions/acquisitionConfidence``.
    public convenience init(
        options: OverlayVideoRender.Options, framesPerSecond: Double = 30, isSingleImage: Bool = false
    ) throws(FocalError) {
        try self.init(
            options: options, framesPerSecond: framesPerSecond, isSingleImage: isSingleImage, sharpest: [],
            pool: FramePool(capacity: 2 + OutlineSmoother(mode: options.smoothing).delay))
    }

    init(
        options: OverlayVideoRender.Options, framesPerSecond: Double, isSingleImage: Bool, sharpest: [DocumentScan],
        pool: FramePool
    ) throws(FocalError) {
        self.options = options
        self.pool = pool
        self.framesPerSecond = framesPerSecond > 0 ? framesPerSecond : 30
        var detectorOptions = options.detector
        detectorOptions.tracking = !isSingleImage
        detectors = try options.types.map { type throws(FocalError) in try Detector(type: type, options: detectorOptions) }
        self.isSingleImage = isSingleImage
        overlay = OverlayRenderer(style: options.style)
        smoother = OutlineSmoother(mode: options.smoothing, framesPerSecond: self.framesPerSecond)
        self.sharpest = Dictionary(
            grouping: sharpest.map { ($0.bestFrame, SharpestDocument(document: $0.trackingID, quad: $0.quad)) }, by: \.0
        ).mapValues { $0.map(\.1) }
    }

    /// Frames an outline is drawn after its frame is added.
    var drawDelay: Int { options.steadiesOutlines ? smoother.delay : 0 }

    /// Detects features in the next frame of the stream and returns the frames now ready, drawn.
    public func add(_ original: Frame) throws(FocalError) -> [Frame] {
        let index = framesAdded
        if try cuts.isCut(original) {
            try endShot()
            shotStarts.append(index)
            for detector in detectors { detector.resetTracking() }
        }
        var features: [any Feature] = []
        for detector in detectors { features += try detector.features(in: original) }
        if !isSingleImage, drawDelay > 0 { lastOriginal = original }
        if options.steadiesOutlines {
            var quads: [Int: Quad] = [:]
            for case let rectangle as RectangleFeature in features {
                if let id = rectangle.trackingID { quads[id] = rectangle.quad }
            }
            smoother.add(frame: index, quads)
        }
        pending.append(try prepare(original, features, index: index))
        framesAdded += 1
        var ready: [Frame] = []
        while pending.count > drawDelay { ready.append(try draw(pending.removeFirst(), streamEnded: false)) }
        return ready
    }

    /// Draws the frames still held for the smoother's window, at the end of the stream.
    public func finish() throws(FocalError) -> [Frame] {
        try endShot()
        var ready: [Frame] = []
        while !pending.isEmpty { ready.append(try draw(pending.removeFirst(), streamEnded: true)) }
        return ready
    }

    /// The frame copied and filtered, with its documents' label sharpness and its info text taken
    /// from the original.
    private func prepare(_ original: Frame, _ detected: [any Feature], index: Int) throws(FocalError) -> Pending {
        var frame = pool.writableCopy(of: original)
        for filter in options.filters { try filter.apply(to: &frame) }
        let untracked = try measureLabels(detected, in: original, index: index)
        let info = options.showsInfo ? try infoText(original: original, index: index) : nil
        return Pending(frame: frame, detected: detected, still: nil, untrackedScores: untracked, index: index, info: info)
    }

    /// At the end of a shot (a cut, or the stream's end): a shot of one frame still waiting to be
    /// drawn is detected again as a lone photo. Video, whose shots are long, never pays for it.
    private func endShot() throws(FocalError) {
        defer { lastOriginal = nil }
        guard let original = lastOriginal, shotStarts.last == framesAdded - 1,
            let slot = pending.lastIndex(where: { $0.index == framesAdded - 1 })
        else { return }
        if stillDetectors == nil {
            var untracked = options.detector
            untracked.tracking = false
            stillDetectors = try options.types.map { type throws(FocalError) in try Detector(type: type, options: untracked) }
        }
        var still: [any Feature] = []
        for detector in stillDetectors ?? [] { still += try detector.features(in: original) }
        pending[slot].untrackedScores = try measureLabels(still, in: original, index: framesAdded - 1)
        pending[slot].still = still
    }

    /// The frame with its marks drawn and fitted to the output size.
    private func draw(_ prepared: consuming Pending, streamEnded: Bool) throws(FocalError) -> Frame {
        let index = prepared.index, info = prepared.info
        var frame = prepared.frame
        let shot = shot(of: index, streamEnded: streamEnded)
        // A still is set only once its shot has ended after this one frame (endShot).
        let features =
            prepared.still
            ?? (options.steadiesOutlines ? steady(prepared.detected, index: index, shot: shot) : prepared.detected)
        let untrackedScores = prepared.untrackedScores
        for case let rectangle as RectangleFeature in features {
            // Untracked (in a photo of its own), each outline is a document of its own.
            if let id = rectangle.trackingID { documents.insert(id) } else { untrackedDocuments += 1 }
        }
        onDrawn(index, features)
        var notes: [Int: String] = [:]
        for (number, feature) in features.enumerated() {
            guard let rectangle = feature as? RectangleFeature,
                let score = rectangle.trackingID.map({ labelScores[$0] }) ?? untrackedScores[number]
            else { continue }
            notes[number] = "sharpness " + decimal(score, places: 0)
        }
        // The info box stays readable on small frames: never below its 720p size.
        let scale = max(1, OverlayRenderer.scale(width: frame.width, height: frame.height))
        try overlay.draw(features, on: &frame, notes: notes, avoiding: info.map { [infoBox($0.text, scale: scale)] } ?? [])
        try drawSharpest(on: &frame, index: index)
        if let info { try drawInfo(info, on: &frame, scale: scale) }
        framesDrawn += 1
        return try fitted(frame)
    }

    /// Each document's sharpness for its label. A track's is kept in `labelScores` and refreshed
    /// every third frame (a label changing faster cannot be read anyway); the untracked ones'
    /// (in a photo of its own) are returned by their place among the features, which steadying
    /// leaves alone when nothing is tracked.
    private func measureLabels(_ features: [any Feature], in original: Frame, index: Int) throws(FocalError) -> [Int: Double] {
        var untracked: [Int: Double] = [:]
        for (number, feature) in features.enumerated() {
            guard let rectangle = feature as? RectangleFeature else { continue }
            func measured() throws(FocalError) -> Double {
                try Sharpness.measure(original, inside: rectangle.quad, options: Self.labelSharpness).variance
            }
            if let id = rectangle.trackingID {
                if index % 3 == 0 || labelScores[id] == nil { labelScores[id] = try measured() }
            } else {
                untracked[number] = try measured()
            }
        }
        return untracked
    }

    /// The shot frame `index` belongs to, as far as the frames added so far tell.
    private func shot(of index: Int, streamEnded: Bool) -> OutlineSmoother.Shot {
        let start = shotStarts.last { $0 <= index } ?? 0
        if let next = shotStarts.first(where: { $0 > index }) { return .init(first: start, last: next - 1) }
        return .init(first: start, last: streamEnded ? framesAdded - 1 : nil)
    }

    /// The features with each tracked document's outline replaced by the smoother's; a document
    /// the smoother does not draw yet (too few detections) is left out.
    private func steady(_ features: [any Feature], index: Int, shot: OutlineSmoother.Shot) -> [any Feature] {
        let ids = Set(features.compactMap { ($0 as? RectangleFeature)?.trackingID })
        let outlines = smoother.outlines(at: index, detected: ids, shot: shot)
        return features.compactMap { feature in
            guard var rectangle = feature as? RectangleFeature, let id = rectangle.trackingID else { return feature }
            guard let quad = outlines[id] else { return nil }
            rectangle.quad = quad
            return rectangle
        }
    }

    /// Each document's sharpest frame highlighted where the first pass found it, with a badge for
    /// half a second after.
    private func drawSharpest(on frame: inout Frame, index: Int) throws(FocalError) {
        let scale = max(1, Double(frame.height) / 720)
        for best in sharpest[index] ?? [] {
            try frame.stroke(best.quad.corners, color: .yellow, lineWidth: 7 * scale)
            lastSharpest = (best.document, index)
        }
        guard let last = lastSharpest, index - last.frame < Int(max(1, framesPerSecond / 2)) else { return }
        try frame.label(
            "sharpest: document #\(last.document), frame \(last.frame)", at: Point(x: 12, y: Double(frame.height) - 40),
            style: LabelStyle(size: 14 * scale, textColor: .black, background: Color.yellow.withAlpha(0.9)))
    }

    /// The frame letterboxed into the output size, if one is set and it differs.
    private func fitted(_ frame: consuming Frame) throws(FocalError) -> Frame {
        guard let size = options.outputSize, frame.width != size.width || frame.height != size.height else { return frame }
        var canvas = pool.uninitializedFrame(width: size.width, height: size.height, format: frame.format)
        try frame.letterbox(into: &canvas)
        pool.recycle(consume frame)
        return canvas
    }

    /// The info box's text (frame number, time, sharpness) and the sharpness behind its bar.
    private func infoText(original: Frame, index: Int) throws(FocalError) -> (text: String, sharpness: Double) {
        let score = try Sharpness.laplacian(of: original).variance
        var text = "frame \(index)"
        if let time = original.timestamp { text += "  " + decimal(time, places: 2) + " s" }
        return (text + "  sharpness " + decimal(score, places: 1), score)
    }

    private func infoStyle(_ scale: Double) -> LabelStyle { LabelStyle(size: 16 * scale, padding: 6 * scale) }

    /// Where the info box and its bar go, before they are drawn: labels keep clear of it.
    private func infoBox(_ text: String, scale: Double) -> Rect {
        let size = Frame.labelSize(text, style: infoStyle(scale))
        return Rect(x: 12 * scale, y: 12 * scale, width: size.width, height: size.height + 10 * scale)
    }

    private func drawInfo(_ info: (text: String, sharpness: Double), on frame: inout Frame, scale: Double) throws(FocalError) {
        let box = try frame.label(info.text, at: Point(x: 12 * scale, y: 12 * scale), style: infoStyle(scale))
        // A bar whose length grows with sharpness on a log scale, so that blurry and sharp both show.
        let fraction = min(1, max(0, log10(max(info.sharpness, 1)) / 4))
        let y = box.maxY + 4 * scale, height = 6 * scale
        try frame.fill(
            Quad(Rect(x: box.minX, y: y, width: box.width, height: height)).corners, color: Color(white: 0.1, alpha: 0.6))
        try frame.fill(Quad(Rect(x: box.minX, y: y, width: max(1, box.width * fraction), height: height)).corners, color: .green)
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
