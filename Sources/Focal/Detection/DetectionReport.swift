/// What was found in an image or a video, in the JSON that `focal detect --json` writes and
/// `POST /v1/detect` answers (the predictions schema of Focal's evaluations): the frames that
/// have features, and for a video each document's first, last and sharpest frame.
public struct DetectionReport: Encodable, Sendable {
    /// A frame with at least one feature.
    public struct FrameEntry: Encodable, Sendable {
        /// The frame's index in the stream, from 0.
        public var index: Int
        /// What was found on it.
        public var features: [AnyFeature]

        /// The features found on frame `index`.
        public init(index: Int, features: [AnyFeature]) {
            self.index = index
            self.features = features
        }
    }

    /// A document followed through a video.
    public struct Document: Encodable, Sendable {
        /// Its tracking ID.
        public var trackID: Int
        /// The frame it was sharpest in.
        public var bestFrame: Int
        /// The first frame it was seen in.
        public var firstFrame: Int
        /// The last frame it was seen in.
        public var lastFrame: Int

        /// A document with track `trackID`, seen from `firstFrame` to `lastFrame`, sharpest at `bestFrame`.
        public init(trackID: Int, bestFrame: Int, firstFrame: Int, lastFrame: Int) {
            self.trackID = trackID
            self.bestFrame = bestFrame
            self.firstFrame = firstFrame
            self.lastFrame = lastFrame
        }
    }

    /// The file (or upload) read.
    public var source: String
    /// The frames' width in pixels.
    public var width: Int
    /// The frames' height in pixels.
    public var height: Int
    /// Frames with at least one feature; the others are left out.
    public var frames: [FrameEntry]
    /// Each document of a video, with its first, last and sharpest frame; empty for an image.
    public var documents: [Document]

    /// A report of `frames` found in `source`, of `width` × `height` pixels.
    public init(source: String, width: Int, height: Int, frames: [FrameEntry], documents: [Document] = []) {
        self.source = source
        self.width = width
        self.height = height
        self.frames = frames
        self.documents = documents
    }
}
