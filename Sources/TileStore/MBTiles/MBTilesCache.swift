import BlockingWork
import Foundation
import GRDB
import ImageCodec
import MapGeometry
import Synchronization

/// An MBTiles file (1.0 to 1.3), as MapFrame and other tools write it: `tiles(zoom_level,
/// tile_column, tile_row, tile_data)` as a table or a view, rows counted the TMS way (from the
/// south), and usually `metadata(name, value)` (see `MBTilesLayout`).
///
/// The file is opened through GRDB: a `DatabasePool` (concurrent readers beside one writer) for
/// a file in write-ahead-log mode or one only read, a `DatabaseQueue` for another tool's file in
/// rollback-journal mode opened for writing, which a pool would switch to WAL. Every method
/// blocks while SQLite works: call them on `BlockingPool.storage`, as `MBTilesBackend` and the
/// cache commands do, never on an event loop or Swift's cooperative threads.
///
/// Opened read-only, a file is never written and nothing is made beside it. Opened for
/// writing, nothing is written until something is stored; MapFrame's freshness tables and
/// `metadata` are written only into a file that tiles are stored in.
public final class MBTilesCache: Sendable {
    public let path: String
    /// Why nothing can be written to the file, or nil when it can be: it was opened read-only,
    /// it or its folder is not writable, or its `tiles` is a view.
    public let readOnlyReason: String?
    /// Whether `tiles` is a view (TileMill's and mbutil's layout) rather than a table.
    public let tilesIsView: Bool
    private let connection: MBTilesConnection
    /// Whether MapFrame's freshness tables are there, as last seen.
    private let freshnessTables = Mutex(TablePresence())

    /// The largest `tile_data` read; a larger value is refused without reading it.
    public static let maxTileBytes = FetchPolicy.defaultMaxTileBytes

    // MARK: - Opening

    /// Opens an existing MBTiles file, checking that it is one. Opened read-only, nothing is ever
    /// written. Otherwise the file is opened for writing when it, its folder and its `tiles` can
    /// be written, and for reading when not: `readOnlyReason` says why, and each write fails
    /// with `CacheError.readOnly`.
    /// - Parameter statementObserver: told the SQL of every statement run (for measuring).
    public init(openingExisting path: String, readOnly: Bool = true, statementObserver: (@Sendable (String) -> Void)? = nil) throws(CacheError) {
        assertNotOnEventLoop("opening \(path)")
        let file = try CacheFile(path: path)
        guard file.exists else { throw CacheError.missingFile(path: path) }
        guard file.isSQLite else { throw CacheError.notMBTiles(path: path, reason: file.notSQLiteReason) }
        let writable = !readOnly && file.whyNotWritable == nil
        let connection = try MBTilesConnection(file, writable: writable, statementObserver: statementObserver)
        let layout = try connection.read(operation: "read the layout") { db in try MBTilesLayout.read(from: db, path: path) }
        self.path = path
        self.connection = connection
        tilesIsView = layout.tilesIsView
        readOnlyReason = writable
            ? (layout.tilesIsView ? "its tiles are a view over other tables" : nil)
            : (readOnly ? "it was opened for reading only" : file.whyNotWritable)
        if layout.hasFreshnessTables { freshnessTables.withLock { $0.present = true } }
    }

    /// Opens an MBTiles file for writing, first creating it (in WAL mode, with the MBTiles
    /// schema and MapFrame's freshness tables) if it does not exist or is an empty database,
    /// as it is while another process creates it. A file that cannot be written is opened for
    /// reading, as `init(openingExisting:readOnly: false)` does.
    public convenience init(creatingIfNeeded path: String, statementObserver: (@Sendable (String) -> Void)? = nil) throws(CacheError) {
        assertNotOnEventLoop("creating \(path)")
        let file = try CacheFile(path: path)
        if file.whyNotWritable == nil, !file.exists || file.isEmpty || file.isSQLite {
            try MBTilesConnection.createSchemaIfEmpty(path)
        }
        try self.init(openingExisting: path, readOnly: false, statementObserver: statementObserver)
    }

    // MARK: - Reading and writing

