// Renders Focal's bundled sample media with Focal itself: a page on a wooden table filmed by a
// hand-held camera whose focus comes and goes, as an H.264 .mp4, plus one still photo.
//
//   swift run MakeSampleMedia [OUTPUT_FOLDER]      (default Samples/Media)
import Focal
import FocalSynthetic
import Foundation

let folder = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "Samples/Media"
do {
    let clip = try SyntheticClip(width: 1280, height: 720, frameCount: 90, sharpestFrame: 52, firstPageFrame: 6, seed: 2024)
    let writer = try VideoWriter(
        path: folder + "/document.mp4", width: clip.width, height: clip.height,
        framesPerSecond: clip.framesPerSecond,
        settings: .init(codec: .h264, preset: .medium, quality: 27))
    var lines: [String] = []
    for index in 0..<clip.frameCount {
        let scene = try clip.scene(at: index)
        try writer.append(scene.frame)
        let corners =
            scene.pageCorners.map { q in
                "["
                    + q.corners.map { "[\(($0.x * 100).rounded() / 100), \(($0.y * 100).rounded() / 100)]" }.joined(
                        separator: ", ") + "]"
            } ?? "null"
        lines.append(
            "    {\"index\": \(index), \"corners\": \(corners), \"blurSigma\": \((scene.blur.effectiveSigma * 1000).rounded() / 1000)}"
        )
        if index == clip.sharpestFrame { try scene.frame.write(to: folder + "/document.jpg", quality: 0.9) }
    }
    try writer.finish()
    let truth =
        "{\n  \"video\": \"document.mp4\", \"width\": \(clip.width), \"height\": \(clip.height), \"sharpestFrame\": \(clip.sharpestFrame),\n  \"frames\": [\n"
        + lines.joined(separator: ",\n") + "\n  ]\n}\n"
    try truth.write(toFile: folder + "/document.json", atomically: true, encoding: .utf8)
    print("wrote \(folder)/document.mp4 (\(clip.frameCount) frames), document.jpg and document.json")
} catch {
    print("MakeSampleMedia: \(error)")
    exit(1)
}
