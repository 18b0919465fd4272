import Focal

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The answer to `POST /v1/scan`.
struct ScanResponse: Encodable, Sendable {
    struct Document: Encodable, Sendable {
        var trackID: Int
        var firstFrame: Int
        var lastFrame: Int
        var bestFrame: Int
        var sharpness: Double
        /// The document's corners in the best frame: top-left, top-right, bottom-right, bottom-left.
        var corners: [[Double]]
        var scan: Scan
    }
    struct Scan: Encodable, Sendable {
        var width: Int
        var height: Int
        var contentType = "image/jpeg"
        var url: String?
        var base64: String?
    }
    var frames: Int
    var documents: [Document]
}

struct DetectRequest: Sendable {
    var types: [FeatureType] = [.rectangle]
    var options = DetectorOptions(maximumFeatureCount: 1)

    init(query: [String: String]) throws(ServiceError) {
        if let list = query["types"] {
            var parsed: [FeatureType] = []
            for name in list.split(separator: ",") {
                guard let type = FeatureType(rawValue: name.trimmed.lowercased()) else {
                    throw ServiceError(400, "unknown feature type '\(name)': use rectangle, text, face or qr")
                }
                parsed.append(type)
            }
            guard !parsed.isEmpty else { throw ServiceError(400, "types is empty") }
            types = parsed
        }
        if let accuracy = query["accuracy"] {
            guard let value = DetectorOptions.Accuracy(rawValue: accuracy.lowercased()) else {
                throw ServiceError(400, "accuracy must be low or high, not '\(accuracy)'")
            }
            options.accuracy = value
        }
        if let count = query["maxFeatures"] {
            guard let value = Int(count), (1...50).contains(value) else { throw ServiceError(400, "maxFeatures must be 1…50") }
            options.maximumFeatureCount = value
        }
    }
}

enum Processing {
    static func detect(_ upload: Upload, request: DetectRequest, limits: ServiceConfiguration) throws(ServiceError)
        -> DetectionReport
    {
        let frame = try upload.decodedImage(maximumPixels: limits.maximumImagePixels)
        var features: [AnyFeature] = []
        do {
            for type in request.types {
                features += try Detector(type: type, options: request.options).features(in: frame).map(AnyFeature.init)
            }
        } catch {
            throw ServiceError(processing: error, what: "detection")
        }
        return DetectionReport(
            source: upload.name, width: frame.width, height: frame.height,
            frames: features.isEmpty ? [] : [.init(index: 0, features: features)])
    }

    /// Documents through a burst of images or the frames of one video: tracked, each with its
    /// sharpest frame, flattened.
    static func scan(
        _ uploads: [Upload], limits: ServiceConfiguration, deadline: Double,
        keep: (Frame) throws(ServiceError) -> ScanResponse.Scan
    ) throws(ServiceError) -> (response: ScanResponse, frames: Int) {
        let scanner: DocumentScanner
        do { scanner = try DocumentScanner() } catch { throw ServiceError(processing: error, what: "scanner") }
        var scans: [DocumentScan] = []
        var count = 0
        func process(_ frame: Frame) throws(ServiceError) {
            count += 1
            guard count <= limits.maximumFrames else {
                throw ServiceError(413, "more than \(limits.maximumFrames) frames in one request")
            }
            guard MonotonicClock.now() < deadline else {
                throw ServiceError(503, "the scan took longer than \(Int(limits.requestTimeout)) s", retryAfter: 5)
            }
            do { scans += try scanner.process(frame).finished } catch {
                throw ServiceError(processing: error, what: "frame \(count - 1)")
            }
        }
        if uploads.count == 1, uploads[0].isVideo || ImageHeader(bytes: uploads[0].bytes) == nil {
            let upload = uploads[0]
            let folder = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
            let path = folder + "/focal-serve-\(UInt64.random(in: 0...UInt64.max)).video"
            do {
                try Data(upload.bytes).write(to: URL(fileURLWithPath: path))
            } catch {
                throw ServiceError(500, "cannot store the upload: \(error)")
            }
            defer { try? FileManager.default.removeItem(atPath: path) }
            do {
                let reader = try VideoReader(path: path)
                guard reader.width * reader.height <= limits.maximumImagePixels else {
                    throw ServiceError(
                        413,
                        "the video is \(reader.width)x\(reader.height), over the limit of \(limits.maximumImagePixels) pixels")
                }
                while let frame = try reader.read() { try process(frame) }
            } catch let error as ServiceError {
                throw error
            } catch let error as FocalError {
                throw ServiceError(processing: error, what: "'\(upload.name)'")
            } catch {
                throw ServiceError(500, "\(error)")
            }
        } else {
            for upload in uploads { try process(try upload.decodedImage(maximumPixels: limits.maximumImagePixels)) }
        }
        scans += scanner.finish()
        var documents: [ScanResponse.Document] = []
        for scan in scans.sorted(by: { $0.trackingID < $1.trackingID }) {
            let flat: Frame
            do { flat = try scan.flattened() } catch { throw ServiceError(processing: error, what: "flattening a document") }
            documents.append(
                .init(
                    trackID: scan.trackingID, firstFrame: scan.firstFrame, lastFrame: scan.lastFrame, bestFrame: scan.bestFrame,
                    sharpness: scan.sharpness.variance, corners: scan.quad.corners.map { [$0.x, $0.y] }, scan: try keep(flat)))
        }
        return (ScanResponse(frames: count, documents: documents), count)
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
