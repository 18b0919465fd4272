import CFocal

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A V4L2 camera (`/dev/videoN`) through libv4l2, which also converts exotic camera formats into
/// common ones. Owns the device: closing happens when it is released.
public final class V4L2Camera: CameraDevice {
    /// The device's path, such as `/dev/video0`.
    public let path: String
    public let name: String
    private let handle: OpaquePointer
    private var streaming: CameraFormat?
    private var format: CameraFormat?

    /// Opens the V4L2 device at `path` and reads the formats it offers.
    ///
    /// - Throws: `.fileNotFound`, `.permissionDenied`, `.deviceBusy`, or `.unsupportedFormat` for a device that does not capture video.
    public init(path: String) throws(FocalError) {
        var camera: OpaquePointer?
        let status = cfocal_camera_open(path, &camera)
        guard status == CFOCAL_OK, let camera else { throw Self.error(status, operation: "open camera", path: path) }
        handle = camera
        self.path = path
        var buffer = [CChar](repeating: 0, count: 64)
        name =
            cfocal_camera_name(camera, &buffer, Int32(buffer.count)) == CFOCAL_OK
            ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : path
    }

    deinit { cfocal_camera_close(handle) }

    /// Capture devices present, with their names: every /dev/videoN that opens as a camera.
    public static func devices() -> [(path: String, name: String)] {
        var found: [(String, String)] = []
        for index in 0..<64 {
            let path = "/dev/video\(index)"
            guard FileAccess.exists(path), let camera = try? V4L2Camera(path: path) else { continue }
            found.append((path, camera.name))
        }
        return found
    }

    public func formats() throws(FocalError) -> [CameraFormat] {
        var list = [cfocal_camera_format](repeating: cfocal_camera_format(), count: 256)
        var count: Int32 = 0
        let status = cfocal_camera_formats(handle, &list, Int32(list.count), &count)
        guard status == CFOCAL_OK else { throw Self.error(status, operation: "list camera formats", path: path) }
        return list.prefix(Int(count)).map {
            CameraFormat(pixelFormat: CameraPixelFormat(rawValue: $0.fourcc), width: Int($0.width), height: Int($0.height))
        }
    }

    public func setFormat(_ wanted: CameraFormat) throws(FocalError) -> CameraFormat {
        var request = cfocal_camera_format(
            fourcc: wanted.pixelFormat.rawValue, width: Int32(wanted.width), height: Int32(wanted.height), bytes_per_line: 0,
            emulated: 0)
        var answer = cfocal_camera_format()
        let status = cfocal_camera_set_format(handle, &request, &answer)
        guard status == CFOCAL_OK else { throw Self.error(status, operation: "set camera format \(wanted)", path: path) }
        let negotiated = CameraFormat(
            pixelFormat: CameraPixelFormat(rawValue: answer.fourcc), width: Int(answer.width), height: Int(answer.height),
            bytesPerLine: Int(answer.bytes_per_line))
        guard negotiated.pixelFormat == wanted.pixelFormat else {
            throw FocalError(
                .unsupportedFormat, operation: "set camera format \(wanted)", path: path,
                reason: "the camera does not offer \(wanted.pixelFormat) (it answered \(negotiated.pixelFormat))")
        }
        format = negotiated
        return negotiated
    }

    /// Maps `bufferCount` driver buffers and starts streaming into them.
    public func startStreaming(bufferCount: Int) throws(FocalError) {
        guard let format else {
            throw FocalError(.invalidArgument, operation: "start camera", path: path, reason: "set a format first")
        }
        let status = cfocal_camera_start(handle, Int32(bufferCount))
        guard status == CFOCAL_OK else { throw Self.error(status, operation: "start camera", path: path) }
        streaming = format
    }

    public func nextBuffer(timeout: Double) throws(FocalError) -> CameraBuffer? {
        guard let format = streaming else {
            throw FocalError(.invalidArgument, operation: "read camera", path: path, reason: "the camera is not streaming")
        }
        var buffer = cfocal_camera_buffer()
        let status = cfocal_camera_next(handle, Int32(max(0, timeout * 1000)), &buffer)
        if status == CFOCAL_END_OF_STREAM { return nil }
        guard status == CFOCAL_OK, let data = buffer.data else { throw Self.error(status, operation: "read camera", path: path) }
        let bytes = Array(UnsafeBufferPointer(start: data, count: buffer.count))
        _ = cfocal_camera_release(handle, buffer.index)
        return CameraBuffer(format: format, bytes: bytes, timestamp: buffer.timestamp, sequence: Int(buffer.sequence))
    }

    /// Stops streaming and unmaps the buffers.
    public func stopStreaming() {
        _ = cfocal_camera_stop(handle)
        streaming = nil
    }

    public func exposureRange() -> ClosedRange<Int>? {
        var low: Int32 = 0, high: Int32 = 0, supported: Int32 = 0
        guard cfocal_camera_exposure_range(handle, &low, &high, &supported) == CFOCAL_OK, supported != 0, low <= high else {
            return nil
        }
        return Int(low)...Int(high)
    }

    /// Switches to manual exposure and sets it, in 100 µs units.
    public func setExposure(_ value: Int) throws(FocalError) {
        let status = cfocal_camera_set_exposure(handle, Int32(value))
        guard status == CFOCAL_OK else { throw Self.error(status, operation: "set camera exposure", path: path) }
    }

    /// The shim's status and the system's errno as a FocalError of the right kind.
    static func error(_ status: cfocal_status, operation: String, path: String) -> FocalError {
        switch cfocal_last_os_error() {
        case ENOENT, ENXIO: return FocalError(.fileNotFound, operation: operation, path: path, reason: "no such device")
        case EACCES, EPERM:
            return FocalError(
                .permissionDenied, operation: operation, path: path,
                reason: "permission denied (add the user to the 'video' group)")
        case EBUSY:
            return FocalError(.deviceBusy, operation: operation, path: path, reason: "the camera is in use by another program")
        case ENODEV, EIO:
            return FocalError(.deviceDisconnected, operation: operation, path: path, reason: "the camera was disconnected")
        default: return shimError(status, operation, path: path)
        }
    }
}
