import Foundation
import ImageCodec
import MapFrameTestSupport
import MapGeometry
import Testing

/// `snapshot`, `play` and `goldens` with `--cache FILE.mbtiles` on MBTiles files as other tools
/// write them, each made here to MBTiles 1.3 by Python's sqlite3 (`ForeignMBTiles`) and read back
/// by it, or by GDAL: tiles of cells (`CellTiles`) show whether each tile's colour lands where it
/// should, at the right scale.
@Suite("MBTiles files of every kind other tools write")
struct AnyMBTilesTests {
    static let centre = Coordinate(latitude: 52.2055, longitude: 0.1414)

    /// PNG cell tiles of `zoom` around the centre (`CellTiles.pngTiles`).
    static func pngTiles(zoom: Int, side: Int = 256, cells: Int = 1, radius: Int = 2, alpha: (TileID) -> UInt8 = { _ in 255 }) throws -> [TileID: Data] {
        try CellTiles.pngTiles(around: centre, zoom: zoom, side: side, cells: cells, radius: radius, alpha: alpha)
    }

    /// Writes `tiles` into `atlas.mbtiles`, with `metadata` (nil: no metadata table), and reads
    /// it back (`ForeignMBTiles.writeChecked`).
    static func write(_ workspace: Workspace, metadata: [String: String]?, tiles: [TileID: Data]) async throws -> String {
        let path = workspace.path("atlas.mbtiles")
        try await ForeignMBTiles.writeChecked(to: path, metadata: metadata, tiles: tiles)
        return path
    }

    /// `snapshot --offline` of `centre` at `zoom`, without attribution, into `out.png`.
    static func snapshot(_ workspace: Workspace, cache: String, zoom: Int, centre: Coordinate = Self.centre) async throws -> CommandResult {
        let scene = try workspace.write(
            #"{"camera": {"center": {"lat": \#(centre.latitude), "lon": \#(centre.longitude)}, "zoom": \#(zoom)}, "attribution": false}"#,
            to: "scene.json"
        )
        return try await workspace.mapframe("snapshot", scene, "--cache", cache, "--offline", "--output", workspace.path("out.png"))
    }

    /// The frame's tile report among what `snapshot` printed.
    static func reportLine(_ result: CommandResult) -> String? {
        result.errorLines.first { $0.hasPrefix("scene.json -> ") }
    }

