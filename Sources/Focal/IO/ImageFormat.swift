import CFocal

/// Image file formats Focal reads and writes (through OpenCV's codecs): every format Debian's
/// OpenCV reads, so that a file of any of them is an image to every command, never a video.
public enum ImageFormat: String, Sendable, Codable, CaseIterable {
    /// JPEG (`.jpg`, `.jpeg`).
    case jpeg
    /// PNG.
    case png
    /// TIFF (`.tif`, `.tiff`).
    case tiff
    /// WebP.
    case webp
    /// Windows bitmap.
    case bmp
    /// Netpbm's portable bitmap, greymap, pixmap and arbitrary map (.pbm, .pgm, .ppm, .pnm, .pam).
    case portableAnymap
    /// JPEG 2000 (.jp2), through OpenJPEG.
    case jpeg2000
    /// OpenEXR (.exr): high dynamic range, read as 8 bits; read only (OpenCV writes EXR from
    /// float pixels only, and frames hold 8 bits).
    case openEXR
    /// Radiance HDR (.hdr, .pic): high dynamic range, read as 8 bits.
    case radianceHDR
    /// Sun raster (.ras, .sr).
    case sunRaster

    /// The format a path's extension names, or nil for an extension Focal does not know.
    public init?(path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        switch path[path.index(after: dot)...].lowercased() {
        case "jpg", "jpeg": self = .jpeg
        case "png": self = .png
        case "tif", "tiff": self = .tiff
        case "webp": self = .webp
        case "bmp": self = .bmp
        case "pbm", "pgm", "ppm", "pnm", "pam": self = .portableAnymap
        case "jp2": self = .jpeg2000
        case "exr": self = .openEXR
        case "hdr", "pic": self = .radianceHDR
        case "ras", "sr": self = .sunRaster
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
        // OpenCV's .pnm writes a greymap (P5) for one channel and a pixmap (P6) for three.
        case .portableAnymap: ".pnm"
        case .jpeg2000: ".jp2"
        case .openEXR: ".exr"
        case .radianceHDR: ".hdr"
        case .sunRaster: ".ras"
        }
    }

    /// The extensions a path may end in for images, as a sentence's list.
    static let extensionsInWords = ".jpg, .png, .tiff, .webp, .bmp, .pgm/.ppm/.pbm/.pnm, .jp2, .exr, .hdr or .ras"

    /// Whether this build can write the format (OpenEXR never: see ``openEXR``).
    public var canWrite: Bool { self != .openEXR && cfocal_image_can_encode(fileExtension) != 0 }
}

/// What to do with the EXIF orientation a photo carries.
public enum OrientationHandling: Sendable {
    /// Turn the pixels upright while decoding; the frame's ``Frame/orientation`` is `.up`.
    case apply
    /// Keep the pixels as stored and report the EXIF value in ``Frame/orientation``.
    case preserve
}
