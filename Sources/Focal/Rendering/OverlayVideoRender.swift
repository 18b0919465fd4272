import Dispatch

/// Renders a stream with its detections drawn on it into a video file: what `focal overlay` does.
///
/// Three stages overlap across cores, joined by short bounded queues: decoding on a thread of its
/// own, detection and drawing on the calling thread, and encoding on others. Frames stay in
/// order, and memory stays flat however long the video.
public final class OverlayVideoRender {
    public struct Options: Sendable {
        /// What to detect and draw; empty draws only the info badge.
        public var types: [FeatureType] = [.rectangle]
        public var detector = DetectorOptions(maximumFeatureCount: 4)
        /// Applied to each frame (after detection, which sees the original) before drawing.
        public var filters: [FrameFilter] = []
        /// Fit every frame into this size, letterboxed; nil keeps the source's size.
        public var outputSize: (width: Int, height: Int)?
        public var style = OverlayRenderer.Style()
        /// The encoder. The default holds few frames (``VideoWriter/Settings/lowMemory``): the
        /// render streams, so x264's B-frames and long lookahead would cost memory for smaller files.
        public var writer = VideoWriter.Settings.lowMemory
        /// Draw each frame's number, time and sharpness in a corner.
        public var showsInfo = true
        /// Find each document's sharpest frame first (a second decoding pass), then highlight it
        /// in the output and keep a "sharpest" badge up for half a second after.
        public var marksSharpest = false
        /// Steady document outlines through an ``OutlineSmoother``.
        public var steadiesOutlines = true
        /// How outlines are steadied: ``OutlineSmoother/Mode-swift.enum/centered(radius:)`` for
        /// files (each outline is drawn once the frames after it are detected, which holds that
        /// many frames in memory), ``OutlineSmoother/Mode-swift.enum/causal`` for live cameras.
        public var smoothing = OutlineSmoother.Mode.centered(radius: 3)
        /// Frames decoded ahead on a thread of their own, so that decoding overlaps detection and
        /// drawing; each is a frame of memory. 0 decodes on the rendering thread, as a live camera
        /// wants: it keeps only its newest frame, and frames read ahead would be stale.
        public var framesReadAhead = 1

        public init() {}
    }

    public struct Progress: Sendable {
        public var framesDone: Int
        public var frameCount: Int?
        public var seconds: Double
        public var framesPerSecond: Double { seconds > 0 ? Double(framesDone) / seconds : 0 }
        /// Seconds left at the current rate, if the frame count is known.
        public var remaining: Double? {
            guard let frameCount, framesDone > 0 else { return nil }
            return Double(frameCount - framesDone) / max(framesPerSecond, 1e-9)
        }
    }

    public struct Summary: Sendable {
        public var frames: Int
        public var documents: Int
        public var seconds: Double
        /// Each document's sharpest frame, when ``Options/marksSharpest`` is on.
        public var sharpestFrames: [Int: Int]
    }

    public let options: Options

    /// The documents' label sharpness: noise-resistant on a 256-pixel view, a quarter of the work
    /// of the 512-pixel view that best-frame selection uses.
    static let labelSharpness = SharpnessOptions(noiseSuppression: 1, regionSize: 256)

    /// Frames drawn but not yet encoded: each is a frame of memory (3 MB at 1080p). Two keep the
    /// encoder fed as well as four did (measured at 720p on two cores); one makes each side wait
    /// for the other whenever a frame is slow.
    static let queuedFrames = 2

    public init(options: Options = Options()) { self.options = options }

