import CFocal

/// Drawing onto frames, anti-aliased, in place. Works on every pixel format, `.yuv420` included
/// (chroma at half resolution), so overlays on decoded video need no conversion.
extension Frame {
    /// Strokes the outline through points (closed by default) with a line `lineWidth` pixels wide.
    public mutating func stroke(_ points: [Point], color: Color, lineWidth: Double = 2, closed: Bool = true) throws(FocalError) {
        try drawPolygon(points, color: color, thickness: max(lineWidth, 1), closed: closed)
    }

    /// Fills the polygon through points; a translucent colour blends with what is underneath.
    public mutating func fill(_ points: [Point], color: Color) throws(FocalError) {
        try drawPolygon(points, color: color, thickness: -1, closed: true)
    }

    /// Strokes or fills (lineWidth nil) a circle.
    public mutating func circle(center: Point, radius: Double, color: Color, lineWidth: Double? = nil) throws(FocalError) {
        try withMutableShimImage { (image) throws(FocalError) in
            try check(cfocal_draw_circle(&image, center.x, center.y, radius, color.shim, lineWidth ?? -1), "draw circle")
        }
    }

    /// Draws text with the left end of its baseline at origin; `size` is the capital-letter height in pixels.
    public mutating func text(_ string: String, at origin: Point, size: Double, color: Color, weight: Double = 1)
        throws(FocalError)
    {
        try withMutableShimImage { (image) throws(FocalError) in
            try check(cfocal_draw_text(&image, string, origin.x, origin.y, size, color.shim, weight), "draw text")
        }
    }

    /// The width, height above the baseline, and depth below it that ``text(_:at:size:color:weight:)`` covers.
    public static func measureText(_ string: String, size: Double, weight: Double = 1) -> (
        width: Double, height: Double, descent: Double
    ) {
        var width = 0.0, height = 0.0, baseline = 0.0
        _ = cfocal_measure_text(string, size, weight, &width, &height, &baseline)
        return (width, height, baseline)
    }

    private mutating func drawPolygon(_ points: [Point], color: Color, thickness: Double, closed: Bool) throws(FocalError) {
        guard points.count >= 2 else {
            throw FocalError(.invalidArgument, operation: "draw polygon", reason: "needs two or more points")
        }
        let xy = points.flatMap { [$0.x, $0.y] }
        try withMutableShimImage { (image) throws(FocalError) in
            try check(cfocal_draw_polygon(&image, xy, Int32(points.count), closed ? 1 : 0, color.shim, thickness), "draw polygon")
        }
    }
}
