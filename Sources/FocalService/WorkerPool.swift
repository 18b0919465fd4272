import Dispatch
import Synchronization

/// A bounded pool for blocking OpenCV work. At most `workers` jobs run at once, each on a
/// Dispatch thread so the event loop never blocks; up to `queueDepth` more wait their turn, and
/// beyond that ``run(timeout:_:)`` refuses at once with ``Refusal/overloaded`` (the server answers
/// 503 with Retry-After). Memory stays bounded whatever the load.
public final class WorkerPool: Sendable {
    public enum Refusal: Error, Equatable {
        /// Every worker is busy and the queue is full.
        case overloaded
        /// The job did not finish within its time limit.
        case timedOut
    }

    public let workers: Int
    public let queueDepth: Int

    private struct State {
        var running = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
    }
    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "focal.service.workers", attributes: .concurrent)
    /// Its own queue, so that time limits fire even while every worker thread is busy.
    private let timer = DispatchQueue(label: "focal.service.timeouts")

    public init(workers: Int, queueDepth: Int) {
        self.workers = max(1, workers)
        self.queueDepth = max(0, queueDepth)
    }

    /// Jobs running and waiting now.
    public var load: (running: Int, waiting: Int) { state.withLock { ($0.running, $0.waiting.count) } }

    /// Runs body on a worker thread once one is free. Throws `Refusal.overloaded` without waiting
    /// when the queue is full, `Refusal.timedOut` when the job (counting its wait) takes longer than
    /// `timeout` seconds; a timed-out job still holds its worker until it returns.
    public func run<T: Sendable>(timeout: Double, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        let start = DispatchTime.now()
        try await acquire()
        let remaining = timeout - Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        guard remaining > 0 else {
            release()
            throw Refusal.timedOut
        }
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let once = ResumeOnce(continuation)
            queue.async { [self] in
                let result = Result { try body() }
                release()
                once.resume(with: result)
            }
            timer.asyncAfter(deadline: .now() + remaining) { once.resume(with: .failure(Refusal.timedOut)) }
        }
    }

    private func acquire() async throws {
        enum Admission { case now, wait, refuse }
        let admission = state.withLock { state -> Admission in
            if state.running < workers {
                state.running += 1
                return .now
            }
            return state.waiting.count < queueDepth ? .wait : .refuse
        }
        switch admission {
        case .now: return
        case .refuse: throw Refusal.overloaded
        case .wait:
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let admitted = state.withLock { state -> Bool in
                    // A worker may have come free in between.
                    if state.running < workers {
                        state.running += 1
                        return true
                    }
                    state.waiting.append(continuation)
                    return false
                }
                if admitted { continuation.resume() }
            }
        }
    }

    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiting.isEmpty {
                state.running -= 1
                return nil
            }
            return state.waiting.removeFirst()  // the slot passes straight to the next job
        }
        next?.resume()
    }
}

/// Resumes a continuation once: with the job's result or the timeout, whichever comes first.
final class ResumeOnce<T: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<T, any Error>?>

    init(_ continuation: CheckedContinuation<T, any Error>) { self.continuation = Mutex(continuation) }

    func resume(with result: Result<T, any Error>) {
        let pending = continuation.withLock { c -> CheckedContinuation<T, any Error>? in
            defer { c = nil }
            return c
        }
        pending?.resume(with: result)
    }
}
