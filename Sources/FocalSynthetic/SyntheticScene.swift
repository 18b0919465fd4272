import Focal

/// A camera frame of a page lying on a table, with everything about it known: where the page's
/// corners are, how much blur and noise the frame has.
public struct SyntheticScene: Sendable {
    public var frame: Frame
    /// The page's corners in frame pixels (the page's own TL, TR, BR, BL), or nil with no page.
    public var pageCorners: Quad?
    /// The page's text lines mapped into the frame.
    public var textLines: [Quad]
    /// The blur the frame was given.
    public var blur: Blur

    /// Optical and motion blur, with a single figure of how blurred the result is.
    public struct Blur: Sendable, Hashable, Codable {
        /// Gaussian defocus standard deviation, pixels.
        public var sigma: Double
        /// Motion blur length, pixels, and its direction in degrees.
        public var motionLength: Double
        public var motionAngle: Double

        public init(sigma: Double = 0, motionLength: Double = 0, motionAngle: Double = 0) {
            self.sigma = sigma
            self.motionLength = motionLength
            self.motionAngle = motionAngle
        }

        public static let none = Blur()

        /// The standard deviation of the combined blur kernel: sqrt(σ² + L²/12).
        public var effectiveSigma: Double { (sigma * sigma + motionLength * motionLength / 12).squareRoot() }
    }

    /// Renders page onto background with its corners at `corners` (frame pixels), then blurs and
    /// adds noise. With no page, renders the empty table.
    public init(
        background: Frame, page: SyntheticPage?, corners: Quad?, blur: Blur = .none, noise: Double = 0,
        seed: UInt64 = 1
    ) throws(FocalError) {
        var frame = background
        var lines: [Quad] = []
        var placed: Quad?
        if let page, let corners {
            let w = Double(page.image.width), h = Double(page.image.height)
            // The page's outer edges sit at -0.5 and size - 0.5 in pixel-centre coordinates.
            let pageCorners = [
                Point(x: -0.5, y: -0.5), Point(x: w - 0.5, y: -0.5), Point(x: w - 0.5, y: h - 0.5), Point(x: -0.5, y: h - 0.5),
            ]
            let homography = try Homography(from: pageCorners, to: corners.corners)
            try frame.composite(page.image, through: homography)
            lines = page.textLines.compactMap { r in
                Quad(
                    topLeft: Point(x: r.minX, y: r.minY), topRight: Point(x: r.maxX, y: r.minY),
                    bottomRight: Point(x: r.maxX, y: r.maxY), bottomLeft: Point(x: r.minX, y: r.maxY)
                ).applying(homography)
            }
            placed = corners
        }
        if blur.sigma > 0 { frame = try frame.gaussianBlurred(sigma: blur.sigma) }
        if blur.motionLength > 0 { frame = try frame.motionBlurred(length: blur.motionLength, angle: blur.motionAngle) }
        if noise > 0 { try frame.addNoise(sigma: noise, seed: seed) }
        self.frame = frame
        pageCorners = placed
        textLines = lines
        self.blur = blur
    }

    /// Corners for a page of aspect ratio `pageAspect` (height / width) seen in perspective, centred
    /// near (cx, cy) of a frame, `fill` of the frame's height tall, turned by `rotation` degrees and
    /// tilted by `tilt` (0 = seen straight on; 0.3 = the far edge 30 % narrower).
    public static func corners(
        frameWidth: Int, frameHeight: Int, center: Point, fill: Double, pageAspect: Double = 1100.0 / 850,
        rotation: Double = 0, tilt: Double = 0
    ) -> Quad {
        let h = Double(frameHeight) * fill, w = h / pageAspect
        let top = w * (1 - tilt) / 2, bottom = w / 2
        let raw = [(-top, -h / 2), (top, -h / 2), (bottom, h / 2), (-bottom, h / 2)]
        let a = rotation * .pi / 180
        let points = raw.map { (x, y) in
            Point(x: center.x + x * cos(a) - y * sin(a), y: center.y + x * sin(a) + y * cos(a))
        }
        return Quad(topLeft: points[0], topRight: points[1], bottomRight: points[2], bottomLeft: points[3])
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
