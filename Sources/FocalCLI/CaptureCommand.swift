import ArgumentParser
import Focal

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct CaptureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "capture",
        abstract: "Capture RAW + processed pairs, or a burst ranked by sharpness, from a camera.",
        discussion: """
            Each shot is saved as a pair under one capture ID in the output folder: ID.raw, the \
            frame exactly as the camera delivered it (a one-line header, then its bytes), and \
            ID.jpg, the frame after --filter. manifest.json lists the pairs; a pair appears there \
            only once both files are complete.

            --burst N takes N frames in a row (or one per --bracket exposure, where the camera has \
            manual exposure) and ranks them by the variance of the Laplacian, sharpest first. \
            --video plays a video file as a stand-in camera.

            EXAMPLES
              focal capture --device /dev/video0 --out shots
              focal capture --device /dev/video0 --burst 8 --out burst --json ranking.json
              focal capture --device /dev/video0 --burst 3 --bracket 50,200,800 --out bracket
              focal capture --video Samples/Media/document.mp4 --shots 3 --filter document-enhance --out pairs
            """
    )

    @Option(help: ArgumentHelp("The camera to read.", valueName: "device"))
    var device: String?

    @Option(help: ArgumentHelp("Play this video file as the camera instead.", valueName: "file"))
    var video: String?

    @Option(help: ArgumentHelp("Capture size: vga, hd720 (default), hd1080 or 4k.", valueName: "preset"))
    var preset: PresetArgument = .hd720

    @Option(help: ArgumentHelp("Ask the camera for this pixel format (YUYV, MJPG, NV12, …).", valueName: "fourcc"))
    var format: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("How many pairs to capture (without --burst).", valueName: "n"))
    var shots: Int = 1

    @Option(
        parsing: .unconditional, help: ArgumentHelp("Capture a burst of n frames and rank them by sharpness.", valueName: "n"))
    var burst: Int?

    @Option(
        help: ArgumentHelp("Comma-separated manual exposures (100 µs units) for a bracketed burst.", valueName: "values"),
        transform: CaptureCommand.parseExposures)
    var bracket: [Int]?

    /// For the processed JPEG.
    @OptionGroup var filtering: FiltersOption

    @Option(parsing: .unconditional, help: ArgumentHelp("JPEG quality of the processed file, 0…1.", valueName: "q"))
    var quality: Double = 0.8

    @Option(help: ArgumentHelp("Folder for the pairs and manifest.json (created if missing).", valueName: "dir"))
    var out: String = "captures"

    @OptionGroup var jsonOutput: JSONOutputOption
    private var json: String? { jsonOutput.json }

    enum PresetArgument: String, ExpressibleByArgument, CaseIterable {
        case vga, hd720, hd1080, uhd = "4k"
        var preset: CameraPreset {
            switch self {
            case .vga: .vga640x480
            case .hd720: .hd1280x720
            case .hd1080: .hd1920x1080
            case .uhd: .hd4K3840x2160
            }
        }
    }

    func validate() throws {
        guard (device == nil) != (video == nil) else {
            throw ValidationError("give a camera with --device /dev/video0, or a stand-in video with --video FILE")
        }
        guard shots >= 1 else { throw ValidationError("--shots must be 1 or more") }
        if let burst { guard burst >= 1 else { throw ValidationError("--burst must be 1 or more") } }
        if bracket != nil, burst == nil { throw ValidationError("--bracket goes with --burst") }
        guard (0...1).contains(quality) else { throw ValidationError("--quality must be between 0 and 1") }
    }

    static func parseExposures(_ text: String) throws -> [Int] {
        let values = text.split(separator: ",").map { Int($0.filter { !$0.isWhitespace }) }
        guard !values.isEmpty, values.allSatisfy({ $0 != nil && $0! > 0 }) else {
            throw ValidationError("--bracket takes positive whole numbers separated by commas, such as 50,200,800")
        }
        return values.compactMap { $0 }
    }

    struct RankedShot: Encodable {
        var rank: Int
        var shot: Int
        var exposure: Int?
        var variance: Double
        var capture: String?
    }

    func run() throws {
        do {
            let camera: any CameraDevice = try video.map { try VideoFileCamera(path: $0) } ?? V4L2Camera(path: device ?? "")
            let pipeline = FramePipeline(filters: filtering.filters)
            let source = try CameraSource(
                device: camera, preset: preset.preset, pixelFormat: format.map(CameraPixelFormat.init), pipeline: pipeline)
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            let store = try CaptureStore(folder: out)
            try source.start()
            defer { source.stop() }
            printError("capturing from \(camera.path) (\(camera.name)), \(source.format)")
            if let burst {
                let shots = try source.captureBurst(count: burst, exposures: bracket)
                var ranking: [RankedShot] = []
                for (rank, shot) in shots.enumerated() {
                    let entry = try store.save(raw: shot.buffer, processed: shot.frame, quality: quality)
                    ranking.append(
                        .init(
                            rank: rank + 1, shot: shot.index, exposure: shot.exposure, variance: shot.sharpness.variance,
                            capture: entry.id))
                }
                if let json {
                    try OutputFile.writeJSON(ranking, to: json)
                } else {
                    print("rank  shot  exposure  sharpness  capture")
                    for r in ranking {
                        print(
                            padded("\(r.rank)", 6) + padded("\(r.shot)", 6) + padded(r.exposure.map(String.init) ?? "-", 10)
                                + padded(decimal(r.variance, places: 1), 11) + (r.capture ?? ""))
                    }
                }
            } else {
                for _ in 0..<shots {
                    guard let buffer = try source.nextBuffer() else { break }
                    let entry = try store.save(raw: buffer, processed: try pipeline.apply(to: buffer.frame()), quality: quality)
                    print("\(out)/\(entry.raw)  \(out)/\(entry.processed)")
                }
            }
            if source.droppedFrameCount > 0 {
                printError("\(source.droppedFrameCount) late frames dropped of \(source.capturedFrameCount) captured")
            }
        } catch let error as FocalError {
            printError("\(error)")
            throw ExitCode(1)
        }
    }
}
