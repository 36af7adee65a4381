/// A tile cache that cannot be opened, read or written.
public enum CacheError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file does not exist.
    case missingFile(path: String)
    /// The file exists but is not an SQLite database with MBTiles' `tiles` and `metadata` tables.
    case notMBTiles(path: String, reason: String)
    /// SQLite refused an operation.
    case sqlite(path: String, operation: String, message: String)

    public var description: String {
        switch self {
        case .missingFile(let path):
            return "cache: \(path) does not exist; expected an MBTiles file (create one with `mapframe fixtures`)"
        case .notMBTiles(let path, let reason):
            return "cache: \(path) is not an MBTiles file (\(reason)); expected an SQLite database with tables tiles and metadata"
        case .sqlite(let path, let operation, let message):
            return "cache: \(path): \(operation) failed: \(message)"
        }
    }
}
