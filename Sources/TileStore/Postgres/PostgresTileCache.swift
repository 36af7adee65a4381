import Foundation
import MapGeometry
import PostgresNIO

/// One style's tiles in a PostgreSQL database that several MapFrame instances share. Every
/// method is one statement (or one transaction), so instances never see half a write. When
/// several instances miss the same tile at once, one fetches it and the others wait for it
/// (`takeFetchTurn`).
public final class PostgresTileCache: TileCacheBackend {
    public let database: PostgresCacheDatabase
    public let style: String
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

    public func tileData(for tile: TileID) throws(CacheError) -> Data? {
        try storedTile(tile)?.data
    }

    public func storedTile(_ tile: TileID) throws(CacheError) -> StoredTile? {
        let style = style
        return try database.blocking("read tile \(tile)") { client in
            let rows = try await client.query("""
                SELECT data, etag, last_modified, expires_at, fetched_at FROM mapframe_tiles
                WHERE style = \(style) AND z = \(tile.z) AND x = \(tile.x) AND y = \(tile.y)
                """)
            for try await (data, etag, lastModified, expiresAt, fetchedAt) in rows.decode((Data, String?, String?, Double?, Double?).self) {
                return StoredTile(data: data, freshness: Self.freshness(etag, lastModified, expiresAt, fetchedAt))
            }
            return nil
        }
    }

    public func state(of tile: TileID, at now: Date) throws(CacheError) -> CachedTileState {
        let style = style
        return try database.blocking("look up tile \(tile)") { client in
            let rows = try await client.query("""
                SELECT t.etag, t.last_modified, t.expires_at, t.fetched_at, t.z IS NOT NULL, coalesce(m.until > \(now.timeIntervalSince1970), false)
                FROM (SELECT 1) AS one
                LEFT JOIN mapframe_tiles t ON t.style = \(style) AND t.z = \(tile.z) AND t.x = \(tile.x) AND t.y = \(tile.y)
                LEFT JOIN mapframe_missing_tiles m ON m.style = \(style) AND m.z = \(tile.z) AND m.x = \(tile.x) AND m.y = \(tile.y)
                """)
            for try await (etag, lastModified, expiresAt, fetchedAt, held, missing) in rows.decode((String?, String?, Double?, Double?, Bool, Bool).self) {
                return CachedTileState(isHeld: held, freshness: Self.freshness(etag, lastModified, expiresAt, fetchedAt), isKnownMissing: missing)
            }
            return CachedTileState(isHeld: false, freshness: nil, isKnownMissing: false)
        }
    }

    public func freshTileCount(in tiles: [TileID], at now: Date) throws(CacheError) -> Int {
        guard !tiles.isEmpty else { return 0 }
        let style = style
        return try database.blocking("count fresh tiles") { client in
            try await Self.freshCount(style: style, tiles: tiles, at: now, client: client)
        }
    }

    /// How many of `tiles` are held and fresh at `now`, in one statement.
    private static func freshCount(style: String, tiles: [TileID], at now: Date, client: PostgresClient) async throws -> Int {
        let rows = try await client.query("""
            SELECT count(*) FROM mapframe_tiles t
            JOIN unnest(\(tiles.map(\.z)), \(tiles.map(\.x)), \(tiles.map(\.y))) AS wanted(z, x, y) USING (z, x, y)
            WHERE t.style = \(style) AND (t.expires_at IS NULL OR t.expires_at > \(now.timeIntervalSince1970))
            """)
        for try await (count,) in rows.decode((Int,).self) { return count }
        return 0
    }

    public func store(_ data: Data, for tile: TileID, freshness: TileFreshness?) throws(CacheError) {
        let style = style
        try database.blocking("store tile \(tile)") { client in
            try await client.withTransaction(logger: PostgresCacheDatabase.quietLogger) { connection in
                try await Self.upsert(data, for: tile, freshness: freshness, style: style, on: connection)
                try await connection.query("""
                    DELETE FROM mapframe_missing_tiles WHERE style = \(style) AND z = \(tile.z) AND x = \(tile.x) AND y = \(tile.y)
                    """, logger: PostgresCacheDatabase.quietLogger)
            }
        }
    }

