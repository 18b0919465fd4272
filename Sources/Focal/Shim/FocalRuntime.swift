import CFocal

/// Process-wide settings of the OpenCV code under Focal.
public enum FocalRuntime {
    /// How many threads OpenCV may use inside one call; nil restores its default (one per core).
    /// Set 1 when running several detectors side by side, or to measure single-core speed.
    public static func setOpenCVThreads(_ threads: Int?) {
        cfocal_set_threads(Int32(threads ?? 0))
    }
}
