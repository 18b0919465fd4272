import Focal
import NIOCore

/// One uploaded file: its bytes and the content type it came with.
struct Upload: Sendable {
    var name: String
    var contentType: String
    var bytes: [UInt8]

    var isVideo: Bool { contentType.hasPrefix("video/") }

    /// Parses a request body: a raw image or video with its content type, or multipart/form-data
    /// with one file per part.
    static func parse(body: ByteBuffer, contentType: String?) throws(ServiceError) -> [Upload] {
        try parseForm(body: body, contentType: contentType).files
    }

    /// As ``parse(body:contentType:)``, with a multipart form's plain fields (`-F corners=…`) by
    /// name as well.
    static func parseForm(body: ByteBuffer, contentType: String?) throws(ServiceError) -> (
        files: [Upload], fields: [String: String]
    ) {
        guard let contentType, !contentType.isEmpty else {
            throw ServiceError(
                415, "the request has no Content-Type: send image/jpeg, image/png, video/mp4 or multipart/form-data")
        }
        guard body.readableBytes > 0 else { throw ServiceError(400, "the request body is empty") }
        let type = contentType.split(separator: ";").first.map { $0.trimmingSpaces.lowercased() } ?? ""
        if type == "multipart/form-data" {
            return try multipart(body: body, contentType: contentType)
        }
        guard type.hasPrefix("image/") || type.hasPrefix("video/") || type == "application/octet-stream" else {
            throw ServiceError(
                415,
                "unsupported Content-Type '\(type)': send image/jpeg, image/png, image/webp, video/mp4 or multipart/form-data")
        }
        return ([Upload(name: "body", contentType: type, bytes: Array(buffer: body))], [:])
    }

    private static func multipart(body: ByteBuffer, contentType: String) throws(ServiceError) -> (
        files: [Upload], fields: [String: String]
    ) {
        let form: MultipartFormData
        do {
            let boundary = try MultipartFormData.boundary(ofContentType: contentType)
            form = try body.withUnsafeReadableBytes { (bytes) throws(MultipartFormData.Malformed) in
                try MultipartFormData(parsing: bytes, boundary: boundary)
            }
        } catch {
            throw ServiceError(400, "the multipart body is malformed: \(error)")
        }
        // A file is a part with a file name or a content type of its own; plain form fields
        // (`-F note=hello`) are not uploads.
        func isFile(_ part: MultipartFormData.Part) -> Bool {
            part.disposition("filename") != nil || part.headers["content-type"].map { !$0.hasPrefix("text/plain") } == true
        }
        var fields: [String: String] = [:]
        for part in form.parts where !isFile(part) {
            if let name = part.disposition("name"), part.body.count <= 4096 {
                fields[name] = String(decoding: part.body, as: UTF8.self)
            }
        }
        let files = form.parts.filter { !$0.body.isEmpty && isFile($0) }.map { part in
            Upload(
                name: part.disposition("filename") ?? part.disposition("name") ?? "part",
                contentType: part.headers["content-type"]?.split(separator: ";").first.map { $0.trimmingSpaces.lowercased() }
                    ?? "application/octet-stream",
                bytes: part.body)
        }
        guard !files.isEmpty else { throw ServiceError(400, "the multipart body holds no file") }
        return (files, fields)
    }

    /// The image's header, checked against the pixel limit: a decompression bomb is refused
    /// before a byte of it is decoded.
    func checkedHeader(maximumPixels: Int) throws(ServiceError) -> ImageHeader {
        guard let header = ImageHeader(bytes: bytes) else {
            throw ServiceError(
                isVideo ? 415 : 422, "'\(name)' is not a JPEG, PNG, WebP, TIFF or BMP image (or its header is truncated)")
        }
        guard header.width > 0, header.height > 0 else { throw ServiceError(422, "'\(name)' claims an empty image") }
        guard header.pixelCount <= maximumPixels else {
            throw ServiceError(
                413, "'\(name)' is \(header.width)x\(header.height), over the limit of \(maximumPixels) pixels")
        }
        return header
    }

    /// Decodes an image after checking its header against the pixel limit.
    func decodedImage(maximumPixels: Int) throws(ServiceError) -> Frame {
        _ = try checkedHeader(maximumPixels: maximumPixels)
        do {
            return try Frame(decoding: bytes).oriented()
        } catch {
            throw ServiceError(processing: error, what: "'\(name)'")
        }
    }
}
