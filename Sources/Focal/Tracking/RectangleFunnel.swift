/// Steadies a stream of detected quads for display, after WeScan's `RectangleFeaturesFunnel`:
/// it keeps the last few quads of one document and shows the one that most of them agree with,
/// and nothing until enough agree. One funnel per document (per tracking ID).
public struct RectangleFunnel: Sendable {
    /// How many recent quads are kept. Raising it steadies the display more and follows movement
    /// more slowly.
    public var capacity: Int
    /// Quads needed before anything is shown. Raising it delays the first display.
    public var minimumCount: Int
    /// How many kept quads must agree with the shown one. Raising it rejects more flicker.
    public var minimumMatches: Int
    /// Two quads agree when every corner is within this many pixels of its counterpart. Raising it
    /// holds the display still through more jitter, and lags behind real movement.
    public var matchingDistance: Double

    private var recent: [Quad] = []
    private var shown: Quad?

    /// A funnel with these settings; each parameter sets the property of the same name.
    public init(capacity: Int = 8, minimumCount: Int = 3, minimumMatches: Int = 3, matchingDistance: Double = 40) {
        self.capacity = capacity
        self.minimumCount = minimumCount
        self.minimumMatches = minimumMatches
        self.matchingDistance = matchingDistance
    }

    /// Adds the latest detection (nil when the document was not found in this frame) and returns
    /// the quad to show, if any.
    public mutating func add(_ quad: Quad?) -> Quad? {
        guard let quad else {
            if !recent.isEmpty { recent.removeFirst() }
            if recent.count < minimumCount { shown = nil }
            return shown
        }
        recent.append(quad)
        if recent.count > capacity { recent.removeFirst() }
        guard recent.count >= minimumCount else { return nil }
        // The quad most others agree with; among equals, the newest.
        var best: (quad: Quad, matches: Int)?
        for candidate in recent.reversed() {
            let matches = recent.filter { $0.maximumCornerDistance(to: candidate) <= matchingDistance }.count - 1
            if matches > (best?.matches ?? -1) { best = (candidate, matches) }
        }
        guard let best, best.matches >= minimumMatches - 1 else { return shown }
        // Keep showing the same quad while the new best is within a tenth of the matching distance
        // of it: no shimmer, and never more than that behind the page.
        if let current = shown, current.maximumCornerDistance(to: best.quad) <= matchingDistance / 10 { return current }
        shown = best.quad
        return shown
    }
}
