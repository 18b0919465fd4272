import Focal
import FocalSynthetic
import Foundation
import Testing

/// `focal scan` over several inputs: files, a folder and a glob, one PDF in order; nothing found
/// is its own exit status; --whole-image-if-none keeps a page anyway.
@Suite struct ScanInputsTests {
    /// A photo of a page on a table.
    static func photo(seed: UInt64) throws -> Frame {
        let page = try SyntheticPage(width: 600, height: 800, seed: seed)
        return try SyntheticScene(
            background: try SyntheticBackground.wood.render(width: 960, height: 720, seed: seed), page: page,
            corners: SyntheticScene.corners(frameWidth: 960, frameHeight: 720, center: Point(x: 480, y: 360), fill: 0.8)
        ).frame
    }

    @Test func severalInputsMakeOnePDFInTheOrderGiven() throws {
        let scratch = Scratch()
        try FileManager.default.createDirectory(atPath: scratch.path + "/folder", withIntermediateDirectories: true)
        try Self.photo(seed: 1).write(to: scratch.path + "/a.jpg")
        try Self.photo(seed: 2).write(to: scratch.path + "/folder/p10.jpg")
        try Self.photo(seed: 3).write(to: scratch.path + "/folder/p9.jpg")
        try Self.photo(seed: 4).write(to: scratch.path + "/z.png")
        let run = try CLIRun([
            "scan", scratch.path + "/a.jpg", scratch.path + "/folder", scratch.path + "/z*.png", "--pdf",
            scratch.path + "/all.pdf", "--out", scratch.path + "/scans", "--max-documents", "1",
        ])
        #expect(run.status == 0, "\(run.error)")
        let info = try pdfInfo(scratch.path + "/all.pdf")
        #expect(info.status == 0 && info.text.contains("Pages:           4"), "\(info.text)")
        let summary = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: scratch.path + "/scans/summary.json")))
                as? [String: Any])
        let sources = (summary["documents"] as? [[String: Any]])?.compactMap {
            ($0["source"] as? String)?.split(separator: "/").last
        }
        // The PDF's pages are the summary's documents, in the order given: the folder's in natural order.
        #expect(sources == ["a.jpg", "p9.jpg", "p10.jpg", "z.png"], "\(String(describing: sources))")
        #expect(summary["frames"] as? Int == 4)
    }

    @Test func nothingFoundIsItsOwnStatusAndTheWholeImageIsKeptWhenAsked() throws {
        let scratch = Scratch()
        let blank = scratch.path + "/blank.png"
        try Frame(width: 320, height: 240, format: .bgr8, color: Color(white: 0.5)).write(to: blank)
        let none = try CLIRun(["scan", blank, "--out", scratch.path + "/scans"])
        #expect(none.status == 3 && none.error.contains("--whole-image-if-none"), "\(none.status) \(none.error)")
        let whole = try CLIRun(["scan", blank, "--out", scratch.path + "/whole", "--whole-image-if-none"])
        #expect(whole.status == 0, "\(whole.error)")
        let page = try Frame(contentsOf: scratch.path + "/whole/document-1.png")
        #expect(abs(page.width - 320) <= 2 && abs(page.height - 240) <= 2, "the whole image: \(page.width)x\(page.height)")
        let folder = try CLIRun(["scan", scratch.path + "/no-such-folder/*.jpg", "--pdf", scratch.path + "/x.pdf"])
        #expect(folder.status == 1 && folder.error.contains("no images match"), "\(folder.error)")
    }
}
