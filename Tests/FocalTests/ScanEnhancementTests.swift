import Focal
import FocalSynthetic
import Testing

/// Scan enhancement on a rendered page under a known falloff of light and a cast shadow, checked
/// against what each pixel of the clean page is.
@Suite struct ScanEnhancementTests {
    static func spread(_ values: [Double]) -> Double {
        let mean = values.reduce(0, +) / Double(values.count)
        return (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)).squareRoot()
    }

    static func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(values.count) }

    @Test func colorEvensOutTheLightWhitensThePaperAndKeepsTheInk() throws {
        let page = try ShadedPage(seed: 31)
        let before = page.luminance(of: page.image, where: .paper)
        let enhanced = try page.image.enhanced(.color)
        #expect(enhanced.format == .bgr8 && enhanced.width == page.image.width)
        let after = page.luminance(of: enhanced, where: .paper)
        // The light ranges over a factor of three: the paper's spread is large before, small after.
        #expect(Self.spread(before) > 40)
        #expect(Self.spread(after) < 0.15 * Self.spread(before), "paper spread \(Self.spread(before)) → \(Self.spread(after))")
        #expect(Self.mean(after) > 240, "the paper is white")
        // Ink stays dark where the light was brightest and where it was darkest.
        let ink = page.luminance(of: enhanced, where: .ink)
        #expect(Self.mean(ink) < 90, "ink \(Self.mean(ink))")
        #expect(ink.filter { $0 > 160 }.count < ink.count / 50, "ink is not washed out")
    }

    /// A dark band (a magnetic stripe), a blue band and a grey row keep their tone and colour
    /// against the paper, while the paper around them is still evened out. Before, the dark band
    /// came out white (a tone error of about 208 grey levels) and the grey row vanished (43).
    @Test func colorKeepsSolidDarkColouredAndGreyAreas() throws {
        let page = try ShadedPage(seed: 35, solidAreas: true)
        let enhanced = try page.image.enhanced(.color)
        let dark = page.toneError(of: enhanced, where: .darkArea)
        let colour = page.toneError(of: enhanced, where: .colourArea)
        let grey = page.toneError(of: enhanced, where: .greyArea)
        #expect(dark < 15, "the dark band moved by \(dark) grey levels")
        #expect(colour < 15, "the blue band moved by \(colour)")
        #expect(grey < 20, "the grey row moved by \(grey)")
        let paper = page.luminance(of: enhanced, where: .paper)
        #expect(Self.spread(paper) < 6 && Self.mean(paper) > 240, "paper \(Self.mean(paper)) ± \(Self.spread(paper))")
    }

    /// Two real phone photos of a card's back: its black magnetic stripe (the band from 8 to 16 %
    /// of the flat card's height) stays dark in `.color` and `.gray` at the photo's resolution,
    /// while the card below it whitens. It came out white (mean above 230) before the solid areas
    /// were judged at one scale and at several depths.
    @Test(arguments: ["inner-lines.webp", "inner-lines-dark-background.webp"])
    func aRealCardsMagneticStripeStaysDark(file: String) throws {
        let still = try #require(try RealPhotoTests.stills().first { $0.file == file })
        let flat = try Frame(contentsOf: RealPhotoTests.folder + "/" + file).oriented().flattened(through: still.truth)
        func meanLuma(_ frame: Frame, rows: ClosedRange<Double>) throws -> Double {
            let gray = try frame.converted(to: .gray8)
            var sum = 0.0, count = 0.0
            for y in Int(rows.lowerBound * Double(gray.height))...Int(rows.upperBound * Double(gray.height)) {
                for x in stride(from: gray.width / 10, to: gray.width * 9 / 10, by: 2) {
                    sum += Double(gray.pixel(x: x, y: y)[0])
                    count += 1
                }
            }
            return sum / count
        }
        for enhancement in [ScanEnhancement.color, .gray] {
            let enhanced = try flat.enhanced(enhancement)
            let stripe = try meanLuma(enhanced, rows: 0.08...0.16)
            let card = try meanLuma(enhanced, rows: 0.40...0.50)
            #expect(stripe < 120, "\(file), \(enhancement): the stripe's mean is \(stripe)")
            #expect(card > 200, "\(file), \(enhancement): the card's mean is \(card)")
        }
    }

    @Test func grayIsColorInOneChannel() throws {
        let page = try ShadedPage(seed: 32)
        let gray = try page.image.enhanced(.gray)
        #expect(gray.format == .gray8)
        let paper = page.luminance(of: gray, where: .paper)
        #expect(Self.mean(paper) > 240 && Self.spread(paper) < 10)
    }

    @Test func blackAndWhiteKeepsPrintAndFaintPencilAndLeavesPaperWhite() throws {
        let page = try ShadedPage(seed: 33)
        let bw = try page.image.enhanced(.blackAndWhite)
        #expect(bw.format == .gray8)
        func darkShare(_ kind: ShadedPage.Truth) -> Double {
            let values = page.luminance(of: bw, where: kind)
            #expect(values.allSatisfy { $0 == 0 || $0 == 255 })
            return Double(values.filter { $0 == 0 }.count) / Double(values.count)
        }
        #expect(darkShare(.ink) > 0.97, "print kept: \(darkShare(.ink))")
        #expect(darkShare(.pencil) > 0.85, "pencil kept: \(darkShare(.pencil))")
        #expect(darkShare(.paper) < 0.005, "paper turned black: \(darkShare(.paper))")
    }

    /// Bold grey print, as a card's machine-readable zone has, comes out whole in black and white:
    /// the paper is found round strokes of the print's own width. Before, a closing sized for body
    /// text left the middle of each stroke and broke the letters: 84.9 % of the print's pixels
    /// (antialiased edges included) came out black, 95.6 % now.
    @Test func blackAndWhiteKeepsBoldPrintWhole() throws {
        var card = try Frame(width: 900, height: 300, format: .bgr8, color: Color(white: 0.93))
        for (row, line) in ["I<NLDSPECI20212<<<<<<<<<<<", "6503101F3108022NLD<<<<<<<8"].enumerated() {
            try card.text(line, at: Point(x: 30, y: Double(60 + row * 110)), size: 56, color: Color(white: 0.45), weight: 7)
        }
        let bw = try card.enhanced(.blackAndWhite)
        var print = 0, kept = 0, paperBlack = 0, paper = 0
        card.withUnsafeBytes { clean in
            bw.withUnsafeBytes { result in
                for y in 0..<card.height {
                    for x in 0..<card.width {
                        let isPrint = clean[y * card.bytesPerRow + x * 3] < 150
                        let black = result[y * bw.bytesPerRow + x] == 0
                        if isPrint {
                            print += 1
                            if black { kept += 1 }
                        } else if clean[y * card.bytesPerRow + x * 3] > 220 {
                            paper += 1
                            if black { paperBlack += 1 }
                        }
                    }
                }
            }
        }
        #expect(Double(kept) / Double(print) > 0.93, "\(kept) of \(print) print pixels black")
        #expect(Double(paperBlack) / Double(paper) < 0.01, "\(paperBlack) of \(paper) paper pixels black")
    }

    @Test func noneIsTheScanAsItIs() throws {
        let page = try ShadedPage(width: 200, height: 260, seed: 34)
        let same = try page.image.enhanced(.none)
        #expect(same.withUnsafeBytes { Array($0) } == page.image.withUnsafeBytes { Array($0) })
    }
}
