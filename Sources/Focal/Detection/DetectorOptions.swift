/// How a ``Detector`` searches, with the names and meanings of Vision's rectangle request and
/// CIDetector's options. Each default is documented where it differs from Vision's.
public struct DetectorOptions: Sendable, Equatable {
    /// Speed against precision, as `CIDetectorAccuracyLow` / `CIDetectorAccuracyHigh`.
    public enum Accuracy: String, Sendable, Codable, CaseIterable {
        /// Candidates found on a 320-pixel image: for live video, 120+ frames per second at 720p.
        case low
        /// Candidates found on a 640-pixel image: finds smaller and fainter documents.
        case high
    }

    /// Default `.high`.
    public var accuracy: Accuracy = .high

    /// Shorter side over longer side, 0…1, below which a rectangle is ignored. Raising it rejects
    /// long thin shapes (rulers, and receipts: a long one is 0.25 to 0.3). Default 0.2 (Vision's
    /// 0.5 would miss receipts; 0.3, until 0.7.47, missed a long receipt scanned to fill the image).
    /// The search weighs shapes down to 0.3 unless asked for narrower ones than 0.2, so between the
    /// two only what it makes narrower is reported: the whole image where it is the document.
    public var minimumAspectRatio: Double = 0.2

    /// Shorter side over longer side above which a rectangle is ignored; 1 allows squares. Default 1.
    public var maximumAspectRatio: Double = 1.0

    /// The smallest feature to report: its shorter side as a fraction of the image's shorter side.
    /// Raising it ignores small things (labels, signs, parts of objects). Default 0.15: Vision's 0.2
    /// misses receipts and ID cards held at arm's length, which come to about 0.2.
    public var minimumSize: Double = 0.15

    /// At most this many features, best first. Raise it to find several documents. Default 1, as Vision.
    public var maximumFeatureCount: Int = 1

    /// The largest deviation, in degrees, of any corner angle from 90°. Raising it accepts steeper
    /// perspective and more non-rectangular shapes. Default 30, as Vision.
    public var quadratureTolerance: Double = 30

    /// Features scoring below this (0…1) are not reported. For rectangles the score is the share of
    /// each side that a real edge supports; raising it trades missed faint documents for fewer
    /// false ones. Default 0.6, chosen so that empty tables give nothing.
    public var minimumConfidence: Double = 0.6

    /// Rectangles whose interior and inner margin (each by its median) are both darker than this
    /// fraction of the frame's brightest 2 % are ignored. Paper is among the brightest things in
    /// view; raising it rejects more grey objects (screens, boxes, signs), lowering it to 0 finds
    /// dark rectangles too. Focal's own option, not Vision's. Default 0.7.
    public var minimumInteriorBrightness: Double = 0.7

    /// Rectangles whose interior is more colourful than this (median HSV saturation, 0…1) are
    /// ignored: pages are printed on near-neutral paper, while books, boxes and devices mostly are
    /// not. Measured only on colour frames. Lower it to reject tinted paper too; 1 accepts any
    /// colour. Focal's own option. Default 0.35.
    public var maximumInteriorSaturation: Double = 0.35

    /// With ``tracking`` on, a feature that would start a new track must reach this confidence; one
    /// that continues a track needs only ``minimumConfidence``. Raising it makes new documents wait
    /// for clearer evidence (a frame or two later) and suppresses shapes that flicker into view for
    /// a single frame. Default 0.8.
    public var acquisitionConfidence: Double = 0.8

    /// Give each feature a `trackingID` that stays the same while the object stays in view
    /// (`CIDetectorTracking`). The detector then keeps state: use one detector per stream. A
    /// document found only weakly where its track was heading (a frame smeared by the camera's
    /// swing) is held there for a frame or two, at its track's confidence decayed each frame. A
    /// rectangle detector without tracking reads an image whose first look it doubts at a second,
    /// finer input of the page network (224 after 160 at `.high`; 160 after 96 at `.low`, since
    /// 0.7.68), the surer quads for a still; with tracking, each search reads one, to keep live
    /// video's frame budget.
    public var tracking: Bool = false

    /// Rectangle detectors find documents with Focal's learned page detector
    /// (`page-detector.onnx`, a resource of the library): a small network proposes each page, also
    /// where a hand, a cable or a pale desk hides its edges, and ignores things that only look like pages (screens,
    /// windows, boxes); the image's edges then place its corners. The confidence is then the
    /// network's. Turn it off to find any bright rectangle from edges and outlines alone, as Focal did
    /// before (``minimumInteriorBrightness`` and ``maximumInteriorSaturation`` apply only then).
    /// Default true.
    public var usesPageModel: Bool = true

    /// The page model's file, at either accuracy; nil looks for `page-detector.onnx` where the text
    /// model is looked for (`$FOCAL_MODELS`, then the models Focal ships as resources of the library).
    public var pageModelPath: String? = nil

    /// Settings for text detectors only.
    public var text = TextDetectionOptions()

    /// Options with Vision's defaults; each parameter sets the property of the same meaning.
    public init(
        accuracy: Accuracy = .high, minimumAspectRatio: Double = 0.2, maximumAspectRatio: Double = 1.0,
        minimumSize: Double = 0.15, maximumFeatureCount: Int = 1, quadratureTolerance: Double = 30,
        minimumConfidence: Double = 0.6, minimumInteriorBrightness: Double = 0.7, maximumInteriorSaturation: Double = 0.35,
        acquisitionConfidence: Double = 0.8, tracking: Bool = false, text: TextDetectionOptions = TextDetectionOptions(),
        usesPageModel: Bool = true, pageModelPath: String? = nil
    ) {
        self.accuracy = accuracy
        self.minimumAspectRatio = minimumAspectRatio
        self.maximumAspectRatio = maximumAspectRatio
        self.minimumSize = minimumSize
        self.maximumFeatureCount = maximumFeatureCount
        self.quadratureTolerance = quadratureTolerance
        self.minimumConfidence = minimumConfidence
        self.minimumInteriorBrightness = minimumInteriorBrightness
        self.maximumInteriorSaturation = maximumInteriorSaturation
        self.acquisitionConfidence = acquisitionConfidence
        self.tracking = tracking
        self.text = text
        self.usesPageModel = usesPageModel
        self.pageModelPath = pageModelPath
    }

    func validated() throws(FocalError) -> DetectorOptions {
        func bad(_ what: String) -> FocalError { FocalError(.invalidArgument, operation: "configure detector", reason: what) }
        guard (0...1).contains(minimumAspectRatio), (0...1).contains(maximumAspectRatio), minimumAspectRatio <= maximumAspectRatio
        else {
            throw bad("aspect ratios must satisfy 0 ≤ minimum ≤ maximum ≤ 1")
        }
        guard (0...1).contains(minimumSize) else { throw bad("minimumSize must be 0…1") }
        guard maximumFeatureCount >= 1 else { throw bad("maximumFeatureCount must be at least 1") }
        guard (0...90).contains(quadratureTolerance) else { throw bad("quadratureTolerance must be 0…90 degrees") }
        guard (0...1).contains(minimumConfidence) else { throw bad("minimumConfidence must be 0…1") }
        guard (0...1).contains(minimumInteriorBrightness) else { throw bad("minimumInteriorBrightness must be 0…1") }
        guard (0...1).contains(maximumInteriorSaturation) else { throw bad("maximumInteriorSaturation must be 0…1") }
        guard (0...1).contains(acquisitionConfidence) else { throw bad("acquisitionConfidence must be 0…1") }
        _ = try text.validated()
        return self
    }
}
