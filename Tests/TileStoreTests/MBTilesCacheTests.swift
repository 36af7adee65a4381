import Foundation
import ImageCodec
import MapFrameTestSupport
import MapGeometry
import Testing
import TileStore

@Suite("MBTiles cache files")
struct MBTilesCacheTests {
    static let cambridge = TileID(z: 16, x: 32793, y: 21586)

    @Test("stored tiles read back byte for byte, and the file keeps TMS rows")
    func roundTripWithTMSRows() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("tiles.mbtiles").path
            let tiles = [Self.cambridge, TileID(z: 0, x: 0, y: 0), TileID(z: 3, x: 2, y: 1)]
            let payloads = tiles.enumerated().map { index, _ in randomBytes(count: 100 + index, seed: UInt64(index + 1)) }
            let cache = try MBTilesCache(creatingIfNeeded: path)
            for (tile, payload) in zip(tiles, payloads) { try cache.store(payload, for: tile) }

            for (tile, payload) in zip(tiles, payloads) {
                #expect(try cache.tileData(for: tile) == payload)
            }
            #expect(try cache.tileCount() == 3)
            #expect(try cache.tileData(for: TileID(z: 3, x: 2, y: 2)) == nil)

            // Another reader sees TMS rows: 2^z - 1 - y, so 65535 - 21586 = 43949 for Cambridge.
            let rows = try await IndependentSQLite.query(path, "SELECT zoom_level, tile_column, tile_row, hex(tile_data) FROM tiles ORDER BY zoom_level")
            #expect(rows.map { Array($0.prefix(3)) } == [["0", "0", "0"], ["3", "2", "6"], ["16", "32793", "43949"]])
            let hexOfCambridge = payloads[0].map { String(format: "%02X", $0) }.joined()
            #expect(rows.last?.last == hexOfCambridge)
        }
    }

    @Test("a tile written by another program at a TMS row is read at its XYZ address")
    func readsTMSRowsWrittenElsewhere() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("tiles.mbtiles").path
            _ = try MBTilesCache(creatingIfNeeded: path)
            try await IndependentSQLite.execute(path, "INSERT INTO tiles VALUES (16, 32793, 43949, X'CAFE'); INSERT INTO tiles VALUES (2, 1, 0, X'BEEF');")
            let cache = try MBTilesCache(openingExisting: path)
            #expect(try cache.tileData(for: Self.cambridge) == Data([0xCA, 0xFE]))
            // TMS row 0 at zoom 2 is the southernmost row: XYZ y = 3.
            #expect(try cache.tileData(for: TileID(z: 2, x: 1, y: 3)) == Data([0xBE, 0xEF]))
            #expect(try cache.tileData(for: TileID(z: 2, x: 1, y: 0)) == nil)
        }
    }

    @Test("metadata is stored in the MBTiles metadata table and survives reopening")
    func metadataRoundTrip() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("tiles.mbtiles").path
            let values = ["name": "Test tiles", "format": "png", "minzoom": "12", "maxzoom": "16", "attribution": "© test, 2 lines\nsecond"]
            try MBTilesCache(creatingIfNeeded: path).setMetadata(values)
            try MBTilesCache(creatingIfNeeded: path).setMetadata(["maxzoom": "17"])

            var expected = values
            expected["maxzoom"] = "17"
            #expect(try MBTilesCache(openingExisting: path).metadata() == expected)
            let rows = try await IndependentSQLite.query(path, "SELECT name, value FROM metadata ORDER BY name")
            #expect(rows == expected.sorted { $0.key < $1.key }.map { [$0.key, $0.value] })
        }
    }

    @Test("opening a file that does not exist is a missingFile error")
    func missingFile() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("absent.mbtiles").path
            #expect(throws: CacheError.missingFile(path: path)) { try MBTilesCache(openingExisting: path) }
            #expect(!FileManager.default.fileExists(atPath: path), "opening must not create the file")
        }
    }

    @Test("a file that is not SQLite is refused, saying what it starts with, and is left as it was", arguments: [
        (Data("These are my notes, not a database.\n".utf8), #"not an SQLite database: it starts with "These are my not"…"#),
        (Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D]), "not an SQLite database: it starts with the bytes 89 50 4E 47 0D 0A 1A 0A 00 00 00 0D"),
        (Data(), "an empty file, not an SQLite database"),
    ])
    func notSQLite(contents: Data, reason: String) throws {
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("notes.mbtiles").path
            try contents.write(to: URL(fileURLWithPath: path))
            for readOnly in [true, false] {
                #expect(throws: CacheError.notMBTiles(path: path, reason: reason)) { try MBTilesCache(openingExisting: path, readOnly: readOnly) }
            }
            let message = CacheError.notMBTiles(path: path, reason: reason).description
            #expect(message.contains(path) && message.contains("is not an MBTiles file") && message.contains("a tiles table or view"), "\(message)")
            #expect(try FileSnapshot(path).bytes == contents && FileSnapshot(path).neighbours == ["notes.mbtiles"])
        }
    }

    @Test("an SQLite file without a usable tiles table or view is refused, saying what it holds", arguments: [
        ("CREATE TABLE places (name TEXT);", "an SQLite database with the table places, but no tiles table or view"),
        ("CREATE TABLE places (name TEXT); CREATE TABLE roads (name TEXT); CREATE VIEW names AS SELECT name FROM places;",
         "an SQLite database with the tables places, roads and the view names, but no tiles table or view"),
        ("PRAGMA user_version = 1;", "an SQLite database with no tables"),
        ("CREATE TABLE tiles (z INTEGER, x INTEGER, y INTEGER, tile_data BLOB);",
         "its tiles table has the columns z, x, y, tile_data and lacks zoom_level, tile_column, tile_row"),
        ("CREATE TABLE images (tile_data BLOB); CREATE VIEW tiles AS SELECT * FROM images; DROP TABLE images;",
         "its tiles view cannot be read (no such table: main.images)"),
    ])
    func sqliteWithoutTiles(schema: String, reason: String) async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("other.sqlite").path
            try await IndependentSQLite.execute(path, schema)
            let before = try FileSnapshot(path)
            #expect(throws: CacheError.notMBTiles(path: path, reason: reason)) { try MBTilesCache(openingExisting: path) }
            #expect(throws: CacheError.notMBTiles(path: path, reason: reason)) { try MBTilesCache(openingExisting: path, readOnly: false) }
            #expect(try FileSnapshot(path) == before, "a refused file must be left as it was")
        }
    }
}
