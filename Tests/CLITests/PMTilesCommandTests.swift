import Foundation
import ImageCodec
import MapFrameTestSupport
import MapGeometry
import Testing

/// PMTiles archives at the command line: `cache copy` writes them and reads them, `snapshot`,
/// `play`, `goldens` and `serve` draw from them with `--cache FILE.pmtiles`, the pmtiles package
/// from PyPI reads what MapFrame writes and writes what MapFrame reads, and every archive MapFrame
/// cannot draw from is refused with exit status 2.
@Suite("PMTiles archives at the command line")
struct PMTilesCommandTests {
    /// Runs `body` with the fixture tiles as `tiles.mbtiles` and, copied by `cache copy`, as
    /// `tiles.pmtiles`, and what the copy printed.
    static func withArchive(_ body: (Workspace, _ mbtiles: String, _ pmtiles: String, _ copy: CommandResult) async throws -> Void) async throws {
        try await Workspace.with { workspace in
            let mbtiles = try await workspace.buildFixtures()
            let pmtiles = workspace.path("tiles.pmtiles")
            let copy = try await workspace.mapframe("cache", "copy", mbtiles, pmtiles, "--style", "osm")
            try #require(copy.status == 0, "\(copy)")
            try await body(workspace, mbtiles, pmtiles, copy)
        }
    }

    /// A snapshot of `scene` from `cache`, offline: its pixels and its report line.
    static func snapshot(_ workspace: Workspace, scene: String, cache: String, output: String) async throws -> (pixels: [Colour], counts: FillCounts?) {
        let result = try await workspace.mapframe("snapshot", scene, "--cache", cache, "--offline", "--output", workspace.path(output))
        try #require(result.status == 0, "\(result)")
        return (try workspace.image(output).allPixels, result.errorLines.first.flatMap(FillCounts.init))
    }

    /// Python that reads every tile of the MBTiles file `sys.argv[2]` into `expected`, by z/x/y.
    static let readMBTiles = IndependentSQLite.pythonReadingTiles

    /// Every tile of the MBTiles file at `path`, its bytes in hexadecimal by zoom, column and
    /// row, read through `IndependentSQLite`.
    static func storedTiles(_ path: String) async throws -> [[String]: String] {
        let rows = try await IndependentSQLite.query(path, "SELECT zoom_level, tile_column, tile_row, hex(tile_data) FROM tiles")
        return Dictionary(uniqueKeysWithValues: rows.map { (Array($0[0..<3]), $0[3]) })
    }

    /// Python that reads every tile of the archive `sys.argv[1]` with pmtiles, compares each with
    /// the MBTiles file `sys.argv[2]`, and prints the count and what the header and metadata say.
    static let readArchive = readMBTiles + """
        from pmtiles.reader import Reader, MmapSource, all_tiles
        with open(sys.argv[1], "rb") as f:
            source = MmapSource(f)
            reader = Reader(source)
            header, metadata = reader.header(), reader.metadata()
            found = dict(all_tiles(source))
            assert found.keys() == expected.keys(), "tiles differ: %d in the archive, %d in the MBTiles" % (len(found), len(expected))
            for index, (zxy, data) in enumerate(expected.items()):
                assert found[zxy] == data, "tile %s differs" % (zxy,)
                # Reader.get reads the directories afresh every time: a sample is enough.
                assert index % 50 or reader.get(*zxy) == data, "tile %s differs through get" % (zxy,)
        print(len(found), header["tile_type"].name, header["internal_compression"].name, header["clustered"], header["min_zoom"], header["max_zoom"], metadata["attribution"], sep="|")
        """

    @Test("a snapshot drawn from the archive matches the one drawn from its MBTiles pixel for pixel, every tile cached")
    func snapshotMatches() async throws {
        try await Self.withArchive { workspace, mbtiles, pmtiles, copy in
            #expect(copy.standardOutput.contains("osm: copied"), "\(copy)")
            let scene = try workspace.write(Scenes.withMarkers, to: "scene.json")
            let fromMBTiles = try await Self.snapshot(workspace, scene: scene, cache: mbtiles, output: "mbtiles.png")
            let fromArchive = try await Self.snapshot(workspace, scene: scene, cache: pmtiles, output: "pmtiles.png")
            #expect(fromArchive.pixels == fromMBTiles.pixels)
            let counts = try #require(fromArchive.counts)
            #expect(counts.tiles > 0 && counts.cached == counts.tiles, "\(counts)")
        }
    }

