import Foundation
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

/// Where a tracked quad is expected next (`Quad.extrapolated(from:)`): its motion taken as a whole.
@Suite struct TrackExtrapolationTests {
    let page = Quad(
        topLeft: Point(x: 340, y: 230), topRight: Point(x: 826, y: 228), bottomRight: Point(x: 820, y: 535),
        bottomLeft: Point(x: 357, y: 519))

    /// A page turned 2°, grown 1 % and moved (6, −4) about a point each frame is expected where the
    /// same move takes it once more.
    @Test func aPageTurningAndMovingIsExpectedWhereTheSameMoveTakesIt() {
        let angle = 2 * Double.pi / 180, scale = 1.01, pivot = Point(x: 600, y: 380), shift = Point(x: 6, y: -4)
        func moved(_ quad: Quad) -> Quad {
            quad.mapped { p in
                let u = p - pivot
                let turned = Point(x: cos(angle) * u.x - sin(angle) * u.y, y: sin(angle) * u.x + cos(angle) * u.y)
                return pivot + turned * scale + shift
            }
        }
        let now = moved(page), expected = moved(now)
        let next = now.extrapolated(from: page)
        #expect(next.maximumCornerDistance(to: expected) < 1e-6)
    }

    /// One corner slipping 8 px along a side without an edge, the others still, moves the expected
    /// quad about half as far at most (4.1 px, the slipped corner): corner by corner, it would be
    /// sent 8 px further, and as far again every frame it is not pulled back.
    @Test func oneCornerSlippingIsNotSentFurtherAlone() {
        var now = page
        now.topLeft = now.topLeft + Point(x: 0, y: 8)
        let next = now.extrapolated(from: page)
        #expect(next.maximumCornerDistance(to: now) < 5)
        #expect(next.maximumCornerDistance(to: now) > 0.5)
    }
}
