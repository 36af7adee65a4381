#if PostgreSQL
import Foundation
import Logging
import MapGeometry
import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization

/// How the instances sharing a PostgreSQL cache take turns to fetch a tile: a session advisory
/// lock a tile, held on one connection of each process while it fetches. An instance lets a
/// lock go with a notification on `channel`, which wakes the instances waiting for it at once,
/// rather than at their next look.
///
/// Lock attempts, and releases, asked for while one is under way go together in the next
/// statement (`RoundTripBatches`): under a cold fill, one statement carries many tiles' turns.
/// A tile fetched in its turn is stored on the lock connection, in a statement that ends the turn
/// too (`storeEndingTurn`).
final class PostgresFetchTurns: Sendable {
    /// The channel on which a released lock's key is announced.
    static let channel = "mapframe_fetch_turns"

    private let configuration: PostgresConnection.Configuration
    private let connection = Mutex<PostgresConnection?>(nil)
    private let looks = RoundTripBatches<LookRequest, Look>(maximumUnderWay: 1)
    private let releases = RoundTripBatches<Int64, Bool>(maximumUnderWay: 1)
    /// Stores of tiles whose turns this instance holds, each ending its turn in the same statement.
    private let storesEndingTurns = RoundTripBatches<StoredTileRecord, Bool>(maximumUnderWay: 1)
    /// The advisory locks this instance holds on the lock connection, and how many times each
    /// is held (PostgreSQL counts a session's locks on one key).
    private let held = Mutex<[Int64: Int]>([:])
    private let waiters = Mutex<[Int64: [ObjectIdentifier: ReleaseWatch]]>([:])
    private let statementTimeout: Duration
    private let logger = PostgresCacheDatabase.quietLogger

    init(configuration: PostgresConnection.Configuration, statementTimeout: Duration) {
        self.configuration = configuration
        self.statementTimeout = statementTimeout
    }

    // MARK: - Turns

    /// What a look for a tile on the lock connection found.
    enum Look: Sendable {
        /// The tile, fresh: nothing to fetch.
        case stored(StoredTile)
        /// Not there, or not fresh, and the turn to fetch it is now this instance's.
        case taken
        /// Not there, or not fresh, and another instance has the turn.
        case heldElsewhere
    }

    /// A look for one tile of one style, as at `now`, under its advisory lock `key`.
    struct LookRequest: Sendable {
        var key: Int64
        var style: String
        var tile: TileID
        var now: Double
    }

    /// Looks for the tile, and takes its advisory lock if it is not there fresh and no other
    /// instance holds the lock; nil when the lock connection cannot be had (the caller fetches
    /// alone).
    func look(for request: LookRequest) async -> Look? {
        let look = try? await looks.answer(request) { requests async throws(CacheError) in
            try await self.onLockConnection(LookAndLock(requests: requests))
        }
        if case .taken = look { held.withLock { $0[request.key, default: 0] += 1 } }
        return look
    }

    /// Lets the advisory lock `key` go, and tells the instances waiting for it, unless a store
    /// has let it go already (`storeEndingTurn`); if the lock connection is gone, so is the lock.
    func unlock(_ key: Int64) async {
        guard letGo(key) else { return }
        _ = try? await releases.answer(key) { keys async throws(CacheError) in
            try await self.onLockConnection(Unlocks(keys: keys))
        }
    }

    /// Stores a tile whose turn this instance holds, and lets the turn go, in one statement on
    /// the lock connection: a cold fill's tile then costs the database one statement fewer.
    /// False when the turn is not held here, or the statement failed (which drops the lock
    /// connection, and every lock with it): the caller stores the tile by the pool.
    func storeEndingTurn(_ record: StoredTileRecord, style: String, key: Int64) async -> Bool {
        guard letGo(key) else { return false }
        return (try? await storesEndingTurns.answer(record) { records async throws(CacheError) -> [Bool] in
            let statement = StoreTilesEndingTurns(store: PostgresTileCache.StoreTiles(style: style, records: records, now: Date()))
            _ = try await self.onLockConnection(statement)
            return Array(repeating: true, count: records.count)
        }) ?? false
    }

    /// Counts one hold of `key` as let go: false when this instance does not hold it.
    private func letGo(_ key: Int64) -> Bool {
        held.withLock { held in
            guard let count = held[key] else { return false }
            held[key] = count > 1 ? count - 1 : nil
            return true
        }
    }

    /// Starts watching for the release of `key` to be announced: watch before trying the lock,
    /// so that a release announced meanwhile is not missed. End every watch with `endWatch`.
    func watchRelease(of key: Int64) -> ReleaseWatch {
        let watch = ReleaseWatch(key: key)
        waiters.withLock { $0[key, default: [:]][ObjectIdentifier(watch)] = watch }
        return watch
    }

    func endWatch(_ watch: ReleaseWatch) {
        waiters.withLock { waiters in
            waiters[watch.key]?[ObjectIdentifier(watch)] = nil
            if waiters[watch.key]?.isEmpty == true { waiters[watch.key] = nil }
        }
    }

