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
}

extension ScanStore {
    public func prepare() async throws(ServiceError) {}
    public func run() async {}
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
        sweep(now: Self.wallClock())
    }

    var retention: String { "scans are kept for \(Int(lifetime)) s" }

    // File I/O (an fsync on every write) runs on NIO's blocking-I/O pool, not on the threads
    // that serve requests.
    func keep(_ jpeg: [UInt8]) async throws(ServiceError) -> String {
        do {
            return try await NIOThreadPool.singleton.runIfActive { () throws(ServiceError) in try self.writeFile(jpeg) }
        } catch let error as ServiceError {
            throw error
        } catch {
            throw ServiceError(internal: error, what: "keeping a scan")
        }
    }

    func get(_ id: String) async -> [UInt8]? {
        (try? await NIOThreadPool.singleton.runIfActive { self.readFile(id) }) ?? nil
    }

    func writeFile(_ jpeg: [UInt8]) throws(ServiceError) -> String {
        let id = ScanID.make()
        let temporary = folder + "/.partial-" + id
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw ServiceError(internal: StoreFailure(errno), what: "keeping a scan") }
        var written = 0
        let failure: Int32? = jpeg.withUnsafeBytes { bytes in
            while written < bytes.count {
                let count = write(descriptor, bytes.baseAddress! + written, bytes.count - written)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return errno }
                written += count
            }
            return fsync(descriptor) == 0 ? nil : errno
        }
        close(descriptor)
        if let failure {
            unlink(temporary)
            throw ServiceError(internal: StoreFailure(failure), what: "keeping a scan")
        }
        guard rename(temporary, folder + "/" + id + ".jpg") == 0 else {
            let error = errno
            unlink(temporary)
            throw ServiceError(internal: StoreFailure(error), what: "keeping a scan")
        }
        let now = Self.wallClock()
        let due = lastSweep.withLock { last in
            guard now - last >= Self.sweepInterval else { return false }
            last = now
            return true
        }
        if due { sweep(now: now) }
        return id
    }

    func readFile(_ id: String) -> [UInt8]? {
        guard ScanID.isValid(id) else { return nil }
        let descriptor = open(folder + "/" + id + ".jpg", O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size <= Self.largestScan,
            Self.wallClock() - Double(info.st_mtim.tv_sec) <= lifetime
        else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var done = 0
        let complete = bytes.withUnsafeMutableBytes { buffer in
            while done < buffer.count {
                let count = read(descriptor, buffer.baseAddress! + done, buffer.count - done)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                done += count
            }
            return true
        }
        return complete ? bytes : nil
    }

    /// Removes expired scans, then the oldest while the folder is over its size, and partial
    /// files a crashed writer left (older than a minute).
    func sweep(now: Double) {
        guard let directory = opendir(folder) else { return }
        var scans: [(name: String, modified: Double, size: Int)] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            let isScan = name.hasSuffix(".jpg") && ScanID.isValid(String(name.dropLast(4)))
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
        closedir(directory)
        var total = scans.reduce(0) { $0 + $1.size }
        for scan in scans.sorted(by: { $0.modified < $1.modified }) where total > maximumBytes {
            unlink(folder + "/" + scan.name)
            total -= scan.size
        }
    }

    private static func wallClock() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    struct StoreFailure: Error, CustomStringConvertible {
        let code: Int32
        init(_ code: Int32) { self.code = code }
        var description: String { String(cString: strerror(code)) }
    }
}
