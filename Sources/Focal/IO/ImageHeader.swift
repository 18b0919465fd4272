/// An encoded image's format and pixel size, read from its header without decoding: enough to
/// refuse a decompression bomb (a small file that decodes to gigabytes) before it is decoded.
public struct ImageHeader: Sendable, Equatable {
    /// The image's format.
    public var format: ImageFormat
    /// The width the header claims.
    public var width: Int
    /// The height the header claims.
    public var height: Int

    /// Reads JPEG (SOF markers), PNG (IHDR), WebP (VP8, VP8L, VP8X), BMP and TIFF (first IFD)
    /// headers. Nil when the bytes are none of these, or the header is truncated. Where a header
    /// claims a size twice (a TIFF's width tag given twice), the larger is reported.
    public init?(bytes: [UInt8]) {
        let header = HeaderBytes(bytes)
        guard let found = Self.png(header) ?? Self.jpeg(header) ?? Self.webp(header) ?? Self.bmp(header) ?? Self.tiff(header)
        else { return nil }
        self = found
    }

    private static func png(_ b: HeaderBytes) -> ImageHeader? {
        guard b.count >= 24, b.bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
            b.bytes[12..<16] == [0x49, 0x48, 0x44, 0x52]
        else { return nil }
        return ImageHeader(format: .png, width: b.be32(16), height: b.be32(20))
    }

    /// Walks the markers to the first start-of-frame (SOF0…SOF15 but DHT, JPG and DAC).
    private static func jpeg(_ b: HeaderBytes) -> ImageHeader? {
        guard b.count >= 4, b.bytes[0] == 0xFF, b.bytes[1] == 0xD8 else { return nil }
        var i = 2
        while i + 9 < b.count {
            guard b.bytes[i] == 0xFF else { return nil }
            let marker = b.bytes[i + 1]
            if marker == 0xFF {
                i += 1
                continue
            }
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 {
                i += 2
                continue
            }
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                return ImageHeader(format: .jpeg, width: b.be16(i + 7), height: b.be16(i + 5))
            }
            if marker == 0xDA || marker == 0xD9 { return nil }
            i += 2 + b.be16(i + 2)
        }
        return nil
    }

    private static func webp(_ b: HeaderBytes) -> ImageHeader? {
        guard b.count >= 30, b.bytes[0..<4] == [0x52, 0x49, 0x46, 0x46], b.bytes[8..<12] == [0x57, 0x45, 0x42, 0x50] else {
            return nil
        }
        switch String(decoding: b.bytes[12..<16], as: UTF8.self) {
        case "VP8 ": return ImageHeader(format: .webp, width: b.le16(26) & 0x3FFF, height: b.le16(28) & 0x3FFF)
        case "VP8L":
            let bits = b.le32(21)
            return ImageHeader(format: .webp, width: (bits & 0x3FFF) + 1, height: ((bits >> 14) & 0x3FFF) + 1)
        case "VP8X": return ImageHeader(format: .webp, width: b.le24(24) + 1, height: b.le24(27) + 1)
        default: return nil
        }
    }

    private static func bmp(_ b: HeaderBytes) -> ImageHeader? {
        guard b.count >= 26, b.bytes[0] == 0x42, b.bytes[1] == 0x4D else { return nil }
        return ImageHeader(
            format: .bmp, width: abs(Int(Int32(truncatingIfNeeded: b.le32(18)))),
            height: abs(Int(Int32(truncatingIfNeeded: b.le32(22)))))
    }

    private static func tiff(_ b: HeaderBytes) -> ImageHeader? {
        guard b.count >= 8, b.bytes[0..<4] == [0x49, 0x49, 0x2A, 0x00] || b.bytes[0..<4] == [0x4D, 0x4D, 0x00, 0x2A] else {
            return nil
        }
        let little = b.bytes[0] == 0x49
        func u16(_ i: Int) -> Int { little ? b.le16(i) : b.be16(i) }
        func u32(_ i: Int) -> Int { little ? b.le32(i) : b.be32(i) }
        let ifd = u32(4)
        guard ifd + 2 <= b.count else { return nil }
        var width: Int?, height: Int?
        for entry in 0..<u16(ifd) {
            let at = ifd + 2 + entry * 12
            guard at + 12 <= b.count else { break }
            let tag = u16(at), type = u16(at + 2)
            let value = type == 3 ? u16(at + 8) : u32(at + 8)
            // A tag given twice is read by libtiff from its first entry, and might be read
            // from its last by another decoder: the limit holds whichever is read.
            if tag == 256 { width = max(width ?? 0, value) }
            if tag == 257 { height = max(height ?? 0, value) }
        }
        guard let width, let height else { return nil }
        return ImageHeader(format: .tiff, width: width, height: height)
    }

    /// width × height, or `Int.max` when the product overflows: headers are untrusted, and a
    /// 38-byte TIFF can claim 4294967295 × 4294967295 pixels.
    public var pixelCount: Int {
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? .max : product
    }

    /// A header of `format` claiming `width` × `height`.
    public init(format: ImageFormat, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }
}

/// Big- and little-endian integers at byte offsets of a header; callers check the length first.
private struct HeaderBytes {
    let bytes: [UInt8]
    var count: Int { bytes.count }

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func be16(_ i: Int) -> Int { Int(bytes[i]) << 8 | Int(bytes[i + 1]) }
    func be32(_ i: Int) -> Int { be16(i) << 16 | be16(i + 2) }
    func le16(_ i: Int) -> Int { Int(bytes[i]) | Int(bytes[i + 1]) << 8 }
    func le24(_ i: Int) -> Int { le16(i) | Int(bytes[i + 2]) << 16 }
    func le32(_ i: Int) -> Int { le16(i) | le16(i + 2) << 16 }
}
