import Foundation
import ImageCodec
import MapFrameTestSupport
import MapGeometry
import Testing
@testable import TileStore
import UpstreamSimulator

/// MBTiles files that other tools made (see `ForeignMBTiles`), read as they are: plain tables
/// or views, metadata missing or partial, no MapFrame tables, read-only files and folders.
@Suite("MBTiles files from other tools")
struct ForeignMBTilesTests {
    /// A 2 x 2 block at zoom 16 in Cambridge, each tile its own solid colour.
    static let block = (21585...21586).flatMap { y in (32792...32793).map { x in TileID(z: 16, x: x, y: y) } }
    /// A tile next to the block, in no file.
    static let absent = TileID(z: 16, x: 32794, y: 21586)

    static func blockTiles() throws -> [TileID: Data] {
        Dictionary(uniqueKeysWithValues: try block.map { ($0, try SimulatedTiles.png(for: $0)) })
    }

    /// A style for stores that never fetch.
    static func offlineSource() throws -> TileSource {
        try SimulatedStyle().source(defaultBaseURL: "http://127.0.0.1:9")
    }

    /// Checks that the store draws every tile of the block in its own colour.
    static func expectBlockDrawn(by store: TileStore, sourceLocation: SourceLocation = #_sourceLocation) async {
        for tile in block {
            let lookup = await store.drawn(tile)
            #expect(lookup.image?.pixel(x: 128, y: 128) == SimulatedTiles.colour(for: tile),
                    "\(tile): \(lookup.missingTile.map(\.description) ?? "a tile of the wrong colour")", sourceLocation: sourceLocation)
        }
    }

    @Test("another tool's file is read as it is: its tiles count as cached, never expire, and are drawn", arguments: ForeignMBTiles.Layout.all)
    func readAsItIs(layout: ForeignMBTiles.Layout) async throws {
        let directory = try TemporaryDirectory("foreign")
        defer { directory.remove() }
        do {
            let path = directory.path("atlas.mbtiles")
            try await ForeignMBTiles.write(layout, to: path, tiles: Self.blockTiles())
            let before = try FileSnapshot(path)

            let cache = try MBTilesCache(openingExisting: path)
            let store = TileStore(source: try Self.offlineSource(), cache: MBTilesBackend(cache))
            let fills = await store.fills(Self.block + [Self.absent])
            #expect(Self.block.allSatisfy { fills[$0] == .cached }, "\(fills)")
            #expect(fills[Self.absent] == .missing(MissingTile(tile: Self.absent, reason: .notCached)))
            await Self.expectBlockDrawn(by: store)
            #expect(try cache.lookup(Self.block[0], at: Date()).stored?.freshness == nil)
            let statistics = try cache.statistics(at: Date())
            #expect(statistics.tileCount == 4 && statistics.untrackedCount == 4 && statistics.expiredCount == 0, "\(statistics)")
            let found = try cache.layout()
            #expect(found.tilesIsView == layout.tilesAsView && found.hasMetadata == (layout.metadata != nil) && !found.hasFreshnessTables, "\(found)")
            try await store.flush()

            #expect(try FileSnapshot(path) == before, "reading changed the file or left files beside it")
        }
    }

    /// What a file of the block's 256 px PNG tiles at zoom 16 is described as, by where its name
    /// and format were found, and the metadata's format when the tiles contradict it.
    static func description(
        _ name: String, _ nameSource: TilesetDescription.Source, format formatSource: TilesetDescription.Source, contradicting: String? = nil
    ) -> TilesetDescription {
        TilesetDescription(
            name: name, nameSource: nameSource, format: "png", formatSource: formatSource, contradictedFormat: contradicting,
            tileSize: 256, tileSizeSource: .tileBytes, zooms: [16]
        )
    }

    @Test("the name and format come from the metadata, else from the file name and a tile's bytes, and so does the tile size", arguments: [
        (ForeignMBTiles.Layout.mobac, description("Cambridge atlas", .metadata, format: .tileBytes)),
        (.mapProxy, description("atlas", .fileName, format: .tileBytes)),
        (.mbutil, description("mbutil export", .metadata, format: .metadata)),
        (.bareMetadata, description("atlas", .fileName, format: .tileBytes)),
        (ForeignMBTiles.Layout("empty metadata", tilesAsView: false, metadata: [:]), description("atlas", .fileName, format: .tileBytes)),
        (ForeignMBTiles.Layout("wrong format", tilesAsView: false, metadata: ["format": "image/jpeg"]),
         description("atlas", .fileName, format: .tileBytes, contradicting: "image/jpeg")),
        (ForeignMBTiles.Layout("media type", tilesAsView: true, metadata: ["format": "image/png"]), description("atlas", .fileName, format: .metadata)),
    ])
    func tilesetDescription(layout: ForeignMBTiles.Layout, expected: TilesetDescription) async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("atlas.mbtiles").path
            try await ForeignMBTiles.write(layout, to: path, tiles: Self.blockTiles())
            #expect(try MBTilesCache(openingExisting: path).tilesetDescription() == expected)
        }
    }

    @Test("a tile size in the metadata is taken, and a tile's bytes that disagree are said; one MapFrame does not draw refuses the file")
    func declaredTileSize() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("atlas.mbtiles").path
            try await ForeignMBTiles.write(.init("sized", tilesAsView: false, metadata: ["tile_size": "512"]), to: path, tiles: Self.blockTiles())
            let described = try MBTilesCache(openingExisting: path).tilesetDescription()
            #expect(described.tileSize == 512 && described.tileSizeSource == .metadata && described.contradictingTileSide == 256, "\(described)")
            #expect(described.readFromTiles?.contains("tile size 512 px, from the metadata (a tile's bytes give 256 px)") == true, "\(described)")

            try await IndependentSQLite.execute(path, "UPDATE metadata SET value = '4096' WHERE name = 'tile_size'")
            #expect(throws: CacheError.undrawable(path: path, reason: "its metadata tile_size is \"4096\"; a tile must be 256, 512 or 1024 pixels square")) {
                try MBTilesCache(openingExisting: path).tilesetDescription()
            }
        }
    }

    @Test("with no tile of a known format and no format entry, the format is unknown, and said so")
    func unknownFormat() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("atlas.mbtiles").path
            try await ForeignMBTiles.write(.mapProxy, to: path, tiles: [Self.block[0]: randomBytes(count: 300)])
            let described = try MBTilesCache(openingExisting: path).tilesetDescription()
            #expect(described.format == nil && described.formatSource == nil && described.tileSize == nil)
            #expect(described.description.contains("format: unknown"), "\(described)")
        }
    }

    @Test("a file another tool made gains nothing until a fetched tile is stored; then MapFrame's tables, and it keeps its own metadata",
          arguments: [ForeignMBTiles.Layout.mobac, .mapProxy])
    func fillingAnotherToolsFile(layout: ForeignMBTiles.Layout) async throws {
        let world = try UpstreamWorld()
        let path = world.directory.appendingPathComponent("atlas.mbtiles").path
        try await ForeignMBTiles.write(layout, to: path, tiles: Self.blockTiles())
        let before = try FileSnapshot(path)
        let clock = world.clock
        let store = TileStore(
            source: world.source, cache: MBTilesBackend(try MBTilesCache(openingExisting: path, readOnly: false)),
            fetcher: world.fetcher, clock: { clock.now }
        )

        let cached = await store.fills(Self.block)
        #expect(cached.values.allSatisfy { $0 == .cached }, "\(cached)")
        try await store.flush()
        #expect(try FileSnapshot(path).bytes == before.bytes, "drawing cached tiles wrote to the file")
        #expect(world.upstream.requests.isEmpty, "tiles with no freshness record never expire, so are never asked for")

        #expect(await store.tile(Self.absent).fill == .fetched)
        try await store.flush()
        let tables = Set(try await IndependentSQLite.query(path, "SELECT name FROM sqlite_master WHERE type = 'table'").map(\.[0]))
        #expect(tables.isSuperset(of: ["tiles", "metadata", "mapframe_tile_state", "mapframe_missing_tiles"]), "\(tables)")
        let metadata = Dictionary(uniqueKeysWithValues: try await IndependentSQLite.query(path, "SELECT name, value FROM metadata").map { ($0[0], $0[1]) })
        #expect(metadata["name"] == (layout.metadata?["name"] ?? world.source.title), "\(metadata)")
        #expect(metadata["format"] == "png" && metadata["maxzoom"] == "16", "\(metadata)")
        #expect(try await IndependentSQLite.query(path, "SELECT count(*) FROM mapframe_tile_state") == [["1"]], "only the fetched tile has a freshness record")
        await Self.expectBlockDrawn(by: store)
    }

    @Test("a view over map and images cannot be written: a fetched tile is reported not stored, saying why, and the file is untouched")
    func viewIsNotWritten() async throws {
        let world = try UpstreamWorld()
        let path = world.directory.appendingPathComponent("mbutil.mbtiles").path
        try await ForeignMBTiles.write(.mbutil, to: path, tiles: Self.blockTiles())
        let before = try FileSnapshot(path)
        let cache = try MBTilesCache(openingExisting: path, readOnly: false)
        #expect(cache.readOnlyReason?.contains("view") == true, "\(cache.readOnlyReason ?? "writable")")
        let clock = world.clock
        let store = TileStore(source: world.source, cache: MBTilesBackend(cache), fetcher: world.fetcher, clock: { clock.now })

        #expect(await store.fills(Self.block).values.allSatisfy { $0 == .cached })
        let missing = try #require(await store.tile(Self.absent).fill.missing, "the tile cannot have been stored")
        guard case .notStored(let message) = missing.reason else {
            Issue.record("expected not stored, got \(missing)")
            return
        }
        #expect(message.contains(path) && message.contains("cannot be written") && message.contains("view"), "\(message)")
        await Self.expectBlockDrawn(by: store)
        try await store.flush()
        #expect(throws: CacheError.readOnly(path: path, reason: cache.readOnlyReason ?? "")) { try cache.setMetadata(["name": "x"]) }
        #expect(try FileSnapshot(path) == before)
    }

    enum Lock: String, CaseIterable { case file, folder }

    /// A cache as MapFrame makes it: WAL mode, freshness records, fresh for a week.
    static func writeMapFrameCache(at path: String, clock: TestClock) throws {
        let cache = try MBTilesCache(creatingIfNeeded: path)
        let freshness = TileFreshness(etag: "\"v1\"", lastModified: nil, expiresAt: clock.now + 7 * 86_400, fetchedAt: clock.now)
        for (tile, data) in try blockTiles() { try cache.store(data, for: tile, freshness: freshness) }
    }

    @Test("a read-only file or folder is read as it is, every write is refused saying why, and nothing changes",
          arguments: Lock.allCases, ["MOBAC", "MapFrame"])
    func readOnlyLocation(lock: Lock, maker: String) async throws {
        let world = try UpstreamWorld()
        let folder = world.directory.appendingPathComponent("locked").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/atlas.mbtiles"
        if maker == "MOBAC" {
            try await ForeignMBTiles.write(.mobac, to: path, tiles: Self.blockTiles())
        } else {
            try Self.writeMapFrameCache(at: path, clock: world.clock)
        }
        let before = try FileSnapshot(path)
        let readOnly = try await ReadOnlyLock(lock == .file ? path : folder)
        defer { readOnly.unlock() }

        let cache = try MBTilesCache(openingExisting: path, readOnly: false)
        let reason = try #require(cache.readOnlyReason, "a read-only \(lock) was opened for writing")
        #expect(reason.contains(lock == .file ? "the file" : "its folder"), "\(reason)")
        let clock = world.clock
        let store = TileStore(source: world.source, cache: MBTilesBackend(cache), fetcher: world.fetcher, clock: { clock.now })
        #expect(await store.fills(Self.block).values.allSatisfy { $0 == .cached })
        await Self.expectBlockDrawn(by: store)
        let missing = await store.tile(Self.absent).fill.missing
        #expect(missing?.description.contains("not stored: cache: \(path) cannot be written") == true, "\(missing.map(\.description) ?? "stored")")
        try await store.flush()
        #expect(throws: CacheError.readOnly(path: path, reason: reason)) { try cache.store(Data([1]), for: Self.absent) }
        #expect(throws: CacheError.readOnly(path: path, reason: reason)) { try cache.purge(fetchedBefore: .distantFuture) }
        #expect(try cache.integrityCheck().isSound)

        readOnly.unlock()
        #expect(try FileSnapshot(path) == before)
    }

    @Test("a WAL file read while no one writes it leaves nothing beside it, and a writer that comes and goes is seen")
    func immutableReaderSeesLaterWrites() throws {
        try withTemporaryDirectory { directory in
            // SQLite opens such a file by a URI, in which ?, # and % mean something.
            let folder = directory.appendingPathComponent("odd ?#%41 name")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let path = folder.appendingPathComponent("cache.mbtiles").path
            let clock = TestClock()
            try Self.writeMapFrameCache(at: path, clock: clock)
            let reader = try MBTilesCache(openingExisting: path)
            #expect(try reader.tileData(for: Self.block[0]) == SimulatedTiles.png(for: Self.block[0]))
            #expect(try reader.tileData(for: Self.absent) == nil)
            #expect(try FileSnapshot(path).neighbours == ["cache.mbtiles"], "reading made files beside the cache")

            // A writer that stores a tile and closes: its checkpoint rewrites the file itself.
            let newTile = try SimulatedTiles.png(for: Self.absent)
            try MBTilesCache(creatingIfNeeded: path).store(newTile, for: Self.absent)
            #expect(try FileSnapshot(path).neighbours == ["cache.mbtiles"], "the writer should have checkpointed and closed")
            #expect(try reader.tileData(for: Self.absent) == newTile)

            // A writer that is still open: its tiles are in the -wal file.
            let writer = try MBTilesCache(creatingIfNeeded: path)
            let replacement = try SimulatedTiles.png(for: Self.absent, version: 2)
            try writer.store(replacement, for: Self.absent)
            #expect(try reader.tileData(for: Self.absent) == replacement)
            #expect(try reader.tileData(for: Self.block[1]) == SimulatedTiles.png(for: Self.block[1]))
        }
    }

    @Test("a reader opened as immutable is opened again once a writer has come, not before every statement")
    func immutableReaderReopensOnce() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("cache.mbtiles").path
            try Self.writeMapFrameCache(at: path, clock: TestClock())
            let reader = try MBTilesCache(openingExisting: path)
            #expect(try reader.tileData(for: Self.block[0]) == SimulatedTiles.png(for: Self.block[0]))
            let immutable = reader.currentDatabase

            // A writer that stays open, with its -wal file beside the cache: the reader opens the
            // file again, now without immutable=1, at its next statement, and then keeps it.
            let writer = try MBTilesCache(creatingIfNeeded: path)
            try writer.store(try SimulatedTiles.png(for: Self.absent), for: Self.absent)
            #expect(try reader.tileData(for: Self.absent) == SimulatedTiles.png(for: Self.absent))
            let reopened = reader.currentDatabase
            #expect(reopened != immutable, "the writer's -wal file should have had the file opened again")
            for tile in Self.block.prefix(4) {
                #expect(try reader.tileData(for: tile) == SimulatedTiles.png(for: tile))
                #expect(reader.currentDatabase == reopened, "opened again before a statement with nothing changed")
            }
            withExtendedLifetime(writer) {}
        }
    }

    /// `tile_data` values a broken tool may leave, and what the message must say.
    static let unusableValues: [(sql: String, mentions: String)] = [
        ("'a PNG, honestly'", "text"),
        ("NULL", "NULL"),
        ("42", "a number"),
        ("X''", "empty"),
        ("zeroblob(\(MBTilesCache.maxTileBytes + 1))", "\(MBTilesCache.maxTileBytes + 1) bytes"),
    ]

    @Test("a tile_data that is not image bytes is a grey tile with a warning, never read whole, and verify names it",
          arguments: [ForeignMBTiles.Layout.mobac, .mbutil], unusableValues)
    func unusableTileData(layout: ForeignMBTiles.Layout, value: (sql: String, mentions: String)) async throws {
        let directory = try TemporaryDirectory("foreign")
        defer { directory.remove() }
        do {
            let path = directory.path("atlas.mbtiles")
            try await ForeignMBTiles.write(layout, to: path, tiles: Self.blockTiles())
            let victim = Self.block[0]
            try await ForeignMBTiles.setTileData(of: victim, in: path, toSQL: value.sql)
            let cache = try MBTilesCache(openingExisting: path)
            let store = TileStore(source: try Self.offlineSource(), cache: MBTilesBackend(cache))

            guard case .undecodable(let message)? = (await store.drawn(victim)).missingReason else {
                Issue.record("\(value.sql) was not reported undecodable")
                return
            }
            #expect(message.contains(value.mentions), "\(message)")
            #expect(throws: CacheError.unusableTile(path: path, tile: victim, reason: message)) { try cache.tileData(for: victim) }
            let supplied = await store.tile(victim)
            #expect(supplied.stored == nil, "the server must never send it")
            #expect(supplied.fill.missing?.reason.isFailure == false, "nothing failed: the cache has no usable tile: \(supplied.fill)")
            for tile in Self.block.dropFirst() { #expect((await store.drawn(tile)).image != nil) }
            let corrupt = try cache.survey(checkingWith: TileDecoder(tileSize: 256)).corrupt
            #expect(corrupt.map(\.tile) == [victim] && corrupt.map(\.reason) == [message], "\(corrupt)")
        }
    }

    @Test("online, a tile stored as text is fetched again and replaced")
    func textTileIsReplaced() async throws {
        let world = try UpstreamWorld()
        let tile = Self.block[0]
        #expect(await world.store.tile(tile).fill == .fetched)
        try await ForeignMBTiles.setTileData(of: tile, in: world.cachePath, toSQL: "'not a tile'")
        #expect(await world.store.tile(tile).fill == .fetched)
        #expect(world.requests(for: tile).count == 2)
        #expect(try await IndependentSQLite.query(world.cachePath, "SELECT typeof(tile_data) FROM tiles") == [["blob"]])
        try await world.expectCached(tile, bytes: SimulatedTiles.png(for: tile))
    }
}
