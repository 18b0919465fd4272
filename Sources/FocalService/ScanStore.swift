import NIOPosix
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Where `POST /v1/scan` keeps flat scans for `GET /v1/scans/{id}`: this process's memory
/// (``MemoryScanStore``), a folder every replica mounts (``DirectoryScanStore``), or a database
/// (`FocalPostgres`'s `PostgresScanStore`).
public protocol ScanStore: Sendable {
    /// Keeps the JPEG and returns the unguessable id it can be fetched by.
    func keep(_ jpeg: [UInt8]) async throws(ServiceError) -> String
    /// The JPEG kept under `id`, or nil when there is none (never kept, expired, or dropped).
    /// Throws when the store cannot be reached, which is not the same as "no such scan".
    func get(_ id: String) async throws(ServiceError) -> [UInt8]?
    /// How long a scan stays, in words, for the 404's reason.
    var retention: String { get }
    /// Checked once before the server listens: a store that cannot be used stops the start, with
    /// the reason. Also the place to create what the store needs (a table).
    func prepare() async throws(ServiceError)
    /// Runs what the store needs while the server does (a connection pool) until the task is
    /// cancelled, which happens after the server has drained. Stores with nothing to run return.
    func run() async
    /// Whether the store can keep scans now; readiness answers 503 while it cannot, so that a
    /// load balancer sends scans elsewhere. Cheap: asked on every readiness probe.
    func canKeepScans() async -> Bool

    // Multi-page documents (`/v1/documents`): each page's source image, and a small record per
    // document that every replica rewrites with compare-and-swap.

    /// Seconds a document and its pages stay after the document was created.
    var documentLifetime: Double { get }
    /// Keeps a page's source image (kept apart from scans: `GET /v1/scans/{id}` never serves it)
    /// and returns its ``ScanID``.
    func keepPage(_ image: [UInt8]) async throws(ServiceError) -> String
    /// The page image kept under `id`, or nil when there is none.
    func page(_ id: String) async throws(ServiceError) -> [UInt8]?
    /// Removes a page image; removing one that is gone is not an error.
    func removePage(_ id: String) async throws(ServiceError)
    /// A document's record and its revision, or nil when there is none.
    func document(_ id: String) async throws(ServiceError) -> StoredDocument?
    /// Writes a document's record as revision `expected + 1` if its revision is still `expected`
    /// (nil: only if there is no such document); false when another writer came first.
    func putDocument(_ id: String, record: [UInt8], replacing expected: Int?) async throws(ServiceError) -> Bool
    /// Removes a document's record; removing one that is gone is not an error.
    func removeDocument(_ id: String) async throws(ServiceError)
}

/// A document's record as a store keeps it: opaque bytes, and the revision that compare-and-swap
/// checks.
public struct StoredDocument: Sendable, Equatable {
    public var record: [UInt8]
    public var revision: Int

    public init(record: [UInt8], revision: Int) {
        self.record = record
        self.revision = revision
    }
}

extension ScanStore {
    public func prepare() async throws(ServiceError) {}
    public func run() async {}
    public func canKeepScans() async -> Bool { true }
    public var documentLifetime: Double { 3600 }

    // A store written before documents existed answers that it cannot keep them.
    public func keepPage(_ image: [UInt8]) async throws(ServiceError) -> String { throw Self.noDocuments }
    public func page(_ id: String) async throws(ServiceError) -> [UInt8]? { throw Self.noDocuments }
    public func removePage(_ id: String) async throws(ServiceError) { throw Self.noDocuments }
    public func document(_ id: String) async throws(ServiceError) -> StoredDocument? { throw Self.noDocuments }
    public func putDocument(_ id: String, record: [UInt8], replacing expected: Int?) async throws(ServiceError) -> Bool {
        throw Self.noDocuments
    }
    public func removeDocument(_ id: String) async throws(ServiceError) { throw Self.noDocuments }

    private static var noDocuments: ServiceError { ServiceError(501, "this server's scan store does not keep documents") }
}

/// 128 random bits as 32 hex digits: an id nobody can guess, and the only form `get` accepts.
public enum ScanID {
    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return [generator.next(), generator.next()].map { (value: UInt64) in
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }.joined()
    }

    public static func isValid(_ id: String) -> Bool {
        id.utf8.count == 32 && id.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}

/// The last few scans in this process's memory: lost on restart, and invisible to other replicas.
/// For a single process only; replicas behind a load balancer need ``DirectoryScanStore``.
final class MemoryScanStore: ScanStore {
    private let capacity: Int
    private let state = Mutex<(order: [String], images: [String: [UInt8]])>(([], [:]))

    init(capacity: Int) { self.capacity = max(1, capacity) }

    var retention: String { "the last \(capacity) scans are kept" }

    func keep(_ jpeg: [UInt8]) async -> String {
        let id = ScanID.make()
        state.withLock { state in
            state.order.append(id)
            state.images[id] = jpeg
            while state.order.count > capacity { state.images[state.order.removeFirst()] = nil }
        }
        return id
    }

