import CFocal

/// Sharpness as the spread of the Laplacian, as in Apple's "Finding the Sharpest Image in a
/// Sequence of Captured Images": a 3×3 kernel [-1 -1 -1; -1 8 -1; -1 -1 -1] over the luma plane.
/// Sharp detail gives strong second derivatives; blur flattens them.
public enum Sharpness {
    /// The variance and standard deviation of the Laplacian over the frame's luma (gray frames as
    /// they are, the Y plane of `.yuv420`, BGR converted to gray), ignoring the one-pixel border.
    public static func laplacian(of frame: Frame) throws(FocalError) -> (variance: Double, standardDeviation: Double) {
        let gray: Frame
        if let luma = frame.lumaPlane { gray = luma } else { gray = try frame.converted(to: .gray8) }
        var mean = 0.0, variance = 0.0
        try gray.withShimImage { (image) throws(FocalError) in
            try check(cfocal_laplacian_variance(&image, &mean, &variance), "measure sharpness")
        }
        return (variance, variance.squareRoot())
    }
}
