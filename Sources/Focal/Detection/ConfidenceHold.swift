/// Carries a tracked document through the few frames of a stream in which its evidence fades, as
/// in the motion blur of a camera's swing. In those frames the page network's region map thins
/// out while the page is still where its track was heading, so the search finds the page there
/// with too little confidence to report it. A document continuing its
/// track at that place keeps its last confidence, decayed a little each frame, while the search
/// still finds it there at all; a page that leaves, or is covered, stops being found and its track
/// ends as before.
///
/// A held document is reported where its track was heading, not where the weak sighting lies: the
/// sighting only vouches that the page is still there. Its quad is fitted to a smeared, fading
/// region and may lie a corner's length off the page while still overlapping the track enough
/// (`ConfidenceHoldTests`: 33 px off a corner, 48 px of smear, with 0.7.63's network), where
/// the track, from sharp frames a moment before, lies on it.
struct ConfidenceHold: Sendable {
    /// The share of a held document's confidence it keeps from one frame to the next while its own
    /// evidence is weak. Raising it holds tracks through longer blur, and also reports a page a
    /// little longer after something page-like replaced it in the same place.
    var retention = 0.85
    /// The least confidence the search itself must still give the quad for it to be held. Raising
    /// it drops held documents sooner; lowering it lets weaker look-alikes continue a track.
    var floor = 0.3
    /// How closely (intersection over union) the weak quad must lie on where the track was
    /// heading. Raising it holds only documents that move as predicted.
    var minimumOverlap = 0.85

    /// A document of the previous frame: where it is expected now, and the confidence reported.
    struct Expected: Sendable {
        var quad: Quad
        var confidence: Double
    }

    /// Whether some document of the previous frame that could still be held is missing from found.
    func isMissing(_ expected: [Expected], from found: [RectangleFeature], minimum: Double) -> Bool {
        expected.contains { holdable($0, beside: found, minimum: minimum) }
    }

    /// Whether document's decayed confidence still reaches minimum and none of found continues it.
    private func holdable(_ document: Expected, beside found: [RectangleFeature], minimum: Double) -> Bool {
        document.confidence * retention >= minimum
            && !found.contains { $0.quad.intersectionOverUnion(with: document.quad) >= minimumOverlap }
    }

    /// The documents of `expected` which none of `found` continues and a weak sighting (found below
    /// `minimum`) does, each where its track was heading, at its track's decayed confidence if that
    /// still reaches `minimum`.
    func held(_ weak: [RectangleFeature], expected: [Expected], found: [RectangleFeature], minimum: Double)
        -> [RectangleFeature]
    {
        let sightings = weak.filter { $0.confidence >= floor && $0.confidence < minimum }
        var held: [RectangleFeature] = []
        for document in expected where holdable(document, beside: found, minimum: minimum) {
            let nearest = sightings.map { (feature: $0, overlap: $0.quad.intersectionOverUnion(with: document.quad)) }
                .max { $0.overlap < $1.overlap }
            // Neither the sighting nor the place reported may overlap a document already reported.
            guard let nearest, nearest.overlap >= minimumOverlap,
                !(found + held).contains(where: {
                    $0.quad.intersectionOverUnion(with: nearest.feature.quad) > 0
                        || $0.quad.intersectionOverUnion(with: document.quad) > 0
                })
            else { continue }
            held.append(RectangleFeature(quad: document.quad, confidence: document.confidence * retention))
        }
        return held
    }
}