    /// Runs `body` with a connection for reading, outside any transaction: each statement sees
    /// the file as it is then.
    func read<T>(_ operation: String, _ body: (Database) throws -> T) throws(CacheError) -> T {
        try connection.read(operation: operation, body)
    }

    /// Runs `body` in one write transaction. Refused at once, saying why, when the file cannot
    /// be written.
    func write<T>(_ operation: String, _ body: (Database) throws -> T) throws(CacheError) -> T {
        if let readOnlyReason { throw CacheError.readOnly(path: path, reason: readOnlyReason) }
        return try connection.write(operation: operation, body)
    }

    /// Why the file is no longer used, as last seen: damaged, removed or replaced while open, or
    /// its `-shm` file unwritable (see `SQLiteFileGuard`). Nil while it is used.
    public var faultReason: String? { connection.faultReason }

    /// Looks at the file now, as every statement does first. Blocks.
    func lookAtFile() {
        connection.lookAtFile()
    }

    /// Runs `body`, giving the file up for good when it fails on a damaged page, so that a
    /// server answers from memory and the upstream (`MBTilesConnection.givingUpOnDamage`).
    func givingUpOnDamage<T>(_ body: () throws(CacheError) -> T) throws(CacheError) -> T {
        try connection.givingUpOnDamage(body)
    }

    /// The connection statements go to now (`MBTilesConnection.currentDatabase`).
    var currentDatabase: ObjectIdentifier { connection.currentDatabase }

    /// Whether MapFrame's freshness tables are there now. Once seen they stay; their absence is
    /// looked at again at most once a second, since another process may make them.
    func hasFreshnessTables() throws(CacheError) -> Bool {
        if let known = freshnessTables.withLock({ $0.answer(at: .now) }) { return known }
        let present = try read("look for the freshness tables") { db in try MBTilesLayout.hasFreshnessTables(db) }
        freshnessTables.withLock { $0.record(present, at: .now) }
        return present
    }

    /// Makes MapFrame's freshness tables, through the migrator, before the first write that needs
    /// them. Another tool's file gains them only when a fetched tile or a 404 is stored in it.
    private func makeFreshnessTablesIfMissing() throws(CacheError) {
        guard try !hasFreshnessTables() else { return }
        if let readOnlyReason { throw CacheError.readOnly(path: path, reason: readOnlyReason) }
        try connection.migrate()
        freshnessTables.withLock { $0.record(true, at: .now) }
    }

    // MARK: - Tiles

    /// Everything the file knows of a tile (addressed XYZ-style), in one statement: its bytes
    /// when they may be an image, their freshness, why they cannot be an image (text, NULL,
    /// empty, too large: not read), and whether the upstream lately had none.
    public func lookup(_ tile: TileID, at now: Date) throws(CacheError) -> CacheLookup {
        try lookup([tile], at: now)[0]
    }

    /// `lookup(_:at:)` for several tiles, in order, through one connection: one statement a tile.
    public func lookup(_ tiles: [TileID], at now: Date) throws(CacheError) -> [CacheLookup] {
        let sql = try hasFreshnessTables() ? Self.lookupSQL : Self.lookupWithoutFreshnessSQL
        return try read(tiles.count == 1 ? "look up tile \(tiles[0])" : "look up \(tiles.count) tiles") { db in
            let statement = try db.cachedStatement(sql: sql)
            return try tiles.map { tile in
                guard let row = try Row.fetchOne(statement, arguments: [tile.z, tile.x, tile.tmsRow]) else { return CacheLookup(stored: nil) }
                let isKnownMissing = (row[8] as Double?).map { $0 > now.timeIntervalSince1970 } ?? false
                guard row[0] as Bool == true else { return CacheLookup(stored: nil, isKnownMissing: isKnownMissing) }
                if let reason = Self.unusableReason(type: row[1], length: row[2] ?? 0) {
                    return CacheLookup(stored: nil, unusableReason: reason, isKnownMissing: isKnownMissing)
                }
                return CacheLookup(stored: StoredTile(data: row[3] ?? Data(), freshness: Self.freshness(row, from: 4)), isKnownMissing: isKnownMissing)
            }
        }
    }

