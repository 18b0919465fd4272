extension Quad {
    /// Where this quad will be a frame later if it moves on as it did since `previous`, taken as a
    /// whole: the shift, turn and change of scale that best carry `previous`'s corners onto this
    /// one's (least squares), applied once more. This quad itself when the move was a jump (over a
    /// tenth of the quad's size), which is more likely a different detection than motion.
    ///
    /// Not each corner on by its own step: a tracker's confirmation refines a quad only a few pixels
    /// round where it is expected, so a corner on a side without a clear edge (a card's dark header
    /// against a dark background) that slipped one frame was sent further the next and ran away
    /// along the side, a card's top corner 24 pixels a frame (`../shared/eval/make_set.py --seed 7`,
    /// clip05). Taken as a whole, one corner's slip sends the quad on at most about half as far, so
    /// the slip dies away instead of growing.
    func extrapolated(from previous: Quad) -> Quad {
        guard maximumCornerDistance(to: previous) <= 0.1 * max(bounds.width, bounds.height) else { return self }
        return mapped(SimilarityMotion(from: previous, to: self).applied)
    }
}

/// A shift, turn and uniform scale of the plane (p ↦ a·p + b, with a and b complex numbers), fitted
/// by least squares to carry one quad's corners onto another's.
private struct SimilarityMotion {
    /// a's real and imaginary parts: the scale times the cosine and the sine of the turn.
    var scaleCos = 1.0
    var scaleSin = 0.0
    var shift = Point.zero

    init(from before: Quad, to after: Quad) {
        let centreBefore = before.center, centreAfter = after.center
        var real = 0.0, imaginary = 0.0, norm = 0.0
        for (p, q) in zip(before.corners, after.corners) {
            let u = p - centreBefore, v = q - centreAfter
            // v · conj(u)
            real += v.x * u.x + v.y * u.y
            imaginary += v.y * u.x - v.x * u.y
            norm += u.x * u.x + u.y * u.y
        }
        if norm > 0 {
            scaleCos = real / norm
            scaleSin = imaginary / norm
        }
        shift = centreAfter - rotatedScaled(centreBefore)
    }

    private func rotatedScaled(_ p: Point) -> Point {
        Point(x: scaleCos * p.x - scaleSin * p.y, y: scaleSin * p.x + scaleCos * p.y)
    }

    func applied(_ p: Point) -> Point { rotatedScaled(p) + shift }
}
