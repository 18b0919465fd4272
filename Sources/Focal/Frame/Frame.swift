import CFocal

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An image in memory: pixels, their layout, and where the image came from in time.
///
/// A `Frame` is a value. Copies share pixel memory until one of them is written, and then that one
/// copies (copy-on-write), so frames pass between tasks freely. Rows may be padded: read pixels
/// through ``bytesPerRow(plane:)``, never by assuming a row is `width` pixels long.
///
/// Coordinates are image pixels with the origin at the top-left, y growing downwards and pixel
/// centres at integers (OpenCV's convention; Core Image's origin is bottom-left).
public struct Frame: Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// How the pixels are stored.
    public let format: PixelFormat
    /// Seconds from the start of the stream, for frames from a video or camera.
    public var timestamp: Double?
    /// How the pixels are stored relative to how they should be shown. ``oriented()`` applies it.
    public var orientation: Orientation

    var planes: [PlaneLayout]
    var storage: PixelStorage

    init(
        width: Int, height: Int, format: PixelFormat, planes: [PlaneLayout], storage: PixelStorage,
        timestamp: Double? = nil, orientation: Orientation = .up
    ) {
        self.width = width
        self.height = height
        self.format = format
        self.planes = planes
        self.storage = storage
        self.timestamp = timestamp
        self.orientation = orientation
    }

    /// A frame whose pixels the caller overwrites at once (conversions, filters, decoders).
    init(uninitializedWidth width: Int, height: Int, format: PixelFormat) throws(FocalError) {
        guard width > 0, height > 0, width <= 1 << 15, height <= 1 << 15 else {
            throw FocalError(
                .invalidArgument, operation: "create frame", reason: "size \(width)x\(height) is outside 1…32768 pixels")
        }
        let storage = PixelStorage(format: format, width: width, height: height, zeroed: false)
        self.init(width: width, height: height, format: format, planes: storage.planes, storage: storage)
    }

    /// A frame of the given size filled with zeros (black for gray and BGR; for ``PixelFormat/yuv420``,
    /// use ``init(width:height:format:color:)`` to get black).
    public init(width: Int, height: Int, format: PixelFormat) throws(FocalError) {
        guard width > 0, height > 0, width <= 1 << 15, height <= 1 << 15 else {
            throw FocalError(
                .invalidArgument, operation: "create frame",
                reason: "size \(width)x\(height) is outside 1…32768 pixels")
        }
        let storage = PixelStorage(format: format, width: width, height: height)
        self.init(width: width, height: height, format: format, planes: storage.planes, storage: storage)
    }

    /// A frame of the given size filled with one colour.
    public init(width: Int, height: Int, format: PixelFormat, color: Color) throws(FocalError) {
        try self.init(width: width, height: height, format: format)
        try fill(color)
    }

    /// A frame copied from pixels in memory whose rows are `bytesPerRow` apart (which may exceed
    /// `width × bytesPerPixel`). For ``PixelFormat/yuv420``, pass the three planes one after another,
    /// each with its rows `bytesPerRow` (luma) or `bytesPerRow / 2` (chroma, rounded up) apart.
    public init(width: Int, height: Int, format: PixelFormat, bytesPerRow: Int, bytes: UnsafeRawBufferPointer) throws(FocalError)
    {
        try self.init(width: width, height: height, format: format)
        var offset = 0
        for (index, plane) in planes.enumerated() {
            let sourceStride = index == 0 ? bytesPerRow : (bytesPerRow + 1) / 2
            let rowBytes = plane.width * (index == 0 ? format.bytesPerPixel : 1)
            guard sourceStride >= rowBytes, offset + sourceStride * (plane.height - 1) + rowBytes <= bytes.count else {
                throw FocalError(
                    .invalidArgument, operation: "create frame",
                    reason: "\(bytes.count) bytes with rows \(bytesPerRow) apart cannot hold a \(width)x\(height) \(format) image"
                )
            }
            for row in 0..<plane.height {
                (plane.base + row * plane.bytesPerRow).copyMemory(
                    from: bytes.baseAddress! + offset + row * sourceStride, byteCount: rowBytes)
            }
            offset += sourceStride * plane.height
        }
    }

    /// The bytes from the start of one row of `plane` to the next.
    public func bytesPerRow(plane: Int = 0) -> Int { planes[plane].bytesPerRow }

    /// The bytes from one row of the first plane to the next.
    public var bytesPerRow: Int { planes[0].bytesPerRow }

    /// Calls body with plane `plane`'s bytes (`bytesPerRow(plane:) × rows`, the last row unpadded).
    public func withUnsafeBytes<R>(plane: Int = 0, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let layout = planes[plane]
        let count = layout.bytesPerRow * (layout.height - 1) + layout.width * (plane == 0 ? format.bytesPerPixel : 1)
        return try withExtendedLifetime(storage) { try body(UnsafeRawBufferPointer(start: layout.base, count: count)) }
    }

    /// Calls body with plane `plane`'s bytes to change them, copying the pixels first if they are shared.
    public mutating func withUnsafeMutableBytes<R>(plane: Int = 0, _ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows
        -> R
    {
        makeUnique()
        let layout = planes[plane]
        let count = layout.bytesPerRow * (layout.height - 1) + layout.width * (plane == 0 ? format.bytesPerPixel : 1)
        return try withExtendedLifetime(storage) { try body(UnsafeMutableRawBufferPointer(start: layout.base, count: count)) }
    }

    /// The channel values of the pixel at (x, y): one for gray, three (B, G, R) or four (B, G, R, A);
    /// for ``PixelFormat/yuv420``, its Y, Cb and Cr samples.
    public func pixel(x: Int, y: Int) -> [UInt8] {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)x\(height)")
        return withExtendedLifetime(storage) {
            if format == .yuv420 {
                return [
                    planes[0].base.load(fromByteOffset: y * planes[0].bytesPerRow + x, as: UInt8.self),
                    planes[1].base.load(fromByteOffset: (y / 2) * planes[1].bytesPerRow + x / 2, as: UInt8.self),
                    planes[2].base.load(fromByteOffset: (y / 2) * planes[2].bytesPerRow + x / 2, as: UInt8.self),
                ]
            }
            let start = y * planes[0].bytesPerRow + x * format.bytesPerPixel
            return (0..<format.bytesPerPixel).map { planes[0].base.load(fromByteOffset: start + $0, as: UInt8.self) }
        }
    }

    /// A gray view of this frame without copying: the frame itself if gray, the luma plane of a
    /// ``PixelFormat/yuv420`` frame as stored (video range, 16…235: fine for measuring sharpness or
    /// finding edges, where scale does not matter); nil for BGR formats (use ``converted(to:)``).
    public var lumaPlane: Frame? {
        switch format {
        case .gray8: return self
        case .yuv420:
            return Frame(
                width: width, height: height, format: .gray8, planes: [planes[0]], storage: storage,
                timestamp: timestamp, orientation: orientation)
        default: return nil
        }
    }

    mutating func makeUnique() {
        if isKnownUniquelyReferenced(&storage), storage.isSwiftOwned, storage.planes.count == planes.count { return }
        let copy = PixelStorage(format: format, width: width, height: height, zeroed: false)
        copyPixels(into: copy)
        storage = copy
        planes = copy.planes
    }

    /// This frame's pixels in `target`, which must have been allocated for its format and size.
    func copyPixels(into target: PixelStorage) {
        withExtendedLifetime(storage) {
            for (index, (source, destination)) in zip(planes, target.planes).enumerated() {
                let rowBytes = source.width * (index == 0 ? format.bytesPerPixel : 1)
                for row in 0..<source.height {
                    (destination.base + row * destination.bytesPerRow).copyMemory(
                        from: source.base + row * source.bytesPerRow, byteCount: rowBytes)
                }
            }
        }
    }

    /// The shim's view of these pixels, valid inside body.
    func withShimImage<R, E: Error>(_ body: (inout cfocal_image) throws(E) -> R) throws(E) -> R {
        var image = cfocal_image()
        image.width = Int32(width)
        image.height = Int32(height)
        image.format = format.shim
        let p = planes
        image.planes = (
            p[0].base.assumingMemoryBound(to: UInt8.self),
            p.count > 1 ? p[1].base.assumingMemoryBound(to: UInt8.self) : nil,
            p.count > 2 ? p[2].base.assumingMemoryBound(to: UInt8.self) : nil
        )
        image.row_bytes = (p[0].bytesPerRow, p.count > 1 ? p[1].bytesPerRow : 0, p.count > 2 ? p[2].bytesPerRow : 0)
        defer { withExtendedLifetime(storage) {} }
        return try body(&image)
    }

    /// The shim's view for writing, after making the pixels unique.
    mutating func withMutableShimImage<R, E: Error>(_ body: (inout cfocal_image) throws(E) -> R) throws(E) -> R {
        makeUnique()
        return try withShimImage(body)
    }

    /// A frame taking ownership of a buffer the shim allocated.
    static func adopting(shimBuffer: OpaquePointer, timestamp: Double? = nil, orientation: Orientation = .up) -> Frame {
        let storage = PixelStorage(shimBuffer: shimBuffer)
        let view = cfocal_buffer_view(shimBuffer)
        return Frame(
            width: Int(view.width), height: Int(view.height), format: PixelFormat(shim: view.format) ?? .gray8,
            planes: storage.planes, storage: storage, timestamp: timestamp, orientation: orientation)
    }
}

extension Frame: Equatable {
    /// Frames are equal when their size, format, orientation, timestamp and visible pixels are
    /// (row padding is ignored).
    public static func == (a: Frame, b: Frame) -> Bool {
        guard a.width == b.width, a.height == b.height, a.format == b.format, a.orientation == b.orientation,
            a.timestamp == b.timestamp
        else { return false }
        return withExtendedLifetime((a.storage, b.storage)) {
            for (index, (p, q)) in zip(a.planes, b.planes).enumerated() {
                let rowBytes = p.width * (index == 0 ? a.format.bytesPerPixel : 1)
                for row in 0..<p.height where memcmp(p.base + row * p.bytesPerRow, q.base + row * q.bytesPerRow, rowBytes) != 0 {
                    return false
                }
            }
            return true
        }
    }
}

extension Frame: CustomStringConvertible {
    public var description: String {
        "Frame(\(width)x\(height) \(format)\(timestamp.map { " at \(decimal($0, places: 3))s" } ?? ""))"
    }
}
