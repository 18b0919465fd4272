import Focal
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
        /// process; here earlier tests may have moved glibc's own thresholds). The fewest faults of
        /// several rounds: a test running beside this one can share its malloc arena and take the
        /// freed pages for a round (1,537 faults once in CI), not for every round.
        @Test func freedFrameBuffersAreReusedWithoutPageFaults() {
            #expect(FocalRuntime.keepFreedMemory())
            let size = 1 << 20, count = 16
            func round() -> Int {
                let before = Self.pageFaults()
                let buffers = (0..<count).map { _ in malloc(size)! }
                for buffer in buffers { memset(buffer, 1, size) }
                for buffer in buffers { free(buffer) }
                return Self.pageFaults() - before
            }
            _ = round()
            let pages = count * size / Int(getpagesize())
            let fewest = (0..<5).map { _ in round() }.min() ?? pages
            #expect(fewest < pages / 10)
        }
    #endif
}
