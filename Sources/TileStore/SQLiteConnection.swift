import CSQLite
import Foundation

/// One SQLite connection. All SQL in MapFrame goes through the cache types built on it.
/// A connection is used by one thread at a time.
final class SQLiteConnection {
    enum Mode {
        /// Reading only: SQLite takes its usual shared locks, and writes nothing to the file. In
        /// write-ahead-log mode it still makes the `-wal` and `-shm` files it reads through.
        case readOnly
        /// Reading a file that nothing changes while it is open (SQLite's `immutable=1`): no
        /// locks and no `-wal`, `-shm` or journal file, so nothing beside the file is touched.
        case immutable
        case readWrite, create
    }

    let path: String
    private let handle: OpaquePointer

    init(path: String, mode: Mode) throws(CacheError) {
        self.path = path
        if mode != .create, !FileManager.default.fileExists(atPath: path) {
            throw CacheError.missingFile(path: path)
        }
        let flags: Int32 = switch mode {
        case .readOnly: SQLITE_OPEN_READONLY
        case .immutable: SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
        case .readWrite: SQLITE_OPEN_READWRITE
        case .create: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
        let name = mode == .immutable ? Self.uri(path, query: "immutable=1") : path
        var handle: OpaquePointer?
        let status = sqlite3_open_v2(name, &handle, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_close(handle)
            throw CacheError.sqlite(path: path, operation: "open", message: message)
        }
        self.handle = handle
        // Concurrent readers and writers wait for each other instead of failing with "database is locked".
        sqlite3_busy_timeout(handle, 10_000)
        // In WAL mode, NORMAL syncs at checkpoints rather than every commit: a crash of the
        // process never corrupts the file or loses a commit; only a power cut may lose the last few.
        if mode == .readWrite || mode == .create { sqlite3_exec(handle, "PRAGMA synchronous = NORMAL", nil, nil, nil) }
    }

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

    deinit { sqlite3_close_v2(handle) }

    /// Runs one or more statements that return no rows: schema changes, transactions and
    /// other writes, so a failure is a write failure.
    func execute(_ sql: String) throws(CacheError) {
        var message: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &message)
        guard status == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? lastErrorMessage
            sqlite3_free(message)
            throw CacheError.sqlite(path: path, operation: sql.prefix(40).description, message: text, failure: .writing(status))
        }
    }

    func prepare(_ sql: String) throws(CacheError) -> SQLiteStatement {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK, let statement else {
            throw CacheError.sqlite(path: path, operation: "prepare \(sql.prefix(40))", message: lastErrorMessage)
        }
        return SQLiteStatement(statement: statement, connection: self)
    }

    /// Puts the file in write-ahead-log mode, so readers and one writer can work at once.
    /// Switching needs the file to itself, and SQLite does not wait for that even with a busy
    /// timeout, so when another process is using the file this tries again for up to 10 s.
    func switchToWriteAheadLog() throws(CacheError) {
        var attempts = 0
        while true {
            do {
                try execute("PRAGMA journal_mode = WAL")
                return
            } catch {
                let code = sqlite3_errcode(handle)
                attempts += 1
                guard code == SQLITE_BUSY || code == SQLITE_LOCKED, attempts < 200 else { throw error }
                usleep(50_000)
            }
        }
    }

    /// Runs `body` inside one transaction, committing on success and rolling back on error.
    func transaction<T>(_ body: () throws(CacheError) -> T) throws(CacheError) -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    var lastErrorMessage: String { String(cString: sqlite3_errmsg(handle)) }

    /// Rows changed by the last statement.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// Whether a transaction is open on this connection.
    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }
}

/// A prepared statement. Bind parameters (1-based), step through rows, read columns (0-based).
final class SQLiteStatement {
    private let statement: OpaquePointer
    /// Held, so that a statement outlives a connection its owner has replaced.
    private let connection: SQLiteConnection

    fileprivate init(statement: OpaquePointer, connection: SQLiteConnection) {
        self.statement = statement
        self.connection = connection
    }

    deinit { sqlite3_finalize(statement) }

    func reset() {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
    }

    func bind(_ value: Int, at index: Int32) { sqlite3_bind_int64(statement, index, Int64(value)) }

    func bind(_ value: String, at index: Int32) {
        sqlite3_bind_text(statement, index, value, -1, SQLITE_TRANSIENT_DESTRUCTOR)
    }

    func bind(_ value: Double, at index: Int32) { sqlite3_bind_double(statement, index, value) }

    func bind(optional value: String?, at index: Int32) {
        if let value { bind(value, at: index) } else { sqlite3_bind_null(statement, index) }
    }

    func bind(_ value: Data, at index: Int32) {
        value.withUnsafeBytes { bytes in
            _ = sqlite3_bind_blob(statement, index, bytes.baseAddress, Int32(bytes.count), SQLITE_TRANSIENT_DESTRUCTOR)
        }
    }

    /// Advances to the next row; false when there are no more.
    func step() throws(CacheError) -> Bool {
        let status = sqlite3_step(statement)
        switch status {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let message = connection.lastErrorMessage
            let writes = sqlite3_stmt_readonly(statement) == 0
            sqlite3_reset(statement)
            throw CacheError.sqlite(
                path: connection.path, operation: writes ? "write" : "query", message: message,
                failure: writes ? .writing(status) : .reading(status)
            )
        }
    }

    func int(at column: Int32) -> Int { Int(sqlite3_column_int64(statement, column)) }

    func double(at column: Int32) -> Double { sqlite3_column_double(statement, column) }

    func isNull(at column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }

    func string(at column: Int32) -> String? {
        sqlite3_column_text(statement, column).map { String(cString: $0) }
    }

    func data(at column: Int32) -> Data? {
        guard sqlite3_column_type(statement, column) != SQLITE_NULL else { return nil }
        let count = Int(sqlite3_column_bytes(statement, column))
        guard count > 0, let bytes = sqlite3_column_blob(statement, column) else { return Data() }
        return Data(bytes: bytes, count: count)
    }
}

extension CacheError.SQLiteFailure {
    /// A failed write, from SQLite's result code: SQLITE_FULL means the disk is full.
    static func writing(_ status: Int32) -> Self {
        status & 0xFF == SQLITE_FULL ? .diskFull : .write
    }

    /// A failed read; a read that needs room for a temporary file may find the disk full too.
    static func reading(_ status: Int32) -> Self {
        status & 0xFF == SQLITE_FULL ? .diskFull : .read
    }
}

/// SQLite's SQLITE_TRANSIENT: "copy the bound value now".
private let SQLITE_TRANSIENT_DESTRUCTOR = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
