import ArgumentParser
import Focal

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

struct OverlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "overlay",
        abstract: "Draw detected documents (and faces, QR codes) onto every frame and write the result.",
        discussion: """
            Reads a video or an image and writes a copy with an overlay on each frame: every \
            detected feature as a translucent quad with its corners and a label (type, track, \
            confidence), and in the corner the frame number, its time and its sharpness (variance \
            of the Laplacian). Video goes out as H.264 in .mp4 unless the output's extension or \
            --codec says otherwise; an image goes out as an image. The output appears only when \
            it is complete.

            EXAMPLES
              focal overlay Samples/Media/document.mp4 -o out/overlay.mp4
              focal overlay desk.mp4 -o desk-overlay.mp4 --types rectangle,qr --accuracy low
              focal overlay clip.mov -o clip-overlay.mkv --codec ffv1
              focal overlay photo.jpg -o photo-overlay.png
            """
    )

    @Argument(help: ArgumentHelp("The video or image to read.", valueName: "input"))
    var input: String

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Where to write the result.", valueName: "path"))
    var output: String

    @Option(
        help: ArgumentHelp(
            "Comma-separated feature types to detect: rectangle, face, qr (none: just the info).", valueName: "types"))
    var types: String = "rectangle"

    @Option(help: ArgumentHelp("low (fast) or high.", valueName: "accuracy"))
    var accuracy: DetectorOptions.Accuracy = .high

    @Option(
        help: ArgumentHelp("Video codec: \(VideoCodec.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "codec"))
    var codec: VideoCodec = .h264

    @Option(help: ArgumentHelp("Encoder speed preset for H.264/H.265, ultrafast … veryslow.", valueName: "preset"))
    var preset: EncoderPreset = .veryfast

    @Option(help: ArgumentHelp("Constant rate factor: lower is better quality and bigger files.", valueName: "crf"))
    var quality: Int = 23

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    func validate() throws {
        _ = try featureTypes()
    }

    func featureTypes() throws -> [FeatureType] {
        try types.split(separator: ",").compactMap { name in
            let trimmed = String(name.filter { !$0.isWhitespace })
            if trimmed == "none" { return nil }
            guard let type = FeatureType(rawValue: trimmed) else {
                throw ValidationError("unknown feature type '\(name)'; use rectangle, face, qr or none")
            }
            return type
        }
    }

    func detectors(forVideo: Bool) throws(FocalError) -> [Detector] {
        var detectors: [Detector] = []
        for type in (try? featureTypes()) ?? [] {
            detectors.append(
                try Detector(type: type, options: DetectorOptions(accuracy: accuracy, maximumFeatureCount: 4, tracking: forVideo))
            )
        }
        return detectors
    }

    func run() throws {
        do {
            if ImageFormat(path: input) != nil {
                try overlayImage()
            } else {
                try overlayVideo()
            }
        } catch {
            printError("\(error)")
            throw ExitCode(1)
        }
    }

    private func overlayImage() throws(FocalError) {
        var frame = try Frame(contentsOf: input).oriented()
        var noFunnels: [Int: RectangleFunnel]? = nil
        try annotate(&frame, index: nil, detectors: try detectors(forVideo: false), funnels: &noFunnels)
        try frame.write(to: output)
        if !quiet { print("wrote \(output) (\(frame.width)x\(frame.height))") }
    }

    private func overlayVideo() throws(FocalError) {
        let reader = try VideoReader(path: input)
        let writer = try VideoWriter(
            path: output, width: reader.width, height: reader.height,
            framesPerSecond: reader.framesPerSecond > 0 ? reader.framesPerSecond : 30,
            settings: .init(codec: codec, preset: preset, quality: quality))
        let detectors = try detectors(forVideo: true)
        var funnels: [Int: RectangleFunnel]? = [:]
        let clock = ContinuousClock()
        let start = clock.now
        var sharpest: (index: Int, score: Double)?
        while var frame = try reader.read() {
            let index = reader.framesRead - 1
            let score = try annotate(&frame, index: index, detectors: detectors, funnels: &funnels)
            if score > (sharpest?.score ?? -1) { sharpest = (index, score) }
            try writer.append(frame)
        }
        try writer.finish()
        if !quiet {
            let seconds =
                Double((clock.now - start).components.attoseconds) / 1e18 + Double((clock.now - start).components.seconds)
            var summary =
                "wrote \(output): \(writer.framesWritten) frames in \(decimal(seconds, places: 2)) s (\(decimal(Double(writer.framesWritten) / max(seconds, 1e-9), places: 1)) fps)"
            if let sharpest { summary += "; sharpest frame \(sharpest.index) (\(decimal(sharpest.score, places: 1)))" }
            print(summary)
        }
    }

    /// Draws the detected features and the frame's number, time and sharpness; returns the sharpness.
    @discardableResult
    private func annotate(_ frame: inout Frame, index: Int?, detectors: [Detector], funnels: inout [Int: RectangleFunnel]?)
        throws(FocalError) -> Double
    {
        let score = try Sharpness.laplacian(of: frame).variance
        var features: [any Feature] = []
        for detector in detectors { features += try detector.features(in: frame) }
        if var steadied = funnels {
            // In video, documents are drawn through a funnel per track, so the outline holds still.
            features = steady(features, funnels: &steadied)
            funnels = steadied
        }
        try OverlayRenderer().draw(features, on: &frame)
        let scale = max(1, Double(frame.height) / 720)
        var text = "sharpness \(decimal(score, places: 1))"
        if let index { text = "frame \(index)  " + (frame.timestamp.map { decimal($0, places: 2) + " s  " } ?? "") + text }
        let style = LabelStyle(size: 16 * scale, padding: 6 * scale)
        let box = try frame.label(text, at: Point(x: 12 * scale, y: 12 * scale), style: style)
        // A bar whose length grows with sharpness, on a log scale so that blurry and sharp both show.
        let fraction = min(1, max(0, log10(max(score, 1)) / 4))
        let y = box.maxY + 4 * scale, height = 6 * scale, width = box.width
        try frame.fill(rectangle(x: box.minX, y: y, width: width, height: height), color: Color(white: 0.1, alpha: 0.6))
        try frame.fill(rectangle(x: box.minX, y: y, width: max(1, width * fraction), height: height), color: .green)
        return score
    }

    /// Rectangles replaced by their funnel's steady quad (or dropped until it has one).
    private func steady(_ features: [any Feature], funnels: inout [Int: RectangleFunnel]) -> [any Feature] {
        var seen = Set<Int>()
        var result: [any Feature] = []
        for feature in features {
            guard var rectangle = feature as? RectangleFeature, let id = rectangle.trackingID else {
                result.append(feature)
                continue
            }
            seen.insert(id)
            var funnel =
                funnels[id]
                ?? RectangleFunnel(matchingDistance: 0.03 * Double(max(rectangle.bounds.width, rectangle.bounds.height)) + 4)
            if let quad = funnel.add(rectangle.quad) {
                rectangle.quad = quad
                result.append(rectangle)
            }
            funnels[id] = funnel
        }
        for id in funnels.keys where !seen.contains(id) { _ = funnels[id]?.add(nil) }
        return result
    }

    private func rectangle(x: Double, y: Double, width: Double, height: Double) -> [Point] {
        [Point(x: x, y: y), Point(x: x + width, y: y), Point(x: x + width, y: y + height), Point(x: x, y: y + height)]
    }
}

extension VideoCodec: ExpressibleByArgument {}
extension EncoderPreset: ExpressibleByArgument {}
