import Foundation
import MapFrameTestSupport
import MapGeometry
import Testing
import UpstreamSimulator

@Suite("mapframe cache")
struct CacheCommandTests {
    /// 9 tiles at zoom 15, fresh for 7 days, and 20 at zoom 16, served with max-age=0 and so
    /// expired as soon as they are stored.
    static let area = SeedArea(bbox: "0.13,52.20,0.15,52.21", zooms: 15...16)

    /// Runs `body` with a workspace whose `cache/local.mbtiles` was seeded with `area`, its tiles
    /// served with `headers`.
    static func withSeededCache(
        _ area: SeedArea = CacheCommandTests.area, headers: @escaping @Sendable (TileID) -> [(String, String)] = { tile in tile.z == 16 ? [("Cache-Control", "max-age=0")] : [] },
        _ body: (Workspace, String) async throws -> Void
    ) async throws {
        try await Workspace.with { workspace in
            let upstream = try UpstreamSimulator()
            upstream.serveFixtureTiles(headers: headers)
            let style = try workspace.writeStyle(upstream: upstream)
            let seed = try await workspace.mapframe(SeedCommandTests.seedArguments(workspace, style: style, area: area, extra: ["--concurrency", "4"]))
            try #require(seed.status == 0, "\(seed)")
            try await body(workspace, workspace.path("cache/local.mbtiles"))
        }
    }

    @Test("stats counts tiles per zoom and expired tiles")
    func stats() async throws {
        try await Self.withSeededCache { workspace, cache in
            let result = try await workspace.mapframe("cache", "stats", "--cache-dir", workspace.path("cache"), "--style", "local")
            #expect(result.status == 0, "\(result)")
            for expected in [cache, "tiles: 29 (", "expired: 20; without freshness records: 0", "per zoom: z15: 9, z16: 20"] {
                #expect(result.standardOutput.contains(expected), "stats lacks \(expected): \(result)")
            }
        }
    }

    @Test("purge --older-than 14d keeps a fresh cache; --older-than 0s deletes every fetched tile")
    func purge() async throws {
        try await Self.withSeededCache { workspace, cache in
            let keep = try await workspace.mapframe("cache", "purge", "--older-than", "14d", "--cache", cache)
            #expect(keep.status == 0, "\(keep)")
            #expect(keep.standardOutput.contains("deleted 0 tiles fetched more than 14d ago"), "\(keep)")
            #expect(try await CacheContents.read(cache).tiles == Self.area.tiles)

            let all = try await workspace.mapframe("cache", "purge", "--older-than", "0s", "--cache", cache)
            #expect(all.status == 0, "\(all)")
            #expect(all.standardOutput.contains("deleted 29 tiles"), "\(all)")
            let contents = try await CacheContents.read(cache)
            #expect(contents.tiles.isEmpty)
            #expect(contents.integrity == "ok")
        }
    }

