import Dispatch
import Synchronization

/// Frames from a camera as they happen. A capture loop reads the device on its own thread and
/// keeps only the newest frame, as `alwaysDiscardsLateVideoFrames` does: a slow consumer sees the
/// latest picture, never a backlog, and memory stays at one frame whatever its speed. Frames the
/// consumer never saw are counted in ``droppedFrameCount``.
///
/// ```swift
/// let camera = try CameraSource(device: "/dev/video0", preset: .hd1280x720)
/// try camera.start()
/// for try await frame in camera.frames() { … }
/// ```
public final class CameraSource: FrameSource, @unchecked Sendable {
    /// The camera frames come from.
    public let device: any CameraDevice
    /// The format the camera agreed to deliver.
    public let format: CameraFormat
    /// What is done to each frame before it is handed out.
    public let pipeline: FramePipeline
    /// The width of the frames handed out, after the pipeline.
    public var width: Int { pipeline.outputSize(width: format.width, height: format.height).width }
    /// The height of the frames handed out, after the pipeline.
    public var height: Int { pipeline.outputSize(width: format.width, height: format.height).height }
    /// Cameras do not tell reliably; Focal assumes 30 until frames arrive (see ``measuredFramesPerSecond``).
    public var framesPerSecond: Double { measuredFramesPerSecond ?? 30 }
    public var frameCount: Int? { nil }

    private struct State {
        var newest: CameraBuffer?
        var failure: FocalError?
        var running = false
        var stopped = false
        var captured = 0
        var dropped = 0
        var firstTimestamp: Double?
        var lastTimestamp: Double?
    }
    private let state = Mutex(State())
    private let available = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let bufferCount: Int

    /// Opens a V4L2 camera and negotiates the preset's size in the best format it offers.
    public convenience init(
        device path: String, preset: CameraPreset = .hd1280x720, pixelFormat: CameraPixelFormat? = nil,
        pipeline: FramePipeline = FramePipeline()
    ) throws(FocalError) {
        try self.init(device: V4L2Camera(path: path), preset: preset, pixelFormat: pixelFormat, pipeline: pipeline)
    }

    /// Negotiates a format with `device`: the preset's size (or the nearest offered), in
    /// `pixelFormat` if given, else in the best format the camera offers for that size.
    public init(
        device: any CameraDevice, preset: CameraPreset = .hd1280x720, pixelFormat: CameraPixelFormat? = nil,
        pipeline: FramePipeline = FramePipeline(), bufferCount: Int = 4
    ) throws(FocalError) {
        self.device = device
        self.pipeline = pipeline
        self.bufferCount = bufferCount
        var wanted = try device.bestFormat(width: preset.width, height: preset.height)
        if let pixelFormat {
            guard try device.formats().contains(where: { $0.pixelFormat == pixelFormat }) else {
                throw FocalError(
                    .unsupportedFormat, operation: "choose a camera format", path: device.path,
                    reason: "the camera does not offer \(pixelFormat)")
            }
            wanted = CameraFormat(pixelFormat: pixelFormat, width: preset.width, height: preset.height)
        }
        format = try device.setFormat(wanted)
    }

    deinit { stop() }

    /// Starts streaming and the capture loop.
    public func start() throws(FocalError) {
        if state.withLock({ $0.running || $0.stopped }) { return }
        try device.startStreaming(bufferCount: bufferCount)
        state.withLock { $0.running = true }
        let loop = DispatchQueue(label: "focal.camera.capture")
        loop.async { [self] in captureLoop() }
    }

    private func captureLoop() {
        defer { finished.signal() }
        while state.withLock({ !$0.stopped }) {
            do {
                guard let buffer = try device.nextBuffer(timeout: 0.1) else { continue }
                let wasEmpty = state.withLock { state -> Bool in
                    let empty = state.newest == nil
                    if !empty { state.dropped += 1 }
                    state.newest = buffer
                    state.captured += 1
                    if state.firstTimestamp == nil { state.firstTimestamp = buffer.timestamp }
                    state.lastTimestamp = buffer.timestamp
                    return empty
                }
                if wasEmpty { available.signal() }
            } catch {
                state.withLock { $0.failure = error }
                available.signal()
                return
            }
        }
        available.signal()
    }

    /// The newest raw buffer, waiting for one if none has arrived since the last call; nil once
    /// stopped. Throws the device's failure (`.deviceDisconnected`, say) once the frames before it
    /// are taken.
    public func nextBuffer() throws(FocalError) -> CameraBuffer? {
        while true {
            available.wait()
            let (buffer, failure, stopped) = state.withLock { state in
                defer { state.newest = nil }
                return (state.newest, state.failure, state.stopped)
            }
            if let buffer { return buffer }
            if let failure {
                available.signal()  // later calls fail too, without waiting
                throw failure
            }
            if stopped {
                available.signal()
                return nil
            }
        }
    }

    /// The newest frame, through the pipeline.
    public func nextFrame() throws(FocalError) -> Frame? {
        guard let buffer = try nextBuffer() else { return nil }
        return try pipeline.apply(to: buffer.frame())
    }

    /// Frames captured by the loop, and of those, how many were replaced by a newer one before the
    /// consumer took them.
    public var capturedFrameCount: Int { state.withLock { $0.captured } }
    /// Frames dropped so far because a newer one arrived before they were read.
    public var droppedFrameCount: Int { state.withLock { $0.dropped } }

    /// The rate frames have arrived at, once two have.
    public var measuredFramesPerSecond: Double? {
        state.withLock { state in
            guard let first = state.firstTimestamp, let last = state.lastTimestamp, state.captured > 1, last > first else {
                return nil
            }
            return Double(state.captured - 1) / (last - first)
        }
    }

    /// Stops the loop and the stream; waiting consumers get nil. Safe to call more than once.
    public func stop() {
        let wasRunning = state.withLock { state -> Bool in
            defer {
                state.stopped = true
                state.running = false
            }
            return state.running && !state.stopped
        }
        guard wasRunning else { return }
        finished.wait()
        device.stopStreaming()
        available.signal()
    }

    /// The frames as an async sequence; ends when the source stops, and throws the device's failure.
    public func frames() -> AsyncThrowingStream<Frame, any Error> {
        AsyncThrowingStream { continuation in
            let reader = DispatchQueue(label: "focal.camera.frames")
            reader.async { [self] in
                do {
                    while let frame = try nextFrame() { continuation.yield(frame) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { [self] _ in stop() }
        }
    }

    /// Calls handler with each frame on `queue`, one at a time: while the handler runs, newer frames
    /// replace each other and only the newest is delivered next. Ends with a nil frame when the
    /// source stops, or with the device's failure.
    public func deliver(on queue: DispatchQueue, _ handler: @escaping @Sendable (Result<Frame?, FocalError>) -> Void) {
        DispatchQueue(label: "focal.camera.deliver").async { [self] in
            while true {
                let result: Result<Frame?, FocalError>
                do throws(FocalError) {
                    result = .success(try nextFrame())
                } catch {
                    result = .failure(error)
                }
                queue.sync { handler(result) }
                if case .success(let frame) = result, frame != nil { continue }
                return
            }
        }
    }
}
