// Focal's benchmarks. Each figure is a ratio against a reference measured in the same run
// (ffmpeg on the same file, OpenCV's own idiom), so machines and noise cancel out.
//
//   focal-bench video SAMPLE.mp4 [--repeat N]
import Focal
import FocalSynthetic
import Foundation
import Synchronization

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// Runs a command, returning its wall time; fails loudly if it fails.
func timeCommand(_ arguments: [String]) throws -> Double {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    let time = try seconds {
        try process.run()
        process.waitUntilExit()
    }
    guard process.terminationStatus == 0 else {
        throw FocalError(.internal, operation: "run \(arguments[0])", reason: "exit \(process.terminationStatus)")
    }
    return time
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

func fixed(_ value: Double, _ places: Int = 1) -> String { String(format: "%.\(places)f", value) }

/// Decode-only and decode+encode frames per second against ffmpeg on the same file.
func videoBenchmark(sample: String, repeats: Int, rounds: Int) throws {
    let info = try VideoReader(path: sample)
    let frames = Double((info.frameCount ?? 0) * repeats)
    print(
        "video: \(sample), \(info.width)x\(info.height), \(info.frameCount ?? 0) frames × \(repeats) passes, median of \(rounds) rounds"
    )
    let scratch = NSTemporaryDirectory() + "focal-bench-\(getpid())"
    try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    let loop = ["-stream_loop", String(repeats - 1)]

    func focalDecode(_ format: PixelFormat) throws -> Double {
        try seconds {
            for _ in 0..<repeats {
                let reader = try VideoReader(path: sample, pixelFormat: format)
                while try reader.read() != nil {}
            }
        }
    }
    func focalTranscode() throws -> Double {
        try seconds {
            let output = scratch + "/focal.mp4"
            let writer = try VideoWriter(
                path: output, width: info.width, height: info.height, framesPerSecond: info.framesPerSecond,
                settings: .init(codec: .h264, preset: .veryfast, quality: 23))
            for _ in 0..<repeats {
                let reader = try VideoReader(path: sample)
                while let frame = try reader.read() { try writer.append(frame) }
            }
            try writer.finish()
        }
    }

    var decodeYUV: ([Double], [Double]) = ([], []), decodeBGR: ([Double], [Double]) = ([], []),
        transcode: ([Double], [Double]) = ([], [])
    for _ in 0..<rounds {
        // Interleave Focal and ffmpeg so that a slow spell on the machine hits both.
        decodeYUV.0.append(try focalDecode(.yuv420))
        decodeYUV.1.append(try timeCommand(["ffmpeg", "-v", "error", "-nostdin"] + loop + ["-i", sample, "-f", "null", "-"]))
        decodeBGR.0.append(try focalDecode(.bgr8))
        decodeBGR.1.append(
            try timeCommand(
                ["ffmpeg", "-v", "error", "-nostdin"] + loop + ["-i", sample, "-pix_fmt", "bgr24", "-f", "null", "-"]))
        transcode.0.append(try focalTranscode())
        transcode.1.append(
            try timeCommand(
                ["ffmpeg", "-v", "error", "-nostdin", "-y"] + loop + [
                    "-i", sample, "-c:v", "libx264", "-preset", "veryfast",
                    "-crf", "23", "-pix_fmt", "yuv420p", scratch + "/ffmpeg.mp4",
                ]))
    }
    printRatios(
        [
            ("decode (yuv420, no conversion)", decodeYUV.0, decodeYUV.1),
            ("decode to bgr8", decodeBGR.0, decodeBGR.1),
            ("decode + H.264 encode (veryfast, crf 23)", transcode.0, transcode.1),
        ], frames: frames)
}

/// A table of frames per second, Focal's against ffmpeg's, from each row's round times.
func printRatios(_ rows: [(String, [Double], [Double])], frames: Double) {
    print("  " + "what".padding(toLength: 42, withPad: " ", startingAt: 0) + "focal fps   ffmpeg fps   focal/ffmpeg")
    for (name, focal, ffmpeg) in rows {
        let f = frames / median(focal), g = frames / median(ffmpeg)
        print(
            "  " + name.padding(toLength: 42, withPad: " ", startingAt: 0)
                + fixed(f).padding(toLength: 12, withPad: " ", startingAt: 0)
                + fixed(g).padding(toLength: 13, withPad: " ", startingAt: 0) + fixed(f / g, 2))
    }
}

/// Every frame of a video, or of a folder or glob of stills (letterboxed to the first one's size, as
/// `ImageSequenceReader` reads them), decoded, with its source (for the size).
func decodedFrames(_ sample: String) throws -> (any FrameSource, [Frame]) {
    let source: any FrameSource =
        ImageSequenceReader.namesSequence(sample)
        ? try ImageSequenceReader(pattern: sample) : try VideoReader(path: sample)
    var frames: [Frame] = []
    while let frame = try source.nextFrame() { frames.append(frame) }
    return (source, frames)
}

/// Rectangle detection frames per second on one core, beside the textbook recipe, on decoded frames.
/// `only`: run just the rows whose name contains it (for a profiler), and the textbook recipe,
/// which the ratios are against.
func detectBenchmark(sample: String, rounds: Int, only: String?) throws {
    FocalRuntime.setOpenCVThreads(1)
    FocalRuntime.keepFreedMemory()
    defer { FocalRuntime.setOpenCVThreads(nil) }
    let (reader, frames) = try decodedFrames(sample)
    print(
        "detect: \(sample), \(reader.width)x\(reader.height), \(frames.count) decoded frames, one OpenCV thread, median of \(rounds) rounds"
    )
    let classicalLow = try Detector(type: .rectangle, options: .init(accuracy: .low, usesPageModel: false))
    let classicalHigh = try Detector(type: .rectangle, options: .init(accuracy: .high, usesPageModel: false))
    let low = try Detector(type: .rectangle, options: .init(accuracy: .low))
    let high = try Detector(type: .rectangle, options: .init(accuracy: .high))
    // As `focal detect` reads a video: tracking on, so that most frames only confirm the pages
    // already found and a full search runs every tenth frame or when a page is not confirmed.
    let lowStream = try Detector(type: .rectangle, options: .init(accuracy: .low, tracking: true))
    let highStream = try Detector(type: .rectangle, options: .init(accuracy: .high, tracking: true))
    // A stream's full search on every frame: tracking on, its memory cleared before each frame. At
    // `.high` a stream's searches read the network at one input; a still's at two (the finer view)
    // where the first look leaves its quads in doubt, which on the sample clip's frames it does not.
    let highSearch = try Detector(type: .rectangle, options: .init(accuracy: .high, tracking: true))
    // The network's input, height × width, as the frame's proportions make it (a portrait clip's is
    // portrait).
    let portrait = reader.height > reader.width
    let lowInput = portrait ? "160 × 96" : "96 × 160", highInput = portrait ? "288 × 160" : "160 × 288"
    let runs: [(String, (Frame) throws -> Int)] = [
        ("textbook recipe (Canny, contours, largest 4-gon)", { try TextbookRectangles.detect(in: $0).count }),
        ("edges only (--no-page-model) .low", { try classicalLow.features(in: $0).count }),
        ("edges only (--no-page-model) .high", { try classicalHigh.features(in: $0).count }),
        ("Focal .low (page network 96 + edges)", { try low.features(in: $0).count }),
        ("Focal .high, a still (160, 224 if doubted, edges)", { try high.features(in: $0).count }),
        (
            "Focal .high, a stream's search (160 + edges)",
            {
                highSearch.resetTracking()
                return try highSearch.features(in: $0).count
            }
        ),
        ("  of which the network alone, \(lowInput)", { try low.pageMap(for: $0) == nil ? 0 : 1 }),
        ("  of which the network alone, \(highInput)", { try high.pageMap(for: $0) == nil ? 0 : 1 }),
        ("Focal .low, a stream (tracking, as focal detect)", { try lowStream.features(in: $0).count }),
        ("Focal .high, a stream (tracking, as focal detect)", { try highStream.features(in: $0).count }),
    ]
    var reference = 0.0
    for (name, run) in runs {
        if let only, reference > 0, !name.contains(only) { continue }
        var times: [Double] = []
        var found = 0
        for _ in 0..<rounds {
            found = 0
            // Each round is the clip from its start, not a cut from its last frame to its first.
            lowStream.resetTracking()
            highStream.resetTracking()
            times.append(try seconds { for frame in frames { found += try run(frame) } })
        }
        let perFrame = median(times) / Double(frames.count)
        let fps = 1 / perFrame
        if reference == 0 { reference = fps }
        let tail = name.hasPrefix("  of which") ? "" : "  found on \(found)/\(frames.count) frames"
        print(
            "  " + name.padding(toLength: 50, withPad: " ", startingAt: 0)
                + fixed(fps).padding(toLength: 9, withPad: " ", startingAt: 0)
                + "fps  \(fixed(perFrame * 1000, 2)) ms/frame  (\(fixed(fps / reference, 2))× textbook)" + tail)
    }
}

/// Laplacian variance on a 1280×720 gray frame: Focal's one-pass vector loop against OpenCV's
/// idiom (filter2D to CV_64F, then meanStdDev), same process, one thread.
func sharpnessBenchmark(rounds: Int) throws {
    FocalRuntime.setOpenCVThreads(1)
    defer { FocalRuntime.setOpenCVThreads(nil) }
    let reader = try VideoReader(path: "Samples/Media/document.mp4")
    var frames: [Frame] = []
    while let frame = try reader.read(), frames.count < 30 { if let luma = frame.lumaPlane { frames.append(luma) } }
    let repeats = 10
    func time(_ body: (Frame) throws -> Double) throws -> (Double, Double) {
        var times: [Double] = []
        var value = 0.0
        for _ in 0..<rounds {
            times.append(try seconds { for _ in 0..<repeats { for frame in frames { value = try body(frame) } } })
        }
        return (median(times) / Double(repeats * frames.count) * 1000, value)
    }
    let (fast, fastValue) = try time { try Sharpness.laplacian(of: $0).variance }
    let (reference, referenceValue) = try time { try Sharpness.laplacianByOpenCV(of: $0).variance }
    print(
        "sharpness: \(frames[0].width)x\(frames[0].height) luma, \(frames.count) frames × \(repeats), one thread, median of \(rounds) rounds"
    )
    print("  Focal (vector, one pass)              \(fixed(fast, 3)) ms per frame")
    print("  OpenCV idiom (filter2D 64F + meanStdDev) \(fixed(reference, 3)) ms per frame")
    print(
        "  speed-up \(fixed(reference / fast, 1))×, relative difference of the last value \(String(format: "%.1e", abs(fastValue - referenceValue) / referenceValue))"
    )
}

/// Text detection on decoded frames, one thread: the fast engine as a stream (tracking, as the CLI
/// runs it) and on independent frames, beside the rectangle detector it builds on; the network at
/// each input size on a few frames spread over the clip.
func textBenchmark(sample: String, rounds: Int, modelFrames: Int) throws {
    FocalRuntime.setOpenCVThreads(1)
    defer { FocalRuntime.setOpenCVThreads(nil) }
    let (reader, frames) = try decodedFrames(sample)
    print(
        "text: \(sample), \(reader.width)x\(reader.height), \(frames.count) decoded frames, one OpenCV thread, median of \(rounds) rounds"
    )
    func measure(_ name: String, frames: [Frame], rounds: Int, make: () throws -> Detector) throws {
        var times: [Double] = []
        var found = 0
        for _ in 0..<rounds {
            let detector = try make()
            found = 0
            times.append(try seconds { for frame in frames { found += try detector.features(in: frame).count } })
        }
        let perFrame = median(times) / Double(frames.count)
        print(
            "  " + name.padding(toLength: 46, withPad: " ", startingAt: 0)
                + fixed(1 / perFrame).padding(toLength: 8, withPad: " ", startingAt: 0)
                + "fps  \(fixed(perFrame * 1000, 1)) ms/frame  \(fixed(Double(found) / Double(frames.count))) per frame")
    }
    try measure("rectangles .high, tracking (page search)", frames: frames, rounds: rounds) {
        try Detector(type: .rectangle, options: .init(maximumFeatureCount: 4, tracking: true))
    }
    // Segments (the default) beside rows (the grouping before segments were), in the same run.
    for grouping in TextDetectionOptions.LineGrouping.allCases {
        try measure("text .low \(grouping), tracking (a stream)", frames: frames, rounds: rounds) {
            try Detector(type: .text, options: .init(accuracy: .low, tracking: true, text: .init(grouping: grouping)))
        }
        try measure("text .low \(grouping), independent frames", frames: frames, rounds: rounds) {
            try Detector(type: .text, options: .init(accuracy: .low, text: .init(grouping: grouping)))
        }
    }
    // Spread over the clip: the bundled sample's first frames are motion-blurred, where the network finds nothing.
    let modelFrameCount = min(modelFrames, frames.count)
    let few = (0..<modelFrameCount).map { frames[$0 * frames.count / modelFrameCount] }
    for size in TextDetectionOptions.ModelInputSize.allCases {
        for grouping in TextDetectionOptions.LineGrouping.allCases {
            try measure("text .high \(grouping), model input \(size.rawValue)", frames: few, rounds: 1) {
                try Detector(type: .text, options: .init(accuracy: .high, text: .init(grouping: grouping, modelInputSize: size)))
            }
        }
    }
}

/// Resident memory now, in MB (from /proc/self/statm).
func residentMegabytes() -> Double {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let pages = Double(text.split(separator: " ")[1]) ?? 0
    return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1e6
}

/// A scripted 720p YUYV camera as fast as it can render, read by consumers of different speeds:
/// frames captured and dropped, and resident memory before and after each run.
func captureBenchmark(seconds: Double) throws {
    let frame = [UInt8](repeating: 128, count: 1280 * 720 * 2)
    print("capture: scripted 1280x720 YUYV camera at 200 fps, \(fixed(seconds)) s per consumer")
    for delay in [0.0, 0.01, 0.1] {
        let camera = ScriptedCamera(
            formats: [CameraFormat(pixelFormat: .yuyv, width: 1280, height: 720)], frameInterval: 0.005
        ) { _, _, _ in frame }
        let source = try CameraSource(device: camera, preset: .hd1280x720)
        let before = residentMegabytes()
        try source.start()
        var taken = 0
        let start = DispatchTime.now().uptimeNanoseconds
        while Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 < seconds {
            _ = try source.nextFrame()
            taken += 1
            if delay > 0 { usleep(useconds_t(delay * 1e6)) }
        }
        source.stop()
        print(
            "  consumer pausing \(fixed(delay * 1000, 0)) ms: \(source.capturedFrameCount) captured, \(taken) taken, "
                + "\(source.droppedFrameCount) dropped; resident \(fixed(before)) → \(fixed(residentMegabytes())) MB")
    }
}

/// What `focal serve` does per /v1/detect request, in process: decode the JPEG, detect rectangles
/// (the default options), encode the JSON. Run on `threads` threads at once, as the service's
/// workers do; prints requests per second, the reference for the wrk run in scripts/bench-service.sh.
func serviceReference(image: String, threads: Int, seconds: Double) throws {
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: image)))
    FocalRuntime.setOpenCVThreads(1)
    let done = Atomic<Int>(0)
    let group = DispatchGroup()
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<threads {
        group.enter()
        Thread.detachNewThread {
            defer { group.leave() }
            while Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 < seconds {
                guard let frame = try? Frame(decoding: bytes).oriented(),
                    let features = try? Detector(type: .rectangle).features(in: frame).map(AnyFeature.init),
                    (try? JSONEncoder().encode(features)) != nil
                else { continue }
                done.add(1, ordering: .relaxed)
            }
        }
    }
    group.wait()
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let count = done.load(ordering: .relaxed)
    print(
        "service reference: \(image), decode + detect + JSON on \(threads) thread(s): \(count) in \(fixed(elapsed)) s = \(fixed(Double(count) / elapsed)) per second"
    )
}