    func get(_ id: String) async -> [UInt8]? { state.withLock { $0.images[id] } }

    /// Bytes of page images kept; beyond it the oldest pages go first. Raising it keeps more
    /// pages of open documents, at the cost of the process's memory.
    static let pageBytes = 512 << 20
    /// Documents kept; beyond it the oldest go first.
    static let documentCount = 256
    private let pages = Mutex<(order: [String], images: [String: [UInt8]], bytes: Int)>(([], [:], 0))
    private let documents = Mutex<(order: [String], records: [String: StoredDocument])>(([], [:]))

    func keepPage(_ image: [UInt8]) async -> String {
        let id = ScanID.make()
        pages.withLock { pages in
            pages.order.append(id)
            pages.images[id] = image
            pages.bytes += image.count
            while pages.bytes > Self.pageBytes, pages.order.count > 1 {
                pages.bytes -= pages.images.removeValue(forKey: pages.order.removeFirst())?.count ?? 0
            }
        }
        return id
    }

    func page(_ id: String) async -> [UInt8]? { pages.withLock { $0.images[id] } }

    func removePage(_ id: String) async {
        pages.withLock { pages in
            guard let image = pages.images.removeValue(forKey: id) else { return }
            pages.bytes -= image.count
            pages.order.removeAll { $0 == id }
        }
    }

    func document(_ id: String) async -> StoredDocument? { documents.withLock { $0.records[id] } }

    func putDocument(_ id: String, record: [UInt8], replacing expected: Int?) async -> Bool {
        documents.withLock { documents in
            guard documents.records[id]?.revision == expected else { return false }
            if expected == nil { documents.order.append(id) }
            documents.records[id] = StoredDocument(record: record, revision: (expected ?? 0) + 1)
            while documents.order.count > Self.documentCount {
                documents.records[documents.order.removeFirst()] = nil
            }
            return true
        }
    }

    func removeDocument(_ id: String) async {
        documents.withLock { documents in
            guard documents.records.removeValue(forKey: id) != nil else { return }
            documents.order.removeAll { $0 == id }
        }
    }
}

/// Scans as files in one folder that every replica mounts (a shared volume): any replica serves
/// a scan another one made, and scans outlive restarts.
///
/// Each scan is written under a temporary name (0600) and renamed into place, so a reader sees a
/// whole file or none, even from another machine. Names are ``ScanID``s: only those are opened,
/// never a path a client chose. Scans expire after `lifetime` seconds; when the folder holds more
/// than `maximumBytes`, the oldest go first.
final class DirectoryScanStore: ScanStore {
    let folder: String
    /// Seconds a scan stays. Raising it keeps scans for slower clients, at the cost of disk.
    let lifetime: Double
    /// Bytes the folder may hold; beyond it the oldest scans are removed.
    let maximumBytes: Int
    /// Sweeps run at most this often, in seconds, from whichever replica is writing.
    static let sweepInterval = 10.0
    /// A scan larger than this is not read back (no flat page comes near it).
    static let largestScan = 64 << 20
    private let lastSweep = Mutex(-Double.infinity)
    /// The folder's size as the last sweep left it, plus what this process has written since: a
    /// write that takes it over ``maximumBytes`` sweeps at once, not at the next interval.
    private let estimatedBytes = Mutex(0)
    /// While writes fail (a full or read-only disk, a folder gone): when the folder was last
    /// tried. Nil again once a write or a probe succeeds.
    private let failingSinceLastTry = Mutex<Double?>(nil)
    /// Seconds between probes of a failing folder (a small file written and removed).
    static let probeInterval = 2.0

    /// Creates the folder (0700) if it is missing; throws if it cannot be written.
    init(folder: String, lifetime: Double, maximumBytes: Int) throws(ServiceError) {
        self.folder = folder
        self.lifetime = lifetime
        self.maximumBytes = maximumBytes
        if mkdir(folder, 0o700) != 0, errno != EEXIST {
            throw ServiceError(500, "cannot create the scan folder '\(folder)': \(String(cString: strerror(errno)))")
        }
        guard access(folder, W_OK | X_OK) == 0 else {
            throw ServiceError(500, "cannot write to the scan folder '\(folder)': \(String(cString: strerror(errno)))")
        }
        sweep(now: WallClock.seconds())
    }

    var retention: String { "scans are kept for \(Int(lifetime)) s" }

    // File I/O (an fsync on every write) runs on NIO's blocking-I/O pool, not on the threads
    // that serve requests.
    func keep(_ jpeg: [UInt8]) async throws(ServiceError) -> String {
        do {
            let id = try await NIOThreadPool.singleton.runIfActive { () throws(StoreFailure) in try self.writeFile(jpeg) }
            failingSinceLastTry.withLock { $0 = nil }
            return id
        } catch {
            // A full or read-only disk, or a folder gone, is the server's trouble and may pass: 503,
            // as the PostgreSQL store answers, and readiness tells the balancer until it passes.
            let now = WallClock.seconds()
            failingSinceLastTry.withLock { $0 = $0 ?? now }
            serviceLog.error("keeping a scan in '\(folder)' failed: \(error)")
            throw ServiceError(503, "the scan store cannot keep scans now; try again shortly", retryAfter: 5)
        }
    }

