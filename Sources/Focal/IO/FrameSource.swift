/// Anything frames come from, one at a time: a video file, a sequence of images, later a camera.
public protocol FrameSource: AnyObject {
    var width: Int { get }
    var height: Int { get }
    var framesPerSecond: Double { get }
    /// The number of frames, if known in advance.
    var frameCount: Int? { get }
    /// The next frame, or nil at the end.
    func nextFrame() throws(FocalError) -> Frame?
}

extension VideoReader: FrameSource {
    public func nextFrame() throws(FocalError) -> Frame? { try read() }
}
