import FocalService
import PostgresNIO

/// Documents in two more tables: `focal_pages` (each page's source image) and `focal_documents`
/// (each document's record and revision). A record is replaced by an `UPDATE … WHERE revision =`
/// the revision read, so that of two replicas writing the same document at once one wins and the
/// other reads again.
extension PostgresScanStore {
    static let documentTables = [
        """
        CREATE TABLE IF NOT EXISTS focal_pages (
            id text PRIMARY KEY, image bytea NOT NULL, size integer NOT NULL,
            created timestamptz NOT NULL DEFAULT now())
        """,
        "CREATE INDEX IF NOT EXISTS focal_pages_created ON focal_pages (created)",
        """
        CREATE TABLE IF NOT EXISTS focal_documents (
            id text PRIMARY KEY, record bytea NOT NULL, revision integer NOT NULL,
            created timestamptz NOT NULL DEFAULT now())
        """,
        "CREATE INDEX IF NOT EXISTS focal_documents_created ON focal_documents (created)",
    ]

    public var documentLifetime: Double { lifetime }

    public func keepPage(_ image: [UInt8]) async throws(ServiceError) -> String {
        let id = ScanID.make()
        let bytes = ByteBuffer(bytes: image), size = image.count
        _ = try await answering("keeping a page") {
            try await self.client.query(
                "INSERT INTO focal_pages (id, image, size) VALUES (\(id), \(bytes), \(size))", logger: self.log)
        }
        sweepIfDue()
        return id
    }

    public func page(_ id: String) async throws(ServiceError) -> [UInt8]? {
        guard ScanID.isValid(id) else { return nil }
        let lifetime = lifetime
        return try await answering("reading a page") { () async throws -> [UInt8]? in
            let rows = try await self.client.query(
                """
                SELECT image FROM focal_pages
                WHERE id = \(id) AND created > now() - make_interval(secs => \(lifetime))
                """, logger: self.log)
            for try await image in rows.decode(ByteBuffer.self) { return Array(buffer: image) }
            return nil
        }
    }

    public func removePage(_ id: String) async throws(ServiceError) {
        _ = try await answering("removing a page") {
            try await self.client.query("DELETE FROM focal_pages WHERE id = \(id)", logger: self.log)
        }
    }

    public func document(_ id: String) async throws(ServiceError) -> StoredDocument? {
        guard ScanID.isValid(id) else { return nil }
        let lifetime = lifetime
        return try await answering("reading a document") { () async throws -> StoredDocument? in
            let rows = try await self.client.query(
                """
                SELECT record, revision FROM focal_documents
                WHERE id = \(id) AND created > now() - make_interval(secs => \(lifetime))
                """, logger: self.log)
            for try await (record, revision) in rows.decode((ByteBuffer, Int).self) {
                return StoredDocument(record: Array(buffer: record), revision: revision)
            }
            return nil
        }
    }

    public func putDocument(_ id: String, record: [UInt8], replacing expected: Int?) async throws(ServiceError) -> Bool {
        guard ScanID.isValid(id) else { return false }
        let bytes = ByteBuffer(bytes: record)
        return try await answering("writing a document") { () async throws -> Bool in
            let rows: PostgresRowSequence
            if let expected {
                rows = try await self.client.query(
                    """
                    UPDATE focal_documents SET record = \(bytes), revision = revision + 1
                    WHERE id = \(id) AND revision = \(expected) RETURNING id
                    """, logger: self.log)
            } else {
                rows = try await self.client.query(
                    """
                    INSERT INTO focal_documents (id, record, revision) VALUES (\(id), \(bytes), 1)
                    ON CONFLICT (id) DO NOTHING RETURNING id
                    """, logger: self.log)
            }
            for try await _ in rows.decode(String.self) { return true }
            return false
        }
    }

    public func removeDocument(_ id: String) async throws(ServiceError) {
        _ = try await answering("removing a document") {
            try await self.client.query("DELETE FROM focal_documents WHERE id = \(id)", logger: self.log)
        }
    }

    /// Expired documents and pages go; then the oldest pages while they hold more than
    /// `maximumBytes`.
    func sweepDocuments(lifetime: Double, maximumBytes: Int) async throws {
        try await client.query(
            "DELETE FROM focal_documents WHERE created <= now() - make_interval(secs => \(lifetime))", logger: log)
        try await client.query(
            "DELETE FROM focal_pages WHERE created <= now() - make_interval(secs => \(lifetime))", logger: log)
        try await client.query(
            """
            DELETE FROM focal_pages WHERE id IN (
                SELECT id FROM (
                    SELECT id, sum(size) OVER (ORDER BY created DESC, id) AS newer FROM focal_pages
                ) AS totals WHERE newer > \(maximumBytes))
            """, logger: log)
    }
}
