import Synchronization

/// Parsed networks lent to one detector at a time (OpenCV's networks are not safe to share
/// between threads while they run) and kept when given back, so that a service making a detector
/// per request does not parse a model file each time. Keyed by whatever tells two models apart
/// (the file, and for the page network its input size).
final class ModelPool<Model: AnyObject & Sendable>: Sendable {
    /// Idle models kept per key: one for each detector running at once, in any likely service.
    let kept = 8

    private let idle = Mutex<[String: [Model]]>([:])

    /// An idle model for `key`, or a new one from `load`.
    func borrow(_ key: String, load: () throws(FocalError) -> Model) throws(FocalError) -> Model {
        if let pooled = idle.withLock({ $0[key]?.popLast() }) { return pooled }
        return try load()
    }

    /// Gives a borrowed model back, unless `kept` are idle for its key already.
    func giveBack(_ model: Model, key: String) {
        idle.withLock { pool in
            if pool[key, default: []].count < kept { pool[key, default: []].append(model) }
        }
    }
}
