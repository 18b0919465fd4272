import CFocal

#if canImport(Glibc)
    import Glibc
#endif

/// A PDF of flat scans, one page per scan in the order they were added, as a scanner app exports
/// them. Each page has the scan's own proportions, snapped to A4 or US Letter when within 2 % of
/// one; the scan is embedded as a JPEG at ``jpegQuality`` and fills its page. Written with libHaru.
public struct ScanPDF: Sendable {
    /// The document's title, shown by PDF readers in place of the file name.
    public var title: String
    /// When the document was made, in seconds since 1970 (UTC); written as its creation date.
    public var creationDate: Int64
    /// JPEG quality (0…1) of the embedded pages: raising it gives sharper text and larger files.
    public var jpegQuality: Double = 0.85
    /// The pages so far: each scan's JPEG and page size.
    public private(set) var pages: [(jpeg: [UInt8], size: PageSize)] = []

    /// An empty document; `creationDate` defaults to now.
    public init(title: String, creationDate: Int64? = nil) {
        self.title = title
        self.creationDate = creationDate ?? Int64(time(nil))
    }

    /// A page size in PDF points (1/72 inch).
    public struct PageSize: Sendable, Equatable, CustomStringConvertible {
        /// Width in points (1/72 inch).
        public var width: Double
        /// Height in points.
        public var height: Double
        /// "A4", "US Letter" (either way round), or nil for a size of the scan's own proportions.
        public var name: String?

        /// ISO A4, 210 × 297 mm.
        public static let a4 = PageSize(width: 595.276, height: 841.89, name: "A4")
        /// US Letter, 8.5 × 11 inches.
        public static let usLetter = PageSize(width: 612, height: 792, name: "US Letter")
        /// How close, as a ratio, a scan's proportions must be to a standard size to be given it.
        public static let snapTolerance = 0.02

        /// A page of `width` × `height` points, named `name` where it is a standard size.
        public init(width: Double, height: Double, name: String? = nil) {
            self.width = width
            self.height = height
            self.name = name
        }

        /// The page for a scan of `width × height` pixels: A4 or US Letter (portrait or landscape)
        /// when the proportions are within ``snapTolerance`` of one, otherwise the scan's own
        /// proportions with the longer side as long as A4's (the scan's real size is unknown).
        public static func fitting(width: Int, height: Int) -> PageSize {
            let landscape = width > height
            let aspect = Double(min(width, height)) / Double(max(width, height))
            for standard in [a4, usLetter] {
                let standardAspect = standard.width / standard.height
                if abs(aspect / standardAspect - 1) <= snapTolerance {
                    return landscape ? PageSize(width: standard.height, height: standard.width, name: standard.name) : standard
                }
            }
            let long = a4.height, short = long * aspect
            return landscape ? PageSize(width: long, height: short) : PageSize(width: short, height: long)
        }

        public var description: String {
            let size = "\(Int(width.rounded())) × \(Int(height.rounded())) pt"
            return name.map { "\($0) (\(size))" } ?? size
        }
    }

    /// Adds `scan` as the next page, on `size` or the size that fits its proportions.
    public mutating func append(_ scan: Frame, size: PageSize? = nil) throws(FocalError) {
        let page = scan.format == .gray8 || scan.format == .bgr8 ? scan : try scan.converted(to: .bgr8)
        pages.append(
            (try page.encoded(as: .jpeg, quality: jpegQuality), size ?? .fitting(width: scan.width, height: scan.height)))
    }

    /// Adds a scan already encoded as JPEG (of `width × height` pixels) as the next page, embedded
    /// as it is.
    public mutating func append(jpeg: [UInt8], width: Int, height: Int, size: PageSize? = nil) {
        pages.append((jpeg, size ?? .fitting(width: width, height: height)))
    }

    /// The PDF's bytes.
    public func data() throws(FocalError) -> [UInt8] {
        guard !pages.isEmpty else {
            throw FocalError(.invalidArgument, operation: "write a PDF", reason: "it has no pages (no document was found)")
        }
        var document: OpaquePointer?
        try check(cfocal_pdf_create(title, creationDate, &document), "write a PDF")
        guard let document else { throw FocalError(.internal, operation: "write a PDF", reason: "no document returned") }
        defer { cfocal_pdf_free(document) }
        for (index, page) in pages.enumerated() {
            try page.jpeg.withUnsafeBufferPointer { (jpeg) throws(FocalError) in
                try check(
                    cfocal_pdf_add_jpeg_page(document, jpeg.baseAddress, jpeg.count, page.size.width, page.size.height),
                    "write page \(index + 1) of a PDF")
            }
        }
        var bytes: OpaquePointer?
        try check(cfocal_pdf_save(document, &bytes), "write a PDF")
        guard let bytes else { throw FocalError(.internal, operation: "write a PDF", reason: "no bytes returned") }
        defer { cfocal_bytes_free(bytes) }
        return Array(UnsafeBufferPointer(start: cfocal_bytes_data(bytes), count: cfocal_bytes_count(bytes)))
    }

    /// Writes the PDF through a temporary file renamed into place, so that a failure never leaves
    /// half a document at `path`.
    public func write(to path: String) throws(FocalError) {
        do {
            try FileAccess.writeAtomically(try data(), to: path, operation: "write a PDF")
        } catch {
            throw error.about(path)
        }
    }
}
