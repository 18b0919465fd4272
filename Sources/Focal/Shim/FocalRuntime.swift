import CFocal

/// Process-wide settings of the OpenCV code under Focal.
public enum FocalRuntime {
    /// How many threads OpenCV may use inside one call; nil restores its default (one per core).
    /// Set 1 when running several detectors side by side, or to measure single-core speed.
    public static func setOpenCVThreads(_ threads: Int?) {
        cfocal_set_threads(Int32(threads ?? 0))
    }

    /// Keeps memory freed after one frame for the next, up to `bytes`, instead of returning it to
    /// the system.
    ///
    /// Every frame allocates buffers of the same few sizes (its grey image and gradients, the page
    /// network's input and maps): a few hundred kilobytes to a few megabytes each. glibc returns
    /// such buffers to the kernel when they are freed, and the next frame gets them back as fresh
    /// pages that the kernel must zero: on a 720p video at `.high`, page faults took a sixth of
    /// each frame's time. This raises glibc's thresholds so that buffers up to 32 MiB come from
    /// the heap and up to `bytes` of freed memory stay there. Raising `bytes` keeps more memory
    /// resident between bursts of work: glibc keeps up to that much in each of its arenas (one for
    /// each thread that allocates, at most eight per core), so `focal serve` with two workers may
    /// hold about 128 MiB more than it would. The `focal` commands and `focal serve` call this with
    /// the default. It affects the whole process. Returns false where the C library is not glibc.
    @discardableResult
    public static func keepFreedMemory(upTo bytes: Int = 64 << 20) -> Bool {
        let largestFromHeap = min(max(bytes, 0), 32 << 20)  // glibc's ceiling for heap blocks
        return cfocal_keep_freed_memory(Int64(largestFromHeap), Int64(min(max(bytes, 0), Int(Int32.max)))) == 1
    }
}
