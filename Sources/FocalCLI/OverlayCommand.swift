import ArgumentParser
import Focal
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

struct OverlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "overlay",
        abstract: "Draw detected documents (and faces, QR codes) onto every frame and write the result.",
        discussion: """
            Reads a video, an image sequence (a folder, or a quoted glob) or a single image, and \
            writes a copy with every detected feature drawn on it: a translucent quad, its corners \
            and a label (type, track, confidence, and sharpness for documents), plus each frame's \
            number, time and sharpness in the corner. Video goes out as H.264 in .mp4 at the \
            source's frame rate, without audio, unless --codec or the extension says otherwise; an \
            image goes out as an image. The output appears only when complete: an error or Ctrl-C \
            leaves nothing behind. Decoding, detection and encoding overlap across cores.

            EXAMPLES
              focal overlay Samples/Media/document.mp4 -o out/overlay.mp4
              focal overlay desk.mp4 -o desk.mp4 --types rectangle,qr --accuracy low --mark-sharpest
              focal overlay 'shots/*.jpg' -o shots.mp4 --fps 10 --size 1280x720
              focal overlay clip.mov -o clip.mkv --codec ffv1 --filter document-enhance
              focal overlay photo.jpg -o photo-overlay.png --style outline --color ff3366
            """
    )

    @Argument(
        help: ArgumentHelp(
            "A video, an image, a folder of images or a quoted glob ('shots/*.jpg'); or use --camera.", valueName: "input"))
    var inputArgument: String?

    private var input: String { inputArgument ?? "" }

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Where to write the result.", valueName: "path"))
    var output: String

    @OptionGroup var detection: FeatureTypesOption
    @OptionGroup var accuracyOption: AccuracyOption
    /// Applied before drawing; detection sees the original.
    @OptionGroup var filtering: FiltersOption

    @Option(
        help: ArgumentHelp("Fit frames into WIDTHxHEIGHT, keeping their proportions (letterbox).", valueName: "WxH"),
        transform: OverlayCommand.parseSize)
    var size: (width: Int, height: Int)?

    @Option(parsing: .unconditional, help: ArgumentHelp("Frame rate for image sequences.", valueName: "fps"))
    var fps: Double = 30

    @Flag(
        name: .customLong("mark-sharpest"),
        help: "Find each document's sharpest frame first and highlight it (decodes the input twice).")
    var markSharpest = false

    @Option(help: ArgumentHelp("Overlay style: default, outline (no fill) or bold.", valueName: "style"))
    var style: OverlayStyleName = .default

    @Option(
        help: ArgumentHelp("Document outline colour as hex RRGGBB.", valueName: "hex"), transform: OverlayCommand.parseColor)
    var color: Color?

    @Option(parsing: .unconditional, help: ArgumentHelp("Opacity of the fill inside features, 0…1.", valueName: "opacity"))
    var opacity: Double?

    @Flag(name: .customLong("no-info"), help: "Leave out the frame number, time and sharpness badge.")
    var noInfo = false

    @Option(
        help: ArgumentHelp("Video codec: \(VideoCodec.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "codec"))
    var codec: VideoCodec = .h264

    @Option(help: ArgumentHelp("Encoder speed preset for H.264/H.265, ultrafast … veryslow.", valueName: "preset"))
    var preset: EncoderPreset = .veryfast

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Constant rate factor: lower is better quality and bigger files.", valueName: "crf"))
    var quality: Int = 23

    @Option(help: ArgumentHelp("Read from a V4L2 camera such as /dev/video0 instead of a file.", valueName: "device"))
    var camera: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "With --camera, stop after this many frames (default: at Ctrl-C, which keeps nothing).", valueName: "n"))
    var frames: Int?

    @Flag(
        help:
            "Smaller files for more memory: x264's own lookahead and B-frames (about 10 % smaller at the same quality; at 1080p about 330 MB instead of 185 MB)."
    )
    var compact = false

    // The default since the overlay's encoder became lean; kept so that scripts using it still run.
    @Flag(name: .customLong("low-memory"), help: .hidden)
    var lowMemory = false

    @OptionGroup var quietOption: QuietOption
    private var quiet: Bool { quietOption.quiet }

    func validate() throws {
        guard (inputArgument == nil) != (camera == nil) else {
            throw ValidationError("give an input file, or a camera with --camera /dev/video0 (not both)")
        }
        if camera != nil, markSharpest { throw ValidationError("--mark-sharpest needs a file: it reads the input twice") }
        if let frames { guard frames >= 1 else { throw ValidationError("--frames must be 1 or more") } }
        if let opacity { guard (0...1).contains(opacity) else { throw ValidationError("--opacity must be between 0 and 1") } }
        guard fps.isFinite, fps > 0, fps <= 1000 else {
            throw ValidationError("--fps must be a number of frames per second, 0 < fps ≤ 1000")
        }
        guard (0...51).contains(quality) else {
            throw ValidationError("--quality is a constant rate factor from 0 (best) to 51 (smallest); the default is 23")
        }
    }

    static func parseSize(_ text: String) throws -> (width: Int, height: Int) {
        let parts = text.lowercased().split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts[0] >= 16, parts[1] >= 16, parts[0] <= 8192, parts[1] <= 8192 else {
            throw ValidationError("--size takes WIDTHxHEIGHT from 16x16 to 8192x8192, such as 1280x720")
        }
        return (parts[0] & ~1, parts[1] & ~1)
    }

    static func parseColor(_ text: String) throws -> Color {
        let digits = text.hasPrefix("#") ? String(text.dropFirst()) : text
        guard digits.count == 6, let value = UInt32(digits, radix: 16) else {
            throw ValidationError("--color takes six hex digits, such as 33cc66")
        }
        return Color(
            red: Double(value >> 16 & 0xFF) / 255, green: Double(value >> 8 & 0xFF) / 255, blue: Double(value & 0xFF) / 255)
    }

    /// The overlay's look from --style, --color and --opacity.
    var renderStyle: OverlayRenderer.Style {
        var result = OverlayRenderer.Style()
        switch style {
        case .default: break
        case .outline: result.fillOpacity = 0
        case .bold:
            result.lineWidth = 5
            result.cornerRadius = 9
        }
        if let color { result.rectangleColor = color }
        if let opacity { result.fillOpacity = opacity }
        return result
    }

    func run() throws {
        Interrupt.install()
        if camera == nil { LibraryDiagnostics.reading(input) }
        var options = OverlayVideoRender.Options()
        options.types = detection.types
        options.detector = DetectorOptions(accuracy: accuracyOption.accuracy, maximumFeatureCount: 4)
        options.filters = filtering.filters
        options.outputSize = size
        options.style = renderStyle
        options.writer = compact ? .compact : .lowMemory
        options.writer.codec = codec
        options.writer.preset = preset
        options.writer.quality = quality
        options.showsInfo = !noInfo
        options.marksSharpest = markSharpest
        if camera != nil {
            options.framesReadAhead = 0  // the camera keeps its newest frame itself
            options.smoothing = .causal  // and has no future frames to smooth over
        }
        do {
            // A glob or a folder is a sequence even when it names an image extension ('shots/*.jpg').
            if camera == nil, !ImageSequenceReader.namesSequence(input), ImageFormat(path: input) != nil {
                try overlayImage(options)
            } else {
                try overlayStream(options)
            }
        } catch {
            if error.kind == .interrupted {
                printError("interrupted: nothing was written to '\(output)'")
                throw ExitCode(130)
            }
            printError("\(camera == nil ? error.about(input) : error)")
            throw ExitCode(1)
        }
    }

    /// A single image goes through the same per-frame step as every frame of a video.
    private func overlayImage(_ options: OverlayVideoRender.Options) throws(FocalError) {
        let photo = try Frame(contentsOf: input).oriented()
        let renderer = try OverlayFrameRenderer(options: options, isSingleImage: true)
        var featureCount = 0
        renderer.onDrawn = { featureCount = $1.count }
        let drawn = try renderer.add(photo) + renderer.finish()
        // Ctrl-C during detection (up to a few seconds on a large photo) still writes nothing.
        if Interrupt.requested {
            throw FocalError(.interrupted, operation: "draw the overlay", path: input, reason: "interrupted")
        }
        guard let frame = drawn.first else {
            throw FocalError(.internal, operation: "draw the overlay", path: input, reason: "no frame was drawn")
        }
        try frame.write(to: output)
        if !quiet { print("wrote \(output) (\(frame.width)x\(frame.height), \(featureCount) feature(s))") }
    }

    private func overlayStream(_ options: OverlayVideoRender.Options) throws(FocalError) {
        let input = self.input, fps = self.fps
        let isSequence = ImageSequenceReader.namesSequence(input)
        // One decoder thread: the encoder's threads already fill the cores, and each frame thread
        // of the decoder would hold frames of its own.
        let camera = self.camera, limit = frames
        let open: () throws(FocalError) -> any FrameSource = { () throws(FocalError) -> any FrameSource in
            if let camera {
                let source = try CameraSource(device: camera, preset: .hd1280x720)
                try source.start()
                return FirstFrames(source, limit: limit)
            }
            return isSequence
                ? try ImageSequenceReader(pattern: input, framesPerSecond: fps)
                : try VideoReader(path: input, threads: 1)
        }
        let meter = ProgressMeter(quiet: quiet)
        let summary = try OverlayVideoRender(options: options).render(
            open, to: output, progress: { meter.update($0) }, isCancelled: { Interrupt.requested })
        meter.finish()
        if !quiet {
            var line =
                "wrote \(output): \(summary.frames) frames, \(summary.documents) document(s) in \(decimal(summary.seconds, places: 2)) s"
            line += " (\(decimal(Double(summary.frames) / max(summary.seconds, 1e-9), places: 1)) fps)"
            if !summary.sharpestFrames.isEmpty {
                line +=
                    "; sharpest "
                    + summary.sharpestFrames.sorted { $0.key < $1.key }.map { "#\($0.key) at frame \($0.value)" }.joined(
                        separator: ", ")
            }
            print(line)
        }
    }
}

