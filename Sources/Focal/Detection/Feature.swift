/// What a ``Detector`` looks for.
public enum FeatureType: String, Sendable, Codable, CaseIterable {
    /// Documents, cards, receipts: four-cornered pages in perspective.
    case rectangle
    /// Lines of text (segments by default), with their words.
    case text
    /// Faces, with eyes and mouth where found.
    case face
    /// QR codes, with their decoded message.
    case qrCode = "qr"
}

/// Something a ``Detector`` found, as CIFeature is: its type and where it is.
///
/// Coordinates are image pixels, origin at the top-left and y down (Core Image's origin is
/// bottom-left). Downcast to ``RectangleFeature``, ``TextFeature``, ``FaceFeature`` or
/// ``QRCodeFeature`` for the rest, or use ``AnyFeature`` to encode a mixed list.
public protocol Feature: Sendable, Codable {
    /// What kind of feature this is.
    var type: FeatureType { get }
    /// The axis-aligned box around the feature.
    var bounds: Rect { get }
    /// How sure the detector is, 0…1.
    var confidence: Double { get }
    /// The same number on every frame of a stream that shows the same object, when tracking is on.
    var trackingID: Int? { get set }
}

/// A feature outlined by four corners in perspective: documents, text, QR codes.
public protocol QuadFeature: Feature {
    /// The feature's corners, clockwise from the top-left.
    var quad: Quad { get }
}

extension QuadFeature {
    /// The top-left corner.
    public var topLeft: Point { quad.topLeft }
    /// The top-right corner.
    public var topRight: Point { quad.topRight }
    /// The bottom-right corner.
    public var bottomRight: Point { quad.bottomRight }
    /// The bottom-left corner.
    public var bottomLeft: Point { quad.bottomLeft }
    public var bounds: Rect { quad.bounds }
}

/// A document, card, screen or sign: four corners in perspective.
public struct RectangleFeature: QuadFeature, Equatable, Hashable {
    /// Always ``FeatureType/rectangle``.
    public var type: FeatureType { .rectangle }
    /// The page's corners.
    public var quad: Quad
    public var confidence: Double
    public var trackingID: Int?

    /// A page at `quad`, as sure as `confidence` (0…1), on track `trackingID`.
    public init(quad: Quad, confidence: Double, trackingID: Int? = nil) {
        self.quad = quad
        self.confidence = confidence
        self.trackingID = trackingID
    }

    enum CodingKeys: String, CodingKey { case type, corners, confidence, trackID }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        quad = try Quad(cornerArray: c.decode([Point].self, forKey: .corners))
        confidence = try c.decodeIfPresent(Double.self, forKey: .confidence) ?? 1
        trackingID = try c.decodeIfPresent(Int.self, forKey: .trackID)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(type, forKey: .type)
        try c.encode(quad.corners, forKey: .corners)
        try c.encode(confidence, forKey: .confidence)
        try c.encodeIfPresent(trackingID, forKey: .trackID)
    }
}

/// A line of text (or, as a sub-feature, a word or a character), following the text's slant.
public struct TextFeature: QuadFeature, Equatable, Hashable {
    /// Always ``FeatureType/text``.
    public var type: FeatureType { .text }
    /// The line's corners, following the page's perspective.
    public var quad: Quad
    public var confidence: Double
    public var trackingID: Int?
    /// Words within a line, characters within a word, where the detector finds them.
    public var subFeatures: [TextFeature]

    /// A line of text at `quad`, with its words (and characters) as `subFeatures`.
    public init(quad: Quad, confidence: Double, trackingID: Int? = nil, subFeatures: [TextFeature] = []) {
        self.quad = quad
        self.confidence = confidence
        self.trackingID = trackingID
        self.subFeatures = subFeatures
    }

