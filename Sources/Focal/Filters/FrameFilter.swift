import CFocal

/// Filters applied to each frame before anything is drawn on it, like the viewfinder filters of
/// Apple's camera samples. They work on every pixel format (4:2:0 video included).
public enum FrameFilter: Sendable, Hashable {
    /// Blocks of `block` × `block` pixels take their mean colour.
    case pixellate(block: Int)
    /// Colour removed (for 4:2:0 frames by neutral chroma, at no cost).
    case grayscale
    /// Shadows and uneven light evened out (adaptive histogram equalisation of the luma) and text
    /// crisped with a light unsharp mask.
    case documentEnhance

    /// Parses "pixellate", "pixellate=12", "grayscale" or "document-enhance".
    public init?(argument: String) {
        let parts = argument.lowercased().split(separator: "=", maxSplits: 1).map(String.init)
        switch parts.first {
        case "pixellate", "pixelate":
            let block = parts.count > 1 ? Int(parts[1]) : 16
            guard let block, block >= 2 else { return nil }
            self = .pixellate(block: block)
        case "grayscale", "greyscale", "mono": self = .grayscale
        case "document-enhance", "enhance": self = .documentEnhance
        default: return nil
        }
    }

    /// Applies the filter in place.
    public func apply(to frame: inout Frame) throws(FocalError) {
        switch self {
        case .pixellate(let block):
            try frame.withMutableShimImage { (image) throws(FocalError) in
                try check(cfocal_pixellate(&image, Int32(block)), "pixellate")
            }
        case .grayscale:
            if frame.format == .yuv420 {
                for plane in 1...2 {
                    frame.withUnsafeMutableBytes(plane: plane) { $0.initializeMemory(as: UInt8.self, repeating: 128) }
                }
            } else if frame.format != .gray8 {
                frame = try frame.converted(to: .gray8).converted(to: frame.format)
            }
        case .documentEnhance:
            try frame.withMutableShimImage { (image) throws(FocalError) in
                try check(cfocal_enhance_document(&image), "enhance document")
            }
        }
    }
}

extension Frame {
    /// This frame scaled to fit inside `width × height` with its aspect ratio kept and the rest
    /// filled with colour (letterbox or pillarbox), as AVMakeRect places a picture.
    public func letterboxed(width: Int, height: Int, color: Color = .black) throws(FocalError) -> Frame {
        if width == self.width && height == self.height { return self }
        let scale = min(Double(width) / Double(self.width), Double(height) / Double(self.height))
        // Even sizes and offsets keep 4:2:0 chroma aligned.
        let fitWidth = min(width, max(2, Int((Double(self.width) * scale).rounded()) & ~1))
        let fitHeight = min(height, max(2, Int((Double(self.height) * scale).rounded()) & ~1))
        let fitted = try resized(width: fitWidth, height: fitHeight, interpolation: scale < 1 ? .area : .linear)
        var canvas = try Frame(width: width, height: height, format: format, color: color)
        canvas.timestamp = timestamp
        let x0 = ((width - fitWidth) / 2) & ~1, y0 = ((height - fitHeight) / 2) & ~1
        for plane in 0..<format.planeCount {
            let shift = plane == 0 ? 0 : 1
            let rowBytes = fitted.planes[plane].width * (plane == 0 ? format.bytesPerPixel : 1)
            let offsetX = (x0 >> shift) * (plane == 0 ? format.bytesPerPixel : 1), offsetY = y0 >> shift
            let source = fitted.planes[plane], sourceRows = source.height
            let stride = canvas.bytesPerRow(plane: plane)
            canvas.withUnsafeMutableBytes(plane: plane) { target in
                withExtendedLifetime(fitted.storage) {
                    for row in 0..<sourceRows {
                        (target.baseAddress! + (offsetY + row) * stride + offsetX)
                            .copyMemory(from: source.base + row * source.bytesPerRow, byteCount: rowBytes)
                    }
                }
            }
        }
        return canvas
    }
}
