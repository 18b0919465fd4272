import Dispatch
import Focal
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A bounded pool for blocking OpenCV work. At most `workers` jobs run at once, each on a thread
/// of the pool's own; up to `queueDepth` more wait their turn, and beyond that
/// ``run(timeout:_:)`` refuses at once with ``Refusal/overloaded`` (the server answers 503 with
/// Retry-After). Memory stays bounded whatever the load.
///
/// The threads are the pool's own, not Dispatch's: Dispatch's worker threads are shared with Swift
/// concurrency's executor, so jobs running there starve the tasks that answer health checks, run
/// timers and read requests (two heavy requests on two cores held `/v1/health` for 26 s). The
/// threads also run at a lower scheduling priority than the HTTP layer.
public final class WorkerPool: Sendable {
    public enum Refusal: Error, Equatable {
        /// Every worker is busy and the queue is full.
        case overloaded
        /// The job did not finish within its time limit.
        case timedOut
    }

    /// A job's deadline. The job calls ``checkpoint()`` between stages (detectors, frames); once
    /// the deadline has passed it throws, so work nobody waits for any more stops early.
    public struct Deadline: Sendable {
        /// Seconds on ``MonotonicClock``.
        public let instant: Double
        fileprivate let pool: WorkerPool?

        /// A deadline `seconds` from now, for work run outside a pool.
        public init(secondsFromNow seconds: Double) {
            instant = MonotonicClock.now() + seconds
            pool = nil
        }

        fileprivate init(instant: Double, pool: WorkerPool) {
            self.instant = instant
            self.pool = pool
        }

        /// True once the deadline has passed.
        public var hasPassed: Bool { MonotonicClock.now() >= instant }

        /// Throws ``Refusal/timedOut`` once the deadline has passed.
        public func checkpoint() throws(Refusal) {
            guard hasPassed else { return }
            pool?.counts.withLock { $0.stoppedAfterDeadline += 1 }
            throw .timedOut
        }
    }

    /// What the pool has done since it started, for `/metrics`.
    public struct Counts: Sendable, Equatable {
        /// Jobs answered with ``Refusal/timedOut`` at their deadline.
        public var timedOut = 0
        /// Jobs that stopped at a checkpoint because their deadline had passed.
        public var stoppedAfterDeadline = 0
        /// Jobs refused because the pool and its queue were full.
        public var refused = 0
    }

    public let workers: Int
    public let queueDepth: Int

    private let queue: JobQueue
    fileprivate let counts = Mutex(Counts())
    /// Its own queue, so that time limits fire even while every worker thread is busy.
    private let timer = DispatchQueue(label: "focal.service.timeouts")

    /// Starts `workers` threads at once. They end when the pool does.
    public init(workers: Int, queueDepth: Int) {
        self.workers = max(1, workers)
        self.queueDepth = max(0, queueDepth)
        queue = JobQueue()
        for _ in 0..<self.workers { queue.startThread() }
    }

    deinit { queue.stop(threads: workers) }

    /// Jobs running and waiting now.
    public var load: (running: Int, waiting: Int) { queue.load }

    /// Timed-out, stopped and refused jobs so far.
    public var totals: Counts { counts.withLock { $0 } }

    /// Runs body on a worker thread once one is free. Throws `Refusal.overloaded` without waiting
    /// when the queue is full, and `Refusal.timedOut` at the deadline when the job (counting its
    /// wait) takes longer than `timeout` seconds. A timed-out job holds its worker until it returns
    /// or reaches a checkpoint.
    public func run<T: Sendable>(timeout: Double, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await run(timeout: timeout) { (_: Deadline) throws -> T in try body() }
    }

    /// Runs body as the other `run` does, handing it the job's ``Deadline`` for its checkpoints.
    public func run<T: Sendable>(timeout: Double, _ body: @escaping @Sendable (Deadline) throws -> T) async throws -> T {
        let deadline = Deadline(instant: MonotonicClock.now() + timeout, pool: self)
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let once = ResumeOnce(continuation)
            // Whichever comes first answers: the job (done, or stopped at a checkpoint past its
            // deadline) or the timer. A timeout is counted once, whichever answered it.
            let answer: @Sendable (Result<T, any Error>) -> Void = { [self] result in
                guard once.resume(with: result) else { return }
                if case .failure(let error) = result, error as? Refusal == .timedOut { counts.withLock { $0.timedOut += 1 } }
            }
            let admitted = queue.add(limit: queueDepth, workers: workers) {
                // A job whose time ran out while it waited is not started.
                answer(deadline.hasPassed ? .failure(Refusal.timedOut) : Result { try body(deadline) })
            }
            guard admitted else {
                counts.withLock { $0.refused += 1 }
                once.resume(with: .failure(Refusal.overloaded))
                return
            }
            timer.asyncAfter(deadline: .now() + max(0, timeout)) { answer(.failure(Refusal.timedOut)) }
        }
    }
}

/// The jobs waiting for a worker, and the worker threads that take them. The threads hold the
/// queue, not the pool, so that the pool ends when its last user lets go, and stops them.
private final class JobQueue: Sendable {
    private struct State {
        var running = 0
        var jobs: [@Sendable () -> Void] = []
        var stopping = false
    }
    private let state = Mutex(State())
    /// One signal for each job queued (and one for each thread when stopping).
    private let signals = DispatchSemaphore(value: 0)

    var load: (running: Int, waiting: Int) { state.withLock { ($0.running, $0.jobs.count) } }

    /// Queues a job unless as many wait as the free workers and the queue's depth can take.
    func add(limit queueDepth: Int, workers: Int, _ job: @escaping @Sendable () -> Void) -> Bool {
        let admitted = state.withLock { state -> Bool in
            guard state.jobs.count < queueDepth + max(0, workers - state.running) else { return false }
            state.jobs.append(job)
            return true
        }
        if admitted { signals.signal() }
        return admitted
    }

    func stop(threads: Int) {
        state.withLock { $0.stopping = true }
        for _ in 0..<threads { signals.signal() }
    }

    func startThread() { startOwnThread { self.serveAsWorker() } }

    /// The next job, or nil once the queue stops.
    private func next() -> (@Sendable () -> Void)? {
        signals.wait()
        return state.withLock { state in
            guard !state.stopping, !state.jobs.isEmpty else { return nil }
            state.running += 1
            return state.jobs.removeFirst()
        }
    }

    private func finished() { state.withLock { $0.running -= 1 } }

    /// A worker thread's life: jobs in turn, each with the thread's own detectors, until the queue
    /// stops.
    private func serveAsWorker() {
        #if os(Linux)
            // Below the HTTP layer's threads, so that health checks, timers and new requests are
            // answered even when every worker is busy. On Linux a thread's nice value is its own,
            // and `who` 0 names the calling thread.
            setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 5)
        #endif
        WorkerDetectors.serve(WorkerDetectors()) {
            while let job = next() {
                job()
                finished()
            }
        }
    }
}

/// Resumes a continuation once: with the job's result or the timeout, whichever comes first.
final class ResumeOnce<T: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<T, any Error>?>

    init(_ continuation: CheckedContinuation<T, any Error>) { self.continuation = Mutex(continuation) }

    /// True when this call resumed it.
    @discardableResult
    func resume(with result: Result<T, any Error>) -> Bool {
        let pending = continuation.withLock { c -> CheckedContinuation<T, any Error>? in
            defer { c = nil }
            return c
        }
        pending?.resume(with: result)
        return pending != nil
    }
}
