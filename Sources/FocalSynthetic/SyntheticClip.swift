import Focal

/// A short hand-held video of one page on a table: the page drifts and turns a little, the blur
/// falls to zero at ``sharpestFrame`` and rises again, and frames before ``firstPageFrame`` show the
/// table alone. Every frame's corners and blur are known.
public struct SyntheticClip: Sendable {
    public let width: Int
    public let height: Int
    public let frameCount: Int
    public let framesPerSecond: Double
    public let sharpestFrame: Int
    /// Frames before this one show no page.
    public let firstPageFrame: Int
    public let seed: UInt64

    private let background: Frame
    private let page: SyntheticPage
    private let blurs: [SyntheticScene.Blur]

    public init(
        width: Int = 1280, height: Int = 720, frameCount: Int = 90, framesPerSecond: Double = 30,
        sharpestFrame: Int? = nil, firstPageFrame: Int = 0, background: SyntheticBackground = .wood,
        seed: UInt64 = 1
    ) throws(FocalError) {
        var random = SeededGenerator(seed: seed)
        self.width = width
        self.height = height
        self.frameCount = frameCount
        self.framesPerSecond = framesPerSecond
        self.firstPageFrame = firstPageFrame
        self.seed = seed
        let sharpest = sharpestFrame ?? (firstPageFrame + (frameCount - firstPageFrame) * 3 / 5)
        self.sharpestFrame = sharpest
        self.background = try background.render(width: width, height: height, seed: seed)
        page = try SyntheticPage(seed: seed &+ 100)
        // Blur grows with distance from the sharpest frame, with some jitter; at least 0.8 px elsewhere.
        blurs = (0..<frameCount).map { index in
            if index == sharpest { return .none }
            let distance = Double(abs(index - sharpest))
            let sigma = 0.8 + min(3.5, distance * 0.12) + random.uniform(0...0.4)
            let motion = random.uniform(0...1) < 0.3 ? random.uniform(2...7) : 0
            return SyntheticScene.Blur(sigma: sigma, motionLength: motion, motionAngle: random.uniform(0...180))
        }
    }

    /// The page's corners in frame `index`, or nil before the page appears.
    public func corners(at index: Int) -> Quad? {
        guard index >= firstPageFrame else { return nil }
        let t = Double(index) / Double(max(1, frameCount - 1))
        let center = Point(x: Double(width) * (0.48 + 0.06 * sin(t * 5.1)), y: Double(height) * (0.5 + 0.04 * sin(t * 3.7 + 1)))
        return SyntheticScene.corners(
            frameWidth: width, frameHeight: height, center: center, fill: 0.78 + 0.06 * sin(t * 2.3),
            rotation: -8 + 10 * t, tilt: 0.12 + 0.08 * sin(t * 4.2))
    }

    public func blur(at index: Int) -> SyntheticScene.Blur { blurs[index] }

    /// Renders frame `index`.
    public func scene(at index: Int) throws(FocalError) -> SyntheticScene {
        let corners = corners(at: index)
        var scene = try SyntheticScene(
            background: background, page: corners == nil ? nil : page, corners: corners,
            blur: blurs[index], noise: 2.0, seed: seed &* 1000 &+ UInt64(index))
        scene.frame.timestamp = Double(index) / framesPerSecond
        return scene
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
