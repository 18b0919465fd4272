import ArgumentParser
import Focal

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct DetectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "Find documents, text lines, faces and QR codes in an image or a video.",
        discussion: """
            Prints what it finds as a table, or writes it as JSON with --json: one entry per frame \
            that has features, each with its type, corners (top-left, top-right, bottom-right, \
            bottom-left, in pixels, y down), confidence and, in videos, a track ID that stays the \
            same while an object stays in view.

            EXAMPLES
              focal detect receipt.jpg
              focal detect clip.mp4 --json clip.json
              focal detect desk.mp4 --types rectangle,qr --max-features 3 --accuracy low --json -
              focal detect page.jpg --types text --json lines.json

            TEXT
              Text lines come with their words (and, at --accuracy low, characters) as \
            subFeatures. Documents are found first and each page is searched flattened, so lines \
            follow the page's perspective; --text-on-frame searches the frame as it is instead. \
            --accuracy low is the classical engine (fast enough for every frame of a video); high \
            runs PP-OCRv4's DB network (ppocr-v4-det.onnx, a resource of the library) at --text-input-size.

            DOCUMENTS
              Rectangles are documents found by Focal's page detector (page-detector.onnx: a small \
            network on an encoder pretrained on photographs, fine-tuned on rendered scenes; \
            see Models/page-detector/MODEL_CARD.md), their corners placed on the image's edges, \
            where a page bows where its curved sides meet. --no-page-model finds any bright \
            rectangle from edges alone, as earlier versions did.
            """
    )

    @Argument(
        help: ArgumentHelp("The image or video to read (one file: for a folder of photos, see focal scan).", valueName: "input"))
    var input: String

    @OptionGroup var detection: FeatureTypesOption

    @Option(
        name: .customLong("max-features"), parsing: .unconditional,
        help: ArgumentHelp("At most this many features of each type per frame (text lines are not limited).", valueName: "n"))
    var maxFeatures: Int = 1

    @OptionGroup var accuracyOption: AccuracyOption

    @Option(
        name: .customLong("min-confidence"), parsing: .unconditional,
        help: ArgumentHelp("Report only features at least this sure, 0…1.", valueName: "c"))
    var minConfidence: Double = DetectorOptions().minimumConfidence

    @Option(
        name: .customLong("min-brightness"), parsing: .unconditional,
        help: ArgumentHelp(
            "Ignore rectangles darker inside than this fraction of the frame's brightest part, 0…1 (0 finds dark ones).",
            valueName: "b"))
    var minBrightness: Double = DetectorOptions().minimumInteriorBrightness

    @Flag(
        name: .customLong("no-page-model"),
        help: ArgumentHelp(
            "Find rectangles from edges and outlines alone, without the learned page detector: any bright rectangle, not only documents."
        ))
    var noPageModel = false

    @Option(
        help: ArgumentHelp(
            "How documents' best frames are chosen: noise-resistant (default) or plain (Apple's measure).", valueName: "mode"))
    var sharpness: SharpnessMode = .noiseResistant

    @Option(
        name: .customLong("text-input-size"),
        help: ArgumentHelp(
            "The text network's input at --accuracy high: fast (480), standard (736, default) or fine (1024).", valueName: "size")
    )
    var textInputSize: TextDetectionOptions.ModelInputSize = .standard

    @Flag(
        name: .customLong("text-rows"),
        help: "Report text as rows (an item and its price together) rather than segments split at wide gaps.")
    var textRows = false

    @Flag(name: .customLong("text-on-frame"), help: "Search for text on the whole frame, not on the documents in it.")
    var textOnFrame = false

    @OptionGroup var jsonOutput: JSONOutputOption

    func validate() throws {
        guard maxFeatures >= 1 else { throw ValidationError("--max-features must be 1 or more") }
        guard (0...1).contains(minConfidence) else { throw ValidationError("--min-confidence must be between 0 and 1") }
        guard (0...1).contains(minBrightness) else { throw ValidationError("--min-brightness must be between 0 and 1") }
        guard !detection.types.isEmpty else {
            throw ValidationError("--types none detects nothing; name rectangle, text, face or qr")
        }
        try refuseSequences()
    }

    /// A folder or a glob names many images, which one report cannot hold: say what reads them.
    /// (A folder was opened as a video: "Cannot open video 'shots': Is a directory.")
    private func refuseSequences() throws {
        let folder = ImageSequenceReader.namesFolder(input)
        guard ImageSequenceReader.namesSequence(input), !FileManager.default.fileExists(atPath: input) || folder else { return }
        let what = folder ? "a folder" : "a pattern"
        throw ValidationError(
            "'\(input)' is \(what); focal detect reads one image or video. Give one file, or scan every photo: "
                + "focal scan '\(input)' --out scans (or draw the finds: focal overlay '\(input)' -o finds.mp4)")
    }

    func run() throws {
        let report: DetectionReport
        LibraryDiagnostics.reading(input)
        do {
            report = try detect(types: detection.types)
        } catch {
            printError("\(error)")
            throw ExitCode(1)
        }
        if let json = jsonOutput.json {
            do {
                try OutputFile.writeJSON(report, to: json)
            } catch {
                printError("\(error)")
                throw ExitCode(1)
            }
        } else {
            printTable(report)
        }
    }

    private func detect(types: [FeatureType]) throws(FocalError) -> DetectionReport {
        let isVideo = ImageFormat(path: input) == nil
        var options = DetectorOptions(
            accuracy: accuracyOption.accuracy, maximumFeatureCount: maxFeatures, minimumConfidence: minConfidence,
            minimumInteriorBrightness: minBrightness)
        options.tracking = isVideo
        options.usesPageModel = !noPageModel
        options.text.modelInputSize = textInputSize
        options.text.searchesDocuments = !textOnFrame
        options.text.grouping = textRows ? .rows : .segments
        var detectors: [Detector] = []
        for type in types { detectors.append(try Detector(type: type, options: options)) }
        func features(in frame: Frame) throws(FocalError) -> [AnyFeature] {
            var found: [AnyFeature] = []
            for detector in detectors { found += try detector.features(in: frame).map(AnyFeature.init) }
            return found
        }
        let name = String(input.split(separator: "/").last ?? Substring(input))
        if !isVideo {
            let frame = try Frame(contentsOf: input).oriented()
            let found = try features(in: frame)
            return DetectionReport(
                source: name, width: frame.width, height: frame.height,
                frames: found.isEmpty ? [] : [.init(index: 0, features: found)])
        }
        // In a video, documents go through a DocumentScanner: tracked, with each one's sharpest frame.
        let scanner = types.contains(.rectangle) ? try DocumentScanner(detector: options, sharpness: sharpness.options) : nil
        let others = zip(types, detectors).filter { $0.0 != .rectangle }.map(\.1)
        let reader = try VideoReader(path: input)
        var report = DetectionReport(source: name, width: reader.width, height: reader.height, frames: [])
        var scans: [DocumentScan] = []
        var index = 0
        while let frame = try reader.read() {
            var found: [AnyFeature] = []
            if let scanner {
                let step = try scanner.process(frame)
                found += step.documents.map(AnyFeature.init)
                scans += step.finished
            }
            for detector in others { found += try detector.features(in: frame).map(AnyFeature.init) }
            if !found.isEmpty { report.frames.append(.init(index: index, features: found)) }
            index += 1
        }
        scans += scanner?.finish() ?? []
        report.documents = scans.sorted { $0.trackingID < $1.trackingID }.map {
            .init(trackID: $0.trackingID, bestFrame: $0.bestFrame, firstFrame: $0.firstFrame, lastFrame: $0.lastFrame)
        }
        return report
    }

    private func printTable(_ report: DetectionReport) {
        print("\(report.source): \(report.width)x\(report.height), \(report.frames.count) frame(s) with features")
        for frame in report.frames {
            for wrapped in frame.features {
                let feature = wrapped.base
                var columns = [
                    "frame \(frame.index)", feature.type.rawValue, "confidence " + decimal(feature.confidence, places: 2),
                ]
                if let id = feature.trackingID { columns.append("track \(id)") }
                switch feature {
                case let r as RectangleFeature: columns.append(r.quad.corners.map(\.description).joined(separator: " "))
                case let q as QRCodeFeature:
                    columns.append(q.quad.corners.map(\.description).joined(separator: " "))
                    columns.append("\"\(q.messageString ?? "")\"")
                case let f as FaceFeature:
                    columns.append(
                        "box \(decimal(f.bounds.x, places: 0)),\(decimal(f.bounds.y, places: 0)) \(decimal(f.bounds.width, places: 0))x\(decimal(f.bounds.height, places: 0))"
                    )
                default: break
                }
                print("  " + columns.joined(separator: "  "))
            }
        }
    }
}

extension DetectorOptions.Accuracy: ExpressibleByArgument {}
extension ScanEnhancement: ExpressibleByArgument {}

extension TextDetectionOptions.ModelInputSize: ExpressibleByArgument {
    public init?(argument: String) {
        switch argument {
        case "fast": self = .fast
        case "standard": self = .standard
        case "fine": self = .fine
        default: return nil
        }
    }

    public static var allValueStrings: [String] { ["fast", "standard", "fine"] }
    public var defaultValueDescription: String { String(describing: self) }
}

/// The sharpness measures the CLI offers.
enum SharpnessMode: String, ExpressibleByArgument, CaseIterable {
    case plain
    case noiseResistant = "noise-resistant"

    var options: SharpnessOptions { self == .plain ? .plain : .noiseResistant }
}