/// The first `limit` frames of a source (all of them with no limit).
final class FirstFrames: FrameSource {
    let source: any FrameSource
    let limit: Int?
    private var delivered = 0

    init(_ source: any FrameSource, limit: Int?) {
        self.source = source
        self.limit = limit
    }

    var width: Int { source.width }
    var height: Int { source.height }
    var framesPerSecond: Double { source.framesPerSecond }
    var frameCount: Int? { limit ?? source.frameCount }

    func nextFrame() throws(FocalError) -> Frame? {
        if let limit, delivered >= limit {
            (source as? CameraSource)?.stop()
            return nil
        }
        delivered += 1
        return try source.nextFrame()
    }
}

/// Ctrl-C: the first one asks the render to stop cleanly; the render checks between frames.
enum Interrupt {
    static let flag = Atomic<Bool>(false)
    static var requested: Bool { flag.load(ordering: .relaxed) }

    static func install() {
        signal(SIGINT) { _ in Interrupt.flag.store(true, ordering: .relaxed) }
        signal(SIGTERM) { _ in Interrupt.flag.store(true, ordering: .relaxed) }
        unblockStopSignals()
    }
}

/// Progress on standard error: a bar redrawn in place on a terminal, a plain line every two
/// seconds otherwise, nothing when quiet.
final class ProgressMeter {
    private let quiet: Bool
    private let terminal = LibraryDiagnostics.standardErrorIsTerminal
    private var lastPrint = -1.0
    private var drewBar = false

