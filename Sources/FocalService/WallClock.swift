#if canImport(Glibc)
    import Glibc
#endif

/// The time of day as every replica's store sees it: files' modification times and documents'
/// creation are compared across machines, so a monotonic clock will not do.
enum WallClock {
    /// Seconds since 1970 (UTC).
    static func seconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
