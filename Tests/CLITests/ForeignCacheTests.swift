import Foundation
import ImageCodec
import MapGeometry
import MapFrameTestSupport
import Testing
import UpstreamSimulator

/// `snapshot`, `play` and `cache` on MBTiles files other tools made, and on caches in read-only
/// places: every tile drawn from a cache counts as cached, and a cache used with `--offline`,
/// or from a place that cannot be written, is byte for byte as it was afterwards.
@Suite("mapframe with MBTiles files from other tools")
struct ForeignCacheTests {
    /// Which tool made the file: MapFrame itself (`mapframe fixtures`: WAL mode, MapFrame's
    /// tables), or one of `ForeignMBTiles`' layouts.
    static let makers = ["MapFrame"] + ForeignMBTiles.Layout.all.map(\.name)

    /// The tile under the test scene's centre.
    static let centre = slippyTile(latitude: 52.2055, longitude: 0.1414, zoom: 16)

    /// Runs `body` with a workspace holding the fixture tiles, as `maker` writes them, in
    /// `atlas/atlas.mbtiles`.
    static func withCache(madeBy maker: String, _ body: (Workspace, String) async throws -> Void) async throws {
        try await Workspace.with { workspace in
            let fixtures = try await workspace.buildFixtures()
            let path = workspace.path("atlas/atlas.mbtiles")
            try FileManager.default.createDirectory(atPath: workspace.path("atlas"), withIntermediateDirectories: true)
            if let layout = ForeignMBTiles.Layout.all.first(where: { $0.name == maker }) {
                try await ForeignMBTiles.write(layout, to: path, tilesFrom: fixtures)
            } else {
                try FileManager.default.copyItem(atPath: fixtures, toPath: path)
            }
            try await body(workspace, path)
        }
    }

    /// Deletes the tile under the scene's centre from the file, as another SQLite program would.
    static func deleteCentreTile(from path: String) async throws {
        let kind = try await IndependentSQLite.query(path, "SELECT type FROM sqlite_master WHERE name = 'tiles'").first?.first
        let deleted = try await IndependentSQLite.change(
            path, "DELETE FROM \(kind == "view" ? "map" : "tiles") WHERE zoom_level = 16 AND tile_column = ? AND tile_row = ?", [.integer(centre.x), .integer(centre.tmsRow)]
        )
        try #require(deleted == 1, "could not delete the centre tile: \(deleted) rows deleted")
    }

    @Test("snapshot --offline draws the file, counts every tile cached, and leaves it byte for byte as it was", arguments: makers)
    func offlineSnapshot(maker: String) async throws {
        try await Self.withCache(madeBy: maker) { workspace, cache in
            let before = try FileSnapshot(cache)
            let scene = try workspace.write(Scenes.withMarkers, to: "scene.json")
            let result = try await workspace.mapframe("snapshot", scene, "--cache", cache, "--offline", "--output", workspace.path("out.png"))
            #expect(result.status == 0, "\(result)")
            let counts = try #require(result.reportLines.first.flatMap(FillCounts.init), "\(result)")
            #expect(counts.tiles > 0 && counts == FillCounts(tiles: counts.tiles, cached: counts.tiles), "\(result)")
            #expect(try workspace.image("out.png").pixel(x: 160, y: 240) != missingGrey)
            #expect(try FileSnapshot(cache) == before)
        }
    }

