import Foundation
import MapFrameTestSupport
import MapGeometry
import RouteStore
import Testing

@Suite struct RouteStoreTests {
    static let gap = RouteLine(parts: [
        [Coordinate(latitude: 52.2055, longitude: 0.1414), Coordinate(latitude: 52.2063, longitude: 0.1402)],
        [Coordinate(latitude: 52.2070, longitude: 0.1396), Coordinate(latitude: 52.2079, longitude: 0.1410), Coordinate(latitude: 52.2092, longitude: 0.1428)],
    ])!

    @Test func keepsEveryPartAcrossARestart() async throws {
        let directory = try TemporaryDirectory("routes-parts")
        defer { directory.remove() }
        let path = directory.path("routes.sqlite")
        let oneLine = try #require(RouteLine(Array(Self.gap.points)))
        let store = try SQLiteRouteStore(path: path)
        let (split, joined) = (try await store.add(Self.gap), try await store.add(oneLine))
        let reopened = try SQLiteRouteStore(path: path)
        #expect(try await reopened.route(id: split.id)?.line == Self.gap)
        #expect(try await reopened.route(id: joined.id)?.line == oneLine)
        #expect(try await IndependentSQLite.query(path, "SELECT hex(part_lengths) FROM routes WHERE id = '\(split.id)'") == [["0200000003000000"]])
        #expect(try await IndependentSQLite.query(path, "SELECT part_lengths IS NULL FROM routes WHERE id = '\(joined.id)'") == [["1"]])
    }

    /// A file written before routes had parts: its table has no `part_lengths`. Its routes load
    /// as the one-part routes they are, and the file takes new routes of several parts.
    @Test func loadsRoutesStoredBeforeRoutesHadParts() async throws {
        let directory = try TemporaryDirectory("routes-old")
        defer { directory.remove() }
        let path = directory.path("routes.sqlite")
        let points = Array(Self.gap.points)
        let blob = points.flatMap { [$0.longitude, $0.latitude] }.withUnsafeBytes { Data($0) }.map { String(format: "%02X", $0) }.joined()
        try await IndependentSQLite.execute(path, """
            CREATE TABLE routes (id TEXT PRIMARY KEY, created_at REAL NOT NULL, coordinates BLOB NOT NULL);
            CREATE INDEX routes_newest_first ON routes (created_at DESC, id DESC);
            INSERT INTO routes VALUES ('00000000000000aa', 1700000000, X'\(blob)');
            INSERT INTO routes VALUES ('00000000000000bb', 1700000100, X'\(blob)');
            """)

        let store = try SQLiteRouteStore(path: path, quota: RouteQuota(maxRoutes: 3, maxPoints: 15))
        #expect(try await store.route(id: "00000000000000aa")?.line == RouteLine(points))
        #expect(try await store.route(id: "00000000000000aa")?.createdAt == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(try await store.page(limit: 10).ids == ["00000000000000bb", "00000000000000aa"])
        let added = try await store.add(Self.gap)
        await #expect(throws: RouteQuotaExceeded.self) { try await store.add(Self.gap) }
        #expect(try await SQLiteRouteStore(path: path).route(id: added.id)?.line == Self.gap)
        #expect(try await IndependentSQLite.query(path, "SELECT count(*) FROM pragma_table_info('routes') WHERE name = 'part_lengths'") == [["1"]])
        #expect(try await IndependentSQLite.query(path, "SELECT count(*) FROM routes WHERE part_lengths IS NULL") == [["2"]])
    }
}
