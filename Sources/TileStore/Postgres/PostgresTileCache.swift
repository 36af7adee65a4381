#if PostgreSQL
import Foundation
import MapGeometry
import NIOCore
import PostgresNIO

/// One style's tiles in a PostgreSQL database that several MapFrame instances share. Every
/// method is one statement, so instances never see half a write; the lookups and stores every
/// tile takes are prepared statements, and lookups asked for while others are under way go to
/// the database together (`LookupBatches`). When several instances miss the same tile at once, one
/// fetches it and the others wait for it (`fetchTurn`).
public final class PostgresTileCache: TileCacheBackend {
    public let database: PostgresCacheDatabase
    public let style: String
    /// One lookup statement under way at a time from each of NIO's event loops: lookups asked for
    /// meanwhile on that loop go together in its next, on its own connections, so that no other
    /// thread is woken. This carried the most tiles a second under load (measured with wrk, against
    /// two or four statements at a time shared by all the loops).
    private let lookups = LookupBatches.PerEventLoop()
    /// Stores asked for while one is under way go together in the next statement: one commit for
    /// many tiles in a cold fill.
    private let stores = RoundTripBatches<StoredTileRecord, Bool>(maximumUnderWay: 1)
    /// How long an instance waits for another's fetch of a tile before fetching it itself.
    public static let fetchWait: Duration = .seconds(3)
    /// How long a waiting instance waits for the lock's release to be announced before it looks
    /// again: a holder that went away lets its locks go unannounced.
    static let fetchPollInterval: Duration = .milliseconds(250)

    public init(database: PostgresCacheDatabase, style: String) {
        self.database = database
        self.style = style
    }

    public var name: String { "\(database.address) (style \(style))" }
    public var kind: CacheBackendKind { .postgres }
    public var readOnlyReason: String? { nil }

    public func unavailability() async -> Unavailability? {
        await database.unavailability()
    }

    public func lookup(_ tile: TileID, at now: Date) async throws(CacheError) -> CacheLookup {
        let (database, style) = (database, style)
        return try await lookups.current.answer(tile) { tiles async throws(CacheError) -> [CacheLookup] in
            let statement = LookupTiles(style: style, tiles: tiles, now: now.timeIntervalSince1970)
            return try await database.run("look up \(tiles.count == 1 ? "tile \(tiles[0])" : "\(tiles.count) tiles")") { connection in
                var found = Array(repeating: CacheLookup(stored: nil), count: tiles.count)
                for try await (index, data, etag, lastModified, expiresAt, fetchedAt, missing)
                    in try await connection.execute(statement, logger: PostgresCacheDatabase.quietLogger) {
                    let stored = data.map { StoredTile(data: $0, freshness: Self.freshness(etag, lastModified, expiresAt, fetchedAt)) }
                    found[Int(index) - 1] = CacheLookup(stored: stored, isKnownMissing: missing)
                }
                return found
            }
        }
    }

    /// Everything known of some tiles, in one statement: each one's row, if any, and a
    /// remembered 404, numbered from 1 in the order asked.
    ///
    /// Each tile is its own index lookup (a lateral subquery with `LIMIT 1`, which the planner
    /// cannot turn into a join). A plain join was planned, while the table was empty, as a hash of
    /// every tile of the style, and a prepared statement kept that plan as the table grew: each
    /// lookup then read the whole style (seen in a cold fill, where PostgreSQL's time a tile grew
    /// with the tiles stored).
    struct LookupTiles: PostgresPreparedStatement {
        /// Named once: the protocol's default name is worked out by reflection on every execution.
        static let name = "mapframe_lookup_tiles"
        static let sql = """
            SELECT wanted.i, t.data, t.etag, t.last_modified, t.expires_at, t.fetched_at, coalesce(m.until > $5, false)
            FROM unnest($2::int4[], $3::int4[], $4::int4[]) WITH ORDINALITY AS wanted(z, x, y, i)
            LEFT JOIN LATERAL (
                SELECT data, etag, last_modified, expires_at, fetched_at FROM mapframe_tiles
                WHERE style = $1 AND z = wanted.z AND x = wanted.x AND y = wanted.y LIMIT 1) t ON true
            LEFT JOIN LATERAL (
                SELECT until FROM mapframe_missing_tiles
                WHERE style = $1 AND z = wanted.z AND x = wanted.x AND y = wanted.y LIMIT 1) m ON true
            """
        typealias Row = (Int64, Data?, String?, String?, Double?, Double?, Bool)

