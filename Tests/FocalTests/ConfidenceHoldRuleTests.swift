import Testing

@testable import Focal

/// `ConfidenceHold`'s rule on its own: which weak sightings continue a tracked document, and at what
/// confidence. `ConfidenceHoldTests` runs it end to end through `.high`'s page network, on a smear the
/// network's weights choose; these hold the rule whatever the weights.
@Suite struct ConfidenceHoldRuleTests {
    static let hold = ConfidenceHold()
    static let minimum = 0.8

    /// An upright rectangle `width` × `height` at (x, y).
    static func quad(x: Double, y: Double, width: Double = 400, height: Double = 500) -> Quad {
        Quad(Rect(x: x, y: y, width: width, height: height))
    }

    static let page = quad(x: 100, y: 100)
    static let tracked = ConfidenceHold.Expected(quad: page, confidence: 0.96)

    @Test func aWeakSightingWhereTheTrackWasHeadingHoldsTheTrackAtTheDecayedConfidence() throws {
        let weak = [RectangleFeature(quad: Self.quad(x: 104, y: 98), confidence: 0.5)]
        #expect(Self.hold.isMissing([Self.tracked], from: [], minimum: Self.minimum))
        let held = Self.hold.held(weak, expected: [Self.tracked], found: [], minimum: Self.minimum)
        try #require(held.count == 1)
        // Where the track was heading: the sighting, fitted to a fading region, only vouches for it.
        #expect(held[0].quad == Self.page)
        #expect(abs(held[0].confidence - 0.96 * Self.hold.retention) < 1e-12)
    }

    @Test func aSightingBelowTheFloorOrAwayFromTheTrackIsNotHeld() {
        let faint = RectangleFeature(quad: Self.page, confidence: Self.hold.floor - 0.01)
        // Shifted by a tenth of its width: an overlap of about 0.82, below minimumOverlap's 0.85.
        let elsewhere = RectangleFeature(quad: Self.quad(x: 140, y: 100), confidence: 0.6)
        #expect(Self.page.intersectionOverUnion(with: elsewhere.quad) < Self.hold.minimumOverlap)
        #expect(Self.hold.held([faint, elsewhere], expected: [Self.tracked], found: [], minimum: Self.minimum).isEmpty)
    }

    @Test func aSightingSureEnoughToReportIsNotAWeakOne() {
        let sure = RectangleFeature(quad: Self.page, confidence: Self.minimum)
        #expect(Self.hold.held([sure], expected: [Self.tracked], found: [], minimum: Self.minimum).isEmpty)
    }

    @Test func aTrackWhoseDecayedConfidenceFallsBelowTheMinimumIsLetGo() {
        // 0.9 × 0.85 = 0.765 < 0.8: the second frame of a hold, after 0.96 × 0.85 = 0.816.
        let fading = ConfidenceHold.Expected(quad: Self.page, confidence: 0.9)
        let weak = [RectangleFeature(quad: Self.page, confidence: 0.5)]
        #expect(!Self.hold.isMissing([fading], from: [], minimum: Self.minimum))
        #expect(Self.hold.held(weak, expected: [fading], found: [], minimum: Self.minimum).isEmpty)
    }

    @Test func aDocumentFoundOutrightIsNotHeldAgain() {
        let found = [RectangleFeature(quad: Self.quad(x: 102, y: 101), confidence: 0.93)]
        let weak = [RectangleFeature(quad: Self.page, confidence: 0.5)]
        #expect(!Self.hold.isMissing([Self.tracked], from: found, minimum: Self.minimum))
        #expect(Self.hold.held(weak, expected: [Self.tracked], found: found, minimum: Self.minimum).isEmpty)
    }

    @Test func aSightingOverlappingAnotherFoundDocumentIsNotHeld() {
        // The tracked page is not found, and its weak sighting overlaps a page found beside it.
        let beside = [RectangleFeature(quad: Self.quad(x: 480, y: 100), confidence: 0.95)]
        let weak = [RectangleFeature(quad: Self.page, confidence: 0.5)]
        #expect(Self.hold.isMissing([Self.tracked], from: beside, minimum: Self.minimum))
        #expect(Self.hold.held(weak, expected: [Self.tracked], found: beside, minimum: Self.minimum).isEmpty)
    }

    @Test func oneSightingContinuesOneTrackOnly() {
        let twin = ConfidenceHold.Expected(quad: Self.quad(x: 103, y: 102), confidence: 0.97)
        let weak = [RectangleFeature(quad: Self.quad(x: 101, y: 101), confidence: 0.5)]
        let held = Self.hold.held(weak, expected: [Self.tracked, twin], found: [], minimum: Self.minimum)
        #expect(held.count == 1)
    }

    @Test func twoTracksEachKeepTheirOwnSighting() {
        let right = ConfidenceHold.Expected(quad: Self.quad(x: 700, y: 120), confidence: 0.99)
        let weak = [
            RectangleFeature(quad: Self.quad(x: 702, y: 118), confidence: 0.4),
            RectangleFeature(quad: Self.quad(x: 99, y: 101), confidence: 0.6),
        ]
        let held = Self.hold.held(weak, expected: [Self.tracked, right], found: [], minimum: Self.minimum)
        #expect(held.map(\.quad) == [Self.page, right.quad])
        #expect(held.map(\.confidence).elementsEqual([0.96, 0.99].map { $0 * Self.hold.retention }) { abs($0 - $1) < 1e-12 })
    }
}
