import Focal

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A multi-page document as the scan store keeps it: its pages in order, each a source image kept
/// apart (``ScanStore/keepPage(_:)``) with the corners and settings it is flattened with. Every
/// page is flattened when it is asked for, so a change of corners or enhancement costs nothing
/// until then.
struct DocumentRecord: Codable, Sendable, Equatable {
    var id: String
    /// Seconds since 1970 (UTC) when the document was created; it expires a lifetime later.
    var created: Double
    var pages: [Page]

    struct Page: Codable, Sendable, Equatable {
        /// The source image's id in the store.
        var id: String
        /// The upright source image's size, which the corners are in.
        var width: Int
        var height: Int
        /// The source image's size in bytes and its content type as uploaded.
        var bytes: Int
        var contentType: String
        /// Top-left, top-right, bottom-right, bottom-left, as `[x, y]` in the upright image's pixels.
        var corners: [[Double]]
        /// Whether the corners are the detector's (false: a client's, or the whole image when no
        /// page was found).
        var detected: Bool
        var enhance: ScanEnhancement
        /// Clockwise quarter turns of the flat page, in degrees: 0, 90, 180 or 270.
        var rotation: Int

        var quad: Quad {
            let points = corners.map { Point(x: $0[0], y: $0[1]) }
            return Quad(topLeft: points[0], topRight: points[1], bottomRight: points[2], bottomLeft: points[3])
        }
    }

    var bytes: Int { pages.reduce(0) { $0 + $1.bytes } }

    func encoded() -> [UInt8] { encodedJSON(self) }

    /// The record in `stored`, or nil when it does not decode or has expired.
    static func decoded(_ stored: StoredDocument, lifetime: Double, now: Double) -> DocumentRecord? {
        guard let record = try? JSONDecoder().decode(DocumentRecord.self, from: Data(stored.record)),
            now - record.created <= lifetime
        else { return nil }
        return record
    }
}

/// A document as `/v1/documents/{id}` answers it: the record, its revision, when it expires, the
/// limits it is held to, and where each page's image and the PDF are.
struct DocumentAnswer: Encodable {
    var id: String
    var revision: Int
    var created: Double
    var expires: Double
    var bytes: Int
    var limits: Limits
    var pdf: String
    var pages: [Page]

    struct Limits: Encodable {
        var pages: Int
        var bytes: Int
    }

    /// A page as the record keeps it, and where its flat image and its photo are.
    struct Page: Encodable {
        var page: DocumentRecord.Page
        var image: String
        var source: String

        enum Keys: String, CodingKey { case image, source }

        func encode(to encoder: any Encoder) throws {
            try page.encode(to: encoder)
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(image, forKey: .image)
            try container.encode(source, forKey: .source)
        }
    }

    init(_ record: DocumentRecord, revision: Int, lifetime: Double, limits: ServiceConfiguration) {
        let base = "/v1/documents/" + record.id
        id = record.id
        self.revision = revision
        created = record.created
        expires = record.created + lifetime
        bytes = record.bytes
        self.limits = Limits(pages: limits.maximumDocumentPages, bytes: limits.maximumDocumentBytes)
        pdf = base + "/pdf"
        pages = record.pages.map { page in
            Page(page: page, image: base + "/pages/" + page.id + "/image", source: base + "/pages/" + page.id + "/source")
        }
    }
}

/// The settings a page is added or changed with: from the query, or a multipart form's fields.
struct PageSettings: Sendable {
    var corners: Quad?
    var enhance: ScanEnhancement?
    var rotation: Int?

    init(_ values: [String: String]) throws(ServiceError) {
        if let text = values["corners"] { corners = try Processing.corners(text) }
        if let text = values["enhance"] { enhance = try Processing.enhancement(text) }
        if let text = values["rotation"] {
            guard let degrees = Int(text), [0, 90, 180, 270].contains(degrees) else {
                throw ServiceError(400, "rotation must be 0, 90, 180 or 270 (degrees clockwise), not '\(text.prefix(40))'")
            }
            rotation = degrees
        }
    }

    var isEmpty: Bool { corners == nil && enhance == nil && rotation == nil }

    /// The corners as the record keeps them, checked to lie in a `width` × `height` image (a pixel
    /// of slack for rounding) and to enclose an area.
    static func checked(_ quad: Quad, width: Int, height: Int) throws(ServiceError) -> [[Double]] {
        for point in quad.corners
        where !(point.x >= -1 && point.y >= -1 && point.x <= Double(width) + 1 && point.y <= Double(height) + 1) {
            throw ServiceError(400, "corner \(point) lies outside the \(width)x\(height) image")
        }
        guard quad.area >= 16 else { throw ServiceError(400, "the corners enclose no area") }
        // A tenth of a pixel is finer than any corner is known to.
        return quad.corners.map { [($0.x * 10).rounded() / 10, ($0.y * 10).rounded() / 10] }
    }
}
