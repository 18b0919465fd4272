/// How an image is stored relative to how it should be shown: the eight EXIF orientations, with
/// the names of `CGImagePropertyOrientation`.
public enum Orientation: Int, Sendable, Codable, CaseIterable {
    /// Stored as shown (EXIF 1).
    case up = 1
    /// Mirrored left to right (EXIF 2).
    case upMirrored = 2
    /// Rotated 180° (EXIF 3).
    case down = 3
    /// Mirrored top to bottom (EXIF 4).
    case downMirrored = 4
    /// Mirrored along the top-left to bottom-right diagonal (EXIF 5).
    case leftMirrored = 5
    /// Shown after a 90° clockwise turn (EXIF 6): how phones store portrait photos.
    case right = 6
    /// Mirrored along the top-right to bottom-left diagonal (EXIF 7).
    case rightMirrored = 7
    /// Shown after a 90° counter-clockwise turn (EXIF 8).
    case left = 8

    /// Whether showing the image swaps its width and height.
    public var swapsDimensions: Bool { rawValue >= 5 }

    /// The EXIF value, 1…8.
    public var exifValue: Int { rawValue }

    /// The orientation for an EXIF value, or nil outside 1…8.
    public init?(exifValue: Int) { self.init(rawValue: exifValue) }
}
