import BlockingWork
import CSQLite
import Foundation
import GRDB
import Synchronization

/// How an MBTiles file is opened, through GRDB, and SQLite's errors in MapFrame's words.
///
/// - A file MapFrame may write, in write-ahead-log mode: a `DatabasePool`, so that readers go
///   on beside a write. Another tool's file in rollback-journal mode: a `DatabaseQueue`, since a
///   pool would switch the file to WAL.
/// - A file only read: a read-only `DatabasePool`, which leaves nothing beside a rollback-journal
///   file. A WAL file with no `-wal` file beside it has no connection open in WAL mode, and is read
///   with SQLite's `immutable=1`: read any other way, SQLite would make `-wal` and `-shm` files
///   beside it and leave them there (and in a read-only folder, fail). Should such a file change,
///   or a `-wal` file appear, it is opened again before the next statement.
///
/// GRDB opens each of these itself: `immutable=1` reaches SQLite as a `file:` URI, which SQLite
/// reads as one once `SQLITE_CONFIG_URI` is set, as `SQLiteSetup` sets it.
final class MBTilesConnection: Sendable {
    private let opened: Mutex<Opened>
    private let path: String
    private let statementObserver: (@Sendable (String) -> Void)?

    private struct Opened {
        var database: any DatabaseWriter
        /// For a file read with `immutable=1`: the file as it was when opened.
        var fileState: FileState?
        /// For any other: what stops the file being used once it cannot be trusted.
        var fileGuard: SQLiteFileGuard?
    }

    init(_ file: CacheFile, writable: Bool, statementObserver: (@Sendable (String) -> Void)?) throws(CacheError) {
        path = file.path
        self.statementObserver = statementObserver
        opened = Mutex(try Self.open(file, writable: writable, statementObserver: statementObserver))
    }

    private static func open(_ file: CacheFile, writable: Bool, statementObserver: (@Sendable (String) -> Void)?) throws(CacheError) -> Opened {
        SQLiteSetup.configure()
        let path = file.path
        var configuration = SQLiteFile.configuration(readOnly: !writable, statementObserver: statementObserver)
        return try SQLiteFile.catching(path: path, operation: "open") {
            do {
                return try open()
            } catch let error as DatabaseError where [.SQLITE_NOTADB, .SQLITE_CORRUPT].contains(error.resultCode) {
                // GRDB reads the schema on opening: a damaged file shows there.
                throw CacheError.notMBTiles(path: path, reason: "SQLite cannot read it (\(error.message ?? "\(error.resultCode)"))")
            }
        }

        func open() throws -> Opened {
            if writable {
                let database: any DatabaseWriter = file.usesWriteAheadLog
                    ? try DatabasePool(path: path, configuration: configuration)
                    : try DatabaseQueue(path: path, configuration: configuration)
                return Opened(database: database, fileGuard: SQLiteFileGuard(path: path))
            }
            if file.usesWriteAheadLog, !file.hasWriteAheadLogFile, let state = FileState(path: path) {
                configuration.label = "immutable"
                return Opened(database: try DatabaseQueue(path: uri(path, query: "immutable=1"), configuration: configuration), fileState: state)
            }
            return Opened(database: try DatabasePool(path: path, configuration: configuration), fileGuard: SQLiteFileGuard(path: path))
        }
    }

    /// The connection to use now, opening a file read as immutable again if a writer has been at
    /// it: SQLite's cache of its pages may be out of date. A file opened again with a `-wal` file
    /// beside it is no longer read as immutable, and is not checked again.
    private func current() throws(CacheError) -> Opened {
        let current = opened.withLock { $0 }
        guard let fileState = current.fileState, fileState != FileState(path: path) else { return current }
        let reopened = try Self.open(try CacheFile(path: path), writable: false, statementObserver: statementObserver)
        opened.withLock { $0 = reopened }
        return reopened
    }

    /// Runs `operation` on the connection, once its file guard has looked at the file.
    private func using<T>(
        _ operation: String, writing: Bool, _ body: (any DatabaseWriter) throws -> T
    ) throws(CacheError) -> T {
        let current = try current()
        try current.fileGuard?.check(current.database)
        return try SQLiteFile.catching(path: path, operation: operation, writing: writing) { try body(current.database) }
    }

    /// Runs `body`, giving the file up for good when it fails on a damaged page
    /// (`SQLiteFileGuard.watching`): for a server, which has the upstream to fall back on. A
    /// maintenance command reads on past the damage instead.
    func givingUpOnDamage<T>(_ body: () throws(CacheError) -> T) throws(CacheError) -> T {
        let current = opened.withLock { $0 }
        guard let fileGuard = current.fileGuard else { return try body() }
        return try fileGuard.watching(current.database, body)
    }

    /// Why the file is no longer used (damaged, removed, replaced, or its `-shm` file
    /// unwritable), as last seen; nil while it is used.
    var faultReason: String? { opened.withLock { $0.fileGuard?.faultReason } }

    /// Looks at the file now, as every statement does first.
    func lookAtFile() {
        let current = opened.withLock { $0 }
        try? current.fileGuard?.check(current.database)
    }

