import CFocal

/// How ``Sharpness`` measures.
public struct SharpnessOptions: Sendable, Hashable {
    /// Frames larger than this (their longer side, pixels) are shrunk to it first, by area
    /// averaging, as Apple's sample shrinks to about 1280×720: at full sensor resolution, noise
    /// swamps detail. Raising it measures finer detail and more noise; nil measures as is. Default 1280.
    public var workingSize: Int?
    /// A Gaussian pre-blur (sigma, working pixels) that takes sensor noise and compression blocks
    /// out before the Laplacian. 0 is Apple's plain measure; raising it ignores finer detail along
    /// with the noise. ``noiseResistant`` uses 1.
    public var noiseSuppression: Double
    /// The longer side, in pixels, of the rectified view of a region (see
    /// ``Sharpness/measure(_:inside:options:)``), so that near and far documents compare fairly.
    /// Default 512.
    public var regionSize: Int

    /// Options; each parameter sets the property of the same name.
    public init(workingSize: Int? = 1280, noiseSuppression: Double = 0, regionSize: Int = 512) {
        self.workingSize = workingSize
        self.noiseSuppression = noiseSuppression
        self.regionSize = regionSize
    }

    /// Apple's measure: the Laplacian of the (shrunk) luma as it is.
    public static let plain = SharpnessOptions()
    /// Pre-blurred by sigma 1, which keeps the ranking right on noisy, low-light, compressed clips.
    public static let noiseResistant = SharpnessOptions(noiseSuppression: 1)
}

/// A sharpness measurement: the spread of the Laplacian. Higher is sharper.
public struct SharpnessScore: Sendable, Hashable, Codable, Comparable {
    /// The variance of the Laplacian: higher is sharper.
    public var variance: Double
    /// Its square root, in grey levels.
    public var standardDeviation: Double { variance.squareRoot() }

    /// A score of `variance`.
    public init(variance: Double) { self.variance = variance }

    public static func < (a: SharpnessScore, b: SharpnessScore) -> Bool { a.variance < b.variance }
}

/// Sharpness as the spread of the Laplacian, as in Apple's "Finding the Sharpest Image in a
/// Sequence of Captured Images": a 3×3 kernel [-1 -1 -1; -1 8 -1; -1 -1 -1] over the luma plane.
/// Sharp detail gives strong second derivatives; blur flattens them.
public enum Sharpness {
    /// The variance and standard deviation of the Laplacian over the frame's luma as it is (gray
    /// frames as they are, the Y plane of `.yuv420`, BGR converted to gray), ignoring the
    /// one-pixel border. No shrinking, no pre-blur.
    public static func laplacian(of frame: Frame) throws(FocalError) -> (variance: Double, standardDeviation: Double) {
        let gray = try luma(of: frame)
        var mean = 0.0, variance = 0.0
        try gray.withShimImage { (image) throws(FocalError) in
            try check(cfocal_laplacian_variance(&image, &mean, &variance), "measure sharpness")
        }
        return (variance, variance.squareRoot())
    }

    /// The same figure computed by OpenCV's idiom (filter2D to 64-bit floats, then meanStdDev): the
    /// reference ``laplacian(of:)`` is benchmarked and tested against.
    public static func laplacianByOpenCV(of frame: Frame) throws(FocalError) -> (variance: Double, standardDeviation: Double) {
        let gray = try luma(of: frame)
        var mean = 0.0, variance = 0.0
        try gray.withShimImage { (image) throws(FocalError) in
            try check(cfocal_laplacian_variance_reference(&image, &mean, &variance), "measure sharpness")
        }
        return (variance, variance.squareRoot())
    }

    /// The frame's sharpness under options: shrunk to the working size, pre-blurred if asked.
    public static func measure(_ frame: Frame, options: SharpnessOptions = .plain) throws(FocalError) -> SharpnessScore {
        var gray = try luma(of: frame)
        if let size = options.workingSize { gray = try gray.fitted(maxWidth: size, maxHeight: size) }
        return try measurePrepared(gray, options: options)
    }

    /// The sharpness inside a quad (a document), measured on the region rectified to
    /// ``SharpnessOptions/regionSize`` at the quad's own proportions, so that the background
    /// and the document's distance do not count.
    public static func measure(_ frame: Frame, inside quad: Quad, options: SharpnessOptions = .plain) throws(FocalError)
        -> SharpnessScore
    {
        let gray = try luma(of: frame)
        let sides = quad.averageSideLengths
        let longest = max(sides.width, sides.height, 1)
        let size = Double(max(16, options.regionSize))
        let region = try gray.rectified(
            quad, width: max(8, Int((sides.width / longest * size).rounded())),
            height: max(8, Int((sides.height / longest * size).rounded())))
        return try measurePrepared(region, options: options)
    }

    /// The Laplacian's magnitude as a picture, clipped to 0…255 and lifted by a gamma curve
    /// (out = 255 · (v / 255)^gamma; below 1 brightens faint detail), as Apple's sample shows it.
    public static func laplacianImage(of frame: Frame, gamma: Double = 0.5) throws(FocalError) -> Frame {
        let gray = try luma(of: frame)
        var result = try Frame(uninitializedWidth: gray.width, height: gray.height, format: .gray8)
        try gray.withShimImage { (source) throws(FocalError) in
            try result.withMutableShimImage { (destination) throws(FocalError) in
                try check(cfocal_laplacian_image(&source, &destination, gamma), "draw the Laplacian")
            }
        }
        return result
    }

    /// Indices of frames, sharpest first, with their scores.
    public static func rank(_ frames: [Frame], options: SharpnessOptions = .plain) throws(FocalError) -> [(
        index: Int, score: SharpnessScore
    )] {
        var scores: [(index: Int, score: SharpnessScore)] = []
        for (index, frame) in frames.enumerated() { scores.append((index, try measure(frame, options: options))) }
        return scores.sorted { $0.score > $1.score }
    }

    private static func measurePrepared(_ gray: Frame, options: SharpnessOptions) throws(FocalError) -> SharpnessScore {
        let prepared = options.noiseSuppression > 0 ? try gray.gaussianBlurred(sigma: options.noiseSuppression) : gray
        return SharpnessScore(variance: try laplacian(of: prepared).variance)
    }

    private static func luma(of frame: Frame) throws(FocalError) -> Frame {
        if let luma = frame.lumaPlane { return luma }
        return try frame.converted(to: .gray8)
    }
}
