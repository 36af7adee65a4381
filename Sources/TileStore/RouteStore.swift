import Foundation
import MapGeometry

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
/// Safe to share between threads.
public protocol RouteStore: Sendable {
    var quota: RouteQuota { get }
    /// Stores a route under a new random id and returns it; throws `RouteQuotaExceeded` when the
    /// store has no room for it, and `CacheError` when it cannot be written.
    func add(_ line: RouteLine, at date: Date) throws -> StoredRoute
    /// Stores `route` under its own id (a copy from another store keeps its id), within the quota.
    @discardableResult func add(_ route: StoredRoute) throws -> StoredRoute
    /// The route stored under `id`; nil when there is none.
    func route(id: String) throws(CacheError) -> StoredRoute?
    /// Up to `limit` route ids, newest first, starting after `after` (a `RoutePage.next`).
    func page(limit: Int, after cursor: String?) throws -> RoutePage
    /// Removes a route; false when there was none.
    func delete(id: String) throws(CacheError) -> Bool
}

extension RouteStore {
    public func add(_ line: RouteLine) throws -> StoredRoute { try add(line, at: Date()) }
    public func page(limit: Int) throws -> RoutePage { try page(limit: limit, after: nil) }

    /// Every stored route, oldest last, a page at a time: for copying a store.
    public func allRoutes() throws -> [StoredRoute] {
        var routes: [StoredRoute] = []
        var cursor: String?
        repeat {
            let page = try page(limit: 500, after: cursor)
            for id in page.ids { if let route = try route(id: id) { routes.append(route) } }
            cursor = page.next
        } while cursor != nil
        return routes
    }
}

/// Routes in an SQLite file of their own. Access is serialised. The file gives back the space of
/// deleted routes.
///
/// Each row holds a route's points, every part's in travel order, in `coordinates`, and in
/// `part_lengths` how many of them each part has; NULL there means one part. Files made
/// before routes had parts lack that column and gain it when opened, so their routes load as
/// the one-part routes they are.
public final class SQLiteRouteStore: RouteStore, @unchecked Sendable {
    public let quota: RouteQuota
    private let connection: SQLiteConnection
    private let lock = NSLock()
    /// Routes read or added lately. A route never changes once stored, so a server drawing its
    /// tiles need not read and unpack it from SQLite for every request. Emptied when it fills.
    private var recent: [String: StoredRoute] = [:]
    private static let recentCapacity = 256
    /// What is stored, kept current with every add and delete so the quota costs no query.
    private var totals: (routes: Int, points: Int)