/// Per-frame cost of each stage of the overlay render on decoded 720p frames, one thread.
func overlayStages(sample: String) throws {
    let reader = try VideoReader(path: sample)
    var frames: [Frame] = []
    while let frame = try reader.read() { frames.append(frame) }
    let detector = try Detector(type: .rectangle, options: .init(accuracy: .low, maximumFeatureCount: 4, tracking: true))
    var found: [[any Feature]] = []
    let detect = try seconds { for frame in frames { found.append(try detector.features(in: frame)) } }
    let region = try seconds {
        for (frame, features) in zip(frames, found) {
            for case let r as RectangleFeature in features {
                _ = try Sharpness.measure(frame, inside: r.quad, options: SharpnessOptions(noiseSuppression: 1, regionSize: 256))
            }
        }
    }
    var copies = frames
    let copy = try seconds {
        for i in copies.indices { try copies[i].fill([Point(x: 0, y: 0), Point(x: 1, y: 0), Point(x: 1, y: 1)], color: .black) }
    }
    let overlay = OverlayRenderer()
    let draw = try seconds { for i in copies.indices { try overlay.draw(found[i], on: &copies[i], notes: [0: "sharpness 123"]) } }
    let info = try seconds { for frame in frames { _ = try Sharpness.laplacian(of: frame) } }
    let n = Double(frames.count)
    print("overlay stages on \(frames.count) frames of \(sample), ms per frame:")
    for (name, t) in [
        ("detect .low", detect), ("region sharpness", region), ("copy decoder frame", copy), ("draw features", draw),
        ("frame sharpness", info),
    ] {
        print("  " + name.padding(toLength: 22, withPad: " ", startingAt: 0) + fixed(t / n * 1000, 2))
    }
}

