import CFocal

/// How a flat scan is cleaned up, as a scanner app's filter choice: the paper's illumination
/// (shading, a cast shadow, a lamp's colour) is estimated and divided out before anything else.
public enum ScanEnhancement: String, CaseIterable, Sendable, Codable {
    /// The scan as the camera saw it.
    case none
    /// Colour kept, shading and shadows removed, the paper whitened without clipping the ink.
    case color
    /// As `color`, in greyscale.
    case gray
    /// Black ink on white paper, thresholded against the paper's own noise, so that faint pencil
    /// and small print survive. The smallest files, and what fax-like archives and OCR want.
    case blackAndWhite = "bw"
}

extension Frame {
    /// This flat scan cleaned up: see ``ScanEnhancement``. `.color` gives BGR, `.gray` and
    /// `.blackAndWhite` one channel; `.none` returns the frame as it is.
    ///
    /// Meant for flat pages (``flattened(through:)``, ``DocumentScan/flattened()``), where paper
    /// fills most of the image: large areas of flat colour (a photo, a filled chart) are taken for
    /// paper in shadow and come out lighter.
    public func enhanced(_ enhancement: ScanEnhancement) throws(FocalError) -> Frame {
        let mode: Int32
        switch enhancement {
        case .none: return self
        case .color: mode = Int32(CFOCAL_ENHANCE_COLOR)
        case .gray: mode = Int32(CFOCAL_ENHANCE_GRAY)
        case .blackAndWhite: mode = Int32(CFOCAL_ENHANCE_BLACK_AND_WHITE)
        }
        let source = format == .yuv420 ? try converted(to: .bgr8) : self
        var result = try Frame(uninitializedWidth: width, height: height, format: enhancement == .color ? .bgr8 : .gray8)
        result.timestamp = timestamp
        result.orientation = orientation
        try source.withShimImage { (input) throws(FocalError) in
            try result.withMutableShimImage { (output) throws(FocalError) in
                try check(cfocal_enhance_scan(&input, mode, &output), "enhance the scan (\(enhancement.rawValue))")
            }
        }
        return result
    }
}
