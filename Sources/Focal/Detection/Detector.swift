import CFocal

/// Finds features of one type in frames, as `CIDetector` does.
///
/// ```swift
/// let detector = try Detector(type: .rectangle, options: .init(maximumFeatureCount: 3))
/// for case let page as RectangleFeature in try detector.features(in: frame) { … }
/// ```
///
/// With ``DetectorOptions/tracking`` on, a detector remembers the previous frame to keep tracking
/// IDs stable: use one detector per stream. A detector belongs to one task at a time.
public final class Detector {
    /// What the detector finds.
    public let type: FeatureType
    /// How it looks, checked when it was made.
    public let options: DetectorOptions
    private var tracker = FeatureTracker()
    private var previousQuads: [Quad] = []
    /// The confidence reported for each of previousQuads.
    private var previousConfidences: [Double] = []
    private let hold = ConfidenceHold()
    private let coast = TrackCoast()
    /// Where each document of the previous frame was last found, aligned with previousQuads.
    private var previousSightings: [TrackCoast.Sighting] = []
    /// Each document track's quad in the last frame, to predict where it will be in the next.
    private var lastQuadByTrack: [Int: Quad] = [:]
    private var framesSinceDiscovery = 0
    /// Frames between full searches for new documents while known ones are being confirmed.
    static let discoveryInterval = 10
    private let cascadeFolder: String?
    private let textSearch: TextSearch?
    private let pageModel: PageModel?
    /// The page model at the accuracy's second input, for frames in which `pageModel` found nothing
    /// or only a quad it agrees with weakly.
    private let secondLookPageModel: PageModel?
    /// The page model at the accuracy's input for frames in which `pageModel` found nothing at all
    /// and `secondLookPageModel` nothing filling the frame; what it finds replaces the second look's.
    private let emptyFrameLookPageModel: PageModel?
    /// The page model at the accuracy's finer input, whose maps are blended into `pageModel`'s on
    /// every search of a detector that does not track (a still image on its own).
    private let finerViewPageModel: PageModel?

    /// - Throws: `.invalidArgument` for options out of range; `.modelMissing` for `.face` when
    ///   OpenCV's Haar cascades (Debian's `opencv-data`) are not installed, and for `.text` at
    ///   `.high` accuracy when the DB model (`ppocr-v4-det.onnx`) cannot be found, and for
    ///   `.rectangle` when the page model (`page-detector.onnx`) cannot be found or read (unless
    ///   ``DetectorOptions/usesPageModel`` is off).
    public init(type: FeatureType, options: DetectorOptions = DetectorOptions()) throws(FocalError) {
        self.type = type
        self.options = try options.validated()
        cascadeFolder = type == .face ? try HaarCascades.folder() : nil
        textSearch = type == .text ? try TextSearch(options: self.options) : nil
        let learned = type == .rectangle && options.usesPageModel
        let profile = AccuracyProfile.of(options.accuracy)
        pageModel = learned ? try PageModel.borrow(path: options.pageModelPath, for: options.accuracy) : nil
        secondLookPageModel = learned ? try Self.borrowLook(at: profile.secondLookPageModelInput, options) : nil
        emptyFrameLookPageModel = learned ? try Self.borrowLook(at: profile.emptyFrameLookPageModelInput, options) : nil
        // At .low the finer view and the second look are the same model at the same input: one
        // borrowed model serves both, and the shim reuses the finer view's maps for the second look.
        if !learned || options.tracking {
            finerViewPageModel = nil
        } else if profile.finerViewPageModelInput == profile.secondLookPageModelInput {
            finerViewPageModel = secondLookPageModel
        } else {
            finerViewPageModel = try Self.borrowLook(at: profile.finerViewPageModelInput, options)
        }
    }

    /// The accuracy's page model at `input`, for a look after the first (nil: no such look).
    private static func borrowLook(at input: Int?, _ options: DetectorOptions) throws(FocalError) -> PageModel? {
        let fileName = AccuracyProfile.of(options.accuracy).pageModelFile
        return try input.map { (input) throws(FocalError) in
            try PageModel.borrow(path: options.pageModelPath, fileName: fileName, inputSize: input)
        }
    }

    deinit {
        if let pageModel { PageModel.giveBack(pageModel) }
        if let secondLookPageModel { PageModel.giveBack(secondLookPageModel) }
        if let emptyFrameLookPageModel { PageModel.giveBack(emptyFrameLookPageModel) }
        if let finerViewPageModel, finerViewPageModel !== secondLookPageModel { PageModel.giveBack(finerViewPageModel) }
    }