    init(quiet: Bool) { self.quiet = quiet }

    func update(_ progress: OverlayVideoRender.Progress) {
        guard !quiet else { return }
        let interval = terminal ? 0.1 : 2.0
        guard progress.seconds - lastPrint >= interval || progress.framesDone == progress.frameCount else { return }
        lastPrint = progress.seconds
        var text = "\(progress.framesDone)" + (progress.frameCount.map { "/\($0)" } ?? "") + " frames  "
        text += decimal(progress.framesPerSecond, places: 1) + " fps"
        if let remaining = progress.remaining { text += "  ETA " + clockText(remaining) }
        if terminal {
            var bar = ""
            if let total = progress.frameCount, total > 0 {
                let filled = min(30, 30 * progress.framesDone / total)
                bar = "[" + String(repeating: "=", count: filled) + String(repeating: " ", count: 30 - filled) + "] "
            }
            write(STDERR_FILENO, "\r\u{1B}[K" + bar + text)
            drewBar = true
        } else {
            write(STDERR_FILENO, "focal: " + text + "\n")
        }
    }

    func finish() {
        if drewBar { write(STDERR_FILENO, "\n") }
    }

    private func clockText(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return "\(s / 60):" + (s % 60 < 10 ? "0" : "") + "\(s % 60)"
    }

    private func write(_ fd: Int32, _ text: String) {
        _ = text.withCString { Glibc.write(fd, $0, strlen($0)) }
    }
}

/// --style's names.
enum OverlayStyleName: String, ExpressibleByArgument, CaseIterable {
    case `default`, outline, bold
}

extension VideoCodec: ExpressibleByArgument {}
extension EncoderPreset: ExpressibleByArgument {}
