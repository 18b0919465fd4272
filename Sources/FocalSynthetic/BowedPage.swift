import Focal
import Foundation

extension SyntheticScene {
    /// `background` with `page` drawn bowed, as a sheet held by one hand bends: its corners at
    /// `corners`, its left and right sides curving out from the straight line between their
    /// corners by `bow` of the page's width at their middles (a negative `bow` curves them in).
    ///
    /// The page is drawn as `strips` bands across it, each through its own perspective, whose ends
    /// lie on the curved sides: a curved sheet in pieces too small to see. The field counts such a
    /// page's quad as the one joining its four corners.
    public static func bowedPage(
        on background: Frame, page: SyntheticPage, corners: Quad, bow: Double, strips: Int = 24
    ) throws(FocalError) -> Frame {
        let image = try page.image.format == background.format ? page.image : page.image.converted(to: background.format)
        let width = Double(image.width), height = Double(image.height)
        let pageWidth =
            (corners.topLeft.distance(to: corners.topRight) + corners.bottomLeft.distance(to: corners.bottomRight)) / 2
        let bulge = pageWidth * bow
        func side(_ top: Point, _ bottom: Point, outward: Double, at t: Double) -> Point {
            let along = bottom - top, length = top.distance(to: bottom)
            let normal = Point(x: along.y / length * outward, y: -along.x / length * outward)
            return top + along * t + normal * (bulge * sin(.pi * t))
        }
        var frame = background
        for strip in 0..<strips {
            // Each band reaches a row into the next, so that no seam of background shows between them.
            let first = strip * image.height / strips, last = min(image.height, (strip + 1) * image.height / strips + 1)
            let band = try rows(first..<last, of: image)
            let t0 = Double(first) / height, t1 = Double(last) / height
            let target = [
                side(corners.topLeft, corners.bottomLeft, outward: -1, at: t0),
                side(corners.topRight, corners.bottomRight, outward: 1, at: t0),
                side(corners.topRight, corners.bottomRight, outward: 1, at: t1),
                side(corners.topLeft, corners.bottomLeft, outward: -1, at: t1),
            ]
            let bandHeight = Double(band.height)
            let source = [
                Point(x: -0.5, y: -0.5), Point(x: width - 0.5, y: -0.5), Point(x: width - 0.5, y: bandHeight - 0.5),
                Point(x: -0.5, y: bandHeight - 0.5),
            ]
            try frame.composite(band, through: try Homography(from: source, to: target))
        }
        return frame
    }

    /// Rows `range` of a single-plane image, as a frame of their own.
    private static func rows(_ range: Range<Int>, of image: Frame) throws(FocalError) -> Frame {
        let stride = image.bytesPerRow
        let band = image.withUnsafeBytes { (bytes) in
            Result { () throws(FocalError) -> Frame in
                // The last row may end without its padding.
                let end = min(range.upperBound * stride, bytes.count)
                let slice = UnsafeRawBufferPointer(rebasing: bytes[(range.lowerBound * stride)..<end])
                return try Frame(
                    width: image.width, height: range.count, format: image.format, bytesPerRow: stride, bytes: slice)
            }
        }
        return try band.get()
    }
}
