// The README's example as a program: label every frame of a video with its sharpness.
//
//   swift run SharpnessOverlay INPUT.mp4 OUTPUT.mp4
import Focal

@main
struct SharpnessOverlay {
    static func main() async {
        let arguments = CommandLine.arguments
        guard arguments.count == 3 else {
            print("usage: SharpnessOverlay INPUT.mp4 OUTPUT.mp4")
            return
        }
        do {
            let reader = try VideoReader(path: arguments[1])  // frames in 4:2:0, straight from the decoder
            let writer = try VideoWriter(
                path: arguments[2], width: reader.width, height: reader.height,
                framesPerSecond: reader.framesPerSecond)
            for try await var frame in reader.frames {
                let sharpness = try Sharpness.laplacian(of: frame).variance  // on the luma plane, no conversion
                try frame.label("sharpness \(Int(sharpness))", at: Point(x: 12, y: 12))
                try writer.append(frame)
            }
            try writer.finish()  // the file appears only now; dropping the writer leaves nothing
            print("wrote \(arguments[2]): \(writer.framesWritten) frames")
        } catch {
            print("SharpnessOverlay: \(error)")
        }
    }
}
