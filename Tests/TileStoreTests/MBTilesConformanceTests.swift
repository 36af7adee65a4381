import Foundation
import ImageCodec
import MapFrameTestSupport
import MapGeometry
import Testing
import TileStore

/// A cache filled from the upstream is a valid MBTiles 1.3 file, checked by a second,
/// independent reader: Python's sqlite3 (`IndependentSQLite`), not MBTilesCache.
@Suite("MBTiles conformance of a filled cache")
struct MBTilesConformanceTests {
    /// A 3 x 2 block at zoom 16 around Cambridge, and a zoom-15 tile over part of it.
    static let block = (21585...21586).flatMap { y in (32792...32794).map { x in TileID(z: 16, x: x, y: y) } }
    static let parent = TileID(z: 15, x: 16396, y: 10793)

    /// A world whose cache holds the block and the parent, fetched and flushed.
    static func filledWorld() async throws -> UpstreamWorld {
        let world = try UpstreamWorld()
        let fills = await world.store.fills(block + [parent])
        #expect(fills.count == block.count + 1 && fills.values.allSatisfy { $0 == .fetched }, "\(fills)")
        try await world.store.flush()
        return world
    }

    @Test("metadata has name, format, bounds within the fetched area, zooms and attribution")
    func metadata() async throws {
        let world = try await Self.filledWorld()
        let rows = try await IndependentSQLite.query(world.cachePath, "SELECT name, value FROM metadata")
        let metadata = Dictionary(rows.map { ($0[0], $0[1]) }, uniquingKeysWith: { first, _ in first })
        #expect(rows.count == metadata.count, "metadata names must be unique")
        #expect(metadata["name"] == world.source.title)
        #expect(metadata["format"] == "png")
        #expect(metadata["minzoom"] == "15" && metadata["maxzoom"] == "16")
        #expect(metadata["attribution"] == world.source.tileSet.attribution)

        let bounds = try #require(metadata["bounds"]).split(separator: ",").compactMap { Double($0) }
        try #require(bounds.count == 4, "bounds should be west,south,east,north: \(metadata["bounds"] ?? "")")
        let area = Self.block.map(\.bounds).reduce(Self.block[0].bounds) { $0.union($1) }
        let (west, south, east, north) = (bounds[0], bounds[1], bounds[2], bounds[3])
        #expect(west < east && south < north)
        let slack = 1e-6  // the file keeps six decimals
        #expect(west >= area.west - slack && east <= area.east + slack && south >= area.south - slack && north <= area.north + slack,
                "\(bounds) lies outside the fetched \(area)")
    }

    @Test("tiles are stored at TMS rows (2^z - 1 - y) with the bytes the upstream served")
    func tmsRows() async throws {
        let world = try await Self.filledWorld()
        let known = TileID(z: 16, x: 32793, y: 21586)
        let rows = try await IndependentSQLite.query(
            world.cachePath, "SELECT tile_row, hex(tile_data) FROM tiles WHERE zoom_level = 16 AND tile_column = 32793 ORDER BY tile_row"
        )
        // 65535 - 21586 = 43949 and 65535 - 21585 = 43950.
        #expect(rows.map(\.[0]) == ["43949", "43950"])
        let served = try SimulatedTiles.png(for: known).map { String(format: "%02X", $0) }.joined()
        #expect(rows.first?[1] == served, "the row 2^z-1-y should hold \(known)'s bytes")
        #expect(try await IndependentSQLite.query(world.cachePath, "SELECT count(*) FROM tiles") == [["\(Self.block.count + 1)"]])
    }

    @Test("tiles has a unique index on (zoom_level, tile_column, tile_row)")
    func uniqueIndex() async throws {
        let world = try await Self.filledWorld()
        // index_list rows: seq, name, unique, origin, partial.
        let uniqueIndexes = try await IndependentSQLite.query(world.cachePath, "PRAGMA index_list(tiles)").filter { $0[2] == "1" }.map { $0[1] }
        // index_info rows: seqno, cid, name.
        var columns: [[String]] = []
        for name in uniqueIndexes { columns.append(try await IndependentSQLite.query(world.cachePath, "PRAGMA index_info('\(name)')").map { $0[2] }) }
        #expect(columns.contains(["zoom_level", "tile_column", "tile_row"]), "unique indexes: \(zip(uniqueIndexes, columns).map { "\($0): \($1)" })")
    }

    @Test("the journal mode is WAL and every blob is a PNG")
    func walAndPNGBlobs() async throws {
        let world = try await Self.filledWorld()
        #expect(try await IndependentSQLite.query(world.cachePath, "PRAGMA journal_mode") == [["wal"]])
        let signatures = try await IndependentSQLite.query(world.cachePath, "SELECT hex(substr(tile_data, 1, 8)) FROM tiles").map(\.[0])
        #expect(signatures == Array(repeating: "89504E470D0A1A0A", count: Self.block.count + 1))
    }
}
