import CFocal

/// How a ``Frame`` lays out its pixels.
public enum PixelFormat: String, Sendable, Codable, CaseIterable {
    /// One byte of luminance per pixel.
    case gray8
    /// Blue, green, red: three bytes per pixel, OpenCV's order.
    case bgr8
    /// Blue, green, red, alpha: four bytes per pixel.
    case bgra8
    /// Planar Y'CbCr 4:2:0 (I420): a full-size luma plane, then half-width, half-height Cb and Cr
    /// planes, BT.601 video range (luma 16…235). What H.264 decoders produce. Its luma plane
    /// (``Frame/lumaPlane``) serves as a gray image without a copy, as in Apple's sharpest-image
    /// sample; ``Frame/converted(to:)`` to `.gray8` also stretches it to 0…255.
    case yuv420

    /// The number of planes.
    public var planeCount: Int { self == .yuv420 ? 3 : 1 }

    /// Bytes per pixel in the first plane.
    public var bytesPerPixel: Int {
        switch self {
        case .gray8, .yuv420: 1
        case .bgr8: 3
        case .bgra8: 4
        }
    }

    /// The width and height of plane `index` of an image of the given size.
    public func planeSize(_ index: Int, width: Int, height: Int) -> (width: Int, height: Int) {
        index == 0 ? (width, height) : ((width + 1) / 2, (height + 1) / 2)
    }

    var shim: Int32 {
        switch self {
        case .gray8: Int32(CFOCAL_GRAY8.rawValue)
        case .bgr8: Int32(CFOCAL_BGR8.rawValue)
        case .bgra8: Int32(CFOCAL_BGRA8.rawValue)
        case .yuv420: Int32(CFOCAL_YUV420P.rawValue)
        }
    }

    init?(shim value: Int32) {
        guard let format = PixelFormat.allCases.first(where: { $0.shim == value }) else { return nil }
        self = format
    }
}
