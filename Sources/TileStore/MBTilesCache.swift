import Foundation
import ImageCodec
import MapGeometry

/// An MBTiles file (1.0 to 1.3), as MapFrame and other tools write it: `tiles(zoom_level,
/// tile_column, tile_row, tile_data)` as a table or a view, rows counted the TMS way (from the
/// south), and usually `metadata(name, value)` (see `MBTilesLayout`). One instance is one
/// SQLite connection, to be used by one thread at a time.
///
/// Opened read-only, a file is never written and nothing is made beside it. Opened for
/// writing, nothing is written until something is stored; MapFrame's freshness tables and
/// `metadata` are written only into a file that tiles are stored in (see `MBTilesFreshness`).
public final class MBTilesCache {
    public let path: String
    /// Why nothing can be written to the file, or nil when it can be: it was opened read-only,
    /// it or its folder is not writable, or its `tiles` is a view.
    public let readOnlyReason: String?
    /// Whether `tiles` is a view (TileMill's and mbutil's layout) rather than a table.
    public let tilesIsView: Bool
    /// The connection; replaced when a file read as immutable changes.
    private(set) var connection: SQLiteConnection
    /// For a file read with SQLite's `immutable=1` (see `openForReading(_:)`): the file as it
    /// was when opened. Nil for a file read or written through SQLite's locks.
    private var immutableState: FileState?
    private var statements: [String: SQLiteStatement] = [:]
    /// Tables and views seen to exist (lower-cased), outside any transaction of this
    /// connection's, which might yet be rolled back. Absence is never remembered: a table
    /// created by another process may appear at any time.
    private var knownTables: Set<String> = []

    /// The largest `tile_data` read; a larger value is refused without reading it.
    public static let maxTileBytes = FetchPolicy.defaultMaxTileBytes

    // MARK: - Opening

    /// Opens an existing MBTiles file, checking that it is one. Opened read-only, nothing is ever
    /// written. Otherwise the file is opened for writing when it, its folder and its `tiles` can
    /// be written, and for reading when not: `readOnlyReason` says why, and each write fails
    /// with `CacheError.readOnly`.
    public convenience init(openingExisting path: String, readOnly: Bool = true) throws(CacheError) {
        let file = try CacheFile(path: path)
        guard file.exists else { throw CacheError.missingFile(path: path) }
        guard file.isSQLite else { throw CacheError.notMBTiles(path: path, reason: file.notSQLiteReason) }
        if !readOnly, file.whyNotWritable == nil {
            try self.init(connection: SQLiteConnection(path: path, mode: .readWrite), immutableState: nil, readOnlyReason: nil)
        } else {
            let (connection, state) = try Self.openForReading(file)
            try self.init(
                connection: connection, immutableState: state, readOnlyReason: readOnly ? "it was opened for reading only" : file.whyNotWritable
            )
        }
    }

    /// Opens an MBTiles file for writing, first creating it (in WAL mode, with the MBTiles
    /// schema and MapFrame's freshness tables) if it does not exist or is an empty database,
    /// as it is while another process creates it. A file that cannot be written is opened for
    /// reading, as `init(openingExisting:readOnly: false)` does.
    public convenience init(creatingIfNeeded path: String) throws(CacheError) {
        let file = try CacheFile(path: path)
        if file.whyNotWritable == nil, !file.exists || file.isEmpty || file.isSQLite {
            let connection = try SQLiteConnection(path: path, mode: .create)
            if try Self.holdsNoTables(connection) {
                // WAL first, on its own; then the schema in one write transaction, so that two
                // processes creating the same file wait for each other instead of failing.
                try connection.switchToWriteAheadLog()
                try connection.transaction { () throws(CacheError) in
                    try connection.execute(Self.mbtilesSchema)
                    try connection.execute(Self.freshnessSchema)
                }
            }
        }
        try self.init(openingExisting: path, readOnly: false)
    }

    /// MBTiles 1.3's tables, with the unique indexes readers expect.
    private static let mbtilesSchema = metadataSchema + """
        CREATE TABLE IF NOT EXISTS tiles (zoom_level INTEGER NOT NULL, tile_column INTEGER NOT NULL,
                                          tile_row INTEGER NOT NULL, tile_data BLOB NOT NULL);
        CREATE UNIQUE INDEX IF NOT EXISTS tile_index ON tiles (zoom_level, tile_column, tile_row);
        """

    private static let metadataSchema = """
        CREATE TABLE IF NOT EXISTS metadata (name TEXT NOT NULL, value TEXT);
        CREATE UNIQUE INDEX IF NOT EXISTS metadata_name ON metadata (name);

        """

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

    private init(connection: SQLiteConnection, immutableState: FileState?, readOnlyReason: String?) throws(CacheError) {
        let layout = try MBTilesLayout.read(from: connection)
        path = connection.path
        self.connection = connection
        self.immutableState = immutableState
        tilesIsView = layout.tilesIsView
        self.readOnlyReason = readOnlyReason ?? (layout.tilesIsView ? "its tiles are a view over other tables" : nil)
    }

