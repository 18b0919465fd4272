import CFocal
import Foundation
import Testing

@testable import Focal

/// The shim runs the networks' depthwise (3 × 3 and 5 × 5, stride 1 and 2), pointwise (1 × 1) and
/// three-channel 3 × 3 (the stem's, stride 1 and 2) convolutions itself, a ReLU after them taken in
/// or not, and their nearest-neighbour upsampling, between OpenCV's own layers. A probe network made of them (`Resources/shim_layer_probe/
/// make-probe.py`) must give the page map that script's numpy arithmetic gives on the same image.
@Suite struct ShimLayerTests {
    static let width = 160, height = 96

    /// make-probe.py's `probe_pixel`: stripes, a ramp and a product term, so that no two
    /// neighbouring windows see the same pixels.
    static func probeImage() throws -> Frame {
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                for channel in 0..<3 {
                    bytes[(y * width + x) * 3 + channel] = UInt8((x * 7 + y * 13 + channel * 50 + (x * y) % 31) % 256)
                }
            }
        }
        return try bytes.withUnsafeBytes { raw in
            try Frame(width: width, height: height, format: .bgr8, bytesPerRow: width * 3, bytes: raw)
        }
    }

    @Test func theProbeNetworkGivesTheMapWrittenOut() throws {
        let probe = try #require(
            Bundle.module.path(forResource: "probe", ofType: "onnx", inDirectory: "Resources/shim_layer_probe"))
        let folder = (probe as NSString).deletingLastPathComponent
        let expectedBytes = try Data(contentsOf: URL(fileURLWithPath: folder + "/expected-page-map.f32"))
        let expected = expectedBytes.withUnsafeBytes { raw in
            (0..<raw.count / 4).map {
                Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self)))
            }
        }
        // At input 96 a 160 × 96 frame reaches the network unscaled, and its maps come back at its size.
        let model = try PageModel.borrow(path: probe, fileName: "probe.onnx", inputSize: 96)
        defer { PageModel.giveBack(model) }
        let map = try model.pageProbability(in: try Self.probeImage(), view: CFOCAL_PAGE_VIEW_PROPORTIONAL)
        #expect(map.width == Self.width && map.height == Self.height)
        try #require(map.values.count == expected.count)
        let largest = zip(map.values, expected).map { abs($0 - $1) }.max() ?? 1
        // Float rounding: 3e-7 measured; a tap or a phase off by one moves values by 0.01 or more.
        #expect(largest < 1e-5, "the map differs from numpy's by up to \(largest)")
        // The probe's map spreads over most of (0, 1) (0.009 to 0.998, half of its 15 cells' values
        // between 0.07 and 0.86), so a wrong layer cannot hide in saturation.
        #expect((expected.min() ?? 1) < 0.1 && (expected.max() ?? 0) > 0.9)
    }
}
