import MapGeometry

/// A tile cache that cannot be opened, read or written.
public enum CacheError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file does not exist.
    case missingFile(path: String)
    /// The file is not an MBTiles file: not an SQLite database, or one without a `tiles` table
    /// or view. `reason` says what was found instead.
    case notMBTiles(path: String, reason: String)
    /// The file is not a PMTiles archive MapFrame can draw from (not PMTiles version 3, vector
    /// tiles, a compression it does not read), or a part of it is damaged or points outside it.
    /// `reason` names the field, the value found and what is allowed.
    case unusableArchive(path: String, reason: String)
    /// The MBTiles file declares tiles MapFrame will not draw (a tile size of 65536 pixels, say).
    /// `reason` names the field, the value found and what is allowed.
    case undrawable(path: String, reason: String)
    /// Writing a PMTiles archive failed while `operation` ran; `diskFull` when the disk was full.
    /// Nothing is left under the archive's name.
    case archiveWrite(path: String, operation: String, message: String, diskFull: Bool)
    /// SQLite found a damaged page, or a file cut short, while `operation` ran.
    case damaged(path: String, operation: String, message: String)
    /// SQLite refused an operation; `failure` says whether reading or writing failed.
    case sqlite(path: String, operation: String, message: String, failure: SQLiteFailure = .read)
    /// A write was refused before SQLite was asked: the file was opened for reading only, or
    /// it, its folder or its `tiles` cannot be written. `reason` says which.
    case readOnly(path: String, reason: String)
    /// A stored tile's `tile_data` cannot be an image: text, a number, NULL, empty, or larger
    /// than any tile. Only that tile is affected.
    case unusableTile(path: String, tile: TileID, reason: String)
    /// A shared cache cannot be reached now (the database is down, or did not answer in time).
    /// Tiles are served from memory and the upstream meanwhile, and it is tried again shortly.
    case unavailable(cache: String, reason: String)
    /// The database refused a statement; `cache` names it without a password.
    case database(cache: String, operation: String, message: String)

    /// What an SQLite operation failed at.
    public enum SQLiteFailure: Sendable, Equatable {
        /// Opening, preparing or reading.
        case read
        /// Writing: a read-only file or file system, an I/O error, a lock held too long.
        case write
        /// Writing, because the disk holding the file is full (SQLite's SQLITE_FULL).
        case diskFull
    }

    /// Whether something could not be written (the disk is full, the file is read-only); what
    /// is already in the file is untouched, since every write is a transaction of its own.
    public var isWriteFailure: Bool {
        switch self {
        case .sqlite(_, _, _, let failure): return failure != .read
        case .readOnly, .unavailable, .archiveWrite: return true
        case .missingFile, .notMBTiles, .unusableArchive, .undrawable, .damaged, .unusableTile, .database: return false
        }
    }

    public var description: String {
        switch self {
        case .missingFile(let path):
            return "cache: \(path) does not exist; expected an MBTiles file (create one with `mapframe fixtures`) or a PMTiles archive"
        case .notMBTiles(let path, let reason):
            return "cache: \(path) is not an MBTiles file: \(reason); expected an SQLite database with a tiles table or view"
        case .unusableArchive(let path, let reason):
            return "cache: \(path) cannot be drawn from as a PMTiles archive: \(reason)"
        case .undrawable(let path, let reason):
            return "cache: \(path) cannot be drawn from: \(reason)"
        case .archiveWrite(let path, let operation, let message, false):
            return "cache: \(path): cannot write (\(operation) failed: \(message))"
        case .archiveWrite(let path, let operation, let message, true):
            return "cache: \(path): the disk is full (\(operation) failed: \(message))"
        case .damaged(let path, let operation, let message):
            return "cache: \(path) is damaged (\(operation) failed: \(message)); move it aside, or run `mapframe cache verify --delete-corrupt`"
        case .sqlite(let path, let operation, let message, .read):
            return "cache: \(path): \(operation) failed: \(message)"
        case .sqlite(let path, let operation, let message, .write):
            return "cache: \(path): cannot write (\(operation) failed: \(message))"
        case .sqlite(let path, let operation, let message, .diskFull):
            return "cache: \(path): the disk is full (\(operation) failed: \(message))"
        case .readOnly(let path, let reason):
            return "cache: \(path) cannot be written: \(reason)"
        case .unusableTile(let path, let tile, let reason):
            return "cache: \(path): tile \(tile): \(reason)"
        case .unavailable(let cache, let reason):
            return "cache: \(cache) is unavailable: \(reason)"
        case .database(let cache, let operation, let message):
            return "cache: \(cache): \(operation) failed: \(message)"
        }
    }
}
