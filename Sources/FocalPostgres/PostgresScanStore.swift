import FocalService
import Logging
import NIOPosix
import NIOSSL
import PostgresNIO
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Flat scans in a PostgreSQL table that every replica reaches over the network, for deployments
/// without a shared volume: any replica serves a scan another one made, and scans outlive
/// restarts of every replica.
///
/// The table (`focal_scans`) is created at start-up if it is missing. Ids are ``ScanID``s, passed
/// as bound parameters, never spliced into SQL. Scans expire after `lifetime` seconds; when the
/// table holds more than `maximumBytes` of scans, the oldest go first. A database that does not
/// answer within ``operationTimeout`` makes the request 503 (retry later), never a hang.
public final class PostgresScanStore: ScanStore {
    /// Seconds a scan stays. Raising it keeps scans for slower clients, at the cost of space.
    public let lifetime: Double
    /// Bytes of scans the table may hold; beyond it the oldest are deleted.
    public let maximumBytes: Int
    /// Seconds one database operation may take before its request is answered 503. Raising it
    /// rides out longer database stalls, at the cost of requests waiting that long.
    public static let operationTimeout = 5.0
    /// Sweeps (expiry and the size cap) run at most this often, in seconds, from a writing replica.
    public static let sweepInterval = 10.0
    /// The database, as the log and errors name it: the URL without its password.
    public let endpoint: String
    let client: PostgresClient
    private let login: LoginCheck
    private let lastSweep = Mutex(ContinuousClock.now - .seconds(3600))
    let log = Logger(label: "focal.scan-store")

    /// A store at `url`: `postgres://user[:password]@host[:port]/database`, with `?sslmode=`
    /// `disable`, `prefer` (the default, as libpq's) or `require`, and `?host=/run/postgresql`
    /// for a Unix socket in that folder. A password in `password` (from `PGPASSWORD`, say) keeps
    /// it off the command line. Nothing is connected until ``prepare()``.
    public init(url: String, password: String? = nil, lifetime: Double = 3600, maximumBytes: Int = 1 << 30)
        throws(ServiceError)
    {
        let parsed = try Self.configuration(url: url, password: password)
        self.endpoint = parsed.endpoint
        self.login = parsed.login
        self.lifetime = lifetime
        self.maximumBytes = maximumBytes
        var configuration = parsed.configuration
        configuration.options.connectTimeout = .seconds(Int64(Self.operationTimeout))
        configuration.options.maximumConnections = 8
        var background = Logger(label: "focal.scan-store.connections")
        background.logLevel = .warning
        client = PostgresClient(configuration: configuration, backgroundLogger: background)
    }

    public var retention: String { "scans are kept for \(Int(lifetime)) s" }

    public func run() async { await client.run() }

