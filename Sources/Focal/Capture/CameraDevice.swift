import CFocal

/// A camera's pixel format, by its V4L2 four-character code.
public struct CameraPixelFormat: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The format named by four ASCII characters ("YUYV", "MJPG").
    public init(_ code: String) {
        var value: UInt32 = 0
        for (i, byte) in code.utf8.prefix(4).enumerated() { value |= UInt32(byte) << (8 * UInt32(i)) }
        rawValue = value
    }

    /// 4:2:2 packed luma and chroma (`YUYV`), most webcams' uncompressed format.
    public static let yuyv = CameraPixelFormat("YUYV")
    /// 4:2:2 packed, chroma first (`UYVY`).
    public static let uyvy = CameraPixelFormat("UYVY")
    /// 4:2:0 with interleaved chroma (`NV12`).
    public static let nv12 = CameraPixelFormat("NV12")
    /// 4:2:0 planar (`YU12`).
    public static let yuv420 = CameraPixelFormat("YU12")
    /// 8-bit grey (`GREY`).
    public static let gray = CameraPixelFormat("GREY")
    /// Motion JPEG: each buffer a JPEG (`MJPG`).
    public static let mjpeg = CameraPixelFormat("MJPG")
    /// JPEG stills (`JPEG`).
    public static let jpeg = CameraPixelFormat("JPEG")
    /// Packed 8-bit BGR (`BGR3`).
    public static let bgr24 = CameraPixelFormat("BGR3")
    /// Packed 8-bit RGB (`RGB3`).
    public static let rgb24 = CameraPixelFormat("RGB3")

    /// Formats Focal converts to frames, in the order it prefers them (uncompressed first: no
    /// decoding cost, no compression artefacts).
    public static let supported: [CameraPixelFormat] = [.yuyv, .nv12, .yuv420, .uyvy, .bgr24, .rgb24, .mjpeg, .jpeg, .gray]

    public var description: String {
        String(decoding: (0..<4).map { UInt8((rawValue >> (8 * $0)) & 0xff) }, as: UTF8.self)
    }
}

/// A pixel format and size a camera delivers.
public struct CameraFormat: Hashable, Sendable, Codable, CustomStringConvertible {
    /// How the pixels are laid out.
    public var pixelFormat: CameraPixelFormat
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Bytes from one row to the next for uncompressed formats; 0 when packed tightly or compressed.
    public var bytesPerLine: Int

    /// A format of `pixelFormat` at `width` × `height`; `bytesPerLine` 0 lets the driver choose.
    public init(pixelFormat: CameraPixelFormat, width: Int, height: Int, bytesPerLine: Int = 0) {
        self.pixelFormat = pixelFormat
        self.width = width
        self.height = height
        self.bytesPerLine = bytesPerLine
    }

    public var description: String { "\(pixelFormat) \(width)x\(height)" }
}

/// Capture sizes by the names of AVCaptureSession's presets.
public enum CameraPreset: Sendable, Hashable, CaseIterable {
    /// 640 × 480.
    case vga640x480
    /// 1280 × 720.
    case hd1280x720
    /// 1920 × 1080.
    case hd1920x1080
    /// 3840 × 2160.
    case hd4K3840x2160

    /// The preset's width in pixels.
    public var width: Int {
        switch self {
        case .vga640x480: 640
        case .hd1280x720: 1280
        case .hd1920x1080: 1920
        case .hd4K3840x2160: 3840
        }
    }

    /// The preset's height in pixels.
    public var height: Int {
        switch self {
        case .vga640x480: 480
        case .hd1280x720: 720
        case .hd1920x1080: 1080
        case .hd4K3840x2160: 2160
        }
    }
}

/// One frame as the camera delivered it: the bytes, copied out of the driver's buffer.
public struct CameraBuffer: Sendable {
    /// The format the bytes are in.
    public var format: CameraFormat
    /// The buffer's bytes, copied out of the driver's memory.
    public var bytes: [UInt8]
    /// Seconds on the driver's clock.
    public var timestamp: Double
    /// The driver's frame counter; gaps mean the driver itself dropped frames.
    public var sequence: Int

    /// A buffer of `bytes` in `format`, captured at `timestamp` seconds, the driver's `sequence`-th.
    public init(format: CameraFormat, bytes: [UInt8], timestamp: Double, sequence: Int) {
        self.format = format
        self.bytes = bytes
        self.timestamp = timestamp
        self.sequence = sequence
    }

    /// The pixels as a BGR frame (YUYV, UYVY, NV12, YU12, GREY, MJPEG, BGR and RGB buffers).
    public func frame() throws(FocalError) -> Frame {
        var frame = try Frame(width: format.width, height: format.height, format: .bgr8)
        try bytes.withUnsafeBufferPointer { (raw) throws(FocalError) in
            try frame.withMutableShimImage { (image) throws(FocalError) in
                try check(
                    cfocal_camera_convert(
                        raw.baseAddress, raw.count, format.pixelFormat.rawValue, Int32(format.width), Int32(format.height),
                        Int32(format.bytesPerLine), &image), "convert a \(format.pixelFormat) camera frame")
            }
        }
        frame.timestamp = timestamp
        return frame
    }
}

/// The ioctl layer of a camera, behind a protocol so that the capture loop runs the same against
/// a real V4L2 device (``V4L2Camera``) and a scripted one (``ScriptedCamera``).
public protocol CameraDevice: AnyObject {
    /// The device's path, such as `/dev/video0`.
    var path: String { get }
    /// The driver's name for the camera.
    var name: String { get }
    /// Every pixel format and size the camera offers.
    func formats() throws(FocalError) -> [CameraFormat]
    /// Asks for a format; returns what the driver will deliver (possibly another size).
    func setFormat(_ format: CameraFormat) throws(FocalError) -> CameraFormat
    /// Starts capturing into `bufferCount` driver buffers.
    ///
    /// - Throws: `.deviceBusy` when another program holds the camera, `.permissionDenied`, or the driver's error.
    func startStreaming(bufferCount: Int) throws(FocalError)
    /// The next buffer, or nil if none came within `timeout` seconds. Throws
    /// `.deviceDisconnected` when the camera goes away.
    func nextBuffer(timeout: Double) throws(FocalError) -> CameraBuffer?
    /// Stops capturing; buffers not yet read are dropped.
    func stopStreaming()
    /// The manual exposure range (100 µs units), or nil if the camera has no exposure control.
    func exposureRange() -> ClosedRange<Int>?
    /// Sets a manual exposure, in the driver's units (100 µs for V4L2).
    ///
    /// - Throws: `.unavailable` for a camera without exposure control.
    func setExposure(_ value: Int) throws(FocalError)
}

extension CameraDevice {
    /// Chooses the best offered format for a size: the exact size in Focal's preferred pixel format,
    /// else the offered size nearest in area.
    public func bestFormat(width: Int, height: Int) throws(FocalError) -> CameraFormat {
        let offered = try formats().filter { CameraPixelFormat.supported.contains($0.pixelFormat) }
        guard !offered.isEmpty else {
            let all = (try? formats()) ?? []
            throw FocalError(
                .unsupportedFormat, operation: "choose a camera format", path: path,
                reason:
                    "the camera offers none of the formats Focal reads (it offers \(all.map(\.description).joined(separator: ", ")))"
            )
        }
        func rank(_ f: CameraFormat) -> (Int, Int) {
            (abs(f.width * f.height - width * height), CameraPixelFormat.supported.firstIndex(of: f.pixelFormat) ?? 99)
        }
        return offered.min { rank($0) < rank($1) }!
    }
}
