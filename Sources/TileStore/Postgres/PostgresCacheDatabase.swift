#if PostgreSQL
import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization

/// One process's link to a PostgreSQL database holding MapFrame's shared cache: a pool of
/// connections (postgres-nio's `PostgresClient`, on NIO's shared event loops), the schema brought
/// up to date on first use, one more connection that holds the advisory locks through which
/// instances take turns to fetch a tile, and whether the database is reachable now.
///
/// Every statement has `statementTimeout` to answer, waiting for a connection included: one that
/// does not has its wait cancelled, or its connection closed, which ends it. A statement that fails to reach the database, or does not answer in time,
/// marks it unavailable for `retryInterval`: meanwhile statements fail at once with
/// `CacheError.unavailable`, so that no request waits on a database that is down, and the first
/// statement after the interval tries again.
public final class PostgresCacheDatabase: Sendable {
    public let address: PostgresAddress
    /// How long a statement may take before the database counts as unavailable.
    public static let statementTimeout: Duration = .seconds(5)
    /// How long after a failure statements fail at once, before one tries again.
    public static let retryInterval: TimeInterval = 1
    /// Settings for every connection. A prepared statement is planned once per connection, not on
    /// every execution: each statement that tiles take is written so that one plan suits every
    /// batch (index lookups a tile), and PostgreSQL otherwise planned each batch afresh, which was
    /// a quarter of its time in a cold fill.
    static let sessionSettings = [("plan_cache_mode", "force_generic_plan")]
    /// Connections in the pools at most (one a loop where there are more loops): enough for
    /// concurrent lookups, fetches and writes.
    static let maximumConnections = 16

    /// A pool of connections on each of NIO's shared event loops: a statement made on an event
    /// loop (a tile the server answers there) goes out and comes back on that loop's own
    /// connections, with no other thread woken.
    private let clients: [ObjectIdentifier: PostgresClient]
    /// The same pools, in turn for statements made off the event loops (a command's).
    private let pools: [PostgresClient]
    private let nextPool = Atomic(0)
    /// The advisory locks through which instances take turns to fetch a tile.
    let fetchTurns: PostgresFetchTurns
    private let outage = Mutex<Outage?>(nil)
    /// The last look `unavailableReason()` took at the database, so that the stores sharing it
    /// (each style's tiles, and any other store kept there) and a health check polled often cost
    /// one statement a `retryInterval`, not one each.
    private let lastLook = Mutex<(at: Date, reason: String?)?>(nil)

    /// The first key of the two-key advisory locks under which instances take turns at work on
    /// the database; the second key says what the lock guards, 1 being bringing the schema up to
    /// date (`PostgresSchema.migrationLock`). Tile fetch turns use one-key locks, whose key space
    /// PostgreSQL keeps apart from two-key ones.
    public static let advisoryLockClass: Int32 = 0x4D46

    /// postgres-nio's own logging, which only says what the errors MapFrame reports say: the
    /// logger for the statements a `run` makes.
    public static let quietLogger: Logger = {
        var logger = Logger(label: "mapframe.postgres")
        logger.logLevel = .critical
        return logger
    }()

    /// Why the database is unavailable, and when to try it again.
    private struct Outage {
        var reason: String
        var retryAt: Date
    }

    /// The links opened so far, one a database, each made once however many ask at once.
    private static let opened = Mutex<[PostgresAddress: Task<PostgresCacheDatabase, any Error>]>([:])

    /// The process's link to `address`, made (and the schema brought up to date) on first use.
    public static func open(_ address: PostgresAddress) async throws(CacheError) -> PostgresCacheDatabase {
        let opening = opened.withLock { opened in
            if let opening = opened[address] { return opening }
            let opening = Task { () async throws -> PostgresCacheDatabase in
                let database = PostgresCacheDatabase(address: address, password: address.password())
                // One connection first, on its own: the pool retries a refused login quietly,
                // while this says why (a wrong password, say) at once.
                try await database.connectFirst()
                try await database.migrate()
                return database
            }
            opened[address] = opening
            return opening
        }
        do {
            return try await opening.value
        } catch {
            // A link that could not be made is tried afresh by the next caller.
            _ = Self.opened.withLock { $0.removeValue(forKey: address) }
            throw error as? CacheError ?? .unavailable(cache: address.description, reason: "\(error)")
        }
    }

