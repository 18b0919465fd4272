import CFocal

/// Focal's learned page detector (`page-detector.onnx` at both accuracies:
/// ``AccuracyProfile/pageModelFile``), loaded on first use. OpenCV's
/// network is not safe to share between threads while it runs, so each ``Detector`` borrows one
/// from a process-wide pool and returns it when it is freed: services that make a detector per
/// request do not parse the model each time.
final class PageModel: @unchecked Sendable {
    let path: String
    let inputSize: Int
    let handle: OpaquePointer

    private init(path: String, inputSize: Int) throws(FocalError) {
        handle = try ModelFile.open(path, what: "page model") { cfocal_page_model_open($0, $1) }
        self.path = path
        self.inputSize = inputSize
    }

    deinit { cfocal_page_model_free(handle) }

    /// Idle models by file and input size (OpenCV 4.6 fixes a network's layer sizes at its first run).
    private static let pool = ModelPool<PageModel>()
    private static func poolKey(_ path: String, _ inputSize: Int) -> String { "\(inputSize) \(path)" }

    /// A model for `path` (nil: `fileName` where ``ModelFile`` finds it) at `inputSize`, from the pool
    /// or newly loaded.
    static func borrow(path explicitPath: String?, fileName: String, inputSize: Int) throws(FocalError) -> PageModel {
        let path = try ModelFile.locate(
            fileName, unless: explicitPath, what: "page model", option: "DetectorOptions.pageModelPath")
        return try pool.borrow(poolKey(path, inputSize)) { () throws(FocalError) in
            try PageModel(path: path, inputSize: inputSize)
        }
    }

    /// The model `accuracy`'s first look runs (``AccuracyProfile``): its file at its input.
    static func borrow(path: String?, for accuracy: DetectorOptions.Accuracy) throws(FocalError) -> PageModel {
        let profile = AccuracyProfile.of(accuracy)
        return try borrow(path: path, fileName: profile.pageModelFile, inputSize: profile.pageModelInput)
    }

    /// Gives a borrowed model back.
    static func giveBack(_ model: PageModel) { pool.giveBack(model, key: poolKey(model.path, model.inputSize)) }

    /// The network's page probability map for a frame as a detector sees it in `view`: its width,
    /// height and values (row by row).
    func pageProbability(in frame: Frame, view: cfocal_page_view) throws(FocalError) -> (
        width: Int, height: Int, values: [Float]
    ) {
        var width: Int32 = 0, height: Int32 = 0
        try check(
            cfocal_page_model_map_size(
                Int32(frame.width), Int32(frame.height), Int32(inputSize), Int32(view.rawValue), &width, &height),
            "find pages with the model", path: path)
        var page = [Float](repeating: 0, count: Int(width) * Int(height))
        try frame.withShimImage { (image) throws(FocalError) in
            try check(
                cfocal_page_model_maps(handle, &image, Int32(inputSize), Int32(view.rawValue), &page, nil),
                "find pages with the model", path: path)
        }
        return (Int(width), Int(height), page)
    }
}
