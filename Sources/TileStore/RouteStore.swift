import Foundation
import MapGeometry

/// A route kept by the server, so that tiles can draw it.
public struct StoredRoute: Hashable, Sendable {
    public var id: String
    public var coordinates: [Coordinate]
    public var createdAt: Date

    public init(id: String, coordinates: [Coordinate], createdAt: Date) {
        self.id = id
        self.coordinates = coordinates
        self.createdAt = createdAt
    }

    public var start: Coordinate { coordinates[0] }
    public var finish: Coordinate { coordinates[coordinates.count - 1] }
    public var bounds: GeoBounds { GeoBounds(containing: coordinates)! }
}

/// Routes in an SQLite file of their own, so they survive a restart. Safe to share between
/// threads: access is serialised.
public final class RouteStore: @unchecked Sendable {
    private let connection: SQLiteConnection
    private let lock = NSLock()
    /// Routes read or added lately. A route never changes once stored, so a server drawing its
    /// tiles need not read and unpack it from SQLite for every request. Emptied when it fills.
    private var recent: [String: StoredRoute] = [:]
    private static let recentCapacity = 256

    public init(path: String) throws(CacheError) {
        connection = try SQLiteConnection(path: path, mode: .create)
        try connection.switchToWriteAheadLog()
        try connection.execute(
            "CREATE TABLE IF NOT EXISTS routes (id TEXT PRIMARY KEY, created_at REAL NOT NULL, coordinates BLOB NOT NULL)"
        )
    }

    /// Stores a route under a new random id and returns it.
    public func add(_ coordinates: [Coordinate], at date: Date = Date()) throws(CacheError) -> StoredRoute {
        precondition(coordinates.count >= 2, "a stored route needs at least two points")
        let route = StoredRoute(id: RouteStore.newID(), coordinates: coordinates, createdAt: date)
        try locked { () throws(CacheError) in
            let insert = try connection.prepare("INSERT INTO routes (id, created_at, coordinates) VALUES (?, ?, ?)")
            insert.bind(route.id, at: 1)
            insert.bind(date.timeIntervalSince1970, at: 2)
            insert.bind(RouteStore.pack(coordinates), at: 3)
            _ = try insert.step()
            remember(route)
        }
        return route
    }

    public func route(id: String) throws(CacheError) -> StoredRoute? {
        try locked { () throws(CacheError) -> StoredRoute? in
            if let route = recent[id] { return route }
            let query = try connection.prepare("SELECT created_at, coordinates FROM routes WHERE id = ?")
            query.bind(id, at: 1)
            guard try query.step(), let blob = query.data(at: 1) else { return nil }
            let route = StoredRoute(id: id, coordinates: RouteStore.unpack(blob), createdAt: Date(timeIntervalSince1970: query.double(at: 0)))
            remember(route)
            return route
        }
    }

    /// Every route's id, newest first.
    public func ids() throws(CacheError) -> [String] {
        try locked { () throws(CacheError) -> [String] in
            let query = try connection.prepare("SELECT id FROM routes ORDER BY created_at DESC")
            var ids: [String] = []
            while try query.step() { if let id = query.string(at: 0) { ids.append(id) } }
            return ids
        }
    }

    /// Removes a route; false when there was none.
    public func delete(id: String) throws(CacheError) -> Bool {
        try locked { () throws(CacheError) -> Bool in
            let delete = try connection.prepare("DELETE FROM routes WHERE id = ?")
            delete.bind(id, at: 1)
            _ = try delete.step()
            recent[id] = nil
            return connection.changes > 0
        }
    }

    /// Call with the lock held.
    private func remember(_ route: StoredRoute) {
        if recent.count >= RouteStore.recentCapacity { recent.removeAll() }
        recent[route.id] = route
    }

    private func locked<T>(_ body: () throws(CacheError) -> T) throws(CacheError) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// 16 hexadecimal digits from the system's random source.
    private static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        return String(format: "%016llx", generator.next() as UInt64)
    }

    /// Coordinates as little-endian (longitude, latitude) doubles.
    private static func pack(_ coordinates: [Coordinate]) -> Data {
        var values: [Double] = []
        values.reserveCapacity(coordinates.count * 2)
        for coordinate in coordinates { values += [coordinate.longitude, coordinate.latitude] }
        return values.withUnsafeBytes { Data($0) }
    }

    private static func unpack(_ data: Data) -> [Coordinate] {
        let values = data.withUnsafeBytes { Array($0.bindMemory(to: Double.self)) }
        return stride(from: 0, to: values.count - 1, by: 2).map { Coordinate(latitude: values[$0 + 1], longitude: values[$0]) }
    }
}