    /// The GRDB database statements go to now: a new one each time the file is opened again.
    var currentDatabase: ObjectIdentifier { opened.withLock { ObjectIdentifier($0.database) } }

    /// Runs `body` outside a transaction: each statement sees the file as it is then.
    func read<T>(operation: String, _ body: (Database) throws -> T) throws(CacheError) -> T {
        assertNotOnEventLoop("reading \(path)")
        return try using(operation, writing: false) { database in try database.unsafeRead(body) }
    }

    /// Runs `body` in one immediate write transaction.
    func write<T>(operation: String, _ body: (Database) throws -> T) throws(CacheError) -> T {
        assertNotOnEventLoop("writing \(path)")
        return try using(operation, writing: true) { database in try database.write(body) }
    }

    /// Applies the migrations the file lacks.
    func migrate() throws(CacheError) {
        try using("make MapFrame's tables", writing: true) { database in try Self.applyMigrations(database) }
    }

    func vacuum() throws(CacheError) {
        try using("vacuum", writing: true) { database in try database.vacuum() }
    }

    // MARK: - Creating

    /// Gives a new or empty file the MBTiles schema and MapFrame's tables, in WAL mode. Another
    /// process creating the same file at once is waited for, not failed.
    static func createSchemaIfEmpty(_ path: String) throws(CacheError) {
        SQLiteSetup.configure()
        try SQLiteFile.catching(path: path, operation: "create", writing: true) {
            // A queue, so that a file another tool made in rollback-journal mode stays so.
            let queue = try DatabaseQueue(path: path, configuration: SQLiteFile.configuration(readOnly: false, statementObserver: nil))
            guard try queue.read({ db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }) == 0 else { return }
            // WAL first, on its own; then the schema in one write transaction, so that two
            // processes creating the same file wait for each other instead of failing.
            try switchToWriteAheadLog(queue)
            try queue.write { db in try db.execute(sql: mbtilesSchema) }
            try applyMigrations(queue)
        }
    }

    /// Puts the file in write-ahead-log mode, so readers and one writer can work at once.
    /// Switching needs the file to itself, and SQLite does not wait for that even with a busy
    /// timeout, so while another process uses the file this tries again for up to 10 s.
    private static func switchToWriteAheadLog(_ queue: DatabaseQueue) throws {
        var attempts = 0
        while true {
            do {
                try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
                return
            } catch let error as DatabaseError where [.SQLITE_BUSY, .SQLITE_LOCKED].contains(error.resultCode) && attempts < 200 {
                attempts += 1
                usleep(50_000)
            }
        }
    }

    /// MBTiles 1.3's tables, with the unique indexes readers expect.
    static let mbtilesSchema = metadataSchema + """
        CREATE TABLE IF NOT EXISTS tiles (zoom_level INTEGER NOT NULL, tile_column INTEGER NOT NULL,
                                          tile_row INTEGER NOT NULL, tile_data BLOB NOT NULL);
        CREATE UNIQUE INDEX IF NOT EXISTS tile_index ON tiles (zoom_level, tile_column, tile_row);
        """

    static let metadataSchema = """
        CREATE TABLE IF NOT EXISTS metadata (name TEXT NOT NULL, value TEXT);
        CREATE UNIQUE INDEX IF NOT EXISTS metadata_name ON metadata (name);

        """

    /// Applies the migrations `writer`'s file lacks. GRDB looks at which are applied before it
    /// takes the write lock, so two processes migrating one file at once (two seeds making a new
    /// cache) may both run the same one; the second fails on GRDB's record of it, its work rolled
    /// back, and on a second look finds it applied.
    static func applyMigrations(_ writer: some DatabaseWriter) throws {
        do {
            try migrator.migrate(writer)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            try migrator.migrate(writer)
        }
    }

    /// MapFrame's side tables, made by numbered migrations that GRDB records in the file.
    /// MBTiles readers ignore extra tables; these hold what the format has no place for:
    /// per-tile validators, expiry and use, and recent 404s. A migration, once released, never
    /// changes; `IF NOT EXISTS` lets the first one adopt the tables of files made before it.
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("freshness tables") { db in
            try db.execute(sql: """
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
                """)
        }
        return migrator
    }()

    /// A file path as an SQLite URI (`file:` with `?`, `#` and `%` escaped), with `query`.
    private static func uri(_ path: String, query: String) -> String {
        var escaped = ""
        for character in path.unicodeScalars {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3F"
            case "#": escaped += "%23"
            default: escaped.unicodeScalars.append(character)
            }
        }
        // "file:///abs" for an absolute path, so that a path starting "//" is never read as a host.
        return (path.hasPrefix("/") ? "file://" : "file:") + escaped + "?" + query
    }
}

/// What a file read as immutable looked like: which file it is, its size and modification time,
/// and whether a `-wal` file lay beside it. Any writer changes one of them.
struct FileState: Equatable {
    let identity: FileIdentity
    let size: Int64
    let modifiedSeconds: Int
    let modifiedNanoseconds: Int
    let hasWriteAheadLogFile: Bool

    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        identity = FileIdentity(info)
        size = Int64(info.st_size)
        modifiedSeconds = Int(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
        hasWriteAheadLogFile = access(path + "-wal", F_OK) == 0
    }
}
