import Focal
import MultipartKit
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
        guard let contentType, !contentType.isEmpty else {
            throw ServiceError(
                415, "the request has no Content-Type: send image/jpeg, image/png, video/mp4 or multipart/form-data")
        }
        guard body.readableBytes > 0 else { throw ServiceError(400, "the request body is empty") }
        let type = contentType.split(separator: ";").first.map { $0.trimmed.lowercased() } ?? ""
        if type == "multipart/form-data" {
            return try multipart(body: body, contentType: contentType)
        }
        guard type.hasPrefix("image/") || type.hasPrefix("video/") || type == "application/octet-stream" else {
            throw ServiceError(
                415,
                "unsupported Content-Type '\(type)': send image/jpeg, image/png, image/webp, video/mp4 or multipart/form-data")
        }
        return [Upload(name: "body", contentType: type, bytes: Array(buffer: body))]
    }

    private static func multipart(body: ByteBuffer, contentType: String) throws(ServiceError) -> [Upload] {
        let parameters = contentType.split(separator: ";").dropFirst().map { $0.trimmed }
        guard let boundaryParameter = parameters.first(where: { $0.lowercased().hasPrefix("boundary=") }) else {
            throw ServiceError(400, "multipart/form-data without a boundary parameter")
        }
        var boundary = String(boundaryParameter.dropFirst("boundary=".count))
        if boundary.hasPrefix("\""), boundary.hasSuffix("\""), boundary.count >= 2 {
            boundary = String(boundary.dropFirst().dropLast())
        }
        guard !boundary.isEmpty, boundary.count <= 70 else {
            throw ServiceError(400, "the multipart boundary is empty or too long")
        }

        final class Collector {
            var parts: [Upload] = []
            var headers: [String: String] = [:]
            var bytes: [UInt8] = []
        }
        let collector = Collector()
        let parser = MultipartParser(boundary: boundary)
        parser.onHeader = { name, value in collector.headers[name.lowercased()] = value }
        parser.onBody = { buffer in collector.bytes += buffer.readBytes(length: buffer.readableBytes) ?? [] }
        parser.onPartComplete = {
            let disposition = collector.headers["content-disposition"] ?? ""
            let name = Self.parameter("filename", in: disposition) ?? Self.parameter("name", in: disposition) ?? "part"
            let type =
                collector.headers["content-type"]?.split(separator: ";").first.map { $0.trimmed.lowercased() }
                ?? "application/octet-stream"
            collector.parts.append(Upload(name: name, contentType: type, bytes: collector.bytes))
            collector.headers = [:]
            collector.bytes = []
        }
        do {
            try parser.execute(body)
        } catch {
            throw ServiceError(400, "the multipart body is malformed")
        }
        let files = collector.parts.filter { !$0.bytes.isEmpty }
        guard !files.isEmpty else {
            throw ServiceError(400, "the multipart body holds no file (or its closing boundary is missing)")
        }
        return files
    }

    private static func parameter(_ key: String, in header: String) -> String? {
        for piece in header.split(separator: ";").map({ $0.trimmed }) where piece.lowercased().hasPrefix(key + "=") {
            var value = String(piece.dropFirst(key.count + 1))
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            return value
        }
        return nil
    }

    /// Decodes an image after checking its header against the pixel limit: a decompression bomb
    /// is refused before a byte of it is decoded.
    func decodedImage(maximumPixels: Int) throws(ServiceError) -> Frame {
        guard let header = ImageHeader(bytes: bytes) else {
            throw ServiceError(
                isVideo ? 415 : 422, "'\(name)' is not a JPEG, PNG, WebP, TIFF or BMP image (or its header is truncated)")
        }
        guard header.width > 0, header.height > 0 else { throw ServiceError(422, "'\(name)' claims an empty image") }
        guard header.width * header.height <= maximumPixels else {
            throw ServiceError(
                413, "'\(name)' is \(header.width)x\(header.height), over the limit of \(maximumPixels) pixels")
        }
        do {
            return try Frame(decoding: bytes).oriented()
        } catch {
            throw ServiceError(processing: error, what: "'\(name)'")
        }
    }
}

extension Substring {
    var trimmed: String { String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()) }
}