    /// Renders every frame of the source that `makeSource` opens into a video at path.
    /// `makeSource` is called twice when ``Options/marksSharpest`` is on. `progress` is called
    /// after each frame; when `isCancelled` returns true, rendering stops, nothing is written at
    /// path, and the error is `.interrupted`.
    /// `drawn` gets each frame's index and the features drawn on it (after steadying), in order.
    public func render(
        _ makeSource: () throws(FocalError) -> any FrameSource, to path: String,
        progress: (Progress) -> Void = { _ in }, isCancelled: () -> Bool = { false },
        drawn: (Int, [any Feature]) -> Void = { _, _ in }
    ) throws(FocalError) -> Summary {
        let clock = ContinuousClock()
        let start = clock.now
        func elapsed() -> Double {
            let d = clock.now - start
            return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
        }
        let sharpest = options.marksSharpest ? try findSharpestFrames(try makeSource(), isCancelled: isCancelled) : [:]
        let opened = try makeSource()
        let source = options.framesReadAhead > 0 ? ReadAheadSource(opened, frames: options.framesReadAhead) : opened
        let size = options.outputSize ?? (source.width, source.height)
        let writer = try VideoWriter(
            path: path, width: size.width, height: size.height,
            framesPerSecond: source.framesPerSecond > 0 ? source.framesPerSecond : 30,
            settings: options.writer)
        let handoff = FrameHandoff(capacity: Self.queuedFrames)
        var smoother = OutlineSmoother(mode: options.smoothing, framesPerSecond: source.framesPerSecond)
        // Frames detected but not yet drawn while the smoother's window fills.
        let drawDelay = options.steadiesOutlines ? smoother.delay : 0
        // Frames in flight: those queued, the one being encoded, the one being drawn (and, with an
        // output size, the drawn frame before it is letterboxed), and those waiting for the window.
        let pool = FramePool(capacity: Self.queuedFrames + 3 + drawDelay)
        let encoded = DispatchSemaphore(value: 0)
        let encoder = UncheckedSendable(writer)
        DispatchQueue.global(qos: .userInitiated).async {
            while true {
                guard let frame = handoff.take() else { break }
                do throws(FocalError) {
                    try encoder.value.append(frame)
                } catch {
                    handoff.fail(error)
                    while handoff.take() != nil {}
                    break
                }
                pool.recycle(consume frame)
            }
            encoded.signal()
        }

        var detectors: [Detector] = []
        var detectorOptions = options.detector
        detectorOptions.tracking = true
        var failure: FocalError?
        var documents = Set<Int>()
        var lastSharpest: (id: Int, frame: Int)?
        var labelScores: [Int: Double] = [:]
        // Frames detected but not yet drawn, the smoother's window ahead of the one to draw. Each
        // is prepared while it is still in the cache from detection (copied, filtered, its
        // sharpness figures taken); only the marks are drawn later.
        struct Pending {
            var frame: Frame
            var detected: [any Feature]
            var index: Int
            var info: (text: String, sharpness: Double)?
        }
        var pending: [Pending] = []
        var detectedCount = 0, drawnCount = 0
        do throws(FocalError) {
            for type in options.types { detectors.append(try Detector(type: type, options: detectorOptions)) }
            let overlay = OverlayRenderer(style: options.style)

            func prepare(_ original: Frame, _ detected: [any Feature], index: Int) throws(FocalError) -> Pending {
                var frame = pool.writableCopy(of: original)
                for filter in options.filters { try filter.apply(to: &frame) }
                for case let rectangle as RectangleFeature in detected {
                    guard let id = rectangle.trackingID else { continue }
                    // Refreshed every third frame: a label changing faster cannot be read anyway.
                    if index % 3 == 0 || labelScores[id] == nil {
                        labelScores[id] = try Sharpness.measure(original, inside: rectangle.quad, options: Self.labelSharpness)
                            .variance
                    }
                }
                let info = options.showsInfo ? try infoText(original: original, index: index) : nil
                return Pending(frame: frame, detected: detected, index: index, info: info)
            }

            func draw(_ prepared: consuming Pending) throws(FocalError) {
                let index = prepared.index, detected = prepared.detected, info = prepared.info
                var frame = prepared.frame
                var features = detected
                if options.steadiesOutlines { features = steady(detected, smoother: smoother, index: index) }
                drawn(index, features)
                var notes: [Int: String] = [:]
                for (i, feature) in features.enumerated() {
                    guard let id = (feature as? RectangleFeature)?.trackingID, let score = labelScores[id] else { continue }
                    notes[i] = "sharpness " + decimal(score, places: 0)
                }
                // The info box stays readable on small frames: never below its 720p size.
                let scale = max(1, OverlayRenderer.scale(width: frame.width, height: frame.height))
                try overlay.draw(
                    features, on: &frame, notes: notes, avoiding: info.map { [infoBox($0.text, scale: scale)] } ?? [])
                for (id, best) in sharpest where best == index {
                    // The highlight follows the frame's own detection, not the steadied outline.
                    if let document = detected.first(where: { $0.trackingID == id }) as? RectangleFeature {
                        try frame.stroke(document.quad.corners, color: .yellow, lineWidth: 7 * max(1, Double(frame.height) / 720))
                    }
                    lastSharpest = (id, index)
                }
                if let last = lastSharpest, index - last.frame < Int(max(1, source.framesPerSecond / 2)) {
                    try frame.label(
                        "sharpest: document #\(last.id), frame \(last.frame)", at: Point(x: 12, y: Double(frame.height) - 40),
                        style: LabelStyle(
                            size: 14 * max(1, Double(frame.height) / 720), textColor: .black,
                            background: Color.yellow.withAlpha(0.9)))
                }
                if let info { try drawInfo(info, on: &frame, scale: scale) }
                if frame.width != size.width || frame.height != size.height {
                    var canvas = pool.uninitializedFrame(width: size.width, height: size.height, format: frame.format)
                    try frame.letterbox(into: &canvas)
                    pool.recycle(consume frame)
                    frame = canvas
                }
                if let error = handoff.put(consume frame) { throw error }
                drawnCount += 1
                progress(Progress(framesDone: drawnCount, frameCount: source.frameCount, seconds: elapsed()))
            }

            while let original = try source.nextFrame() {
                if isCancelled() {
                    throw FocalError(.interrupted, operation: "render overlay", path: path, reason: "interrupted")
                }
                var features: [any Feature] = []
                for detector in detectors { features += try detector.features(in: original) }
                documents.formUnion(features.compactMap { $0.type == .rectangle ? $0.trackingID : nil })
                if options.steadiesOutlines {
                    var quads: [Int: Quad] = [:]
                    for case let rectangle as RectangleFeature in features {
                        if let id = rectangle.trackingID { quads[id] = rectangle.quad }
                    }
                    smoother.add(frame: detectedCount, quads)
                }
                pending.append(try prepare(original, features, index: detectedCount))
                detectedCount += 1
                while pending.count > drawDelay { try draw(pending.removeFirst()) }
            }
            while !pending.isEmpty {
                if isCancelled() {
                    throw FocalError(.interrupted, operation: "render overlay", path: path, reason: "interrupted")
                }
                try draw(pending.removeFirst())
            }
        } catch {
            failure = error
        }
        handoff.close()
        encoded.wait()
        if let error = failure ?? handoff.failure {
            writer.cancel()
            throw error
        }
        try writer.finish()
        return Summary(frames: drawnCount, documents: documents.count, seconds: elapsed(), sharpestFrames: sharpest)
    }