    /// Wakes the waiters for a released key.
    private func announce(_ payload: String) {
        guard let key = Int64(payload) else { return }
        let woken = waiters.withLock { $0.removeValue(forKey: key) }
        woken?.values.forEach { $0.wake(announced: true) }
    }

    // MARK: - The lock connection

    /// Connects the lock connection unless it is connected, and listens on `channel` there.
    /// Throws postgres-nio's error when it cannot connect, for the caller to say why.
    @discardableResult
    func connect() async throws -> PostgresConnection {
        if let current = connection.withLock({ $0 }), !current.isClosed { return current }
        let made = try await PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.next(), configuration: configuration, id: 1, logger: logger
        )
        // The session's function, before the connection is anyone's to use, and within the
        // statement timeout: a backend killed meanwhile would leave the query unanswered for good.
        let logger = logger
        let created = await StatementDeadline.race(statementTimeout) {
            try await made.query(PostgresQuery(unsafeSQL: LookAndLock.function), logger: logger)
        }
        guard case .answered(.success) = created else {
            try? await made.close()
            if case .answered(.failure(let error)) = created { throw error }
            throw LockConnectionSilent(timeout: statementTimeout)
        }
        let kept = connection.withLock { current -> PostgresConnection in
            if let current, !current.isClosed { return current }
            current = made
            return made
        }
        guard kept === made else {
            try? await made.close()
            return kept
        }
        // Announcements arrive for as long as the connection lives; a waiter that misses one
        // looks again after its interval.
        Task { [weak self] in
            try? await made.listen(on: Self.channel) { announcements in
                for try await announcement in announcements { self?.announce(announcement.payload) }
            }
        }
        return made
    }

    /// Runs `statement` on the lock connection within the statement timeout; a connection that
    /// fails or does not answer is dropped, and the next statement connects afresh. The caller's
    /// cancellation does not reach the statement: a lock statement cut short would leave unknown
    /// which locks it took, and dropping the connection for it would drop every other fetch's lock.
    private func onLockConnection<Statement: PostgresPreparedStatement>(
        _ statement: Statement
    ) async throws(CacheError) -> [Statement.Row] where Statement.Row: Sendable {
        try await Task { () -> Result<[Statement.Row], CacheError> in
            do throws(CacheError) { return .success(try await self.uncancelledOnLockConnection(statement)) } catch { return .failure(error) }
        }.value.get()
    }

    private func uncancelledOnLockConnection<Statement: PostgresPreparedStatement>(
        _ statement: Statement
    ) async throws(CacheError) -> [Statement.Row] where Statement.Row: Sendable {
        let lockConnection: PostgresConnection
        do {
            lockConnection = try await connect()
        } catch {
            throw .unavailable(cache: "PostgreSQL", reason: "the lock connection could not be made")
        }
        let logger = logger
        let answer = await StatementDeadline.race(statementTimeout) {
            var rows: [Statement.Row] = []
            for try await row in try await lockConnection.execute(statement, logger: logger) { rows.append(row) }
            return rows
        }
        guard case .answered(.success(let rows)) = answer else {
            connection.withLock { if $0 === lockConnection { $0 = nil } }
            // Its locks go with it.
            held.withLock { $0.removeAll() }
            let _: EventLoopFuture<Void> = lockConnection.close()
            throw .unavailable(cache: "PostgreSQL", reason: "the lock connection failed")
        }
        return rows
    }

    /// Looks for tiles, in order, and takes the advisory lock of each that is not there fresh;
    /// a row a tile. Each tile's look and lock is `function`, a session's own function on the lock
    /// connection: being VOLATILE, each of its queries sees what was committed as it began. So a
    /// tile whose holder stored it and let its lock go while this statement ran is seen by the
    /// look after the lock, as the holder commits before its lock is free, and is not fetched
    /// again.
    private struct LookAndLock: PostgresPreparedStatement {
        static let name = "mapframe_look_and_lock"
        static let sql = """
            SELECT look.* FROM unnest($1::int8[], $2::text[], $3::int4[], $4::int4[], $5::int4[], $6::float8[])
                WITH ORDINALITY AS wanted(k, style, z, x, y, now, i),
            LATERAL pg_temp.mapframe_look_and_lock(wanted.k, wanted.style, wanted.z, wanted.x, wanted.y, wanted.now) AS look
            ORDER BY wanted.i
            """

        /// Looks for one tile, and takes its lock if it is not there fresh; once the lock is
        /// taken, looks again, and lets the lock go if the tile has come meanwhile. `lock_taken`
        /// is NULL when the tile is there fresh.
        static let function = """
            CREATE OR REPLACE FUNCTION pg_temp.mapframe_look_and_lock(
                k int8, wanted_style text, wanted_z int4, wanted_x int4, wanted_y int4, wanted_now float8,
                OUT tile_data bytea, OUT tile_etag text, OUT tile_last_modified text, OUT tile_expires_at float8,
                OUT tile_fetched_at float8, OUT lock_taken boolean)
            LANGUAGE plpgsql VOLATILE AS $look$
            BEGIN
                FOR attempt IN 1..2 LOOP
                    SELECT t.data, t.etag, t.last_modified, t.expires_at, t.fetched_at
                        INTO tile_data, tile_etag, tile_last_modified, tile_expires_at, tile_fetched_at
                        FROM mapframe_tiles t
                        WHERE t.style = wanted_style AND t.z = wanted_z AND t.x = wanted_x AND t.y = wanted_y LIMIT 1;
                    IF tile_data IS NOT NULL AND (tile_expires_at IS NULL OR tile_expires_at > wanted_now) THEN
                        IF lock_taken THEN PERFORM pg_advisory_unlock(k); END IF;
                        lock_taken := NULL;
                        RETURN;
                    END IF;
                    IF attempt = 1 THEN
                        lock_taken := pg_try_advisory_lock(k);
                        IF NOT lock_taken THEN RETURN; END IF;
                    END IF;
                END LOOP;
            END
            $look$
            """
        typealias Row = Look

        var requests: [LookRequest]

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 6)
            bindings.append(requests.map(\.key))
            bindings.append(requests.map(\.style))
            bindings.append(requests.map { Int32($0.tile.z) })
            bindings.append(requests.map { Int32($0.tile.x) })
            bindings.append(requests.map { Int32($0.tile.y) })
            bindings.append(requests.map(\.now))
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {
            let (data, etag, lastModified, expiresAt, fetchedAt, locked) = try row.decode((Data?, String?, String?, Double?, Double?, Bool?).self)
            if let data, locked == nil {
                return .stored(StoredTile(data: data, freshness: PostgresTileCache.freshness(etag, lastModified, expiresAt, fetchedAt)))
            }
            return locked == true ? .taken : .heldElsewhere
        }
    }

    /// Lets the advisory locks `keys` go, in order, and announces each on `channel`: the
    /// announcements are delivered when the statement commits.
    private struct Unlocks: LockKeysStatement {
        static let name = "mapframe_release_fetch_locks"
        static let sql = """
            SELECT pg_advisory_unlock(k), pg_notify('\(PostgresFetchTurns.channel)', k::text) IS NULL
            FROM unnest($1::int8[]) WITH ORDINALITY AS released(k, i) ORDER BY i
            """
        typealias Row = Bool

        var keys: [Int64]

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode((Bool, Bool).self).0 }
    }
}

