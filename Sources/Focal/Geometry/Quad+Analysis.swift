import CFocal

extension Quad {
    /// Whether the quad is convex and its corners run clockwise on screen, as detected quads do.
    public var isConvex: Bool {
        let c = corners
        for i in 0..<4 {
            let a = c[i], b = c[(i + 1) % 4], d = c[(i + 2) % 4]
            if (b.x - a.x) * (d.y - a.y) - (b.y - a.y) * (d.x - a.x) <= 0 { return false }
        }
        return true
    }

    /// Interior angles in degrees at topLeft, topRight, bottomRight, bottomLeft.
    public var interiorAngles: [Double] {
        let c = corners
        return (0..<4).map { i in
            let a = c[(i + 3) % 4] - c[i], b = c[(i + 1) % 4] - c[i]
            let cosine =
                (a.x * b.x + a.y * b.y) / max(1e-12, (a.x * a.x + a.y * a.y).squareRoot() * (b.x * b.x + b.y * b.y).squareRoot())
            return acos(min(1, max(-1, cosine))) * 180 / .pi
        }
    }

    /// The largest deviation of an interior angle from 90°: Vision's quadrature measure.
    public var quadratureError: Double { interiorAngles.map { abs($0 - 90) }.max() ?? 0 }

    /// Intersection over union with another quad (both convex), 0…1.
    public func intersectionOverUnion(with other: Quad) -> Double {
        let overlap = Quad.clip(corners, by: other.corners)
        let inter = Quad.polygonArea(overlap)
        let union = area + other.area - inter
        return union > 0 ? inter / union : 0
    }

    /// The homography from this quad onto an upright `width × height` rectangle (corners at the
    /// pixel edges), as used to flatten a document.
    public func homographyToRectangle(width: Double, height: Double) throws(FocalError) -> Homography {
        try Homography(
            from: corners,
            to: [
                Point(x: -0.5, y: -0.5), Point(x: width - 0.5, y: -0.5),
                Point(x: width - 0.5, y: height - 0.5), Point(x: -0.5, y: height - 0.5),
            ])
    }

    /// The mean of the two horizontal sides and of the two vertical sides.
    public var averageSideLengths: (width: Double, height: Double) {
        (
            (topLeft.distance(to: topRight) + bottomLeft.distance(to: bottomRight)) / 2,
            (topLeft.distance(to: bottomLeft) + topRight.distance(to: bottomRight)) / 2
        )
    }

    static func polygonArea(_ p: [Point]) -> Double {
        guard p.count >= 3 else { return 0 }
        var s = 0.0
        for i in p.indices { s += p[i].x * p[(i + 1) % p.count].y - p[(i + 1) % p.count].x * p[i].y }
        return abs(s) / 2
    }

    // Sutherland–Hodgman: subject clipped by a convex, clockwise-on-screen polygon.
    static func clip(_ subject: [Point], by clipper: [Point]) -> [Point] {
        var output = subject
        for i in clipper.indices {
            let a = clipper[i], b = clipper[(i + 1) % clipper.count]
            func inside(_ p: Point) -> Bool { (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x) >= 0 }
            func crossing(_ p: Point, _ q: Point) -> Point {
                let d1 = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
                let d2 = (b.x - a.x) * (q.y - a.y) - (b.y - a.y) * (q.x - a.x)
                let t = d1 / (d1 - d2)
                return Point(x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t)
            }
            let input = output
            output = []
            guard let last = input.last else { break }
            var previous = last
            for point in input {
                if inside(point) {
                    if !inside(previous) { output.append(crossing(previous, point)) }
                    output.append(point)
                } else if inside(previous) {
                    output.append(crossing(previous, point))
                }
                previous = point
            }
        }
        return output
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Quad {
    /// Whether the point lies inside the quad or on its edge (for convex quads).
    public func contains(_ p: Point) -> Bool {
        var sign = 0.0
        for i in 0..<4 {
            let a = corners[i], b = corners[(i + 1) % 4]
            let cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
            if cross == 0 { continue }
            if sign == 0 { sign = cross } else if (sign > 0) != (cross > 0) { return false }
        }
        return true
    }
}
