import CFocal

/// Image file formats Focal reads and writes (through OpenCV's codecs).
public enum ImageFormat: String, Sendable, Codable, CaseIterable {
    case jpeg, png, tiff, webp, bmp

    /// The format a path's extension names, or nil for an extension Focal does not know.
    public init?(path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        switch path[path.index(after: dot)...].lowercased() {
        case "jpg", "jpeg": self = .jpeg
        case "png": self = .png
        case "tif", "tiff": self = .tiff
        case "webp": self = .webp
        case "bmp": self = .bmp
        default: return nil
        }
    }

    /// The file extension, with its dot, that OpenCV's encoder expects.
    var fileExtension: String {
        switch self {
        case .jpeg: ".jpg"
        case .png: ".png"
        case .tiff: ".tiff"
        case .webp: ".webp"
        case .bmp: ".bmp"
        }
    }

    /// Whether this build can write the format.
    public var canWrite: Bool { cfocal_image_can_encode(fileExtension) != 0 }
}

/// What to do with the EXIF orientation a photo carries.
public enum OrientationHandling: Sendable {
    /// Turn the pixels upright while decoding; the frame's ``Frame/orientation`` is `.up`.
    case apply
    /// Keep the pixels as stored and report the EXIF value in ``Frame/orientation``.
    case preserve
}
