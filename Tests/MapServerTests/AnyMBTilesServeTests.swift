import Foundation
import ImageCodec
import MapFrameTestSupport
import MapGeometry
import Testing

/// `mapframe serve` on another tool's `osm.mbtiles` in its cache directory, of 512 px tiles with a
/// zoom missing between two it holds, written by Python's sqlite3: tiles and frames are drawn from it at their true
/// scale, what was read from the tiles' bytes goes to the log, and a file declaring a tile size
/// MapFrame does not draw stops the server as it starts.
@Suite struct AnyMBTilesServeTests {
    static let centre = Fixtures.cambridge

    /// A file of 512 px cell tiles (`CellTiles`) at tile zooms 13 and 15, for map zooms 14 and
    /// 16, with metadata that gives neither their format nor their size.
    static func writeLargeTiles(to path: String, metadata: [String: String] = ["name": "Aerial"]) async throws {
        var tiles: [TileID: Data] = [:]
        for zoom in [13, 15] {
            tiles.merge(try CellTiles.pngTiles(around: centre, zoom: zoom, side: 512, cells: 2, radius: 1)) { first, _ in first }
        }
        try await ForeignMBTiles.writeChecked(to: path, metadata: metadata, tiles: tiles)
    }

    /// Expects a 256 px tile answer whose pixels, a few inside each corner and at the centre, are
    /// all `colour`.
    static func expectSolidTile(_ reply: HTTPReply, _ colour: Colour, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(reply.status == 200 && reply.header("X-MapFrame-Placeholder") == nil, "\(reply)", sourceLocation: sourceLocation)
        let image = try PNGCodec.decode(reply.body)
        #expect(image.width == 256 && image.height == 256, sourceLocation: sourceLocation)
        for (x, y) in [(3, 3), (252, 3), (128, 128), (3, 252), (252, 252)] {
            #expect(image.pixel(x: x, y: y) == colour, "(\(x), \(y)): \(image.pixel(x: x, y: y)), not \(colour)", sourceLocation: sourceLocation)
        }
    }

    @Test("serve --offline draws tiles and frames from 512 px tiles at their true scale, and a missing zoom from the nearest shallower one")
    func largeTilesAndAGap() async throws {
        let directory = try TemporaryDirectory("any-mbtiles-serve")
        defer { directory.remove() }
        let path = directory.path("osm.mbtiles")
        try await Self.writeLargeTiles(to: path)
        let before = try FileSnapshot(path)
        let server = try await ServeProcess.start(["--cache-dir", directory.path, "--offline"])

        // Map tile 16/x/y is a quarter of the file's 512 px tile of zoom 15: one cell.
        let tile = TileID.containing(Self.centre, zoom: 16)
        try Self.expectSolidTile(try await server.get(Fixtures.tilePath(tile)), CellTiles.colour(of: tile))
        // The file has no tile zoom 14, for map zoom 15: its zoom 13 tiles stand in, scaled up.
        let gap = TileID.containing(Self.centre, zoom: 15)
        let covering = TileID(z: 14, x: gap.x / 2, y: gap.y / 2)
        try Self.expectSolidTile(try await server.get(Fixtures.tilePath(gap)), CellTiles.colour(of: covering))

        let frame = try await server.get("/frame.png?style=osm&lat=\(Self.centre.latitude)&lon=\(Self.centre.longitude)&zoom=16&width=64&height=64")
        #expect(frame.status == 200, "\(frame)")
        #expect(try PNGCodec.decode(frame.body).pixel(x: 32, y: 32) == CellTiles.colour(of: tile))

        server.send(SIGTERM)
        #expect(try await server.waitForExit() == 0, "\(server.standardError)")
        let told = server.standardError.components(separatedBy: "cache \(path): format png, from a tile's bytes (the metadata has none); tile size 512 px, from a tile's bytes (the metadata has none)")
        #expect(told.count == 2, "said once: \(server.standardError)")
        #expect(try FileSnapshot(path) == before)
    }

    @Test("a file whose metadata declares 65536 px tiles stops serve as it starts (exit 2), naming the field, the value and what is allowed")
    func absurdTileSize() async throws {
        let directory = try TemporaryDirectory("any-mbtiles-serve")
        defer { directory.remove() }
        let path = directory.path("osm.mbtiles")
        try await Self.writeLargeTiles(to: path, metadata: ["name": "Aerial", "tilesize": "65536"])
        let result = try await runProgram(
            try MapframeExecutable.url(), ["serve", "--cache-dir", directory.path, "--offline", "--port", "0"], in: URL(fileURLWithPath: directory.path)
        )
        #expect(result.status == 2, "\(result)")
        #expect(result.standardError.contains(
            "cache: \(path) cannot be drawn from: its metadata tilesize is \"65536\"; a tile must be 256, 512 or 1024 pixels square"
        ), "\(result)")
    }
}