    @Test("play and goldens draw from the archive as from its MBTiles")
    func playAndGoldens() async throws {
        try await Self.withArchive { workspace, mbtiles, pmtiles, _ in
            let script = try workspace.write(#"{\#(Scenes.camera), "steps": [{"tap": {"x": 160, "y": 240}}, {"pan": {"dx": 20, "dy": 0}}]}"#, to: "script.json")
            for (cache, folder) in [(mbtiles, "from-mbtiles"), (pmtiles, "from-pmtiles")] {
                let played = try await workspace.mapframe("play", script, "--cache", cache, "--offline", "--out-dir", workspace.path(folder))
                try #require(played.status == 0, "\(played)")
            }
            for frame in ["00.png", "01.png", "02.png"] {
                #expect(try workspace.image("from-pmtiles/" + frame).allPixels == workspace.image("from-mbtiles/" + frame).allPixels, "frame \(frame)")
            }
            try workspace.write(Scenes.withMarkers, to: "scenes/route.json")
            let recorded = try await workspace.mapframe("goldens", "record", workspace.path("scenes"), workspace.path("goldens"), "--cache", mbtiles, "--offline")
            try #require(recorded.status == 0, "\(recorded)")
            let checked = try await workspace.mapframe("goldens", "check", workspace.path("scenes"), workspace.path("goldens"), "--cache", pmtiles, "--offline")
            #expect(checked.status == 0, "\(checked)")
        }
    }

    @Test("copied back to MBTiles, every tile is as it was, byte for byte")
    func copyBack() async throws {
        try await Self.withArchive { workspace, mbtiles, pmtiles, _ in
            let back = workspace.path("back.mbtiles")
            let copied = try await workspace.mapframe("cache", "copy", pmtiles, back)
            try #require(copied.status == 0, "\(copied)")
            let (original, copiedBack) = (try await Self.storedTiles(mbtiles), try await Self.storedTiles(back))
            let same = copiedBack == original
            #expect(same, "\(copiedBack.count) tiles back, \(original.count) before")
        }
    }

    @Test(
        "the pmtiles package reads every tile MapFrame wrote, byte for byte, and its header and metadata",
        .enabled(if: TestClientPython.unavailability == nil, "\(TestClientPython.unavailability ?? "")")
    )
    func pythonReadsMapFrame() async throws {
        try await Self.withArchive { workspace, mbtiles, pmtiles, _ in
            let printed = try await TestClientPython.run(Self.readArchive, [pmtiles, mbtiles]).split(separator: "|")
            #expect(printed.count == 7, "\(printed)")
            #expect(Int(printed[0]) ?? 0 > 0)
            #expect(Array(printed[1...5]) == ["PNG", "GZIP", "True", "16", "17"])
            #expect(printed[6] == "© OpenStreetMap contributors")
        }
    }

    @Test(
        "MapFrame draws what the pmtiles package wrote, as it draws the MBTiles, and copies every tile back out",
        .enabled(if: TestClientPython.unavailability == nil, "\(TestClientPython.unavailability ?? "")")
    )
    func mapFrameReadsPython() async throws {
        try await Workspace.with { workspace in
            let mbtiles = try await workspace.buildFixtures()
            let archive = workspace.path("python.pmtiles")
            _ = try await TestClientPython.run(Self.readMBTiles + """
                from pmtiles.writer import Writer
                from pmtiles.tile import zxy_to_tileid, TileType, Compression
                with open(sys.argv[1], "wb") as f:
                    writer = Writer(f)
                    for tile_id, data in sorted((zxy_to_tileid(*zxy), data) for zxy, data in expected.items()):
                        writer.write_tile(tile_id, data)
                    writer.finalize({"tile_type": TileType.PNG, "tile_compression": Compression.NONE}, {"attribution": "Python"})
                """, [archive, mbtiles])
            let scene = try workspace.write(Scenes.withMarkers, to: "scene.json")
            let fromMBTiles = try await Self.snapshot(workspace, scene: scene, cache: mbtiles, output: "mbtiles.png")
            let fromArchive = try await Self.snapshot(workspace, scene: scene, cache: archive, output: "python.png")
            #expect(fromArchive.pixels == fromMBTiles.pixels)
            let back = workspace.path("back.mbtiles")
            let copied = try await workspace.mapframe("cache", "copy", archive, back)
            try #require(copied.status == 0, "\(copied)")
            let (original, copiedBack) = (try await Self.storedTiles(mbtiles), try await Self.storedTiles(back))
            let same = copiedBack == original
            #expect(same, "\(copiedBack.count) tiles back, \(original.count) before")
        }
    }

    @Test("a copy into one file of tiles says how many routes stay behind, and still copies every tile")
    func routesLeftBehindAreNamed() async throws {
        try await Workspace.with { workspace in
            let mbtiles = try await workspace.buildFixtures()
            let directory = workspace.path("cache")
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: mbtiles, toPath: directory + "/osm.mbtiles")
            try await workspace.addRoutes(["aaaa000000000001", "aaaa000000000002"], to: directory + "/routes.sqlite")
            for target in ["one.pmtiles", "one.mbtiles"] {
                let copy = try await workspace.mapframe("cache", "copy", directory, workspace.path(target), "--style", "osm")
                #expect(copy.status == 0, "\(copy)")
                #expect(copy.standardOutput.contains("osm: copied"), "\(copy)")
                #expect(
                    copy.standardError.contains("copy: 2 routes in \(directory) not copied: \(workspace.path(target)) is one file of tiles, which holds no routes"),
                    "\(copy)"
                )
            }
            // From one file, which holds no routes, nothing is said of them.
            let plain = try await workspace.mapframe("cache", "copy", mbtiles, workspace.path("other.pmtiles"), "--style", "osm")
            #expect(plain.status == 0 && !plain.standardError.contains("routes"), "\(plain)")
        }
    }

    @Test(
        "a large archive with leaf directories, runs and repeated tiles is read whole by the pmtiles package and by MapFrame",
        .enabled(if: TestClientPython.unavailability == nil, "\(TestClientPython.unavailability ?? "")")
    )
    func largeArchive() async throws {
        try await Workspace.with { workspace in
            // 12,000 scattered zoom 14 tiles, every fifth the same bytes, and all of zoom 6 sea
            // but for a few islands: runs thousands of tiles long.
            let mbtiles = workspace.path("large.mbtiles")
            var random = SeededRandom(seed: 7)
            let same = Data(String(repeating: "repeated", count: 20).utf8)
            var tiles: [[IndependentSQLite.Value]] = [], taken = Set<[Int]>()
            while tiles.count < 12_000 {
                let (x, y) = (Int.random(in: 0..<16_384, using: &random), Int.random(in: 0..<16_384, using: &random))
                guard taken.insert([x, y]).inserted else { continue }
                let data = tiles.count % 5 == 0 ? same : random.bytes(count: Int.random(in: 20..<400, using: &random))
                tiles.append([.integer(14), .integer(x), .integer(y), .blob(data)])
            }
            for x in 0..<64 {
                for y in 0..<64 { tiles.append([.integer(6), .integer(x), .integer(y), .blob(Data(((x * 7 + y) % 97 != 0 ? "sea" : "island \(x)").utf8))]) }
            }
            try await IndependentSQLite.execute(mbtiles, """
                CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
                CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);
                CREATE TABLE metadata (name TEXT, value TEXT);
                """)
            try await IndependentSQLite.changeEach(mbtiles, "INSERT INTO tiles VALUES (?, ?, ?, ?)", tiles)
            let archive = workspace.path("large.pmtiles")
            let copy = try await workspace.mapframe("cache", "copy", mbtiles, archive)
            try #require(copy.status == 0, "\(copy)")
            #expect(copy.standardOutput.contains("copied 16096 tiles"), "\(copy)")
            let leaves = try #require(copy.standardOutput.firstMatch(of: /(\d+) leaf directories/).flatMap { Int($0.1) }, "\(copy)")
            #expect(leaves > 1)
            let printed = try await TestClientPython.run(Self.readArchive, [archive, mbtiles])
            #expect(printed.hasPrefix("16096|UNKNOWN|GZIP|True|6|14|"), "\(printed)")
            let back = workspace.path("back.mbtiles")
            let copied = try await workspace.mapframe("cache", "copy", archive, back)
            try #require(copied.status == 0, "\(copied)")
            let (original, copiedBack) = (try await Self.storedTiles(mbtiles), try await Self.storedTiles(back))
            let sameTiles = copiedBack == original
            #expect(sameTiles, "\(copiedBack.count) tiles back, \(original.count) before")
        }
    }

    /// A bad archive, and words the refusal must hold.
    struct Refusal: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let archive: @Sendable () -> Data
        let words: [String]
    }

    static let tile = [(z: 16, x: 32_793, y: 21_586, data: Data("not drawn".utf8))]
    static let refusals = [
        Refusal(testDescription: "vector tiles", archive: { TestPMTiles.archive(tiles: tile, options: TestPMTiles.Options(tileType: 1)) }, words: ["tile type is 1 (MVT", "allowed raster tiles"]),
        Refusal(testDescription: "the character 3 as the version", archive: { TestPMTiles.archive(tiles: tile, options: TestPMTiles.Options(version: 0x33)) }, words: ["0x33"]),
        Refusal(testDescription: "brotli directories", archive: { TestPMTiles.archive(tiles: tile, options: TestPMTiles.Options(internalCompression: 3)) }, words: ["3 (brotli)", "allowed 1 (none) or 2 (gzip)"]),
        Refusal(testDescription: "a file shorter than its header", archive: { TestPMTiles.archive(tiles: tile).prefix(90) }, words: ["90 bytes, shorter than the 127-byte PMTiles header"]),
        Refusal(testDescription: "a tile outside the file", archive: {
            TestPMTiles.archive(entries: [TestPMTiles.Entry(tileID: 5, offset: 0, length: 400, runLength: 1)], tileData: Data(count: 10))
        }, words: ["outside the 10 bytes of tile data"]),
    ]

    @Test("snapshot refuses an archive it cannot draw from with exit status 2, naming the value and what is allowed", arguments: refusals)
    func refused(_ refusal: Refusal) async throws {
        try await Workspace.with { workspace in
            let archive = try workspace.write(refusal.archive(), to: "bad.pmtiles")
            let scene = try workspace.write(Scenes.withMarkers, to: "scene.json")
            let result = try await workspace.mapframe("snapshot", scene, "--cache", archive, "--offline", "--output", workspace.path("out.png"))
            #expect(result.status == 2, "\(result)")
            for word in refusal.words { #expect(result.standardError.contains(word), "\(result)") }
            #expect(result.standardError.contains("bad.pmtiles"), "the message names the file: \(result)")
            #expect(!workspace.exists("out.png"))
        }
    }

    @Test("a missing archive, seeding an archive and verifying one are refused with exit status 2")
    func otherRefusals() async throws {
        try await Self.withArchive { workspace, _, pmtiles, _ in
            let scene = try workspace.write(Scenes.withMarkers, to: "scene.json")
            let missing = try await workspace.mapframe("snapshot", scene, "--cache", workspace.path("none.pmtiles"), "--offline", "--output", workspace.path("out.png"))
            #expect(missing.status == 2 && missing.standardError.contains("none.pmtiles does not exist"), "\(missing)")
            let seed = try await workspace.mapframe("seed", "--style", "opencyclemap", "--bbox", "0.13,52.2,0.14,52.21", "--zoom", "15-15", "--cache", pmtiles)
            #expect(seed.status == 2 && seed.standardError.contains("only reads"), "\(seed)")
            let verify = try await workspace.mapframe("cache", "verify", "--cache", pmtiles)
            #expect(verify.status == 2 && verify.standardError.contains("PMTiles archive"), "\(verify)")
            let stats = try await workspace.mapframe("cache", "stats", "--cache", pmtiles)
            #expect(stats.status == 0 && stats.standardOutput.contains("PMTiles 3: png tiles, zooms 16-17, gzip directories, clustered"), "\(stats)")
        }
    }

    @Test("serve --cache FILE.pmtiles sends the archive's tiles as stored, and a tile in a damaged leaf directory is a 404, never a 5xx")
    func serve() async throws {
        try await Self.withArchive { workspace, mbtiles, pmtiles, _ in
            let centre = slippyTile(latitude: 52.2055, longitude: 0.1414, zoom: 16)
            let stored = try await IndependentSQLite.query(
                mbtiles, "SELECT hex(tile_data) FROM tiles WHERE zoom_level = 16 AND tile_column = ? AND tile_row = ?",
                [.integer(centre.x), .integer((1 << 16) - 1 - centre.y)]
            ).first?.first
            let server = try await ServeProcess.start(
                ["--cache", pmtiles, "--cache-dir", workspace.path("routes"), "--offline", "--missing", "404"], in: workspace.directory
            )
            defer { server.stop() }
            let answer = try await TestHTTP.get(server.url("tiles/osm/16/\(centre.x)/\(centre.y).png"))
            #expect(answer.status == 200 && stored.map(IndependentSQLite.bytes(ofHex:)) == Data(answer.body))
            #expect(try await TestHTTP.get(server.url("tiles/osm/3/1/1.png")).status == 404, "a tile the archive lacks")

            // A root of two leaves: the first good, the second pointing past the tile data.
            let good = Data("good".utf8)
            let goodLeaf = TestPMTiles.gzip(TestPMTiles.directory([TestPMTiles.Entry(tileID: 1, offset: 0, length: 4, runLength: 1)]))
            let badLeaf = TestPMTiles.gzip(TestPMTiles.directory([TestPMTiles.Entry(tileID: 2, offset: 100, length: 4, runLength: 1)]))
            let damaged = try workspace.write(TestPMTiles.archive(
                entries: [], tileData: good,
                rootEntries: [
                    TestPMTiles.Entry(tileID: 1, offset: 0, length: UInt32(goodLeaf.count), runLength: 0),
                    TestPMTiles.Entry(tileID: 2, offset: UInt64(goodLeaf.count), length: UInt32(badLeaf.count), runLength: 0),
                ],
                leaves: goodLeaf + badLeaf
            ), to: "damaged.pmtiles")
            let second = try await ServeProcess.start(
                ["--cache", damaged, "--cache-dir", workspace.path("routes"), "--offline", "--missing", "404"], in: workspace.directory
            )
            defer { second.stop() }
            let bad = try await TestHTTP.get(second.url("tiles/osm/1/0/1.png"))
            #expect(bad.status == 404, "\(bad.status) \(String(decoding: bad.body, as: UTF8.self))")
        }
    }
}
