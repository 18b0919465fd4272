import Focal
import FocalSynthetic
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A rendered receipt: rows of columns set far apart (item number, quantity, price, total), ruled
/// above and below, in a bordered table, scanned flat (the page fills the image). Text comes back
/// as segments, one per column entry, unless rows are asked for; no rule or border becomes text.
@Suite struct ReceiptTextTests {
    struct Receipt {
        var image: Frame
        /// Each row's entries, as boxes.
        var rows: [[Rect]]
    }

    static func receipt() throws -> Receipt {
        var page = try Frame(width: 640, height: 900, format: .bgr8, color: Color(white: 0.97))
        try page.addNoise(sigma: 2, seed: 5)
        let ink = Color(white: 0.1)
        let columns: [Double] = [40, 230, 340, 500]
        var rows: [[Rect]] = []
        var y = 120.0
        let entries = [
            ["70549", "1", "160.00", "160.00"], ["81233", "2", "12.50", "25.00"], ["90017", "1", "8.90", "8.90"],
            ["11402", "3", "4.20", "12.60"], ["55120", "1", "99.00", "99.00"], ["60231", "4", "2.75", "11.00"],
        ]
        // The table's border and a rule under its header: lines, not text.
        try page.stroke(
            [Point(x: 25, y: 80), Point(x: 615, y: 80), Point(x: 615, y: 560), Point(x: 25, y: 560)], color: ink, lineWidth: 2)
        try page.stroke([Point(x: 25, y: 100), Point(x: 615, y: 100)], color: ink, lineWidth: 1.5, closed: false)
        for row in entries {
            var boxes: [Rect] = []
            for (text, x) in zip(row, columns) {
                let extent = Frame.measureText(text, size: 18, weight: 2)
                try page.text(text, at: Point(x: x, y: y + extent.height), size: 18, color: ink, weight: 2)
                boxes.append(Rect(x: x, y: y, width: extent.width, height: extent.height + extent.descent))
            }
            rows.append(boxes)
            y += 70
        }
        return Receipt(image: try page.gaussianBlurred(sigma: 0.6), rows: rows)
    }

    static func text(
        _ frame: Frame, grouping: TextDetectionOptions.LineGrouping, searchingDocuments: Bool = true
    ) throws -> [TextFeature] {
        var options = DetectorOptions(accuracy: .high)
        options.text.grouping = grouping
        options.text.searchesDocuments = searchingDocuments
        return try Detector(type: .text, options: options).features(in: frame).compactMap { $0 as? TextFeature }
    }

    @Test func entriesAreSegmentsAndRowsOnRequest() throws {
        let receipt = try Self.receipt()
        let segments = try Self.text(receipt.image, grouping: .segments)
        let entries = receipt.rows.flatMap { $0 }.map { Quad($0) }
        let hits = TextDetectorTests.matched(segments, entries)
        #expect(Double(hits) >= 0.9 * Double(entries.count), "\(hits) of \(entries.count) entries, \(segments.count) segments")
        #expect(segments.count <= entries.count + 2, "\(segments.count) segments for \(entries.count) entries")

        let rows = try Self.text(receipt.image, grouping: .rows)
        let rowBoxes = receipt.rows.map { boxes in
            Quad(Rect(x: boxes[0].minX, y: boxes[0].minY, width: boxes[3].maxX - boxes[0].minX, height: boxes[0].height))
        }
        let rowHits = TextDetectorTests.matched(rows, rowBoxes)
        #expect(rowHits >= 5, "\(rowHits) of \(rowBoxes.count) rows, \(rows.count) found: \(rows.map(\.bounds))")

        // Neither grouping turns the rules or the borders into text: every feature reads left to
        // right, as the receipt does.
        for feature in segments + rows {
            let angle = abs(atan2(feature.topRight.y - feature.topLeft.y, feature.topRight.x - feature.topLeft.x)) * 180 / .pi
            #expect(angle < 20, "a feature at \(feature.quad.center) reads at \(angle)°, \(feature.bounds)")
        }
    }

    /// The box round the ink inside `rect` of `page` (pixels a quarter of the way from paper to
    /// black, so that thin strokes count), as benchmarks draw text boxes.
    static func inkBox(in rect: Rect, of page: Frame) -> Rect? {
        var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
        for y in max(0, Int(rect.minY) - 4)..<min(page.height, Int(rect.maxY) + 5) {
            for x in max(0, Int(rect.minX) - 4)..<min(page.width, Int(rect.maxX) + 5) where page.pixel(x: x, y: y)[0] < 190 {
                minX = min(minX, x)
                minY = min(minY, y)
                maxX = max(maxX, x)
                maxY = max(maxY, y)
            }
        }
        guard minX <= maxX else { return nil }
        // Pixel centres to pixel edges.
        return Rect(x: Double(minX) - 0.5, y: Double(minY) - 0.5, width: Double(maxX - minX + 1), height: Double(maxY - minY + 1))
    }

    /// The receipt scanned small (its entries about 7 px tall), under a title whose two words
    /// stand 1.6 of their heights apart. The boxes fit each entry's ink, as benchmarks' boxes do
    /// (at this size the network's own margin is a large part of the text's height), and the
    /// title is two segments. The frame is the scan, the page itself, so no document is searched
    /// for in it: `.high`'s page network (since 0.7.26) takes the table's ruled box below the title
    /// for a document, and text is then read inside that box alone.
    @Test func boxesFitTheInkOfSmallEntries() throws {
        var receipt = try Self.receipt()
        let title = ["CORNER", "HARDWARE"]
        let first = Frame.measureText(title[0], size: 30, weight: 3)
        try receipt.image.text(title[0], at: Point(x: 40, y: 30 + first.height), size: 30, color: Color(white: 0.1), weight: 3)
        let second = 40 + first.width + 1.6 * first.height
        try receipt.image.text(
            title[1], at: Point(x: second, y: 30 + first.height), size: 30, color: Color(white: 0.1), weight: 3)
        let titleBoxes = [
            Rect(x: 40, y: 30, width: first.width, height: first.height + first.descent),
            Rect(
                x: second, y: 30, width: Frame.measureText(title[1], size: 30, weight: 3).width,
                height: first.height + first.descent),
        ]
        let scale = 0.4
        let small = try receipt.image.resized(
            width: Int(Double(receipt.image.width) * scale), height: Int(Double(receipt.image.height) * scale))
        let truth = (titleBoxes + receipt.rows.flatMap { $0 }).compactMap { box in
            Self.inkBox(
                in: Rect(x: box.x * scale, y: box.y * scale, width: box.width * scale, height: box.height * scale), of: small)
        }
        let found = try Self.text(small, grouping: .segments, searchingDocuments: false)
        var overlaps = truth.map { line in found.map { $0.quad.intersectionOverUnion(with: Quad(line)) }.max() ?? 0 }
        let titleOverlaps = overlaps.prefix(2)
        #expect(titleOverlaps.allSatisfy { $0 >= 0.5 }, "the title's words: IoU \(Array(titleOverlaps))")
        overlaps.sort()
        let median = overlaps[overlaps.count / 2]
        // The network's boxes as drawn score a median of 0.62 here, fitted to the ink 0.67.
        #expect(median >= 0.65, "median IoU \(median): \(overlaps)")
        #expect(overlaps.filter { $0 >= 0.5 }.count >= overlaps.count * 9 / 10, "IoUs \(overlaps)")
    }
}
