import Foundation
import ImageCodec
import MapGeometry
import Testing
import TileStore

@Suite("Serving decoded tiles")
struct TileStoreTests {
    static let good = TileID(z: 16, x: 32793, y: 21586)
    static let neighbour = TileID(z: 16, x: 32794, y: 21586)
    static let broken = TileID(z: 16, x: 32793, y: 21587)
    static let goodColour = RGBA(red: 224, green: 223, blue: 223)
    static let neighbourColour = RGBA(red: 170, green: 211, blue: 223)

    /// A cache with two good tiles and one tile holding `brokenBytes`, and a store over it.
    static func withStore(brokenBytes: Data?, _ body: (TileStore, String) throws -> Void) throws {
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("tiles.mbtiles").path
            let writer = try MBTilesCache(creatingIfNeeded: path)
            try writer.store(solidTilePNG(goodColour), for: good)
            try writer.store(solidTilePNG(neighbourColour), for: neighbour)
            if let brokenBytes { try writer.store(brokenBytes, for: broken) }
            let source = try #require(StyleCatalog.builtin["osm"])
            let store = TileStore(source: source, cache: try MBTilesCache(openingExisting: path), decodedTiles: LRUCache(capacity: 8))
            try body(store, path)
        }
    }

    @Test("a tile that is not in the cache is missing as notCached")
    func notCached() throws {
        try Self.withStore(brokenBytes: nil) { store, _ in
            #expect(store.tile(Self.broken).missingReason == .notCached)
            #expect(store.tile(TileID(z: 5, x: 1, y: 1)).missingReason == .notCached)
        }
    }

    @Test("stored tiles decode to their pixels")
    func decodesGoodTiles() throws {
        try Self.withStore(brokenBytes: nil) { store, _ in
            let image = try #require(store.tile(Self.good).image)
            #expect(image.width == 256 && image.height == 256)
            #expect(image.pixel(x: 0, y: 0) == Self.goodColour && image.pixel(x: 255, y: 255) == Self.goodColour)
            #expect(store.tile(Self.neighbour).image?.pixel(x: 128, y: 128) == Self.neighbourColour)
        }
    }

    static let corruptBlobs: [(String, Data)] = {
        let png = (try? solidTilePNG(RGBA(red: 1, green: 2, blue: 3))) ?? Data()
        return [
            ("random bytes", randomBytes(count: 700)),
            ("a truncated PNG", png.prefix(png.count / 2)),
            ("a PNG signature and nothing more", png.prefix(8)),
            ("an empty blob", Data()),
        ]
    }()

    @Test("a corrupt blob is missing as undecodable; other tiles and the file are untouched", arguments: corruptBlobs)
    func corruptTile(name: String, bytes: Data) throws {
        try Self.withStore(brokenBytes: bytes) { store, path in
            let before = try RawSQLite.query(path, "SELECT zoom_level, tile_column, tile_row, hex(tile_data) FROM tiles ORDER BY 1, 2, 3")
            let reason = try #require(store.tile(Self.broken).missingReason, "\(name) decoded as an image")
            #expect(reason.isUndecodable, "\(name): \(reason)")
            // Asking again gives the same answer: a failure is never cached as an image.
            #expect(store.tile(Self.broken).missingReason?.isUndecodable == true)
            #expect(store.tile(Self.good).image?.pixel(x: 10, y: 10) == Self.goodColour)
            #expect(store.tile(Self.neighbour).image?.pixel(x: 10, y: 10) == Self.neighbourColour)
            let after = try RawSQLite.query(path, "SELECT zoom_level, tile_column, tile_row, hex(tile_data) FROM tiles ORDER BY 1, 2, 3")
            #expect(after == before, "reading must not change the cache")
            #expect(after.count == 3)
        }
    }
}

@Suite("The in-memory LRU cache")
struct LRUCacheTests {
    @Test("the least recently used entry is evicted first")
    func evictionOrder() {
        let cache = LRUCache<String, Int>(capacity: 3)
        cache.insert(1, for: "a")
        cache.insert(2, for: "b")
        cache.insert(3, for: "c")
        #expect(cache.value(for: "a") == 1)  // "a" is now the most recent; "b" the least
        cache.insert(4, for: "d")
        #expect(cache.value(for: "b") == nil)
        #expect(cache.value(for: "a") == 1 && cache.value(for: "c") == 3 && cache.value(for: "d") == 4)
        // Order of use is now a, c, d (oldest first); two more inserts evict a, then c.
        cache.insert(5, for: "e")
        #expect(cache.value(for: "a") == nil)
        cache.insert(6, for: "f")
        #expect(cache.value(for: "c") == nil)
        #expect(cache.value(for: "d") == 4 && cache.value(for: "e") == 5 && cache.value(for: "f") == 6)
    }

    @Test("the count never exceeds the capacity")
    func capacity() {
        let cache = LRUCache<Int, Int>(capacity: 5)
        for key in 0..<100 {
            cache.insert(key * 10, for: key)
            #expect(cache.count == min(key + 1, 5))
        }
        #expect((95..<100).allSatisfy { cache.value(for: $0) == $0 * 10 })
        #expect((0..<95).allSatisfy { cache.value(for: $0) == nil })
    }

    @Test("replacing a value refreshes it without evicting anything")
    func replaceRefreshes() {
        let cache = LRUCache<String, Int>(capacity: 2)
        cache.insert(1, for: "a")
        cache.insert(2, for: "b")
        cache.insert(10, for: "a")
        #expect(cache.count == 2)
        cache.insert(3, for: "c")
        #expect(cache.value(for: "a") == 10)
        #expect(cache.value(for: "b") == nil)
    }

    @Test("a cache of one keeps only the newest entry")
    func capacityOne() {
        let cache = LRUCache<Int, String>(capacity: 1)
        cache.insert("one", for: 1)
        cache.insert("two", for: 2)
        #expect(cache.value(for: 1) == nil && cache.value(for: 2) == "two" && cache.count == 1)
    }
}
