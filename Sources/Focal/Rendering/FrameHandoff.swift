import Dispatch
import Synchronization

/// A bounded first-in, first-out hand-off of frames from one thread to another: the producer
/// waits when `capacity` frames are waiting, so memory stays flat whatever the consumer's speed,
/// and frames keep their order.
final class FrameHandoff: Sendable {
    private struct State {
        var frames: [Frame] = []
        var closed = false
        var failure: FocalError?
    }

    private let slots: DispatchSemaphore
    private let items = DispatchSemaphore(value: 0)
    private let state = Mutex(State())

    init(capacity: Int) { slots = DispatchSemaphore(value: capacity) }

    /// Waits for room, then queues frame. Returns the consumer's failure instead, if it failed.
    func put(_ frame: Frame) -> FocalError? {
        slots.wait()
        let failure = state.withLock { state -> FocalError? in
            if let failure = state.failure { return failure }
            state.frames.append(frame)
            return nil
        }
        if failure != nil { slots.signal() } else { items.signal() }
        return failure
    }

    /// No more frames will come.
    func close() {
        state.withLock { $0.closed = true }
        items.signal()
    }

    /// The next frame, or nil once closed and drained.
    func take() -> Frame? {
        items.wait()
        let frame = state.withLock { state -> Frame? in state.frames.isEmpty ? nil : state.frames.removeFirst() }
        if frame != nil { slots.signal() }
        return frame
    }

    /// The consumer gave up: producers stop at their next put.
    func fail(_ error: FocalError) {
        state.withLock { $0.failure = error }
        slots.signal()
    }

    var failure: FocalError? { state.withLock { $0.failure } }
}
