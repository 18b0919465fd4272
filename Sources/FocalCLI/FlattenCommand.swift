import ArgumentParser
import Focal

/// `focal flatten`: a page flattened through corners a person chose, as a scanner app's corner
/// editor does after detection.
struct FlattenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flatten",
        abstract: "Flatten the page inside four given corners into a scan.",
        discussion: """
            Maps the quad with the given corners onto an upright image at the page's true \
            proportions (estimated from the camera geometry) and full resolution: what focal scan \
            does with detected corners, for corners a person adjusted. Corners are in the pixels of \
            the upright image (after its EXIF orientation), in the order top-left, top-right, \
            bottom-right, bottom-left, as focal detect --json reports them. --enhance cleans the \
            scan up as a scanner app's filters do (see focal scan --help). The output appears only \
            when complete.

            EXAMPLES
              focal flatten receipt.jpg --corners 412,80,1630,130,1580,2950,380,2890 -o receipt-flat.jpg
              focal flatten page.jpg --corners 10,20,500,25,490,700,15,690 --enhance bw -o page.png
              focal detect page.jpg --json - | jq -r '…corners…'   # detected corners, to adjust
            """
    )

    @Argument(
        help: ArgumentHelp(
            "The photo (JPEG, PNG, TIFF, WebP, BMP, or another format OpenCV reads: Netpbm, JPEG 2000, OpenEXR, Radiance HDR, Sun raster).",
            valueName: "image"))
    var input: String

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Eight numbers, x,y of the top-left, top-right, bottom-right and bottom-left corners (or JSON: [[x1,y1],…]).",
            valueName: "x1,y1,…,x4,y4"),
        transform: FlattenCommand.parseCorners)
    var corners: Quad

    @Option(
        name: [.short, .customLong("output")], help: ArgumentHelp("Where to write the scan (.jpg or .png).", valueName: "path"))
    var output: String

    @Option(help: ArgumentHelp("none, color, gray or bw: shading and shadows removed, the paper whitened.", valueName: "mode"))
    var enhance: ScanEnhancement = .none

    static func parseCorners(_ text: String) throws -> Quad {
        guard let quad = Quad(commaSeparated: text) else {
            throw ValidationError("--corners takes eight numbers, x,y of each corner: --corners 10,20,500,25,490,700,15,690")
        }
        return quad
    }

    func run() throws {
        LibraryDiagnostics.reading(input)
        do {
            let frame = try Frame(contentsOf: input).oriented()
            let flat: Frame
            do { flat = try frame.flattened(through: corners).enhanced(enhance) } catch {
                throw error.about(input)
            }
            try flat.write(to: output, quality: 0.92)
            print("wrote \(output) (\(flat.width)x\(flat.height))")
        } catch let error as FocalError {
            printError("\(error)")
            throw ExitCode(1)
        }
    }
}
