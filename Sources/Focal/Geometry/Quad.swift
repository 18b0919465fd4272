/// Four corners of a quadrilateral in image pixels, always topLeft, topRight, bottomRight,
/// bottomLeft: clockwise on screen (y down).
public struct Quad: Sendable, Hashable, Codable {
    /// The top-left corner.
    public var topLeft: Point
    /// The top-right corner.
    public var topRight: Point
    /// The bottom-right corner.
    public var bottomRight: Point
    /// The bottom-left corner.
    public var bottomLeft: Point

    /// The quad with these corners, clockwise on screen from the top-left.
    public init(topLeft: Point, topRight: Point, bottomRight: Point, bottomLeft: Point) {
        self.topLeft = topLeft
        self.topRight = topRight
        self.bottomRight = bottomRight
        self.bottomLeft = bottomLeft
    }

    /// The corners in order TL, TR, BR, BL.
    public var corners: [Point] { [topLeft, topRight, bottomRight, bottomLeft] }

    /// Corners written as eight comma-separated numbers, `x1,y1,x2,y2,x3,y3,x4,y4`, or as JSON,
    /// `[[x1,y1],[x2,y2],[x3,y3],[x4,y4]]` (as `focal detect --json` reports them): top-left,
    /// top-right, bottom-right, bottom-left. Nil unless there are exactly eight finite numbers.
    public init?(commaSeparated text: some StringProtocol) {
        var text = String(text.filter { !$0.isWhitespace })
        // The JSON form, as focal detect --json writes corners: [[x1,y1],[x2,y2],[x3,y3],[x4,y4]].
        if text.hasPrefix("[") {
            guard text.hasPrefix("[["), text.hasSuffix("]]") else { return nil }
            let pairs = text.dropFirst(2).dropLast(2).split(separator: "],[", omittingEmptySubsequences: false)
            // Each corner is one x,y pair, with no bracket left inside.
            guard pairs.count == 4,
                pairs.allSatisfy({ $0.filter { $0 == "," }.count == 1 && !$0.contains("[") && !$0.contains("]") })
            else { return nil }
            text = pairs.joined(separator: ",")
        }
        let numbers = text.split(separator: ",", omittingEmptySubsequences: false).map { Double(String($0)) }
        guard numbers.count == 8, numbers.allSatisfy({ $0?.isFinite == true }) else { return nil }
        let p = numbers.map { $0! }
        self.init(
            topLeft: Point(x: p[0], y: p[1]), topRight: Point(x: p[2], y: p[3]), bottomRight: Point(x: p[4], y: p[5]),
            bottomLeft: Point(x: p[6], y: p[7]))
    }

    /// A quad from four corners in any order: sorted so that they run clockwise on screen from the
    /// corner nearest the top-left (smallest x + y).
    public init(unordered points: [Point]) {
        precondition(points.count == 4, "a quad has four corners")
        let cx = points.reduce(0) { $0 + $1.x } / 4, cy = points.reduce(0) { $0 + $1.y } / 4
        // Clockwise on screen means increasing atan2 with y down.
        var sorted = points.sorted { atan2($0.y - cy, $0.x - cx) < atan2($1.y - cy, $1.x - cx) }
        let start = sorted.indices.min { sorted[$0].x + sorted[$0].y < sorted[$1].x + sorted[$1].y } ?? 0
        sorted = Array(sorted[start...] + sorted[..<start])
        self.init(topLeft: sorted[0], topRight: sorted[1], bottomRight: sorted[2], bottomLeft: sorted[3])
    }

    /// An image's own rectangle, through its outermost pixels' centres: the quad the detector reports
    /// for a page that fills the image, and a scan of the whole image.
    init(wholeImageOfWidth width: Int, height: Int) {
        let right = Double(width - 1), bottom = Double(height - 1)
        self.init(
            topLeft: Point(x: 0, y: 0), topRight: Point(x: right, y: 0), bottomRight: Point(x: right, y: bottom),
            bottomLeft: Point(x: 0, y: bottom))
    }

    /// The axis-aligned box around the corners.
    public var bounds: Rect {
        let xs = corners.map(\.x), ys = corners.map(\.y)
        return Rect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }

    /// Signed area by the shoelace formula: positive when clockwise on screen.
    public var signedArea: Double {
        let c = corners
        var sum = 0.0
        for i in 0..<4 { sum += c[i].x * c[(i + 1) % 4].y - c[(i + 1) % 4].x * c[i].y }
        return sum / 2
    }

    /// The area enclosed, in square pixels.
    public var area: Double { abs(signedArea) }

    /// The mean of the corners.
    public var center: Point { corners.reduce(Point.zero, +) * 0.25 }

    /// The quad whose corners are `transform` of this one's, in the same order.
    func mapped(_ transform: (Point) -> Point) -> Quad {
        Quad(
            topLeft: transform(topLeft), topRight: transform(topRight), bottomRight: transform(bottomRight),
            bottomLeft: transform(bottomLeft))
    }

    /// Maps every corner through a homography; nil if one goes to infinity.
    public func applying(_ homography: Homography) -> Quad? {
        guard let a = homography.apply(topLeft), let b = homography.apply(topRight),
            let c = homography.apply(bottomRight), let d = homography.apply(bottomLeft)
        else { return nil }
        return Quad(topLeft: a, topRight: b, bottomRight: c, bottomLeft: d)
    }

    /// The largest distance between corresponding corners.
    public func maximumCornerDistance(to other: Quad) -> Double {
        zip(corners, other.corners).map { $0.distance(to: $1) }.max()!
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