    enum CodingKeys: String, CodingKey { case type, corners, confidence, trackID, subFeatures }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        quad = try Quad(cornerArray: c.decode([Point].self, forKey: .corners))
        confidence = try c.decodeIfPresent(Double.self, forKey: .confidence) ?? 1
        trackingID = try c.decodeIfPresent(Int.self, forKey: .trackID)
        subFeatures = try c.decodeIfPresent([TextFeature].self, forKey: .subFeatures) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(type, forKey: .type)
        try c.encode(quad.corners, forKey: .corners)
        try c.encode(confidence, forKey: .confidence)
        try c.encodeIfPresent(trackingID, forKey: .trackID)
        if !subFeatures.isEmpty { try c.encode(subFeatures, forKey: .subFeatures) }
    }
}

/// A face, with its eyes and mouth where the detector finds them.
public struct FaceFeature: Feature, Equatable, Hashable {
    /// Always ``FeatureType/face``.
    public var type: FeatureType { .face }
    public var bounds: Rect
    public var confidence: Double
    public var trackingID: Int?
    /// The eye on the image's left (the person's right eye, for a face looking at the camera).
    public var leftEyePosition: Point?
    /// The right eye's centre (the person's right), if found.
    public var rightEyePosition: Point?
    /// The mouth's centre, if found.
    public var mouthPosition: Point?

    /// A face in `bounds`, with its eyes and mouth where found.
    public init(
        bounds: Rect, confidence: Double, trackingID: Int? = nil, leftEyePosition: Point? = nil,
        rightEyePosition: Point? = nil, mouthPosition: Point? = nil
    ) {
        self.bounds = bounds
        self.confidence = confidence
        self.trackingID = trackingID
        self.leftEyePosition = leftEyePosition
        self.rightEyePosition = rightEyePosition
        self.mouthPosition = mouthPosition
    }

    /// Whether the left eye was found, as CIFaceFeature reports it.
    public var hasLeftEyePosition: Bool { leftEyePosition != nil }
    /// Whether the right eye was found.
    public var hasRightEyePosition: Bool { rightEyePosition != nil }
    /// Whether the mouth was found.
    public var hasMouthPosition: Bool { mouthPosition != nil }

    enum CodingKeys: String, CodingKey { case type, corners, bounds, confidence, trackID, leftEye, rightEye, mouth }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        bounds = try c.decode(Rect.self, forKey: .bounds)
        confidence = try c.decodeIfPresent(Double.self, forKey: .confidence) ?? 1
        trackingID = try c.decodeIfPresent(Int.self, forKey: .trackID)
        leftEyePosition = try c.decodeIfPresent(Point.self, forKey: .leftEye)
        rightEyePosition = try c.decodeIfPresent(Point.self, forKey: .rightEye)
        mouthPosition = try c.decodeIfPresent(Point.self, forKey: .mouth)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(type, forKey: .type)
        try c.encode(Quad(bounds).corners, forKey: .corners)
        try c.encode(bounds, forKey: .bounds)
        try c.encode(confidence, forKey: .confidence)
        try c.encodeIfPresent(trackingID, forKey: .trackID)
        try c.encodeIfPresent(leftEyePosition, forKey: .leftEye)
        try c.encodeIfPresent(rightEyePosition, forKey: .rightEye)
        try c.encodeIfPresent(mouthPosition, forKey: .mouth)
    }
}

/// A QR code: its corners and, when it could be read, its message.
public struct QRCodeFeature: QuadFeature, Equatable, Hashable {
    /// Always ``FeatureType/qrCode``.
    public var type: FeatureType { .qrCode }
    /// The code's corners.
    public var quad: Quad
    /// The decoded text, or nil if the code was located but not read.
    public var messageString: String?
    public var confidence: Double
    public var trackingID: Int?

    /// A QR code at `quad` whose message is `messageString` (nil where it could not be decoded).
    public init(quad: Quad, messageString: String?, confidence: Double = 1, trackingID: Int? = nil) {
        self.quad = quad
        self.messageString = messageString
        self.confidence = confidence
        self.trackingID = trackingID
    }

