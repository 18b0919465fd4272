import Focal

/// The work behind a document's pages, run on the worker pool: reading a new page, and making a
/// page's flat image and the document's PDF.
extension Processing {
    /// A page from an uploaded photo: its size, and the corners given, else the detected page's,
    /// else the whole image's.
    static func newPage(
        _ upload: Upload, settings: PageSettings, limits: ServiceConfiguration, deadline: WorkerPool.Deadline
    ) throws(ServiceError) -> DocumentRecord.Page {
        let frame = try upload.decodedImage(maximumPixels: limits.maximumImagePixels)
        try checkpoint(deadline, limits)
        var quad = settings.corners
        let detected = quad == nil
        if quad == nil {
            do {
                let detector = try WorkerDetectors.detector(.rectangle, options: DetectorOptions(maximumFeatureCount: 1))
                quad = try detector.rectangles(in: frame).first.map { inside($0.quad, width: frame.width, height: frame.height) }
            } catch {
                throw ServiceError(processing: error, what: "finding the page")
            }
        }
        let whole = Quad(
            topLeft: .zero, topRight: Point(x: Double(frame.width), y: 0),
            bottomRight: Point(x: Double(frame.width), y: Double(frame.height)), bottomLeft: Point(x: 0, y: Double(frame.height)))
        return DocumentRecord.Page(
            id: "", width: frame.width, height: frame.height, bytes: upload.bytes.count,
            contentType: sourceType(of: upload),
            corners: try PageSettings.checked(quad ?? whole, width: frame.width, height: frame.height),
            detected: detected && quad != nil, enhance: settings.enhance ?? .color, rotation: settings.rotation ?? 0)
    }

    /// A quad moved onto the photo: the detector places a corner of a page that runs out of the
    /// frame where its sides meet, beyond the edge, and a page keeps what the photo shows.
    static func inside(_ quad: Quad, width: Int, height: Int) -> Quad {
        let c = quad.corners.map {
            Point(x: min(max($0.x, -0.5), Double(width) - 0.5), y: min(max($0.y, -0.5), Double(height) - 0.5))
        }
        return Quad(topLeft: c[0], topRight: c[1], bottomRight: c[2], bottomLeft: c[3])
    }

    /// What a page's photo is served as: its format as its own bytes say, never the type the
    /// client claimed (a file claiming `image/svg+xml` would run as a page of this origin).
    static func sourceType(of upload: Upload) -> String {
        switch ImageHeader(bytes: upload.bytes)?.format {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .webp: "image/webp"
        case .tiff: "image/tiff"
        case .bmp: "image/bmp"
        default: "application/octet-stream"
        }
    }

    /// A page flattened through its corners, turned and enhanced (`enhance` overrides the page's
    /// own); with `longestSide`, the source is shrunk first so the flat page's longer side is
    /// about that long, which keeps previews quick.
    static func flatPage(
        _ page: DocumentRecord.Page, source: [UInt8], enhance: ScanEnhancement? = nil, longestSide: Int? = nil,
        limits: ServiceConfiguration, deadline: WorkerPool.Deadline
    ) throws(ServiceError) -> Frame {
        let upload = Upload(name: "page \(page.id)", contentType: page.contentType, bytes: source)
        var frame = try upload.decodedImage(maximumPixels: limits.maximumImagePixels)
        try checkpoint(deadline, limits)
        var quad = page.quad
        let what = "flattening page \(page.id)"
        let bounds = quad.bounds
        if let longestSide, Double(longestSide) < max(bounds.width, bounds.height) {
            let scale = Double(longestSide) / max(bounds.width, bounds.height)
            do {
                frame = try frame.resized(
                    width: max(1, Int(Double(frame.width) * scale)), height: max(1, Int(Double(frame.height) * scale)))
            } catch { throw ServiceError(processing: error, what: what) }
            quad = Quad(
                topLeft: quad.topLeft * scale, topRight: quad.topRight * scale, bottomRight: quad.bottomRight * scale,
                bottomLeft: quad.bottomLeft * scale)
        }
        // The record allows a pixel of slack beyond the photo's edge, and a reduced photo's size is
        // rounded down: the corners are taken onto the photo.
        quad = inside(quad, width: frame.width, height: frame.height)
        var flat: Frame
        do { flat = try frame.flattened(through: quad) } catch { throw ServiceError(processing: error, what: what) }
        try checkpoint(deadline, limits)
        flat.orientation = [90: .right, 180: .down, 270: .left][page.rotation] ?? .up
        do { return try flat.oriented().enhanced(enhance ?? page.enhance) } catch {
            throw ServiceError(processing: error, what: what)
        }
    }

    /// A page's photo upright, its longer side at most `longestSide`, as JPEG.
    static func photo(
        _ page: DocumentRecord.Page, source: [UInt8], longestSide: Int, limits: ServiceConfiguration,
        deadline: WorkerPool.Deadline
    ) throws(ServiceError) -> [UInt8] {
        let upload = Upload(name: "page \(page.id)", contentType: page.contentType, bytes: source)
        let photo = try upload.decodedImage(maximumPixels: limits.maximumImagePixels)
        try checkpoint(deadline, limits)
        let shown: Frame
        do { shown = try photo.fitted(maxWidth: longestSide, maxHeight: longestSide) } catch {
            throw ServiceError(processing: error, what: "page \(page.id)'s photo")
        }
        return try encoded(shown, enhancement: .none, as: .jpeg, quality: 0.9, what: "encoding the photo")
    }

    /// Every page of a document flattened, in order, as one PDF.
    static func documentPDF(
        _ pages: [(page: DocumentRecord.Page, source: [UInt8])], limits: ServiceConfiguration, deadline: WorkerPool.Deadline
    ) throws(ServiceError) -> [UInt8] {
        var flatPages: [(jpeg: [UInt8], width: Int, height: Int)] = []
        for (page, source) in pages {
            let flat = try flatPage(page, source: source, limits: limits, deadline: deadline)
            let jpeg = try encoded(flat, enhancement: .none, as: .jpeg, quality: pdfQuality, what: "encoding page \(page.id)")
            flatPages.append((jpeg, flat.width, flat.height))
        }
        return try pdf(of: flatPages)
    }
}
