import ArgumentParser
import Focal

#if canImport(Glibc)
    import Glibc
#endif

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Find each document in a video or photo and write a flat, perspective-corrected scan of it.",
        discussion: """
            For a video, each document is followed from frame to frame and scanned from the frame \
            where it is sharpest (measured inside the document). For a photo, every document in it \
            is scanned. For each document, DIR receives document-N.png (the flat scan, at the \
            page's true proportions and the source's full resolution), document-N-best.jpg (the \
            frame it came from, with the document outlined) and an entry in summary.json. With \
            --pdf, the scans also go into one PDF, a page per document in the order found, each \
            page at the document's proportions (A4 or US Letter when within 2 % of one), the scan \
            embedded as a JPEG of quality 85, titled after the input and dated now. Give --out, \
            --pdf or both.

            --enhance cleans each scan up as a scanner app's filters do. color and gray estimate \
            the light on the paper and divide it out, so that shading and cast shadows go and the \
            paper turns white while the ink keeps its darkness; bw turns the page into black ink on \
            white, thresholded against the paper's own noise so that faint pencil and small print \
            survive. Large flat areas of colour (a photo on the page) come out lighter.

            EXAMPLES
              focal scan receipt-video.mp4 --out scans
              focal scan desk.jpg --out scans --max-documents 3 --format jpg
              focal scan receipt.jpg --out scans --enhance bw
              focal scan pages.mp4 --pdf pages.pdf --enhance color
            """
    )

    @Argument(help: ArgumentHelp("The video or photo to read.", valueName: "input"))
    var input: String

    @Option(help: ArgumentHelp("The folder to write into (created if missing).", valueName: "dir"))
    var out: String?

    @Option(help: ArgumentHelp("Also write every scan, a page each, into this PDF.", valueName: "file.pdf"))
    var pdf: String?

    @Option(help: ArgumentHelp("Scan image format: png or jpg.", valueName: "format"))
    var format: String = "png"

    @Option(
        name: .customLong("max-documents"), parsing: .unconditional,
        help: ArgumentHelp("Documents to look for in each frame.", valueName: "n"))
    var maxDocuments: Int = 2

    @OptionGroup var accuracyOption: AccuracyOption

    @Option(help: ArgumentHelp("none, color, gray or bw: shading and shadows removed, the paper whitened.", valueName: "mode"))
    var enhance: ScanEnhancement = .none

    @OptionGroup var quietOption: QuietOption
    private var quiet: Bool { quietOption.quiet }

    func validate() throws {
        guard out != nil || pdf != nil else {
            throw ValidationError("say where the scans go: --out DIR for images, --pdf FILE.pdf for one PDF, or both")
        }
        if let pdf, !pdf.lowercased().hasSuffix(".pdf") { throw ValidationError("--pdf names a .pdf file, not '\(pdf)'") }
        guard ["png", "jpg", "jpeg"].contains(format.lowercased()) else { throw ValidationError("--format must be png or jpg") }
        guard maxDocuments >= 1 else { throw ValidationError("--max-documents must be 1 or more") }
    }

    func run() throws {
        // The input is read before anything is written, so that a failure leaves no empty folder.
        let scans: [DocumentScan], frames: Int
        LibraryDiagnostics.reading(input)
        do { (scans, frames) = try findDocuments() } catch {
            printError("\(error.about(input))")
            throw ExitCode(1)
        }
        let name = String(input.split(separator: "/").last ?? Substring(input))
        var flats: [Frame] = []
        do {
            for scan in scans { flats.append(try scan.flattened().enhanced(enhance)) }
        } catch {
            printError("\(error.about(input))")
            throw ExitCode(1)
        }
        if let out {
            try writeFolder(out, scans: scans, flats: flats, report: ScanReport(source: name, frames: frames, documents: []))
        }
        if let pdf {
            guard !flats.isEmpty else {
                printError("no document found in \(input); \(pdf) was not written")
                throw ExitCode(1)
            }
            var document = ScanPDF(title: "Scan of \(name)")
            do {
                for flat in flats { try document.append(flat) }
                try document.write(to: pdf)
            } catch {
                printError("\(error)")
                throw ExitCode(1)
            }
            if !quiet {
                print("wrote \(pdf): \(flats.count) page(s), " + document.pages.map { "\($0.size)" }.joined(separator: ", "))
            }
        }
    }

    private func writeFolder(_ out: String, scans: [DocumentScan], flats: [Frame], report: ScanReport) throws {
        let folderExisted = FileManager.default.fileExists(atPath: out)
        do {
            try OutputFolder.create(out)
        } catch {
            printError(error.description)
            throw ExitCode(1)
        }
        do {
            var report = report
            let png = format.lowercased() == "png"
            for (number, (scan, flat)) in zip(scans, flats).enumerated() {
                let scanName = "document-\(number + 1).\(png ? "png" : "jpg")"
                let bestName = "document-\(number + 1)-best.jpg"
                try flat.write(to: out + "/" + scanName, quality: 0.92)
                var best = try scan.frame.converted(to: .bgr8)
                try OverlayRenderer().draw(
                    [RectangleFeature(quad: scan.quad, confidence: 1, trackingID: scan.trackingID)], on: &best,
                    notes: [0: "sharpness \(decimal(scan.sharpness.variance, places: 0))"])
                try best.write(to: out + "/" + bestName, quality: 0.9)
                report.documents.append(
                    ScanReport.Document(
                        scan,
                        image: .init(
                            width: flat.width, height: flat.height, contentType: png ? "image/png" : "image/jpeg", file: scanName),
                        bestFrameImage: .init(width: best.width, height: best.height, contentType: "image/jpeg", file: bestName)))
                if !quiet {
                    print(
                        "document \(number + 1): frames \(scan.firstFrame)–\(scan.lastFrame), sharpest \(scan.bestFrame) → \(out)/\(scanName) (\(flat.width)x\(flat.height))"
                    )
                }
            }
            try OutputFile.writeJSON(report, to: out + "/summary.json", pretty: true)
            if !quiet && report.documents.isEmpty { print("no document found in \(input)") }
        } catch let error as FocalError {
            printError("\(error)")
            if !folderExisted { _ = rmdir(out) }  // only if still empty
            throw ExitCode(1)
        }
    }

    /// The documents in the input and the frames read: a photo's as a photo's, a video's tracked
    /// with each one's sharpest frame.
    private func findDocuments() throws(FocalError) -> (scans: [DocumentScan], frames: Int) {
        let options = DetectorOptions(accuracy: accuracyOption.accuracy, maximumFeatureCount: maxDocuments)
        if ImageFormat(path: input) != nil {
            return (try DocumentScanner.scans(inPhoto: try Frame(contentsOf: input).oriented(), detector: options), 1)
        }
        let scanner = try DocumentScanner(detector: options)
        let reader = try VideoReader(path: input)
        var scans: [DocumentScan] = []
        var frames = 0
        while let frame = try reader.read() {
            frames += 1
            scans += try scanner.process(frame).finished
        }
        return ((scans + scanner.finish()).sorted(by: DocumentScan.firstSeenFirst), frames)
    }
}