/// Predictions JSON from the textbook recipe, for scoring it beside Focal with ../shared/eval.
func textbookPredictions(video: String, output: String) throws {
    let reader = try VideoReader(path: video)
    var frames: [[String: Any]] = []
    var index = 0
    while let frame = try reader.read() {
        if let quad = try TextbookRectangles.detect(in: frame).first?.quad {
            frames.append(["index": index, "features": [["type": "rectangle", "corners": quad.corners.map { [$0.x, $0.y] }]]])
        }
        index += 1
    }
    let json: [String: Any] = [
        "source": URL(fileURLWithPath: video).lastPathComponent, "width": reader.width,
        "height": reader.height, "frames": frames,
    ]
    try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: output))
}

/// The standard deviation of values.
func spread(_ values: [Double]) -> Double {
    let mean = values.reduce(0, +) / Double(values.count)
    return (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)).squareRoot()
}

/// Scan enhancement measured on rendered pages under a known falloff of light and a cast shadow
/// (FocalSynthetic's ShadedPage): the paper's spread before and after `color`, and the share of
/// print, faint pencil and paper that `bw` makes black, over `pages` seeds.
func enhanceMeasures(pages: Int) throws {
    func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(values.count) }
    print(
        "page  paper spread before → color   paper mean   ink mean (clean page's, whitened)   bw: print kept  pencil kept  paper black   ms color/bw"
    )
    var sums = [Double](repeating: 0, count: 8)
    for seed in 0..<pages {
        let page = try ShadedPage(seed: UInt64(100 + seed))
        var color = page.image, bw = page.image
        let colorSeconds = try seconds { color = try page.image.enhanced(.color) }
        let bwSeconds = try seconds { bw = try page.image.enhanced(.blackAndWhite) }
        let before = spread(page.luminance(of: page.image, where: .paper))
        let after = spread(page.luminance(of: color, where: .paper))
        func black(_ kind: ShadedPage.Truth) -> Double {
            let values = page.luminance(of: bw, where: kind)
            return Double(values.filter { $0 == 0 }.count) / Double(values.count)
        }
        let cleanInk =
            mean(page.luminance(of: page.clean, where: .ink)) * 255 / mean(page.luminance(of: page.clean, where: .paper))
        let row = [
            before, after, mean(page.luminance(of: color, where: .paper)), mean(page.luminance(of: color, where: .ink)),
            black(.ink), black(.pencil), black(.paper), cleanInk,
        ]
        for index in row.indices { sums[index] += row[index] }
        print(
            "\(100 + seed)   \(fixed(row[0])) → \(fixed(row[1]))              \(fixed(row[2]))        \(fixed(row[3])) (\(fixed(row[7])))                  \(fixed(row[4] * 100)) %         \(fixed(row[5] * 100)) %       \(fixed(row[6] * 100, 2)) %       \(fixed(colorSeconds * 1000, 0))/\(fixed(bwSeconds * 1000, 0))"
        )
    }
    let n = Double(pages)
    print(
        "mean  \(fixed(sums[0] / n)) → \(fixed(sums[1] / n)) (\(fixed(sums[1] / sums[0] * 100)) %)   \(fixed(sums[2] / n))        \(fixed(sums[3] / n)) (\(fixed(sums[7] / n)))                  \(fixed(sums[4] / n * 100)) %         \(fixed(sums[5] / n * 100)) %       \(fixed(sums[6] / n * 100, 2)) %"
    )
}