/// The lock connection, just made, did not answer within the statement timeout.
private struct LockConnectionSilent: Error, CustomStringConvertible {
    let timeout: Duration
    var description: String { "the new lock connection did not answer within \(timeout.components.seconds) s" }
}

/// `PostgresTileCache.StoreTiles`, which also lets go the advisory lock of each tile stored:
/// run on the lock connection, which holds them. Each lock is taken again for the transaction
/// before it is let go, so that no other instance has it until the tiles are committed: one that
/// had it sooner would not see the tile, and would fetch it again.
private struct StoreTilesEndingTurns: PostgresPreparedStatement {
    static let name = "mapframe_store_tiles_ending_turns"
    static let sql = PostgresTileCache.StoreTiles.statement(then: """
        SELECT pg_advisory_unlock(k), pg_notify('\(PostgresFetchTurns.channel)', k::text) IS NULL
        FROM (SELECT k, pg_advisory_xact_lock(k) FROM unnest($11::int8[]) AS k OFFSET 0) AS held_until_commit
        """)
    typealias Row = Bool

    var store: PostgresTileCache.StoreTiles

    func makeBindings() throws -> PostgresBindings { try store.makeBindings() }
    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode((Bool, Bool).self).0 }
}

/// A statement on a batch of advisory lock keys, bound as `$1` in order: a row a key.
private protocol LockKeysStatement: PostgresPreparedStatement {
    var keys: [Int64] { get }
}

extension LockKeysStatement {
    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(keys)
        return bindings
    }
}

/// A watch for the announced release of one lock: woken once, by the announcement or by the end
/// of its wait.
final class ReleaseWatch: Sendable {
    let key: Int64

    private enum State {
        case waiting(CheckedContinuation<Void, Never>?)
        case woken(announced: Bool)
    }

    private let state = Mutex(State.waiting(nil))

    init(key: Int64) {
        self.key = key
    }

    /// Waits for the announcement, at most `interval` (a holder that went away lets its locks go
    /// unannounced): whether it came.
    func wait(atMost interval: Duration) async -> Bool {
        await withTaskGroup(of: Void.self) { race in
            race.addTask { await self.woken() }
            race.addTask {
                try? await Task.sleep(for: interval)
                self.wake(announced: false)
            }
            await race.next()
            race.cancelAll()
        }
        return state.withLock { state in
            guard case .woken(let announced) = state else { return false }
            return announced
        }
    }

    /// Returns once `wake` has been called, before or after.
    private func woken() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state -> Bool in
                guard case .waiting = state else { return true }
                state = .waiting(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    func wake(announced: Bool) {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard case .waiting(let continuation) = state else { return nil }
            state = .woken(announced: announced)
            return continuation
        }
        continuation?.resume()
    }
}
#endif
