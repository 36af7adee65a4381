import BlockingWork
import CSQLite
import Foundation
import GRDB

/// What every SQLite file MapFrame opens shares, MBTiles caches and the files of stores in
/// modules above this one alike: the connection settings, and SQLite's errors in MapFrame's words.
public enum SQLiteFile {
    /// GRDB's settings for a file: other processes' readers and writers are waited for (10 s)
    /// rather than failing with "database is locked", and a writer syncs at checkpoints.
    /// - Parameter statementObserver: told the SQL of every statement run (for measuring).
    public static func configuration(readOnly: Bool, statementObserver: (@Sendable (String) -> Void)? = nil) -> Configuration {
        SQLiteSetup.configure()
        var configuration = Configuration()
        configuration.readonly = readOnly
        configuration.foreignKeysEnabled = false
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            if let statementObserver { db.trace { event in if case .statement(let statement) = event { statementObserver(statement.sql) } } }
            // In WAL mode, NORMAL syncs at checkpoints rather than every commit: a crash of the
            // process never corrupts the file or loses a commit; only a power cut may lose the last few.
            if !db.configuration.readonly { try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        }
        return configuration
    }

    /// Runs `body`, turning SQLite's errors into `CacheError`s that say what failed: a damaged
    /// file, or whether reading or writing did (a full disk above all).
    public static func catching<T>(path: String, operation: String, writing: Bool = false, _ body: () throws -> T) throws(CacheError) -> T {
        do {
            return try body()
        } catch let error as CacheError {
            throw error
        } catch let error as DatabaseError where [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode) {
            throw CacheError.damaged(path: path, operation: operation, message: error.message ?? "\(error.resultCode)")
        } catch let error as DatabaseError {
            let failure: CacheError.SQLiteFailure = error.resultCode == .SQLITE_FULL ? .diskFull : (writing ? .write : .read)
            throw CacheError.sqlite(path: path, operation: operation, message: error.message ?? "\(error.resultCode)", failure: failure)
        } catch {
            throw CacheError.sqlite(path: path, operation: operation, message: "\(error)", failure: writing ? .write : .read)
        }
    }
}

/// SQLite's process-wide settings, made once before the first file is opened.
enum SQLiteSetup {
    private static let configured: Void = { _ = mf_sqlite3_enable_uri() }()

    /// Makes SQLite read `file:` names as URIs (for `immutable=1`), whatever it was built with.
    static func configure() { configured }
}

/// Runs `body`, which blocks on the storage named `cache` (a file or a folder), on
/// `BlockingPool.storage`; once those threads have stopped, the cache is unavailable.
public func onStorageThreads<T: Sendable>(
    cache: String, _ body: @escaping @Sendable () throws(CacheError) -> T
) async throws(CacheError) -> T {
    try await BlockingPool.storage.run(body) { error in
        CacheError.unavailable(cache: cache, reason: "its storage threads have stopped (\(error))")
    }
}
