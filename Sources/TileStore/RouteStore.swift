import BlockingWork
import Foundation
import GRDB
import MapGeometry
import Synchronization

/// A route kept by the server, so that tiles can draw it.
public struct StoredRoute: Hashable, Sendable {
    public var id: String
    /// The route, every part of it.
    public var line: RouteLine
    public var createdAt: Date

    public init(id: String, line: RouteLine, createdAt: Date) {
        self.id = id
        self.line = line
        self.createdAt = createdAt
    }
}

/// How much a route store may hold. A route beyond either limit is refused, never made room
/// for by deleting someone else's.
public struct RouteQuota: Hashable, Sendable {
    public var maxRoutes: Int
    /// Points over all stored routes (16 bytes each on disk).
    public var maxPoints: Int

    public init(maxRoutes: Int = 1_000, maxPoints: Int = 2_000_000) {
        self.maxRoutes = maxRoutes
        self.maxPoints = maxPoints
    }
}

extension RouteQuota {
    /// Refuses a route of `points` points when a store holding `routes` routes of `held` points
    /// has no room for it.
    func checkRoom(routes: Int, points held: Int, adding points: Int) throws(RouteQuotaExceeded) {
        if routes + 1 > maxRoutes {
            throw RouteQuotaExceeded(description: "the store holds \(routes) routes, its limit of \(maxRoutes); delete some first")
        }
        if held + points > maxPoints {
            throw RouteQuotaExceeded(description: """
                the store holds \(held) points; \(points) more would pass its limit of \(maxPoints); delete some routes first
                """)
        }
    }
}

/// A route the store has no room for.
public struct RouteQuotaExceeded: Error, CustomStringConvertible, Sendable {
    public let description: String
}

/// One page of the stored routes, newest first.
public struct RoutePage: Sendable {
    public var ids: [String]
    /// Where the next page starts (pass it as `after`), or nil on the last page.
    public var next: String?
    /// How many routes are stored in all.
    public var total: Int
}

/// A place in the list of routes that does not come from `RoutePage.next`.
public struct InvalidRouteCursor: Error, CustomStringConvertible, Sendable {
    public let cursor: String
    public var description: String { "after: '\(cursor)' is not a position from this route listing" }
}

/// Where the server keeps routes, so that tiles can draw them and they survive a restart:
/// `SQLiteRouteStore` for one instance, `PostgresRouteStore` for instances sharing a database.
/// Safe to share between tasks; no method blocks its caller.
public protocol RouteStore: Sendable {
    var quota: RouteQuota { get }
    /// Stores `route` under its own id (a new route has a random one; a copy from another store
    /// keeps its id), within the quota; throws `RouteQuotaExceeded` when the store has no room
    /// for it, and `CacheError` when it cannot be written.
    @discardableResult func add(_ route: StoredRoute) async throws -> StoredRoute
    /// The route stored under `id`; nil when there is none.
    func route(id: String) async throws(CacheError) -> StoredRoute?
    /// Up to `limit` route ids, newest first, starting after `after` (a `RoutePage.next`).
    func page(limit: Int, after cursor: String?) async throws -> RoutePage
    /// Removes a route; false when there was none.
    func delete(id: String) async throws(CacheError) -> Bool
    /// Why routes cannot be stored or read, in full, or nil when they can: a shared database
    /// down (asked now), or a file given up on (as last seen, never waiting for the storage).
    func unavailability() async -> Unavailability?
    /// Looks at the storage now, so that a file removed or replaced while nothing uses it is
    /// noticed (`unavailability()` then says so).
    func lookAtStorage() async
}

extension RouteStore {
    public func lookAtStorage() async {}

    /// Stores a new route under a new random id, and returns it.
    public func add(_ line: RouteLine, at date: Date = Date()) async throws -> StoredRoute {
        try await add(StoredRoute(id: RouteCoding.newID(), line: line, createdAt: date))
    }

    public func page(limit: Int) async throws -> RoutePage { try await page(limit: limit, after: nil) }

    /// Every stored route, oldest last, a page at a time: for copying a store.
    public func allRoutes() async throws -> [StoredRoute] {
        var routes: [StoredRoute] = []
        var cursor: String?
        repeat {
            let page = try await page(limit: 500, after: cursor)
            for id in page.ids { if let route = try await route(id: id) { routes.append(route) } }
            cursor = page.next
        } while cursor != nil
        return routes
    }
}

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

/// How stores keep a route: its points as little-endian (longitude, latitude) doubles, every
/// part's in travel order, and its part lengths as little-endian 32-bit counts (none for one part).
enum RouteCoding {
    static let bytesPerPoint = 16

    /// `points` cut into parts of `partLengths` points each, or one part when there are none.
    static func line(_ points: [Coordinate], partLengths: [Int]?) -> RouteLine? {
        guard let partLengths else { return RouteLine(points) }
        guard partLengths.reduce(0, +) == points.count else { return nil }
        var parts: [[Coordinate]] = []
        var start = 0
        for length in partLengths {
            parts.append(Array(points[start..<start + length]))
            start += length
        }
        return RouteLine(parts: parts)
    }

    /// 16 hexadecimal digits from the system's random source.
    static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        return String(format: "%016llx", generator.next() as UInt64)
    }

    /// A route's points, every part's in travel order, as little-endian (longitude, latitude) doubles.
    static func pack(_ line: RouteLine) -> Data {
        var values: [Double] = []
        values.reserveCapacity(line.pointCount * 2)
        for coordinate in line.points { values += [coordinate.longitude, coordinate.latitude] }
        return values.withUnsafeBytes { Data($0) }
    }

    /// Part lengths as little-endian 32-bit counts (a route has at most `RouteLine.maximumPoints`).
    static func packLengths(_ lengths: [Int]) -> Data {
        lengths.map { UInt32($0).littleEndian }.withUnsafeBytes { Data($0) }
    }

    static func unpackLengths(_ data: Data) -> [Int] {
        data.withUnsafeBytes { bytes in
            stride(from: 0, to: bytes.count - 3, by: 4).map { Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: $0, as: UInt32.self))) }
        }
    }

    static func unpack(_ data: Data) -> [Coordinate] {
        let values = data.withUnsafeBytes { Array($0.bindMemory(to: Double.self)) }
        return stride(from: 0, to: values.count - 1, by: 2).map { Coordinate(latitude: values[$0 + 1], longitude: values[$0]) }
    }
}

/// A place in the newest-first list of routes: the creation time and id of the last route seen,
/// written as "<seconds since 1970>_<id>".
struct RouteCursor {
    var createdAt: Double
    var id: String

    init(createdAt: Double, id: String) {
        self.createdAt = createdAt
        self.id = id
    }

    init(_ text: String) throws(InvalidRouteCursor) {
        let parts = text.split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count == 2, let createdAt = Double(parts[0]), createdAt.isFinite, !parts[1].isEmpty, parts[1].count <= 64 else {
            throw InvalidRouteCursor(cursor: text)
        }
        self.init(createdAt: createdAt, id: String(parts[1]))
    }

    /// Written with every digit a double needs, so the cursor reads back as the same value.
    var text: String { "\(createdAt)_\(id)" }
}
