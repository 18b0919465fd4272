import Dispatch
import NIOCore
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The threads the server's own tasks run on: reading requests, routing, answering health checks,
/// writing answers. ``FocalServer/run(onListening:)`` prefers this executor for every task it
/// starts, so the HTTP layer never waits for Swift concurrency's shared pool, which a program
/// embedding the server may fill with blocking work of its own (a test process running detection
/// beside a live server held a health check for over 20 s on two cores). The OpenCV work itself
/// runs on the ``WorkerPool``'s threads, not here.
final class HTTPExecutor: TaskExecutor, Sendable {
    /// One for the process, shared by its servers: the work is light, and threads that wait for
    /// jobs cost nothing while there are none.
    static let shared = HTTPExecutor(threads: max(2, ProcessInfo.processInfo.activeProcessorCount))

    private let jobs = Mutex(CircularBuffer<UnownedJob>())
    /// One signal for each job queued.
    private let signals = DispatchSemaphore(value: 0)

    /// Starts `threads` threads, which run for the life of the process.
    init(threads: Int) {
        for _ in 0..<max(1, threads) { startOwnThread { [self] in serve() } }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        signals.signal()
    }

    private func serve() {
        while true {
            signals.wait()
            let job = jobs.withLock { $0.removeFirst() }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
