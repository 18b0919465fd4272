import Dispatch

/// Renders a stream with its detections drawn on it into a video file: what `focal overlay` does.
///
/// Three stages overlap across cores, joined by short bounded queues: decoding on a thread of its
/// own, detection and drawing on the calling thread, and encoding on others. Frames stay in
/// order, and memory stays flat however long the video.
public final class OverlayVideoRender {
    /// What a render detects and how it draws and encodes.
    public struct Options: Sendable {
        /// What to detect and draw; empty draws only the info badge.
        public var types: [FeatureType] = [.rectangle]
        /// The detectors' options; tracking is switched on for streams.
        public var detector = DetectorOptions(maximumFeatureCount: 4)
        /// Applied to each frame (after detection, which sees the original) before drawing.
        public var filters: [FrameFilter] = []
        /// Fit every frame into this size, letterboxed; nil keeps the source's size.
        public var outputSize: (width: Int, height: Int)?
        /// How features are drawn.
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

        /// The defaults: documents, steadied, with the info badge, into lean H.264.
        public init() {}
    }

    /// How far a render has come.
    public struct Progress: Sendable {
        /// Frames drawn and queued for the encoder.
        public var framesDone: Int
        /// Frames in the source, when it says.
        public var frameCount: Int?
        /// Seconds since the render started.
        public var seconds: Double
        /// Frames drawn per second so far.
        public var framesPerSecond: Double { seconds > 0 ? Double(framesDone) / seconds : 0 }
        /// Seconds left at the current rate, if the frame count is known.
        public var remaining: Double? {
            guard let frameCount, framesDone > 0 else { return nil }
            return Double(frameCount - framesDone) / max(framesPerSecond, 1e-9)
        }
    }

    /// What a finished render did.
    public struct Summary: Sendable {
        /// Frames written.
        public var frames: Int
        /// Documents outlined (see ``OverlayFrameRenderer/documentCount``).
        public var documents: Int
        /// Seconds the render took.
        public var seconds: Double
        /// Each document's sharpest frame, when ``Options/marksSharpest`` is on.
        public var sharpestFrames: [Int: Int]
    }

    /// What is detected and how it is drawn.
    public let options: Options

    /// Frames drawn but not yet encoded: each is a frame of memory (3 MB at 1080p). Two keep the
    /// encoder fed as well as four did (measured at 720p on two cores); one makes each side wait
    /// for the other whenever a frame is slow.
    static let queuedFrames = 2

    /// A render with these options.
    public init(options: Options = Options()) { self.options = options }

    /// Renders every frame of the source that `makeSource` opens into a video at path.
    /// `makeSource` is called twice when ``Options/marksSharpest`` is on. `progress` is called
    /// after each frame; when `isCancelled` returns true, rendering stops, nothing is written at
    /// path, and the error is `.interrupted`.
    /// `drawn` gets each frame's index and the features drawn on it (after steadying), in order.
    public func render(
        _ makeSource: () throws(FocalError) -> any FrameSource, to path: String,
        progress: (Progress) -> Void = { _ in }, isCancelled: () -> Bool = { false },
        drawn: @escaping (Int, [any Feature]) -> Void = { _, _ in }
    ) throws(FocalError) -> Summary {
        let clock = ContinuousClock()
        let start = clock.now
        func elapsed() -> Double {
            let d = clock.now - start
            return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
        }
        let sharpest = options.marksSharpest ? try findSharpestDocuments(try makeSource(), isCancelled: isCancelled) : []
        let opened = try makeSource()
        let source = options.framesReadAhead > 0 ? ReadAheadSource(opened, frames: options.framesReadAhead) : opened
        let size = options.outputSize ?? (source.width, source.height)
        let writer = try VideoWriter(
            path: path, width: size.width, height: size.height,
            framesPerSecond: source.framesPerSecond > 0 ? source.framesPerSecond : 30, settings: options.writer)
        // Frames in flight: those queued, the one being encoded, the one being drawn (and, with an
        // output size, the drawn frame before it is letterboxed), and those waiting for the window.
        let pool = FramePool(capacity: Self.queuedFrames + 3 + OutlineSmoother(mode: options.smoothing).delay)
        let encoder = EncoderThread(writer, pool: pool)
        var renderer: OverlayFrameRenderer?
        do throws(FocalError) {
            let step = try OverlayFrameRenderer(
                options: options, framesPerSecond: source.framesPerSecond, isSingleImage: false, sharpest: sharpest, pool: pool)
            step.onDrawn = drawn
            renderer = step
            func send(_ frames: [Frame]) throws(FocalError) {
                for frame in frames {
                    try encoder.send(frame)
                    progress(Progress(framesDone: step.framesDrawn, frameCount: source.frameCount, seconds: elapsed()))
                }
            }
            func stopIfCancelled() throws(FocalError) {
                if isCancelled() {
                    throw FocalError(.interrupted, operation: "render overlay", path: path, reason: "interrupted")
                }
            }
            while let original = try source.nextFrame() {
                try stopIfCancelled()
                try send(try step.add(original))
            }
            try stopIfCancelled()
            try send(try step.finish())
        } catch {
            encoder.stop()
            writer.cancel()
            throw error
        }
        try encoder.finish()
        return Summary(
            frames: renderer?.framesDrawn ?? 0, documents: renderer?.documentCount ?? 0, seconds: elapsed(),
            sharpestFrames: Dictionary(sharpest.map { ($0.trackingID, $0.bestFrame) }, uniquingKeysWith: { a, _ in a }))
    }

    /// A first pass: each document at its sharpest frame. The second pass draws these quads at
    /// these frames, whatever track IDs its own detectors give.
    private func findSharpestDocuments(_ source: any FrameSource, isCancelled: () -> Bool) throws(FocalError) -> [DocumentScan] {
        let scanner = try DocumentScanner(detector: options.detector)
        var scans: [DocumentScan] = []
        while let frame = try source.nextFrame() {
            if isCancelled() { throw FocalError(.interrupted, operation: "render overlay", reason: "interrupted") }
            scans += try scanner.process(frame).finished
        }
        return scans + scanner.finish()
    }

    /// Encodes drawn frames on a thread of its own, a few frames behind the renderer.
    private final class EncoderThread: Sendable {
        private let handoff = FrameHandoff(capacity: OverlayVideoRender.queuedFrames)
        private let done = DispatchSemaphore(value: 0)
        private let writer: UncheckedSendable<VideoWriter>

        init(_ writer: VideoWriter, pool: FramePool) {
            self.writer = UncheckedSendable(writer)
            let handoff = handoff, done = done, encoder = self.writer
            DispatchQueue.global(qos: .userInitiated).async {
                while let frame = handoff.take() {
                    do throws(FocalError) {
                        try encoder.value.append(frame)
                    } catch {
                        handoff.fail(error)
                        while handoff.take() != nil {}
                        break
                    }
                    pool.recycle(consume frame)
                }
                done.signal()
            }
        }

        /// Queues frame, waiting for room; throws the encoder's failure instead, if it failed.
        func send(_ frame: consuming Frame) throws(FocalError) {
            if let error = handoff.put(frame) { throw error }
        }

        /// Lets the encoder drain and stop, leaving the writer to the caller.
        func stop() {
            handoff.close()
            done.wait()
        }

        /// Encodes what is queued and finishes the file; throws the encoder's failure, if any.
        func finish() throws(FocalError) {
            stop()
            if let error = handoff.failure {
                writer.value.cancel()
                throw error
            }
            try writer.value.finish()
        }
    }
}
