import CFocal

/// Blur, noise and perspective warps: the operations synthetic test scenes and filters are made of.
extension Frame {
    /// A Gaussian blur with standard deviation sigma (pixels).
    public func gaussianBlurred(sigma: Double) throws(FocalError) -> Frame {
        try filtered("gaussian blur") { (source, destination) in cfocal_gaussian_blur(&source, &destination, sigma) }
    }

    /// A linear motion blur of `length` pixels in direction `angle` (degrees, 0 = along x).
    public func motionBlurred(length: Double, angle: Double) throws(FocalError) -> Frame {
        try filtered("motion blur") { (source, destination) in cfocal_motion_blur(&source, &destination, length, angle) }
    }

    /// Adds zero-mean Gaussian noise of standard deviation sigma (in 0…255 units), reproducible by seed.
    public mutating func addNoise(sigma: Double, seed: UInt64) throws(FocalError) {
        try withMutableShimImage { (image) throws(FocalError) in
            try check(cfocal_add_noise(&image, sigma, seed), "add noise")
        }
    }

    /// Draws `source` onto this frame through a homography from source pixels to this frame's pixels.
    /// Pixels outside the warped source keep their content; edges are anti-aliased.
    public mutating func composite(_ source: Frame, through homography: Homography) throws(FocalError) {
        let matchingSource = source.format == format ? source : try source.converted(to: format)
        let matrix = homography.matrix
        try matchingSource.withShimImage { (from) throws(FocalError) in
            try withMutableShimImage { (to) throws(FocalError) in
                try check(cfocal_warp_perspective(&from, matrix, &to, 1), "warp perspective")
            }
        }
    }

    private func filtered(_ operation: String, _ body: (inout cfocal_image, inout cfocal_image) -> cfocal_status)
        throws(FocalError) -> Frame
    {
        var result = try Frame(uninitializedWidth: width, height: height, format: format)
        result.timestamp = timestamp
        result.orientation = orientation
        try withShimImage { (source) throws(FocalError) in
            try result.withMutableShimImage { (destination) throws(FocalError) in
                try check(body(&source, &destination), operation)
            }
        }
        return result
    }
}
