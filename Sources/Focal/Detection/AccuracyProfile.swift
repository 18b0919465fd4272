import CFocal

/// What ``DetectorOptions/Accuracy`` means to every detector, in one table: the document search's
/// working size and page network, whether faces get their eyes and mouth, and which engine finds
/// text. The shim is told each of these, and derives none of them from another.
struct AccuracyProfile: Sendable {
    /// Long side of the image candidates are found on, in pixels.
    var workingSize: Int
    /// The page network's input along its shorter side. The model was trained at 128, 160 and
    /// 192. At `.low`, 160 rather than 128 finds small and low-contrast pages 128 lost (evaluation
    /// clips 0.964 / 0.900 / 0.964 → 0.967 / 0.909 / 0.975 at seeds 13 / 7 / 41; a small grey card
    /// on a bright dial, never found at 128, found on every frame; phone photos 0.873 → 0.897) for
    /// 0.6 ms more a frame (216 fps against 236, 1280×720).
    var pageModelInput: Int
    /// How the page network sees the frame. At `.low`, once, at about the frame's own proportions
    /// (160 × 288 for 16:9, 160 × 224 for 4:3): squeezed to a square, a portrait photo's page or a
    /// small card in a wide frame is a strip a few cells across (evaluation clips at seeds 13 / 7 /
    /// 41 / 53 / 61 / 67, 0.967 / 0.909 / 0.975 / 0.956 / 0.980 / 0.875 squeezed, 0.979 / 0.927 /
    /// 0.987 / 0.981 / 0.977 / 0.941 so; the phone photos 0.912 → 0.931) for 2 ms more a 720p frame
    /// (134 fps against 180, one core). Capping 16:9 at 4:3 saved half of that and lost most of the
    /// gain (photos 0.845). At `.high`, on squares along the frame and on it squeezed.
    var pageModelView: cfocal_page_view
    /// Whether quads on the straight stretches of the network's outline map are candidates too
    /// (about 1 ms at 640 px; mends page regions that leak into a pale desk or a shadow).
    var outlineLines: Bool
    /// Straight edges tried for quads when nothing else convinced: more at a larger working size,
    /// where a page's sides break into more pieces.
    var straightEdgeCount: Int
    /// Whether each face found is searched again for its eyes and mouth (two more cascades on
    /// the face's upper and lower part, about a third more time).
    var findsFaceLandmarks: Bool
    /// Whether text is found by PP-OCRv4's network (`ppocr-v4-det.onnx`, 0.2–0.7 s a frame) rather
    /// than the classical engine (about 12 ms a 720p frame in a stream).
    var usesTextNetwork: Bool

    static func of(_ accuracy: DetectorOptions.Accuracy) -> AccuracyProfile {
        switch accuracy {
        case .low:
            AccuracyProfile(
                workingSize: 320, pageModelInput: 160, pageModelView: CFOCAL_PAGE_VIEW_PROPORTIONAL, outlineLines: false,
                straightEdgeCount: 10, findsFaceLandmarks: false, usesTextNetwork: false)
        case .high:
            AccuracyProfile(
                workingSize: 640, pageModelInput: 192, pageModelView: CFOCAL_PAGE_VIEW_TILED, outlineLines: true,
                straightEdgeCount: 14, findsFaceLandmarks: true, usesTextNetwork: true)
        }
    }
}
