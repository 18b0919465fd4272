#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Seconds on the monotonic clock, and waits on it: the pacing of stand-in cameras and the
/// deadlines of the service.
package enum MonotonicClock {
    package static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    package static func sleep(_ seconds: Double) {
        guard seconds > 0 else { return }
        var time = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        var remaining = timespec()
        while nanosleep(&time, &remaining) != 0 && errno == EINTR { time = remaining }
    }

    /// Waits until `due`, as a camera delivers its next frame on time; if that is more than
    /// `timeout` seconds away, waits `timeout` instead and returns false (no frame yet).
    package static func wait(until due: Double, timeout: Double) -> Bool {
        let wait = max(0, due - now())
        sleep(min(wait, timeout))
        return wait <= timeout
    }
}
