import Foundation

/// What poppler's `pdfinfo` reads in a PDF answer: the check that it is a PDF other software opens.
enum PDFInfo {
    /// The page count `pdfinfo` reports, or -1 when it reports none.
    static func pageCount(of pdf: Data) throws -> Int {
        let file = NSTemporaryDirectory() + "focal-pdf-\(UUID().uuidString).pdf"
        defer { try? FileManager.default.removeItem(atPath: file) }
        try pdf.write(to: URL(fileURLWithPath: file))
        let info = Process()
        info.executableURL = URL(fileURLWithPath: "/usr/bin/pdfinfo")
        info.arguments = [file]
        let out = Pipe()
        info.standardOutput = out
        try info.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        info.waitUntilExit()
        let line = text.split(separator: "\n").first { $0.hasPrefix("Pages:") } ?? ""
        return Int(line.split(separator: " ").last ?? "") ?? -1
    }
}
