// "Capturing Film on iPhone", with Focal: each shot saved twice under one capture ID, the RAW
// frame exactly as the camera delivered it and a filtered JPEG beside it, listed together in a
// manifest only once both are on disk.
//
//   swift run RawPlusProcessed OUTPUT_FOLDER [/dev/videoN | VIDEO_FILE] [SHOTS]
// With a video file (the bundled sample by default) it stands in for a camera.
import Focal

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

@main
struct RawPlusProcessed {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let folder = arguments.first else {
            print("usage: RawPlusProcessed OUTPUT_FOLDER [/dev/videoN | VIDEO_FILE] [SHOTS]")
            return
        }
        let input = arguments.count > 1 ? arguments[1] : "Samples/Media/document.mp4"
        let shots = arguments.count > 2 ? Int(arguments[2]) ?? 3 : 3
        do {
            // A film look for the processed copy: the colour taken out, the contrast evened.
            let pipeline = FramePipeline(filters: [.grayscale, .documentEnhance])
            let camera: any CameraDevice =
                input.hasPrefix("/dev/") ? try V4L2Camera(path: input) : try VideoFileCamera(path: input)
            let source = try CameraSource(device: camera, preset: .hd1280x720, pipeline: pipeline)
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let store = try CaptureStore(folder: folder)
            try source.start()
            defer { source.stop() }
            for _ in 0..<shots {
                guard let raw = try source.nextBuffer() else { break }
                let processed = try pipeline.apply(to: raw.frame())
                let entry = try store.save(raw: raw, processed: processed, quality: 0.8)
                print("\(entry.id): \(entry.raw) (\(entry.pixelFormat) \(entry.width)x\(entry.height)) + \(entry.processed)")
            }
            print("\(try store.entries().count) pairs listed in \(store.manifestPath)")
        } catch {
            print("RawPlusProcessed: \(error)")
        }
    }
}
