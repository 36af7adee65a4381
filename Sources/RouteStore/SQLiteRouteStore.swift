import BlockingWork
import Foundation
import GRDB
import MapGeometry
import Synchronization
import TileStore

/// Routes in an SQLite file of their own, through GRDB: a `DatabasePool`, its tables made by
/// numbered migrations, each call made on `BlockingPool.storage`. The file gives back the space
/// of deleted routes.
///
/// Each row holds a route's points, every part's in travel order, in `coordinates`, and in
/// `part_lengths` how many of them each part has; NULL there means one part. Files made
/// before routes had parts lack that column and gain it when opened, so their routes load as
/// the one-part routes they are.
public final class SQLiteRouteStore: RouteStore {
    public let quota: RouteQuota
    private let path: String
    private let database: DatabasePool
    private let fileGuard: SQLiteFileGuard
    /// Routes read or added lately. A route never changes once stored, so a server drawing its
    /// tiles need not read and unpack it from SQLite for every request.
    private let recent = LRUCache<String, StoredRoute>(capacity: 256)
    /// What is stored, kept current with every add and delete so the quota costs no query.
    private let totals: Mutex<(routes: Int, points: Int)>

    /// Opens the file, making it and its tables if missing. Blocks: call it off the event loops.
    public init(path: String, quota: RouteQuota = RouteQuota()) throws(CacheError) {
        assertNotOnEventLoop("opening \(path)")
        self.quota = quota
        self.path = path
        let configuration = SQLiteFile.configuration(readOnly: false)
        if let truncation = try CacheFile(path: path).truncation {
            throw CacheError.damaged(path: path, operation: "open the route store", message: truncation)
        }
        let (database, counted) = try SQLiteFile.catching(path: path, operation: "open the route store", writing: true) {
            let database = try DatabasePool(path: path, configuration: configuration)
            try Self.reclaimSpaceOnDelete(database)
            try Self.migrator.migrate(database)
            let counted = try database.read { db in
                try Row.fetchOne(db, sql: "SELECT count(*), coalesce(sum(length(coordinates)), 0) FROM routes")
            }
            return (database, counted)
        }
        self.database = database
        fileGuard = SQLiteFileGuard(path: path)
        totals = Mutex(((counted?[0] as Int?) ?? 0, ((counted?[1] as Int?) ?? 0) / RouteCoding.bytesPerPoint))
    }