    /// A first pass: each document's sharpest frame, by track.
    private func findSharpestFrames(_ source: any FrameSource, isCancelled: () -> Bool) throws(FocalError) -> [Int: Int] {
        let scanner = try DocumentScanner(detector: options.detector)
        var scans: [DocumentScan] = []
        while let frame = try source.nextFrame() {
            if isCancelled() { throw FocalError(.interrupted, operation: "render overlay", reason: "interrupted") }
            scans += try scanner.process(frame).finished
        }
        scans += scanner.finish()
        return Dictionary(scans.map { ($0.trackingID, $0.bestFrame) }, uniquingKeysWith: { a, _ in a })
    }

    /// The features with each tracked document's outline replaced by the smoother's; a document
    /// the smoother does not draw yet (too few detections) is left out.
    private func steady(_ features: [any Feature], smoother: OutlineSmoother, index: Int) -> [any Feature] {
        let ids = Set(features.compactMap { ($0 as? RectangleFeature)?.trackingID })
        let outlines = smoother.outlines(at: index, detected: ids)
        return features.compactMap { feature in
            guard var rectangle = feature as? RectangleFeature, let id = rectangle.trackingID else { return feature }
            guard let quad = outlines[id] else { return nil }
            rectangle.quad = quad
            return rectangle
        }
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

/// Moves a non-Sendable value to one other thread that alone uses it until the sender waits for it.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
