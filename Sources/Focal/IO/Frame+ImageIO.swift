import CFocal

extension Frame {
    /// Reads an image file in any ``ImageFormat``: JPEG, PNG, TIFF, WebP, BMP, Netpbm, JPEG 2000,
    /// OpenEXR, Radiance HDR or Sun raster.
    ///
    /// - Parameters:
    ///   - path: the image file.
    ///   - orientation: `.apply` (the default) turns photos upright as their EXIF
    ///     orientation says; `.preserve` keeps the stored pixels and reports the tag in ``orientation``.
    /// - Throws: ``FocalError`` naming the path: `.fileNotFound`, `.permissionDenied`, `.notAFile`,
    ///   `.emptyInput` for a zero-byte file, `.decodeFailed` for bytes that are not an image.
    public init(contentsOf path: String, orientation: OrientationHandling = .apply) throws(FocalError) {
        let bytes = try FileAccess.read(path, operation: "read image")
        do {
            try self.init(decoding: bytes, orientation: orientation)
        } catch {
            throw FocalError(error.kind, operation: "read image", path: path, reason: error.reason)
        }
    }

    /// The most pixels an image may claim to be decoded: OpenCV's own limit (2³⁰), checked on the
    /// header first so that a small file claiming more is refused by name, before any decoding.
    public static let maximumDecodedPixels = 1 << 30

    /// Holds every image this process decodes to at most `pixels`, checked by the decoder itself
    /// once it has read the image's header and before it allocates, whatever the header check in
    /// ``init(decoding:orientation:)`` read: a file whose header can be read two ways (a TIFF
    /// giving its width twice) is still held to the limit. A server that decodes untrusted images
    /// sets its limit here. OpenCV reads the limit once, as its image codecs load: call this
    /// before the process decodes or encodes its first image.
    /// - Returns: false when the codecs had loaded already; the limit they loaded with stays.
    @discardableResult
    public static func limitDecodedPixels(to pixels: Int) -> Bool {
        cfocal_image_limit_decoded_pixels(UInt64(max(1, pixels))) == CFOCAL_OK
    }

    /// Decodes an image held in memory, in any ``ImageFormat``.
    public init(decoding bytes: [UInt8], orientation: OrientationHandling = .apply) throws(FocalError) {
        if let header = ImageHeader(bytes: bytes), header.pixelCount > Frame.maximumDecodedPixels {
            throw FocalError(
                .invalidArgument, operation: "decode image",
                reason:
                    "its header says \(header.width)x\(header.height) pixels, more than the \(Frame.maximumDecodedPixels) Focal decodes"
            )
        }
        var buffer: OpaquePointer?
        let status = bytes.withUnsafeBufferPointer {
            cfocal_image_decode($0.baseAddress, $0.count, orientation == .apply ? 1 : 0, &buffer)
        }
        try check(status, "decode image")
        guard let buffer else { throw FocalError(.internal, operation: "decode image", reason: "no image returned") }
        self = Frame.adopting(shimBuffer: buffer)
        if orientation == .preserve { self.orientation = EXIFOrientation.read(bytes) ?? .up }
    }

    /// The image encoded in format. `quality` (0…1) applies to JPEG and WebP.
    public func encoded(as format: ImageFormat, quality: Double = 0.92) throws(FocalError) -> [UInt8] {
        var bytes: OpaquePointer?
        try withShimImage { (image) throws(FocalError) in
            try check(
                cfocal_image_encode(&image, format.fileExtension, Int32((quality * 100).rounded()), &bytes),
                "encode \(format.rawValue) image")
        }
        guard let bytes else { throw FocalError(.internal, operation: "encode image", reason: "no bytes returned") }
        defer { cfocal_bytes_free(bytes) }
        return Array(UnsafeBufferPointer(start: cfocal_bytes_data(bytes), count: cfocal_bytes_count(bytes)))
    }

    /// Writes the image in the format its extension names, through a temporary file renamed into
    /// place, so that a failure never leaves half an image at path.
    public func write(to path: String, quality: Double = 0.92) throws(FocalError) {
        guard let format = ImageFormat(path: path) else {
            throw FocalError(
                .unsupportedFormat, operation: "write image", path: path,
                reason: "unknown image extension; use \(ImageFormat.extensionsInWords)")
        }
        guard format.canWrite else {
            throw FocalError(
                .unsupportedFormat, operation: "write image", path: path,
                reason: "this build reads \(format.fileExtension) images but cannot write them")
        }
        try FileAccess.requireFolder(of: path, operation: "write image")
        let bytes: [UInt8]
        do {
            bytes = try encoded(as: format, quality: quality)
        } catch {
            throw FocalError(error.kind, operation: "write image", path: path, reason: error.reason)
        }
        try FileAccess.writeAtomically(bytes, to: path, operation: "write image")
    }
}
