import CFocal

/// The textbook document detector (resize to 500 px, blur, Canny 75/200, findContours, the largest
/// contour that approxPolyDP reduces to four points), kept as the baseline Focal's own detector is
/// measured against.
public enum TextbookRectangles {
    /// The largest bright four-sided contour of Canny's edges, as the textbook recipe finds it (for comparison, not for use).
    public static func detect(in frame: Frame) throws(FocalError) -> [RectangleFeature] {
        var result = cfocal_quad()
        var count: Int32 = 0
        try frame.withShimImage { (image) throws(FocalError) in
            try check(cfocal_detect_quads_textbook(&image, &result, &count), "detect rectangles (textbook)")
        }
        guard count > 0 else { return [] }
        return [RectangleFeature(quad: Quad(shim: result), confidence: 1)]
    }
}
