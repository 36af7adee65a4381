import Foundation
import ImageCodec
import MapFrameTestSupport
import MapGeometry
import Testing
@testable import TileStore

/// PMTiles archives written by the tests from the specification (`TestPMTiles`), read through
/// `PMTilesArchive` and `PMTilesBackend`: the numbering, the directory codec, leaf directories,
/// runs, shared contents, both directory compressions, and every refusal.
@Suite("PMTiles: reading")
struct PMTilesReadingTests {
    /// Distinct small contents: any bytes will do where nothing decodes them.
    static func bytes(_ seed: Int) -> Data { Data("tile \(seed) ".utf8) + randomBytes(count: 5 + seed % 40, seed: UInt64(seed) + 1) }

    /// Writes `archive` to a file and opens it as a backend.
    static func backend(_ archive: Data, in directory: URL) async throws(CacheError) -> PMTilesBackend {
        let path = directory.appendingPathComponent("test.pmtiles").path
        try! archive.write(to: URL(fileURLWithPath: path))
        return try await PMTilesBackend.open(path)
    }

    /// Why opening `archive` is refused.
    static func refusal(_ archive: Data) async throws -> String {
        try await withTemporaryDirectory { directory in
            do throws(CacheError) {
                _ = try await backend(archive, in: directory)
                Issue.record("the archive should be refused")
                return ""
            } catch .unusableArchive(_, let reason) {
                return reason
            } catch {
                Issue.record("expected unusableArchive, got \(error)")
                return ""
            }
        }
    }

    // MARK: - Numbering

