import Foundation
import MapGeometry
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
    /// How long an instance waits for another's fetch of a tile before fetching it itself.
    public static let fetchWait: Duration = .seconds(3)
    /// How often a waiting instance looks for the tile.
    static let fetchPollInterval: Duration = .milliseconds(20)

    public init(database: PostgresCacheDatabase, style: String) {
        self.database = database
        self.style = style
    }

    public var name: String { "\(database.address) (style \(style))" }
    public var kind: CacheBackendKind { .postgres }
    public var readOnlyReason: String? { nil }

    public func lookup(_ tile: TileID, at now: Date) async throws(CacheError) -> CacheLookup {
        let (database, style) = (database, style)
        return try await lookups.current.lookup(tile) { tiles async throws(CacheError) -> [CacheLookup] in
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
    struct LookupTiles: PostgresPreparedStatement {
        /// Named once: the protocol's default name is worked out by reflection on every execution.
        static let name = "mapframe_lookup_tiles"
        static let sql = """
            SELECT wanted.i, t.data, t.etag, t.last_modified, t.expires_at, t.fetched_at, coalesce(m.until > $5, false)
            FROM unnest($2::int4[], $3::int4[], $4::int4[]) WITH ORDINALITY AS wanted(z, x, y, i)
            LEFT JOIN mapframe_tiles t ON t.style = $1 AND t.z = wanted.z AND t.x = wanted.x AND t.y = wanted.y
            LEFT JOIN mapframe_missing_tiles m ON m.style = $1 AND m.z = wanted.z AND m.x = wanted.x AND m.y = wanted.y
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
        let statement = StoreTile(style: style, tile: tile, data: data, freshness: freshness)
        try await database.run("store tile \(tile)") { connection in
            _ = try await connection.execute(statement, logger: PostgresCacheDatabase.quietLogger)
        }
    }

    /// A tile's bytes and freshness, replacing any earlier ones, and any 404 remembered for it
    /// forgotten: one statement, so all of it or none.
    struct StoreTile: PostgresPreparedStatement {
        static let name = "mapframe_store_tile"
        static let sql = """
            WITH forgotten AS (DELETE FROM mapframe_missing_tiles WHERE style = $1 AND z = $2 AND x = $3 AND y = $4)
            INSERT INTO mapframe_tiles (style, z, x, y, data, etag, last_modified, expires_at, fetched_at, last_used, size)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
            ON CONFLICT (style, z, x, y) DO UPDATE SET data = excluded.data, etag = excluded.etag,
                last_modified = excluded.last_modified, expires_at = excluded.expires_at, fetched_at = excluded.fetched_at,
                last_used = excluded.last_used, size = excluded.size
            """
        typealias Row = ()
        static let bindingDataTypes: [PostgresDataType] = [.text, .int4, .int4, .int4, .bytea, .text, .text, .float8, .float8, .float8, .int4]

        var style: String
        var tile: TileID
        var data: Data
        var freshness: TileFreshness?

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 11)
            bindings.append(style)
            bindings.append(Int32(tile.z))
            bindings.append(Int32(tile.x))
            bindings.append(Int32(tile.y))
            try bindings.append(data)
            bindings.append(freshness?.etag)
            bindings.append(freshness?.lastModified)
            bindings.append(freshness?.expiresAt.timeIntervalSince1970)
            bindings.append(freshness?.fetchedAt.timeIntervalSince1970)
            bindings.append((freshness?.fetchedAt ?? Date()).timeIntervalSince1970)
            bindings.append(Int32(data.count))
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {}
    }

    /// Stores a page of copied tiles in one transaction: all of them, or none.
    public func storeCopies(_ records: [StoredTileRecord]) async throws(CacheError) {
        let style = style
        try await database.run("store \(records.count) copied tiles") { connection in
            try await connection.withTransaction(logger: PostgresCacheDatabase.quietLogger) { connection in
                for record in records {
                    let statement = StoreTile(style: style, tile: record.tile, data: record.stored.data, freshness: record.stored.freshness)
                    _ = try await connection.execute(statement, logger: PostgresCacheDatabase.quietLogger)
                }
            }
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
            try await Self.deleted(connection.query("""
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
            try await Self.deleted(connection.query("""
                DELETE FROM mapframe_tiles WHERE style = \(style) AND fetched_at < \(date.timeIntervalSince1970) RETURNING 1
                """, logger: PostgresCacheDatabase.quietLogger))
        }
    }

    private static func deleted(_ rows: PostgresRowSequence) async throws -> Int {
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

    /// Waits for this instance's turn to fetch `tile`: takes the tile's advisory lock, or, while
    /// another instance holds it, looks every `fetchPollInterval` for the tile that instance is
    /// fetching. Past `fetchWait`, or when locks cannot be had (the database is down), fetches
    /// without waiting longer.
    public func fetchTurn(for tile: TileID, at now: Date) async -> FetchTurn {
        let key = lockKey(for: tile)
        let deadline = ContinuousClock.now + Self.fetchWait
        let style = style, seconds = now.timeIntervalSince1970
        // Whether another instance holds the lock, and whether the tile is there, fresh, meanwhile.
        let attempt: PostgresQuery = """
            SELECT pg_try_advisory_lock(\(key)), EXISTS (
                SELECT 1 FROM mapframe_tiles WHERE style = \(style) AND z = \(tile.z) AND x = \(tile.x) AND y = \(tile.y)
                AND (expires_at IS NULL OR expires_at > \(seconds)))
            """
        while ContinuousClock.now < deadline {
            guard let (locked, fresh) = await database.tryLock(attempt) else { return .fetch(release: {}) }
            if locked {
                // The holder before may have stored the tile just before letting go, after this
                // statement's snapshot was taken: look again, now that the lock is held.
                let storedMeanwhile = fresh ? true : (try? await lookup(tile, at: now))?.stored?.isFresh(at: now) == true
                if storedMeanwhile {
                    await database.unlock(key)
                    return .stored
                }
                return .fetch(release: { [database] in await database.unlock(key) })
            }
            if fresh { return .stored }
            try? await Task.sleep(for: Self.fetchPollInterval)
        }
        return .fetch(release: {})
    }

    /// The tile's advisory lock key: 64 bits of FNV-1a over the style and address. Two tiles
    /// that share a key only wait for each other now and then.
    func lockKey(for tile: TileID) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "\(style)/\(tile.z)/\(tile.x)/\(tile.y)".utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return Int64(bitPattern: hash)
    }

    private static func freshness(_ etag: String?, _ lastModified: String?, _ expiresAt: Double?, _ fetchedAt: Double?) -> TileFreshness? {
        guard let expiresAt, let fetchedAt else { return nil }
        return TileFreshness(
            etag: etag, lastModified: lastModified,
            expiresAt: Date(timeIntervalSince1970: expiresAt), fetchedAt: Date(timeIntervalSince1970: fetchedAt)
        )
    }
}
