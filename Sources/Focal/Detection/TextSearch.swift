import CFocal

/// Text lines in a frame, found on each document flattened by its quad (so lines come out
/// following the page's perspective) or, where there is no document, on the frame as it is.
///
/// `.low` uses the shim's classical detector; `.high` asks the DB network for lines and the
/// classical detector for the words and characters inside them.
final class TextSearch {
    private let options: DetectorOptions
    private let model: TextModel?
    /// Documents are found as a rectangle detector with default options finds them, with the
    /// caller's page model (its path, or none). On a stream (tracking on) it mostly confirms the
    /// pages of the previous frame, which costs a fraction of a full search.
    private let pages: Detector?

    init(options: DetectorOptions) throws(FocalError) {
        self.options = options
        model = AccuracyProfile.of(options.accuracy).usesTextNetwork ? try TextModel.borrow(path: options.text.modelPath) : nil
        pages =
            options.text.searchesDocuments
            ? try Detector(
                type: .rectangle,
                options: DetectorOptions(
                    maximumFeatureCount: 4, tracking: options.tracking, usesPageModel: options.usesPageModel,
                    pageModelPath: options.pageModelPath)) : nil
    }

    deinit {
        if let model { TextModel.giveBack(model) }
    }

    func run(_ frame: Frame) throws(FocalError) -> [TextFeature] {
        let gray = try frame.converted(to: .gray8)
        var regions: [Region] = []
        if let pages {
            for page in try pages.rectangles(in: frame) where !Self.isWholeFrame(page.quad, of: gray) {
                if let region = try Region(page: page.quad, of: gray, scale: 1) { regions.append(region) }
            }
        }
        if regions.isEmpty { regions = [Region(whole: gray)] }

        var lines: [TextFeature] = []
        for region in regions {
            // With the network, the classical lines only outline blocks of text and give words:
            // rows make the blocks whole. Without it, they are the answer, in the grouping asked for.
            let found = try classicalLines(
                in: region, gap: model == nil ? options.text.classicalGap : options.text.maximumLineGap)
            if let model {
                lines += try modelLines(in: region, model: model, lines: found)
            } else {
                lines += found
            }
        }
        lines.removeAll { $0.confidence < options.minimumConfidence }
        lines.sort { $0.confidence > $1.confidence }
        return Array(lines.prefix(options.text.maximumLineCount))
    }

    /// Whether `quad` is the frame's own rectangle, as a page scanned to fill the image is reported.
    /// Such a frame is read as it is, its blocks of text standing in for pages: flattened whole, a
    /// receipt scanned in the middle of a large sheet comes to the network at a third of the scale
    /// (0.7.46: a 4961 × 7016 scan's segments found 73 → 62 of 77).
    private static func isWholeFrame(_ quad: Quad, of frame: Frame) -> Bool {
        let whole = Quad(wholeImageOfWidth: frame.width, height: frame.height)
        return zip(quad.corners, whole.corners).allSatisfy { $0.distance(to: $1) <= 1 }
    }

    /// Lines, words and characters by the classical detector, in frame coordinates.
    private func classicalLines(in region: Region, gap: Double) throws(FocalError) -> [TextFeature] {
        var settings = cfocal_text_options(
            min_contrast: options.text.minimumContrast, max_word_gap: options.text.maximumWordGap,
            max_line_gap: gap, max_lines: Int32(options.text.maximumLineCount),
            find_turned: region.page == nil ? 1 : 0)
        var boxes = [cfocal_text_box](repeating: cfocal_text_box(), count: 16_384)
        var count: Int32 = 0
        try region.image.withShimImage { (image) throws(FocalError) in
            try check(cfocal_detect_text(&image, &settings, &boxes, Int32(boxes.count), &count), "detect text")
        }
        return Self.tree(of: boxes.prefix(Int(count)), mappedBy: region.toFrame)
    }

    /// Lines by the network on the page scaled to its input size; the classical words whose centres
    /// fall inside a line become its sub-features.
    private func modelLines(in region: Region, model: TextModel, lines: [TextFeature]) throws(FocalError) -> [TextFeature] {
        let inputSize = options.text.modelInputSize.rawValue
        let pages: [(quad: Quad, scale: Double)]
        if let page = region.page {
            pages = [(page, Double(inputSize) / Double(max(region.image.width, region.image.height, 1)))]
        } else {
            // Without a page, each block of text the classical engine found stands in for one: the
            // network then sees the text level and at a useful scale, not small and slanted in a frame.
            pages = Self.blocks(of: lines).map { block in
                let longest = (0..<4).map { block.corners[$0].distance(to: block.corners[($0 + 1) % 4]) }.max() ?? 1
                return (block, Double(inputSize) / max(longest, 1))
            }
        }
        var found: [TextFeature] = []
        if pages.isEmpty { found = try modelLines(in: region, model: model, inputSize: inputSize) }
        for page in pages {
            guard let scaled = try Region(page: page.quad, of: region.source, scale: page.scale) else { continue }
            found += try modelLines(in: scaled, model: model, inputSize: inputSize)
        }
        for word in lines.flatMap(\.subFeatures) {
            if let line = found.firstIndex(where: { $0.quad.contains(word.quad.center) }) {
                found[line].subFeatures.append(word)
            }
        }
        return found
    }

    private func modelLines(in scaled: Region, model: TextModel, inputSize: Int) throws(FocalError) -> [TextFeature] {
        let boxes = try model.lines(
            in: scaled.image, inputSize: inputSize, maximumLineGap: options.text.modelGap,
            maximumSegmentGap: options.text.modelSplitGap)
        return Self.tree(of: boxes[...], mappedBy: scaled.toFrame)
    }

