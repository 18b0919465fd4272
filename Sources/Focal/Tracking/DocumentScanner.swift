/// A document seen in a stream, from its first frame to its last, with its sharpest frame.
public struct DocumentScan: Sendable {
    /// The document's track.
    public var trackingID: Int
    /// The first frame the document was seen in.
    public var firstFrame: Int
    /// The last frame the document was seen in.
    public var lastFrame: Int
    /// The index of the frame where the document was sharpest (measured inside the document).
    public var bestFrame: Int
    /// Its sharpness on the best frame, measured inside the document.
    public var sharpness: SharpnessScore
    /// The document's corners in the best frame.
    public var quad: Quad
    /// The best frame as it was read.
    public var frame: Frame

    /// A scan with these values; ``DocumentScanner`` makes them.
    public init(
        trackingID: Int, firstFrame: Int, lastFrame: Int, bestFrame: Int, sharpness: SharpnessScore, quad: Quad, frame: Frame
    ) {
        self.trackingID = trackingID
        self.firstFrame = firstFrame
        self.lastFrame = lastFrame
        self.bestFrame = bestFrame
        self.sharpness = sharpness
        self.quad = quad
        self.frame = frame
    }

    /// The whole of `frame` as a scan, for an input where no document was found but a page is
    /// wanted anyway (`focal scan --whole-image-if-none`): its corners are the image's, and
    /// flattening it gives the image back. `index` is the frame's place in its stream.
    public static func wholeImage(_ frame: Frame, frame index: Int) throws(FocalError) -> DocumentScan {
        let quad = Quad(wholeImageOfWidth: frame.width, height: frame.height)
        return DocumentScan(
            trackingID: 1, firstFrame: index, lastFrame: index, bestFrame: index,
            sharpness: try Sharpness.measure(frame, options: .noiseResistant), quad: quad, frame: frame)
    }

    /// Orders scans as a reader meets them: by the frame each was first seen in, then by track.
    public static func firstSeenFirst(_ a: DocumentScan, _ b: DocumentScan) -> Bool {
        (a.firstFrame, a.trackingID) < (b.firstFrame, b.trackingID)
    }

    /// The document perspective-corrected: at its true proportions (estimated from the camera
    /// geometry, see ``Quad/estimatedAspectRatio(imageWidth:imageHeight:focalLength:)``) and at the source's full
    /// resolution (no side of the page shrinks), in BGR (gray for gray sources).
    public func flattened() throws(FocalError) -> Frame {
        try frame.flattenedUnchecked(through: quad)
    }
}

/// Finds documents in a stream of frames, follows each with a stable tracking ID, and keeps the
/// sharpest frame of each, measured inside the document so that a sharp background does not
/// count. A document is reported when it leaves view (no sighting for ``maximumMissedFrames``
/// frames) or when the stream ends.
///
/// ```swift
/// let scanner = try DocumentScanner()
/// while let frame = try reader.read() {
///     for scan in try scanner.process(frame).finished { try scan.flattened().write(to: "doc\(scan.trackingID).png") }
/// }
/// for scan in scanner.finish() { … }
/// ```
public final class DocumentScanner {
    /// How frames are compared to find each document's sharpest.
    public let sharpness: SharpnessOptions
    /// Frames a document may go unseen (detection blinks, a hand passes over it) before it counts
    /// as gone. Raising it bridges longer gaps and reports documents later.
    public let maximumMissedFrames: Int
    private let detector: Detector
    private var open: [Int: DocumentScan] = [:]
    private var frameIndex = 0

    /// - Parameters:
    ///   - options: rectangle options; tracking is switched on. Default: up to two documents.
    ///   - sharpness: how frames are compared; the default resists sensor noise and compression.
    ///   - maximumMissedFrames: see ``maximumMissedFrames``.
    public init(
        detector options: DetectorOptions = DetectorOptions(maximumFeatureCount: 2),
        sharpness: SharpnessOptions = .noiseResistant,
        maximumMissedFrames: Int = 8
    ) throws(FocalError) {
        var tracked = options
        tracked.tracking = true
        detector = try Detector(type: .rectangle, options: tracked)
        self.sharpness = sharpness
        self.maximumMissedFrames = maximumMissedFrames
    }

    /// The documents in one photo, as the scans of a stream of one frame, numbered from 1 in the
    /// detector's order. They are found as ``Detector`` finds them in a still: without tracking, so
    /// a page needs ``DetectorOptions/minimumConfidence`` rather than a new track's
    /// ``DetectorOptions/acquisitionConfidence``.
    public static func scans(
        inPhoto frame: Frame, detector options: DetectorOptions = DetectorOptions(maximumFeatureCount: 2),
        sharpness: SharpnessOptions = .noiseResistant
    ) throws(FocalError) -> [DocumentScan] {
        var still = options
        still.tracking = false
        return try Detector(type: .rectangle, options: still).rectangles(in: frame).enumerated().map {
            (index, page) throws(FocalError) in
            DocumentScan(
                trackingID: index + 1, firstFrame: 0, lastFrame: 0, bestFrame: 0,
                sharpness: try Sharpness.measure(frame, inside: page.quad, options: sharpness), quad: page.quad, frame: frame)
        }
    }

    /// Detects documents in the next frame. Returns them (with tracking IDs) and the documents that
    /// have just left view.
    public func process(_ frame: Frame) throws(FocalError) -> (documents: [RectangleFeature], finished: [DocumentScan]) {
        let index = frameIndex
        frameIndex += 1
        let documents = try detector.rectangles(in: frame)
        for document in documents {
            guard let id = document.trackingID else { continue }
            let score = try Sharpness.measure(frame, inside: document.quad, options: sharpness)
            if var scan = open[id] {
                scan.lastFrame = index
                if score > scan.sharpness {
                    scan.bestFrame = index
                    scan.sharpness = score
                    scan.quad = document.quad
                    scan.frame = frame
                }
                open[id] = scan
            } else {
                open[id] = DocumentScan(
                    trackingID: id, firstFrame: index, lastFrame: index, bestFrame: index, sharpness: score,
                    quad: document.quad, frame: frame)
            }
        }
        let gone = open.values.filter { index - $0.lastFrame > maximumMissedFrames }.sorted { $0.trackingID < $1.trackingID }
        for scan in gone { open[scan.trackingID] = nil }
        return (documents, gone)
    }

    /// Ends the stream: every document still open, in the order they appeared.
    public func finish() -> [DocumentScan] {
        let remaining = open.values.sorted { $0.firstFrame < $1.firstFrame }
        open = [:]
        return remaining
    }
}
