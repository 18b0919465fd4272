import Focal

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The detectors a worker thread keeps between requests, so that requests with the same type and
/// options reuse one instead of building it, with its models and cascades, every time. Only
/// untracked detectors are kept: they carry nothing from one frame to the next, so any request
/// may use them. A worker runs one job at a time, and only it touches its detectors.
final class WorkerDetectors {
    /// Detectors kept per worker, the least recently used dropped first. Raising it keeps more
    /// combinations of options ready, each holding its networks' memory.
    static let kept = 4

    private var entries: [(type: FeatureType, options: DetectorOptions, detector: Detector)] = []

    /// A detector of `type` with `options`: a kept one if there is one, else a new one, kept
    /// unless it tracks.
    func detector(_ type: FeatureType, options: DetectorOptions) throws(FocalError) -> Detector {
        if let index = entries.firstIndex(where: { $0.type == type && $0.options == options }) {
            let entry = entries.remove(at: index)
            entries.append(entry)
            return entry.detector
        }
        let detector = try Detector(type: type, options: options)
        guard !options.tracking else { return detector }
        entries.append((type, options, detector))
        if entries.count > Self.kept { entries.removeFirst() }
        return detector
    }

    /// A detector from the calling worker's detectors, or a new one off the workers (tests, tools).
    static func detector(_ type: FeatureType, options: DetectorOptions) throws(FocalError) -> Detector {
        if let current { return try current.detector(type, options: options) }
        return try Detector(type: type, options: options)
    }

    /// The calling worker thread's detectors; nil on any other thread.
    static var current: WorkerDetectors? {
        pthread_getspecific(key).map { Unmanaged<WorkerDetectors>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Makes `detectors` the calling thread's for as long as `body` runs.
    static func serve(_ detectors: WorkerDetectors, _ body: () -> Void) {
        withExtendedLifetime(detectors) {
            pthread_setspecific(key, Unmanaged.passUnretained(detectors).toOpaque())
            body()
            pthread_setspecific(key, nil)
        }
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()
}
