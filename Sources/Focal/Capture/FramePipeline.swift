/// What happens to each frame between the sensor and the consumer, in this order: mirroring and
/// orientation (as set on an AVCaptureConnection), the filters on the sensor-sized frame, and
/// last the geometric fit to an output size (letterboxed, as AVMakeRect places a picture).
public struct FramePipeline: Sendable, Hashable {
    /// Turns the frame upright: `.right` for a camera mounted a quarter turn clockwise.
    public var orientation: Orientation = .up
    /// Mirrors left to right, as a front camera's preview is.
    public var mirrored: Bool = false
    /// Applied in order, at the sensor's resolution.
    public var filters: [FrameFilter] = []
    /// Fits the result into this size, keeping the aspect ratio; nil keeps the size.
    public var fitSize: (width: Int, height: Int)? {
        get { fit.map { ($0.width, $0.height) } }
        set { fit = newValue.map { Size(width: $0.width, height: $0.height) } }
    }
    private var fit: Size?

    private struct Size: Sendable, Hashable {
        var width: Int
        var height: Int
    }

    /// A pipeline that turns frames by `orientation`, mirrors them if asked, applies `filters` in order, and fits them into `fitSize` (letterboxed), in that order.
    public init(
        orientation: Orientation = .up, mirrored: Bool = false, filters: [FrameFilter] = [],
        fitSize: (width: Int, height: Int)? = nil
    ) {
        self.orientation = orientation
        self.mirrored = mirrored
        self.filters = filters
        self.fitSize = fitSize
    }

    /// The frame after every step of the pipeline.
    public func apply(to frame: Frame) throws(FocalError) -> Frame {
        var result = frame
        if mirrored {
            result.orientation = .upMirrored
            result = try result.oriented()
        }
        if orientation != .up {
            result.orientation = orientation
            result = try result.oriented()
        }
        for filter in filters { try filter.apply(to: &result) }
        if let fit { result = try result.letterboxed(width: fit.width, height: fit.height) }
        return result
    }

    /// The size frames come out at, for a sensor of the given size.
    public func outputSize(width: Int, height: Int) -> (width: Int, height: Int) {
        if let fit { return (fit.width, fit.height) }
        let turned = [Orientation.right, .left, .rightMirrored, .leftMirrored].contains(orientation)
        return turned ? (height, width) : (width, height)
    }
}
