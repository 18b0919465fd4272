#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Steadies the outlines of tracked documents for display, without drawing them behind the page.
///
/// A file has its future frames, so ``Mode-swift.enum/centered(radius:)`` fits each corner's path
/// over the frames on both sides of the one drawn: the outline neither lags nor shivers, and a
/// detection that disagrees with its neighbours is outvoted. A live camera has no future, so
/// ``Mode-swift.enum/causal`` runs a one-euro filter (Casiez et al., CHI 2012) on each corner:
/// heavy smoothing while the page is still, almost none while it moves.
public struct OutlineSmoother: Sendable {
    /// How outlines are steadied: for files, or for live cameras.
    public enum Mode: Sendable, Equatable {
        /// For files: each outline is a straight-line fit of its track's detections over `radius`
        /// frames before and after it. The outline is drawn `radius` frames after its frame is
        /// detected (the renderer holds those frames). Raising the radius steadies more, at the
        /// cost of that many frames of memory; a page that changes direction within the window is
        /// followed less closely.
        case centered(radius: Int)
        /// For live cameras: a one-euro filter per corner coordinate, at most about a frame
        /// behind a moving page.
        case causal
    }

    /// How outlines are steadied.
    public var mode: Mode
    /// Detections a track needs within the window (centered) or so far (causal) before it is
    /// drawn. Raising it hides more one-off false detections, and a new document's first frames.
    public var minimumDetections: Int = 3
    /// A detection is left out of the fit when a corner is further than this many pixels from
    /// where its neighbours put it. Raising it lets more wrong detections pull the outline.
    public var outlierDistance: Double = 6
    /// The one-euro filter's cutoff for a still page, in hertz. Lowering it steadies a still
    /// outline more and makes it slower to start moving.
    public var stillCutoff: Double = 0.5
    /// How fast the one-euro cutoff rises with the corner's speed (per pixel per second). Raising
    /// it cuts the lag on a moving page and lets more jitter through.
    public var speedCoefficient: Double = 0.2
    /// Frames per second of the stream, for the causal filter's time steps.
    public var framesPerSecond: Double

    /// A smoother in `mode` for a stream of `framesPerSecond`.
    public init(mode: Mode, framesPerSecond: Double = 30) {
        self.mode = mode
        self.framesPerSecond = framesPerSecond > 0 ? framesPerSecond : 30
    }

    /// Frames an outline is drawn after its frame is detected.
    public var delay: Int {
        if case .centered(let radius) = mode { return radius }
        return 0
    }

    /// Each track's detections by frame, kept for the centered window.
    private var detections: [Int: [Int: Quad]] = [:]
    /// Each track's causal filter state and how many detections it has had.
    private var filters: [Int: CornerFilter] = [:]

    /// Adds frame `index`'s detections (tracking ID → quad). Frames must come in order.
    public mutating func add(frame index: Int, _ quads: [Int: Quad]) {
        switch mode {
        case .centered(let radius):
            for (id, quad) in quads { detections[id, default: [:]][index] = quad }
            // Nothing older than the window of the frame still to be drawn is needed.
            let oldest = index - 2 * radius - 1
            for id in Array(detections.keys) {
                detections[id] = detections[id]?.filter { $0.key >= oldest }
                if detections[id]?.isEmpty ?? true { detections[id] = nil }
            }
        case .causal:
            for (id, quad) in quads {
                var filter = filters[id] ?? CornerFilter()
                filter.add(quad, at: Double(index) / framesPerSecond, smoother: self)
                filters[id] = filter
            }
            for id in Array(filters.keys) where quads[id] == nil {
                // A track unseen for a while starts afresh when it comes back.
                if let last = filters[id]?.lastFrameTime, Double(index) / framesPerSecond - last > 0.5 { filters[id] = nil }
            }
        }
    }

    /// The frames of one shot: from a cut (or the stream's start) to the frame before the next
    /// cut (or the stream's end). Outlines are fitted within their shot, and a shot shorter than
    /// ``OutlineSmoother/minimumDetections`` frames (a lone photo among others) asks a track for a
    /// detection on each of its frames instead.
    public struct Shot: Sendable, Equatable {
        /// The shot's first frame.
        public var first: Int
        /// The shot's last frame, or nil while it goes on.
        public var last: Int?

        /// The shot from frame `first` to frame `last` (nil: not ended yet).
        public init(first: Int, last: Int?) {
            self.first = first
            self.last = last
        }

        /// A stream without cuts.
        public static let whole = Shot(first: 0, last: nil)

