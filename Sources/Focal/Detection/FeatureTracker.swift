/// Gives features stable tracking IDs across the frames of one stream by overlap with the
/// previous frame's features: a feature that overlaps a recent one (intersection over union at
/// least ``minimumOverlap``) keeps its ID; one that overlaps none gets a new ID. A track survives
/// ``maximumMissedFrames`` frames without a match, so a frame where detection blinks does not
/// renumber the document.
struct FeatureTracker: Sendable {
    /// Raising it splits tracks sooner when objects move fast.
    var minimumOverlap = 0.3
    /// Raising it bridges longer gaps, at the risk of giving an old ID to a new object.
    var maximumMissedFrames = 8
    /// The overlap needed to resume a track after missed frames. Raising it splits more readily
    /// when one document replaces another in the same place.
    var minimumOverlapAfterGap = 0.5
    /// The smaller area over the larger, below which two sightings are different objects.
    var minimumAreaRatio = 0.6

    private struct Track {
        var id: Int
        var quad: Quad
        var missed: Int
    }

    private var tracks: [Track] = []
    private var nextID = 1

    /// Ends every track; IDs given after go on counting from the last, so none is reused.
    mutating func endTracks() { tracks = [] }

    /// Gives each feature an ID. A feature that matches no track starts one only if its confidence
    /// reaches `acquisition`; otherwise it is removed from features (and quads). Returns the indices,
    /// in features as given, of those kept.
    @discardableResult
    mutating func assign(_ features: inout [any Feature], quads: inout [Quad], acquisition: Double = 0) -> [Int] {
        var used = Set<Int>()
        var dropped: [Int] = []
        for index in features.indices {
            var best: (track: Int, overlap: Double)?
            for (t, track) in tracks.enumerated() where !used.contains(t) {
                // One document does not change size much between sightings; a new one put down in
                // the same place usually does. After a gap, ask for a closer match.
                let areas = (track.quad.area, quads[index].area)
                guard min(areas.0, areas.1) >= minimumAreaRatio * max(areas.0, areas.1) else { continue }
                let overlap = track.quad.intersectionOverUnion(with: quads[index])
                let needed = track.missed > 0 ? max(minimumOverlap, minimumOverlapAfterGap) : minimumOverlap
                if overlap >= needed, overlap > (best?.overlap ?? 0) { best = (t, overlap) }
            }
            if let best {
                used.insert(best.track)
                tracks[best.track].quad = quads[index]
                tracks[best.track].missed = 0
                features[index].trackingID = tracks[best.track].id
            } else if features[index].confidence < acquisition {
                dropped.append(index)
            } else {
                tracks.append(Track(id: nextID, quad: quads[index], missed: 0))
                used.insert(tracks.count - 1)
                features[index].trackingID = nextID
                nextID += 1
            }
        }
        for index in dropped.reversed() {
            features.remove(at: index)
            quads.remove(at: index)
        }
        for t in tracks.indices where !used.contains(t) { tracks[t].missed += 1 }
        tracks.removeAll { $0.missed > maximumMissedFrames }
        let gone = Set(dropped)
        return (0..<features.count + dropped.count).filter { !gone.contains($0) }
    }
}
