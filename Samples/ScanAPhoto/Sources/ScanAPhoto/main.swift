// The README's library section as a program: find the page in a photo, flatten it, even out the
// paper, write a JPEG, and count the lines of text on it. Both networks (the page detector and
// PP-OCRv4's text detector) come with the library.
//
//   swift run ScanAPhoto PHOTO.jpg SCAN.jpg
import Focal
import Foundation  // exit

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    print("usage: ScanAPhoto PHOTO SCAN.jpg")
    exit(2)
}
do {
    let photo = try Frame(contentsOf: arguments[1])
    let detector = try Detector(type: .rectangle)
    guard let page = try detector.features(in: photo).first as? RectangleFeature else {
        print("ScanAPhoto: no document in \(arguments[1])")
        exit(1)
    }
    let scan = try photo.flattened(through: page.quad).enhanced(.color)
    try scan.write(to: arguments[2])
    let lines = try Detector(type: .text, options: DetectorOptions(accuracy: .high)).features(in: scan)
    let corners = page.quad.corners.map { "(\(Int($0.x)), \(Int($0.y)))" }.joined(separator: " ")
    print(
        "page at \(corners), confidence \(page.confidence): wrote \(arguments[2]), \(scan.width)x\(scan.height), \(lines.count) lines of text"
    )
} catch {
    print("ScanAPhoto: \(error)")
    exit(1)
}