    private static func upsert(_ data: Data, for tile: TileID, freshness: TileFreshness?, style: String, on connection: PostgresConnection) async throws {
        let lastUsed = (freshness?.fetchedAt ?? Date()).timeIntervalSince1970
        try await connection.query("""
            INSERT INTO mapframe_tiles (style, z, x, y, data, etag, last_modified, expires_at, fetched_at, last_used, size)
            VALUES (\(style), \(tile.z), \(tile.x), \(tile.y), \(data), \(freshness?.etag), \(freshness?.lastModified),
                    \(freshness?.expiresAt.timeIntervalSince1970), \(freshness?.fetchedAt.timeIntervalSince1970), \(lastUsed), \(data.count))
            ON CONFLICT (style, z, x, y) DO UPDATE SET data = excluded.data, etag = excluded.etag,
                last_modified = excluded.last_modified, expires_at = excluded.expires_at, fetched_at = excluded.fetched_at,
                last_used = excluded.last_used, size = excluded.size
            """, logger: PostgresCacheDatabase.quietLogger)
    }

    /// Stores a page of copied tiles in one transaction: all of them, or none.
    public func storeCopies(_ records: [StoredTileRecord]) throws(CacheError) {
        let style = style
        try database.blocking("store \(records.count) copied tiles") { client in
            try await client.withTransaction(logger: PostgresCacheDatabase.quietLogger) { connection in
                for record in records {
                    try await Self.upsert(record.stored.data, for: record.tile, freshness: record.stored.freshness, style: style, on: connection)
                }
            }
        }
    }

    public func updateFreshness(_ freshness: TileFreshness, for tile: TileID) throws(CacheError) {
        let style = style
        try database.blocking("record the revalidation of tile \(tile)") { client in
            try await client.query("""
                UPDATE mapframe_tiles SET etag = coalesce(\(freshness.etag), etag), last_modified = coalesce(\(freshness.lastModified), last_modified),
                expires_at = \(freshness.expiresAt.timeIntervalSince1970), fetched_at = \(freshness.fetchedAt.timeIntervalSince1970)
                WHERE style = \(style) AND z = \(tile.z) AND x = \(tile.x) AND y = \(tile.y)
                """)
        }
    }

    public func markMissing(_ tile: TileID, until: Date) throws(CacheError) {
        let style = style
        try database.blocking("remember that tile \(tile) is missing") { client in
            try await client.query("""
                INSERT INTO mapframe_missing_tiles (style, z, x, y, until) VALUES (\(style), \(tile.z), \(tile.x), \(tile.y), \(until.timeIntervalSince1970))
                ON CONFLICT (style, z, x, y) DO UPDATE SET until = excluded.until
                """)
        }
    }

    public func touch(_ tiles: [TileID], at date: Date) throws(CacheError) {
        guard !tiles.isEmpty else { return }
        let style = style
        try database.blocking("record tile use") { client in
            try await client.query("""
                UPDATE mapframe_tiles t SET last_used = \(date.timeIntervalSince1970)
                FROM unnest(\(tiles.map(\.z)), \(tiles.map(\.x)), \(tiles.map(\.y))) AS used(z, x, y)
                WHERE t.style = \(style) AND t.z = used.z AND t.x = used.x AND t.y = used.y AND t.expires_at IS NOT NULL
                """)
        }
    }

