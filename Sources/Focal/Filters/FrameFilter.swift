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
        try canvas.paste(fitted, x: ((width - fitWidth) / 2) & ~1, y: ((height - fitHeight) / 2) & ~1)
        return canvas
    }
}

extension Frame {
    /// Copies image into this frame with its top-left corner at (x, y), pixel for pixel (converted
    /// to this frame's format first if need be); the parts outside this frame are left out. For
    /// `.yuv420`, x and y are rounded down to even numbers so that chroma stays aligned.
    public mutating func paste(_ image: Frame, x: Int, y: Int) throws(FocalError) {
        let source = image.format == format ? image : try image.converted(to: format)
        makeUnique()  // before reading planes: a copy has its own rows and strides
        let x0 = format == .yuv420 ? x & ~1 : x, y0 = format == .yuv420 ? y & ~1 : y
        for plane in 0..<format.planeCount {
            let shift = plane == 0 ? 0 : 1, bytes = plane == 0 ? format.bytesPerPixel : 1
            let from = source.planes[plane], into = planes[plane]  // planes of the unique storage
            let left = max(0, x0 >> shift), top = max(0, y0 >> shift)
            let skipX = left - (x0 >> shift), skipY = top - (y0 >> shift)
            let columns = min(from.width - skipX, into.width - left), rows = min(from.height - skipY, into.height - top)
            guard columns > 0, rows > 0 else { continue }
            withExtendedLifetime((storage, source.storage)) {
                for row in 0..<rows {
                    (into.base + (top + row) * into.bytesPerRow + left * bytes)
                        .copyMemory(
                            from: from.base + (skipY + row) * from.bytesPerRow + skipX * bytes, byteCount: columns * bytes)
                }
            }
        }
    }
}
