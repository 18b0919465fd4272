/// Draws detected features onto frames, as CIRectangleFeature overlays do in Apple's samples: a
/// translucent fill, an anti-aliased outline, corner markers and a small label. Works on every
/// pixel format, 4:2:0 video frames included, without converting them.
public struct OverlayRenderer: Sendable {
    /// Colours and sizes. The defaults read on white paper and on dark tables alike: a saturated
    /// outline with a dark halo under it, and labels on dark translucent badges.
    public struct Style: Sendable, Hashable {
        /// Documents' colour.
        public var rectangleColor: Color = Color(red: 0.1, green: 0.8, blue: 0.35)
        /// Text lines' colour.
        public var textColor: Color = Color(red: 1, green: 0.62, blue: 0.05)
        /// Faces' colour.
        public var faceColor: Color = Color(red: 0.2, green: 0.6, blue: 1)
        /// QR codes' colour.
        public var qrCodeColor: Color = Color(red: 0.85, green: 0.3, blue: 0.95)
        /// Opacity of the fill inside each feature, 0…1.
        public var fillOpacity: Double = 0.18
        /// Outline width in pixels at 720 lines; scaled with the frame's height.
        public var lineWidth: Double = 3
        /// Radius of the corner markers, pixels at 720 lines.
        public var cornerRadius: Double = 6
        /// Draw a label with type, tracking ID and confidence.
        public var showsLabels: Bool = true

        /// The default style.
        public init() {}
    }

    /// How features are drawn.
    public var style: Style

    /// A renderer drawing in `style`.
    public init(style: Style = Style()) { self.style = style }

    /// Draws each feature onto frame. `note` is added to a feature's label (sharpness, say).
    /// Labels are placed where they overlap neither each other nor the rectangles in `avoiding`
    /// (an info box), and scale with the frame. Returns the labels' rectangles.
    @discardableResult
    public func draw(_ features: [any Feature], on frame: inout Frame, notes: [Int: String] = [:], avoiding: [Rect] = [])
        throws(FocalError) -> [Rect]
    {
        let scale = Self.scale(width: frame.width, height: frame.height)
        var occupied = avoiding
        var labels: [Rect] = []
        for (index, feature) in features.enumerated() {
            let corners: [Point]
            let color: Color
            corners = (feature as? any QuadFeature)?.quad.corners ?? Quad(feature.bounds).corners
            switch feature.type {
            case .rectangle: color = style.rectangleColor
            case .text: color = style.textColor
            case .qrCode: color = style.qrCodeColor
            case .face: color = style.faceColor
            }
            if style.fillOpacity > 0 { try frame.fill(corners, color: color.withAlpha(style.fillOpacity)) }
            // A page holds dozens of text lines a few pixels tall: a thin outline, no halo and no
            // label, or the overlay would hide the text it marks.
            if feature.type == .text {
                try frame.stroke(corners, color: color, lineWidth: max(1, style.lineWidth * 0.4 * scale))
                continue
            }
            try frame.stroke(corners, color: Color(white: 0, alpha: 0.45), lineWidth: (style.lineWidth + 2) * scale)
            try frame.stroke(corners, color: color, lineWidth: style.lineWidth * scale)
            if feature.type == .rectangle || feature.type == .qrCode {
                for corner in corners {
                    try frame.circle(center: corner, radius: style.cornerRadius * scale, color: color)
                    try frame.circle(center: corner, radius: style.cornerRadius * scale, color: .white, lineWidth: max(1, scale))
                }
            }
            guard style.showsLabels else { continue }
            var text = feature.type.rawValue
            if let id = feature.trackingID { text += " #\(id)" }
            text += " " + decimal(feature.confidence, places: 2)
            if let q = feature as? QRCodeFeature, let message = q.messageString { text += " \"\(message.prefix(24))\"" }
            if let note = notes[index] { text += "  " + note }
            let labelStyle = LabelStyle(size: 13 * scale, background: Color(white: 0.05, alpha: 0.7), padding: 4 * scale)
            let size = Frame.labelSize(text, style: labelStyle)
            let origin = Self.place(
                size, near: corners, gap: 6 * scale, width: Double(frame.width), height: Double(frame.height), clearOf: occupied)
            let box = try frame.label(text, at: origin, style: labelStyle)
            occupied.append(box)
            labels.append(box)
        }
        return labels
    }

    /// How much larger than at 720 lines marks and labels are drawn: they follow the frame's
    /// shorter side, so that a 4000-pixel photo shown full screen reads like a 720p video.
    public static func scale(width: Int, height: Int) -> Double { max(0.5, Double(min(width, height)) / 720) }

    /// Where a label of `size` goes: above the feature's top corner, else below its bottom corner,
    /// else inside under its top, else stepped down from the first place until it is clear of
    /// `occupied`; always inside the frame.
    static func place(
        _ size: (width: Double, height: Double), near corners: [Point], gap: Double, width: Double, height: Double,
        clearOf occupied: [Rect]
    ) -> Point {
        let top = corners.min { $0.y < $1.y } ?? corners[0]
        let bottom = corners.max { $0.y < $1.y } ?? corners[0]
        func clamped(_ point: Point) -> Point {
            Point(
                x: min(max(2, point.x), max(2, width - size.width - 2)), y: min(max(2, point.y), max(2, height - size.height - 2))
            )
        }
        var candidates = [
            Point(x: top.x, y: top.y - size.height - gap), Point(x: bottom.x, y: bottom.y + gap),
            Point(x: top.x + gap, y: top.y + 2 * gap),
        ]
        for step in 1...24 { candidates.append(Point(x: top.x, y: top.y - size.height - gap + Double(step) * (size.height + 2))) }
        for candidate in candidates.map(clamped) {
            let box = Rect(x: candidate.x, y: candidate.y, width: size.width, height: size.height)
            if !occupied.contains(where: { $0.intersects(box) }) { return candidate }
        }
        return clamped(candidates[0])
    }
}