    /// Opens a file for reading. A file in write-ahead-log mode with no `-wal` file beside it
    /// has no connection open in WAL mode, and is read with SQLite's `immutable=1`: read any
    /// other way, SQLite would make `-wal` and `-shm` files beside it and leave them there (and
    /// in a read-only folder, fail). Should the file change, or a `-wal` file appear, it is
    /// opened again before the next query (`withStatement`). Other files are read under
    /// SQLite's usual shared locks, which leave nothing behind.
    private static func openForReading(_ file: CacheFile) throws(CacheError) -> (SQLiteConnection, FileState?) {
        guard file.usesWriteAheadLog, !file.hasWriteAheadLogFile, let state = FileState(path: file.path) else {
            return (try SQLiteConnection(path: file.path, mode: .readOnly), nil)
        }
        return (try SQLiteConnection(path: file.path, mode: .immutable), state)
    }

    private static func holdsNoTables(_ connection: SQLiteConnection) throws(CacheError) -> Bool {
        let query = try connection.prepare("SELECT count(*) FROM sqlite_master")
        return try query.step() && query.int(at: 0) == 0
    }

    // MARK: - Statements

    /// Runs `body` with a prepared statement for `sql`, kept for the next time, and resets it
    /// afterwards, so that it holds no read transaction open.
    func withStatement<T>(_ sql: String, _ body: (SQLiteStatement) throws(CacheError) -> T) throws(CacheError) -> T {
        if let immutableState, FileState(path: path) != immutableState {
            // A writer has been at the file: SQLite's page cache of it may be out of date.
            statements.removeAll()
            (connection, self.immutableState) = try Self.openForReading(CacheFile(path: path))
        }
        let statement: SQLiteStatement
        if let cached = statements[sql] {
            statement = cached
        } else {
            statement = try connection.prepare(sql)
            statements[sql] = statement
        }
        defer { statement.reset() }
        return try body(statement)
    }

    /// Runs a write in a transaction of its own, or in the caller's when one is open. Refused
    /// at once, saying why, when the file cannot be written.
    func write<T>(_ body: () throws(CacheError) -> T) throws(CacheError) -> T {
        if let readOnlyReason { throw CacheError.readOnly(path: path, reason: readOnlyReason) }
        return connection.isInTransaction ? try body() : try connection.transaction(body)
    }

    /// Whether a table or view of this name exists now.
    func hasTable(_ name: String) throws(CacheError) -> Bool {
        if knownTables.contains(name) { return true }
        let exists = try withStatement("SELECT 1 FROM sqlite_master WHERE type IN ('table', 'view') AND lower(name) = ?") { query throws(CacheError) in
            query.bind(name, at: 1)
            return try query.step()
        }
        if exists, !connection.isInTransaction { knownTables.insert(name) }
        return exists
    }

    func bind(_ tile: TileID, to statement: SQLiteStatement) {
        statement.bind(tile.z, at: 1)
        statement.bind(tile.x, at: 2)
        statement.bind(tile.tmsRow, at: 3)
    }

    // MARK: - Tiles

    /// The stored bytes of a tile (addressed XYZ-style), or nil when it is not stored. A
    /// `tile_data` that cannot be an image (see `unusableReason`) throws
    /// `CacheError.unusableTile` without being read.
    public func tileData(for tile: TileID) throws(CacheError) -> Data? {
        try withStatement("""
            SELECT typeof(tile_data), length(tile_data), CASE WHEN \(Self.usableTileData) THEN tile_data END
            FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?
            """) { query throws(CacheError) in
            bind(tile, to: query)
            guard try query.step() else { return nil }
            if let reason = Self.unusableReason(type: query.string(at: 0), length: query.int(at: 1)) {
                throw CacheError.unusableTile(path: path, tile: tile, reason: reason)
            }
            return query.data(at: 2) ?? Data()
        }
    }

    /// Whether a tile is stored with a `tile_data` that may be an image, without reading it.
    /// A tile stored as text, say, is not: fetched again, it is replaced.
    public func containsTile(_ tile: TileID) throws(CacheError) -> Bool {
        try withStatement("""
            SELECT 1 FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ? AND \(Self.usableTileData)
            """) { query throws(CacheError) in
            bind(tile, to: query)
            return try query.step()
        }
    }

    /// SQL that is true for a `tile_data` that may be an image: bytes, at most `maxTileBytes`.
    /// SQLite works out `typeof` and `length` without reading a value's bytes.
    static let usableTileData = "typeof(tile_data) = 'blob' AND length(tile_data) BETWEEN 1 AND \(maxTileBytes)"

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

    /// Stores a tile's bytes, replacing any earlier ones.
    public func store(_ data: Data, for tile: TileID) throws(CacheError) {
        try write { () throws(CacheError) in
            try withStatement("INSERT OR REPLACE INTO tiles (zoom_level, tile_column, tile_row, tile_data) VALUES (?, ?, ?, ?)") { insert throws(CacheError) in
                bind(tile, to: insert)
                insert.bind(data, at: 4)
                _ = try insert.step()
            }
        }
    }

