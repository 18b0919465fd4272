import Focal
import Foundation

/// A fresh folder under the system's temporary folder, removed when the test's scope ends.
final class TemporaryFolder {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "focal-tests-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { path + "/" + name }

    /// Names in the folder, hidden ones included (temporary files start with a dot).
    var contents: [String] { (try? FileManager.default.contentsOfDirectory(atPath: path))?.sorted() ?? [] }
}

/// A BGR frame with a distinct value at every pixel, so that any misplaced row or column shows.
func gradientFrame(width: Int, height: Int) throws -> Frame {
    var frame = try Frame(width: width, height: height, format: .bgr8)
    let stride = frame.bytesPerRow
    frame.withUnsafeMutableBytes { bytes in
        for y in 0..<height {
            for x in 0..<width {
                bytes[y * stride + x * 3] = UInt8((x * 7 + y) & 0xFF)
                bytes[y * stride + x * 3 + 1] = UInt8((y * 5 + x / 3) & 0xFF)
                bytes[y * stride + x * 3 + 2] = UInt8((x ^ y) & 0xFF)
            }
        }
    }
    return frame
}

/// The mean absolute difference of two same-sized frames' bytes, over visible pixels.
func meanAbsoluteDifference(_ a: Frame, _ b: Frame) -> Double {
    precondition(a.width == b.width && a.height == b.height && a.format == b.format)
    var total = 0.0, count = 0.0
    for plane in 0..<a.format.planeCount {
        let size = a.format.planeSize(plane, width: a.width, height: a.height)
        let rowBytes = size.width * (plane == 0 ? a.format.bytesPerPixel : 1)
        a.withUnsafeBytes(plane: plane) { p in
            b.withUnsafeBytes(plane: plane) { q in
                for y in 0..<size.height {
                    for x in 0..<rowBytes {
                        total += abs(
                            Double(p[y * a.bytesPerRow(plane: plane) + x]) - Double(q[y * b.bytesPerRow(plane: plane) + x]))
                        count += 1
                    }
                }
            }
        }
    }
    return total / count
}

/// The centroid of pixels brighter than threshold in a gray view of frame.
func brightCentroid(_ frame: Frame, threshold: UInt8 = 128) throws -> Point? {
    let gray = try frame.lumaPlane ?? frame.converted(to: .gray8)
    var sx = 0.0, sy = 0.0, n = 0.0
    gray.withUnsafeBytes { bytes in
        for y in 0..<gray.height {
            for x in 0..<gray.width where bytes[y * gray.bytesPerRow + x] > threshold {
                sx += Double(x)
                sy += Double(y)
                n += 1
            }
        }
    }
    return n > 0 ? Point(x: sx / n, y: sy / n) : nil
}