    /// Blocks of text: lines no further apart than three line heights, grouped, each block with at
    /// least three lines; as upright rectangles in the text's own direction with a margin of two
    /// line heights. At most four, the largest first.
    private static func blocks(of lines: [TextFeature]) -> [Quad] {
        func height(_ line: TextFeature) -> Double { line.topLeft.distance(to: line.bottomLeft) }
        var group = Array(lines.indices)
        func root(_ i: Int) -> Int {
            var i = i
            while group[i] != i { i = group[i] }
            return i
        }
        for i in lines.indices {
            for j in lines.indices where j > i {
                let reach = 3 * max(height(lines[i]), height(lines[j]))
                let near =
                    lines[i].quad.corners.contains { p in lines[j].quad.corners.contains { $0.distance(to: p) < reach } }
                    || lines[i].quad.center.distance(to: lines[j].quad.center) < reach
                if near { group[root(i)] = root(j) }
            }
        }
        var members: [Int: [TextFeature]] = [:]
        for i in lines.indices { members[root(i), default: []].append(lines[i]) }
        return members.values.filter { $0.count >= 3 }.sorted { $0.count > $1.count }.prefix(4).compactMap(block(around:))
    }

    private static func block(around lines: [TextFeature]) -> Quad? {
        guard !lines.isEmpty else { return nil }
        var direction = Point(x: 0, y: 0)
        for line in lines {
            direction = Point(
                x: direction.x + line.topRight.x - line.topLeft.x, y: direction.y + line.topRight.y - line.topLeft.y)
        }
        let length = max(1e-9, (direction.x * direction.x + direction.y * direction.y).squareRoot())
        let u = Point(x: direction.x / length, y: direction.y / length), v = Point(x: -u.y, y: u.x)
        var minU = Double.infinity, maxU = -Double.infinity, minV = Double.infinity, maxV = -Double.infinity
        for line in lines {
            for p in line.quad.corners {
                let a = p.x * u.x + p.y * u.y, b = p.x * v.x + p.y * v.y
                minU = min(minU, a)
                maxU = max(maxU, a)
                minV = min(minV, b)
                maxV = max(maxV, b)
            }
        }
        let heights = lines.map { $0.topLeft.distance(to: $0.bottomLeft) }.sorted()
        let margin = 2 * heights[heights.count / 2]
        func point(_ a: Double, _ b: Double) -> Point { Point(x: a * u.x + b * v.x, y: a * u.y + b * v.y) }
        return Quad(
            topLeft: point(minU - margin, minV - margin), topRight: point(maxU + margin, minV - margin),
            bottomRight: point(maxU + margin, maxV + margin), bottomLeft: point(minU - margin, maxV + margin))
    }

    /// Builds lines with their words and characters from the shim's flat list (lines first,
    /// each later box naming its parent's index).
    private static func tree(of boxes: ArraySlice<cfocal_text_box>, mappedBy toFrame: Homography) -> [TextFeature] {
        var features: [TextFeature?] = boxes.map { box in
            let corners = (0..<4).compactMap { i in
                toFrame.apply(Point(x: Self.element(box.x, i), y: Self.element(box.y, i)))
            }
            guard corners.count == 4 else { return nil }
            return TextFeature(
                quad: Quad(topLeft: corners[0], topRight: corners[1], bottomRight: corners[2], bottomLeft: corners[3]),
                confidence: box.confidence)
        }
        // Children come after their parents: attach from the end so grandchildren are in place first.
        let parents = boxes.map { Int($0.parent) }
        for index in features.indices.reversed() {
            let parent = parents[index]
            guard parent >= 0, parent < index, let child = features[index] else { continue }
            features[parent]?.subFeatures.insert(child, at: 0)
            features[index] = nil
        }
        return features.compactMap { $0 }
    }

    private static func element(_ tuple: (Double, Double, Double, Double), _ i: Int) -> Double {
        switch i {
        case 0: tuple.0
        case 1: tuple.1
        case 2: tuple.2
        default: tuple.3
        }
    }

    /// An image to search and the map from its pixels back to the frame's.
    private struct Region {
        var image: Frame
        var toFrame: Homography
        var page: Quad?
        var source: Frame

        init(whole frame: Frame) {
            image = frame
            toFrame = .identity
            page = nil
            source = frame
        }

        /// The page flattened at `scale` times its size in the frame; nil for a degenerate quad.
        init?(page: Quad, of frame: Frame, scale: Double) throws(FocalError) {
            let width = Int(
                (max(page.topLeft.distance(to: page.topRight), page.bottomLeft.distance(to: page.bottomRight)) * scale).rounded())
            let height = Int(
                (max(page.topLeft.distance(to: page.bottomLeft), page.topRight.distance(to: page.bottomRight)) * scale).rounded())
            guard width >= 16, height >= 16 else { return nil }
            // A block or page reaching past the frame is fine; one wholly outside it has nothing to read.
            let bounds = page.bounds
            guard bounds.maxX >= 0, bounds.maxY >= 0, bounds.minX <= Double(frame.width - 1),
                bounds.minY <= Double(frame.height - 1)
            else { return nil }
            image = try frame.rectified(page, width: width, height: height)
            let w = Double(width), h = Double(height)
            // cfocal_rectify_quad maps the corners' pixel centres onto the output's outer edges.
            toFrame = try Homography(
                from: [
                    Point(x: -0.5, y: -0.5), Point(x: w - 0.5, y: -0.5), Point(x: w - 0.5, y: h - 0.5),
                    Point(x: -0.5, y: h - 0.5),
                ],
                to: page.corners)
            self.page = page
            source = frame
        }
    }
}
