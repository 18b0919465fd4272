/// One frame of a burst: the buffer as the camera delivered it, the frame after the source's
/// pipeline, the exposure it was taken at (in a bracket), and its sharpness.
public struct BurstShot: Sendable {
    /// Position in the burst, in capture order.
    public var index: Int
    /// The camera's buffer as it came, for a RAW file.
    public var buffer: CameraBuffer
    /// The buffer decoded into a frame.
    public var frame: Frame
    /// The manual exposure (100 µs units) set for this shot, in a bracketed burst.
    public var exposure: Int?
    /// The shot's sharpness, by which the burst is ranked.
    public var sharpness: SharpnessScore
}

extension CameraSource {
    /// Captures `count` frames in a row, or one frame at each of `exposures` where the camera has
    /// manual exposure (`V4L2_CID_EXPOSURE_ABSOLUTE`), and returns them sharpest first. After each
    /// exposure change `settleFrames` frames are skipped, since cameras apply controls a frame or two
    /// late. The source must be started.
    ///
    /// - Throws: `.unavailable` when `exposures` is given and the camera has no exposure control.
    public func captureBurst(
        count: Int = 8, exposures: [Int]? = nil, settleFrames: Int = 2, sharpness: SharpnessOptions = .noiseResistant
    ) throws(FocalError) -> [BurstShot] {
        if exposures != nil, device.exposureRange() == nil {
            throw FocalError(
                .unavailable, operation: "capture an exposure bracket", path: device.path,
                reason: "the camera has no manual exposure control")
        }
        let settings: [Int?] = exposures.map { $0.map(Optional.some) } ?? Array(repeating: nil, count: count)
        guard !settings.isEmpty else {
            throw FocalError(.invalidArgument, operation: "capture a burst", reason: "a burst needs at least one frame")
        }
        var shots: [BurstShot] = []
        for (index, exposure) in settings.enumerated() {
            if let exposure {
                try device.setExposure(exposure)
                for _ in 0..<settleFrames { _ = try nextBuffer() }
            }
            guard let buffer = try nextBuffer() else {
                throw FocalError(
                    .ioFailed, operation: "capture a burst", path: device.path, reason: "the camera stopped mid-burst")
            }
            let frame = try pipeline.apply(to: buffer.frame())
            shots.append(
                BurstShot(
                    index: index, buffer: buffer, frame: frame, exposure: exposure,
                    sharpness: try Sharpness.measure(frame, options: sharpness)))
        }
        return shots.sorted { $0.sharpness > $1.sharpness }
    }
}