    /// The routes table, and later changes to it. A migration, once released, never changes.
    private static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("routes") { db in
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS routes (id TEXT PRIMARY KEY, created_at REAL NOT NULL, coordinates BLOB NOT NULL, part_lengths BLOB);
                CREATE INDEX IF NOT EXISTS routes_newest_first ON routes (created_at DESC, id DESC);
                """)
        }
        // Files made before routes had parts have no part_lengths: NULL, one part, for their routes.
        migrator.registerMigration("route parts") { db in
            if try !db.columns(in: "routes").contains(where: { $0.name == "part_lengths" }) {
                try db.execute(sql: "ALTER TABLE routes ADD COLUMN part_lengths BLOB")
            }
        }
        return migrator
    }()

    /// Makes SQLite give back the pages of deleted rows (`incremental_vacuum` after deletes).
    /// A file made before this setting is rewritten once.
    private static func reclaimSpaceOnDelete(_ database: DatabasePool) throws {
        try database.writeWithoutTransaction { db in
            guard try Int.fetchOne(db, sql: "PRAGMA auto_vacuum") != 2 else { return }
            try db.execute(sql: "PRAGMA auto_vacuum = INCREMENTAL")
            try db.execute(sql: "VACUUM")
        }
    }

    @discardableResult
    public func add(_ route: StoredRoute) async throws -> StoredRoute {
        let line = route.line
        // Writes take turns, so no other add or delete changes the totals between the check and the count.
        let refusal: RouteQuotaExceeded? = try await onStorage("store route '\(route.id)'", writing: true) { [self] in
            try database.writeWithoutTransaction { db in
                let held = totals.withLock { $0 }
                do throws(RouteQuotaExceeded) {
                    try quota.checkRoom(routes: held.routes, points: held.points, adding: line.pointCount)
                } catch {
                    return error
                }
                try db.inTransaction {
                    try db.execute(sql: "INSERT INTO routes (id, created_at, coordinates, part_lengths) VALUES (?, ?, ?, ?)", arguments: [
                        route.id, route.createdAt.timeIntervalSince1970, RouteCoding.pack(line),
                        line.parts.count > 1 ? RouteCoding.packLengths(line.parts.map(\.count)) : nil,
                    ])
                    return .commit
                }
                totals.withLock { $0 = ($0.routes + 1, $0.points + line.pointCount) }
                return nil
            }
        }
        if let refusal { throw refusal }
        recent.insert(route, for: route.id)
        return route
    }

    public func route(id: String) async throws(CacheError) -> StoredRoute? {
        if let route = recent.value(for: id) { return route }
        let (database, path) = (database, path)
        let route: StoredRoute? = try await onStorage("read route '\(id)'", writing: false) { try database.unsafeRead { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT created_at, coordinates, part_lengths FROM routes WHERE id = ?", arguments: [id]) else {
                return nil
            }
            let points = RouteCoding.unpack(row[1] ?? Data())
            guard let line = RouteCoding.line(points, partLengths: (row[2] as Data?).map(RouteCoding.unpackLengths)) else {
                throw CacheError.sqlite(
                    path: path, operation: "read route '\(id)'",
                    message: "its \(points.count) points do not make a route (at least \(RouteLine.minimumPointsPerPart) a part)"
                )
            }
            return StoredRoute(id: id, line: line, createdAt: Date(timeIntervalSince1970: row[0]))
        } }
        if let route { recent.insert(route, for: id) }
        return route
    }

    public func page(limit: Int, after cursor: String?) async throws -> RoutePage {
        let start = try cursor.map { text throws(InvalidRouteCursor) in try RouteCursor(text) }
        return try await onStorage("list routes", writing: false) { [self] in try database.unsafeRead { db in
            var rows = try Row.fetchAll(db, sql: """
                SELECT id, created_at FROM routes WHERE ?1 IS NULL OR created_at < ?1 OR (created_at = ?1 AND id < ?2)
                ORDER BY created_at DESC, id DESC LIMIT ?3
                """, arguments: [start?.createdAt, start?.id, limit + 1]).map { RouteCursor(createdAt: $0[1], id: $0[0]) }
            let more = rows.count > limit
            rows = Array(rows.prefix(limit))
            return RoutePage(ids: rows.map(\.id), next: more ? rows.last?.text : nil, total: totals.withLock { $0.routes })
        } }
    }

    /// Removes a route, giving its space back to the file system; false when there was none.
    public func delete(id: String) async throws(CacheError) -> Bool {
        return try await onStorage("delete route '\(id)'", writing: true) { [self] in
            let bytes = try database.write { db in
                try Int.fetchOne(db, sql: "DELETE FROM routes WHERE id = ? RETURNING length(coordinates)", arguments: [id])
            }
            recent.remove(id)
            guard let bytes else { return false }
            totals.withLock { $0 = ($0.routes - 1, $0.points - bytes / RouteCoding.bytesPerPoint) }
            // Free pages go back to the file system, and the log's copy of them with it.
            try database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA incremental_vacuum; PRAGMA wal_checkpoint(TRUNCATE)") }
            return true
        }
    }

    public func unavailability() async -> Unavailability? {
        fileGuard.faultReason.map { Unavailability(storage: "route store \(path)", reason: $0) }
    }

    public func lookAtStorage() async {
        let (database, fileGuard) = (database, fileGuard)
        _ = try? await onStorageThreads(cache: path) { () throws(CacheError) in try fileGuard.check(database) }
    }

    /// Runs `body`, which works on the file, on the storage threads, once the file guard has
    /// looked at the file.
    private func onStorage<T: Sendable>(_ operation: String, writing: Bool, _ body: @escaping @Sendable () throws -> T) async throws(CacheError) -> T {
        let (path, database, fileGuard) = (path, database, fileGuard)
        return try await onStorageThreads(cache: path) { () throws(CacheError) -> T in
            try fileGuard.check(database)
            return try fileGuard.watching(database) { () throws(CacheError) in
                try SQLiteFile.catching(path: path, operation: operation, writing: writing, body)
            }
        }
    }
}
