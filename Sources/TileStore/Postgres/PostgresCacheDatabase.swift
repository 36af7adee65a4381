import Foundation
import Logging
import NIOPosix
import PostgresNIO
import Synchronization

/// One process's link to a PostgreSQL database holding MapFrame's shared cache: a pool of
/// connections (postgres-nio's `PostgresClient`), the schema brought up to date on first use,
/// one more connection that holds the advisory locks through which instances take turns to
/// fetch a tile, and whether the database is reachable now.
///
/// Every statement has `statementTimeout` to answer. A statement that fails to reach the
/// database, or does not answer in time, marks it unavailable for `retryInterval`: meanwhile
/// statements fail at once with `CacheError.unavailable`, so that no request waits on a
/// database that is down, and the first statement after the interval tries again.
public final class PostgresCacheDatabase: Sendable {
    public let address: PostgresAddress
    /// How long a statement may take before the database counts as unavailable.
    public static let statementTimeout: Duration = .seconds(5)
    /// How long after a failure statements fail at once, before one tries again.
    public static let retryInterval: TimeInterval = 1
    /// Connections in the pool at most: enough for the server's blocking threads and fetches.
    static let maximumConnections = 16

    private let client: PostgresClient
    private let runner: Task<Void, Never>
    private let lockConnectionConfiguration: PostgresConnection.Configuration
    private let lockConnection = Mutex<PostgresConnection?>(nil)
    private let executor = PostgresTaskExecutor(threads: 2)
    /// The client's network work runs on a thread of its own, so that a caller blocking an event
    /// loop of the server's (where Swift tasks run in `mapframe serve`) never holds it up.
    private let eventLoops = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private let outage = Mutex<Outage?>(nil)
    private let logger = PostgresCacheDatabase.quietLogger

    /// postgres-nio's own logging, which only says what the errors MapFrame reports say.
    static let quietLogger: Logger = {
        var logger = Logger(label: "mapframe.postgres")
        logger.logLevel = .critical
        return logger
    }()

    /// Why the database is unavailable, and when to try it again.
    private struct Outage {
        var reason: String
        var retryAt: Date
    }

    private static let shared = Mutex<[PostgresAddress: PostgresCacheDatabase]>([:])

    /// The process's link to `address`, made (and the schema brought up to date) on first use.
    public static func open(_ address: PostgresAddress) throws(CacheError) -> PostgresCacheDatabase {
        if let database = shared.withLock({ $0[address] }) { return database }
        let database = PostgresCacheDatabase(address: address, password: address.password())
        // One connection first, on its own: the pool retries a refused login quietly, while
        // this says why (a wrong password, say) at once.
        try database.blocking("connect") { _ in _ = try await database.connectLockConnection() }
        try database.migrate()
        return shared.withLock { databases in
            if let existing = databases[address] { return existing }
            databases[address] = database
            return database
        }
    }

    private init(address: PostgresAddress, password: String?) {
        self.address = address
        var configuration = PostgresClient.Configuration(
            host: address.host, port: address.port, username: address.user, password: password, database: address.database, tls: .disable
        )
        configuration.options.maximumConnections = Self.maximumConnections
        configuration.options.connectTimeout = Self.statementTimeout
        let client = PostgresClient(configuration: configuration, eventLoopGroup: eventLoops, backgroundLogger: Self.quietLogger)
        self.client = client
        runner = Task(executorPreference: executor) { await client.run() }
        var lockConfiguration = PostgresConnection.Configuration(
            host: address.host, port: address.port, username: address.user, password: password, database: address.database, tls: .disable
        )
        lockConfiguration.options.connectTimeout = .seconds(Self.statementTimeout.components.seconds)
        lockConnectionConfiguration = lockConfiguration
    }

    // MARK: - Health

    /// Asks the database whether it is there (at most once per `retryInterval` while it is not):
    /// why it is unavailable, or nil when it answered.
    public func unavailableReason() async -> String? {
        do throws(CacheError) {
            try await run("check the database") { client in try await client.query("SELECT 1") }
            return nil
        } catch .unavailable(_, let reason) {
            return reason
        } catch {
            return error.description
        }
    }

    // MARK: - Statements

    /// Runs `body` with the pool, waiting at most `statementTimeout`, on behalf of a caller that
    /// blocks. `operation` names what was being done, for errors.
    func blocking<T: Sendable>(_ operation: String, _ body: @escaping @Sendable (PostgresClient) async throws -> T) throws(CacheError) -> T {
        let answer = OneAnswer<Result<T, CacheError>>()
        Task(executorPreference: executor) { answer.give(await self.outcome(operation, body)) }
        // `outcome` ends within the statement timeout; the margin only guards against a stall.
        guard let result = answer.wait(upTo: Self.statementTimeout + .seconds(1)) else {
            throw markUnavailable("it did not answer within \(Self.statementTimeout.components.seconds) s")
        }
        return try result.get()
    }

    /// Starts `work` on the client's own threads, for callers that do not wait for it.
    func detached(_ work: @escaping @Sendable () async -> Void) {
        Task(executorPreference: executor, operation: work)
    }

    /// Runs `body` with the pool, waiting at most `statementTimeout`.
    func run<T: Sendable>(_ operation: String, _ body: @escaping @Sendable (PostgresClient) async throws -> T) async throws(CacheError) -> T {
        try await outcome(operation, body).get()
    }

    private func outcome<T: Sendable>(_ operation: String, _ body: @escaping @Sendable (PostgresClient) async throws -> T) async -> Result<T, CacheError> {
        if let reason = activeOutage() { return .failure(.unavailable(cache: address.description, reason: reason)) }
        let client = client
        let result = await racing(Self.statementTimeout) { try await body(client) }
        switch result {
        case .answered(.success(let value)):
            outage.withLock { $0 = nil }
            return .success(value)
        case .answered(.failure(let error)):
            return .failure(classify(error, operation: operation))
        case .timedOut:
            return .failure(markUnavailable("it did not answer within \(Self.statementTimeout.components.seconds) s"))
        }
    }

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

