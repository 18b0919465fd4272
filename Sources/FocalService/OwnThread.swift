#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs `body` on a new detached thread of the service's own. Dispatch's worker threads are
/// shared with Swift concurrency's default executor, so work that must not wait for them (the
/// workers' blocking OpenCV jobs; the HTTP layer, which must answer while the process's other
/// tasks keep that pool busy) gets threads of its own. False when the system refuses a thread.
@discardableResult
func startOwnThread(_ body: @escaping @Sendable () -> Void) -> Bool {
    final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
    let context = Unmanaged.passRetained(Body(body)).toOpaque()
    var thread = pthread_t()
    let started = pthread_create(
        &thread, nil,
        { context in
            #if canImport(Darwin)
                let context: UnsafeMutableRawPointer? = context
            #endif
            guard let context else { return nil }
            Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
            return nil
        }, context)
    guard started == 0 else {
        Unmanaged<Body>.fromOpaque(context).release()
        return false
    }
    pthread_detach(thread)
    return true
}
