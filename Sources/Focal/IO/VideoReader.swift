import CFocal

/// Decodes a video file (any container and codec FFmpeg's libraries read) frame by frame.
///
/// Read with ``read()`` in a loop, or iterate ``frames`` with `for try await`. Frames come out in
/// ``pixelFormat``: `.yuv420` (the default) is what H.264 decoders produce and costs no conversion,
/// and its ``Frame/lumaPlane`` is the gray image; `.gray8` is that luma plane alone, also free;
/// `.bgr8` and `.bgra8` convert each frame.
///
/// A reader belongs to one task at a time.
public final class VideoReader {
    /// The file read, or the name given to a video read from memory.
    public let path: String
    /// The frames' width in pixels.
    public let width: Int
    /// The frames' height in pixels.
    public let height: Int
    /// Frames per second as the container states it (or as FFmpeg guesses it).
    public let framesPerSecond: Double
    /// The number of frames the container declares, or estimates from its duration; nil if unknown.
    public let frameCount: Int?
    /// Length in seconds, if known.
    public let duration: Double?
    /// The decoder's name, such as "h264".
    public let codecName: String
    /// The format ``read()`` returns frames in.
    public let pixelFormat: PixelFormat
    /// Frames returned so far.
    public private(set) var framesRead = 0

    private let handle: OpaquePointer

    /// Opens a video file.
    ///
    /// - Parameters:
    ///   - path: the video file.
    ///   - pixelFormat: the format of the frames ``read()`` returns.
    ///   - threads: decoder threads; 0 uses one per core.
    /// - Throws: ``FocalError``: `.fileNotFound`, `.notAFile`, `.emptyInput` (no video stream),
    ///   `.decodeFailed` (not a video, or damaged), `.unsupportedFormat` (no decoder for its codec).
    public convenience init(path: String, pixelFormat: PixelFormat = .yuv420, threads: Int = 0) throws(FocalError) {
        // Checked here for a clear error: libav's own message for these is vaguer.
        guard FileAccess.exists(path) else {
            throw FocalError(.fileNotFound, operation: "open video", path: path, reason: "no such file")
        }
        var reader: OpaquePointer?
        let status = cfocal_video_reader_open(path, Int32(clamping: threads), &reader)
        // Bytes FFmpeg cannot place are no video to speak of: "Cannot read 'notes.txt': …".
        try check(status, status == CFOCAL_ERR_DECODE ? "read" : "open video", path: path)
        try self.init(handle: reader, name: path, pixelFormat: pixelFormat)
    }

    /// Opens a video held in memory, such as an upload, reading it only as one of `containers`.
    ///
    /// Bytes from elsewhere can name other files: an HLS playlist or a concat list points the
    /// demuxer at paths and URLs, and a MOV file can reference others. A reader made here opens
    /// nothing but `bytes`, and only the listed containers may read them.
    ///
    /// - Parameters:
    ///   - bytes: the whole file, as uploaded.
    ///   - name: stands for the path in errors and in ``path``; use the upload's name, never a
    ///     server path.
    ///   - containers: the containers accepted. Default: MP4/MOV, Matroska/WebM and AVI.
    ///   - maximumPixels: the largest frame any decoder may allocate, probing included; nil for no
    ///     limit beyond libav's own.
    ///   - pixelFormat: the format of the frames ``read()`` returns.
    ///   - threads: decoder threads; 0 uses one per core.
    /// - Throws: ``FocalError``: `.emptyInput` (no bytes, or no video stream), `.decodeFailed`
    ///   (damaged, or not a video), `.unsupportedFormat` (a container outside `containers`, or a
    ///   codec without a decoder).
    public convenience init(
        bytes: [UInt8], name: String = "video", containers: [VideoContainer] = VideoContainer.uploads,
        maximumPixels: Int? = nil, pixelFormat: PixelFormat = .yuv420, threads: Int = 0
    ) throws(FocalError) {
        if let maximumPixels, maximumPixels <= 0 {
            throw FocalError(.invalidArgument, operation: "open video", path: name, reason: "the pixel limit must be positive")
        }
        let list = containers.map(\.demuxerName).joined(separator: ",")
        var reader: OpaquePointer?
        let status = bytes.withUnsafeBufferPointer {
            cfocal_video_reader_open_memory(
                $0.baseAddress, $0.count, name, list, Int64(maximumPixels ?? 0), Int32(clamping: threads), &reader)
        }
        try check(status, "open video", path: name)
        try self.init(handle: reader, name: name, pixelFormat: pixelFormat)
    }

    private init(handle reader: OpaquePointer?, name: String, pixelFormat: PixelFormat) throws(FocalError) {
        guard let reader else { throw FocalError(.internal, operation: "open video", path: name, reason: "no reader") }
        handle = reader
        let info = cfocal_video_reader_info(reader)
        self.path = name
        self.pixelFormat = pixelFormat
        width = Int(info.width)
        height = Int(info.height)
        framesPerSecond = info.frames_per_second
        frameCount = info.frame_count >= 0 ? Int(info.frame_count) : nil
        duration = info.duration_seconds >= 0 ? info.duration_seconds : nil
        codecName = withUnsafeBytes(of: info.codec_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    deinit { cfocal_video_reader_free(handle) }

    /// The next frame, or nil after the last one.
    public func read() throws(FocalError) -> Frame? {
        var buffer: OpaquePointer?
        var timestamp = 0.0
        let status = cfocal_video_reader_next(handle, pixelFormat.shim, &buffer, &timestamp)
        if status == CFOCAL_END_OF_STREAM { return nil }
        try check(status, "read video", path: path)
        guard let buffer else { throw FocalError(.internal, operation: "read video", path: path, reason: "no frame") }
        framesRead += 1
        return Frame.adopting(shimBuffer: buffer, timestamp: timestamp)
    }

    /// The frames as an asynchronous sequence. Each step decodes on the calling task.
    public var frames: Frames { Frames(reader: self) }

    /// The frames of a reader, as an `AsyncSequence` (`for try await frame in reader.frames`).
    public struct Frames: AsyncSequence {
        public typealias Element = Frame
        let reader: VideoReader

        public struct AsyncIterator: AsyncIteratorProtocol {
            let reader: VideoReader
            public mutating func next() async throws(FocalError) -> Frame? { try reader.read() }
            public mutating func next(isolation actor: isolated (any Actor)?) async throws(FocalError) -> Frame? {
                try reader.read()
            }
        }

        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(reader: reader) }
    }
}

/// A video container, as a reader from memory accepts it.
public enum VideoContainer: String, Sendable, CaseIterable, Codable {
    /// MP4, MOV, 3GP and their kin (ISO base media files).
    case mp4
    /// Matroska and WebM.
    case matroska
    /// AVI.
    case avi

    /// What scanner apps upload, and all that `focal serve` reads: MP4/MOV, Matroska/WebM, AVI.
    public static let uploads: [VideoContainer] = [.mp4, .matroska, .avi]

    /// libav's name for the demuxer.
    var demuxerName: String {
        switch self {
        case .mp4: "mov"
        case .matroska: "matroska"
        case .avi: "avi"
        }
    }
}