    @Test("tile numbers follow the specification's Hilbert curve, and read back to their tiles")
    func tileNumbers() throws {
        #expect(PMTilesTileID.id(of: TileID(z: 0, x: 0, y: 0)) == 0)
        let zoom1 = [(0, 0), (0, 1), (1, 1), (1, 0)].map { PMTilesTileID.id(of: TileID(z: 1, x: $0.0, y: $0.1)) }
        #expect(zoom1 == [1, 2, 3, 4])
        #expect(PMTilesTileID.id(of: TileID(z: 2, x: 0, y: 0)) == 5)
        #expect(PMTilesTileID.id(of: TileID(z: 12, x: 3423, y: 1763)) == 19_078_479)
        var state: UInt64 = 7
        for z in 0...TileID.maxZoom {
            for _ in 0..<40 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let side = 1 << z
                let tile = TileID(z: z, x: Int(state >> 20) % side, y: Int(state >> 5) % side)
                let id = PMTilesTileID.id(of: tile)
                #expect(id == TestPMTiles.tileID(z: tile.z, x: tile.x, y: tile.y), "tile \(tile)")
                #expect(PMTilesTileID.tile(for: id) == tile)
            }
        }
        let last = TileID(z: TileID.maxZoom, x: (1 << TileID.maxZoom) - 1, y: 0)
        #expect(PMTilesTileID.tile(for: PMTilesTileID.id(of: last)) == last)
        #expect(PMTilesTileID.tile(for: PMTilesTileID.firstID(ofZoom: TileID.maxZoom + 1)) == nil, "deeper than MapFrame's zooms")
    }

    // MARK: - Directories

    @Test("a directory encodes and decodes, offsets that follow on written as 0")
    func directoryRoundTrip() throws {
        let entries = [
            PMTilesEntry(tileID: 0, offset: 0, length: 10, runLength: 1),
            PMTilesEntry(tileID: 1, offset: 10, length: 300, runLength: 3),
            PMTilesEntry(tileID: 9, offset: 0, length: 10, runLength: 1),
            PMTilesEntry(tileID: 1 << 40, offset: 5_000_000_000, length: 4, runLength: 0),
        ]
        let encoded = PMTilesDirectory(entries: entries).encoded()
        #expect(encoded == TestPMTiles.directory(entries.map { TestPMTiles.Entry(tileID: $0.tileID, offset: $0.offset, length: $0.length, runLength: $0.runLength) }))
        #expect(try PMTilesDirectory.decode(encoded).entries == entries)
        let directory = PMTilesDirectory(entries: entries)
        #expect(directory.entry(for: 3)?.tileID == 1)
        #expect(directory.entry(for: 4) == nil, "between the run's end and the next entry")
        #expect(directory.entry(for: 1 << 41)?.isLeaf == true, "past a leaf's first number, in its range")
    }

    /// A case of bad bytes, and words its refusal must hold.
    struct Bad: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let bytes: @Sendable () -> Data
        let words: [String]

        init(_ name: String, _ bytes: @escaping @Sendable () -> Data, _ words: [String]) {
            (testDescription, self.bytes, self.words) = (name, bytes, words)
        }

        init(_ name: String, _ bytes: [UInt8], _ words: String) {
            self.init(name, { Data(bytes) }, [words])
        }
    }

    static let badDirectories: [Bad] = [
        Bad("no entries", [0], "holds no entries"),
        Bad("a count past what the bytes hold", [0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 1, 1, 1, 1], "claims"),
        Bad("a varint cut short", [1, 0x80, 0x80, 0x80], "ends inside"),
        Bad("a varint past 64 bits", [2] + [UInt8](repeating: 0xFF, count: 10) + [1, 1, 1, 1, 1, 1], "longer than 64 bits"),
        Bad("a length of 0", [1, 0, 1, 0, 1], "length 0"),
        Bad("a first offset that follows nothing", [1, 0, 1, 5, 0], "there is none"),
        Bad("tile numbers not ascending", [2, 5, 0, 1, 1, 1, 1, 1, 0], "must ascend"),
        Bad("a run overlapping the next entry", [2, 5, 1, 3, 1, 1, 1, 1, 0], "overlaps"),
        Bad("bytes after the last entry", [1, 0, 1, 5, 1, 9], "follow the directory"),
        Bad("a run length past 32 bits", [1, 0, 0x80, 0x80, 0x80, 0x80, 0x10, 5, 1], "allowed up to"),
        Bad("a run past 2^64", [1, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01, 2, 5, 1], "passes 2^64"),
    ]

    @Test("a bad directory is refused, saying what is wrong", arguments: badDirectories)
    func badDirectory(_ bad: Bad) throws {
        #expect {
            try PMTilesDirectory.decode(bad.bytes())
        } throws: { error in
            (error as? PMTilesError)?.description.contains(bad.words[0]) == true
        }
    }

    // MARK: - Archives

    /// Tiles across zooms 0 to 14, in tile-number order runs and apart.
    static let tiles: [(z: Int, x: Int, y: Int, data: Data)] = (0..<600).map { index in
        let z = index % 15
        let side = 1 << z
        return (z, (index * 7919) % side, (index * 104_729) % side, bytes(index))
    }

    @Test("every tile is read back byte for byte, root alone or with leaf directories, gzip or uncompressed", arguments: [
        TestPMTiles.Options(), TestPMTiles.Options(internalCompression: 1), TestPMTiles.Options(leafSize: 7),
        TestPMTiles.Options(internalCompression: 1, leafSize: 50),
    ])
    func readsEveryTile(_ options: TestPMTiles.Options) async throws {
        var unique: [TileID: Data] = [:]
        for tile in Self.tiles { unique[TileID(z: tile.z, x: tile.x, y: tile.y)] = tile.data }
        let archive = TestPMTiles.archive(tiles: unique.map { ($0.key.z, $0.key.x, $0.key.y, $0.value) }, options: options)
        try await withTemporaryDirectory { directory in
            let backend = try await Self.backend(archive, in: directory)
            for (tile, data) in unique {
                #expect(try await backend.lookup(tile, at: Date()).stored?.data == data, "tile \(tile)")
            }
            #expect(try await backend.lookup(TileID(z: 14, x: 1, y: 2), at: Date()).stored == nil, "a tile the archive lacks")
            let statistics = try await backend.statistics(at: Date())
            #expect(statistics.tileCount == unique.count)
            #expect(statistics.tilesPerZoom[14] == unique.keys.filter { $0.z == 14 }.count)
            var copied: [StoredTileRecord] = []
            while true {
                let page = try await backend.tiles(after: copied.last?.tile, limit: 37)
                guard !page.isEmpty else { break }
                copied += page
            }
            #expect(copied.count == unique.count)
            #expect(copied.allSatisfy { unique[$0.tile] == $0.stored.data && $0.stored.freshness == nil })
            #expect(copied.map { PMTilesTileID.id(of: $0.tile) } == copied.map { PMTilesTileID.id(of: $0.tile) }.sorted(), "in tile-number order")
        }
    }

    @Test("a run's tiles and tiles sharing a content all read the one content")
    func runsAndSharedContents() async throws {
        let sea = Self.bytes(1)
        let land = Self.bytes(2)
        // Zoom 3's numbers 21 to 84: 30 to 39 a run of sea, 50 and 70 sea apart, the rest land.
        var tiles: [(z: Int, x: Int, y: Int, data: Data)] = []
        for id in UInt64(21)...84 {
            let tile = try #require(PMTilesTileID.tile(for: id))
            tiles.append((tile.z, tile.x, tile.y, (30...39).contains(id) || id == 50 || id == 70 ? sea : land))
        }
        let archive = TestPMTiles.archive(tiles: tiles)
        let opened = try PMTilesArchive(archive)
        #expect(opened.header.tileContentCount == 2, "each content stored once")
        #expect(opened.header.tileData.length == UInt64(sea.count + land.count))
        var entries: [PMTilesEntry] = []
        try opened.forEachTileEntry { entries.append($0); return true }
        #expect(entries.contains { $0.tileID == 30 && $0.runLength == 10 })
        for id in UInt64(21)...84 {
            let tile = try #require(PMTilesTileID.tile(for: id))
            let entry = try #require(try opened.entry(for: tile))
            #expect(try opened.data(of: entry) == ((30...39).contains(id) || id == 50 || id == 70 ? sea : land))
        }
    }

    @Test("512 px WebP tiles are drawn from an archive through a 512 px style")
    func largeWebPTiles() async throws {
        let picture = TestPictures.gradient(width: 512, height: 512)
        let webp = try TestImageEncoder.webp(picture, lossless: true)
        let tile = TileID(z: 15, x: 16_396, y: 10_793)
        let archive = TestPMTiles.archive(tiles: [(tile.z, tile.x, tile.y, webp)], options: TestPMTiles.Options(tileType: 4))
        let source = try TileSource(json: Data(#"""
            {"name": "aerial", "title": "Aerial", "url": "https://tiles.example.org/{z}/{x}/{y}.webp", "tileSize": 512, "minZoom": 1, "maxZoom": 19, "attribution": "Imagery"}
            """#.utf8), documentName: "aerial.json")
        try await withTemporaryDirectory { directory in
            let store = TileStore(source: source, cache: try await Self.backend(archive, in: directory))
            #expect(await store.tile(tile).fill == .cached)
            let image = try #require(await store.drawn(tile).image)
            #expect(image.width == 512 && TestPictures.largestChannelDifference(image, picture) == 0)
        }
    }

    @Test("writes are refused, saying the archive is only read")
    func writesRefused() async throws {
        let archive = TestPMTiles.archive(tiles: [(0, 0, 0, Self.bytes(0))])
        try await withTemporaryDirectory { directory in
            let backend = try await Self.backend(archive, in: directory)
            await #expect(throws: CacheError.readOnly(path: backend.name, reason: backend.readOnlyReason!)) {
                try await backend.store(Self.bytes(1), for: TileID(z: 1, x: 0, y: 0), freshness: nil)
            }
            #expect(backend.readOnlyReason?.contains("PMTiles archive") == true)
            #expect(try await backend.freshTileCount(in: [TileID(z: 0, x: 0, y: 0), TileID(z: 1, x: 0, y: 0)], at: Date()) == 1)
        }
    }

    // MARK: - Refusals

    static let good = TestPMTiles.archive(tiles: [(0, 0, 0, bytes(0)), (1, 1, 0, bytes(1))])

    /// `good` with byte `index` set to `value`.
    static func good(with value: UInt8, at index: Int) -> Data {
        var archive = good
        archive[index] = value
        return archive
    }

    static let refusals: [Bad] = [
        Bad("vector tiles", { TestPMTiles.archive(tiles: [(0, 0, 0, bytes(0))], options: TestPMTiles.Options(tileType: 1)) }, ["tile type is 1", "MVT", "allowed raster tiles", "2 (PNG)"]),
        Bad("AVIF tiles", { good(with: 5, at: 99) }, ["tile type is 5 (AVIF)", "allowed"]),
        Bad("a tile type PMTiles does not define", { good(with: 9, at: 99) }, ["tile type is 9", "does not define"]),
        Bad("version 4", { good(with: 4, at: 7) }, ["version is 4", "allowed 3"]),
        Bad("the character 3 as the version", { good(with: UInt8(ascii: "3"), at: 7) }, ["0x33", "the character \"3\"", "allowed the byte 0x03"]),
        Bad("brotli directories", { good(with: 3, at: 97) }, ["internal compression", "3 (brotli)", "allowed 1 (none) or 2 (gzip)"]),
        Bad("zstd directories", { good(with: 4, at: 97) }, ["4 (zstd)"]),
        Bad("a compression PMTiles does not define", { good(with: 9, at: 97) }, ["is 9, which PMTiles does not define"]),
        Bad("gzip tiles", { good(with: 2, at: 98) }, ["tile compression is 2 (gzip)", "allowed 1 (none)"]),
        Bad("a file shorter than its header", { good.prefix(100) }, ["100 bytes", "shorter than the 127-byte"]),
        Bad("an empty file", { Data() }, ["empty"]),
        Bad("a PMTiles version 2 archive", { Data("PM".utf8) + Data([2, 0]) + Data(count: 200) }, ["version 2", "allowed version 3"]),
        Bad("a file of something else", { Data("SQLite format 3\0".utf8) + Data(count: 200) }, ["it starts with the bytes 53 51 4C", "not \"PMTiles\""]),
        Bad("tile data past the end of the file", { good.prefix(good.count - 3) }, ["tile data", "runs past the end"]),
        Bad("a tile outside the tile data", {
            TestPMTiles.archive(entries: [TestPMTiles.Entry(tileID: 0, offset: 4, length: 10, runLength: 1)], tileData: Data(count: 12))
        }, ["entry 0 points to 10 bytes at offset 4, outside the 12 bytes of tile data"]),
        Bad("a leaf directory outside the leaf directories", {
            TestPMTiles.archive(
                entries: [], tileData: Data(count: 12), rootEntries: [TestPMTiles.Entry(tileID: 0, offset: 0, length: 40, runLength: 0)], leaves: Data(count: 8)
            )
        }, ["outside the 8 bytes of leaf directories"]),
        Bad("a root directory past 16,384 bytes", {
            let entries = (0..<6_000).map { TestPMTiles.Entry(tileID: UInt64($0) * 1_000, offset: UInt64($0 * 3), length: 1, runLength: 1) }
            return TestPMTiles.archive(entries: entries, tileData: Data(count: 20_000), options: TestPMTiles.Options(internalCompression: 1))
        }, ["root directory", "not within bytes 127 to 16384"]),
        Bad("a directory that is not gzip", { good(with: 0, at: 127) }, ["root directory", "not valid gzip"]),
    ]

    @Test("an archive MapFrame cannot draw from is refused, naming the value and what is allowed", arguments: refusals)
    func refused(_ bad: Bad) async throws {
        let reason = try await Self.refusal(bad.bytes())
        for word in bad.words { #expect(reason.contains(word), "\(bad.testDescription): \(reason)") }
    }

    @Test("a leaf directory damaged inside is refused when a tile needs it: that tile is drawn grey, the rest are drawn")
    func damagedLeaf() async throws {
        let good = Self.bytes(1)
        let goodLeaf = TestPMTiles.gzip(TestPMTiles.directory([TestPMTiles.Entry(tileID: 1, offset: 0, length: UInt32(good.count), runLength: 1)]))
        let badLeaf = TestPMTiles.gzip(TestPMTiles.directory([TestPMTiles.Entry(tileID: 2, offset: 1_000, length: 5, runLength: 1)]))
        let archive = TestPMTiles.archive(
            entries: [], tileData: good,
            rootEntries: [
                TestPMTiles.Entry(tileID: 1, offset: 0, length: UInt32(goodLeaf.count), runLength: 0),
                TestPMTiles.Entry(tileID: 2, offset: UInt64(goodLeaf.count), length: UInt32(badLeaf.count), runLength: 0),
            ],
            leaves: goodLeaf + badLeaf
        )
        try await withTemporaryDirectory { directory in
            let backend = try await Self.backend(archive, in: directory)
            #expect(try await backend.lookup(TileID(z: 1, x: 0, y: 0), at: Date()).stored?.data == good)
            do throws(CacheError) {
                _ = try await backend.lookup(TileID(z: 1, x: 0, y: 1), at: Date())
                Issue.record("the damaged leaf should be refused")
            } catch {
                #expect(error.description.contains("outside the \(good.count) bytes of tile data"), "\(error)")
            }
        }
    }

    @Test("a leaf directory holding tiles outside the range its root entry gives it is refused, so a walk never goes back")
    func leafOutOfRange() async throws {
        let data = Self.bytes(1)
        // The root's second leaf starts at 10, but holds tile 3, which the first leaf's range covers.
        let first = TestPMTiles.gzip(TestPMTiles.directory([TestPMTiles.Entry(tileID: 1, offset: 0, length: UInt32(data.count), runLength: 1)]))
        let second = TestPMTiles.gzip(TestPMTiles.directory([TestPMTiles.Entry(tileID: 3, offset: 0, length: UInt32(data.count), runLength: 1)]))
        let archive = TestPMTiles.archive(
            entries: [], tileData: data,
            rootEntries: [
                TestPMTiles.Entry(tileID: 1, offset: 0, length: UInt32(first.count), runLength: 0),
                TestPMTiles.Entry(tileID: 10, offset: UInt64(first.count), length: UInt32(second.count), runLength: 0),
            ],
            leaves: first + second
        )
        let opened = try PMTilesArchive(archive)
        #expect(try opened.entry(for: TileID(z: 1, x: 0, y: 0)) != nil)
        let twelve = try #require(PMTilesTileID.tile(for: 12))
        #expect {
            try opened.entry(for: twelve)
        } throws: { error in
            (error as? PMTilesError)?.description.contains("holds tile numbers 3 to 4, outside the range its entry gives it, from 10 on") == true
        }
        #expect(throws: PMTilesError.self) { try opened.forEachTileEntry { _ in true } }
    }

    @Test("leaf directories nested past four levels are refused")
    func deepNesting() throws {
        // Every leaf points at itself.
        let leaf = TestPMTiles.gzip(TestPMTiles.directory([TestPMTiles.Entry(tileID: 0, offset: 0, length: 28, runLength: 0)]))
        #expect(leaf.count == 28)
        let archive = TestPMTiles.archive(
            entries: [], tileData: Data(count: 4), rootEntries: [TestPMTiles.Entry(tileID: 0, offset: 0, length: 28, runLength: 0)], leaves: leaf
        )
        let opened = try PMTilesArchive(archive)
        #expect(throws: PMTilesError.self) { try opened.entry(for: TileID(z: 0, x: 0, y: 0)) }
        #expect(throws: PMTilesError.self) { try opened.forEachTileEntry { _ in true } }
    }
}