    /// The features in frame, best first. If `orientation` is given (or the frame carries one other
    /// than `.up`), the frame is turned upright first and the features are in the upright image's
    /// coordinates.
    public func features(in frame: Frame, orientation: Orientation? = nil) throws(FocalError) -> [any Feature] {
        var upright = frame
        if let orientation { upright.orientation = orientation }
        upright = try upright.oriented()
        var found: [any Feature]
        let quads: [Quad]
        var sightings: [TrackCoast.Sighting] = []
        switch type {
        case .rectangle:
            let rectangles: [RectangleFeature]
            (rectangles, sightings) = try documents(in: upright)
            found = rectangles
            quads = rectangles.map(\.quad)
        case .qrCode:
            let codes = try QRCodeSearch.run(upright, limit: options.maximumFeatureCount)
            found = codes
            quads = codes.map(\.quad)
        case .face:
            let faces = try FaceSearch.run(upright, folder: cascadeFolder ?? "", options: options)
            found = faces
            quads = faces.map { Quad($0.bounds) }
        case .text:
            let lines = try textSearch?.run(upright) ?? []
            found = lines
            quads = lines.map(\.quad)
        }
        if options.tracking { track(&found, quads: quads, sightings: sightings) }
        return found
    }

    /// The documents in an upright frame. While tracking, most frames only confirm where the
    /// documents already are; the full search runs every `discoveryInterval` frames, or when a
    /// document is not confirmed, and a document it finds only weakly may be held, one it does not
    /// find at all carried. Each document comes with its sighting while tracking (none otherwise).
    private func documents(in upright: Frame) throws(FocalError) -> ([RectangleFeature], [TrackCoast.Sighting]) {
        if options.tracking, !previousQuads.isEmpty, framesSinceDiscovery < Self.discoveryInterval {
            let confirmed = try RectangleSearch.run(
                upright, options: options, pageModel: pageModel, priors: previousQuads, priorsOnly: true)
            if confirmed.count == previousQuads.count, confirmed.allSatisfy({ $0.confidence >= options.minimumConfidence }) {
                framesSinceDiscovery += 1
                return (confirmed, confirmed.map { TrackCoast.Sighting(frame: upright, quad: $0.quad) })
            }
        }
        framesSinceDiscovery = 0
        let priors = options.tracking ? previousQuads : []
        let found = try RectangleSearch.run(
            upright, options: options, pageModel: pageModel, secondLookPageModel: secondLookPageModel,
            emptyFrameLookPageModel: emptyFrameLookPageModel, finerViewPageModel: finerViewPageModel, priors: priors)
        let held = try heldDocuments(in: upright, found: found)
        guard options.tracking else { return (found, []) }
        var documents = (found + held).map { ($0, TrackCoast.Sighting(frame: upright, quad: $0.quad)) }
        documents += try carriedDocuments(in: upright, beside: found + held)
        // Best first, as a search reports them: a held or carried document may be surer than one just found.
        if documents.count > found.count { documents.sort { $0.0.confidence > $1.0.confidence } }
        return (documents.map(\.0), documents.map(\.1))
    }

    /// Documents of the previous frame that nothing found in this one continues, carried to where
    /// their tracks were heading while the frame there still looks as it did (``TrackCoast``).
    private func carriedDocuments(in upright: Frame, beside found: [RectangleFeature]) throws(FocalError)
        -> [(RectangleFeature, TrackCoast.Sighting)]
    {
        var carried: [(RectangleFeature, TrackCoast.Sighting)] = []
        for (index, expected) in previousQuads.enumerated() where index < previousSightings.count {
            let confidence = previousConfidences[index] * coast.retention
            let reported = found + carried.map(\.0)
            guard confidence >= options.minimumConfidence, reported.count < options.maximumFeatureCount,
                !reported.contains(where: { $0.quad.intersectionOverUnion(with: expected) > 0 }),
                let (quad, sighting) = try coast.carry(previousSightings[index], to: expected, in: upright)
            else { continue }
            carried.append((RectangleFeature(quad: quad, confidence: confidence), sighting))
        }
        return carried
    }

    /// Documents of the previous frame that the search found only weakly where they were heading,
    /// held at their tracks' decaying confidence (``ConfidenceHold``).
    private func heldDocuments(in upright: Frame, found: [RectangleFeature]) throws(FocalError) -> [RectangleFeature] {
        let expected = zip(previousQuads, previousConfidences).map { ConfidenceHold.Expected(quad: $0, confidence: $1) }
        guard options.tracking, found.count < options.maximumFeatureCount,
            hold.isMissing(expected, from: found, minimum: options.minimumConfidence)
        else { return [] }
        var relaxed = options
        relaxed.minimumConfidence = hold.floor
        let weak = try RectangleSearch.run(
            upright, options: relaxed, pageModel: pageModel, secondLookPageModel: secondLookPageModel,
            emptyFrameLookPageModel: emptyFrameLookPageModel, priors: previousQuads)
        let held = hold.held(weak, expected: expected, found: found, minimum: options.minimumConfidence)
        return Array(held.prefix(options.maximumFeatureCount - found.count))
    }