/// Solid areas through scan enhancement (ShadedPage with solidAreas): how far `color` moves the
/// tone and colour of a dark band, a blue band and a grey row against the paper's (grey levels), and
/// the paper's spread, over `pages` seeds.
func solidAreaMeasures(pages: Int) throws {
    print("page  tone error: dark band  blue band  grey row   paper spread before → color")
    var sums = [Double](repeating: 0, count: 5)
    for seed in 0..<pages {
        let page = try ShadedPage(seed: UInt64(100 + seed), solidAreas: true)
        let color = try page.image.enhanced(.color)
        let row = [
            page.toneError(of: color, where: .darkArea), page.toneError(of: color, where: .colourArea),
            page.toneError(of: color, where: .greyArea), spread(page.luminance(of: page.image, where: .paper)),
            spread(page.luminance(of: color, where: .paper)),
        ]
        for index in row.indices { sums[index] += row[index] }
        print(
            "\(100 + seed)               \(fixed(row[0]))       \(fixed(row[1]))      \(fixed(row[2]))       \(fixed(row[3])) → \(fixed(row[4]))"
        )
    }
    let n = Double(pages)
    print(
        "mean              \(fixed(sums[0] / n))       \(fixed(sums[1] / n))      \(fixed(sums[2] / n))       \(fixed(sums[3] / n)) → \(fixed(sums[4] / n))"
    )
}

