import CFocal

extension Frame {
    /// The quad's content mapped onto an upright `width × height` image: the perspective-corrected
    /// view of a document. `.yuv420` frames come out in BGR.
    public func rectified(_ quad: Quad, width: Int, height: Int) throws(FocalError) -> Frame {
        let source = format == .yuv420 ? try converted(to: .bgr8) : self
        var result = try Frame(uninitializedWidth: width, height: height, format: source.format)
        let corners = quad.corners.flatMap { [$0.x, $0.y] }
        try source.withShimImage { (from) throws(FocalError) in
            try result.withMutableShimImage { (to) throws(FocalError) in
                try check(cfocal_rectify_quad(&from, corners, &to), "rectify document")
            }
        }
        result.timestamp = timestamp
        return result
    }
}
