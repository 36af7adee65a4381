import Foundation
import MapGeometry
import TileStore

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