        var style: String
        var tiles: [TileID]
        var now: Double

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 5)
            bindings.append(style)
            bindings.append(tiles.map { Int32($0.z) })
            bindings.append(tiles.map { Int32($0.x) })
            bindings.append(tiles.map { Int32($0.y) })
            bindings.append(now)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    public func freshTileCount(in tiles: [TileID], at now: Date) async throws(CacheError) -> Int {
        guard !tiles.isEmpty else { return 0 }
        let style = style
        return try await database.run("count fresh tiles") { connection in
            let rows = try await connection.query("""
                SELECT count(*) FROM mapframe_tiles t
                JOIN unnest(\(tiles.map(\.z)), \(tiles.map(\.x)), \(tiles.map(\.y))) AS wanted(z, x, y) USING (z, x, y)
                WHERE t.style = \(style) AND (t.expires_at IS NULL OR t.expires_at > \(now.timeIntervalSince1970))
                """, logger: PostgresCacheDatabase.quietLogger)
            for try await (count,) in rows.decode((Int,).self) { return count }
            return 0
        }
    }

    public func store(_ data: Data, for tile: TileID, freshness: TileFreshness?) async throws(CacheError) {
        let record = StoredTileRecord(tile: tile, stored: StoredTile(data: data, freshness: freshness))
        let (database, style) = (database, style)
        if await database.fetchTurns.storeEndingTurn(record, style: style, key: Self.lockKey(style: style, tile: tile)) { return }
        _ = try await stores.answer(record) { records async throws(CacheError) -> [Bool] in
            let statement = StoreTiles(style: style, records: records, now: Date())
            try await database.run("store \(records.count == 1 ? "tile \(tile)" : "\(records.count) tiles")") { connection in
                for try await _ in try await connection.execute(statement, logger: PostgresCacheDatabase.quietLogger) {}
            }
            return Array(repeating: true, count: records.count)
        }
    }

    /// Some tiles' bytes and freshness, each replacing any earlier ones and forgetting any 404
    /// remembered for it: one statement, so all of it or none. Each tile stored is announced
    /// on the fetch turns' channel as the statement commits, so that instances waiting for it
    /// look at once, before its fetcher's turn has ended. A tile named twice is stored as
    /// named last. Arrays hold no NULLs here, so an absent validator is sent as an empty string
    /// (never a valid one) and an absent time as NaN.
    struct StoreTiles: PostgresPreparedStatement {
        static let name = "mapframe_store_tiles"
        static let sql = statement(then: "SELECT pg_notify('\(PostgresFetchTurns.channel)', k::text) IS NULL FROM unnest($11::int8[]) AS k")

        /// The statement, ending with `finalSelect`, which has the stored tiles' lock keys as `$11`.
        static func statement(then finalSelect: String) -> String {
            """
            WITH wanted AS (
                SELECT * FROM unnest($2::int4[], $3::int4[], $4::int4[], $5::bytea[], $6::text[], $7::text[], $8::float8[], $9::float8[])
                    AS w(z, x, y, data, etag, last_modified, expires_at, fetched_at)),
            forgotten AS (
                DELETE FROM mapframe_missing_tiles m USING wanted w WHERE m.style = $1 AND m.z = w.z AND m.x = w.x AND m.y = w.y),
            stored AS (
                INSERT INTO mapframe_tiles (style, z, x, y, data, etag, last_modified, expires_at, fetched_at, last_used, size)
                SELECT $1, z, x, y, data, nullif(etag, ''), nullif(last_modified, ''), nullif(expires_at, 'NaN'), nullif(fetched_at, 'NaN'),
                    coalesce(nullif(fetched_at, 'NaN'), $10), length(data)
                FROM wanted
                ON CONFLICT (style, z, x, y) DO UPDATE SET data = excluded.data, etag = excluded.etag,
                    last_modified = excluded.last_modified, expires_at = excluded.expires_at, fetched_at = excluded.fetched_at,
                    last_used = excluded.last_used, size = excluded.size)
            \(finalSelect)
            """
        }

