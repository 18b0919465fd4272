import CFocal

/// Encodes frames into a video file: H.264 in .mp4 by default.
///
/// The file is written under a hidden temporary name beside `path` and renamed into place by
/// ``finish()``. A writer that is dropped, cancelled or fails before that removes the temporary
/// file: a failed or interrupted run never leaves half a video at `path`.
///
/// Frames of any ``PixelFormat`` are accepted; `.yuv420` frames (what ``VideoReader`` gives by
/// default) go to the encoder without conversion.
public final class VideoWriter {
    /// Encoder settings, with defaults that suit overlays and scans.
    public struct Settings: Sendable, Equatable {
        /// The video codec.
        public var codec: VideoCodec
        /// x264/x265 speed preset; faster presets make larger files. `.veryfast` keeps encoding from
        /// dominating a detection pipeline.
        public var preset: EncoderPreset
        /// Constant rate factor for codecs that have one (H.264, H.265, VP9): lower is better quality
        /// and bigger files; 23 is x264's own default. Ignored when ``bitRate`` is set.
        public var quality: Int
        /// Target bits per second instead of constant quality, or nil.
        public var bitRate: Int?
        /// Encoder threads; 0 uses one per core.
        public var threads: Int
        /// Frames x264's rate control looks ahead (`rc-lookahead`), or nil for the preset's (10 at
        /// `.veryfast`). Each frame of lookahead is a frame held per encoder thread: lowering it saves
        /// memory (about 6 MB a frame at 1080p) for slightly larger files.
        public var lookahead: Int?
        /// Most consecutive B-frames, or nil for the preset's (3). 0 saves memory and latency for
        /// larger files.
        public var bFrames: Int?
        /// Whether x264 runs its lookahead on a thread of its own, which buffers frames for it
        /// (`sync-lookahead`). Off saves those frames (about 8 MB at 1080p) and gives the same file;
        /// on can help on many-core machines where the encoding threads are the bottleneck.
        public var lookaheadThread: Bool

        /// Encoder settings; each parameter sets the property of the same name.
        public init(
            codec: VideoCodec = .h264, preset: EncoderPreset = .veryfast, quality: Int = 23,
            bitRate: Int? = nil, threads: Int = 0, lookahead: Int? = nil, bFrames: Int? = nil,
            lookaheadThread: Bool = true
        ) {
            self.codec = codec
            self.preset = preset
            self.quality = quality
            self.bitRate = bitRate
            self.threads = threads
            self.lookahead = lookahead
            self.bFrames = bFrames
            self.lookaheadThread = lookaheadThread
        }

        /// The encoder holding as few frames as it usefully can: one thread per core (x264's own
        /// choice is one and a half), 3 frames of lookahead on those threads, no B-frames. Memory
        /// still grows with the core count, since each thread holds frames of its own. At 1080p on two cores, `focal overlay` peaks at about 185 MB instead of 335 MB with
        /// x264's defaults and runs as fast or faster, for files about 10 % larger at the same quality.
        public static var lowMemory: Settings {
            Settings(threads: processorCount, lookahead: 3, bFrames: 0, lookaheadThread: false)
        }

        /// x264's defaults for the preset: B-frames and a longer lookahead give smaller files at
        /// the same quality, for several times the memory.
        public static var compact: Settings { Settings() }
    }

    /// Where the file appears once ``finish()`` succeeds.
    public let path: String
    /// The frames' width in pixels.
    public let width: Int
    /// The frames' height in pixels.
    public let height: Int
    /// The video's frame rate.
    public let framesPerSecond: Double
    /// The encoder settings.
    public let settings: Settings
    /// Frames appended so far.
    public private(set) var framesWritten = 0

    private var handle: OpaquePointer?

    /// Creates the temporary file and opens the encoder.
    ///
    /// - Throws: ``FocalError``: `.directoryNotFound` if path's folder is missing,
    ///   `.unsupportedFormat` for an extension with no container, `.unsupportedCodec` when the build
    ///   has no encoder for the codec or the container cannot hold it, `.invalidArgument` for odd
    ///   sizes with 4:2:0 codecs.
    public init(path: String, width: Int, height: Int, framesPerSecond: Double, settings: Settings = Settings())
        throws(FocalError)
    {
        self.path = path
        self.width = width
        self.height = height
        self.framesPerSecond = framesPerSecond
        self.settings = settings
        try FileAccess.requireFolder(of: path, operation: "write video")
        // A symbolic link stays, and the file it leads to is written, as images and JSON do.
        let target = try FileAccess.checkedDestination(of: path, operation: "write video")
        // A writer killed part-way (SIGKILL) left its temporary file: the next writer clears it.
        FileAccess.removeStaleTemporaries(of: target)
        let temporary = FileAccess.temporarySibling(of: target)
        var writer: OpaquePointer?
        let status = settings.codec.encoderName.withCString { encoder in
            settings.preset.rawValue.withCString { preset in
                var config = cfocal_video_writer_config(
                    width: Int32(width), height: Int32(height), frames_per_second: framesPerSecond,
                    encoder: encoder, preset: preset, crf: Int32(settings.quality),
                    bit_rate: Int32(clamping: settings.bitRate ?? 0), threads: Int32(settings.threads),
                    lookahead: Int32(clamping: settings.lookahead ?? -1), b_frames: Int32(clamping: settings.bFrames ?? -1),
                    lookahead_thread: settings.lookaheadThread ? 1 : 0)
                return cfocal_video_writer_open(target, temporary, &config, &writer)
            }
        }
        // The shim says which: no container (.unsupportedFormat) or no encoder for it (.unsupportedCodec).
        if status != CFOCAL_OK { throw shimError(status, "write video", path: path) }
        handle = writer
    }

    deinit {
        if let handle { cfocal_video_writer_free(handle) }
    }

    /// Encodes one frame; it must have the writer's size.
    ///
    /// Frames in the encoder's pixel format (`.yuv420` for H.264) are not copied: the encoder holds
    /// a reference to their pixels for as long as it needs them (x264 lets go before this returns).
    /// The frame stays a value: writing to it afterwards copies first if the encoder still holds it.
    public func append(_ frame: Frame) throws(FocalError) {
        guard let handle else {
            throw FocalError(.invalidArgument, operation: "write video", path: path, reason: "the writer is already finished")
        }
        let reference = Unmanaged.passRetained(frame.storage).toOpaque()
        try frame.withShimImage { (image) throws(FocalError) in
            try check(cfocal_video_writer_append(handle, &image, releasePixelStorage, reference), "write video", path: path)
        }
        framesWritten += 1
    }

    /// Flushes the encoder, writes the trailer and moves the file into place at ``path``.
    public func finish() throws(FocalError) {
        guard let handle else {
            throw FocalError(.invalidArgument, operation: "write video", path: path, reason: "the writer is already finished")
        }
        defer {
            cfocal_video_writer_free(handle)
            self.handle = nil
        }
        try check(cfocal_video_writer_finish(handle), "write video", path: path)
    }

    /// Stops writing and removes the temporary file; nothing appears at ``path``.
    public func cancel() {
        if let handle { cfocal_video_writer_free(handle) }
        handle = nil
    }
}

/// Balances the retain of a frame's pixels that ``VideoWriter/append(_:)`` lends the encoder.
private let releasePixelStorage: @convention(c) (UnsafeMutableRawPointer?) -> Void = { reference in
    if let reference { Unmanaged<PixelStorage>.fromOpaque(reference).release() }
}
