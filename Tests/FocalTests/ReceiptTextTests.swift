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

    static func text(_ frame: Frame, grouping: TextDetectionOptions.LineGrouping) throws -> [TextFeature] {
        var options = DetectorOptions(accuracy: .high)
        options.text.grouping = grouping
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
}
