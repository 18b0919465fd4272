/// Anything frames come from, one at a time: a video file, a sequence of images, later a camera.
public protocol FrameSource: AnyObject {
    /// The frames' width in pixels.
    var width: Int { get }
    /// The frames' height in pixels.
    var height: Int { get }
    /// The source's frame rate; 0 when it does not say.
    var framesPerSecond: Double { get }
    /// The number of frames, if known in advance.
    var frameCount: Int? { get }
    /// The next frame, or nil at the end.
    func nextFrame() throws(FocalError) -> Frame?
}

extension VideoReader: FrameSource {
    public func nextFrame() throws(FocalError) -> Frame? { try read() }
}
