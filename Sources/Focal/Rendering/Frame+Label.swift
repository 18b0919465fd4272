/// A small text badge: the overlay's way of putting words on a frame so that they read on light
/// paper and dark tables alike.
public struct LabelStyle: Sendable, Hashable {
    /// Capital-letter height in pixels.
    public var size: Double
    /// The text's colour.
    public var textColor: Color
    /// The badge behind the text; translucent so the frame shows through.
    public var background: Color
    /// Space between the text and the badge's edge, in pixels.
    public var padding: Double

    /// A label style of text `size` pixels tall, on `background`, with `padding` pixels round the text.
    public init(
        size: Double = 14, textColor: Color = .white, background: Color = Color(white: 0.08, alpha: 0.7), padding: Double = 5
    ) {
        self.size = size
        self.textColor = textColor
        self.background = background
        self.padding = padding
    }

    /// Stroke weight of the text: heavier as it grows, so that large labels read as well as small.
    var weight: Double { max(1, (size / 12).rounded()) }
}

extension Frame {
    /// The size of the badge ``label(_:at:style:)`` draws for `string`.
    public static func labelSize(_ string: String, style: LabelStyle) -> (width: Double, height: Double) {
        let layout = labelLayout(string, style: style)
        return (layout.width, layout.height)
    }

    /// The badge's size and its text's baseline below the badge's top.
    private static func labelLayout(_ string: String, style: LabelStyle) -> (width: Double, height: Double, baseline: Double) {
        let extent = measureText(string, size: style.size, weight: style.weight)
        return (
            extent.width + 2 * style.padding, extent.height + extent.descent + 2 * style.padding, style.padding + extent.height
        )
    }

    /// Draws text on a badge whose top-left corner is at origin. Returns the badge's rectangle.
    @discardableResult
    public mutating func label(_ string: String, at origin: Point, style: LabelStyle = LabelStyle()) throws(FocalError) -> Rect {
        let layout = Frame.labelLayout(string, style: style)
        let box = Rect(x: origin.x, y: origin.y, width: layout.width, height: layout.height)
        try fill(
            [
                Point(x: box.minX, y: box.minY), Point(x: box.maxX, y: box.minY),
                Point(x: box.maxX, y: box.maxY), Point(x: box.minX, y: box.maxY),
            ], color: style.background)
        try text(
            string, at: Point(x: box.minX + style.padding, y: box.minY + layout.baseline),
            size: style.size, color: style.textColor, weight: style.weight)
        return box
    }
}
