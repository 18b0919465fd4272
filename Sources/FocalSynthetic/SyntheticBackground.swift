import Focal

/// Table surfaces for synthetic scenes.
public enum SyntheticBackground: Sendable, Hashable {
    /// Wood-like grain: a warm base, low-frequency blotches and streaks.
    case wood
    /// A dark desk with objects on it (books, devices, a mug), none as light as paper: edges that
    /// compete with a page's without being documents themselves.
    case cluttered
    /// A pale pebble-dash wall or concrete facade: small stones of many greys on a pale ground, the
    /// lightest as light as paper, so that a page differs from it in texture more than in brightness.
    case pebbleDash
    /// One flat colour.
    case plain(Color)

    /// Renders the background at the given size.
    public func render(width: Int, height: Int, seed: UInt64) throws(FocalError) -> Frame {
        var random = SeededGenerator(seed: seed)
        switch self {
        case .plain(let color):
            return try Frame(width: width, height: height, format: .bgr8, color: color)
        case .wood:
            var frame = try Frame(width: width, height: height, format: .bgr8, color: Color(red: 0.55, green: 0.36, blue: 0.2))
            for _ in 0..<(height / 6) {
                let y = random.uniform(0...Double(height)), wave = random.uniform(4...18), shade = random.uniform(0.25...0.5)
                let points = stride(from: 0.0, through: Double(width), by: 40).map {
                    Point(x: $0, y: y + wave * sin($0 / random.uniform(120...260)))
                }
                try frame.stroke(
                    points, color: Color(red: shade, green: shade * 0.62, blue: shade * 0.33, alpha: 0.35),
                    lineWidth: random.uniform(1...4), closed: false)
            }
            frame = try frame.gaussianBlurred(sigma: 1.2)
            try frame.addNoise(sigma: 4, seed: seed &+ 7)
            return frame
        case .pebbleDash:
            var frame = try Frame(width: width, height: height, format: .bgr8, color: Color(red: 0.8, green: 0.77, blue: 0.72))
            for _ in 0..<(width * height / 90) {
                let shade = random.uniform(0.45...0.98)
                try frame.circle(
                    center: Point(x: random.uniform(0...Double(width)), y: random.uniform(0...Double(height))),
                    radius: random.uniform(2...6), color: Color(red: shade, green: shade * 0.96, blue: shade * 0.9))
            }
            frame = try frame.gaussianBlurred(sigma: 0.8)
            try frame.addNoise(sigma: 3, seed: seed &+ 13)
            return frame
        case .cluttered:
            var frame = try Frame(width: width, height: height, format: .bgr8, color: Color(red: 0.22, green: 0.22, blue: 0.25))
            for _ in 0..<14 {
                let w = random.uniform(0.08...0.3) * Double(width), h = random.uniform(0.08...0.3) * Double(height)
                let cx = random.uniform(0...Double(width)), cy = random.uniform(0...Double(height))
                let angle = random.uniform(-0.6...0.6)
                let corners = [(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)].map { (dx, dy) in
                    Point(x: cx + dx * cos(angle) - dy * sin(angle), y: cy + dx * sin(angle) + dy * cos(angle))
                }
                // Books, devices, boxes: darker than paper, so that a page is the only document.
                let color = Color(
                    red: random.uniform(0.08...0.55), green: random.uniform(0.08...0.5), blue: random.uniform(0.08...0.5))
                try frame.fill(corners, color: color)
                try frame.stroke(corners, color: color.withAlpha(1), lineWidth: 1)
            }
            for _ in 0..<6 {
                try frame.circle(
                    center: Point(x: random.uniform(0...Double(width)), y: random.uniform(0...Double(height))),
                    radius: random.uniform(0.03...0.09) * Double(width),
                    color: Color(white: random.uniform(0.3...0.9)), lineWidth: random.uniform(3...9))
            }
            try frame.addNoise(sigma: 3, seed: seed &+ 11)
            return frame
        }
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