    /// A connection failure makes the database unavailable; a statement the server refused is a
    /// database error. Neither message holds the password, which PostgreSQL never repeats.
    private func classify(_ error: any Error, operation: String) -> CacheError {
        if let error = error as? PostgresSchema.NewerSchema {
            return .database(cache: address.description, operation: operation, message: error.description)
        }
        guard let error = error as? PSQLError else {
            return error is CancellationError ? markUnavailable("the statement was cancelled") : markUnavailable("\(error)")
        }
        guard error.code == .server, let state = error.serverInfo?[.sqlState] else {
            return markUnavailable("\(error.code)")
        }
        let message = error.serverInfo?[.message] ?? "SQLSTATE \(state)"
        // Connection exceptions (08), authentication (28), resources (53) and shutdown (57P0x).
        if ["08", "28", "53"].contains(String(state.prefix(2))) || state.hasPrefix("57P0") {
            return markUnavailable("\(message) (SQLSTATE \(state))")
        }
        return .database(cache: address.description, operation: operation, message: "\(message) (SQLSTATE \(state))")
    }

    /// What came first: `body`'s result or the end of `timeout`. A body still running then is
    /// cancelled and left to end by itself, so that the caller never waits past `timeout`. Both
    /// run on the client's own threads.
    private func racing<T: Sendable>(_ timeout: Duration, _ body: @escaping @Sendable () async throws -> T) async -> Race<T> {
        let answer = OneAnswer<Race<T>>()
        let work = Task(executorPreference: executor) {
            do { answer.give(.answered(.success(try await body()))) } catch { answer.give(.answered(.failure(error))) }
        }
        let timer = Task(executorPreference: executor) {
            try? await Task.sleep(for: timeout)
            answer.give(.timedOut)
        }
        let result = await answer.value()
        work.cancel()
        timer.cancel()
        return result
    }

    private enum Race<T: Sendable>: Sendable {
        case answered(Result<T, any Error>)
        case timedOut
    }

    // MARK: - Fetch turns

    /// Takes the advisory lock `key` if no other session holds it; nil when the lock
    /// connection cannot be had (the caller fetches alone).
    func tryLock(_ key: Int64) async -> Bool? {
        guard activeOutage() == nil, let connection = await lockingConnection() else { return nil }
        let answer = await racing(Self.statementTimeout) { () async throws -> Bool in
            let rows = try await connection.query("SELECT pg_try_advisory_lock(\(key))", logger: self.logger)
            for try await (locked,) in rows.decode((Bool,).self) { return locked }
            return false
        }
        guard case .answered(.success(let locked)) = answer else {
            dropLockConnection(connection)
            return nil
        }
        return locked
    }

    /// Lets the advisory lock `key` go; if the lock connection is gone, so is the lock.
    func unlock(_ key: Int64) {
        guard let connection = lockConnection.withLock({ $0 }) else { return }
        Task {
            _ = await racing(Self.statementTimeout) { try await connection.query("SELECT pg_advisory_unlock(\(key))", logger: self.logger) }
        }
    }

    /// The connection that holds this process's advisory locks, connected when needed; nil
    /// when it cannot be had now.
    private func lockingConnection() async -> PostgresConnection? {
        if let connection = lockConnection.withLock({ $0 }), !connection.isClosed { return connection }
        let answer = await racing(Self.statementTimeout) { try await self.connectLockConnection() }
        guard case .answered(.success(let connection)) = answer else { return nil }
        return connection
    }

    /// Connects the lock connection, unless another call has meanwhile.
    private func connectLockConnection() async throws -> PostgresConnection {
        let connection = try await PostgresConnection.connect(
            on: eventLoops.next(), configuration: lockConnectionConfiguration, id: 1, logger: logger
        )
        return lockConnection.withLock { current in
            if let current, !current.isClosed {
                Task { try? await connection.close() }
                return current
            }
            current = connection
            return connection
        }
    }

    private func dropLockConnection(_ connection: PostgresConnection) {
        lockConnection.withLock { if $0 === connection { $0 = nil } }
        Task { try? await connection.close() }
    }

    // MARK: - Schema

    /// Applies the migrations this database has not had, in one transaction under an advisory
    /// lock, so that instances starting together apply each once.
    private func migrate() throws(CacheError) {
        let logger = logger
        try blocking("bring the schema up to date") { client in
            try await client.withTransaction(logger: logger) { connection in
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

/// One answer, given once by whichever side comes first, to a waiter that blocks or awaits.
private final class OneAnswer<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value?
    private var continuation: CheckedContinuation<Value, Never>?
    private let semaphore = DispatchSemaphore(value: 0)

    /// Gives the answer; later answers are dropped.
    func give(_ answer: Value) {
        lock.lock()
        guard value == nil else {
            lock.unlock()
            return
        }
        value = answer
        let waiting = continuation
        continuation = nil
        lock.unlock()
        waiting?.resume(returning: answer)
        semaphore.signal()
    }

    /// Blocks until the answer is given, or `timeout` passes (nil).
    func wait(upTo timeout: Duration) -> Value? {
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        guard semaphore.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success else { return nil }
        return lock.withLock { value }
    }

    /// Suspends until the answer is given.
    func value() async -> Value {
        await withCheckedContinuation { continuation in
            lock.lock()
            if let value {
                lock.unlock()
                continuation.resume(returning: value)
            } else {
                self.continuation = continuation
                lock.unlock()
            }
        }
    }
}
