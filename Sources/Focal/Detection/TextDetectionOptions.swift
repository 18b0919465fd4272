/// How a ``Detector`` of type `.text` searches. The document options (aspect ratio, minimum size,
/// interior brightness) do not apply to text lines; these do.
public struct TextDetectionOptions: Sendable, Equatable {
    /// The network's input size for `accuracy: .high`: the long side, in pixels, that each page (or
    /// the frame, where there is no page) is scaled to. Raising it finds smaller text and separates
    /// lines set closer together, at a cost that grows with its square.
    public enum ModelInputSize: Int, Sendable, Codable, CaseIterable {
        /// 480 pixels: about twice as fast as `.standard`; for large print and signs (page text at
        /// 720p merges into paragraphs).
        case fast = 480
        /// 736 pixels, PP-OCR's own default; the most accurate on pages filmed at 720p.
        case standard = 736
        /// 1024 pixels: about twice `.standard`'s time; for stills where the page fills a large
        /// photo and text is small on it.
        case fine = 1024
    }

    /// Look for documents first and search for text on each page flattened by its quad, which
    /// brings slanted and foreshortened lines upright and lets boxes follow the page's perspective.
    /// Where no document is found, the whole frame is searched. Turn it off to search the frame as
    /// it is (text on signs, screens, packaging). Default on.
    public var searchesDocuments: Bool = true

    /// At most this many lines, the most contrasted first. Default 1,000.
    public var maximumLineCount: Int = 1000

    /// How far (gray levels, 0…255) strokes must be darker than the paper around them. Raising it
    /// ignores faint print, paper texture and noise; lowering it finds text in dim or washed-out
    /// frames. Default 20. Used by the fast engine and for sub-features.
    public var minimumContrast: Double = 20

    /// Gaps between characters closed to form a word, in character heights. Raising it merges
    /// words; lowering it splits letters of wide fonts apart. Default 0.6.
    public var maximumWordGap: Double = 0.6

    /// What one text feature is.
    public enum LineGrouping: String, Sendable, Codable, CaseIterable {
        /// A segment: words on one baseline, split where a wide gap separates them, as ICDAR,
        /// SROIE, PP-OCR and Apple's Vision report text. A receipt row "70549  1  160.00  160.00"
        /// is four features. At `.high` these are the network's own segments, split where their
        /// ink leaves a gap wider than ``maximumSegmentGap``; at `.low`, words chained across gaps
        /// of at most ``maximumSegmentGap``.
        case segments
        /// A row: segments on one baseline joined across gaps of at most ``maximumLineGap``, so
        /// that a receipt's item and its price stay one feature.
        case rows
    }

    /// Segments (the default, the convention benchmarks and other engines share) or rows.
    public var grouping: LineGrouping = .segments

    /// With `.segments`, gaps between words bridged within a segment, in character heights (at
    /// `.high`, heights of the segment's ink). Raising it joins columns set close together;
    /// lowering it splits words spaced widely. Default 1.5.
    public var maximumSegmentGap: Double = 1.5

    /// With `.rows`, gaps bridged within one row, in character heights. Raising it keeps an item
    /// and a price further apart on one row; lowering it splits columns set close together.
    /// Default 12.
    public var maximumLineGap: Double = 12

    /// The gap the classical engine chains words across, and the one the network's segments are
    /// joined across (0 keeps the network's own segments, joining only pieces that touch).
    var classicalGap: Double { grouping == .rows ? maximumLineGap : maximumSegmentGap }
    var modelGap: Double { grouping == .rows ? maximumLineGap : 0 }
    /// The gap the network's segments are split at (0: rows are not split).
    var modelSplitGap: Double { grouping == .rows ? 0 : maximumSegmentGap }

    /// The network's input size (see ``ModelInputSize``). Default `.standard`.
    public var modelInputSize: ModelInputSize = .standard

    /// The DB text model (`ppocr-v4-det.onnx`) for `accuracy: .high`; nil searches, in order,
    /// `$FOCAL_MODELS`, the models Focal ships as resources of the library, then
    /// `share/focal/models` under the program's prefix, `/usr/local` and `/usr`.
    public var modelPath: String? = nil

    /// Text options with their defaults; each parameter sets the property of the same name.
    public init(
        searchesDocuments: Bool = true, maximumLineCount: Int = 1000, minimumContrast: Double = 20,
        maximumWordGap: Double = 0.6, grouping: LineGrouping = .segments, maximumSegmentGap: Double = 1.5,
        maximumLineGap: Double = 12, modelInputSize: ModelInputSize = .standard, modelPath: String? = nil
    ) {
        self.grouping = grouping
        self.maximumSegmentGap = maximumSegmentGap
        self.searchesDocuments = searchesDocuments
        self.maximumLineCount = maximumLineCount
        self.minimumContrast = minimumContrast
        self.maximumWordGap = maximumWordGap
        self.maximumLineGap = maximumLineGap
        self.modelInputSize = modelInputSize
        self.modelPath = modelPath
    }

    func validated() throws(FocalError) -> TextDetectionOptions {
        func bad(_ what: String) -> FocalError {
            FocalError(.invalidArgument, operation: "configure text detector", reason: what)
        }
        guard maximumLineCount >= 1 else { throw bad("maximumLineCount must be at least 1") }
        guard (0...255).contains(minimumContrast) else { throw bad("minimumContrast must be 0…255 gray levels") }
        guard maximumWordGap >= 0, maximumLineGap >= 0, maximumSegmentGap >= 0 else { throw bad("gaps must not be negative") }
        return self
    }
}
