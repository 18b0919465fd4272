import Focal

#if canImport(Glibc)
    import Glibc
#endif

/// A flat page photographed under uneven light, with what each pixel truly is: a
/// ``SyntheticPage`` with faint pencil strokes added, then a light falling off across the page and a
/// cast shadow (a hand or a phone) over one part. For measuring scan enhancement against truth.
public struct ShadedPage: Sendable {
    /// What a pixel of the clean page is.
    public enum Truth: UInt8, Sendable, CaseIterable {
        case paper, ink, pencil, other
        /// A solid near-black band across the page (an ID card's magnetic stripe, a black box).
        case darkArea
        /// A solid blue band across the top (a form's header band).
        case colourArea
        /// A light grey band (a table's shaded row), a sixth darker than the paper.
        case greyArea
    }
    /// The page as the camera sees it (BGR).
    public var image: Frame
    /// The page under even light, before shading (BGR).
    public var clean: Frame
    /// One ``Truth`` per pixel, row-major, `width × height`.
    public var truth: [Truth]
    /// The light's strength over the page: 1 at its brightest, `darkest` in the shadow's core.
    public var darkest: Double

    /// Light falls from `1` on the right edge to `falloff` on the left; the shadow, a soft-edged
    /// band over the lower left, multiplies what is under it by `shadow`.
    /// With `solidAreas`, the page also has solid areas of tone and colour that enhancement must
    /// keep: ``Truth/darkArea``, ``Truth/colourArea`` and ``Truth/greyArea``.
    public init(
        width: Int = 850, height: Int = 1100, seed: UInt64, falloff: Double = 0.6, shadow: Double = 0.55,
        solidAreas: Bool = false
    ) throws(FocalError) {
        var page = try Self.pageWithPencil(width: width, height: height, seed: seed)
        let paper = Color(red: 0.96, green: 0.95, blue: 0.92)
        var truth = Self.truth(of: page, paper: paper)
        if solidAreas { try Self.addSolidAreas(to: &page, truth: &truth, paper: paper) }
        clean = page
        self.truth = truth
        darkest = falloff * shadow
        let light = Self.light(width: width, height: height, falloff: falloff, shadow: shadow)
        var shaded = try Frame(width: width, height: height, format: .bgr8)
        let stride = shaded.bytesPerRow
        page.withUnsafeBytes { source in
            shaded.withUnsafeMutableBytes { target in
                for row in 0..<height {
                    for column in 0..<width {
                        let factor = light[row * width + column]
                        for channel in 0..<3 {
                            let value = Double(source[row * page.bytesPerRow + column * 3 + channel]) * factor
                            target[row * stride + column * 3 + channel] = UInt8(min(255, value.rounded()))
                        }
                    }
                }
            }
        }
        try shaded.addNoise(sigma: 2, seed: seed &+ 11)
        image = shaded
    }

    /// A rendered page with faint pencil: a margin note's strokes, a fifth darker than the paper.
    private static func pageWithPencil(width: Int, height: Int, seed: UInt64) throws(FocalError) -> Frame {
        var page = try SyntheticPage(width: width, height: height, seed: seed).image
        let pencil = Color(red: 0.96 * 0.8, green: 0.95 * 0.8, blue: 0.92 * 0.8)
        var random = SeededGenerator(seed: seed &+ 7)
        for index in 0..<6 {
            let y = Double(height) * (0.2 + 0.12 * Double(index))
            let x = Double(width) * 0.91 + random.uniform(-4...4)
            try page.stroke(
                [Point(x: x, y: y), Point(x: x + 18, y: y + 30), Point(x: x + 4, y: y + 60)], color: pencil, lineWidth: 1.6,
                closed: false)
        }
        return page
    }

    /// The solid areas, each a band whose pixels are all of its kind: the colour band across the
    /// top, the dark band below it, the grey row lower down.
    static let solidBands: [(kind: Truth, top: Double, bottom: Double, left: Double, right: Double)] = [
        (.colourArea, 0.04, 0.11, 0, 1), (.darkArea, 0.16, 0.28, 0, 1), (.greyArea, 0.62, 0.67, 0.05, 0.95),
    ]

    private static func addSolidAreas(to page: inout Frame, truth: inout [Truth], paper: Color) throws(FocalError) {
        let width = page.width, height = page.height
        for band in solidBands {
            let color: Color =
                switch band.kind {
                case .colourArea: Color(red: 0.15, green: 0.35, blue: 0.75)
                case .darkArea: Color(white: 0.08)
                default: Color(red: paper.red * 0.83, green: paper.green * 0.83, blue: paper.blue * 0.83)
                }
            let (x0, x1) = (Int(band.left * Double(width)), Int(band.right * Double(width)) - 1)
            let (y0, y1) = (Int(band.top * Double(height)), Int(band.bottom * Double(height)) - 1)
            try page.fill(
                [
                    Point(x: Double(x0), y: Double(y0)), Point(x: Double(x1), y: Double(y0)), Point(x: Double(x1), y: Double(y1)),
                    Point(x: Double(x0), y: Double(y1)),
                ], color: color)
            // The band's edge pixels are part drawn: they count as neither paper nor band.
            for y in y0...y1 {
                for x in x0...x1 {
                    let inside = y >= y0 + 2 && y <= y1 - 2 && x >= x0 + 2 && x <= x1 - 2
                    truth[y * width + x] = inside ? band.kind : .other
                }
            }
        }
    }

