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

    @Argument(
        help: ArgumentHelp(
            "Videos, photos, folders of photos or quoted globs ('pages/*.jpg'), scanned in the order given (a folder's photos in natural order).",
            valueName: "input"))
    var inputs: [String]

    @Option(help: ArgumentHelp("The folder to write into (created if missing).", valueName: "dir"))
    var out: String?

    @Option(help: ArgumentHelp("Also write every scan, a page each, into this PDF, in order.", valueName: "file.pdf"))
    var pdf: String?

    @Option(help: ArgumentHelp("Scan image format: png or jpg.", valueName: "format"))
    var format: String = "png"

    @Option(
        name: .customLong("max-documents"), parsing: .unconditional,
        help: ArgumentHelp("Documents to look for in each frame.", valueName: "n"))
    var maxDocuments: Int = 2

    @Flag(
        name: .customLong("whole-image-if-none"),
        help: "Where no document is found in an input, keep the whole image as its page (a video's sharpest frame).")
    var wholeImageIfNone = false

    @OptionGroup var accuracyOption: AccuracyOption

    @Option(help: ArgumentHelp("none, color, gray or bw: shading and shadows removed, the paper whitened.", valueName: "mode"))
    var enhance: ScanEnhancement = .none

    @OptionGroup var quietOption: QuietOption
    private var quiet: Bool { quietOption.quiet }

    /// Exit status when no document was found and --whole-image-if-none was not given.
    static let nothingFound: Int32 = 3

    func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("give a video, a photo, a folder or a glob to scan") }
        guard out != nil || pdf != nil else {
            throw ValidationError("say where the scans go: --out DIR for images, --pdf FILE.pdf for one PDF, or both")
        }
        if let pdf, !pdf.lowercased().hasSuffix(".pdf") { throw ValidationError("--pdf names a .pdf file, not '\(pdf)'") }
        guard ["png", "jpg", "jpeg"].contains(format.lowercased()) else { throw ValidationError("--format must be png or jpg") }
        guard maxDocuments >= 1 else { throw ValidationError("--max-documents must be 1 or more") }
    }

    /// A document found, with the input it came from.
    struct Found {
        var scan: DocumentScan
        var source: String
    }

    func run() throws {
        // Every input is read before anything is written, so that a failure leaves no empty folder.
        let paths = try expandedInputs()
        var found: [Found] = [], frames = 0
        for path in paths {
            LibraryDiagnostics.reading(path)
            do {
                let (scans, read) = try findDocuments(in: path)
                found += scans.map { Found(scan: $0, source: path) }
                frames += read
            } catch {
                printError("\(error.about(path))")
                throw ExitCode(1)
            }
        }
        var flats: [Frame] = []
        for document in found {
            do { flats.append(try document.scan.flattened().enhanced(enhance)) } catch {
                printError("\(error.about(document.source))")
                throw ExitCode(1)
            }
        }
        let names = paths.map { String($0.split(separator: "/").last ?? Substring($0)) }
        if let out {
            let report = ScanReport(source: names.count == 1 ? names[0] : nil, frames: frames, documents: [])
            try writeFolder(out, found: found, flats: flats, report: report, namesSources: paths.count > 1)
        }
        guard !found.isEmpty else {
            let what = paths.count == 1 ? paths[0] : "any of the \(paths.count) inputs"
            printError(
                "no document found in \(what)\(pdf.map { "; \($0) was not written" } ?? ""); --whole-image-if-none keeps the whole image instead"
            )
            throw ExitCode(Self.nothingFound)
        }
        if let pdf { try writePDF(pdf, flats: flats, title: names.count == 1 ? "Scan of \(names[0])" : "Scan") }
    }

    /// The inputs with each folder and glob replaced by its photos, in natural order.
    private func expandedInputs() throws -> [String] {
        var paths: [String] = []
        for input in inputs {
            guard ImageSequenceReader.namesSequence(input) else {
                paths.append(input)
                continue
            }
            do { paths += try ImageSequenceReader.imagePaths(matching: input) } catch {
                printError("\(error)")
                throw ExitCode(1)
            }
        }
        return paths
    }

    private func writePDF(_ pdf: String, flats: [Frame], title: String) throws {
        var document = ScanPDF(title: title)
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

    private func writeFolder(_ out: String, found: [Found], flats: [Frame], report: ScanReport, namesSources: Bool) throws {
        let folderExisted = FileManager.default.fileExists(atPath: out)
        do {
            try OutputFolder.create(out)
        } catch {
            printError(error.description)
            throw ExitCode(1)
        }
        do {
            var report = report
            for (number, (document, flat)) in zip(found, flats).enumerated() {
                var entry = try writeDocument(document.scan, flat: flat, number: number + 1, into: out)
                if namesSources { entry.source = document.source }
                report.documents.append(entry)
            }
            try OutputFile.writeJSON(report, to: out + "/summary.json", pretty: true)
        } catch let error as FocalError {
            printError("\(error)")
            if !folderExisted { _ = rmdir(out) }  // only if still empty
            throw ExitCode(1)
        }
    }

    /// Writes document `number`'s scan and its best frame, outlined, into `out`.
    private func writeDocument(_ scan: DocumentScan, flat: Frame, number: Int, into out: String) throws(FocalError)
        -> ScanReport.Document
    {
        let png = format.lowercased() == "png"
        let scanName = "document-\(number).\(png ? "png" : "jpg")"
        let bestName = "document-\(number)-best.jpg"
        try flat.write(to: out + "/" + scanName, quality: 0.92)
        var best = try scan.frame.converted(to: .bgr8)
        try OverlayRenderer().draw(
            [RectangleFeature(quad: scan.quad, confidence: 1, trackingID: scan.trackingID)], on: &best,
            notes: [0: "sharpness \(decimal(scan.sharpness.variance, places: 0))"])
        try best.write(to: out + "/" + bestName, quality: 0.9)
        if !quiet {
            print(
                "document \(number): frames \(scan.firstFrame)–\(scan.lastFrame), sharpest \(scan.bestFrame) → \(out)/\(scanName) (\(flat.width)x\(flat.height))"
            )
        }
        return ScanReport.Document(
            scan,
            image: .init(width: flat.width, height: flat.height, contentType: png ? "image/png" : "image/jpeg", file: scanName),
            bestFrameImage: .init(width: best.width, height: best.height, contentType: "image/jpeg", file: bestName))
    }

    /// The documents in one input and the frames read: a photo's as a photo's, a video's tracked
    /// with each one's sharpest frame. With --whole-image-if-none, an input without one gives its
    /// whole image (a video's sharpest frame) instead.
    private func findDocuments(in input: String) throws(FocalError) -> (scans: [DocumentScan], frames: Int) {
        let options = DetectorOptions(accuracy: accuracyOption.accuracy, maximumFeatureCount: maxDocuments)
        if ImageFormat(path: input) != nil {
            let photo = try Frame(contentsOf: input).oriented()
            let scans = try DocumentScanner.scans(inPhoto: photo, detector: options)
            return (scans.isEmpty && wholeImageIfNone ? [try DocumentScan.wholeImage(photo, frame: 0)] : scans, 1)
        }
        let scanner = try DocumentScanner(detector: options)
        let reader = try VideoReader(path: input)
        var scans: [DocumentScan] = []
        var frames = 0
        var sharpest: (frame: Frame, index: Int, score: SharpnessScore)?
        while let frame = try reader.read() {
            scans += try scanner.process(frame).finished
            if wholeImageIfNone {
                let score = try Sharpness.measure(frame, options: .noiseResistant)
                if score > sharpest?.score ?? SharpnessScore(variance: -1) { sharpest = (frame, frames, score) }
            }
            frames += 1
        }
        scans = (scans + scanner.finish()).sorted(by: DocumentScan.firstSeenFirst)
        if scans.isEmpty, let sharpest { scans = [try DocumentScan.wholeImage(sharpest.frame, frame: sharpest.index)] }
        return (scans, frames)
    }
}
