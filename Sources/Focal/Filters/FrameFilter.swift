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
                    _ = frame.withUnsafeMutableBytes(plane: plane) { $0.initializeMemory(as: UInt8.self, repeating: 128) }
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
        var canvas = try Frame(uninitializedWidth: width, height: height, format: format)
        try letterbox(into: &canvas, color: color)
        return canvas
    }

    /// Draws this frame letterboxed into canvas (of any size, in this frame's format), scaling
    /// straight into canvas's pixels: no intermediate frame, so a renderer can reuse one canvas.
    func letterbox(into canvas: inout Frame, color: Color = .black) throws(FocalError) {
        precondition(canvas.format == format, "letterbox: canvas is \(canvas.format), the frame \(format)")
        let scale = min(Double(canvas.width) / Double(width), Double(canvas.height) / Double(height))
        // Even sizes and offsets keep 4:2:0 chroma aligned.
        let fitWidth = min(canvas.width, max(2, Int((Double(width) * scale).rounded()) & ~1))
        let fitHeight = min(canvas.height, max(2, Int((Double(height) * scale).rounded()) & ~1))
        let x = ((canvas.width - fitWidth) / 2) & ~1, y = ((canvas.height - fitHeight) / 2) & ~1
        try canvas.fill(color)  // also makes canvas's pixels its own
        canvas.timestamp = timestamp
        canvas.orientation = orientation
        // A view of the picture's rectangle inside canvas; canvas is held exclusively (inout) and
        // unique, so writing through the view's planes writes canvas alone.
        let view = canvas.planes.enumerated().map { index, plane in
            let shift = index == 0 ? 0 : 1, bytes = index == 0 ? format.bytesPerPixel : 1
            let size = format.planeSize(index, width: fitWidth, height: fitHeight)
            return PlaneLayout(
                base: plane.base + (y >> shift) * plane.bytesPerRow + (x >> shift) * bytes,
                width: size.width, height: size.height, bytesPerRow: plane.bytesPerRow)
        }
        let picture = Frame(width: fitWidth, height: fitHeight, format: format, planes: view, storage: canvas.storage)
        try withShimImage { (source) throws(FocalError) in
            try picture.withShimImage { (destination) throws(FocalError) in
                let interpolation: Interpolation = scale < 1 ? .area : .linear
                try check(cfocal_image_resize(&source, &destination, interpolation.rawValue), "resize image")
            }
        }
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