        func contains(_ frame: Int) -> Bool { frame >= first && last.map { frame <= $0 } ?? true }
    }

    /// The outlines to draw on frame `index`, by tracking ID: for a centered window, once the
    /// frames after it have been added (or the stream has ended); causally, right away. Only
    /// tracks detected on frame `index` itself are drawn, from detections in the same `shot`.
    public func outlines(at index: Int, detected ids: Set<Int>, shot: Shot = .whole) -> [Int: Quad] {
        var result: [Int: Quad] = [:]
        switch mode {
        case .centered(let radius):
            let needed = min(minimumDetections, shot.last.map { $0 - shot.first + 1 } ?? .max)
            for id in ids {
                guard let track = detections[id] else { continue }
                let window = track.filter { abs($0.key - index) <= radius && shot.contains($0.key) }.sorted { $0.key < $1.key }
                guard window.count >= needed else { continue }
                result[id] = Self.fit(window.map { (Double($0.key - index), $0.value) }, outlierDistance: outlierDistance)
            }
        case .causal:
            let needed = min(minimumDetections, index - shot.first + 1)
            for id in ids {
                guard let filter = filters[id], filter.count >= needed, let quad = filter.value else { continue }
                result[id] = quad
            }
        }
        return result
    }

    /// The quad at time 0 of a straight-line fit of each coordinate over `samples` (time, quad):
    /// fitted once, refitted without the samples that stray from the first fit by more than
    /// `outlierDistance` (a corner), unless too few would remain.
    static func fit(_ samples: [(time: Double, quad: Quad)], outlierDistance: Double) -> Quad {
        func line(_ points: [(time: Double, quad: Quad)]) -> [(intercept: Double, slope: Double)] {
            let n = Double(points.count)
            let meanT = points.reduce(0) { $0 + $1.time } / n
            let varianceT = points.reduce(0) { $0 + ($1.time - meanT) * ($1.time - meanT) }
            return (0..<8).map { k in
                let values = points.map { $0.quad.coordinate(k) }
                let meanV = values.reduce(0, +) / n
                guard varianceT > 0 else { return (meanV, 0) }
                let covariance = zip(points, values).reduce(0) { $0 + ($1.0.time - meanT) * ($1.1 - meanV) }
                let slope = covariance / varianceT
                return (meanV - slope * meanT, slope)
            }
        }
        var lines = line(samples)
        let kept = samples.filter { sample in
            let fitted = Quad(coordinates: lines.map { $0.intercept + $0.slope * sample.time })
            return sample.quad.maximumCornerDistance(to: fitted) <= outlierDistance
        }
        if kept.count < samples.count, kept.count >= 2 { lines = line(kept) }
        return Quad(coordinates: lines.map(\.intercept))
    }

    /// One track's one-euro filters, one per corner coordinate.
    struct CornerFilter: Sendable {
        var value: Quad?
        var speeds = [Double](repeating: 0, count: 8)
        var lastFrameTime: Double?
        var count = 0

        mutating func add(_ quad: Quad, at time: Double, smoother: OutlineSmoother) {
            count += 1
            guard let previous = value, let last = lastFrameTime, time > last else {
                value = quad
                lastFrameTime = time
                return
            }
            let step = time - last
            func alpha(_ cutoff: Double) -> Double {
                let tau = 1 / (2 * Double.pi * cutoff)
                return 1 / (1 + tau / step)
            }
            var coordinates: [Double] = []
            for k in 0..<8 {
                let raw = quad.coordinate(k), old = previous.coordinate(k)
                // The speed, itself smoothed at 1 Hz, sets the cutoff.
                speeds[k] += alpha(1) * ((raw - old) / step - speeds[k])
                let cutoff = smoother.stillCutoff + smoother.speedCoefficient * abs(speeds[k])
                coordinates.append(old + alpha(cutoff) * (raw - old))
            }
            value = Quad(coordinates: coordinates)
            lastFrameTime = time
        }
    }
}

extension Quad {
    /// x of corner k/2 for even k, y for odd k: the quad as eight numbers.
    func coordinate(_ k: Int) -> Double { k % 2 == 0 ? corners[k / 2].x : corners[k / 2].y }

    init(coordinates c: [Double]) {
        self.init(
            topLeft: Point(x: c[0], y: c[1]), topRight: Point(x: c[2], y: c[3]), bottomRight: Point(x: c[4], y: c[5]),
            bottomLeft: Point(x: c[6], y: c[7]))
    }
}
