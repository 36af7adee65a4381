/// A tile cache that cannot be opened, read or written.
public enum CacheError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file does not exist.
    case missingFile(path: String)
    /// The file exists but is not an SQLite database with MBTiles' `tiles` and `metadata` tables.
    case notMBTiles(path: String, reason: String)
    /// SQLite refused an operation; `failure` says whether reading or writing failed.
    case sqlite(path: String, operation: String, message: String, failure: SQLiteFailure = .read)

    /// What an SQLite operation failed at.
    public enum SQLiteFailure: Sendable, Equatable {
        /// Opening, preparing or reading.
        case read
        /// Writing: a read-only file or file system, an I/O error, a lock held too long.
        case write
        /// Writing, because the disk holding the file is full (SQLite's SQLITE_FULL).
        case diskFull
    }

    /// Whether something could not be written (the disk is full, say); what is already in
    /// the file is untouched, since every write is a transaction of its own.
    public var isWriteFailure: Bool {
        guard case .sqlite(_, _, _, let failure) = self else { return false }
        return failure != .read
    }

    public var description: String {
        switch self {
        case .missingFile(let path):
            return "cache: \(path) does not exist; expected an MBTiles file (create one with `mapframe fixtures`)"
        case .notMBTiles(let path, let reason):
            return "cache: \(path) is not an MBTiles file (\(reason)); expected an SQLite database with tables tiles and metadata"
        case .sqlite(let path, let operation, let message, .read):
            return "cache: \(path): \(operation) failed: \(message)"
        case .sqlite(let path, let operation, let message, .write):
            return "cache: \(path): cannot write (\(operation) failed: \(message))"
        case .sqlite(let path, let operation, let message, .diskFull):
            return "cache: \(path): the disk is full (\(operation) failed: \(message))"
        }
    }
}
