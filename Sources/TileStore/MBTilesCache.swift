import Foundation
import MapGeometry

/// An MBTiles 1.3 file: `metadata(name, value)` and `tiles(zoom_level, tile_column, tile_row,
/// tile_data)`, with rows counted the TMS way (from the south). One instance is one SQLite
/// connection, to be used by one thread at a time.
public final class MBTilesCache {
    public let path: String
    let connection: SQLiteConnection
    private let selectTile: SQLiteStatement
    private let containsTileQuery: SQLiteStatement
    private lazy var insertTile: SQLiteStatement? = try? connection.prepare(
        "INSERT OR REPLACE INTO tiles (zoom_level, tile_column, tile_row, tile_data) VALUES (?, ?, ?, ?)"
    )

    /// Opens an existing MBTiles file, checking that it is one. Opened for writing, the file
    /// gains MapFrame's freshness tables if it lacks them.
    public convenience init(openingExisting path: String, readOnly: Bool = true) throws(CacheError) {
        try self.init(connection: SQLiteConnection(path: path, mode: readOnly ? .readOnly : .readWrite))
        if !readOnly { try connection.transaction { () throws(CacheError) in try connection.execute(MBTilesCache.freshnessSchema) } }
    }

    /// Opens an MBTiles file, creating it with the MBTiles schema if it does not exist.
    public convenience init(creatingIfNeeded path: String) throws(CacheError) {
        let connection = try SQLiteConnection(path: path, mode: .create)
        // WAL first, on its own; then the schema in one write transaction, so that two processes
        // creating the same file wait for each other instead of failing.
        try connection.switchToWriteAheadLog()
        try connection.transaction { () throws(CacheError) in
            try connection.execute("""
            CREATE TABLE IF NOT EXISTS metadata (name TEXT NOT NULL, value TEXT);
            CREATE UNIQUE INDEX IF NOT EXISTS metadata_name ON metadata (name);
            CREATE TABLE IF NOT EXISTS tiles (zoom_level INTEGER NOT NULL, tile_column INTEGER NOT NULL,
                                              tile_row INTEGER NOT NULL, tile_data BLOB NOT NULL);
            CREATE UNIQUE INDEX IF NOT EXISTS tile_index ON tiles (zoom_level, tile_column, tile_row);
            """)
            try connection.execute(MBTilesCache.freshnessSchema)
        }
        try self.init(connection: connection)
    }

    /// MapFrame's side tables. MBTiles readers ignore extra tables; these hold what the format
    /// has no place for: per-tile validators, expiry and use, and recent 404s.
    static let freshnessSchema = """
        CREATE TABLE IF NOT EXISTS mapframe_tile_state (
            zoom_level INTEGER NOT NULL, tile_column INTEGER NOT NULL, tile_row INTEGER NOT NULL,
            etag TEXT, last_modified TEXT, expires_at REAL NOT NULL, fetched_at REAL NOT NULL,
            last_used REAL NOT NULL, byte_count INTEGER NOT NULL,
            PRIMARY KEY (zoom_level, tile_column, tile_row)) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS mapframe_tile_state_last_used ON mapframe_tile_state (last_used);
        CREATE TABLE IF NOT EXISTS mapframe_missing_tiles (
            zoom_level INTEGER NOT NULL, tile_column INTEGER NOT NULL, tile_row INTEGER NOT NULL,
            until REAL NOT NULL,
            PRIMARY KEY (zoom_level, tile_column, tile_row)) WITHOUT ROWID;
        """

    private init(connection: SQLiteConnection) throws(CacheError) {
        path = connection.path
        self.connection = connection
        let tables: Set<String>
        do {
            let query = try connection.prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")
            var names: Set<String> = []
            while try query.step() { if let name = query.string(at: 0) { names.insert(name) } }
            tables = names
        } catch {
            // SQLite opens any file lazily; the first query is where "file is not a database" shows.
            throw CacheError.notMBTiles(path: connection.path, reason: Self.reason(error))
        }
        let missing = ["metadata", "tiles"].filter { !tables.contains($0) }
        guard missing.isEmpty else {
            throw CacheError.notMBTiles(path: connection.path, reason: "no \(missing.joined(separator: " or ")) table")
        }
        selectTile = try connection.prepare(
            "SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?"
        )
        containsTileQuery = try connection.prepare(
            "SELECT 1 FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?"
        )
    }

    private static func reason(_ error: CacheError) -> String {
        if case .sqlite(_, _, let message, _) = error { return message }
        return error.description
    }

    /// The stored bytes of a tile (addressed XYZ-style), or nil when it is not stored.
    public func tileData(for tile: TileID) throws(CacheError) -> Data? {
        selectTile.reset()
        selectTile.bind(tile.z, at: 1)
        selectTile.bind(tile.x, at: 2)
        selectTile.bind(tile.tmsRow, at: 3)
        defer { selectTile.reset() }
        return try selectTile.step() ? selectTile.data(at: 0) : nil
    }

    /// Whether a tile is stored, without reading its bytes.
    public func containsTile(_ tile: TileID) throws(CacheError) -> Bool {
        containsTileQuery.reset()
        containsTileQuery.bind(tile.z, at: 1)
        containsTileQuery.bind(tile.x, at: 2)
        containsTileQuery.bind(tile.tmsRow, at: 3)
        defer { containsTileQuery.reset() }
        return try containsTileQuery.step()
    }

    /// Stores a tile's bytes, replacing any earlier ones.
    public func store(_ data: Data, for tile: TileID) throws(CacheError) {
        guard let insertTile else {
            throw CacheError.sqlite(path: path, operation: "prepare insert", message: connection.lastErrorMessage, failure: .write)
        }
        insertTile.reset()
        insertTile.bind(tile.z, at: 1)
        insertTile.bind(tile.x, at: 2)
        insertTile.bind(tile.tmsRow, at: 3)
        insertTile.bind(data, at: 4)
        defer { insertTile.reset() }
        _ = try insertTile.step()
    }

    /// Runs `body` in one transaction: much faster for many writes, and all or nothing.
    public func inTransaction<T>(_ body: () throws(CacheError) -> T) throws(CacheError) -> T {
        try connection.transaction(body)
    }

    /// All metadata rows.
    public func metadata() throws(CacheError) -> [String: String] {
        let query = try connection.prepare("SELECT name, value FROM metadata")
        var rows: [String: String] = [:]
        while try query.step() {
            if let name = query.string(at: 0) { rows[name] = query.string(at: 1) ?? "" }
        }
        return rows
    }

    /// Sets metadata rows, replacing earlier values of the same names.
    public func setMetadata(_ values: [String: String]) throws(CacheError) {
        let upsert = try connection.prepare("INSERT OR REPLACE INTO metadata (name, value) VALUES (?, ?)")
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            upsert.reset()
            upsert.bind(name, at: 1)
            upsert.bind(value, at: 2)
            _ = try upsert.step()
        }
    }

    /// The number of stored tiles.
    public func tileCount() throws(CacheError) -> Int {
        let query = try connection.prepare("SELECT count(*) FROM tiles")
        return try query.step() ? query.int(at: 0) : 0
    }
}