    /// The lookup's columns: held, type, length, bytes (when usable), etag, last_modified,
    /// expires_at, fetched_at, and until when a 404 is remembered.
    private static let lookupSQL = """
        SELECT t.zoom_level IS NOT NULL, typeof(t.tile_data), length(t.tile_data), CASE WHEN \(usableTileData("t.tile_data")) THEN t.tile_data END,
               s.etag, s.last_modified, s.expires_at, s.fetched_at, m.until
        FROM (SELECT ?1 AS z, ?2 AS x, ?3 AS y) AS wanted
        LEFT JOIN tiles t ON t.zoom_level = wanted.z AND t.tile_column = wanted.x AND t.tile_row = wanted.y
        LEFT JOIN mapframe_tile_state s ON s.zoom_level = wanted.z AND s.tile_column = wanted.x AND s.tile_row = wanted.y
        LEFT JOIN mapframe_missing_tiles m ON m.zoom_level = wanted.z AND m.tile_column = wanted.x AND m.tile_row = wanted.y
        LIMIT 1
        """

    /// The lookup in a file without MapFrame's freshness tables: its tiles never expire.
    private static let lookupWithoutFreshnessSQL = """
        SELECT 1, typeof(tile_data), length(tile_data), CASE WHEN \(usableTileData("tile_data")) THEN tile_data END,
               NULL, NULL, NULL, NULL, NULL
        FROM tiles WHERE zoom_level = ?1 AND tile_column = ?2 AND tile_row = ?3 LIMIT 1
        """

    /// The stored bytes of a tile, or nil when it is not stored. A `tile_data` that cannot be an
    /// image throws `CacheError.unusableTile` without being read.
    public func tileData(for tile: TileID) throws(CacheError) -> Data? {
        let found = try lookup(tile, at: Date())
        if let reason = found.unusableReason { throw CacheError.unusableTile(path: path, tile: tile, reason: reason) }
        return found.stored?.data
    }

    /// SQL that is true for a `tile_data` that may be an image: bytes, at most `maxTileBytes`.
    /// SQLite works out `typeof` and `length` without reading a value's bytes.
    static func usableTileData(_ column: String) -> String {
        "typeof(\(column)) = 'blob' AND length(\(column)) BETWEEN 1 AND \(maxTileBytes)"
    }

    /// Why a `tile_data` of SQLite type `type` and `length` cannot be an image, or nil when it
    /// may be one. Tools that write MBTiles badly leave text, numbers or NULL there.
    static func unusableReason(type: String?, length: Int) -> String? {
        switch type {
        case "blob" where length == 0: return "its tile_data is empty"
        case "blob" where length > maxTileBytes: return "its tile_data is \(length) bytes; a tile is at most \(maxTileBytes)"
        case "blob": return nil
        case "text": return "its tile_data is text, not image bytes"
        case "integer", "real": return "its tile_data is a number, not image bytes"
        default: return "its tile_data is NULL"
        }
    }

    /// The freshness in a row's columns `start` to `start + 3` (etag, last_modified, expires_at,
    /// fetched_at); nil when none is recorded.
    static func freshness(_ row: Row, from start: Int) -> TileFreshness? {
        guard let expiresAt = row[start + 2] as Double?, let fetchedAt = row[start + 3] as Double? else { return nil }
        return TileFreshness(
            etag: row[start], lastModified: row[start + 1],
            expiresAt: Date(timeIntervalSince1970: expiresAt), fetchedAt: Date(timeIntervalSince1970: fetchedAt)
        )
    }

    /// Stores a tile's bytes, replacing any earlier ones; a tile stored so never expires.
    public func store(_ data: Data, for tile: TileID) throws(CacheError) {
        try write("store tile \(tile)") { db in try Self.insert(data, for: tile, in: db) }
    }

    /// Stores a fetched tile and its freshness together, so that a reader never sees one without
    /// the other, and forgets any 404 remembered for it.
    public func store(_ data: Data, for tile: TileID, freshness: TileFreshness) throws(CacheError) {
        try makeFreshnessTablesIfMissing()
        try write("store tile \(tile)") { db in try Self.insert(data, for: tile, freshness: freshness, in: db) }
    }

