import CFocal

extension Quad {
    /// The four corners the shim reports as x and y tuples, in its order (TL, TR, BR, BL).
    static func corners(x: (Double, Double, Double, Double), y: (Double, Double, Double, Double)) -> [Point] {
        [Point(x: x.0, y: y.0), Point(x: x.1, y: y.1), Point(x: x.2, y: y.2), Point(x: x.3, y: y.3)]
    }

    /// A quad from the shim's, corners already in TL, TR, BR, BL order.
    init(shim quad: cfocal_quad) {
        let c = Quad.corners(x: quad.x, y: quad.y)
        self.init(topLeft: c[0], topRight: c[1], bottomRight: c[2], bottomLeft: c[3])
    }

    /// The shim's form of this quad.
    var shim: cfocal_quad {
        cfocal_quad(
            x: (topLeft.x, topRight.x, bottomRight.x, bottomLeft.x),
            y: (topLeft.y, topRight.y, bottomRight.y, bottomLeft.y), confidence: 0)
    }
}
