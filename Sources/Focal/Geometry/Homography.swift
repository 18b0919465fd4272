import CFocal

/// A 3×3 projective transform between two planes (row-major), as OpenCV's perspective functions use.
public struct Homography: Sendable, Hashable, Codable {
    /// The 3 × 3 matrix, row by row.
    public var matrix: [Double]

    /// The homography of a 3 × 3 matrix given row by row.
    public init(matrix: [Double]) {
        precondition(matrix.count == 9, "a homography has 9 entries")
        self.matrix = matrix
    }

    /// The homography that moves nothing.
    public static let identity = Homography(matrix: [1, 0, 0, 0, 1, 0, 0, 0, 1])

    /// The homography taking the four source points onto the four destination points.
    public init(from source: [Point], to destination: [Point]) throws(FocalError) {
        guard source.count == 4, destination.count == 4 else {
            throw FocalError(.invalidArgument, operation: "compute homography", reason: "needs four points on each side")
        }
        let a = source.flatMap { [$0.x, $0.y] }, b = destination.flatMap { [$0.x, $0.y] }
        var m = [Double](repeating: 0, count: 9)
        try check(cfocal_homography_from_quads(a, b, &m), "compute homography")
        matrix = m
    }

    /// Maps a point; nil where the point goes to infinity (behind the camera).
    public func apply(_ p: Point) -> Point? {
        let m = matrix
        let w = m[6] * p.x + m[7] * p.y + m[8]
        guard abs(w) > 1e-12 else { return nil }
        return Point(x: (m[0] * p.x + m[1] * p.y + m[2]) / w, y: (m[3] * p.x + m[4] * p.y + m[5]) / w)
    }

    /// The inverse transform, or nil if the matrix is singular.
    public var inverse: Homography? {
        let m = matrix
        let a = m[4] * m[8] - m[5] * m[7], b = m[5] * m[6] - m[3] * m[8], c = m[3] * m[7] - m[4] * m[6]
        let det = m[0] * a + m[1] * b + m[2] * c
        guard abs(det) > 1e-15 else { return nil }
        let inv = [
            a, m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
            b, m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
            c, m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3],
        ]
        return Homography(matrix: inv.map { $0 / det })
    }

    /// This transform followed by other.
    public func followed(by other: Homography) -> Homography {
        let a = other.matrix, b = matrix
        var r = [Double](repeating: 0, count: 9)
        for i in 0..<3 { for j in 0..<3 { r[i * 3 + j] = (0..<3).reduce(0) { $0 + a[i * 3 + $1] * b[$1 * 3 + j] } } }
        return Homography(matrix: r)
    }
}
