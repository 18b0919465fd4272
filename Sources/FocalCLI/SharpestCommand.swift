import ArgumentParser
import Focal

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct SharpestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sharpest",
        abstract: "Rank photos from sharpest to blurriest by the variance of the Laplacian.",
        discussion: """
            Measures each photo as Apple's "Finding the Sharpest Image" sample does (the 3×3 \
            Laplacian of the luma, on the photo shrunk to 1280 pixels) and prints the ranking, \
            sharpest first. --laplacian writes each photo's Laplacian as a picture; --sheet draws \
            the ranking as one picture, a row per photo with its Laplacian beside it.

            EXAMPLES
              focal sharpest burst/*.jpg
              focal sharpest burst/*.jpg --noise-resistant --sheet ranking.png
              focal sharpest a.jpg b.jpg c.jpg --laplacian laplacians --json -
            """
    )

    @Argument(help: ArgumentHelp("The photos to rank.", valueName: "files"))
    var files: [String]

    @Option(help: ArgumentHelp("Write each photo's Laplacian image into this folder.", valueName: "dir"))
    var laplacian: String?

    @Option(help: ArgumentHelp("Draw the ranking as one picture (PNG or JPEG).", valueName: "path"))
    var sheet: String?

    @Flag(name: .customLong("noise-resistant"), help: "Pre-blur to ignore sensor noise and compression (for low light).")
    var noiseResistant = false

    @OptionGroup var jsonOutput: JSONOutputOption
    private var json: String? { jsonOutput.json }

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("give at least one photo to rank") }
    }

    struct Ranked: Encodable {
        var rank: Int
        var file: String
        var variance: Double
        var standardDeviation: Double
    }

    func run() throws {
        do {
            let options: SharpnessOptions = noiseResistant ? .noiseResistant : .plain
            var photos: [(file: String, frame: Frame, score: SharpnessScore)] = []
            for file in files {
                LibraryDiagnostics.reading(file)
                let frame = try Frame(contentsOf: file).oriented()
                do {
                    photos.append((file, frame, try Sharpness.measure(frame, options: options)))
                } catch { throw error.about(file) }
            }
            photos.sort { $0.score > $1.score }
            let ranked = photos.enumerated().map {
                Ranked(
                    rank: $0.offset + 1, file: $0.element.file, variance: $0.element.score.variance,
                    standardDeviation: $0.element.score.standardDeviation)
            }
            if let laplacian {
                try? FileManager.default.createDirectory(atPath: laplacian, withIntermediateDirectories: true)
                for photo in photos {
                    let base = String(photo.file.split(separator: "/").last ?? "photo").split(separator: ".").dropLast().joined(
                        separator: ".")
                    try Sharpness.laplacianImage(of: try photo.frame.fitted(maxWidth: 1280, maxHeight: 1280))
                        .write(to: laplacian + "/" + (base.isEmpty ? "photo" : base) + "-laplacian.png")
                }
            }
            if let sheet { try drawSheet(photos.map { ($0.file, $0.frame, $0.score) }).write(to: sheet) }
            if let json {
                try OutputFile.writeJSON(ranked, to: json, pretty: true)
            } else {
                print("rank  variance      std dev  file")
                for r in ranked {
                    print(
                        padded(String(r.rank), 6) + padded(decimal(r.variance, places: 1), 14)
                            + padded(decimal(r.standardDeviation, places: 2), 9) + r.file)
                }
            }
        } catch let error as FocalError {
            printError("\(error)")
            throw ExitCode(1)
        } catch {
            printError("\(error)")
            throw ExitCode(1)
        }
    }

    /// The sample app's list as one picture: a row per photo, sharpest on top, the photo on the
    /// left and its Laplacian on the right, with rank and score on each row.
    private func drawSheet(_ photos: [(String, Frame, SharpnessScore)]) throws(FocalError) -> Frame {
        let cell = (width: 480, height: 320), gap = 12, header = 36
        var sheet = try Frame(
            width: 2 * cell.width + 3 * gap, height: photos.count * (cell.height + header + gap) + gap,
            format: .bgr8, color: Color(white: 0.12))
        for (row, photo) in photos.enumerated() {
            let top = gap + row * (cell.height + header + gap)
            let label =
                "#\(row + 1)  variance \(decimal(photo.2.variance, places: 1))  \(photo.0.split(separator: "/").last ?? "")"
            try sheet.text(
                label, at: Point(x: Double(gap), y: Double(top + 24)), size: 16, color: row == 0 ? .green : .white, weight: 1)
            let image = try photo.1.converted(to: .bgr8).fitted(maxWidth: cell.width, maxHeight: cell.height)
            let laplacianImage = try Sharpness.laplacianImage(of: image).converted(to: .bgr8)
            for (column, picture) in [image, laplacianImage].enumerated() {
                try sheet.paste(picture, x: gap + column * (cell.width + gap), y: top + header)
            }
        }
        return sheet
    }
}
