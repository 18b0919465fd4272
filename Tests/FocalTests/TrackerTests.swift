import Testing

@testable import Focal

@Suite struct TrackerTests {
    func feature(_ x: Double, confidence: Double) -> (any Feature, Quad) {
        let quad = Quad(Rect(x: x, y: 0, width: 100, height: 140))
        return (RectangleFeature(quad: quad, confidence: confidence), quad)
    }

    @Test func newTracksNeedTheAcquisitionConfidenceContinuingOnesDoNot() {
        var tracker = FeatureTracker()
        var (features, quads): ([any Feature], [Quad]) = ([feature(0, confidence: 0.7).0], [feature(0, confidence: 0.7).1])
        tracker.assign(&features, quads: &quads, acquisition: 0.8)
        #expect(features.isEmpty, "a weak new shape does not start a track")

        features = [feature(0, confidence: 0.9).0]
        quads = [feature(0, confidence: 0.9).1]
        tracker.assign(&features, quads: &quads, acquisition: 0.8)
        let id = features.first?.trackingID
        #expect(id != nil)

        features = [feature(5, confidence: 0.65).0]
        quads = [feature(5, confidence: 0.65).1]
        tracker.assign(&features, quads: &quads, acquisition: 0.8)
        #expect(features.first?.trackingID == id, "a weaker frame of the same document keeps its track")
    }

    @Test func tracksSurviveShortGapsAndSplitForTwoDocuments() {
        var tracker = FeatureTracker()
        var features: [any Feature] = [feature(0, confidence: 1).0, feature(400, confidence: 1).0]
        var quads = [feature(0, confidence: 1).1, feature(400, confidence: 1).1]
        tracker.assign(&features, quads: &quads)
        let ids = features.compactMap(\.trackingID)
        #expect(Set(ids).count == 2)
        for _ in 0..<3 {
            var none: [any Feature] = []
            var noQuads: [Quad] = []
            tracker.assign(&none, quads: &noQuads)
        }
        var again: [any Feature] = [feature(402, confidence: 1).0]
        var againQuads = [feature(402, confidence: 1).1]
        tracker.assign(&again, quads: &againQuads)
        #expect(again.first?.trackingID == ids[1], "three missed frames do not renumber a document")
    }
}

@Suite struct RectangleFunnelTests {
    func quad(_ dx: Double) -> Quad { Quad(Rect(x: 100 + dx, y: 50, width: 300, height: 420)) }

    @Test func showsNothingUntilQuadsAgreeThenHoldsStill() {
        var funnel = RectangleFunnel(capacity: 8, minimumCount: 3, minimumMatches: 3, matchingDistance: 20)
        #expect(funnel.add(quad(0)) == nil)
        #expect(funnel.add(quad(1)) == nil)
        let first = funnel.add(quad(0.5))
        #expect(first != nil, "three agreeing quads are shown")
        // Jitter within a tenth of the matching distance does not move the display.
        #expect(funnel.add(quad(1.5)) == first)
        #expect(funnel.add(quad(0)) == first)
        // A single wild detection does not move it either.
        #expect(funnel.add(quad(80)) == first)
    }

    @Test func followsARealMove() {
        var funnel = RectangleFunnel(capacity: 4, minimumCount: 3, minimumMatches: 3, matchingDistance: 10)
        for _ in 0..<4 { _ = funnel.add(quad(0)) }
        var shown: Quad?
        for _ in 0..<4 { shown = funnel.add(quad(60)) }
        #expect(shown == quad(60))
    }
}
