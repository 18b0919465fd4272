import NIOPosix

#if canImport(Glibc)
    import Glibc
#endif

/// Documents in the shared folder: page images as `<id>.page`, each document's record as
/// `<id>.doc` (its revision on the first line, then the record), written through a temporary file
/// and a rename like scans. A record is replaced only under an exclusive `flock` of `<id>.lock`,
/// so that two replicas writing the same document at once cannot both win.
extension DirectoryScanStore {
    var documentLifetime: Double { lifetime }

    func keepPage(_ image: [UInt8]) async throws(ServiceError) -> String {
        try await onIOPool("keeping a page") { () throws(StoreFailure) in try self.writeFile(image, suffix: ".page") }
    }

    func page(_ id: String) async -> [UInt8]? {
        (try? await NIOThreadPool.singleton.runIfActive { self.readFile(id, suffix: ".page") }) ?? nil
    }

    func removePage(_ id: String) async {
        guard ScanID.isValid(id) else { return }
        _ = try? await NIOThreadPool.singleton.runIfActive { unlink(self.folder + "/" + id + ".page") }
    }

    func document(_ id: String) async -> StoredDocument? {
        (try? await NIOThreadPool.singleton.runIfActive { self.readDocument(id) }) ?? nil
    }

    func putDocument(_ id: String, record: [UInt8], replacing expected: Int?) async throws(ServiceError) -> Bool {
        guard ScanID.isValid(id) else { return false }
        return try await onIOPool("writing a document") { () throws(StoreFailure) in
            try self.replaceDocument(id, record: record, expected: expected)
        }
    }

    func removeDocument(_ id: String) async {
        guard ScanID.isValid(id) else { return }
        _ = try? await NIOThreadPool.singleton.runIfActive {
            unlink(self.folder + "/" + id + ".doc")
            unlink(self.folder + "/" + id + ".lock")
        }
    }

    /// Runs file work on NIO's blocking-I/O pool; a failure is the server's and may pass (503).
    private func onIOPool<T: Sendable>(_ what: String, _ work: @escaping @Sendable () throws(StoreFailure) -> T)
        async throws(ServiceError) -> T
    {
        do {
            return try await NIOThreadPool.singleton.runIfActive { () throws(StoreFailure) in try work() }
        } catch {
            serviceLog.error("\(what) in '\(folder)' failed: \(error)")
            throw ServiceError(503, "the scan store cannot keep documents now; try again shortly", retryAfter: 5)
        }
    }

    func readDocument(_ id: String) -> StoredDocument? {
        guard let bytes = readFile(id, suffix: ".doc"), let newline = bytes.firstIndex(of: 10),
            let revision = Int(String(decoding: bytes[..<newline], as: UTF8.self))
        else { return nil }
        return StoredDocument(record: Array(bytes[(newline + 1)...]), revision: revision)
    }

    /// Compare-and-swap under the document's lock: the record is written only if the revision on
    /// disk is still `expected`.
    func replaceDocument(_ id: String, record: [UInt8], expected: Int?) throws(StoreFailure) -> Bool {
        let lock = open(folder + "/" + id + ".lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard lock >= 0 else { throw StoreFailure(errno) }
        // Closing the descriptor releases the lock.
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 {
            guard errno == EINTR else { throw StoreFailure(errno) }
        }
        guard readDocument(id)?.revision == expected else { return false }
        let revision = (expected ?? 0) + 1
        try place(Array("\(revision)\n".utf8) + record, at: folder + "/" + id + ".doc")
        return true
    }
}
