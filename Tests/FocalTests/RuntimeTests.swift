import Focal
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct RuntimeTests {
    #if canImport(Glibc)
        /// Page faults of this thread so far (a fresh page taken from the kernel is one); of this
        /// thread, as other tests run beside this one.
        static func pageFaults() -> Int {
            var usage = rusage()
            let thread: __rusage_who_t = 1  // Linux's RUSAGE_THREAD, which Swift's Glibc module leaves out
            getrusage(thread, &usage)
            return usage.ru_minflt
        }

        /// Sixteen 1 MiB buffers written and freed, as a frame's work does: the pages they used come
        /// back from the heap the next time. Without the setting, glibc returns them to the kernel
        /// and every round faults in every page again (4,096 faults a round, measured in a fresh
        /// process; here earlier tests may have moved glibc's own thresholds). The rounds run on a
        /// thread of their own, which glibc gives a malloc arena of its own: on a thread of the test
        /// pool, a test running beside this one shared the arena and took the freed pages (1,537
        /// faults once in CI, 2,561 in every one of five rounds another time). The fewest of several.
        @Test func freedFrameBuffersAreReusedWithoutPageFaults() {
            #expect(FocalRuntime.keepFreedMemory())
            let pages = 16 * (1 << 20) / Int(getpagesize())
            let fewest = Self.onOwnThread { (0..<5).map { _ in Self.faultsOfAFramesBuffers() }.min() ?? pages }
            #expect(fewest < pages / 10, "\(fewest) page faults of \(pages)")
        }

        /// Page faults while sixteen 1 MiB buffers are written and freed; the first round on a thread
        /// takes its arena's pages from the kernel, and is not counted.
        static func faultsOfAFramesBuffers() -> Int {
            let size = 1 << 20, count = 16
            let before = pageFaults()
            let buffers = (0..<count).map { _ in malloc(size)! }
            for buffer in buffers { memset(buffer, 1, size) }
            for buffer in buffers { free(buffer) }
            return pageFaults() - before
        }

        /// body's result, run on a new thread (after one round of faultsOfAFramesBuffers there).
        static func onOwnThread(_ body: @escaping @Sendable () -> Int) -> Int {
            final class Result: @unchecked Sendable { var value = 0 }
            let result = Result()
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                _ = faultsOfAFramesBuffers()
                result.value = body()
                done.signal()
            }
            thread.start()
            done.wait()
            return result.value
        }
    #endif
}
