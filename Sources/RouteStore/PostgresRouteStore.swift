#if PostgreSQL
import Foundation
import MapGeometry
import PostgresNIO
import TileStore

/// Routes in a PostgreSQL database that several MapFrame instances share: a route posted to one
/// instance draws on all of them. The quota holds over the whole database: adds take turns under
/// an advisory lock, so two instances cannot both take the last place.
public final class PostgresRouteStore: RouteStore {
    public let database: PostgresCacheDatabase
    public let quota: RouteQuota
    /// Routes read lately. A route never changes once stored; one deleted through another
    /// instance may be drawn here until it leaves this memory.
    private let recent = LRUCache<String, StoredRoute>(capacity: 256)
    /// The two-key advisory lock that adds take turns under.
    private static let addLock: (Int32, Int32) = (PostgresCacheDatabase.advisoryLockClass, 2)

    public init(database: PostgresCacheDatabase, quota: RouteQuota = RouteQuota()) {
        self.database = database
        self.quota = quota
    }

    /// Stores `route` under its own id (a copy from another store keeps its id), within the quota.
    @discardableResult
    public func add(_ route: StoredRoute) async throws -> StoredRoute {
        let quota = quota
        let lengths = route.line.parts.count > 1 ? RouteCoding.packLengths(route.line.parts.map(\.count)) : nil
        let refusal: RouteQuotaExceeded? = try await database.run("store a route") { connection in
            try await connection.withTransaction(logger: PostgresCacheDatabase.quietLogger) { connection in
                let logger = PostgresCacheDatabase.quietLogger
                try await connection.query("SELECT pg_advisory_xact_lock(\(Self.addLock.0), \(Self.addLock.1))", logger: logger)
                let totals = try await connection.query("SELECT count(*), coalesce(sum(point_count), 0) FROM mapframe_routes", logger: logger)
                for try await (routes, points) in totals.decode((Int, Int).self) {
                    do throws(RouteQuotaExceeded) {
                        try quota.checkRoom(routes: routes, points: points, adding: route.line.pointCount)
                    } catch {
                        return error
                    }
                }
                try await connection.query("""
                    INSERT INTO mapframe_routes (id, created_at, coordinates, part_lengths, point_count)
                    VALUES (\(route.id), \(route.createdAt.timeIntervalSince1970), \(RouteCoding.pack(route.line)), \(lengths), \(route.line.pointCount))
                    """, logger: logger)
                return nil
            }
        }
        if let refusal { throw refusal }
        recent.insert(route, for: route.id)
        return route
    }

    public func route(id: String) async throws(CacheError) -> StoredRoute? {
        if let route = recent.value(for: id) { return route }
        let stored: (Double, Data, Data?)? = try await database.run("read route '\(id)'") { connection in
            let rows = try await connection.query(
                "SELECT created_at, coordinates, part_lengths FROM mapframe_routes WHERE id = \(id)", logger: PostgresCacheDatabase.quietLogger
            )
            for try await row in rows.decode((Double, Data, Data?).self) { return row }
            return nil
        }
        guard let (createdAt, coordinates, lengths) = stored else { return nil }
        let points = RouteCoding.unpack(coordinates)
        guard let line = RouteCoding.line(points, partLengths: lengths.map(RouteCoding.unpackLengths)) else {
            throw CacheError.database(
                cache: database.address.description, operation: "read route '\(id)'",
                message: "its \(points.count) points do not make a route (at least \(RouteLine.minimumPointsPerPart) a part)"
            )
        }
        let route = StoredRoute(id: id, line: line, createdAt: Date(timeIntervalSince1970: createdAt))
        recent.insert(route, for: id)
        return route
    }

    public func page(limit: Int, after cursor: String?) async throws -> RoutePage {
        let start = try cursor.map { text throws(InvalidRouteCursor) in try RouteCursor(text) }
        return try await database.run("list routes") { connection in
            let rows = try await connection.query("""
                SELECT id, created_at FROM mapframe_routes
                WHERE \(start == nil) OR created_at < \(start?.createdAt ?? 0) OR (created_at = \(start?.createdAt ?? 0) AND id < \(start?.id ?? ""))
                ORDER BY created_at DESC, id DESC LIMIT \(limit + 1)
                """, logger: PostgresCacheDatabase.quietLogger)
            var found: [RouteCursor] = []
            for try await (id, createdAt) in rows.decode((String, Double).self) { found.append(RouteCursor(createdAt: createdAt, id: id)) }
            var total = 0
            let counted = try await connection.query("SELECT count(*) FROM mapframe_routes", logger: PostgresCacheDatabase.quietLogger)
            for try await (count,) in counted.decode((Int,).self) { total = count }
            let more = found.count > limit
            found = Array(found.prefix(limit))
            return RoutePage(ids: found.map(\.id), next: more ? found.last?.text : nil, total: total)
        }
    }

    public func unavailability() async -> Unavailability? {
        await database.unavailability()
    }

    public func delete(id: String) async throws(CacheError) -> Bool {
        let deleted = try await database.run("delete route '\(id)'") { connection in
            var deleted = false
            for try await _ in try await connection.query("DELETE FROM mapframe_routes WHERE id = \(id) RETURNING 1", logger: PostgresCacheDatabase.quietLogger) {
                deleted = true
            }
            return deleted
        }
        // Forgotten once deleted, so that a read meanwhile cannot keep it.
        recent.remove(id)
        return deleted
    }
}
#endif
