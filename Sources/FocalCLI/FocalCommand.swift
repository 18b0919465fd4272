import ArgumentParser
import Focal

#if canImport(Glibc)
    import Glibc
#endif

@main
struct FocalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "focal",
        abstract: "Find documents, text, faces and QR codes in images and video, and pick the sharpest frames.",
        discussion: """
            Focal reads images (JPEG, PNG, TIFF, WebP, BMP) and videos (anything FFmpeg reads) and \
            writes annotated images and H.264 video.

            EXAMPLES
              focal overlay Samples/Media/document.mp4 -o out/overlay.mp4
              focal overlay photo.jpg -o annotated.png
            """,
        version: FocalVersion.string,
        subcommands: [DetectCommand.self, OverlayCommand.self, ScanCommand.self, SharpestCommand.self]
    )

    /// Exit codes: 0 success, 1 a processing error (named input, reason), 2 bad usage.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            if exitCode(for: error) == .validationFailure {
                printError(fullMessage(for: error))
                printError("see 'focal --help' or 'focal help <subcommand>'")
                Glibc.exit(2)
            }
            exit(withError: error)
        }
    }
}
