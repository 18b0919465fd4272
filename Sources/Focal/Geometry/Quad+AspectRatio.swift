extension Quad {
    /// The true width-to-height ratio of the rectangle this quad shows in perspective, from the
    /// camera geometry (Zhang & He, "Whiteboard scanning and image enhancement", 2007): the focal
    /// length is recovered from the quad itself, assuming square pixels and the principal point at
    /// `principalPoint` (the image centre). Side lengths alone get this wrong whenever the page is
    /// tilted towards the camera. Falls back to the side lengths when the view is too frontal for
    /// the focal length to be recovered.
    public func estimatedAspectRatio(principalPoint: Point) -> Double {
        // Corners relative to the principal point, homogeneous: m1 TL, m2 TR, m3 BL, m4 BR.
        func h(_ p: Point) -> SIMD3<Double> { SIMD3(p.x - principalPoint.x, p.y - principalPoint.y, 1) }
        func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
            SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
        }
        func dot(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { (a * b).sum() }
        let m1 = h(topLeft), m2 = h(topRight), m3 = h(bottomLeft), m4 = h(bottomRight)
        let sides = averageSideLengths
        let fallback = sides.width / max(sides.height, 1e-9)
        let d2 = dot(cross(m2, m4), m3), d3 = dot(cross(m3, m4), m2)
        guard abs(d2) > 1e-9, abs(d3) > 1e-9 else { return fallback }
        let k2 = dot(cross(m1, m4), m3) / d2
        let k3 = dot(cross(m1, m4), m2) / d3
        let n2 = m2 * k2 - m1, n3 = m3 * k3 - m1
        let f2 = -(n2.x * n3.x + n2.y * n3.y) / (n2.z * n3.z)
        guard f2.isFinite, f2 > 0, abs(n2.z * n3.z) > 1e-9 else { return fallback }
        let width2 = (n2.x * n2.x + n2.y * n2.y) / f2 + n2.z * n2.z
        let height2 = (n3.x * n3.x + n3.y * n3.y) / f2 + n3.z * n3.z
        let ratio = (width2 / height2).squareRoot()
        // A ratio far from what the sides say means the geometry was degenerate; trust the sides.
        return ratio.isFinite && ratio > fallback / 3 && ratio < fallback * 3 ? ratio : fallback
    }
}
