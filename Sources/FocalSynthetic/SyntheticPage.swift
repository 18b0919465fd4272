import Focal

/// A printed page rendered with known content: a title, paragraphs of words, sometimes a figure.
public struct SyntheticPage: Sendable {
    /// The page's pixels (BGR), `width × height`.
    public var image: Frame
    /// One box per text line, in page pixels.
    public var textLines: [Rect]

    /// A page from an existing image and its line boxes.
    public init(image: Frame, textLines: [Rect]) {
        self.image = image
        self.textLines = textLines
    }

    private static let words = """
        the of committee report annual review schedule budget office north wing request parts filed
        month measurements entrance decline traffic notice records staff revised funds archive reading
        volunteers desk visitor badge deliveries morning holidays summary findings procedure manager
        survey households period storage participants guide contacts minutes meeting lighting spring
        invoices department bookings autumn term first monday september replacement quarterly
        """.split(whereSeparator: \.isWhitespace).map(String.init)

    /// Renders a page. Sizes are in page pixels; 850 × 1100 is US Letter at 100 pixels per inch.
    public init(
        width: Int = 850, height: Int = 1100, seed: UInt64, paper: Color = Color(red: 0.96, green: 0.95, blue: 0.92),
        ink: Color = Color(white: 0.12), withFigure: Bool = true
    ) throws(FocalError) {
        var random = SeededGenerator(seed: seed)
        var page = try Frame(width: width, height: height, format: .bgr8, color: paper)
        try page.addNoise(sigma: 2, seed: seed &+ 1)
        let margin = Double(width) * 0.09
        var lines: [Rect] = []
        var y = Double(height) * 0.08
        func line(_ text: String, size: Double, weight: Double) throws(FocalError) {
            let extent = Frame.measureText(text, size: size, weight: weight)
            try page.text(text, at: Point(x: margin, y: y + extent.height), size: size, color: ink, weight: weight)
            lines.append(Rect(x: margin, y: y, width: extent.width, height: extent.height + extent.descent))
            y += (extent.height + extent.descent) * 1.7
        }
        let scale = Double(width) / 850
        var title = ""
        for _ in 0..<3 { title += (title.isEmpty ? "" : " ") + Self.words.randomElement(using: &random)!.capitalized }
        try line(title, size: 34 * scale, weight: 3 * scale)
        y += 10 * scale
        let usable = Double(width) - 2 * margin
        var figureDone = !withFigure
        while y < Double(height) * 0.9 {
            if !figureDone && y > Double(height) * 0.35 {
                let box = Rect(x: margin, y: y, width: usable * 0.55, height: Double(height) * 0.16)
                try page.fill(
                    [
                        Point(x: box.minX, y: box.minY), Point(x: box.maxX, y: box.minY),
                        Point(x: box.maxX, y: box.maxY), Point(x: box.minX, y: box.maxY),
                    ],
                    color: Color(red: 0.55, green: 0.68, blue: 0.8))
                try page.circle(
                    center: Point(x: box.minX + box.width * 0.3, y: box.minY + box.height * 0.5),
                    radius: box.height * 0.3, color: Color(red: 0.9, green: 0.6, blue: 0.3))
                y += box.height + 24 * scale
                figureDone = true
                continue
            }
            // A paragraph of 3 to 6 lines, the last one short.
            let count = Int.random(in: 3...6, using: &random)
            for index in 0..<count where y < Double(height) * 0.9 {
                let target = usable * (index == count - 1 ? random.uniform(0.3...0.7) : random.uniform(0.85...1.0))
                var text = ""
                while true {
                    let next = (text.isEmpty ? "" : text + " ") + Self.words.randomElement(using: &random)!
                    if Frame.measureText(next, size: 13 * scale).width > target { break }
                    text = next
                }
                try line(text, size: 13 * scale, weight: max(1, 1.2 * scale))
            }
            y += 14 * scale
        }
        image = page
        textLines = lines
    }
}