    /// Gives the features their tracking IDs and remembers their quads for the next frame.
    private func track(_ found: inout [any Feature], quads: [Quad], sightings: [TrackCoast.Sighting]) {
        var quads = quads
        // Hysteresis keeps a flickering shape from starting a document track; text lines come
        // by the dozen and their scores are not comparable with a document's, so none applies.
        let acquisition = type == .text ? 0 : options.acquisitionConfidence
        let kept = tracker.assign(&found, quads: &quads, acquisition: acquisition)
        previousQuads = quads
        previousConfidences = found.map(\.confidence)
        guard type == .rectangle else { return }
        // sightings are aligned with found as it was before assign().
        previousSightings = kept.map { sightings[$0] }
        // The next frame's search starts where each document is heading, not where it was: the
        // confirmation refines only a few pixels around its starting quad, and a page moving
        // faster than that would be reported where it was a frame ago.
        var latest: [Int: Quad] = [:]
        for (index, feature) in found.enumerated() where index < quads.count {
            guard let id = feature.trackingID else { continue }
            latest[id] = quads[index]
            if let last = lastQuadByTrack[id] { previousQuads[index] = quads[index].extrapolated(from: last) }
        }
        lastQuadByTrack = latest
    }

    /// Forgets the features followed so far, for a stream that cuts to an unrelated scene (an
    /// edit in a video, the next photo of a series): the next frame gets a full search, and its
    /// features new tracking IDs (never one given before).
    public func resetTracking() {
        tracker.endTracks()
        previousQuads = []
        previousConfidences = []
        previousSightings = []
        lastQuadByTrack = [:]
        framesSinceDiscovery = 0
    }

    /// What the page network sees in frame: a gray image of its page probability (255 = surely
    /// page), at the network's input as this detector gives it the frame (at about the frame's
    /// proportions, its shorter side the input size of the detector's accuracy). Nil for detectors
    /// without the page model. For looking at why a page was or was not found.
    public func pageMap(for frame: Frame) throws(FocalError) -> Frame? {
        guard let pageModel else { return nil }
        let upright = try frame.oriented()
        let probability = try pageModel.pageProbability(in: upright, view: AccuracyProfile.of(options.accuracy).pageModelView)
        let bytes = probability.values.map { UInt8(max(0, min(255, ($0 * 255).rounded()))) }
        // withUnsafeBytes rethrows untyped: the Frame's typed error comes out as a Result.
        let map: Result<Frame, FocalError> = bytes.withUnsafeBytes { raw in
            do throws(FocalError) {
                return .success(
                    try Frame(
                        width: probability.width, height: probability.height, format: .gray8, bytesPerRow: probability.width,
                        bytes: raw))
            } catch {
                return .failure(error)
            }
        }
        return try map.get()
    }

    /// The rectangles in frame, for a detector of type `.rectangle`.
    public func rectangles(in frame: Frame, orientation: Orientation? = nil) throws(FocalError) -> [RectangleFeature] {
        try features(in: frame, orientation: orientation).compactMap { $0 as? RectangleFeature }
    }
}

/// Where OpenCV's Haar cascades are installed.
enum HaarCascades {
    static let candidates = [
        "/usr/share/opencv4/haarcascades", "/usr/share/opencv/haarcascades",
        "/usr/local/share/opencv4/haarcascades",
    ]

    static func folder() throws(FocalError) -> String {
        let file = "haarcascade_frontalface_default.xml"
        for folder in candidates where FileAccess.exists(folder + "/" + file) { return folder }
        throw FocalError(
            .modelMissing, operation: "load the face model", path: candidates[0] + "/" + file,
            reason: "OpenCV's Haar cascades are not installed (apt-get install opencv-data)")
    }
}