let arguments = Array(CommandLine.arguments.dropFirst())
func stringOption(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}
func option(_ name: String, default value: Int) -> Int {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count, let number = Int(arguments[index + 1]) else {
        return value
    }
    return number
}
// The sample, when one is given before the options (`detect --rounds 3` runs on the default).
let positional = arguments.count > 1 && !arguments[1].hasPrefix("--") ? arguments[1] : nil
do {
    switch arguments.first {
    case "video":
        try videoBenchmark(
            sample: positional ?? "Samples/Media/document.mp4",
            repeats: option("--repeat", default: 4), rounds: option("--rounds", default: 3))
    case "overlay-stages":
        try overlayStages(sample: positional ?? "Samples/Media/document.mp4")
    case "sharpness":
        try sharpnessBenchmark(rounds: option("--rounds", default: 5))
    case "service-reference":
        try serviceReference(
            image: positional ?? "Samples/Media/document.jpg", threads: option("--threads", default: 2),
            seconds: Double(option("--seconds", default: 10)))
    case "enhance":
        try enhanceMeasures(pages: option("--pages", default: 5))
        try solidAreaMeasures(pages: option("--pages", default: 5))
    case "capture":
        try captureBenchmark(seconds: Double(option("--seconds", default: 3)))
    case "text":
        try textBenchmark(
            sample: positional ?? "Samples/Media/document.mp4",
            rounds: option("--rounds", default: 3), modelFrames: option("--model-frames", default: 5))
    case "textbook":
        try textbookPredictions(video: arguments[1], output: arguments[2])
    case "detect":
        try detectBenchmark(
            sample: positional ?? "Samples/Media/document.mp4",
            rounds: option("--rounds", default: 3), only: stringOption("--only"))
    default:
        print(
            "usage: focal-bench video SAMPLE.mp4 | detect|text SAMPLE.mp4 or a folder or glob of stills | capture [--seconds N] [--repeat N] [--rounds N] [--only ROW (detect)] | textbook VIDEO OUT.json"
        )
        exit(2)
    }
} catch {
    print("focal-bench: \(error)")
    exit(1)
}
