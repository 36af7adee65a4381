import Foundation
import MapFrameTestSupport
import MapGeometry
import Synchronization
import Testing
import TileStore

/// A tile that is cached costs one SQL statement: its bytes, freshness and any remembered 404
/// in one lookup. Counted with SQLite's trace hook, on every connection of the file's pool.
@Suite("Statements a lookup costs")
struct StatementCountTests {
    @Test("a cached tile is one statement: the lookup, beside GRDB's check of the schema version")
    func oneStatementPerLookup() async throws {
        let directory = try TemporaryDirectory("statements")
        defer { directory.remove() }
        let path = directory.path("counted.mbtiles")
        let tiles = (0..<20).map { TileID(z: 16, x: 32_780 + $0, y: 21_586) }
        let writer = try MBTilesCache(creatingIfNeeded: path)
        let now = Date()
        for tile in tiles {
            try writer.store(try SimulatedTiles.png(for: tile), for: tile, freshness: TileFreshness(
                etag: "\"\(tile.x)\"", lastModified: nil, expiresAt: now.addingTimeInterval(3600), fetchedAt: now
            ))
        }

        let statements = Mutex<[String]>([])
        let cache = try MBTilesCache(openingExisting: path, readOnly: false) { sql in statements.withLock { $0.append(sql) } }
        let store = TileStore(source: try SimulatedStyle().source(defaultBaseURL: "http://127.0.0.1:9"), cache: MBTilesBackend(cache))
        // Opening reads the file's layout; only the lookups count.
        statements.withLock { $0.removeAll() }
        for tile in tiles {
            let supplied = await store.tile(tile)
            let expected = try SimulatedTiles.png(for: tile)
            #expect(supplied.fill == .cached && supplied.stored?.data == expected)
        }

        let seen = statements.withLock { $0 }
        let lookups = seen.filter { $0.contains("FROM (SELECT ?1 AS z, ?2 AS x, ?3 AS y) AS wanted") }
        let others = seen.filter { !lookups.contains($0) }
        #expect(lookups.count == tiles.count, "\(lookups.count) lookups for \(tiles.count) tiles")
        #expect(seen.filter { $0.localizedCaseInsensitiveContains("tiles") }.count == tiles.count, "statements touching the tables: \(seen)")
        #expect(Set(others).isSubset(of: ["PRAGMA schema_version"]), "statements besides the lookups: \(Set(others))")
    }
}
