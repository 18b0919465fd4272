import Synchronization

/// A camera that plays a script: the formats it offers, the frames it delivers at a set pace, and
/// the failures it raises (busy on start, disconnected after N frames). Capture code runs against
/// it exactly as against a ``V4L2Camera``, so it can be tested on machines without a camera.
public final class ScriptedCamera: CameraDevice, @unchecked Sendable {
    /// Renders frame `index` in `format` at the current exposure (nil if never set).
    public typealias Render = @Sendable (_ format: CameraFormat, _ index: Int, _ exposure: Int?) -> [UInt8]

    /// The device path the camera reports.
    public let path: String
    public let name: String
    private let offered: [CameraFormat]
    private let render: Render
    private let frameInterval: Double
    private let disconnectAfter: Int?
    private let startFailure: FocalError?
    private let exposureLimits: ClosedRange<Int>?

    private struct State {
        var format: CameraFormat?
        var streaming = false
        var delivered = 0
        var lastDelivery = 0.0
        var exposure: Int?
        var exposuresSet: [Int] = []
    }
    private let state = Mutex(State())

    /// - Parameters:
    ///   - path: the device path the camera reports, as a V4L2 camera's `/dev/videoN`.
    ///   - name: the name the camera reports.
    ///   - formats: what the camera offers; a request for another size gets the nearest offered one
    ///     (as drivers do), a request for another pixel format fails.
    ///   - frameInterval: seconds between frames (1/30 for a 30 fps camera); 0 delivers at once.
    ///   - disconnectAfter: the camera goes away after delivering this many frames.
    ///   - startFailure: thrown by `startStreaming` (a busy device, say).
    ///   - exposureRange: the manual exposure range, or nil for a camera without exposure control.
    ///   - render: draws each frame the camera delivers.
    public init(
        path: String = "/dev/scripted0", name: String = "Scripted camera", formats: [CameraFormat], frameInterval: Double = 0,
        disconnectAfter: Int? = nil, startFailure: FocalError? = nil, exposureRange: ClosedRange<Int>? = nil,
        render: @escaping Render
    ) {
        self.path = path
        self.name = name
        offered = formats
        self.frameInterval = frameInterval
        self.disconnectAfter = disconnectAfter
        self.startFailure = startFailure
        exposureLimits = exposureRange
        self.render = render
    }

    /// Frames delivered so far.
    public var deliveredCount: Int { state.withLock { $0.delivered } }
    /// Every exposure value set, in order.
    public var exposuresSet: [Int] { state.withLock { $0.exposuresSet } }

    public func formats() throws(FocalError) -> [CameraFormat] { offered }

    public func setFormat(_ wanted: CameraFormat) throws(FocalError) -> CameraFormat {
        let sameFormat = offered.filter { $0.pixelFormat == wanted.pixelFormat }
        guard
            let nearest = sameFormat.min(by: {
                abs($0.width * $0.height - wanted.width * wanted.height)
                    < abs($1.width * $1.height - wanted.width * wanted.height)
            })
        else {
            throw FocalError(
                .unsupportedFormat, operation: "set camera format \(wanted)", path: path,
                reason: "the camera does not offer \(wanted.pixelFormat)")
        }
        state.withLock { $0.format = nearest }
        return nearest
    }

    /// Starts delivering frames (or throws the start failure it was given).
    public func startStreaming(bufferCount: Int) throws(FocalError) {
        if let startFailure { throw startFailure }
        try state.withLock { (state) throws(FocalError) in
            guard state.format != nil else {
                throw FocalError(.invalidArgument, operation: "start camera", path: path, reason: "set a format first")
            }
            state.streaming = true
        }
    }

    public func nextBuffer(timeout: Double) throws(FocalError) -> CameraBuffer? {
        let (format, index, exposure, due) = try state.withLock {
            (state) throws(FocalError) -> (CameraFormat, Int, Int?, Double) in
            guard state.streaming, let format = state.format else {
                throw FocalError(.invalidArgument, operation: "read camera", path: path, reason: "the camera is not streaming")
            }
            if let disconnectAfter, state.delivered >= disconnectAfter {
                throw FocalError(.deviceDisconnected, operation: "read camera", path: path, reason: "the camera was disconnected")
            }
            return (format, state.delivered, state.exposure, state.lastDelivery + frameInterval)
        }
        guard MonotonicClock.wait(until: due, timeout: timeout) else { return nil }
        let bytes = render(format, index, exposure)
        let timestamp = MonotonicClock.now()
        state.withLock {
            $0.delivered += 1
            $0.lastDelivery = timestamp
        }
        return CameraBuffer(format: format, bytes: bytes, timestamp: timestamp, sequence: index)
    }

    /// Stops delivering frames.
    public func stopStreaming() { state.withLock { $0.streaming = false } }

    public func exposureRange() -> ClosedRange<Int>? { exposureLimits }

    /// Records the exposure, within the range it was given.
    public func setExposure(_ value: Int) throws(FocalError) {
        guard let exposureLimits else {
            throw FocalError(
                .unavailable, operation: "set camera exposure", path: path, reason: "the camera has no exposure control")
        }
        let clamped = min(max(value, exposureLimits.lowerBound), exposureLimits.upperBound)
        state.withLock {
            $0.exposure = clamped
            $0.exposuresSet.append(clamped)
        }
    }
}
