import ArgumentParser
import Focal

#if canImport(Glibc)
    import Glibc
#endif

@main
struct FocalCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "focal",
        abstract:
            "Find documents, text, faces and QR codes in images, video and cameras, pick the sharpest frames, and scan documents flat.",
        discussion: """
            Focal reads images (JPEG, PNG, TIFF, WebP, BMP), image sequences and videos (anything \
            FFmpeg reads), and writes annotated images, H.264 video, flat document scans and JSON.

            EXAMPLES
              focal overlay Samples/Media/document.mp4 -o out/overlay.mp4
              focal detect clip.mp4 --json clip.json
              focal scan clip.mp4 --out scans
              focal flatten photo.jpg --corners 40,30,610,52,590,860,25,840 -o page.jpg
              focal sharpest burst/*.jpg --sheet ranking.png
              focal capture --device /dev/video0 --burst 8 --out burst
              focal serve --port 8080
              focal --generate-completion-script bash > /etc/bash_completion.d/focal

            Exit status: 0 on success, 1 when an input cannot be processed, 2 for bad usage, 130 when \
            interrupted.
            """,
        version: FocalVersion.string,
        subcommands: [
            DetectCommand.self, OverlayCommand.self, ScanCommand.self, FlattenCommand.self, SharpestCommand.self, CaptureCommand.self,
            DevicesCommand.self, ServeCommand.self,
        ]
    )

    /// Exit codes: 0 success, 1 a processing error (named input, reason), 2 bad usage.
    static func main() async {
        LibraryDiagnostics.install()
        // Video frames and photos allocate the same buffers over and over (FocalRuntime docs).
        FocalRuntime.keepFreedMemory()
        do {
            var command = try parseAsRoot()
            if var asynchronous = command as? AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
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