    private init(address: PostgresAddress, password: String?) {
        self.address = address
        var configuration = PostgresClient.Configuration(
            host: address.host, port: address.port, username: address.user, password: password, database: address.database, tls: .disable
        )
        configuration.options.connectTimeout = Self.statementTimeout
        configuration.options.additionalStartupParameters = Self.sessionSettings
        let loops = Array(MultiThreadedEventLoopGroup.singleton.makeIterator())
        configuration.options.maximumConnections = max(1, Self.maximumConnections / loops.count)
        let pools = loops.map { loop in
            (ObjectIdentifier(loop), PostgresClient(configuration: configuration, eventLoopGroup: loop, backgroundLogger: Self.quietLogger))
        }
        clients = Dictionary(uniqueKeysWithValues: pools)
        self.pools = pools.map(\.1)
        // The pools run for the life of the process: a link is shared by everything in it that
        // uses the database, and made once (`open`).
        Task {
            await withDiscardingTaskGroup { group in
                for (_, client) in pools { group.addTask { await client.run() } }
            }
        }
        var lockConfiguration = PostgresConnection.Configuration(
            host: address.host, port: address.port, username: address.user, password: password, database: address.database, tls: .disable
        )
        lockConfiguration.options.connectTimeout = .seconds(Self.statementTimeout.components.seconds)
        lockConfiguration.options.additionalStartupParameters = Self.sessionSettings
        fetchTurns = PostgresFetchTurns(configuration: lockConfiguration, statementTimeout: Self.statementTimeout)
    }

    // MARK: - Health

    /// Asks the database whether it is there and takes the cache's work (`healthCheck`), at most
    /// once per `retryInterval`: why it is unavailable, or nil when it answered. A failure of any statement since is said at once.
    public func unavailableReason() async -> String? {
        if let reason = activeOutage() { return reason }
        if let last = lastLook.withLock({ $0 }), Date().timeIntervalSince(last.at) < Self.retryInterval { return last.reason }
        let reason: String?
        do throws(CacheError) {
            let allowed = try await run("check the database") { connection -> Bool in
                for try await (allowed,) in try await connection.query(Self.healthCheck, logger: Self.quietLogger).decode((Bool,).self) {
                    return allowed
                }
                return false
            }
            reason = allowed ? nil : "this role may not read and write the cache's tables"
        } catch .unavailable(_, let why) {
            reason = why
        } catch {
            reason = error.description
        }
        lastLook.withLock { $0 = (Date(), reason) }
        return reason
    }

    /// What a health check asks: whether the cache's tables are there and this role may do its
    /// work on them, so that a database that answers yet refuses that work (a table gone, its
    /// rights taken away) is not counted well. From the catalogue alone: a lock held on a table
    /// does not hold the check up.
    static let healthCheck: PostgresQuery = """
        SELECT has_table_privilege('mapframe_tiles', 'SELECT, INSERT, UPDATE, DELETE')
            AND has_table_privilege('mapframe_routes', 'SELECT, INSERT, DELETE')
        """

    /// `unavailableReason()`, naming the database.
    public func unavailability() async -> Unavailability? {
        await unavailableReason().map { Unavailability(storage: "cache \(address)", reason: $0) }
    }

    // MARK: - Statements

