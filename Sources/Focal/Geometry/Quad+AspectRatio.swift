extension Quad {
    /// The true width-to-height ratio of the rectangle this quad shows in perspective, from the
    /// camera geometry (Zhang & He, "Whiteboard scanning and image enhancement", 2007), assuming
    /// square pixels and the principal point at the image centre. Side lengths alone get this
    /// wrong by several percent whenever the page is tilted towards the camera.
    ///
    /// The focal length is recovered from the quad itself unless given. When the view makes that
    /// ill-conditioned (a pair of sides almost parallel in the image), the estimate uses
    /// `0.8 × the longer image side` instead: a 64° horizontal field of view, typical of phone
    /// cameras. Pass `focalLength` (pixels) if you know it.
    public func estimatedAspectRatio(imageWidth: Int, imageHeight: Int, focalLength: Double? = nil) -> Double {
        let centre = Point(x: Double(imageWidth - 1) / 2, y: Double(imageHeight - 1) / 2)
        // Corners relative to the principal point, homogeneous: m1 TL, m2 TR, m3 BL, m4 BR.
        func h(_ p: Point) -> SIMD3<Double> { SIMD3(p.x - centre.x, p.y - centre.y, 1) }
        func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
            SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
        }
        func dot(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { (a * b).sum() }
        let m1 = h(topLeft), m2 = h(topRight), m3 = h(bottomLeft), m4 = h(bottomRight)
        let sides = averageSideLengths
        let fallback = sides.width / max(sides.height, 1e-9)
        let d2 = dot(cross(m2, m4), m3), d3 = dot(cross(m3, m4), m2)
        guard abs(d2) > 1e-9, abs(d3) > 1e-9 else { return fallback }
        let n2 = m2 * (dot(cross(m1, m4), m3) / d2) - m1
        let n3 = m3 * (dot(cross(m1, m4), m2) / d3) - m1
        let prior = 0.8 * Double(max(imageWidth, imageHeight))
        var f2: Double
        if let focalLength {
            f2 = focalLength * focalLength
        } else {
            // n.z measures how far each pair of sides is from parallel in the image; near zero the
            // recovered focal length is noise.
            f2 = -(n2.x * n3.x + n2.y * n3.y) / (n2.z * n3.z)
            let wellConditioned =
                min(abs(n2.z), abs(n3.z)) > 0.01 && f2.isFinite && f2 > 0
                && f2.squareRoot() > 0.3 * prior && f2.squareRoot() < 4 * prior
            if !wellConditioned { f2 = prior * prior }
        }
        let width2 = (n2.x * n2.x + n2.y * n2.y) / f2 + n2.z * n2.z
        let height2 = (n3.x * n3.x + n3.y * n3.y) / f2 + n3.z * n3.z
        let ratio = (width2 / height2).squareRoot()
        return ratio.isFinite && ratio > fallback / 3 && ratio < fallback * 3 ? ratio : fallback
    }
}
