/// Carries a tracked document through the few frames of a stream in which the search finds nothing
/// of it at all, as while a camera refocuses or swings: in strong defocus the page network's region
/// map thins to nothing, though the page is still where its track was heading (``ConfidenceHold``
/// needs the search to find it at least weakly). The document is carried at the place its track
/// extrapolates, its confidence decaying, while the frame there still looks as it did when the
/// document was last found, both seen at so low a resolution that blur changes little: a page taken
/// away or covered changes that look, and its track ends as before.
struct TrackCoast: Sendable {
    /// The share of its confidence a carried document keeps from one frame to the next. Raising it
    /// carries documents more frames before they fall below the detector's minimum confidence.
    var retention = 0.93
    /// The most frames in a row a document is carried (0.2 s at 30 frames a second). Raising it
    /// bridges longer blur, and reports a page that left in a blur for longer.
    var longestCarry = 6
    /// How alike (normalized correlation) the look at the expected place must be to the look where
    /// the document was last found. Raising it carries fewer documents; lowering it lets a changed
    /// scene continue a track.
    var leastLikeness = 0.9
    /// How far the look's mean brightness may move from the last sighting's, as a share of it.
    /// Raising it carries documents through larger changes of light, and through more changes of
    /// what lies there.
    var brightnessTolerance = 0.12
    /// The least contrast (standard deviation, grey levels) the last sighting's look must have for
    /// a likeness to mean anything: a blank page on a desk of its own shade is not carried. Raising
    /// it carries fewer pages of low contrast.
    var leastContrast = 8.0
    /// How far the look reaches beyond the quad, as a share of its size from its centre, so that it
    /// holds the page's edge against what lies around it. Raising it weighs the surroundings more.
    var margin = 0.25
    /// The look's side, in cells. Each cell averages about a thirteenth of the page's width, far
    /// more than a camera's defocus spreads a point.
    static let side = 16
    /// How many cells the look at the expected place may lie off the last sighting's, either way
    /// along each axis: the carried quad moves to where the two are most alike, as an extrapolated
    /// track drifts from a page whose motion changes. Raising it follows faster changes, and finds
    /// more chance likenesses.
    static let reach = 2

    /// Where a document was last found, and what has been carried since.
    struct Sighting: Sendable {
        /// The frame it was last found in, and its quad there.
        var frame: Frame
        var quad: Quad
        /// Frames it has been carried since.
        var carried = 0
        /// Its look in `frame`, once measured.
        var look: [Double]?
    }

    /// Where the document of `sighting` is carried near `expected` in `frame`, and its sighting
    /// carried on; nil where it may not be carried: carried too long already, of too little
    /// contrast, or looking different now.
    func carry(_ sighting: Sighting, to expected: Quad, in frame: Frame) throws(FocalError) -> (Quad, Sighting)? {
        guard sighting.carried < longestCarry else { return nil }
        var reference = sighting.look
        if reference == nil { reference = try look(of: sighting.quad, in: sighting.frame, cells: Self.side) }
        let wide = Self.side + 2 * Self.reach
        guard let reference, Self.deviation(reference) >= leastContrast,
            let now = try look(of: expected, in: frame, cells: wide)
        else { return nil }
        let referenceMean = Self.mean(reference)
        var best: (likeness: Double, x: Int, y: Int) = (-1, 0, 0)
        for y in 0...(2 * Self.reach) {
            for x in 0...(2 * Self.reach) {
                let window = (0..<Self.side * Self.side).map { now[(y + $0 / Self.side) * wide + x + $0 % Self.side] }
                guard abs(Self.mean(window) - referenceMean) <= brightnessTolerance * max(referenceMean, 1) else { continue }
                let likeness = Self.correlation(reference, window)
                if likeness > best.likeness { best = (likeness, x, y) }
            }
        }
        guard best.likeness >= leastLikeness else { return nil }
        let c = expected.corners
        let cell = (1 + margin) / Double(Self.side)
        let across = (c[1] - c[0] + (c[2] - c[3])) * 0.5, down = (c[3] - c[0] + (c[2] - c[1])) * 0.5
        let shift = across * (Double(best.x - Self.reach) * cell) + down * (Double(best.y - Self.reach) * cell)
        let carried = Sighting(frame: sighting.frame, quad: sighting.quad, carried: sighting.carried + 1, look: reference)
        return (expected.mapped { $0 + shift }, carried)
    }

    /// The grey levels around quad, perspective-corrected into `cells` × `cells` cells (each the
    /// blurred mean around it) of the quad's size times (1 + margin) over `side` cells, centred on the
    /// quad's centre; nil where that region is not a convex quad or its centre is out of view.
    func look(of quad: Quad, in frame: Frame, cells: Int) throws(FocalError) -> [Double]? {
        let centre = quad.center
        let grown = (1 + margin) * Double(cells) / Double(Self.side)
        let region = quad.mapped { centre + ($0 - centre) * grown }
        // The page's centre must be in view: a region mostly off the frame says little.
        guard region.isConvex, region.area >= 64, centre.x >= 0, centre.y >= 0, centre.x < Double(frame.width),
            centre.y < Double(frame.height)
        else { return nil }
        let source = frame.lumaPlane ?? frame
        let looked = try source.rectified(region, width: cells, height: cells)
        let channels = looked.format.bytesPerPixel
        return looked.withUnsafeBytes { bytes in
            (0..<cells * cells).map { cell in
                let start = (cell / cells) * looked.bytesPerRow + (cell % cells) * channels
                return (start..<start + channels).reduce(0.0) { $0 + Double(bytes[$1]) } / Double(channels)
            }
        }
    }

    static func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(max(values.count, 1)) }

    static func deviation(_ values: [Double]) -> Double {
        let m = mean(values)
        return (values.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(max(values.count, 1))).squareRoot()
    }

    /// Pearson's correlation of two looks (0 where either is flat).
    static func correlation(_ a: [Double], _ b: [Double]) -> Double {
        let (ma, mb) = (mean(a), mean(b))
        var (ab, aa, bb) = (0.0, 0.0, 0.0)
        for (x, y) in zip(a, b) {
            ab += (x - ma) * (y - mb)
            aa += (x - ma) * (x - ma)
            bb += (y - mb) * (y - mb)
        }
        return aa > 0 && bb > 0 ? ab / (aa * bb).squareRoot() : 0
    }
}
