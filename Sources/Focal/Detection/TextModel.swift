import CFocal

/// The DB text-detection network (4.7 MB), parsed once and then lent to one ``Detector`` at a
/// time (OpenCV's model is not safe to share between threads while detecting): a service that
/// builds a detector per request borrows a parsed model instead of parsing the file each time.
final class TextModel: @unchecked Sendable {
    static let fileName = "ppocr-v4-det.onnx"
    /// PP-OCR's own post-processing settings: pixels above 0.3 are text, a region must average
    /// 0.5, and regions grow by 1.5 (area × ratio / perimeter) back to the text's extent. Unclip
    /// ratios from 1.2 to 2.0 scored within 0.01 F1 of each other on the evaluation set.
    static let binaryThreshold = 0.3
    static let regionThreshold = 0.5
    static let unclipRatio = 1.5
    /// An image whose shorter side is under this many pixels, as it is or as the network would see
    /// it (scaled so that its longer side fills the input), holds no line the network can read, and
    /// the network is not run on it: a pass costs the same whatever the image's size (about 0.25 s of
    /// a core at the standard input, for a 1 x 1 upload too). Raising it skips thicker strips of text.
    static let minimumLegibleSide = 8
    let path: String
    private let handle: OpaquePointer

    private init(path: String) throws(FocalError) {
        handle = try ModelFile.open(path, what: "text model") { cfocal_text_model_open($0, $1) }
        self.path = path
    }

    deinit { cfocal_text_model_free(handle) }

    /// Idle models by file.
    private static let pool = ModelPool<TextModel>()

    /// A model for `path` (nil: the one ``ModelFile`` finds), from the pool or newly parsed.
    static func borrow(path explicitPath: String?) throws(FocalError) -> TextModel {
        let path = try ModelFile.locate(
            fileName, unless: explicitPath, what: "text model", option: "DetectorOptions.text.modelPath")
        return try pool.borrow(path) { () throws(FocalError) in try TextModel(path: path) }
    }

    /// Gives a borrowed model back.
    static func giveBack(_ model: TextModel) { pool.giveBack(model, key: model.path) }

    /// Lines found by the network, in the image's pixel coordinates: the network's segments joined
    /// across gaps of up to `maximumLineGap` heights, then split where their ink leaves a gap wider
    /// than `maximumSegmentGap` heights (0: not split).
    func lines(in frame: Frame, inputSize: Int, maximumLineGap: Double, maximumSegmentGap: Double) throws(FocalError)
        -> [cfocal_text_box]
    {
        let shorter = min(frame.width, frame.height), longer = max(frame.width, frame.height)
        guard shorter >= Self.minimumLegibleSide, shorter * inputSize >= Self.minimumLegibleSide * longer else { return [] }
        var boxes = [cfocal_text_box](repeating: cfocal_text_box(), count: 2000)
        var count: Int32 = 0
        try frame.withShimImage { (image) throws(FocalError) in
            try check(
                cfocal_text_model_detect(
                    handle, &image, Int32(inputSize), Self.binaryThreshold, Self.regionThreshold, Self.unclipRatio,
                    maximumLineGap, maximumSegmentGap, &boxes, Int32(boxes.count), &count),
                "detect text with the model", path: path)
        }
        return Array(boxes.prefix(Int(count)))
    }
}
