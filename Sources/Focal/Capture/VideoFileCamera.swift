import Synchronization

/// A video file standing in for a camera: it offers one format (BGR at the video's size), delivers
/// the frames at the video's frame rate (or as fast as they decode), and starts over at the end,
/// as a camera never runs out. For samples, demos and pipelines developed away from a camera.
public final class VideoFileCamera: CameraDevice, @unchecked Sendable {
    /// The video file that stands in for a camera.
    public let path: String
    public var name: String { "video file " + (path.split(separator: "/").last.map(String.init) ?? path) }
    private let realTime: Bool
    private let format: CameraFormat
    private let framesPerSecond: Double
    private struct State {
        var reader: VideoReader?
        var sequence = 0
        var lastDelivery = 0.0
        var streaming = false
    }
    private let state: Mutex<State>

    /// - Parameters:
    ///   - path: the video file that stands in for the camera.
    ///   - realTime: deliver at the video's frame rate (true), or as fast as frames decode.
    public init(path: String, realTime: Bool = true) throws(FocalError) {
        let reader = try VideoReader(path: path, pixelFormat: .bgr8)
        self.path = path
        self.realTime = realTime
        format = CameraFormat(pixelFormat: .bgr24, width: reader.width, height: reader.height, bytesPerLine: reader.width * 3)
        framesPerSecond = reader.framesPerSecond > 0 ? reader.framesPerSecond : 30
        state = Mutex(State(reader: reader))
    }

    public func formats() throws(FocalError) -> [CameraFormat] { [format] }

    public func setFormat(_ wanted: CameraFormat) throws(FocalError) -> CameraFormat {
        guard wanted.pixelFormat == format.pixelFormat else {
            throw FocalError(
                .unsupportedFormat, operation: "set camera format \(wanted)", path: path,
                reason: "a video file stands in as a \(format) camera only")
        }
        return format
    }

    /// Starts delivering the video's frames.
    public func startStreaming(bufferCount: Int) throws(FocalError) { state.withLock { $0.streaming = true } }

    public func nextBuffer(timeout: Double) throws(FocalError) -> CameraBuffer? {
        if realTime {
            let due = state.withLock { $0.lastDelivery } + 1 / framesPerSecond
            guard MonotonicClock.wait(until: due, timeout: timeout) else { return nil }
        }
        return try state.withLock { (state) throws(FocalError) -> CameraBuffer? in
            guard state.streaming else {
                throw FocalError(.invalidArgument, operation: "read camera", path: path, reason: "the camera is not streaming")
            }
            var frame = try state.reader?.read()
            if frame == nil {
                state.reader = try VideoReader(path: path, pixelFormat: .bgr8)
                frame = try state.reader?.read()
            }
            guard let frame else {
                throw FocalError(.emptyInput, operation: "read camera", path: path, reason: "the video has no frames")
            }
            var bytes = [UInt8](repeating: 0, count: format.width * format.height * 3)
            let rowBytes = format.width * 3
            frame.withUnsafeBytes(plane: 0) { source in
                bytes.withUnsafeMutableBytes { destination in
                    for row in 0..<format.height {
                        destination.baseAddress!.advanced(by: row * rowBytes)
                            .copyMemory(from: source.baseAddress!.advanced(by: row * frame.bytesPerRow), byteCount: rowBytes)
                    }
                }
            }
            state.lastDelivery = MonotonicClock.now()
            state.sequence += 1
            return CameraBuffer(format: format, bytes: bytes, timestamp: state.lastDelivery, sequence: state.sequence - 1)
        }
    }

    /// Stops delivering frames.
    public func stopStreaming() { state.withLock { $0.streaming = false } }
    public func exposureRange() -> ClosedRange<Int>? { nil }
    /// A video has no exposure to set: always throws `.unavailable`.
    public func setExposure(_ value: Int) throws(FocalError) {
        throw FocalError(
            .unavailable, operation: "set camera exposure", path: path, reason: "a video file has no exposure control")
    }
}