        typealias Row = Bool

        var style: String
        var records: [StoredTileRecord]
        /// The last use of tiles with no freshness record.
        var now: Date

        func makeBindings() throws -> PostgresBindings {
            // One row a tile: a statement may not change a row twice.
            var last: [TileID: Int] = [:]
            for (index, record) in records.enumerated() { last[record.tile] = index }
            let rows = records.indices.filter { last[records[$0].tile] == $0 }.map { records[$0] }
            var bindings = PostgresBindings(capacity: 10)
            bindings.append(style)
            bindings.append(rows.map { Int32($0.tile.z) })
            bindings.append(rows.map { Int32($0.tile.x) })
            bindings.append(rows.map { Int32($0.tile.y) })
            bindings.append(rows.map { ByteBuffer(bytes: $0.stored.data) })
            bindings.append(rows.map { $0.stored.freshness?.etag ?? "" })
            bindings.append(rows.map { $0.stored.freshness?.lastModified ?? "" })
            bindings.append(rows.map { $0.stored.freshness?.expiresAt.timeIntervalSince1970 ?? .nan })
            bindings.append(rows.map { $0.stored.freshness?.fetchedAt.timeIntervalSince1970 ?? .nan })
            bindings.append(now.timeIntervalSince1970)
            bindings.append(rows.map { PostgresTileCache.lockKey(style: style, tile: $0.tile) })
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Bool.self) }
    }

    /// Stores a page of copied tiles in one statement: all of them, or none.
    public func storeCopies(_ records: [StoredTileRecord]) async throws(CacheError) {
        guard !records.isEmpty else { return }
        let statement = StoreTiles(style: style, records: records, now: Date())
        try await database.run("store \(records.count) copied tiles") { connection in
            for try await _ in try await connection.execute(statement, logger: PostgresCacheDatabase.quietLogger) {}
        }
    }

    public func updateFreshness(_ freshness: TileFreshness, for tile: TileID) async throws(CacheError) {
        let style = style
        try await database.run("record the revalidation of tile \(tile)") { connection in
            try await connection.query("""
                UPDATE mapframe_tiles SET etag = coalesce(\(freshness.etag), etag), last_modified = coalesce(\(freshness.lastModified), last_modified),
                expires_at = \(freshness.expiresAt.timeIntervalSince1970), fetched_at = \(freshness.fetchedAt.timeIntervalSince1970)
                WHERE style = \(style) AND z = \(tile.z) AND x = \(tile.x) AND y = \(tile.y)
                """, logger: PostgresCacheDatabase.quietLogger)
        }
    }

    public func markMissing(_ tile: TileID, until: Date) async throws(CacheError) {
        let style = style
        try await database.run("remember that tile \(tile) is missing") { connection in
            try await connection.query("""
                INSERT INTO mapframe_missing_tiles (style, z, x, y, until) VALUES (\(style), \(tile.z), \(tile.x), \(tile.y), \(until.timeIntervalSince1970))
                ON CONFLICT (style, z, x, y) DO UPDATE SET until = excluded.until
                """, logger: PostgresCacheDatabase.quietLogger)
        }
    }

    /// Marks the tiles held inside `blocks` expired at `now` in one statement (see
    /// `TileCacheBackend.markExpired`); a tile with no freshness gains it, fetched at `now`. A
    /// tile inside several blocks is updated, and counted, once.
    public func markExpired(_ blocks: [TileBlock], at now: Date) async throws(CacheError) -> Int {
        guard !blocks.isEmpty else { return 0 }
        let style = style
        let time = now.timeIntervalSince1970
        return try await database.run("mark tiles expired") { connection in
            try await Self.rowCount(connection.query("""
                UPDATE mapframe_tiles t SET expires_at = \(time), fetched_at = coalesce(t.fetched_at, \(time))
                FROM unnest(\(blocks.map(\.zoom)), \(blocks.map(\.columns.lowerBound)), \(blocks.map(\.columns.upperBound)),
                            \(blocks.map(\.rows.lowerBound)), \(blocks.map(\.rows.upperBound))) AS b(z, x1, x2, y1, y2)
                WHERE t.style = \(style) AND t.z = b.z AND t.x BETWEEN b.x1 AND b.x2 AND t.y BETWEEN b.y1 AND b.y2
                AND (t.expires_at IS NULL OR t.expires_at > \(time))
                RETURNING 1
                """, logger: PostgresCacheDatabase.quietLogger))
        }
    }

    public func touch(_ tiles: [TileID], at date: Date) async throws(CacheError) {
        guard !tiles.isEmpty else { return }
        let style = style
        try await database.run("record tile use") { connection in
            try await connection.query("""
                UPDATE mapframe_tiles t SET last_used = \(date.timeIntervalSince1970)
                FROM unnest(\(tiles.map(\.z)), \(tiles.map(\.x)), \(tiles.map(\.y))) AS used(z, x, y)
                WHERE t.style = \(style) AND t.z = used.z AND t.x = used.x AND t.y = used.y AND t.expires_at IS NOT NULL
                """, logger: PostgresCacheDatabase.quietLogger)
        }
    }

    public func statistics(at now: Date) async throws(CacheError) -> CacheStatistics {
        let style = style
        return try await database.run("count tiles") { connection in
            var statistics = CacheStatistics(tileCount: 0, totalBytes: 0, expiredCount: 0, untrackedCount: 0, tilesPerZoom: [:])
            let rows = try await connection.query("""
                SELECT z, count(*), coalesce(sum(size), 0), count(*) FILTER (WHERE expires_at <= \(now.timeIntervalSince1970)),
                       count(*) FILTER (WHERE expires_at IS NULL)
                FROM mapframe_tiles WHERE style = \(style) GROUP BY z
                """, logger: PostgresCacheDatabase.quietLogger)
            for try await (zoom, count, bytes, expired, untracked) in rows.decode((Int, Int, Int, Int, Int).self) {
                statistics.tilesPerZoom[zoom] = count
                statistics.tileCount += count
                statistics.totalBytes += bytes
                statistics.expiredCount += expired
                statistics.untrackedCount += untracked
            }
            return statistics
        }
    }

    @discardableResult
    public func purgeLeastRecentlyUsed(_ count: Int) async throws(CacheError) -> Int {
        let style = style
        return try await database.run("purge tiles") { connection in
            try await Self.rowCount(connection.query("""
                DELETE FROM mapframe_tiles WHERE (style, z, x, y) IN (
                    SELECT style, z, x, y FROM mapframe_tiles WHERE style = \(style) AND expires_at IS NOT NULL
                    ORDER BY last_used LIMIT \(max(0, count)))
                RETURNING 1
                """, logger: PostgresCacheDatabase.quietLogger))
        }
    }

    @discardableResult
    public func purge(fetchedBefore date: Date) async throws(CacheError) -> Int {
        let style = style
        return try await database.run("purge tiles") { connection in
            try await Self.rowCount(connection.query("""
                DELETE FROM mapframe_tiles WHERE style = \(style) AND fetched_at < \(date.timeIntervalSince1970) RETURNING 1
                """, logger: PostgresCacheDatabase.quietLogger))
        }
    }

    /// How many rows a statement returned: one a row it deleted or updated, with `RETURNING 1`.
    private static func rowCount(_ rows: PostgresRowSequence) async throws -> Int {
        var count = 0
        for try await _ in rows { count += 1 }
        return count
    }

    /// The tiles' rows describe themselves: there is no separate metadata to keep.
    public func refreshMetadata(name: String, attribution: String) async throws(CacheError) {}

    public func tiles(after: TileID?, limit: Int) async throws(CacheError) -> [StoredTileRecord] {
        let style = style
        let start = after ?? TileID(z: -1, x: 0, y: 0)
        return try await database.run("read tiles to copy") { connection in
            let rows = try await connection.query("""
                SELECT z, x, y, data, etag, last_modified, expires_at, fetched_at FROM mapframe_tiles
                WHERE style = \(style) AND (z, x, y) > (\(start.z), \(start.x), \(start.y))
                ORDER BY z, x, y LIMIT \(limit)
                """, logger: PostgresCacheDatabase.quietLogger)
            var records: [StoredTileRecord] = []
            for try await (z, x, y, data, etag, lastModified, expiresAt, fetchedAt)
                in rows.decode((Int, Int, Int, Data, String?, String?, Double?, Double?).self) {
                records.append(StoredTileRecord(
                    tile: TileID(z: z, x: x, y: y),
                    stored: StoredTile(data: data, freshness: Self.freshness(etag, lastModified, expiresAt, fetchedAt))
                ))
            }
            return records
        }
    }

    /// The styles a database holds tiles of.
    public static func styles(in database: PostgresCacheDatabase) async throws(CacheError) -> [String] {
        try await database.run("list styles") { connection in
            var styles: [String] = []
            let rows = try await connection.query("SELECT DISTINCT style FROM mapframe_tiles ORDER BY style", logger: PostgresCacheDatabase.quietLogger)
            for try await (style,) in rows.decode((String,).self) { styles.append(style) }
            return styles
        }
    }

    // MARK: - Fetch turns

    /// Waits for this instance's turn to fetch `tile`: looks for it and takes the tile's advisory
    /// lock in one statement, or, while another instance holds it, waits for the tile's store or
    /// the lock's release to be announced (at most `fetchPollInterval` at a time) and looks
    /// again. Past `fetchWait`, or when locks cannot be had (the database is down), fetches
    /// without waiting longer.
    public func fetchTurn(for tile: TileID, at now: Date) async -> FetchTurn {
        let key = Self.lockKey(style: style, tile: tile)
        let deadline = ContinuousClock.now + Self.fetchWait
        let turns = database.fetchTurns
        let request = PostgresFetchTurns.LookRequest(key: key, style: style, tile: tile, now: now.timeIntervalSince1970)
        while ContinuousClock.now < deadline {
            // Watched before the look, so that an announcement made meanwhile is not missed.
            let announcement = turns.watchRelease(of: key)
            defer { turns.endWatch(announcement) }
            guard !database.isUnavailable, let look = await turns.look(for: request) else { return .fetch(release: {}) }
            switch look {
            case .stored(let stored): return .stored(stored)
            case .taken: return .fetch(release: { await turns.unlock(key) })
            case .heldElsewhere: _ = await announcement.wait(atMost: Self.fetchPollInterval)
            }
        }
        return .fetch(release: {})
    }

    /// The tile's advisory lock key: 64 bits of FNV-1a over the style and address. Two tiles
    /// that share a key only wait for each other now and then.
    static func lockKey(style: String, tile: TileID) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "\(style)/\(tile.z)/\(tile.x)/\(tile.y)".utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return Int64(bitPattern: hash)
    }

    static func freshness(_ etag: String?, _ lastModified: String?, _ expiresAt: Double?, _ fetchedAt: Double?) -> TileFreshness? {
        guard let expiresAt, let fetchedAt else { return nil }
        return TileFreshness(
            etag: etag, lastModified: lastModified,
            expiresAt: Date(timeIntervalSince1970: expiresAt), fetchedAt: Date(timeIntervalSince1970: fetchedAt)
        )
    }
}
#endif
