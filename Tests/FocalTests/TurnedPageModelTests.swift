import FocalSynthetic
import Testing

@testable import Focal

/// A portrait frame reaches the page network on its side, through the network with its kernels
/// turned to match (OpenCV 4.6's own depthwise layer ran a portrait frame's narrow maps slowly;
/// the shim's runs them as fast as wide ones, and the turn stayed). The maps must be the network's
/// own.
@Suite struct TurnedPageModelTests {
    static let width = 540, height = 960

    static func portraitScene() throws -> Frame {
        let desk = try SyntheticBackground.wood.render(width: width, height: height, seed: 7)
        let page = try SyntheticPage(width: 425, height: 550, seed: 8)
        let corners = SyntheticScene.corners(
            frameWidth: width, frameHeight: height, center: Point(x: 260, y: 500), fill: 0.7, rotation: -8, tilt: 0.1)
        return try SyntheticScene(background: desk, page: page, corners: corners, noise: 2).frame
    }

    @Test(arguments: [DetectorOptions.Accuracy.low, .high])
    func aPortraitFrameRunsOnItsSideWithTheNetworksOwnMaps(accuracy: DetectorOptions.Accuracy) throws {
        let frame = try Self.portraitScene()
        let model = try PageModel.borrow(path: nil, for: accuracy)
        defer { PageModel.giveBack(model) }
        let view = AccuracyProfile.of(accuracy).pageModelView
        try model.setTurning(false)
        let upright = try model.pageProbability(in: frame, view: view)
        try model.setTurning(true)
        // A shape's first input runs upright, its second both ways (the upright maps its answer),
        // later ones turned.
        for _ in 0..<2 { _ = try model.pageProbability(in: frame, view: view) }
        let turned = try model.pageProbability(in: frame, view: view)
        #expect(model.turnedShapeCount >= 1, "the portrait frame ran upright")
        #expect(turned.width == upright.width && turned.height == upright.height)
        let largest = zip(turned.values, upright.values).map { abs($0 - $1) }.max() ?? 1
        // Float rounding: 3e-7 measured; a kernel turned the wrong way moves whole regions.
        #expect(largest < 1e-4, "the maps differ by up to \(largest)")
        #expect((turned.values.max() ?? 0) > 0.9, "the page is not in the maps")
    }

    @Test func aLandscapeFrameRunsUpright() throws {
        let frame = try SyntheticBackground.wood.render(width: Self.height, height: Self.width, seed: 7)
        let model = try PageModel.borrow(path: nil, for: .low)
        defer { PageModel.giveBack(model) }
        let shapesBefore = model.turnedShapeCount
        _ = try model.pageProbability(in: frame, view: AccuracyProfile.of(.low).pageModelView)
        #expect(model.turnedShapeCount == shapesBefore)
    }
}
