import Focal
import HTTPTypes
import Hummingbird
import NIOCore

/// Reading and changing document records, and the answers made of their pages.
extension FocalServer {
    /// Times a change is tried again after another request wrote the same document first.
    static let documentWriteAttempts = 8

    /// The document's record and revision; 404 when there is none or it has expired.
    func readDocument(_ id: String) async throws(ServiceError) -> (DocumentRecord, Int) {
        guard ScanID.isValid(id), let stored = try await scans.document(id),
            let record = DocumentRecord.decoded(
                stored, lifetime: scans.documentLifetime, now: WallClock.seconds())
        else {
            throw ServiceError(404, "no such document (documents are kept for \(Int(scans.documentLifetime)) s)")
        }
        return (record, stored.revision)
    }

    /// Applies `change` to the document's latest record and writes it, again from a fresh read
    /// when another request wrote first; the record and revision written.
    func updateDocument(
        _ id: String, _ change: (inout DocumentRecord) throws(ServiceError) -> Void
    ) async throws(ServiceError) -> (DocumentRecord, Int) {
        for _ in 0..<Self.documentWriteAttempts {
            var (record, revision) = try await readDocument(id)
            try change(&record)
            if try await scans.putDocument(id, record: record.encoded(), replacing: revision) {
                return (record, revision + 1)
            }
        }
        throw ServiceError(409, "document \(id) is being changed by other requests; try again", retryAfter: 1)
    }

    /// The document as its routes answer it.
    func documentResponse(_ status: Int, _ record: DocumentRecord, revision: Int, headers: HTTPFields = [:]) -> Response {
        Self.json(
            status, DocumentAnswer(record, revision: revision, lifetime: scans.documentLifetime, limits: configuration),
            headers: headers)
    }

    /// A page's photo from the store, or 404 when the store no longer keeps it.
    private func photo(of page: DocumentRecord.Page) async throws(ServiceError) -> [UInt8] {
        guard let source = try await scans.page(page.id) else {
            throw ServiceError(404, "page \(page.id)'s image is no longer kept (the store was full or it expired)")
        }
        return source
    }

    /// A page and its source image, or 404.
    private func pageAndSource(_ pageID: String, of id: String) async throws(ServiceError) -> (
        DocumentRecord.Page, [UInt8]
    ) {
        let (record, _) = try await readDocument(id)
        guard let page = record.pages.first(where: { $0.id == pageID }) else {
            throw ServiceError(404, "document \(id) has no page \(pageID.prefix(40))")
        }
        return (page, try await photo(of: page))
    }

    /// The flat page: `enhance` to preview another enhancement, `format=jpeg|png`, and `size`
    /// (the longer side in pixels, 64…8192) for a quick preview.
    func pageImage(_ request: Request, _ pageID: String, of id: String) async throws(ServiceError) -> Response {
        let query = Self.query(request)
        let enhance = try query["enhance"].map { (text) throws(ServiceError) in try Processing.enhancement(text) }
        let format = try Processing.FlatFormat(query["format"])
        guard format != .pdf else { throw ServiceError(400, "a page's image is jpeg or png; the document's PDF is at /pdf") }
        let longestSide = try Self.longestSide(query["size"])
        let (page, source) = try await pageAndSource(pageID, of: id)
        let configuration = configuration
        let bytes = try await work { (deadline) throws(ServiceError) in
            let flat = try Processing.flatPage(
                page, source: source, enhance: enhance, longestSide: longestSide, limits: configuration, deadline: deadline)
            return try Processing.encoded(
                flat, enhancement: .none, as: format == .png ? .png : .jpeg, quality: 0.9, what: "encoding the page")
        }
        return Response(
            status: .ok, headers: [.contentType: format.contentType, .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// The page's photo as it was added; with `size` (the longer side, 64…8192), upright and no
    /// larger, as JPEG: what a browser that cannot read the photo's own format (TIFF) shows.
    func pageSource(_ request: Request, _ pageID: String, of id: String) async throws(ServiceError) -> Response {
        let longestSide = try Self.longestSide(Self.query(request)["size"])
        let (page, source) = try await pageAndSource(pageID, of: id)
        var bytes = source, contentType = page.contentType
        if let longestSide {
            let configuration = configuration
            bytes = try await work { (deadline) throws(ServiceError) in
                try Processing.photo(page, source: source, longestSide: longestSide, limits: configuration, deadline: deadline)
            }
            contentType = "image/jpeg"
        }
        return Response(
            status: .ok,
            headers: [
                .contentType: contentType, .xContentTypeOptions: "nosniff", .cacheControl: "private, max-age=3600",
                .contentSecurityPolicy: "default-src 'none'; sandbox",
            ],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// The `size` parameter: a longer side in pixels, 64…8192.
    static func longestSide(_ text: String?) throws(ServiceError) -> Int? {
        guard let text else { return nil }
        guard let size = Int(text), (64...8192).contains(size) else {
            throw ServiceError(400, "size must be the longer side in pixels, 64…8192, not '\(text.prefix(40))'")
        }
        return size
    }

    /// Every page, flattened with its own settings, in order, as one PDF; 422 for no pages.
    func documentPDF(_ id: String) async throws(ServiceError) -> Response {
        let (record, _) = try await readDocument(id)
        guard !record.pages.isEmpty else { throw ServiceError(422, "document \(id) has no pages, and a PDF cannot be empty") }
        var pages: [(page: DocumentRecord.Page, source: [UInt8])] = []
        for page in record.pages { pages.append((page, try await photo(of: page))) }
        let configuration = configuration, sources = pages
        let pdf = try await work { (deadline) throws(ServiceError) in
            try Processing.documentPDF(sources, limits: configuration, deadline: deadline)
        }
        metrics.framesProcessed(pages.count)
        return Response(
            status: .ok,
            headers: [
                .contentType: "application/pdf", .contentDisposition: "attachment; filename=\"document-\(id.prefix(8)).pdf\"",
            ],
            body: .init(byteBuffer: ByteBuffer(bytes: pdf)))
    }
}
