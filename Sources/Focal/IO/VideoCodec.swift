import CFocal

/// Video codecs ``VideoWriter`` can encode, each by the libav encoder that does it.
public enum VideoCodec: String, Sendable, Codable, CaseIterable {
    /// H.264 through libx264: the default, plays everywhere. Use .mp4, .mov or .mkv.
    case h264
    /// H.265 through libx265, where the build has it.
    case hevc
    /// MPEG-4 part 2: fast, larger files. .mp4, .avi, .mkv.
    case mpeg4
    /// Motion JPEG: every frame a JPEG. .avi, .mkv.
    case mjpeg
    /// FFV1: lossless. .mkv.
    case ffv1
    /// VP8 through libvpx. .webm, .mkv.
    case vp8
    /// VP9 through libvpx. .webm, .mkv, .mp4.
    case vp9

    var encoderName: String {
        switch self {
        case .h264: "libx264"
        case .hevc: "libx265"
        case .mpeg4: "mpeg4"
        case .mjpeg: "mjpeg"
        case .ffv1: "ffv1"
        case .vp8: "libvpx"
        case .vp9: "libvpx-vp9"
        }
    }

    /// Whether this build can write this codec into a file with path's extension.
    public func isAvailable(forPath path: String) -> Bool {
        cfocal_video_encoder_available(encoderName, path) != 0
    }
}

/// x264/x265 speed presets: each step faster encodes quicker and makes bigger files at the same quality.
public enum EncoderPreset: String, Sendable, Codable, CaseIterable {
    /// The fastest, largest files.
    case ultrafast
    /// Very fast.
    case superfast
    /// Fast, and Focal's default: a good balance for live overlays.
    case veryfast
    /// Faster than `fast`.
    case faster
    /// Fast.
    case fast
    /// x264's default.
    case medium
    /// Smaller files, slower.
    case slow
    /// Smaller still, slower still.
    case slower
    /// The smallest files x264 makes at a quality.
    case veryslow
}
