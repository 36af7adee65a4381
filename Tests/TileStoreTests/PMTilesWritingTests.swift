import Foundation
import ImageCodec
import MapFrameTestSupport
import MapGeometry
import Testing
@testable import TileStore

/// `PMTilesWriter`, read back through `PMTilesArchive`: clustered, each content once, runs,
/// gzip directories with leaves when the root would not fit, the header and metadata filled in,
/// and nothing left under the archive's name when writing fails.
@Suite("PMTiles: writing")
struct PMTilesWritingTests {
    static func record(_ tile: TileID, _ data: Data) -> StoredTileRecord {
        StoredTileRecord(tile: tile, stored: StoredTile(data: data, freshness: nil))
    }

    /// Writes `records` a page at a time, in the order given, and opens the archive.
    static func written(_ records: [StoredTileRecord], at path: String) async throws -> (PMTilesWriter.Summary, PMTilesArchive) {
        let writer = try await PMTilesWriter.create(path)
        for start in stride(from: 0, to: records.count, by: 500) {
            try await writer.add(Array(records[start..<min(start + 500, records.count)]))
        }
        let summary = try await writer.finish(name: "Test tiles", attribution: "© Test")
        return (summary, try PMTilesArchive(try PMTilesFile(path: path)))
    }

    @Test("ten thousand tiles come back byte for byte, through leaf directories, clustered")
    func largeRoundTrip() async throws {
        // Zoom 14 tiles scattered over a wide area, so their entries compress badly: the root
        // alone would pass 16,384 bytes. Every tenth repeats an earlier content.
        var records: [StoredTileRecord] = []
        var state: UInt64 = 3
        var seen = Set<TileID>()
        while records.count < 10_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let tile = TileID(z: 14, x: Int(state >> 40) % 16_384, y: Int(state >> 20) % 16_384)
            guard seen.insert(tile).inserted else { continue }
            let data = records.count % 10 == 9 ? records[records.count / 2].stored.data : PMTilesReadingTests.bytes(records.count)
            records.append(Self.record(tile, data))
        }
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("large.pmtiles").path
            let (summary, archive) = try await Self.written(records.shuffled(), at: path)
            #expect(summary.tiles == 10_000)
            #expect(summary.contents == 9_000, "each repeated content stored once")
            #expect(summary.leafDirectories > 1, "the root would not fit: \(summary)")
            #expect(archive.header.rootDirectory.offset + archive.header.rootDirectory.length <= 16_384)
            #expect(archive.header.isClustered && archive.header.internalCompression == .gzip)
            #expect(archive.header.addressedTileCount == 10_000 && archive.header.tileContentCount == 9_000)
            #expect(summary.bytes == UInt64(try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int))
            for record in records {
                let entry = try #require(try archive.entry(for: record.tile))
                #expect(try archive.data(of: entry) == record.stored.data, "tile \(record.tile)")
            }
            // Clustered: each content is at the end of those before it, or points back to one.
            var end: UInt64 = 0
            try archive.forEachTileEntry { entry in
                #expect(entry.offset == end || entry.offset + UInt64(entry.length) <= end)
                end = max(end, entry.offset + UInt64(entry.length))
                return true
            }
            #expect(end == archive.header.tileData.length)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["large.pmtiles"], "no temporary file is left")
        }
    }

    @Test("consecutive identical tiles are one run; identical tiles apart share one content")
    func runsAndSharing() async throws {
        let (sea, land, town) = (Data("sea".utf8), Data("land".utf8), Data("town".utf8))
        // Zoom 2's tiles by number 5 to 20: 5-9 sea, 10 land, 11-12 sea, 13 town, the rest land.
        let records = try (UInt64(5)...20).map { id in
            let data = id <= 9 || id == 11 || id == 12 ? sea : id == 13 ? town : land
            return Self.record(try #require(PMTilesTileID.tile(for: id)), data)
        }
        try await withTemporaryDirectory { directory in
            let (summary, archive) = try await Self.written(records.reversed(), at: directory.appendingPathComponent("runs.pmtiles").path)
            var entries: [PMTilesEntry] = []
            try archive.forEachTileEntry { entries.append($0); return true }
            #expect(entries.map(\.tileID) == [5, 10, 11, 13, 14])
            #expect(entries.map(\.runLength) == [5, 1, 2, 1, 7])
            #expect(entries[2].offset == entries[0].offset, "the second sea run points back to the first")
            #expect(summary.contents == 3 && summary.entries == 5 && summary.leafDirectories == 0)
            #expect(archive.header.tileData.length == UInt64(sea.count + land.count + town.count))
            #expect(archive.header.tileType == .unknown, "these bytes are no image")
        }
    }

    @Test("the header and metadata give the zooms, bounds, centre, format and attribution")
    func headerAndMetadata() async throws {
        let png = try RasterImage(width: 256, height: 256, filledWith: Colour(redLevel: 10, greenLevel: 200, blueLevel: 30)).pngData()
        let tiles = [TileID(z: 12, x: 2049, y: 1361), TileID(z: 16, x: 32_793, y: 21_586), TileID(z: 16, x: 32_794, y: 21_587)]
        try await withTemporaryDirectory { directory in
            let (_, archive) = try await Self.written(tiles.map { Self.record($0, png) }, at: directory.appendingPathComponent("area.pmtiles").path)
            let header = archive.header
            #expect(header.tileType == .png && header.tileCompression == .none)
            #expect(header.minZoom == 12 && header.maxZoom == 16 && header.centerZoom == 12)
            let northWest = TileID(z: 16, x: 32_793, y: 21_586).bounds
            let southEast = TileID(z: 16, x: 32_794, y: 21_587).bounds
            #expect(header.minLonE7 == Int32((northWest.west * 1e7).rounded()) && header.maxLatE7 == Int32((northWest.north * 1e7).rounded()))
            #expect(header.maxLonE7 == Int32((southEast.east * 1e7).rounded()) && header.minLatE7 == Int32((southEast.south * 1e7).rounded()))
            #expect(header.centerLonE7 == Int32(((northWest.west + southEast.east) / 2 * 1e7).rounded()))
            let file = try PMTilesFile(path: directory.appendingPathComponent("area.pmtiles").path)
            let compressed = try file.read(offset: header.metadata.offset, length: Int(header.metadata.length))
            let metadata = try JSONSerialization.jsonObject(with: Gzip.decompress(compressed, limit: 1 << 20, what: "metadata")) as? [String: String]
            #expect(metadata?["attribution"] == "© Test" && metadata?["name"] == "Test tiles" && metadata?["format"] == "png")
            #expect(metadata?["minzoom"] == "12" && metadata?["maxzoom"] == "16")
            let bounds = try #require(metadata?["bounds"]).split(separator: ",").compactMap { Double($0) }
            #expect(bounds.count == 4 && abs(bounds[0] - northWest.west) < 1e-6 && abs(bounds[3] - northWest.north) < 1e-6)
        }
    }

    @Test("a failed write leaves nothing under the archive's name, and an earlier archive there untouched")
    func failureLeavesNothing() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("empty.pmtiles").path
            let writer = try await PMTilesWriter.create(path)
            await #expect(throws: CacheError.self) { try await writer.finish(name: "n", attribution: "") }
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)

            let earlier = Data("an earlier archive".utf8)
            try earlier.write(to: URL(fileURLWithPath: path))
            let again = try await PMTilesWriter.create(path)
            await #expect(throws: CacheError.self) { try await again.finish(name: "n", attribution: "") }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == earlier)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["empty.pmtiles"])
        }
    }

    @Test("writing again replaces the archive whole; a tile added twice keeps its later bytes")
    func replaces() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("again.pmtiles").path
            let tile = TileID(z: 3, x: 2, y: 5)
            _ = try await Self.written([Self.record(tile, Data("first".utf8))], at: path)
            let (_, archive) = try await Self.written([Self.record(tile, Data("old".utf8)), Self.record(tile, Data("second".utf8))], at: path)
            #expect(try archive.data(of: try #require(try archive.entry(for: tile))) == Data("second".utf8))
            #expect(archive.header.addressedTileCount == 1)
        }
    }
}