    /// Expects the frame of `centre` to show, at the centre of each tile of `cellZoom` inside it
    /// that `only` picks (and above its bottom `bottomMargin` pixels), that tile's colour
    /// (`expected`, by default its `CellTiles` colour), to within `tolerance` a channel.
    static func expectCells(
        _ frame: RasterImage, frameZoom: Int, cellZoom: Int, centre: Coordinate = Self.centre, tolerance: Int = 0, bottomMargin: Int = 0,
        only: (TileID) -> Bool = { _ in true }, expected: (TileID) -> Colour = CellTiles.colour(of:), sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let centres = CellTiles.cellCentres(in: frame.width, frame.height, centre: centre, frameZoom: frameZoom, cellZoom: cellZoom)
            .filter { $0.y < frame.height - bottomMargin && only($0.tile) }
        #expect(!centres.isEmpty, sourceLocation: sourceLocation)
        let wrong = centres.filter { frame.pixel(x: $0.x, y: $0.y).maxChannelDifference(to: expected($0.tile)) > tolerance }
        #expect(wrong.isEmpty, """
            \(wrong.count) of \(centres.count) cells show another colour: \
            \(wrong.prefix(4).map { "\($0.tile) at (\($0.x), \($0.y)): \(frame.pixel(x: $0.x, y: $0.y)), not \(expected($0.tile))" })
            """, sourceLocation: sourceLocation)
    }

    @Test("with no format in the metadata, an empty metadata table, none at all, or a wrong format, the format is read from the tiles and said",
          arguments: [
              (["name": "Atlas"], "the metadata has none"), ([:], "the metadata has none"), (nil, "the metadata has none"),
              (["name": "Atlas", "format": "jpg"], "the metadata says jpg"), (["name": "Atlas", "format": "image/webp"], "the metadata says image/webp"),
          ] as [([String: String]?, String)])
    func formatReadFromTheTiles(metadata: [String: String]?, says: String) async throws {
        try await Workspace.with { workspace in
            let cache = try await Self.write(workspace, metadata: metadata, tiles: Self.pngTiles(zoom: 16))
            let before = try FileSnapshot(cache)
            let result = try await Self.snapshot(workspace, cache: cache, zoom: 16)
            #expect(result.status == 0, "\(result)")
            #expect(result.errorLines.contains("cache \(cache): format png, from a tile's bytes (\(says))"), "\(result)")
            let counts = try #require(Self.reportLine(result).flatMap(FillCounts.init), "\(result)")
            #expect(counts == FillCounts(tiles: counts.tiles, cached: counts.tiles), "\(result)")
            Self.expectCells(try workspace.image("out.png"), frameZoom: 16, cellZoom: 16)

            let stats = try await workspace.mapframe("cache", "stats", "--cache", cache)
            let contradiction = says.hasPrefix("the metadata says ") ? "; \(says)" : ""
            #expect(stats.standardOutput.contains("format: png (from a tile's bytes\(contradiction)); tile size: 256 px (from a tile's bytes)"), "\(stats)")
            #expect(try FileSnapshot(cache) == before)
        }
    }

    @Test("512 px PNG tiles with alpha are drawn at their true scale: a frame at zoom 16 from the tiles of zoom 15, see-through where they are")
    func largePNGWithAlpha() async throws {
        try await Workspace.with { workspace in
            let underCentre = TileID.containing(Self.centre, zoom: 16)
            let clear = underCentre, halfClear = TileID(z: 16, x: underCentre.x + 1, y: underCentre.y)
            let tiles = try Self.pngTiles(zoom: 15, side: 512, cells: 2, radius: 1) { $0 == clear ? 0 : $0 == halfClear ? 128 : 255 }
            let cache = try await Self.write(workspace, metadata: ["name": "Aerial", "format": "png"], tiles: tiles)
            let result = try await Self.snapshot(workspace, cache: cache, zoom: 16)
            #expect(result.status == 0, "\(result)")
            #expect(result.errorLines.contains("cache \(cache): tile size 512 px, from a tile's bytes (the metadata has none)"), "\(result)")
            let counts = try #require(Self.reportLine(result).flatMap(FillCounts.init), "\(result)")
            #expect(counts == FillCounts(tiles: counts.tiles, cached: counts.tiles) && counts.tiles <= 4, "fewer, larger tiles: \(result)")
            Self.expectCells(try workspace.image("out.png"), frameZoom: 16, cellZoom: 16, tolerance: 3, expected: { tile in
                let colour = CellTiles.colour(of: tile)
                if tile == clear { return missingGrey }
                guard tile == halfClear else { return colour }
                // Half of the cell's colour over the grey beneath every frame's tiles.
                let over = { (level: UInt8) in UInt8((Int(level) * 128 + 128 * 127) / 255) }
                return Colour(redLevel: over(colour.redLevel), greenLevel: over(colour.greenLevel), blueLevel: over(colour.blueLevel))
            })
        }
    }

    @Test("512 px JPEG tiles whose metadata gives their format and size are drawn at their true scale, and nothing is said of them")
    func largeJPEG() async throws {
        try await Workspace.with { workspace in
            let tiles = Dictionary(uniqueKeysWithValues: try CellTiles.block(around: Self.centre, zoom: 15, radius: 1).map { tile in
                (tile, try TestImageEncoder.jpeg(CellTiles.image(tile, side: 512, cells: 2), quality: 95))
            })
            let cache = try await Self.write(workspace, metadata: ["name": "Aerial", "format": "jpg", "tilesize": "512"], tiles: tiles)
            let result = try await Self.snapshot(workspace, cache: cache, zoom: 16)
            #expect(result.status == 0 && result.errorLines.count == 1, "only the frame's report: \(result)")
            let counts = try #require(Self.reportLine(result).flatMap(FillCounts.init), "\(result)")
            #expect(counts == FillCounts(tiles: counts.tiles, cached: counts.tiles) && counts.tiles <= 4, "\(result)")
            Self.expectCells(try workspace.image("out.png"), frameZoom: 16, cellZoom: 16, tolerance: 6)
        }
    }

    @Test("a zoom the file lacks between two it holds is drawn from the nearest shallower one, scaled up, and the report says so",
          arguments: [(13, 12), (11, 10)])
    func zoomGap(frameZoom: Int, drawnFrom: Int) async throws {
        try await Workspace.with { workspace in
            var tiles: [TileID: Data] = [:]
            for zoom in [10, 12, 14] { tiles.merge(try Self.pngTiles(zoom: zoom, cells: 2)) { first, _ in first } }
            let cache = try await Self.write(workspace, metadata: ["name": "Gaps", "format": "png"], tiles: tiles)
            let result = try await Self.snapshot(workspace, cache: cache, zoom: frameZoom)
            #expect(result.status == 0, "\(result)")
            let line = try #require(Self.reportLine(result), "\(result)")
            #expect(line.hasSuffix("0 missing; no zoom \(frameZoom) tiles: drawn from zoom \(drawnFrom), scaled up 2x"), "\(line)")
            let counts = try #require(FillCounts(line: line), "\(result)")
            #expect(counts == FillCounts(tiles: counts.tiles, cached: counts.tiles), "\(line)")
            Self.expectCells(try workspace.image("out.png"), frameZoom: frameZoom, cellZoom: frameZoom)

            let held = try await Self.snapshot(workspace, cache: cache, zoom: 14)
            let heldLine = try #require(Self.reportLine(held), "\(held)")
            #expect(held.status == 0 && heldLine.hasSuffix(" 0 missing"), "a zoom the file holds is drawn from itself: \(held)")
            Self.expectCells(try workspace.image("out.png"), frameZoom: 14, cellZoom: 15)
        }
    }

    @Test("a NULL or empty tile_data is a missing tile, named in the frame's report; the rest of the frame is drawn",
          arguments: [("NULL", "null", "its tile_data is NULL"), ("X''", "blob", "its tile_data is empty")])
    func nullOrEmptyBlob(sql: String, type: String, words: String) async throws {
        try await Workspace.with { workspace in
            let cache = try await Self.write(workspace, metadata: ["name": "Atlas", "format": "png"], tiles: Self.pngTiles(zoom: 16))
            let victim = TileID.containing(Self.centre, zoom: 16)
            try await ForeignMBTiles.setTileData(of: victim, in: cache, toSQL: sql)
            let stored = try await IndependentSQLite.query(cache, """
                SELECT typeof(tile_data), coalesce(length(tile_data), 0) FROM tiles
                WHERE zoom_level = 16 AND tile_column = \(victim.x) AND tile_row = \(victim.tmsRow)
                """)
            try #require(stored == [[type, "0"]], "\(stored)")
            let before = try FileSnapshot(cache)

            let result = try await Self.snapshot(workspace, cache: cache, zoom: 16)
            #expect(result.status == 0, "\(result)")
            let line = try #require(Self.reportLine(result), "\(result)")
            let counts = try #require(FillCounts(line: line), "\(result)")
            #expect(counts == FillCounts(tiles: counts.tiles, cached: counts.tiles - 1, missing: 1), "\(line)")
            #expect(line.hasSuffix("; drawn grey: \(victim) (undecodable: \(words))"), "\(line)")
            Self.expectCells(try workspace.image("out.png"), frameZoom: 16, cellZoom: 16, expected: { $0 == victim ? missingGrey : CellTiles.colour(of: $0) })
            #expect(try FileSnapshot(cache) == before)
        }
    }

    @Test("a tile size in the metadata MapFrame does not draw refuses the file (exit 2), naming the field, the value and what is allowed",
          arguments: ["65536", "300", "big"])
    func absurdDeclaredSize(declared: String) async throws {
        try await Workspace.with { workspace in
            let cache = try await Self.write(workspace, metadata: ["name": "Atlas", "format": "png", "tileSize": declared], tiles: Self.pngTiles(zoom: 16))
            let before = try FileSnapshot(cache)
            let result = try await Self.snapshot(workspace, cache: cache, zoom: 16)
            #expect(result.status == 2, "\(result)")
            #expect(result.standardError.contains(
                "cache: \(cache) cannot be drawn from: its metadata tileSize is \"\(declared)\"; a tile must be 256, 512 or 1024 pixels square"
            ), "\(result)")
            #expect(!workspace.exists("out.png"))
            #expect(try FileSnapshot(cache) == before)
        }
    }

    @Test("a tile whose size is not its file's is refused on its own, saying so; the rest of the frame is drawn", arguments: [false, true])
    func tileOfAnotherSize(hugeHeader: Bool) async throws {
        try await Workspace.with { workspace in
            let victim = TileID.containing(Self.centre, zoom: hugeHeader ? 16 : 15)
            var tiles = hugeHeader ? try Self.pngTiles(zoom: 16) : try Self.pngTiles(zoom: 15, side: 512, cells: 2, radius: 1)
            // A header that declares 65536 x 65536 pixels in a few bytes, or an honest 256 px tile among 512 px ones.
            tiles[victim] = hugeHeader ? try HostileImages.lyingPNG(width: 65536, height: 65536) : try CellTiles.image(victim, side: 256, cells: 2).pngData()
            let metadata = hugeHeader ? ["name": "Atlas", "format": "png"] : ["name": "Aerial", "format": "png", "tilesize": "512"]
            let cache = try await Self.write(workspace, metadata: metadata, tiles: tiles)
            let result = try await Self.snapshot(workspace, cache: cache, zoom: 16)
            #expect(result.status == 0, "\(result)")
            let line = try #require(Self.reportLine(result), "\(result)")
            let refusal = hugeHeader
                ? "the image is 65536x65536 pixels; a tile must be 256x256 or 512x512"
                : "the image is 256x256 pixels; a tile must be 512x512 or 1024x1024"
            #expect(line.hasSuffix("1 missing; drawn grey: \(victim) (undecodable: \(refusal))"), "\(line)")
            Self.expectCells(try workspace.image("out.png"), frameZoom: 16, cellZoom: 16, expected: { tile in
                TileID(z: victim.z, x: tile.x >> (16 - victim.z), y: tile.y >> (16 - victim.z)) == victim ? missingGrey : CellTiles.colour(of: tile)
            })
        }
    }

    @Test("play draws every frame of a script from 512 px tiles at their true scale")
    func playFromLargeTiles() async throws {
        try await Workspace.with { workspace in
            let cache = try await Self.write(workspace, metadata: ["name": "Aerial"], tiles: Self.pngTiles(zoom: 15, side: 512, cells: 2, radius: 1))
            let script = try workspace.write(#"{\#(Scenes.camera), "steps": [{"pan": {"dx": 20, "dy": 0}}]}"#, to: "script.json")
            let result = try await workspace.mapframe("play", script, "--cache", cache, "--offline", "--out-dir", workspace.path("frames"))
            #expect(result.status == 0, "\(result)")
            let reports = result.errorLines.compactMap(FillCounts.init)
            #expect(reports.count == 2 && reports.allSatisfy { $0.cached == $0.tiles && $0.tiles <= 4 }, "\(result)")
            Self.expectCells(try workspace.image("frames/00.png"), frameZoom: 16, cellZoom: 16, bottomMargin: 40)
        }
    }

    @Test("goldens recorded from 256 px tiles of zoom 16 pass against 512 px tiles of zoom 15 of the same cells")
    func goldensAgreeAcrossTileSizes() async throws {
        try await Workspace.with { workspace in
            try workspace.write(Scenes.scene(#""attribution": false"#), to: "scenes/centre.json")
            let small = try await Self.write(workspace, metadata: ["name": "Small"], tiles: Self.pngTiles(zoom: 16))
            try FileManager.default.moveItem(atPath: small, toPath: workspace.path("small.mbtiles"))
            let large = try await Self.write(workspace, metadata: ["name": "Large"], tiles: Self.pngTiles(zoom: 15, side: 512, cells: 2, radius: 1))
            let (scenes, goldens) = (workspace.path("scenes"), workspace.path("goldens"))
            let record = try await workspace.mapframe("goldens", "record", scenes, goldens, "--cache", workspace.path("small.mbtiles"), "--offline")
            #expect(record.status == 0, "\(record)")
            Self.expectCells(try workspace.image("goldens/centre.png"), frameZoom: 16, cellZoom: 16)
            let check = try await workspace.mapframe("goldens", "check", scenes, goldens, "--cache", large, "--offline")
            #expect(check.status == 0 && check.standardOutput.contains("1 passed, 0 failed"), "\(check)")
        }
    }

    @Test("a file gdal_translate writes, with overviews from gdaladdo, is drawn at its true scale, in 256 or 512 px tiles", arguments: [256, 512])
    func writtenByGDAL(blockSize: Int) async throws {
        let gdal = URL(fileURLWithPath: "/usr/bin")
        try #require(FileManager.default.isExecutableFile(atPath: gdal.appendingPathComponent("gdal_translate").path),
                     "gdal_translate is missing: scripts/install-deps.sh test installs gdal-bin")
        try await Workspace.with { workspace in
            // A picture of the four zoom 16 tiles of one zoom 15 tile, each its cell colour,
            // placed on them in Web Mercator metres.
            let corner = TileID.containing(Self.centre, zoom: 15)
            let block = TileID(z: 16, x: corner.x * 2, y: corner.y * 2)
            let picture = try workspace.write(CellTiles.image(corner, side: 512, cells: 2).pngData(), to: "picture.png")
            let (half, span) = (20_037_508.342789244, 40_075_016.68557849 / 65536)
            let bounds = [-half + Double(block.x) * span, half - Double(block.y) * span, -half + Double(block.x + 2) * span, half - Double(block.y + 2) * span]
            let cache = workspace.path("gdal.mbtiles")
            let translated = try await runProgram(gdal.appendingPathComponent("gdal_translate"), [
                "-q", "-of", "MBTILES", "-a_srs", "EPSG:3857", "-a_ullr"] + bounds.map { String(format: "%.6f", $0) } + [
                "-co", "TILE_FORMAT=PNG", "-co", "RESAMPLING=NEAREST", "-co", "BLOCKSIZE=\(blockSize)", picture, cache,
            ], in: URL(fileURLWithPath: workspace.path(".")))
            try #require(translated.status == 0, "\(translated)")
            let overviews = try await runProgram(gdal.appendingPathComponent("gdaladdo"), ["-q", "-r", "nearest", cache, "2"], in: URL(fileURLWithPath: workspace.path(".")))
            try #require(overviews.status == 0, "\(overviews)")
            let deepest = blockSize == 256 ? 16 : 15
            let zooms = try await IndependentSQLite.query(cache, "SELECT DISTINCT zoom_level FROM tiles ORDER BY zoom_level")
            try #require(zooms == [[String(deepest - 1)], [String(deepest)]], "gdaladdo should add one shallower zoom: \(zooms)")

            let middle = WebMercatorCorner.coordinate(ofTileCorner: TileID(z: 16, x: block.x + 1, y: block.y + 1))
            let result = try await Self.snapshot(workspace, cache: cache, zoom: 16, centre: middle)
            #expect(result.status == 0, "\(result)")
            if blockSize == 512 {
                #expect(result.errorLines.contains("cache \(cache): tile size 512 px, from a tile's bytes (the metadata has none)"), "\(result)")
            }
            let counts = try #require(Self.reportLine(result).flatMap(FillCounts.init), "\(result)")
            #expect(counts.cached >= 1 && counts.addsUp, "\(result)")
            let inBlock = { (tile: TileID) in (block.x...block.x + 1).contains(tile.x) && (block.y...block.y + 1).contains(tile.y) }
            Self.expectCells(try workspace.image("out.png"), frameZoom: 16, cellZoom: 16, centre: middle, only: inBlock)
        }
    }
}

/// Tile corners as coordinates, by the slippy-map formula.
enum WebMercatorCorner {
    static func coordinate(ofTileCorner tile: TileID) -> Coordinate {
        let side = Double(1 << tile.z)
        return Coordinate(latitude: atan(sinh(.pi * (1 - 2 * Double(tile.y) / side))) * 180 / .pi, longitude: Double(tile.x) / side * 360 - 180)
    }
}