    public func prepare() async throws(ServiceError) {
        do {
            try await bounded {
                // Replicas starting together would race to create the table: a transaction-scoped
                // lock makes it one at a time.
                try await self.client.withTransaction(logger: self.log) { connection in
                    try await connection.query("SELECT pg_advisory_xact_lock(7432001)", logger: self.log)
                    try await connection.query(
                        """
                        CREATE TABLE IF NOT EXISTS focal_scans (
                            id text PRIMARY KEY, jpeg bytea NOT NULL, size integer NOT NULL,
                            created timestamptz NOT NULL DEFAULT now())
                        """, logger: self.log)
                    try await connection.query(
                        "CREATE INDEX IF NOT EXISTS focal_scans_created ON focal_scans (created)", logger: self.log)
                    for statement in Self.documentTables {
                        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: self.log)
                    }
                }
            }
        } catch {
            // A refused login looks like a stall from the pool: ask once, directly, why.
            let reason = await login.refusal(within: Self.operationTimeout) ?? error.reason
            throw ServiceError(503, "cannot use the scan store \(endpoint): \(reason)")
        }
    }

    public func keep(_ jpeg: [UInt8]) async throws(ServiceError) -> String {
        let id = ScanID.make()
        let bytes = ByteBuffer(bytes: jpeg), size = jpeg.count
        _ = try await answering("keeping a scan") {
            try await self.client.query(
                "INSERT INTO focal_scans (id, jpeg, size) VALUES (\(id), \(bytes), \(size))", logger: self.log)
        }
        sweepIfDue()
        return id
    }

    /// Starts a sweep when the last one from this replica is ``sweepInterval`` old.
    func sweepIfDue() {
        let now = ContinuousClock.now
        let due = lastSweep.withLock { last in
            guard now - last >= .seconds(Self.sweepInterval) else { return false }
            last = now
            return true
        }
        if due { Task { await self.sweep() } }
    }

    public func get(_ id: String) async throws(ServiceError) -> [UInt8]? {
        guard ScanID.isValid(id) else { return nil }
        let lifetime = lifetime
        return try await answering("reading a scan") { () async throws -> [UInt8]? in
            let rows = try await self.client.query(
                """
                SELECT jpeg FROM focal_scans
                WHERE id = \(id) AND created > now() - make_interval(secs => \(lifetime))
                """, logger: self.log)
            for try await jpeg in rows.decode(ByteBuffer.self) { return Array(buffer: jpeg) }
            return nil
        }
    }

    /// Deletes expired scans, then the oldest while the table holds more than ``maximumBytes``.
    public func sweep() async {
        let lifetime = lifetime, maximumBytes = maximumBytes
        do {
            try await bounded {
                try await self.client.query(
                    "DELETE FROM focal_scans WHERE created <= now() - make_interval(secs => \(lifetime))",
                    logger: self.log)
                try await self.client.query(
                    """
                    DELETE FROM focal_scans WHERE id IN (
                        SELECT id FROM (
                            SELECT id, sum(size) OVER (ORDER BY created DESC, id) AS newer FROM focal_scans
                        ) AS totals WHERE newer > \(maximumBytes))
                    """, logger: self.log)
                try await self.sweepDocuments(lifetime: lifetime, maximumBytes: maximumBytes)
            }
        } catch {
            log.warning("sweeping the scan store \(endpoint) failed: \(error.reason)")
        }
    }

    /// Runs a database operation; a failure or a stall is logged with its details and answered
    /// 503, since the database may well be back in a moment.
    func answering<T: Sendable>(_ what: String, _ operation: @escaping @Sendable () async throws -> T)
        async throws(ServiceError) -> T
    {
        do {
            return try await bounded(operation)
        } catch {
            log.error("\(what) in \(endpoint) failed: \(error.reason)")
            throw ServiceError(503, "the scan store is unavailable; try again shortly", retryAfter: 1)
        }
    }

    private func bounded<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T)
        async throws(StoreFailure) -> T
    {
        do {
            return try await withThrowingTaskGroup(of: T?.self) { tasks in
                tasks.addTask { try await operation() }
                tasks.addTask {
                    try await Task.sleep(for: .seconds(Self.operationTimeout))
                    return nil
                }
                defer { tasks.cancelAll() }
                guard let first = try await tasks.next(), let value = first else {
                    throw StoreFailure(reason: "no answer within \(Self.operationTimeout) s")
                }
                return value
            }
        } catch let error as StoreFailure {
            throw error
        } catch let error as PSQLError {
            // PSQLError's description hides the server's message; its reflection has it.
            throw StoreFailure(reason: String(reflecting: error))
        } catch {
            throw StoreFailure(reason: "\(error)")
        }
    }

    struct StoreFailure: Error {
        var reason: String
    }

    /// What a scan store URL names, checked: `postgres://user[:password]@host[:port]/database`,
    /// with `?host=/socket/folder` for a Unix socket and `sslmode=disable|prefer|require`.
    struct StoreURL {
        var user: String
        var database: String
        var port: Int
        var password: String?
        /// The folder of a Unix socket, instead of a host.
        var socketFolder: String?
        var host: String
        var sslMode: String

        init(_ url: String, password: String?) throws(ServiceError) {
            func refuse(_ why: String) -> ServiceError {
                ServiceError(400, "the scan store URL \(why); write postgres://user[:password]@host[:port]/database")
            }
            guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme ?? "")
            else { throw refuse("is not a postgres:// URL") }
            let options = Dictionary(
                (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
            guard let user = components.user, !user.isEmpty else { throw refuse("names no user") }
            database = String(components.path.drop { $0 == "/" })
            guard !database.isEmpty, !database.contains("/") else { throw refuse("names no database") }
            port = components.port ?? 5432
            guard (1...65535).contains(port) else { throw refuse("has port \(port)") }
            self.user = user
            self.password = password ?? components.password
            socketFolder = options["host"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            host = components.host ?? ""
            guard socketFolder != nil || !host.isEmpty else { throw refuse("names no host") }
            sslMode = options["sslmode"] ?? "prefer"
            guard socketFolder != nil || ["disable", "prefer", "require"].contains(sslMode) else {
                throw refuse("has sslmode=\(sslMode) (disable, prefer or require)")
            }
        }
    }

    /// The client configuration a URL names, and the URL as messages may show it (no password).
    static func configuration(url: String, password: String?) throws(ServiceError) -> (
        configuration: PostgresClient.Configuration, endpoint: String, login: LoginCheck
    ) {
        let target = try StoreURL(url, password: password)
        let (user, secret, database, port, host, mode) = (
            target.user, target.password, target.database, target.port, target.host, target.sslMode
        )
        if let socketFolder = target.socketFolder {
            let socket = socketFolder + "/.s.PGSQL.\(port)"
            return (
                .init(unixSocketPath: socket, username: user, password: secret, database: database),
                "postgres://\(user)@/\(database)?host=\(socketFolder)",
                LoginCheck { .init(unixSocketPath: socket, username: user, password: secret, database: database) }
            )
        }
        let tls: PostgresClient.Configuration.TLS =
            mode == "disable"
            ? .disable : mode == "require" ? .require(.makeClientConfiguration()) : .prefer(.makeClientConfiguration())
        return (
            .init(host: host, port: port, username: user, password: secret, database: database, tls: tls),
            "postgres://\(user)@\(host):\(port)/\(database)",
            LoginCheck {
                let context = { try NIOSSLContext(configuration: .makeClientConfiguration()) }
                let tls: PostgresConnection.Configuration.TLS =
                    mode == "disable" ? .disable : mode == "require" ? .require(try context()) : .prefer(try context())
                return .init(host: host, port: port, username: user, password: secret, database: database, tls: tls)
            }
        )
    }

    /// One connection made apart from the pool, to learn why the pool's connections fail: the
    /// pool retries a refused login until the operation times out, which said only "no answer".
    struct LoginCheck: Sendable {
        let configuration: @Sendable () throws -> PostgresConnection.Configuration

        /// What the server said when it refused the login (a wrong password, an unknown user or
        /// database), or nil when a connection is made or no answer comes.
        func refusal(within seconds: Double) async -> String? {
            let log = Logger(label: "focal.scan-store.login")
            do {
                let connection = try await PostgresConnection.connect(
                    on: MultiThreadedEventLoopGroup.singleton.next(), configuration: try configuration(), id: 0, logger: log
                ).get()
                try? await connection.close()
                return nil
            } catch let error as PSQLError {
                guard let message = error.serverInfo?[.message] else { return nil }
                return "the server refused the login: \(message)"
            } catch {
                return nil
            }
        }
    }
}

extension Error {
    fileprivate var reason: String {
        switch self {
        case let error as PostgresScanStore.StoreFailure: error.reason
        case let error as ServiceError: error.reason
        default: String(reflecting: self)
        }
    }
}
