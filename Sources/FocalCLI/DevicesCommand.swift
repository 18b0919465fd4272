import ArgumentParser
import Focal

struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List the cameras (V4L2 devices) and the formats and sizes each offers.",
        discussion: """
            Opens every /dev/videoN that is a capture device and lists its pixel formats and frame \
            sizes, as `v4l2-ctl --list-formats-ext` does. Formats Focal reads are marked with *.

            EXAMPLES
              focal devices
              focal devices --device /dev/video2
            """
    )

    @Option(help: ArgumentHelp("List only this device.", valueName: "device"))
    var device: String?

    func run() throws {
        let paths: [String]
        if let device {
            paths = [device]
        } else {
            paths = V4L2Camera.devices().map(\.path)
            if paths.isEmpty {
                print("No cameras found (no /dev/videoN opens as a V4L2 capture device).")
                return
            }
        }
        var failed = false
        for path in paths {
            do {
                let camera = try V4L2Camera(path: path)
                print("\(path): \(camera.name)")
                var byFormat: [(CameraPixelFormat, [String])] = []
                for format in try camera.formats() {
                    let size = "\(format.width)x\(format.height)"
                    if let i = byFormat.firstIndex(where: { $0.0 == format.pixelFormat }) {
                        byFormat[i].1.append(size)
                    } else {
                        byFormat.append((format.pixelFormat, [size]))
                    }
                }
                for (pixelFormat, sizes) in byFormat {
                    let mark = CameraPixelFormat.supported.contains(pixelFormat) ? "*" : " "
                    print("  \(mark) \(pixelFormat)  \(sizes.joined(separator: " "))")
                }
            } catch {
                printError("\(error)")
                failed = true
            }
        }
        if failed { throw ExitCode(1) }
    }
}