enum RectangleSearch {
    static func run(
        _ frame: Frame, options: DetectorOptions, pageModel: PageModel?, secondLookPageModel: PageModel? = nil,
        emptyFrameLookPageModel: PageModel? = nil, finerViewPageModel: PageModel? = nil, priors: [Quad] = [],
        priorsOnly: Bool = false
    ) throws(FocalError) -> [RectangleFeature] {
        let priorQuads = priors.map(\.shim)
        var results = [cfocal_quad](repeating: cfocal_quad(), count: options.maximumFeatureCount)
        var count: Int32 = 0
        try priorQuads.withUnsafeBufferPointer { (priorBuffer) throws(FocalError) in
            let profile = AccuracyProfile.of(options.accuracy)
            var settings = cfocal_quad_options(
                working_size: Int32(profile.workingSize), max_results: Int32(options.maximumFeatureCount),
                min_size: options.minimumSize, min_aspect_ratio: options.minimumAspectRatio,
                max_aspect_ratio: options.maximumAspectRatio, quadrature_tolerance: options.quadratureTolerance,
                min_confidence: options.minimumConfidence, min_interior_brightness: options.minimumInteriorBrightness,
                max_interior_saturation: options.maximumInteriorSaturation, refine: 1, priors: priorBuffer.baseAddress,
                prior_count: Int32(priorBuffer.count), priors_only: priorsOnly ? 1 : 0, page_model: pageModel?.handle,
                page_model_input: Int32(pageModel?.inputSize ?? 0), page_model_view: Int32(profile.pageModelView.rawValue),
                second_look_model: secondLookPageModel?.handle, second_look_input: Int32(secondLookPageModel?.inputSize ?? 0),
                page_outline_lines: Int32(profile.outlineLines.rawValue), straight_edge_count: Int32(profile.straightEdgeCount),
                cut_sheets_on_clear_edges: profile.cutsSheetsOnClearEdges ? 1 : 0,
                image_lines_where_unedged: profile.joinsImageLinesWhereUnedged ? 1 : 0,
                empty_frame_look_model: emptyFrameLookPageModel?.handle,
                empty_frame_look_input: Int32(emptyFrameLookPageModel?.inputSize ?? 0),
                lenient_on_unprinted_sheets: profile.isLenientOnUnprintedSheets ? 1 : 0,
                frame_over_doubted_quads: profile.takesTheFrameOverDoubtedQuads ? 1 : 0,
                finer_view_model: finerViewPageModel?.handle, finer_view_input: Int32(finerViewPageModel?.inputSize ?? 0),
                recount_picture_pages: profile.recountsPicturePages ? 1 : 0,
                run_on_from_fitted_corners: profile.asksRunOnFromFittedCorners ? 1 : 0,
                finer_view_spares_filled_frames: profile.sparesFilledFramesTheFinerView ? 1 : 0)
            try frame.withShimImage { (image) throws(FocalError) in
                try check(cfocal_detect_quads(&image, &settings, &results, Int32(results.count), &count), "detect rectangles")
            }
        }
        return results.prefix(Int(count)).map { RectangleFeature(quad: Quad(shim: $0), confidence: $0.confidence) }
    }
}

enum QRCodeSearch {
    static func run(_ frame: Frame, limit: Int) throws(FocalError) -> [QRCodeFeature] {
        var results = [cfocal_qr](repeating: cfocal_qr(), count: max(1, limit))
        var count: Int32 = 0
        try frame.withShimImage { (image) throws(FocalError) in
            try check(cfocal_detect_qr(&image, &results, Int32(results.count), &count), "detect QR codes")
        }
        return results.prefix(Int(count)).map { r in
            let message = withUnsafeBytes(of: r.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            return QRCodeFeature(
                quad: Quad(unordered: Quad.corners(x: r.x, y: r.y)),
                messageString: message.isEmpty ? nil : message)
        }
    }
}

enum FaceSearch {
    static func run(_ frame: Frame, folder: String, options: DetectorOptions) throws(FocalError) -> [FaceFeature] {
        var results = [cfocal_face](repeating: cfocal_face(), count: max(1, options.maximumFeatureCount))
        var count: Int32 = 0
        let minimumSide = options.minimumSize * Double(min(frame.width, frame.height))
        try frame.withShimImage { (image) throws(FocalError) in
            try check(
                cfocal_detect_faces(
                    &image, folder, minimumSide, AccuracyProfile.of(options.accuracy).findsFaceLandmarks ? 1 : 0, &results,
                    Int32(results.count), &count), "detect faces", path: folder)
        }
        return results.prefix(Int(count)).compactMap { r in
            guard r.confidence >= options.minimumConfidence * 0.5 else { return nil }
            func point(_ x: Double, _ y: Double) -> Point? { x.isNaN || y.isNaN ? nil : Point(x: x, y: y) }
            return FaceFeature(
                bounds: Rect(x: r.x, y: r.y, width: r.width, height: r.height), confidence: r.confidence,
                leftEyePosition: point(r.eyes.0, r.eyes.1), rightEyePosition: point(r.eyes.2, r.eyes.3),
                mouthPosition: point(r.mouth.0, r.mouth.1))
        }
    }
}
