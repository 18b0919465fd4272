import Focal
import FocalSynthetic
import Foundation
import Testing

/// PDFs of scans, read back by Poppler's pdfinfo and pdftoppm (Debian's poppler-utils, which
/// scripts/install-deps.sh installs), as a standard reader would.
@Suite struct ScanPDFTests {
    /// Runs one of Poppler's tools and returns what it printed.
    static func poppler(_ tool: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/" + tool)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = Pipe()
        do { try process.run() } catch {
            Issue.record("\(tool) is missing: run scripts/install-deps.sh (poppler-utils)")
            throw error
        }
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(tool) \(arguments) exited \(process.terminationStatus)")
        return text
    }

    @Test func threeScansMakeThreePagesAtTheirProportionsThatReadersOpen() throws {
        let folder = TemporaryFolder()
        // An A4 page, a US Letter page (landscape) and a receipt, which keeps its own proportions.
        let a4 = try SyntheticPage(width: 700, height: 990, seed: 1).image
        let letter = try SyntheticPage(width: 1100, height: 850, seed: 2).image
        let receipt = try SyntheticPage(width: 300, height: 1000, seed: 3).image.enhanced(.gray)
        var document = ScanPDF(title: "Quarterly reports – Zürich", creationDate: 1_795_000_000)
        for scan in [a4, letter, receipt] { try document.append(scan) }
        #expect(document.pages.map(\.size.name) == ["A4", "US Letter", nil])
        let path = folder.file("scan.pdf")
        try document.write(to: path)
        #expect(folder.contents == ["scan.pdf"], "no temporary file left")

        let info = try Self.poppler("pdfinfo", ["-f", "1", "-l", "3", path])
        #expect(info.contains("Pages:           3"), "\(info)")
        #expect(info.contains("Title:           Quarterly reports – Zürich"), "the UTF-8 title: \(info)")
        #expect(info.contains("CreationDate:") && info.contains("2026"), "\(info)")
        #expect(info.contains("Page    1 size:  595.276 x 841.89 pts (A4)"), "\(info)")
        #expect(info.contains("Page    2 size:  792 x 612 pts (letter)"), "\(info)")
        // 300 × 1000 pixels: 252.57 × 841.89 points.
        #expect(info.contains("Page    3 size:  252.567 x 841.89 pts"), "\(info)")

        // Rendered back at 72 dpi, the first page is the scan, shrunk to the page.
        _ = try Self.poppler("pdftoppm", ["-r", "72", "-f", "1", "-l", "1", "-png", path, folder.file("page")])
        let rendered = try Frame(contentsOf: folder.file("page-1.png")).converted(to: .bgr8)
        let expected = try a4.resized(width: rendered.width, height: rendered.height)
        #expect(abs(rendered.width - 595) <= 1 && abs(rendered.height - 842) <= 1)
        #expect(meanAbsoluteDifference(rendered, expected) < 6, "\(meanAbsoluteDifference(rendered, expected))")
    }

    @Test func pagesNearAStandardSizeSnapToItAndOthersKeepTheirProportions() {
        #expect(ScanPDF.PageSize.fitting(width: 2100, height: 2970) == .a4)
        #expect(ScanPDF.PageSize.fitting(width: 2100, height: 3026).name == "A4")
        #expect(ScanPDF.PageSize.fitting(width: 2100, height: 3060).name == nil)
        #expect(ScanPDF.PageSize.fitting(width: 1100, height: 850).name == "US Letter")
        let card = ScanPDF.PageSize.fitting(width: 856, height: 540)
        #expect(card.name == nil && card.width > card.height && abs(card.width / card.height - 856.0 / 540) < 1e-9)
    }

    @Test func anEmptyDocumentOrABrokenJPEGIsAClearError() throws {
        let empty = ScanPDF(title: "nothing")
        #expect(throws: FocalError.self) { _ = try empty.data() }
        var broken = ScanPDF(title: "broken")
        broken.append(jpeg: [0xFF, 0xD8, 0xFF, 0x00, 1, 2, 3], width: 10, height: 10)
        let error = try #require(throws: FocalError.self) { _ = try broken.data() }
        #expect(
            error.kind == .decodeFailed && error.operation.contains("page 1") && error.reason.contains("not a JPEG"), "\(error)")
    }
}