    /// What each pixel of the clean page is: ink, pencil, paper or other.
    private static func truth(of page: Frame, paper: Color) -> [Truth] {
        let width = page.width, height = page.height
        let paperGray = paper.gray
        return page.withUnsafeBytes { bytes in
            (0..<(width * height)).map { index in
                let row = index / width, column = index % width
                let offset = row * page.bytesPerRow + column * 3
                let b = Double(bytes[offset]), g = Double(bytes[offset + 1]), r = Double(bytes[offset + 2])
                let gray = (0.114 * b + 0.587 * g + 0.299 * r) / 255
                let isPencilColumn = Double(column) > Double(width) * 0.9
                if gray < 0.5 * paperGray { return .ink }
                if isPencilColumn && gray < 0.9 * paperGray { return .pencil }
                if abs(gray - paperGray) < 0.04 && max(b, g, r) - min(b, g, r) < 20 { return .paper }
                return .other
            }
        }
    }

    /// The light over the page: a falloff across it, and a shadow whose edge is blurred over 2 %
    /// of the page's width, as one cast from a few centimetres above it.
    private static func light(width: Int, height: Int, falloff: Double, shadow: Double) -> [Double] {
        var light = [Double](repeating: 0, count: width * height)
        let softness = 0.02 * Double(width)
        for row in 0..<height {
            for column in 0..<width {
                let across = falloff + (1 - falloff) * Double(column) / Double(width - 1)
                // The shadow covers below the line from (0, 0.55 h) to (0.45 w, h).
                let edgeX = 0.45 * Double(width) * (Double(row) / Double(height) - 0.55) / 0.45
                let inside = (edgeX - Double(column)) / softness
                let weight = 1 / (1 + exp(-inside * 4))
                light[row * width + column] = across * (1 - weight * (1 - shadow))
            }
        }
        return light
    }

    /// How far enhancement moved the tone of `kind`'s pixels, in grey levels (0…255): the mean over
    /// them and over the three channels of the difference between each channel's value relative to
    /// the paper's, in `enhanced` and in the clean page. 0 when a band keeps its tone and colour
    /// against the paper; a dark band washed out to white is about 230.
    public func toneError(of enhanced: Frame, where kind: Truth) -> Double {
        func relative(_ frame: Frame) -> (values: [[Double]], paper: [Double]) {
            frame.withUnsafeBytes { bytes in
                var values: [[Double]] = []
                var paper = [0.0, 0.0, 0.0], paperCount = 0.0
                for index in truth.indices where truth[index] == kind || truth[index] == .paper {
                    let offset = (index / frame.width) * frame.bytesPerRow + (index % frame.width) * 3
                    let pixel = (0..<3).map { Double(bytes[offset + $0]) }
                    if truth[index] == kind {
                        values.append(pixel)
                    } else {
                        for c in 0..<3 { paper[c] += pixel[c] }
                        paperCount += 1
                    }
                }
                return (values, paper.map { $0 / max(paperCount, 1) })
            }
        }
        let (now, nowPaper) = relative(enhanced), (was, wasPaper) = relative(clean)
        var total = 0.0
        for (a, b) in zip(now, was) {
            for c in 0..<3 { total += abs(a[c] / max(nowPaper[c], 1) - b[c] / max(wasPaper[c], 1)) * 255 }
        }
        return total / Double(max(now.count * 3, 1))
    }

    /// The luminance (0…255) of each pixel of `frame` of this page's kind `kind`.
    public func luminance(of frame: Frame, where kind: Truth) -> [Double] {
        let channels = frame.format.bytesPerPixel
        return frame.withUnsafeBytes { bytes in
            var values: [Double] = []
            for index in truth.indices where truth[index] == kind {
                let offset = (index / frame.width) * frame.bytesPerRow + (index % frame.width) * channels
                if channels == 1 {
                    values.append(Double(bytes[offset]))
                } else {
                    values.append(
                        0.114 * Double(bytes[offset]) + 0.587 * Double(bytes[offset + 1]) + 0.299 * Double(bytes[offset + 2]))
                }
            }
            return values
        }
    }
}

extension Color {
    /// Luminance, 0…1, with the weights OpenCV's BGR-to-gray conversion uses.
    var gray: Double { 0.114 * blue + 0.587 * green + 0.299 * red }
}
