import Focal

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A document of a scan request: its scan from the library, and its flattened page enhanced and
/// encoded as JPEG.
struct ScannedDocument: Sendable {
    var scan: DocumentScan
    var jpeg: [UInt8]
    var width: Int
    var height: Int
}

struct DetectRequest: Sendable {
    var types: [FeatureType] = [.rectangle]
    var options = DetectorOptions(maximumFeatureCount: 1)

    init(textModelPath: String? = nil) { options.text.modelPath = textModelPath }

    init(query: [String: String], textModelPath: String?) throws(ServiceError) {
        self.init(textModelPath: textModelPath)
        if let list = query["types"] {
            // Read as the CLI reads --types; a type named twice counts once.
            do { types = try FeatureType.list(list) } catch { throw ServiceError(400, "types: \(error.reason)") }
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
    /// Throws the timeout's 503 once the deadline has passed (the client has had its answer by
    /// then; this only stops the work).
    static func checkpoint(_ deadline: WorkerPool.Deadline, _ limits: ServiceConfiguration) throws(ServiceError) {
        do { try deadline.checkpoint() } catch {
            throw ServiceError(503, "the request took longer than \(limits.requestTimeout) s", retryAfter: 5)
        }
    }

    /// The features of one image. Stops between detectors once the deadline has passed.
    static func detect(
        _ upload: Upload, request: DetectRequest, limits: ServiceConfiguration, deadline: WorkerPool.Deadline
    ) throws(ServiceError) -> DetectionReport {
        let frame = try upload.decodedImage(maximumPixels: limits.maximumImagePixels)
        var features: [AnyFeature] = []
        for type in request.types {
            try checkpoint(deadline, limits)
            do {
                features += try WorkerDetectors.detector(type, options: request.options).features(in: frame).map(AnyFeature.init)
            } catch {
                throw ServiceError(processing: error, what: "detection")
            }
        }
        return DetectionReport(
            source: upload.name, width: frame.width, height: frame.height,
            frames: features.isEmpty ? [] : [.init(index: 0, features: features)])
    }

    /// Corners as the API takes them: eight numbers, x,y of top-left, top-right, bottom-right,
    /// bottom-left, in the upright image's pixels.
    static func corners(_ text: String) throws(ServiceError) -> Quad {
        guard let quad = Quad(commaSeparated: text) else {
            throw ServiceError(
                400, "corners must be eight numbers, x1,y1,x2,y2,x3,y3,x4,y4 or [[x1,y1],…,[x4,y4]], not '\(text.prefix(200))'")
        }
        return quad
    }

    /// Every document of a scan request as one PDF, a page each in the order found; 422 when
    /// there is none, since a PDF cannot be empty.
    static func scanPDF(
        _ uploads: [Upload], enhancement: ScanEnhancement, limits: ServiceConfiguration, deadline: WorkerPool.Deadline
    ) throws(ServiceError) -> (pdf: [UInt8], frames: Int) {
        let (documents, frames) = try scan(
            uploads, enhancement: enhancement, quality: pdfQuality, limits: limits, deadline: deadline)
        guard !documents.isEmpty else {
            throw ServiceError(422, "no document was found in \(frames) frame(s), and a PDF cannot be empty")
        }
        return (try pdf(of: documents.map { ($0.jpeg, $0.width, $0.height) }), frames)
    }

    /// A PDF of JPEG pages, a page each, in order.
    static func pdf(of pages: [(jpeg: [UInt8], width: Int, height: Int)]) throws(ServiceError) -> [UInt8] {
        var pdf = ScanPDF(title: "Focal scan")
        for page in pages { pdf.append(jpeg: page.jpeg, width: page.width, height: page.height) }
        do { return try pdf.data() } catch { throw ServiceError(internal: error, what: "writing the PDF") }
    }

    /// JPEG quality of the pages of a PDF answer.
    static let pdfQuality = 0.85

    /// A flat scan enhanced and encoded in `format` (`quality` 0…1 for JPEG); a failure is `what`
    /// failing.
    static func encoded(
        _ flat: Frame, enhancement: ScanEnhancement, as format: ImageFormat, quality: Double = 0.92, what: String
    ) throws(ServiceError) -> [UInt8] {
        do {
            return try flat.enhanced(enhancement).encoded(as: format, quality: quality)
        } catch {
            throw ServiceError(processing: error, what: what)
        }
    }

    /// The `enhance` parameter: none (the default), color, gray or bw.
    static func enhancement(_ text: String?) throws(ServiceError) -> ScanEnhancement {
        guard let text else { return .none }
        guard let enhancement = ScanEnhancement(rawValue: text) else {
            throw ServiceError(400, "enhance must be none, color, gray or bw, not '\(text.prefix(40))'")
        }
        return enhancement
    }

    /// The page of one image flattened through the given corners and enhanced, as JPEG.
    static func flatten(
        _ upload: Upload, through quad: Quad, enhancement: ScanEnhancement, format: FlatFormat, limits: ServiceConfiguration,
        deadline: WorkerPool.Deadline
    ) throws(ServiceError) -> [UInt8] {
        let frame = try upload.decodedImage(maximumPixels: limits.maximumImagePixels)
        try checkpoint(deadline, limits)
        let flat: Frame
        do { flat = try frame.flattened(through: quad) } catch { throw ServiceError(processing: error, what: "the corners") }
        try checkpoint(deadline, limits)
        switch format {
        case .jpeg: return try encoded(flat, enhancement: enhancement, as: .jpeg, quality: 0.92, what: "enhancing the scan")
        case .png: return try encoded(flat, enhancement: enhancement, as: .png, what: "enhancing the scan")
        case .pdf:
            let page = try encoded(flat, enhancement: enhancement, as: .jpeg, quality: pdfQuality, what: "enhancing the scan")
            return try pdf(of: [(page, flat.width, flat.height)])
        }
    }

    /// What `/v1/flatten` answers in: `format=jpeg` (the default; `jpg` too), `png` or `pdf`.
    enum FlatFormat: String, Sendable {
        case jpeg, png, pdf

        var contentType: String {
            switch self {
            case .jpeg: "image/jpeg"
            case .png: "image/png"
            case .pdf: "application/pdf"
            }
        }

        init(_ text: String?) throws(ServiceError) {
            guard let text else {
                self = .jpeg
                return
            }
            guard let format = FlatFormat(rawValue: text == "jpg" ? "jpeg" : text) else {
                throw ServiceError(400, "format must be jpeg, png or pdf, not '\(text.prefix(40))'")
            }
            self = format
        }
    }

    /// Every frame of an uploaded video, read from memory as one of the containers the API
    /// documents and nothing else: a playlist or a concat list could otherwise make libav open the
    /// server's own files.
    static func readVideo(
        _ upload: Upload, limits: ServiceConfiguration, each: (Frame) throws(ServiceError) -> Void
    ) throws(ServiceError) {
        do {
            let reader = try VideoReader(bytes: upload.bytes, name: upload.name, maximumPixels: limits.maximumImagePixels)
            let (pixels, overflow) = reader.width.multipliedReportingOverflow(by: reader.height)
            guard !overflow, pixels <= limits.maximumImagePixels else {
                throw ServiceError(
                    413, "the video is \(reader.width)x\(reader.height), over the limit of \(limits.maximumImagePixels) pixels")
            }
            var frames = 0
            while let frame = try reader.read() {
                frames += 1
                try each(frame)
            }
            guard frames > 0 else { throw ServiceError(422, "'\(upload.name)' holds no frame that decodes") }
        } catch let error as ServiceError {
            throw error
        } catch let error as FocalError {
            // The reader's reasons name the upload themselves.
            throw ServiceError(processing: error, what: "the video")
        } catch {
            throw ServiceError(internal: error, what: "reading '\(upload.name)'")
        }
    }

    /// Documents through one photo, a burst of images or the frames of one video: a photo's as
    /// the library finds a photo's, a burst's and a video's tracked, each with its sharpest frame;
    /// each flattened, enhanced and encoded at `quality`, in the order first seen.
    /// Stops between frames once the deadline has passed.
    static func scan(
        _ uploads: [Upload], enhancement: ScanEnhancement, quality: Double, limits: ServiceConfiguration,
        deadline: WorkerPool.Deadline
    ) throws(ServiceError) -> (documents: [ScannedDocument], frames: Int) {
        let (scans, frames) = try findDocuments(uploads, limits: limits, deadline: deadline)
        var documents: [ScannedDocument] = []
        for scan in scans.sorted(by: DocumentScan.firstSeenFirst) {
            let flat: Frame
            do { flat = try scan.flattened() } catch { throw ServiceError(processing: error, what: "flattening a document") }
            let jpeg = try encoded(
                flat, enhancement: enhancement, as: .jpeg, quality: quality, what: "enhancing and encoding a scan")
            documents.append(ScannedDocument(scan: scan, jpeg: jpeg, width: flat.width, height: flat.height))
        }
        return (documents, frames)
    }

    /// The documents in the uploads, and the frames read.
    private static func findDocuments(
        _ uploads: [Upload], limits: ServiceConfiguration, deadline: WorkerPool.Deadline
    ) throws(ServiceError) -> (scans: [DocumentScan], frames: Int) {
        let isVideo = uploads.count == 1 && (uploads[0].isVideo || ImageHeader(bytes: uploads[0].bytes) == nil)
        if uploads.count == 1, !isVideo {
            let photo = try uploads[0].decodedImage(maximumPixels: limits.maximumImagePixels)
            try checkpoint(deadline, limits)
            do { return (try DocumentScanner.scans(inPhoto: photo), 1) } catch {
                throw ServiceError(processing: error, what: "the image")
            }
        }
        let scanner: DocumentScanner
        do { scanner = try DocumentScanner() } catch { throw ServiceError(processing: error, what: "scanner") }
        var scans: [DocumentScan] = []
        var count = 0
        func process(_ frame: Frame) throws(ServiceError) {
            count += 1
            guard count <= limits.maximumFrames else {
                throw ServiceError(413, "more than \(limits.maximumFrames) frames in one request")
            }
            try checkpoint(deadline, limits)
            do { scans += try scanner.process(frame).finished } catch {
                throw ServiceError(processing: error, what: "frame \(count - 1)")
            }
        }
        if isVideo {
            try readVideo(uploads[0], limits: limits, each: process)
        } else {
            for upload in uploads { try process(try upload.decodedImage(maximumPixels: limits.maximumImagePixels)) }
        }
        return (scans + scanner.finish(), count)
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
