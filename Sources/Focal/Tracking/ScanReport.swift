/// What a scan found, in the JSON that `focal scan` writes (`summary.json`) and `POST /v1/scan`
/// answers: each document's frames, its corners in its sharpest frame, its proportions, and where
/// its flattened scan is.
public struct ScanReport: Encodable, Sendable {
    /// One document and its scan.
    public struct Document: Encodable, Sendable {
        /// The document's track (in a photo, its place among the photo's documents, from 1).
        public var trackID: Int
        /// The first frame the document was seen in.
        public var firstFrame: Int
        /// The last frame the document was seen in.
        public var lastFrame: Int
        /// The frame it was sharpest in, where its corners and its scan come from.
        public var bestFrame: Int
        /// The variance of the Laplacian inside the document on its best frame.
        public var sharpness: Double
        /// The corners in the best frame, `[[x, y], …]`: top-left, top-right, bottom-right,
        /// bottom-left, as `focal detect --json` gives them.
        public var corners: [[Double]]
        /// The page's width over its height, estimated from the camera geometry; the scan has
        /// these proportions.
        public var aspectRatio: Double
        /// The flattened page.
        public var scan: Image
        /// The best frame with the document outlined, where one was kept (`focal scan --out`).
        public var bestFrameImage: Image?
        /// The input the document came from, where a scan read several (`focal scan a.jpg b.jpg`).
        public var source: String?

        /// The report of `scan`, whose flattened page is described by `image`.
        public init(_ scan: DocumentScan, image: Image, bestFrameImage: Image? = nil) {
            trackID = scan.trackingID
            firstFrame = scan.firstFrame
            lastFrame = scan.lastFrame
            bestFrame = scan.bestFrame
            sharpness = scan.sharpness.variance
            corners = scan.quad.corners.map { [$0.x, $0.y] }
            aspectRatio = scan.quad.estimatedAspectRatio(imageWidth: scan.frame.width, imageHeight: scan.frame.height)
            self.scan = image
            self.bestFrameImage = bestFrameImage
        }

        enum CodingKeys: String, CodingKey {
            case trackID, firstFrame, lastFrame, bestFrame, sharpness, corners, aspectRatio, scan, bestFrameImage, source
        }
    }

    /// An image the scan produced, and where to find it: a file beside the report, a URL, or the
    /// encoded bytes themselves.
    public struct Image: Encodable, Sendable {
        /// The image's width in pixels.
        public var width: Int
        /// The image's height in pixels.
        public var height: Int
        /// Its media type: `image/jpeg` or `image/png`.
        public var contentType: String
        /// Its file name, in the folder that holds the report.
        public var file: String?
        /// Where a client fetches it (the service's scan store).
        public var url: String?
        /// The encoded image itself, when asked for inline.
        public var base64: String?

        /// An image of `width` × `height` of `contentType`, found through one of `file`, `url` or `base64`.
        public init(
            width: Int, height: Int, contentType: String, file: String? = nil, url: String? = nil, base64: String? = nil
        ) {
            self.width = width
            self.height = height
            self.contentType = contentType
            self.file = file
            self.url = url
            self.base64 = base64
        }
    }

    /// The file or upload scanned, where named.
    public var source: String?
    /// The frames read (1 for a photo).
    public var frames: Int
    /// The documents found, in the order they were first seen.
    public var documents: [Document]

    /// A report of `documents` found in `frames` frames of `source`.
    public init(source: String? = nil, frames: Int, documents: [Document]) {
        self.source = source
        self.frames = frames
        self.documents = documents
    }
}
