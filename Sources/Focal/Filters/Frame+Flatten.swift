extension Frame {
    /// The page inside `quad` perspective-corrected into a flat scan, as
    /// ``DocumentScan/flattened()`` does for a detected page: at the page's true proportions
    /// (estimated from the camera geometry) and at full resolution (no side shrinks). For corners
    /// a person adjusted, in this frame's pixels: top-left, top-right, bottom-right, bottom-left.
    ///
    /// - Throws: `.invalidArgument` when a corner lies outside the frame, the quad is not convex
    ///   (corners crossed or out of order), or it is too small to hold a page.
    public func flattened(through quad: Quad) throws(FocalError) -> Frame {
        try Self.checkFlattenable(quad, width: width, height: height)
        return try flattenedUnchecked(through: quad)
    }

    /// Corners that ``flattened(through:)`` accepts. A corner may sit on the frame's edge and up
    /// to half a pixel beyond it (the edge of the last pixel).
    static func checkFlattenable(_ quad: Quad, width: Int, height: Int) throws(FocalError) {
        let names = ["top-left", "top-right", "bottom-right", "bottom-left"]
        for (name, corner) in zip(names, quad.corners) {
            guard corner.x.isFinite, corner.y.isFinite, corner.x >= -0.5, corner.y >= -0.5,
                corner.x <= Double(width) - 0.5, corner.y <= Double(height) - 0.5
            else {
                throw FocalError(
                    .invalidArgument, operation: "flatten the page",
                    reason: "the \(name) corner (\(corner.x), \(corner.y)) lies outside the \(width)x\(height) image")
            }
        }
        guard quad.isConvex else {
            throw FocalError(
                .invalidArgument, operation: "flatten the page",
                reason: "the corners do not make a convex quad in the order top-left, top-right, bottom-right, bottom-left")
        }
        let c = quad.corners
        let shortestSide = (0..<4).map { c[$0].distance(to: c[($0 + 1) % 4]) }.min() ?? 0
        guard shortestSide >= Self.smallestFlattenableSide else {
            throw FocalError(
                .invalidArgument, operation: "flatten the page",
                reason: "the quad is degenerate: a side is shorter than \(Int(Self.smallestFlattenableSide)) pixels")
        }
    }

    /// The shortest side a flattened quad may have, in pixels.
    static let smallestFlattenableSide = 8.0

    func flattenedUnchecked(through quad: Quad) throws(FocalError) -> Frame {
        let aspect = quad.estimatedAspectRatio(imageWidth: width, imageHeight: height)
        let c = quad.corners
        let longestHorizontal = max(c[0].distance(to: c[1]), c[3].distance(to: c[2]))
        let longestVertical = max(c[0].distance(to: c[3]), c[1].distance(to: c[2]))
        var flatHeight = longestVertical, flatWidth = flatHeight * aspect
        if flatWidth < longestHorizontal {
            flatWidth = longestHorizontal
            flatHeight = flatWidth / aspect
        }
        return try rectified(quad, width: max(8, Int(flatWidth.rounded())), height: max(8, Int(flatHeight.rounded())))
    }
}