    /// Runs `body` in one transaction: much faster for many writes, and all or nothing.
    public func inTransaction<T>(_ body: () throws(CacheError) -> T) throws(CacheError) -> T {
        try write(body)
    }

    /// The number of stored tiles.
    public func tileCount() throws(CacheError) -> Int {
        try withStatement("SELECT count(*) FROM tiles") { query throws(CacheError) in try query.step() ? query.int(at: 0) : 0 }
    }

    /// The file's layout now: whether `tiles` is a view, and which optional tables it has.
    public func layout() throws(CacheError) -> MBTilesLayout {
        MBTilesLayout(tilesIsView: tilesIsView, hasMetadata: try hasTable("metadata"), hasFreshnessTables: try hasFreshnessTables())
    }

    // MARK: - Metadata

    /// All metadata rows; none when the file has no `metadata` table.
    public func metadata() throws(CacheError) -> [String: String] {
        guard try hasTable("metadata") else { return [:] }
        return try withStatement("SELECT name, value FROM metadata") { query throws(CacheError) in
            var rows: [String: String] = [:]
            while try query.step() {
                if let name = query.string(at: 0) { rows[name] = query.string(at: 1) ?? "" }
            }
            return rows
        }
    }

    /// Sets metadata rows, replacing earlier values of the same names, and makes the
    /// `metadata` table if the file has none.
    public func setMetadata(_ values: [String: String]) throws(CacheError) {
        try write { () throws(CacheError) in
            if try !hasTable("metadata") { try connection.execute(Self.metadataSchema) }
            // Delete, then insert: another tool's metadata table may have no unique index.
            for (name, value) in values.sorted(by: { $0.key < $1.key }) {
                try withStatement("DELETE FROM metadata WHERE name = ?") { delete throws(CacheError) in
                    delete.bind(name, at: 1)
                    _ = try delete.step()
                }
                try withStatement("INSERT INTO metadata (name, value) VALUES (?, ?)") { insert throws(CacheError) in
                    insert.bind(name, at: 1)
                    insert.bind(value, at: 2)
                    _ = try insert.step()
                }
            }
        }
    }

    /// The tileset's name and tile format, as a reader should take them: from `metadata`, else
    /// the name from the file's name and the format from a stored tile's bytes. Most files
    /// have no `format`, and MapProxy's no metadata at all.
    public func identity() throws(CacheError) -> TilesetIdentity {
        let metadata = try metadata()
        var identity = TilesetIdentity(name: URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent, nameSource: .fileName)
        if let name = metadata["name"], !name.isEmpty { (identity.name, identity.nameSource) = (name, .metadata) }
        if let format = metadata["format"], !format.isEmpty {
            (identity.format, identity.formatSource) = (format, .metadata)
        } else if let format = try formatOfStoredTiles() {
            (identity.format, identity.formatSource) = (format, .tileBytes)
        }
        return identity
    }

    /// The format of the first of a few stored tiles whose bytes have a known signature, by
    /// MBTiles' name for it (`png`, `jpg`, `webp`).
    func formatOfStoredTiles() throws(CacheError) -> String? {
        try withStatement("SELECT tile_data FROM tiles WHERE \(Self.usableTileData) LIMIT 8") { query throws(CacheError) in
            while try query.step() {
                if let data = query.data(at: 0), let header = try? ImageHeader.read(data) {
                    return header.format.mbtilesName
                }
            }
            return nil
        }
    }
}

/// A tileset's name and tile format, and where each was found.
public struct TilesetIdentity: Sendable, Equatable, CustomStringConvertible {
    public enum Source: String, Sendable {
        case metadata = "from the metadata"
        case fileName = "from the file name"
        case tileBytes = "from a tile's bytes"
    }

    public var name: String
    public var nameSource: Source
    /// `png`, `jpg` or `webp`, say; nil when neither the metadata nor any tile says.
    public var format: String?
    public var formatSource: Source?

    public init(name: String, nameSource: Source, format: String? = nil, formatSource: Source? = nil) {
        self.name = name
        self.nameSource = nameSource
        self.format = format
        self.formatSource = formatSource
    }

    /// "name: Cambridge (from the metadata); format: png (from a tile's bytes)".
    public var description: String {
        let format = self.format.map { "\($0) (\(formatSource?.rawValue ?? ""))" } ?? "unknown (no metadata entry, and no tile with a known signature)"
        return "name: \(name) (\(nameSource.rawValue)); format: \(format)"
    }
}

/// What a file read as immutable looked like: its inode, size and modification time, and
/// whether a `-wal` file lay beside it. Any writer changes one of them.
private struct FileState: Equatable {
    let inode: UInt64
    let size: Int64
    let modifiedSeconds: Int
    let modifiedNanoseconds: Int
    let hasWriteAheadLogFile: Bool

    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modifiedSeconds = Int(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
        hasWriteAheadLogFile = FileManager.default.fileExists(atPath: path + "-wal")
    }
}

extension ImageHeader.Format {
    /// The name MBTiles' `format` metadata gives the format.
    var mbtilesName: String {
        switch self {
        case .png: "png"
        case .jpeg: "jpg"
        case .webp: "webp"
        }
    }
}