    public init(path: String, quota: RouteQuota = RouteQuota()) throws(CacheError) {
        self.quota = quota
        connection = try SQLiteConnection(path: path, mode: .create)
        try SQLiteRouteStore.reclaimSpaceOnDelete(connection)
        try connection.switchToWriteAheadLog()
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS routes (id TEXT PRIMARY KEY, created_at REAL NOT NULL, coordinates BLOB NOT NULL, part_lengths BLOB);
            CREATE INDEX IF NOT EXISTS routes_newest_first ON routes (created_at DESC, id DESC);
            """)
        try SQLiteRouteStore.addPartLengths(connection)
        let count = try connection.prepare("SELECT count(*), coalesce(sum(length(coordinates)), 0) FROM routes")
        _ = try count.step()
        totals = (count.int(at: 0), count.int(at: 1) / RouteCoding.bytesPerPoint)
    }

    /// Makes SQLite give back the pages of deleted rows (`incremental_vacuum` after deletes).
    /// A file made before this setting is rewritten once.
    private static func reclaimSpaceOnDelete(_ connection: SQLiteConnection) throws(CacheError) {
        let mode = try connection.prepare("PRAGMA auto_vacuum")
        let incremental = try mode.step() && mode.int(at: 0) == 2
        mode.reset()
        guard !incremental else { return }
        try connection.execute("PRAGMA auto_vacuum = INCREMENTAL")
        try connection.execute("VACUUM")
    }

    /// Gives a file made before routes had parts its `part_lengths` column (NULL, one part, for
    /// every route already stored).
    private static func addPartLengths(_ connection: SQLiteConnection) throws(CacheError) {
        let column = try connection.prepare("SELECT 1 FROM pragma_table_info('routes') WHERE name = 'part_lengths'")
        guard try !column.step() else { return }
        try connection.execute("ALTER TABLE routes ADD COLUMN part_lengths BLOB")
    }

    public func add(_ line: RouteLine, at date: Date) throws -> StoredRoute {
        try add(StoredRoute(id: RouteCoding.newID(), line: line, createdAt: date))
    }

    /// Stores `route` under its own id (a copy from another store keeps its id), within the quota.
    @discardableResult
    public func add(_ route: StoredRoute) throws -> StoredRoute {
        let (line, date) = (route.line, route.createdAt)
        try locked { () throws in
            try quota.checkRoom(routes: totals.routes, points: totals.points, adding: line.pointCount)
            let insert = try connection.prepare("INSERT INTO routes (id, created_at, coordinates, part_lengths) VALUES (?, ?, ?, ?)")
            insert.bind(route.id, at: 1)
            insert.bind(date.timeIntervalSince1970, at: 2)
            insert.bind(RouteCoding.pack(line), at: 3)
            if line.parts.count > 1 { insert.bind(RouteCoding.packLengths(line.parts.map(\.count)), at: 4) }
            _ = try insert.step()
            totals = (totals.routes + 1, totals.points + line.pointCount)
            remember(route)
        }
        return route
    }

    public func route(id: String) throws(CacheError) -> StoredRoute? {
        try locked { () throws(CacheError) -> StoredRoute? in
            if let route = recent[id] { return route }
            let query = try connection.prepare("SELECT created_at, coordinates, part_lengths FROM routes WHERE id = ?")
            query.bind(id, at: 1)
            guard try query.step(), let blob = query.data(at: 1) else { return nil }
            let points = RouteCoding.unpack(blob)
            guard let line = RouteCoding.line(points, partLengths: query.data(at: 2).map(RouteCoding.unpackLengths)) else {
                throw CacheError.sqlite(
                    path: connection.path, operation: "read route '\(id)'",
                    message: "its \(points.count) points do not make a route (at least \(RouteLine.minimumPointsPerPart) a part)"
                )
            }
            let route = StoredRoute(id: id, line: line, createdAt: Date(timeIntervalSince1970: query.double(at: 0)))
            remember(route)
            return route
        }
    }


    public func page(limit: Int, after cursor: String?) throws -> RoutePage {
        let start = try cursor.map { text throws(InvalidRouteCursor) in try RouteCursor(text) }
        return try locked { () throws(CacheError) -> RoutePage in
            let query = try connection.prepare("""
                SELECT id, created_at FROM routes WHERE ?1 IS NULL OR created_at < ?1 OR (created_at = ?1 AND id < ?2)
                ORDER BY created_at DESC, id DESC LIMIT ?3
                """)
            if let start {
                query.bind(start.createdAt, at: 1)
                query.bind(start.id, at: 2)
            }
            query.bind(limit + 1, at: 3)
            var rows: [RouteCursor] = []
            while try query.step() {
                if let id = query.string(at: 0) { rows.append(RouteCursor(createdAt: query.double(at: 1), id: id)) }
            }
            let more = rows.count > limit
            rows = Array(rows.prefix(limit))
            return RoutePage(ids: rows.map(\.id), next: more ? rows.last?.text : nil, total: totals.routes)
        }
    }

    /// Removes a route, giving its space back to the file system; false when there was none.
    public func delete(id: String) throws(CacheError) -> Bool {
        try locked { () throws(CacheError) -> Bool in
            let delete = try connection.prepare("DELETE FROM routes WHERE id = ? RETURNING length(coordinates)")
            delete.bind(id, at: 1)
            guard try delete.step() else { return false }
            let points = delete.int(at: 0) / RouteCoding.bytesPerPoint
            _ = try delete.step()
            totals = (totals.routes - 1, totals.points - points)
            recent[id] = nil
            // Free pages go back to the file system, and the log's copy of them with it.
            try connection.execute("PRAGMA incremental_vacuum; PRAGMA wal_checkpoint(TRUNCATE)")
            return true
        }
    }

    /// Call with the lock held.
    private func remember(_ route: StoredRoute) {
        if recent.count >= SQLiteRouteStore.recentCapacity { recent.removeAll() }
        recent[route.id] = route
    }

    private func locked<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
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
