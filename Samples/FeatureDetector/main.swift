// The "Feature Detector" tutorial's flow with Focal: frames from a video file, detectors with
// options, overlays drawn, frames written out.
//
//   swift run FeatureDetector INPUT.mp4 OUTPUT.mp4
import Focal

@main
struct FeatureDetector {
    static func main() async {
        let arguments = CommandLine.arguments
        guard arguments.count == 3 else {
            print("usage: FeatureDetector INPUT.mp4 OUTPUT.mp4")
            return
        }
        do {
            // Documents: up to two, tracked across frames, found on a 320-pixel working image.
            let documents = try Detector(
                type: .rectangle,
                options: DetectorOptions(accuracy: .low, minimumAspectRatio: 0.3, maximumFeatureCount: 2, tracking: true))
            var detectors = [documents, try Detector(type: .qrCode)]
            // Text regions come with the text detector; until then Focal says so instead of guessing.
            do {
                detectors.append(try Detector(type: .text, options: DetectorOptions(accuracy: .low)))
            } catch {
                print("text: \(error)")
            }

            let reader = try VideoReader(path: arguments[1])
            let writer = try VideoWriter(
                path: arguments[2], width: reader.width, height: reader.height, framesPerSecond: reader.framesPerSecond)
            let overlay = OverlayRenderer()
            var seen: Set<Int> = []
            for try await var frame in reader.frames {
                var features: [any Feature] = []
                for detector in detectors { features += try detector.features(in: frame) }
                seen.formUnion(features.compactMap { $0 is RectangleFeature ? $0.trackingID : nil })
                try overlay.draw(features, on: &frame)
                try writer.append(frame)
            }
            try writer.finish()
            print("wrote \(arguments[2]): \(writer.framesWritten) frames, \(seen.count) document(s)")
        } catch {
            print("FeatureDetector: \(error)")
        }
    }
}