    @Test("play --offline reports every frame's tiles as cached, and leaves the file as it was", arguments: ["MapFrame", "mbutil"])
    func offlinePlay(maker: String) async throws {
        try await Self.withCache(madeBy: maker) { workspace, cache in
            let before = try FileSnapshot(cache)
            let script = try workspace.write(#"{\#(Scenes.camera), "steps": [{"tap": {"x": 160, "y": 240}}, {"pan": {"dx": 20, "dy": 0}}]}"#, to: "script.json")
            let result = try await workspace.mapframe("play", script, "--cache", cache, "--offline", "--out-dir", workspace.path("frames"))
            #expect(result.status == 0, "\(result)")
            let reports = result.errorLines.compactMap(FillCounts.init)
            #expect(reports.count == 3 && reports.allSatisfy { $0.tiles > 0 && $0.cached == $0.tiles && $0.addsUp }, "\(result)")
            #expect(try FileSnapshot(cache) == before)
        }
    }

    @Test("cache stats and verify read every layout, say what they found, and change nothing", arguments: makers)
    func statsAndVerify(maker: String) async throws {
        try await Self.withCache(madeBy: maker) { workspace, cache in
            let before = try FileSnapshot(cache)
            let stats = try await workspace.mapframe("cache", "stats", "--cache", cache)
            #expect(stats.status == 0, "\(stats)")
            let layout = ForeignMBTiles.Layout.all.first { $0.name == maker }
            let name = layout.map { $0.metadata?["name"].map { "\($0) (from the metadata)" } ?? "atlas (from the file name)" }
                ?? "MapFrame fixture tiles (osm) (from the metadata)"
            let format = layout.map { $0.metadata?["format"] == nil ? "png (from a tile's bytes)" : "png (from the metadata)" } ?? "png (from the metadata)"
            #expect(stats.standardOutput.contains("name: \(name); format: \(format)"), "\(stats)")
            let view = layout?.tilesAsView == true ? "tiles view" : "tiles table"
            let records = layout == nil ? "MapFrame freshness records" : "no freshness records"
            #expect(stats.standardOutput.contains("layout: \(view); ") && stats.standardOutput.contains(records), "\(stats)")

            let verify = try await workspace.mapframe("cache", "verify", "--cache", cache)
            #expect(verify.status == 0 && verify.standardOutput.contains("integrity ok; 0 corrupt tiles"), "\(verify)")
            #expect(try FileSnapshot(cache) == before)
        }
    }

    @Test("from a read-only folder, an online snapshot draws the cached tiles, reports the one it cannot store, and writes nothing",
          arguments: ["MapFrame", "MOBAC"])
    func readOnlyFolderOnline(maker: String) async throws {
        try await Self.withCache(madeBy: maker) { workspace, cache in
            try await Self.deleteCentreTile(from: cache)
            let before = try FileSnapshot(cache)
            let upstream = try UpstreamSimulator()
            upstream.serveFixtureTiles()
            let style = try workspace.writeStyle(upstream: upstream)
            let scene = try workspace.write(Scenes.scene(#""style": "local""#), to: "scene.json")
            let lock = try await ReadOnlyLock(workspace.path("atlas"))
            defer { lock.unlock() }

            let result = try await workspace.mapframe("snapshot", scene, "--cache", cache, "--style-file", style, "--output", workspace.path("out.png"))
            #expect(result.status == 0, "\(result)")
            let line = try #require(result.reportLines.first, "\(result)")
            let counts = try #require(FillCounts(line: line), "\(result)")
            #expect(counts == FillCounts(tiles: counts.tiles, cached: counts.tiles - 1, failed: 1), "\(line)")
            #expect(isTileReport(line, scene: "scene.json", output: "out.png", grey: 1), "\(line)")
            #expect(line.contains("16/\(Self.centre.x)/\(Self.centre.y) (not stored: cache: \(cache) cannot be written"), "\(line)")
            #expect(upstream.requests.map(\.path) == ["/16/\(Self.centre.x)/\(Self.centre.y).png"], "only the missing tile is fetched")

            for command in [["cache", "purge", "--older-than", "0s"], ["cache", "vacuum"]] {
                let refused = try await workspace.mapframe(command + ["--cache", cache])
                #expect(refused.status == 1 && refused.standardError.contains("\(cache) cannot be written"), "\(command): \(refused)")
            }
            lock.unlock()
            #expect(try FileSnapshot(cache) == before)
        }
    }

    @Test("offline, a tile not in the file is missing, not failed, and named")
    func missingIsNotFailed() async throws {
        try await Self.withCache(madeBy: "MapProxy") { workspace, cache in
            try await Self.deleteCentreTile(from: cache)
            let scene = try workspace.write(Scenes.scene(), to: "scene.json")
            let result = try await workspace.mapframe("snapshot", scene, "--cache", cache, "--offline", "--output", workspace.path("out.png"))
            #expect(result.status == 0, "\(result)")
            let line = try #require(result.reportLines.first)
            let counts = try #require(FillCounts(line: line), "\(result)")
            #expect(counts == FillCounts(tiles: counts.tiles, cached: counts.tiles - 1, missing: 1), "\(line)")
            #expect(line.hasSuffix("; drawn grey: 16/\(Self.centre.x)/\(Self.centre.y) (not cached)"), "\(line)")
        }
    }

    @Test("a tile_data that is text draws grey with a warning, cache verify names it, and neither changes the file",
          arguments: ["MOBAC", "mbutil"])
    func textTileData(maker: String) async throws {
        try await Self.withCache(madeBy: maker) { workspace, cache in
            let centre = Self.centre
            try await ForeignMBTiles.setTileData(of: TileID(z: 16, x: centre.x, y: centre.y), in: cache, toSQL: "'a PNG, honestly'")
            let before = try FileSnapshot(cache)

            let scene = try workspace.write(Scenes.scene(#""attribution": false"#), to: "scene.json")
            let result = try await workspace.mapframe("snapshot", scene, "--cache", cache, "--offline", "--output", workspace.path("out.png"))
            #expect(result.status == 0, "\(result)")
            let line = try #require(result.reportLines.first)
            #expect(FillCounts(line: line)?.missing == 1 && FillCounts(line: line)?.failed == 0, "\(line)")
            #expect(line.contains("16/\(centre.x)/\(centre.y) (undecodable: its tile_data is text, not image bytes)"), "\(line)")
            #expect(try workspace.image("out.png").pixel(x: 160, y: 240) == missingGrey)

            let verify = try await workspace.mapframe("cache", "verify", "--cache", cache)
            #expect(verify.status == 1, "\(verify)")
            #expect(verify.standardOutput.contains("1 corrupt tiles"), "\(verify)")
            #expect(verify.standardOutput.contains("  16/\(centre.x)/\(centre.y): its tile_data is text, not image bytes"), "\(verify)")
            #expect(try FileSnapshot(cache) == before)
        }
    }

    @Test("a --cache that is not SQLite, or has no tiles, is invalid input (exit 2) saying what was found", arguments: [
        ("notes", #"not an SQLite database: it starts with "These are my not""#),
        ("places", "an SQLite database with the tables places, roads, but no tiles table or view"),
    ])
    func notMBTiles(kind: String, found: String) async throws {
        try await Workspace.with { workspace in
            let path: String
            if kind == "notes" {
                path = try workspace.write("These are my notes, not a database.\n", to: "atlas.mbtiles")
            } else {
                path = workspace.path("atlas.mbtiles")
                try await IndependentSQLite.execute(path, "CREATE TABLE places (name TEXT); CREATE TABLE roads (name TEXT);")
            }
            let before = try FileSnapshot(path)
            let scene = try workspace.write(Scenes.scene(), to: "scene.json")
            for offline in [true, false] {
                let result = try await workspace.mapframe(
                    ["snapshot", scene, "--cache", path, "--output", workspace.path("out.png")] + (offline ? ["--offline"] : [])
                )
                #expect(result.status == 2, "\(result)")
                #expect(result.standardError.contains("atlas.mbtiles is not an MBTiles file: \(found)"), "\(result)")
            }
            #expect(!workspace.exists("out.png"))
            #expect(try FileSnapshot(path) == before)
        }
    }
}