    @Test("verify passes a sound cache, fails naming a corrupt tile, and --delete-corrupt removes it")
    func verify() async throws {
        try await Self.withSeededCache { workspace, cache in
            let sound = try await workspace.mapframe("cache", "verify", "--cache", cache)
            #expect(sound.status == 0, "\(sound)")
            #expect(sound.standardOutput.contains("integrity ok; 0 corrupt tiles"), "\(sound)")

            let victim = try #require(Self.area.tiles.sorted().first)
            try await Self.spoil(victim, in: cache)

            let found = try await workspace.mapframe("cache", "verify", "--cache", cache)
            #expect(found.status == 1, "\(found)")
            #expect(found.standardOutput.contains("1 corrupt tiles"), "\(found)")
            let named = found.standardOutput.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("\(victim): ") }
            #expect(named?.contains("does not decode") == true, "the corrupt tile \(victim) is not named with its fault: \(found)")
            #expect(try await CacheContents.read(cache).tiles.contains(victim), "verify without --delete-corrupt must not delete")

            let deleted = try await workspace.mapframe("cache", "verify", "--delete-corrupt", "--cache", cache)
            #expect(deleted.status == 0, "\(deleted)")
            #expect(deleted.standardOutput.contains(victim.description) && deleted.standardOutput.contains("(deleted)"), "\(deleted)")
            let contents = try await CacheContents.read(cache)
            #expect(contents.tiles == Self.area.tiles.subtracting([victim]))
            #expect(contents.undecodable.isEmpty && contents.tilesWithoutState.isEmpty)

            let again = try await workspace.mapframe("cache", "verify", "--cache", cache)
            #expect(again.status == 0, "\(again)")
        }
    }

    /// Overwrites a tile's bytes with 300 random ones, which are no image.
    static func spoil(_ tile: TileID, in cache: String) async throws {
        let spoilt = try await IndependentSQLite.change(
            cache, "UPDATE tiles SET tile_data = ? WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?",
            [.blob(Data((0..<300).map { _ in UInt8.random(in: 0...255) })), .integer(tile.z), .integer(tile.x), .integer(tile.tmsRow)]
        )
        try #require(spoilt == 1, "could not spoil the tile: \(spoilt) rows changed")
    }

    /// Runs `body` with a workspace and a file of 419 fixture tiles at zooms 15 to 17: enough that
    /// a damaged page holds some and spares the rest.
    static func withManyTiles(_ body: (Workspace, String) async throws -> Void) async throws {
        try await Workspace.with { workspace in
            let cache = workspace.path("many.mbtiles")
            let made = try await workspace.mapframe("fixtures", "--bbox", "0.12,52.19,0.16,52.22", "--zoom", "15-17", "--output", cache)
            try #require(made.status == 0, "\(made)")
            try await body(workspace, cache)
        }
    }

    @Test("verify names each tile on a damaged page of the tiles table, writing nothing; --delete-corrupt deletes what it can, keeps every other tile, and says what cannot be mended")
    func verifyDamagedTablePage() async throws {
        try await Self.withManyTiles { workspace, cache in
            let victim = try await #require(try TileInventory.read(cache).tiles.min())
            try await Self.spoil(victim, in: cache)
            let inventory = try await TileInventory.read(cache)
            let harm = try await DamagedMBTiles.overwritePage(of: "tiles", in: cache)
            try #require(!harm.unreadable.isEmpty && !harm.unreadable.contains(victim), "\(harm)")
            let before = try workspace.contents("many.mbtiles")

            let found = try await workspace.mapframe("cache", "verify", "--cache", cache)
            #expect(found.status == 1, "\(found)")
            let named = tilesNamed(in: found.standardOutput)
            #expect(Set(named.keys) == harm.unreadable.union([victim]), "\(found)")
            for tile in harm.unreadable { #expect(named[tile]?.hasPrefix("its row is on a damaged page") == true, "\(tile): \(found)") }
            #expect(named[victim]?.contains("does not decode") == true, "\(found)")
            #expect(found.standardOutput.contains("every tile there is named above"), "\(found)")
            #expect(try workspace.contents("many.mbtiles") == before, "verify without --delete-corrupt changed the file")
            #expect(!workspace.exists("many.mbtiles-wal") && !workspace.exists("many.mbtiles-shm"))

            let mended = try await workspace.mapframe("cache", "verify", "--delete-corrupt", "--cache", cache)
            #expect(mended.status == 1, "\(mended)")
            let notes = tilesNamed(in: mended.standardOutput)
            #expect(notes[victim]?.hasSuffix("(deleted)") == true, "\(mended)")
            for tile in harm.unreadable {
                #expect(notes[tile]?.hasSuffix("(not deleted: database disk image is malformed)") == true, "\(tile): \(mended)")
            }
            #expect(mended.standardOutput.contains("cannot be mended where the file is"), "\(mended)")
            #expect(try await inventory.unchanged(in: cache) == inventory.tiles.subtracting(harm.unreadable).subtracting([victim]))
        }
    }

    @Test("verify names each tile whose index entry is on a damaged page; --delete-corrupt keeps them, whole as they are, and says the index cannot be rebuilt")
    func verifyDamagedIndexPage() async throws {
        try await Self.withManyTiles { workspace, cache in
            let inventory = try await TileInventory.read(cache)
            let harm = try await DamagedMBTiles.overwritePage(of: "tile_index", in: cache)
            try #require(harm.unreadable.isEmpty && !harm.unreachable.isEmpty, "\(harm)")
            let before = try workspace.contents("many.mbtiles")

            let found = try await workspace.mapframe("cache", "verify", "--cache", cache)
            #expect(found.status == 1, "\(found)")
            let named = tilesNamed(in: found.standardOutput)
            #expect(Set(named.keys) == harm.unreachable, "\(found)")
            #expect(named.values.allSatisfy { $0.hasPrefix("its index entry is on a damaged page") }, "\(found)")
            #expect(try workspace.contents("many.mbtiles") == before, "verify without --delete-corrupt changed the file")

            let mended = try await workspace.mapframe("cache", "verify", "--delete-corrupt", "--cache", cache)
            #expect(mended.status == 1, "\(mended)")
            #expect(mended.standardOutput.contains("could not rebuild the indexes of tiles (database disk image is malformed)"), "\(mended)")
            #expect(mended.standardOutput.contains("cannot be mended where the file is"), "\(mended)")
            #expect(try await inventory.unchanged(in: cache) == inventory.tiles)
        }
    }

    @Test("an index left listing tiles that are gone (a lost write) is rebuilt by --delete-corrupt, which keeps every tile and exits 0")
    func verifyStaleIndex() async throws {
        try await Self.withManyTiles { workspace, cache in
            let gone = try await DamagedMBTiles.loseIndexWrite(in: cache)
            let inventory = try await TileInventory.read(cache)

            let found = try await workspace.mapframe("cache", "verify", "--cache", cache)
            #expect(found.status == 1, "\(found)")
            #expect(found.standardOutput.contains("integrity: wrong # of entries in index tile_index"), "\(found)")
            let named = tilesNamed(in: found.standardOutput)
            #expect(Set(named.keys) == gone, "\(found)")
            #expect(named.values.allSatisfy { $0 == "the index lists it, but its row is not there" }, "\(found)")

            let mended = try await workspace.mapframe("cache", "verify", "--delete-corrupt", "--cache", cache)
            #expect(mended.status == 0, "\(mended)")
            #expect(mended.standardOutput.contains("3 corrupt tiles (mended)"), "\(mended)")
            #expect(mended.standardOutput.contains("mended: deleted 0 tiles; rebuilt every index; integrity now ok"), "\(mended)")
            #expect(try await inventory.unchanged(in: cache) == inventory.tiles)
            #expect(try await CacheContents.read(cache).integrity == "ok")

            let again = try await workspace.mapframe("cache", "verify", "--cache", cache)
            #expect(again.status == 0 && again.standardOutput.contains("integrity ok; 0 corrupt tiles"), "\(again)")
        }
    }

    @Test("verify counts tiles of the wrong size as corrupt, naming the size found and the sizes allowed")
    func verifyWrongSize() async throws {
        try await Self.withSeededCache { workspace, cache in
            let victim = try #require(Self.area.tiles.sorted().first)
            let png = try workspace.write(BlankPNG.data(width: 17, height: 5), to: "wrong-size.png")
            let replaced = try await IndependentSQLite.change(
                cache, "UPDATE tiles SET tile_data = ? WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?",
                [.blob(try Data(contentsOf: URL(fileURLWithPath: png))), .integer(victim.z), .integer(victim.x), .integer(victim.tmsRow)]
            )
            try #require(replaced == 1, "could not replace the tile: \(replaced) rows changed")

            let found = try await workspace.mapframe("cache", "verify", "--cache", cache)
            #expect(found.status == 1, "\(found)")
            #expect(found.standardOutput.contains("integrity ok; 1 corrupt tiles"), "\(found)")
            let line = found.standardOutput.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("\(victim): ") }
            #expect(line?.contains("17x5") == true && line?.contains("256x256") == true, "the tile, its size and the sizes allowed should be named: \(found)")
        }
    }

    @Test("vacuum succeeds and keeps every tile")
    func vacuum() async throws {
        try await Self.withSeededCache { workspace, cache in
            let purged = try await workspace.mapframe("cache", "purge", "--older-than", "0s", "--cache", cache)
            try #require(purged.status == 0, "\(purged)")
            let result = try await workspace.mapframe("cache", "vacuum", "--cache", cache)
            #expect(result.status == 0, "\(result)")
            #expect(result.standardOutput.contains("\(cache): vacuumed"), "\(result)")
            let contents = try await CacheContents.read(cache)
            #expect(contents.integrity == "ok")
            #expect(contents.tiles.isEmpty)
        }
    }

    @Test("a --cache file that is not MBTiles exits 2 with a clear message", arguments: [
        ["stats"], ["purge", "--older-than", "14d"], ["verify"], ["vacuum"],
    ])
    func notMBTiles(subcommand: [String]) async throws {
        try await Workspace.with { workspace in
            let notes = try workspace.write("not a database\n", to: "notes.mbtiles")
            let result = try await workspace.mapframe(["cache"] + subcommand + ["--cache", notes])
            #expect(result.status == 2, "\(result)")
            #expect(result.standardError.contains("notes.mbtiles") && result.standardError.contains("not an MBTiles file"), "\(result)")
            #expect(try workspace.contents("notes.mbtiles") == Data("not a database\n".utf8), "the file was changed")
        }
    }

    @Test("a bad --older-than exits 2 naming the option", arguments: ["14x", "d", "1.5h"])
    func badAge(age: String) async throws {
        try await Workspace.with { workspace in
            let cache = try await workspace.buildFixtures()
            let result = try await workspace.mapframe("cache", "purge", "--older-than", age, "--cache", cache)
            #expect(result.status == 2, "\(result)")
            #expect(result.standardError.contains("older-than") && result.standardError.contains(age), "\(result)")
        }
    }
}