    /// Stores tiles, each with its freshness where it has one, in one transaction: all or none.
    public func store(_ records: [StoredTileRecord]) throws(CacheError) {
        if records.contains(where: { $0.stored.freshness != nil }) { try makeFreshnessTablesIfMissing() }
        try write(records.count == 1 ? "store tile \(records[0].tile)" : "store \(records.count) tiles") { db in
            for record in records {
                if let freshness = record.stored.freshness {
                    try Self.insert(record.stored.data, for: record.tile, freshness: freshness, in: db)
                } else {
                    try Self.insert(record.stored.data, for: record.tile, in: db)
                }
            }
        }
    }

    private static func insert(_ data: Data, for tile: TileID, in db: Database) throws {
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO tiles (zoom_level, tile_column, tile_row, tile_data) VALUES (?, ?, ?, ?)")
            .execute(arguments: [tile.z, tile.x, tile.tmsRow, data])
    }

    private static func insert(_ data: Data, for tile: TileID, freshness: TileFreshness, in db: Database) throws {
        try insert(data, for: tile, in: db)
        try db.cachedStatement(sql: """
            INSERT OR REPLACE INTO mapframe_tile_state
            (zoom_level, tile_column, tile_row, etag, last_modified, expires_at, fetched_at, last_used, byte_count)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [
                tile.z, tile.x, tile.tmsRow, freshness.etag, freshness.lastModified, freshness.expiresAt.timeIntervalSince1970,
                freshness.fetchedAt.timeIntervalSince1970, freshness.fetchedAt.timeIntervalSince1970, data.count,
            ])
        try db.cachedStatement(sql: "DELETE FROM mapframe_missing_tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?")
            .execute(arguments: [tile.z, tile.x, tile.tmsRow])
    }

    /// The number of stored tiles.
    public func tileCount() throws(CacheError) -> Int {
        try read("count tiles") { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM tiles") ?? 0 }
    }

    /// The file's layout now: whether `tiles` is a view, and which optional tables it has.
    public func layout() throws(CacheError) -> MBTilesLayout {
        try read("read the layout") { db in try MBTilesLayout.read(from: db, path: path) }
    }

    // MARK: - Metadata

    /// All metadata rows; none when the file has no `metadata` table.
    public func metadata() throws(CacheError) -> [String: String] {
        try read("read the metadata") { db in try Self.metadata(in: db) }
    }

    private static func metadata(in db: Database) throws -> [String: String] {
        guard try db.tableExists("metadata") else { return [:] }
        var rows: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT name, value FROM metadata") {
            if let name = row[0] as String? { rows[name] = (row[1] as String?) ?? "" }
        }
        return rows
    }

    /// Sets metadata rows, replacing earlier values of the same names, and makes the
    /// `metadata` table if the file has none.
    public func setMetadata(_ values: [String: String]) throws(CacheError) {
        try write("write the metadata") { db in try Self.setMetadata(values, in: db) }
    }

    private static func setMetadata(_ values: [String: String], in db: Database) throws {
        if try !db.tableExists("metadata") { try db.execute(sql: MBTilesConnection.metadataSchema) }
        // Delete, then insert: another tool's metadata table may have no unique index.
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            try db.execute(sql: "DELETE FROM metadata WHERE name = ?", arguments: [name])
            try db.execute(sql: "INSERT INTO metadata (name, value) VALUES (?, ?)", arguments: [name, value])
        }
    }

    /// What the file says of its tiles (`TilesetDescription`): the metadata, weighed against
    /// a stored tile's header, and the zooms held. A `tilesize` in the metadata that MapFrame
    /// does not draw is `CacheError.undrawable`.
    public func tilesetDescription() throws(CacheError) -> TilesetDescription {
        let (metadata, sample, zooms) = try read("describe the tileset") { db in
            (try Self.metadata(in: db), try Self.sampleTileHeader(in: db), try Self.heldZooms(in: db))
        }
        return try TilesetDescription(path: path, metadata: metadata, sample: sample, zooms: zooms)
    }

    /// The header of the first of a few stored tiles whose bytes have a known signature, read
    /// without decoding a pixel; nil when none has.
    private static func sampleTileHeader(in db: Database) throws -> ImageHeader? {
        let tiles = try Data.fetchAll(db, sql: "SELECT tile_data FROM tiles WHERE \(usableTileData("tile_data")) LIMIT 8")
        return tiles.lazy.compactMap { try? ImageHeader.read($0) }.first
    }

    /// The zooms of the tiles held, shallowest first: one step along the index a zoom (for a
    /// view too, through its table's index), so that a file of millions of tiles is not read
    /// through.
    private static func heldZooms(in db: Database) throws -> [Int] {
        let next = try db.makeStatement(sql: """
            SELECT zoom_level FROM tiles WHERE zoom_level > ? AND zoom_level <= \(TileID.maxZoom) AND typeof(zoom_level) = 'integer'
            ORDER BY zoom_level LIMIT 1
            """)
        var zooms: [Int] = []
        while let zoom = try Int.fetchOne(next, arguments: [zooms.last ?? -1]) { zooms.append(zoom) }
        return zooms
    }

    // MARK: - Freshness and use

    /// Records a revalidation (304): the tile's bytes stay, its expiry and validators move on.
    public func updateFreshness(_ freshness: TileFreshness, for tile: TileID) throws(CacheError) {
        try makeFreshnessTablesIfMissing()
        try write("record the revalidation of tile \(tile)") { db in
            try db.cachedStatement(sql: """
                UPDATE mapframe_tile_state SET etag = coalesce(?, etag), last_modified = coalesce(?, last_modified),
                expires_at = ?, fetched_at = ? WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?
                """).execute(arguments: [
                    freshness.etag, freshness.lastModified, freshness.expiresAt.timeIntervalSince1970,
                    freshness.fetchedAt.timeIntervalSince1970, tile.z, tile.x, tile.tmsRow,
                ])
        }
    }

    /// Remembers that the upstream has no such tile, until `until`.
    public func markMissing(_ tile: TileID, until: Date) throws(CacheError) {
        try makeFreshnessTablesIfMissing()
        try write("remember that tile \(tile) is missing") { db in
            try db.cachedStatement(sql: "INSERT OR REPLACE INTO mapframe_missing_tiles (zoom_level, tile_column, tile_row, until) VALUES (?, ?, ?, ?)")
                .execute(arguments: [tile.z, tile.x, tile.tmsRow, until.timeIntervalSince1970])
        }
    }

    /// Marks the tiles held inside `blocks` expired at `now`, in one transaction (see
    /// `TileCacheBackend.markExpired`): a tracked tile's expiry moves back to `now`; a tile with no
    /// freshness record (another tool's) gains one, expired and fetched at `now`, as do the
    /// freshness tables themselves in a file without them. Returns how many tiles were marked.
    public func markExpired(_ blocks: [TileBlock], at now: Date) throws(CacheError) -> Int {
        guard !blocks.isEmpty else { return 0 }
        try makeFreshnessTablesIfMissing()
        return try write("mark tiles expired") { db in
            let expire = try db.cachedStatement(sql: """
                UPDATE mapframe_tile_state SET expires_at = ?1
                WHERE zoom_level = ?2 AND tile_column BETWEEN ?3 AND ?4 AND tile_row BETWEEN ?5 AND ?6 AND expires_at > ?1
                """)
            let track = try db.cachedStatement(sql: """
                INSERT OR IGNORE INTO mapframe_tile_state
                    (zoom_level, tile_column, tile_row, etag, last_modified, expires_at, fetched_at, last_used, byte_count)
                SELECT t.zoom_level, t.tile_column, t.tile_row, NULL, NULL, ?1, ?1, ?1, length(t.tile_data) FROM tiles t
                WHERE t.zoom_level = ?2 AND t.tile_column BETWEEN ?3 AND ?4 AND t.tile_row BETWEEN ?5 AND ?6
                AND \(Self.usableTileData("t.tile_data")) AND NOT EXISTS (SELECT 1 FROM mapframe_tile_state s
                    WHERE s.zoom_level = t.zoom_level AND s.tile_column = t.tile_column AND s.tile_row = t.tile_row)
                """)
            var marked = 0
            for block in blocks {
                // Rows counted from the south: the block's northern row is the highest.
                let south = TileID(z: block.zoom, x: 0, y: block.rows.upperBound).tmsRow
                let north = TileID(z: block.zoom, x: 0, y: block.rows.lowerBound).tmsRow
                let arguments: StatementArguments = [
                    now.timeIntervalSince1970, block.zoom, block.columns.lowerBound, block.columns.upperBound, south, north,
                ]
                try expire.execute(arguments: arguments)
                marked += db.changesCount
                try track.execute(arguments: arguments)
                marked += db.changesCount
            }
            return marked
        }
    }

    /// How many of `tiles` are held and fresh at `now`; tiles without freshness never expire.
    public func freshTileCount(in tiles: [TileID], at now: Date) throws(CacheError) -> Int {
        let expiring = try hasFreshnessTables()
        return try read("count fresh tiles") { db in
            let statement = try db.cachedStatement(sql: expiring ? Self.freshTileSQL : Self.heldTileSQL)
            return try tiles.reduce(0) { count, tile in
                let arguments: StatementArguments = expiring ? [tile.z, tile.x, tile.tmsRow, now.timeIntervalSince1970] : [tile.z, tile.x, tile.tmsRow]
                return try Bool.fetchOne(statement, arguments: arguments) == true ? count + 1 : count
            }
        }
    }

    /// Whether a tile is held, usable, and fresh at ?4 (one with no freshness record never
    /// expires), without reading its bytes.
    private static let freshTileSQL = """
        SELECT EXISTS (SELECT 1 FROM tiles t
            LEFT JOIN mapframe_tile_state s ON s.zoom_level = t.zoom_level AND s.tile_column = t.tile_column AND s.tile_row = t.tile_row
            WHERE t.zoom_level = ?1 AND t.tile_column = ?2 AND t.tile_row = ?3 AND \(usableTileData("t.tile_data"))
            AND (s.expires_at IS NULL OR s.fetched_at IS NULL OR s.expires_at > ?4))
        """

    /// `freshTileSQL` for a file without MapFrame's freshness tables: a held tile never expires.
    private static let heldTileSQL = """
        SELECT EXISTS (SELECT 1 FROM tiles WHERE zoom_level = ?1 AND tile_column = ?2 AND tile_row = ?3 AND \(usableTileData("tile_data")))
        """

    /// Marks tiles as used at `date`, for least-recently-used purging. Only tiles with a
    /// freshness record are purged, so a file without records, or one that cannot be written,
    /// is left alone.
    public func touch(_ tiles: [TileID], at date: Date) throws(CacheError) {
        guard !tiles.isEmpty, readOnlyReason == nil, try hasFreshnessTables() else { return }
        try write("record tile use") { db in
            let update = try db.cachedStatement(sql: "UPDATE mapframe_tile_state SET last_used = ? WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?")
            for tile in tiles { try update.execute(arguments: [date.timeIntervalSince1970, tile.z, tile.x, tile.tmsRow]) }
        }
    }

    // MARK: - Purging

    /// Deletes the `count` least recently used tiles. Returns how many were deleted.
    @discardableResult
    public func purgeLeastRecentlyUsed(_ count: Int) throws(CacheError) -> Int {
        try deleteTiles(where: "1 ORDER BY last_used LIMIT \(max(0, count))")
    }

    /// Deletes tiles fetched before `date`. Returns how many were deleted.
    @discardableResult
    public func purge(fetchedBefore date: Date) throws(CacheError) -> Int {
        try deleteTiles(where: "fetched_at < \(date.timeIntervalSince1970)")
    }

    /// Deletes one tile and its record.
    public func delete(_ tile: TileID) throws(CacheError) {
        let tracked = try hasFreshnessTables()
        try write("delete tile \(tile)") { db in
            try db.execute(sql: "DELETE FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?", arguments: [tile.z, tile.x, tile.tmsRow])
            if tracked {
                try db.execute(
                    sql: "DELETE FROM mapframe_tile_state WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?", arguments: [tile.z, tile.x, tile.tmsRow]
                )
            }
        }
    }

    /// Deletes the tracked tiles whose records `condition` picks (untracked ones are never
    /// purged); returns how many.
    private func deleteTiles(where condition: String) throws(CacheError) -> Int {
        if let readOnlyReason { throw CacheError.readOnly(path: path, reason: readOnlyReason) }
        guard try hasFreshnessTables() else { return 0 }
        return try write("purge tiles") { db in
            try db.execute(sql: """
                CREATE TEMP TABLE IF NOT EXISTS doomed (zoom_level, tile_column, tile_row);
                DELETE FROM temp.doomed;
                INSERT INTO temp.doomed SELECT zoom_level, tile_column, tile_row FROM mapframe_tile_state WHERE \(condition);
                DELETE FROM tiles WHERE (zoom_level, tile_column, tile_row) IN (SELECT * FROM temp.doomed);
                DELETE FROM mapframe_tile_state WHERE (zoom_level, tile_column, tile_row) IN (SELECT * FROM temp.doomed);
                """)
            return try Int.fetchOne(db, sql: "SELECT count(*) FROM temp.doomed") ?? 0
        }
    }

    // MARK: - Statistics and maintenance

    /// Counts, sizes and expiry of the stored tiles.
    public func statistics(at now: Date) throws(CacheError) -> CacheStatistics {
        let tracked = try hasFreshnessTables()
        return try read("count tiles") { db in
            let totals = try Row.fetchOne(db, sql: "SELECT count(*), coalesce(sum(length(tile_data)), 0) FROM tiles")
            let (tileCount, totalBytes): (Int, Int) = (totals?[0] ?? 0, totals?[1] ?? 0)
            var (expired, trackedCount) = (0, 0)
            if tracked, let state = try Row.fetchOne(
                db, sql: "SELECT count(*), coalesce(sum(expires_at <= ?), 0) FROM mapframe_tile_state", arguments: [now.timeIntervalSince1970]
            ) {
                (trackedCount, expired) = (state[0], state[1])
            }
            var perZoom: [Int: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT zoom_level, count(*) FROM tiles GROUP BY zoom_level") { perZoom[row[0]] = row[1] }
            return CacheStatistics(
                tileCount: tileCount, totalBytes: totalBytes, expiredCount: expired, untrackedCount: tileCount - trackedCount, tilesPerZoom: perZoom
            )
        }
    }

    /// Up to `limit` usable tiles at real addresses, with their freshness, in (zoom, column, TMS
    /// row) order after `after`.
    public func tiles(after: TileID?, limit: Int) throws(CacheError) -> [StoredTileRecord] {
        let (freshnessColumns, freshnessJoin) = try hasFreshnessTables()
            ? ("s.etag, s.last_modified, s.expires_at, s.fetched_at", "LEFT JOIN mapframe_tile_state s USING (zoom_level, tile_column, tile_row)")
            : ("NULL, NULL, NULL, NULL", "")
        let start = after.map { [$0.z, $0.x, $0.tmsRow] } ?? [-1, -1, -1]
        return try read("read tiles to copy") { db in
            try Row.fetchAll(db, sql: """
                SELECT zoom_level, tile_column, tile_row, tile_data, \(freshnessColumns) FROM tiles \(freshnessJoin)
                WHERE \(Self.validTileAddress) AND \(Self.usableTileData("tile_data")) AND (zoom_level, tile_column, tile_row) > (?, ?, ?)
                ORDER BY zoom_level, tile_column, tile_row LIMIT ?
                """, arguments: StatementArguments(start + [limit])).map { row in
                StoredTileRecord(
                    tile: TileID(z: row[0], x: row[1], tmsRow: row[2]),
                    stored: StoredTile(data: row[3] ?? Data(), freshness: Self.freshness(row, from: 4))
                )
            }
        }
    }

    /// SQL that is true for a row at a real tile's address (`TileID.isValid`): zoom 0 to
    /// `TileID.maxZoom`, column and row inside the world at that zoom. Another tool's file may
    /// hold anything there.
    static let validTileAddress = validTileAddress(columnsPrefixedWith: "")

    /// `validTileAddress` as a filter alone: each column behind a unary plus, which keeps SQLite
    /// from reading its zoom range through an index in place of the range a query seeks.
    static let validTileAddressFilter = validTileAddress(columnsPrefixedWith: "+")

    private static func validTileAddress(columnsPrefixedWith prefix: String) -> String {
        let (zoom, column, row) = (prefix + "zoom_level", prefix + "tile_column", prefix + "tile_row")
        return """
            \(zoom) BETWEEN 0 AND \(TileID.maxZoom) AND \(column) BETWEEN 0 AND (1 << \(zoom)) - 1
            AND \(row) BETWEEN 0 AND (1 << \(zoom)) - 1
            """
    }

    /// Rewrites the file to return the space of deleted tiles.
    public func vacuum() throws(CacheError) {
        if let readOnlyReason { throw CacheError.readOnly(path: path, reason: readOnlyReason) }
        try connection.vacuum()
    }

    /// Brings `bounds`, `minzoom` and `maxzoom` up to date with the tiles held, and sets `name`,
    /// `attribution`, `format` (read from the tiles' bytes), `type` and `version` where the
    /// file has none: a file another tool made keeps its own.
    public func refreshMetadata(name: String, attribution: String) throws(CacheError) {
        // One write transaction from the start: a read that later turns into a write can fail at
        // once with "database is locked" when another process writes, whatever the busy timeout.
        try write("refresh the metadata") { db in
            let existing = try Self.metadata(in: db)
            var values: [String: String] = [:]
            for (key, value) in ["name": name, "attribution": attribution, "type": "baselayer", "version": "1"] where existing[key] == nil {
                values[key] = value
            }
            if existing["format"] == nil, let format = try Self.sampleTileHeader(in: db)?.format.mbtilesName { values["format"] = format }
            if let zooms = try Row.fetchOne(db, sql: "SELECT min(zoom_level), max(zoom_level) FROM tiles WHERE \(Self.validTileAddress)"),
               let minZoom = zooms[0] as Int?, let maxZoom = zooms[1] as Int? {
                values["minzoom"] = String(minZoom)
                values["maxzoom"] = String(maxZoom)
                if let bounds = try Self.bounds(atZoom: maxZoom, in: db) {
                    values["bounds"] = [bounds.west, bounds.south, bounds.east, bounds.north]
                        .map { String(format: "%.6f", $0) }.joined(separator: ",")
                }
            }
            try Self.setMetadata(values, in: db)
        }
    }

    /// The area covered by the tiles held at one zoom.
    private static func bounds(atZoom zoom: Int, in db: Database) throws -> GeoBounds? {
        guard let extent = try Row.fetchOne(db, sql: """
            SELECT min(tile_column), max(tile_column), min(tile_row), max(tile_row) FROM tiles
            WHERE zoom_level = ? AND \(validTileAddress)
            """, arguments: [zoom]), let west = extent[0] as Int?, let east = extent[1] as Int?, let south = extent[2] as Int?, let north = extent[3] as Int?
        else { return nil }
        let northWest = TileID(z: zoom, x: west, tmsRow: north).bounds
        let southEast = TileID(z: zoom, x: east, tmsRow: south).bounds
        return GeoBounds(south: southEast.south, west: northWest.west, north: northWest.north, east: southEast.east)
    }
}

/// Whether a file's freshness tables are there, as last seen, and when their absence was seen.
private struct TablePresence {
    var present = false
    var absentSince: ContinuousClock.Instant?

    /// What is known now: present for good once seen; absent for a second after it was seen so.
    func answer(at now: ContinuousClock.Instant) -> Bool? {
        if present { return true }
        guard let absentSince, now - absentSince < .seconds(1) else { return nil }
        return false
    }

    mutating func record(_ isPresent: Bool, at now: ContinuousClock.Instant) {
        present = present || isPresent
        absentSince = isPresent ? nil : now
    }
}
