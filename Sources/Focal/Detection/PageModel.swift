import CFocal
import Synchronization

/// Focal's learned page detector (`Models/page-detector.onnx`), loaded on first use. OpenCV's
/// network is not safe to share between threads while it runs, so each ``Detector`` borrows one
/// from a process-wide pool and returns it when it is freed: services that make a detector per
/// request do not parse the model each time.
final class PageModel: @unchecked Sendable {
    static let fileName = "page-detector.onnx"
    /// The network's input at each accuracy: the frame squeezed to this square. The model was
    /// trained at 128, 160 and 192. At `.low`, 160 rather than 128 finds small and low-contrast
    /// pages 128 lost (evaluation clips 0.964 / 0.900 / 0.964 → 0.967 / 0.909 / 0.975 at seeds
    /// 13 / 7 / 41; a small grey card on a bright dial, never found at 128, found on every frame;
    /// phone photos 0.873 → 0.897) for 0.6 ms more a frame (216 fps against 236, 1280×720).
    static func inputSize(for accuracy: DetectorOptions.Accuracy) -> Int { accuracy == .low ? 160 : 192 }
    /// How the network sees a frame at each accuracy. At `.low`, once, at about the frame's own
    /// proportions (160 × 288 for 16:9, 160 × 224 for 4:3): squeezed to a square, a portrait photo's
    /// page or a small card in a wide frame is a strip a few cells across (evaluation clips at seeds
    /// 13 / 7 / 41 / 53 / 61 / 67, 0.967 / 0.909 / 0.975 / 0.956 / 0.980 / 0.875 squeezed, 0.979 /
    /// 0.927 / 0.987 / 0.981 / 0.977 / 0.941 so; the phone photos 0.912 → 0.931) for 2 ms more a
    /// 720p frame (134 fps against 180, one core). Capping 16:9 at 4:3 saved half of that and lost
    /// most of the gain (photos 0.845). At `.high`, on squares along the frame and on it squeezed.
    static func view(for accuracy: DetectorOptions.Accuracy) -> Int32 {
        Int32(accuracy == .low ? CFOCAL_PAGE_VIEW_PROPORTIONAL.rawValue : CFOCAL_PAGE_VIEW_TILED.rawValue)
    }
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
    private static let idle = Mutex<[String: [PageModel]]>([:])
    private static func poolKey(_ path: String, _ inputSize: Int) -> String { "\(inputSize) \(path)" }

    /// A model for `path` (nil: the one ``ModelFile`` finds) at `inputSize`, from the pool or newly loaded.
    static func borrow(path explicitPath: String?, inputSize: Int) throws(FocalError) -> PageModel {
        let path = try ModelFile.locate(
            fileName, unless: explicitPath, what: "page model", option: "DetectorOptions.pageModelPath")
        if let pooled = idle.withLock({ $0[poolKey(path, inputSize)]?.popLast() }) { return pooled }
        return try PageModel(path: path, inputSize: inputSize)
    }

    /// Gives a borrowed model back; a few are kept per file, one for each detector running at once.
    static func giveBack(_ model: PageModel) {
        let key = poolKey(model.path, model.inputSize)
        idle.withLock { pool in
            if pool[key, default: []].count < 8 { pool[key, default: []].append(model) }
        }
    }

    /// The network's page probability map (`inputSize` × `inputSize`, row by row) for a frame.
    func pageProbability(in frame: Frame) throws(FocalError) -> [Float] {
        var page = [Float](repeating: 0, count: inputSize * inputSize)
        try frame.withShimImage { (image) throws(FocalError) in
            try check(
                cfocal_page_model_maps(handle, &image, Int32(inputSize), &page, nil), "find pages with the model", path: path)
        }
        return page
    }
}
