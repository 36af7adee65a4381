import FixtureTiles
import Foundation
import ImageCodec
import MapFrameTestSupport
import MapGeometry
import Testing
import TileStore

@Suite("Fixture tile caches")
struct FixtureCacheBuilderTests {
    /// A small area of the fixture town around Cambridge: several tiles a side at zoom 16 and 17.
    static var builder: FixtureCacheBuilder {
        FixtureCacheBuilder(style: "osm", bounds: GeoBounds(south: 52.200, west: 0.130, north: 52.212, east: 0.155), zoomLevels: 16...17)
    }

    /// Builds the fixture area into a new file and opens it.
    static func build(style: String = "osm", in directory: URL, name: String) throws -> MBTilesCache {
        let path = directory.appendingPathComponent(name).path
        var builder = builder
        builder.style = style
        try builder.build(into: path, attribution: "test fixtures")
        return try MBTilesCache(openingExisting: path)
    }

    @Test("two builds give identical tile bytes", arguments: ["osm", "opencyclemap"])
    func deterministic(style: String) throws {
        try withTemporaryDirectory { directory in
            let first = try Self.build(style: style, in: directory, name: "first.mbtiles")
            let second = try Self.build(style: style, in: directory, name: "second.mbtiles")
            let tiles = Self.builder.tiles
            #expect(tiles.count >= 12, "the area should span several tiles")
            #expect(try first.tileCount() == tiles.count && second.tileCount() == tiles.count)
            for tile in tiles {
                let bytes = try #require(try first.tileData(for: tile), "\(tile) was not written")
                #expect(try second.tileData(for: tile) == bytes, "\(tile) differs between builds")
                #expect(try ImageHeader.read(bytes).format == .png)
            }
        }
    }

    @Test("the metadata describes the build")
    func metadata() throws {
        try withTemporaryDirectory { directory in
            let metadata = try Self.build(in: directory, name: "tiles.mbtiles").metadata()
            #expect(metadata["format"] == "png")
            #expect(metadata["minzoom"] == "16" && metadata["maxzoom"] == "17")
            #expect(metadata["attribution"] == "test fixtures")
            #expect(metadata["name"]?.isEmpty == false)
            let bounds = try #require(metadata["bounds"]).split(separator: ",").compactMap { Double($0) }
            #expect(bounds == [0.13, 52.2, 0.155, 52.212])
        }
    }

    /// Two neighbouring pixels differ "visibly" when a channel differs by more than 16 of 255
    /// levels (about 6%). Flat map areas match exactly; only an anti-aliased or real edge
    /// between the two pixels makes them differ by more.
    static let visibleStep = 16

    /// The fraction of pixel pairs along a line that differ visibly.
    static func stepFraction(_ pairs: [(Colour, Colour)]) -> Double {
        Double(pairs.filter { $0.0.maxChannelDifference(to: $0.1) > visibleStep }.count) / Double(pairs.count)
    }

    /// Pairs of pixels side by side: column `a1` of `a` against column `b1` of `b` (or rows).
    /// Across a seam that is the last column of a tile and the first of its neighbour; inside a
    /// tile, two neighbouring columns, which show how often real edges fall between pixels.
    static func columnPairs(_ a: RasterImage, column a1: Int, _ b: RasterImage, column b1: Int) -> [(Colour, Colour)] {
        (0..<256).map { (a.pixel(x: a1, y: $0), b.pixel(x: b1, y: $0)) }
    }

    static func rowPairs(_ a: RasterImage, row a1: Int, _ b: RasterImage, row b1: Int) -> [(Colour, Colour)] {
        (0..<256).map { (a.pixel(x: $0, y: a1), b.pixel(x: $0, y: b1)) }
    }

    @Test("tiles continue across their edges", arguments: [16, 17])
    func continuousAcrossEdges(zoom: Int) throws {
        try withTemporaryDirectory { directory in
            let cache = try Self.build(in: directory, name: "tiles.mbtiles")
            let tiles = Self.builder.tiles.filter { $0.z == zoom }
            var images: [TileID: RasterImage] = [:]
            for tile in tiles { images[tile] = try PNGCodec.decode(try #require(try cache.tileData(for: tile))) }

            var seams: [(Colour, Colour)] = [], interior: [(Colour, Colour)] = [], unrelated: [(Colour, Colour)] = []
            for (tile, image) in images {
                if let right = images[TileID(z: zoom, x: tile.x + 1, y: tile.y)] {
                    seams += Self.columnPairs(image, column: 255, right, column: 0)
                    for column in stride(from: 3, to: 255, by: 8) {
                        interior += Self.columnPairs(image, column: column, image, column: column + 1)
                    }
                }
                if let below = images[TileID(z: zoom, x: tile.x, y: tile.y + 1)] {
                    seams += Self.rowPairs(image, row: 255, below, row: 0)
                    for row in stride(from: 3, to: 255, by: 8) {
                        interior += Self.rowPairs(image, row: row, image, row: row + 1)
                    }
                }
                // A control: the edge of a tile against a tile that is not its neighbour.
                if let farRight = images[TileID(z: zoom, x: tile.x + 2, y: tile.y)] {
                    unrelated += Self.columnPairs(image, column: 255, farRight, column: 0)
                }
            }
            try #require(seams.count >= 256 * 4 && !unrelated.isEmpty, "the area should have several seams")
            let seamSteps = Self.stepFraction(seams), interiorSteps = Self.stepFraction(interior)
            let unrelatedSteps = Self.stepFraction(unrelated)
            // Edges cross a seam no more often than they cross between two columns inside a tile
            // (sampled every 8th column)...
            #expect(seamSteps <= interiorSteps + 0.03, "seams: \(seamSteps), inside tiles: \(interiorSteps)")
            // ...so at least 90% of the rows match across a seam.
            #expect(seamSteps <= 0.10, "\(seamSteps * 100)% of seam pixels step visibly")
            // The measure can tell: edges that do not belong together mismatch far more often.
            #expect(unrelatedSteps >= seamSteps + 0.10, "unrelated edges: \(unrelatedSteps), seams: \(seamSteps)")
        }
    }
}