    public func statistics(at now: Date) throws(CacheError) -> CacheStatistics {
        let style = style
        return try database.blocking("count tiles") { client in
            var statistics = CacheStatistics(tileCount: 0, totalBytes: 0, expiredCount: 0, untrackedCount: 0, tilesPerZoom: [:])
            let rows = try await client.query("""
                SELECT z, count(*), coalesce(sum(size), 0), count(*) FILTER (WHERE expires_at <= \(now.timeIntervalSince1970)),
                       count(*) FILTER (WHERE expires_at IS NULL)
                FROM mapframe_tiles WHERE style = \(style) GROUP BY z
                """)
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
    public func purgeLeastRecentlyUsed(_ count: Int) throws(CacheError) -> Int {
        let style = style
        return try database.blocking("purge tiles") { client in
            try await Self.deleted(client.query("""
                DELETE FROM mapframe_tiles WHERE (style, z, x, y) IN (
                    SELECT style, z, x, y FROM mapframe_tiles WHERE style = \(style) AND expires_at IS NOT NULL
                    ORDER BY last_used LIMIT \(max(0, count)))
                RETURNING 1
                """))
        }
    }

    @discardableResult
    public func purge(fetchedBefore date: Date) throws(CacheError) -> Int {
        let style = style
        return try database.blocking("purge tiles") { client in
            try await Self.deleted(client.query("""
                DELETE FROM mapframe_tiles WHERE style = \(style) AND fetched_at < \(date.timeIntervalSince1970) RETURNING 1
                """))
        }
    }

    private static func deleted(_ rows: PostgresRowSequence) async throws -> Int {
        var count = 0
        for try await _ in rows { count += 1 }
        return count
    }

    /// The tiles' rows describe themselves: there is no separate metadata to keep.
    public func refreshMetadata(name: String, attribution: String) throws(CacheError) {}

    public func tiles(after: TileID?, limit: Int) throws(CacheError) -> [StoredTileRecord] {
        let style = style
        let start = after ?? TileID(z: -1, x: 0, y: 0)
        return try database.blocking("read tiles to copy") { client in
            let rows = try await client.query("""
                SELECT z, x, y, data, etag, last_modified, expires_at, fetched_at FROM mapframe_tiles
                WHERE style = \(style) AND (z, x, y) > (\(start.z), \(start.x), \(start.y))
                ORDER BY z, x, y LIMIT \(limit)
                """)
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
    public static func styles(in database: PostgresCacheDatabase) throws(CacheError) -> [String] {
        try database.blocking("list styles") { client in
            var styles: [String] = []
            for try await (style,) in try await client.query("SELECT DISTINCT style FROM mapframe_tiles ORDER BY style").decode((String,).self) {
                styles.append(style)
            }
            return styles
        }
    }

    // MARK: - Fetch turns

    public func takeFetchTurn(for tile: TileID, at now: Date, _ turn: @escaping @Sendable (FetchTurn) -> Void) {
        database.detached { turn(await self.fetchTurn(for: tile, at: now)) }
    }

    /// Waits for this instance's turn to fetch `tile`: takes the tile's advisory lock, or, while
    /// another instance holds it, looks every `fetchPollInterval` for the tile that instance is
    /// fetching. Past `fetchWait`, or when locks cannot be had (the database is down), fetches
    /// without waiting longer.
    func fetchTurn(for tile: TileID, at now: Date) async -> FetchTurn {
        let key = lockKey(for: tile)
        let deadline = ContinuousClock.now + Self.fetchWait
        while ContinuousClock.now < deadline {
            guard let locked = await database.tryLock(key) else { return .fetch(release: {}) }
            if locked {
                // The holder before may have stored the tile just before letting go.
                if await isFresh(tile, at: now) {
                    database.unlock(key)
                    return .stored
                }
                return .fetch(release: { [database] in database.unlock(key) })
            }
            try? await Task.sleep(for: Self.fetchPollInterval)
            if await isFresh(tile, at: now) { return .stored }
        }
        return .fetch(release: {})
    }

    private func isFresh(_ tile: TileID, at now: Date) async -> Bool {
        let style = style
        let count = try? await database.run("look up tile \(tile)") { client in
            try await Self.freshCount(style: style, tiles: [tile], at: now, client: client)
        }
        return count == 1
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