    /// Runs `body` with a connection from the pool, waiting for it and having it for at most
    /// `statementTimeout` in all. `operation` names what was being done, for errors.
    public func run<T: Sendable>(
        _ operation: String, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws(CacheError) -> T {
        if let reason = activeOutage() { throw .unavailable(cache: address.description, reason: reason) }
        let client = MultiThreadedEventLoopGroup.currentEventLoop.flatMap { clients[ObjectIdentifier($0)] }
            ?? pools[nextPool.add(1, ordering: .relaxed).oldValue % pools.count]
        let result = await Self.withStatementTimeout { held in
            try await client.withConnection { connection in
                held.hold(connection)
                defer { held.hold(nil) }
                do {
                    return try await body(connection)
                } catch {
                    // PostgresNIO keeps a statement that failed to prepare as failed on its
                    // connection for good: such a connection would refuse it even once the
                    // database takes it again, so it goes rather than back to the pool.
                    if Self.refusesAgain(error) { try? await connection.close() }
                    throw error
                }
            }
        }
        switch result {
        case .answered(.success(let value)):
            outage.withLock { $0 = nil }
            return value
        case .answered(.failure(let error)):
            throw classify(error, operation: operation)
        case .timedOut:
            throw markUnavailable("it did not answer within \(Self.statementTimeout.components.seconds) s")
        }
    }

    /// What came first: `body`'s result, or the end of `statementTimeout` (`StatementDeadline`).
    /// At the timeout, the wait for a connection is cancelled, or the connection `body` holds is
    /// closed, which ends its statement. One timer a round trip, which carries many lookups
    /// under load (`LookupBatches`).
    private static func withStatementTimeout<T: Sendable>(
        _ body: @escaping @Sendable (HeldConnection) async throws -> T
    ) async -> StatementDeadline.Outcome<T> {
        let held = HeldConnection()
        let outcome = await StatementDeadline.race(statementTimeout) { try await body(held) }
        if case .timedOut = outcome { held.close() }
        return outcome
    }

    /// The connection a statement is running on, so that a timeout can close it.
    private final class HeldConnection: Sendable {
        private let connection = Mutex<PostgresConnection?>(nil)

        func hold(_ held: PostgresConnection?) { connection.withLock { $0 = held } }

        func close() {
            let _: EventLoopFuture<Void>? = connection.withLock { $0 }?.close()
        }
    }

    /// Whether statements fail at once now, the database having failed a moment ago.
    var isUnavailable: Bool { activeOutage() != nil }

    /// The reason statements fail at once now, or nil when one may try the database.
    private func activeOutage() -> String? {
        outage.withLock { outage in
            guard let current = outage, current.retryAt > Date() else { return nil }
            return current.reason
        }
    }

    private func markUnavailable(_ reason: String) -> CacheError {
        outage.withLock { $0 = Outage(reason: reason, retryAt: Date().addingTimeInterval(Self.retryInterval)) }
        return .unavailable(cache: address.description, reason: reason)
    }

    /// A connection failure makes the database unavailable, and so does a statement the server
    /// refused for a reason that will refuse the next one too: a table gone or its rights taken
    /// away (class 42), a read-only server (25), a full disk (53), a statement timeout (57). Only a
    /// failure of that one statement's data (22, 23) or of its transaction against another (40)
    /// is a database error of its own. No message holds the password, which PostgreSQL never
    /// repeats.
    private func classify(_ error: any Error, operation: String) -> CacheError {
        if let error = error as? CacheError { return error }
        let error = Self.statementError(in: error)
        if let error = error as? PostgresSchema.NewerSchema {
            return .database(cache: address.description, operation: operation, message: error.description)
        }
        // A statement given up because its caller stopped (the server stopping, say) says
        // nothing of the database.
        if error is CancellationError {
            return .unavailable(cache: address.description, reason: "the statement was given up: its request stopped")
        }
        guard let error = error as? PSQLError else { return markUnavailable("\(error)") }
        guard error.code == .server, let state = error.serverInfo?[.sqlState] else {
            return markUnavailable("\(error.code)")
        }
        let message = "\(error.serverInfo?[.message] ?? "refused") (SQLSTATE \(state))"
        guard Self.refusesAgain(error) else { return .database(cache: address.description, operation: operation, message: message) }
        return markUnavailable(message)
    }

    /// Whether `error` is the server refusing a statement for a reason that will refuse the next
    /// one too (`classify`): any SQLSTATE but a failure of the statement's own data (22, 23) or a
    /// clash with another transaction (40).
    private static func refusesAgain(_ error: any Error) -> Bool {
        guard let refusal = statementError(in: error) as? PSQLError, refusal.code == .server,
              let state = refusal.serverInfo?[.sqlState] else { return false }
        return !["22", "23", "40"].contains(String(state.prefix(2)))
    }

    /// The statement's error a transaction's error wraps, or `error` itself: the wrapper's own
    /// description names PostgresNIO's source files, and says nothing more.
    private static func statementError(in error: any Error) -> any Error {
        guard let failed = error as? PostgresTransactionError else { return error }
        return failed.beginError ?? failed.closureError ?? failed.commitError ?? error
    }

    // MARK: - Opening

    /// Connects the lock connection, so that a wrong password or a database that is not there
    /// is said at once, in PostgreSQL's words.
    private func connectFirst() async throws(CacheError) {
        do {
            try await fetchTurns.connect()
        } catch {
            throw classify(error, operation: "connect")
        }
    }

    /// Applies the migrations this database has not had, in one transaction under an advisory
    /// lock, so that instances starting together apply each once.
    private func migrate() async throws(CacheError) {
        let logger = Self.quietLogger
        try await run("bring the schema up to date") { connection in
            try await connection.withTransaction(logger: logger) { connection in
                try await connection.query("SELECT pg_advisory_xact_lock(\(PostgresSchema.migrationLock.0), \(PostgresSchema.migrationLock.1))", logger: logger)
                try await connection.query(PostgresQuery(unsafeSQL: PostgresSchema.migrationsTable), logger: logger)
                var applied = 0
                for try await (version,) in try await connection.query("SELECT coalesce(max(version), 0) FROM mapframe_schema_migrations", logger: logger)
                    .decode((Int,).self) { applied = version }
                guard applied <= PostgresSchema.migrations.count else {
                    throw PostgresSchema.NewerSchema(found: applied, known: PostgresSchema.migrations.count)
                }
                for (index, migration) in PostgresSchema.migrations.enumerated() where index + 1 > applied {
                    for statement in migration.statements { try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
                    try await connection.query(
                        "INSERT INTO mapframe_schema_migrations (version, description) VALUES (\(index + 1), \(migration.description))", logger: logger
                    )
                }
            }
        }
    }
}
#endif