    enum CodingKeys: String, CodingKey { case type, corners, message, confidence, trackID }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        quad = try Quad(cornerArray: c.decode([Point].self, forKey: .corners))
        messageString = try c.decodeIfPresent(String.self, forKey: .message)
        confidence = try c.decodeIfPresent(Double.self, forKey: .confidence) ?? 1
        trackingID = try c.decodeIfPresent(Int.self, forKey: .trackID)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(type, forKey: .type)
        try c.encode(quad.corners, forKey: .corners)
        try c.encodeIfPresent(messageString, forKey: .message)
        try c.encode(confidence, forKey: .confidence)
        try c.encodeIfPresent(trackingID, forKey: .trackID)
    }
}

/// Any feature, for encoding and decoding mixed lists: `{"type": "rectangle", "corners": …}`.
public struct AnyFeature: Codable, Sendable {
    /// The feature itself.
    public var base: any Feature

    /// `base`, for encoding or decoding whatever its type.
    public init(_ base: any Feature) { self.base = base }

    enum CodingKeys: String, CodingKey { case type }

    public init(from decoder: any Decoder) throws {
        switch try decoder.container(keyedBy: CodingKeys.self).decode(FeatureType.self, forKey: .type) {
        case .rectangle: base = try RectangleFeature(from: decoder)
        case .text: base = try TextFeature(from: decoder)
        case .face: base = try FaceFeature(from: decoder)
        case .qrCode: base = try QRCodeFeature(from: decoder)
        }
    }

    public func encode(to encoder: any Encoder) throws { try base.encode(to: encoder) }
}

extension Quad {
    /// A quad from the four corners of the predictions JSON (TL, TR, BR, BL).
    init(cornerArray: [Point]) throws {
        guard cornerArray.count == 4 else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "a quad has 4 corners, not \(cornerArray.count)"))
        }
        self.init(topLeft: cornerArray[0], topRight: cornerArray[1], bottomRight: cornerArray[2], bottomLeft: cornerArray[3])
    }

    /// The quad of an axis-aligned rectangle.
    public init(_ rect: Rect) {
        self.init(
            topLeft: Point(x: rect.minX, y: rect.minY), topRight: Point(x: rect.maxX, y: rect.minY),
            bottomRight: Point(x: rect.maxX, y: rect.maxY), bottomLeft: Point(x: rect.minX, y: rect.maxY))
    }
}

extension FeatureType {
    /// A comma-separated list of type names (`rectangle,qr`), read one way wherever one is taken
    /// (`focal detect --types`, the service's `types=`): case and spaces are ignored, a type named
    /// twice counts once (so a list cannot multiply the work), and `none`, where allowed, names
    /// no type at all.
    /// - Throws: `.invalidArgument` when the list is empty or names a type there is not; the
    ///   reason names the types there are.
    public static func list(_ text: String, allowsNone: Bool = false) throws(FocalError) -> [FeatureType] {
        let names = allCases.map(\.rawValue).joined(separator: ", ") + (allowsNone ? ", none" : "")
        guard text.contains(where: { !$0.isWhitespace && $0 != "," }) else {
            throw FocalError(
                .invalidArgument, operation: "read feature types",
                reason: "the list is empty; name one or more of \(names), separated by commas")
        }
        var types: [FeatureType] = []
        for name in text.split(separator: ",") {
            let trimmed = name.filter { !$0.isWhitespace }.lowercased()
            if trimmed.isEmpty || (allowsNone && trimmed == "none") { continue }
            guard let type = FeatureType(rawValue: trimmed) else {
                throw FocalError(
                    .invalidArgument, operation: "read feature types",
                    reason: "there is no feature type '\(name.prefix(40))'; use \(names)")
            }
            if !types.contains(type) { types.append(type) }
        }
        return types
    }
}
