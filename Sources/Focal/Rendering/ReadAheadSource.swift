import Dispatch
import Synchronization

/// Reads a source on a thread of its own, a few frames ahead of its consumer, so that decoding
/// overlaps detection and drawing. Memory grows by at most `frames` frames.
///
/// Not for live cameras: a camera source keeps only its newest frame, and reading ahead would
/// queue stale ones.
final class ReadAheadSource: FrameSource {
    let width: Int
    let height: Int
    let framesPerSecond: Double
    let frameCount: Int?

    /// What the reading thread leaves behind.
    private final class Reader: Sendable {
        let failure = Mutex<FocalError?>(nil)
        let done = DispatchSemaphore(value: 0)
    }

    private let handoff: FrameHandoff
    private let reader = Reader()
    private var ended = false

    /// Starts reading `source` at once. The source is used by the reading thread alone from now on.
    init(_ source: any FrameSource, frames: Int) {
        width = source.width
        height = source.height
        framesPerSecond = source.framesPerSecond
        frameCount = source.frameCount
        let handoff = FrameHandoff(capacity: max(1, frames))
        self.handoff = handoff
        let source = UncheckedSendable(source)
        DispatchQueue.global(qos: .userInitiated).async { [reader] in
            do throws(FocalError) {
                while let frame = try source.value.nextFrame() {
                    if handoff.put(frame) != nil { break }  // the consumer stopped
                }
            } catch {
                reader.failure.withLock { $0 = error }
            }
            handoff.close()
            reader.done.signal()
        }
    }

    deinit { stop() }

    /// The next frame in order, or nil at the end; rethrows the source's error after the frames
    /// read before it.
    func nextFrame() throws(FocalError) -> Frame? {
        guard !ended else { return nil }
        if let frame = handoff.take() { return frame }
        ended = true
        if let error = reader.failure.withLock({ $0 }) { throw error }
        return nil
    }

    /// Stops the reading thread and waits for it to let go of the source. Called by deinit.
    func stop() {
        guard !ended else { return }
        ended = true
        handoff.fail(FocalError(.unavailable, operation: "read ahead", reason: "stopped"))
        while handoff.take() != nil {}
        reader.done.wait()
    }
}
