/// What was found in an image or a video, in the JSON that `focal detect --json` writes and
/// `POST /v1/detect` answers (the predictions schema of Focal's evaluations): the frames that
/// have features, and for a video each document's first, last and sharpest frame.
public struct DetectionReport: Encodable, Sendable {
    public struct FrameEntry: Encodable, Sendable {
        public var index: Int
        public var features: [AnyFeature]

        public init(index: Int, features: [AnyFeature]) {
            self.index = index
            self.features = features
        }
    }

    public struct Document: Encodable, Sendable {
        public var trackID: Int
        public var bestFrame: Int
        public var firstFrame: Int
        public var lastFrame: Int

        public init(trackID: Int, bestFrame: Int, firstFrame: Int, lastFrame: Int) {
            self.trackID = trackID
            self.bestFrame = bestFrame
            self.firstFrame = firstFrame
            self.lastFrame = lastFrame
        }
    }

    public var source: String
    public var width: Int
    public var height: Int
    /// Frames with at least one feature; the others are left out.
    public var frames: [FrameEntry]
    public var documents: [Document]

    public init(source: String, width: Int, height: Int, frames: [FrameEntry], documents: [Document] = []) {
        self.source = source
        self.width = width
        self.height = height
        self.frames = frames
        self.documents = documents
    }
}
