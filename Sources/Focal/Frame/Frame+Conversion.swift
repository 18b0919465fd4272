import CFocal

extension Frame {
    /// This frame in another pixel format. Gray from ``PixelFormat/yuv420`` is its luma stretched
    /// from video range to 0…255; ``lumaPlane`` gives the luma as stored, without a copy.
    public func converted(to target: PixelFormat) throws(FocalError) -> Frame {
        if target == format { return self }
        var result = try Frame(uninitializedWidth: width, height: height, format: target)
        result.timestamp = timestamp
        result.orientation = orientation
        try withShimImage { (source) throws(FocalError) in
            try result.withMutableShimImage { (destination) throws(FocalError) in
                try check(cfocal_image_convert(&source, &destination), "convert \(format) to \(target)")
            }
        }
        return result
    }

    /// How ``resized(width:height:interpolation:)`` computes new pixels.
    public enum Interpolation: Int32, Sendable {
        /// The nearest pixel: fastest, blocky.
        case nearest = 0
        /// Bilinear: fast, fine for enlarging a little.
        case linear = 1
        /// Pixel-area averaging: the right choice for shrinking, free of aliasing.
        case area = 2
        /// Bicubic: sharper enlargement.
        case cubic = 3
    }

    /// This frame scaled to the given size (aspect ratio not kept).
    public func resized(width newWidth: Int, height newHeight: Int, interpolation: Interpolation = .area) throws(FocalError)
        -> Frame
    {
        if newWidth == width, newHeight == height { return self }
        var result = try Frame(uninitializedWidth: newWidth, height: newHeight, format: format)
        result.timestamp = timestamp
        result.orientation = orientation
        try withShimImage { (source) throws(FocalError) in
            try result.withMutableShimImage { (destination) throws(FocalError) in
                try check(cfocal_image_resize(&source, &destination, interpolation.rawValue), "resize image")
            }
        }
        return result
    }

    /// This frame scaled down, keeping its aspect ratio, so that it fits in maxWidth × maxHeight;
    /// itself if it already fits.
    public func fitted(maxWidth: Int, maxHeight: Int) throws(FocalError) -> Frame {
        guard width > maxWidth || height > maxHeight else { return self }
        let scale = min(Double(maxWidth) / Double(width), Double(maxHeight) / Double(height))
        return try resized(
            width: max(1, Int((Double(width) * scale).rounded())),
            height: max(1, Int((Double(height) * scale).rounded())))
    }

    /// The frame as it should be shown: its ``orientation`` applied to the pixels, and `.up`.
    public func oriented() throws(FocalError) -> Frame {
        if orientation == .up { return self }
        let swaps = orientation.swapsDimensions
        var result = try Frame(uninitializedWidth: swaps ? height : width, height: swaps ? width : height, format: format)
        result.timestamp = timestamp
        try withShimImage { (source) throws(FocalError) in
            try result.withMutableShimImage { (destination) throws(FocalError) in
                try check(cfocal_image_orient(&source, Int32(orientation.rawValue), &destination), "orient image")
            }
        }
        return result
    }

    /// Fills the frame with one colour (opacity ignored).
    public mutating func fill(_ color: Color) throws(FocalError) {
        try withMutableShimImage { (image) throws(FocalError) in
            try check(cfocal_fill(&image, color.shim), "fill frame")
        }
    }
}