    func canKeepScans() async -> Bool {
        let now = WallClock.seconds()
        let due = failingSinceLastTry.withLock { lastTry -> Bool in
            guard let tried = lastTry, now - tried >= Self.probeInterval else { return false }
            lastTry = now
            return true
        }
        if due, (try? await NIOThreadPool.singleton.runIfActive { self.probe() }) == true {
            failingSinceLastTry.withLock { $0 = nil }
        }
        return failingSinceLastTry.withLock { $0 == nil }
    }

    /// Whether a small file can be written, synced and removed in the folder.
    private func probe() -> Bool {
        let path = folder + "/.partial-probe-" + ScanID.make()
        defer { unlink(path) }
        return (try? write([UInt8](repeating: 0, count: 4096), to: path)) != nil
    }

    func get(_ id: String) async -> [UInt8]? {
        (try? await NIOThreadPool.singleton.runIfActive { self.readFile(id) }) ?? nil
    }

    /// Writes a new file named by a fresh ``ScanID`` and `suffix` (`.jpg` for a scan), and
    /// sweeps when one is due.
    func writeFile(_ bytes: [UInt8], suffix: String = ".jpg") throws(StoreFailure) -> String {
        let id = ScanID.make()
        try place(bytes, at: folder + "/" + id + suffix)
        let now = WallClock.seconds()
        let overSize = estimatedBytes.withLock { total in
            total += bytes.count
            return total > maximumBytes
        }
        let due = lastSweep.withLock { last in
            guard overSize || now - last >= Self.sweepInterval else { return false }
            last = now
            return true
        }
        if due { sweep(now: now) }
        return id
    }

    /// Writes `bytes` under a temporary name and renames it to `path`, so that a reader on any
    /// machine sees the whole file or none.
    func place(_ bytes: [UInt8], at path: String) throws(StoreFailure) {
        let temporary = folder + "/.partial-" + ScanID.make()
        do {
            try write(bytes, to: temporary)
        } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let error = errno
            unlink(temporary)
            throw StoreFailure(error)
        }
    }

    /// Writes `bytes` to a new file at `path` (0600, never through a link) and syncs it.
    func write(_ bytes: [UInt8], to path: String) throws(StoreFailure) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw StoreFailure(errno) }
        var written = 0
        let failure: Int32? = bytes.withUnsafeBytes { buffer in
            while written < buffer.count {
                let count = Glibc.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return errno }
                written += count
            }
            return fsync(descriptor) == 0 ? nil : errno
        }
        close(descriptor)
        if let failure { throw StoreFailure(failure) }
    }

    /// The file of ``ScanID`` `id` with `suffix`, unless it is missing, expired or too large.
    func readFile(_ id: String, suffix: String = ".jpg") -> [UInt8]? {
        guard ScanID.isValid(id) else { return nil }
        let descriptor = open(folder + "/" + id + suffix, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size <= Self.largestScan,
            WallClock.seconds() - Double(info.st_mtim.tv_sec) <= lifetime
        else { return nil }
        return FolderFiles.readAll(descriptor, size: Int(info.st_size))
    }

    /// The kinds of file the store keeps: scans, page images, document records and their locks.
    static let suffixes = [".jpg", ".page", ".doc", ".lock"]

    /// Removes expired files, then the oldest while the folder is over its size, and partial
    /// files a crashed writer left (older than a minute).
    func sweep(now: Double) {
        guard let names = FolderFiles.names(in: folder) else { return }
        var scans: [(name: String, modified: Double, size: Int)] = []
        for name in names {
            let isScan = Self.suffixes.contains { name.hasSuffix($0) && ScanID.isValid(String(name.dropLast($0.count))) }
            let isPartial = name.hasPrefix(".partial-")
            guard isScan || isPartial else { continue }
            var info = stat()
            guard lstat(folder + "/" + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            let modified = Double(info.st_mtim.tv_sec)
            if isPartial {
                if now - modified > 60 { unlink(folder + "/" + name) }
            } else if now - modified > lifetime {
                unlink(folder + "/" + name)
            } else {
                scans.append((name, modified, Int(info.st_size)))
            }
        }
        var total = scans.reduce(0) { $0 + $1.size }
        for scan in scans.sorted(by: { $0.modified < $1.modified }) where total > maximumBytes {
            unlink(folder + "/" + scan.name)
            total -= scan.size
        }
        estimatedBytes.withLock { $0 = total }
    }

    struct StoreFailure: Error, CustomStringConvertible {
        let code: Int32
        init(_ code: Int32) { self.code = code }
        var description: String { String(cString: strerror(code)) }
    }
}
