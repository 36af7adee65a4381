import Foundation
import ImageCodec
import MapFrameTestSupport
import MapGeometry
import Testing
import TileStore

@Suite("Tiles from the cache, as a frame decodes them")
struct TileStoreTests {
    static let good = TileID(z: 16, x: 32793, y: 21586)
    static let neighbour = TileID(z: 16, x: 32794, y: 21586)
    static let broken = TileID(z: 16, x: 32793, y: 21587)
    static let goodColour = Colour(redLevel: 224, greenLevel: 223, blueLevel: 223)
    static let neighbourColour = Colour(redLevel: 170, greenLevel: 211, blueLevel: 223)

    /// A cache with two good tiles and one tile holding `brokenBytes`, and a store over it.
    static func withStore(brokenBytes: Data?, _ body: (TileStore, String) async throws -> Void) async throws {
        let directory = try TemporaryDirectory("tiles")
        defer { directory.remove() }
        do {
            let path = directory.path("tiles.mbtiles")
            let writer = try MBTilesCache(creatingIfNeeded: path)
            try writer.store(solidTilePNG(goodColour), for: good)
            try writer.store(solidTilePNG(neighbourColour), for: neighbour)
            if let brokenBytes { try writer.store(brokenBytes, for: broken) }
            let source = try #require(StyleCatalog.builtin["osm"])
            let store = TileStore(source: source, cache: MBTilesBackend(try MBTilesCache(openingExisting: path)))
            try await body(store, path)
        }
    }

    @Test("a tile that is not in the cache is missing as notCached")
    func notCached() async throws {
        try await Self.withStore(brokenBytes: nil) { store, _ in
            #expect((await store.drawn(Self.broken)).missingReason == .notCached)
            #expect((await store.drawn(TileID(z: 5, x: 1, y: 1))).missingReason == .notCached)
        }
    }

    @Test("stored tiles decode to their pixels")
    func decodesGoodTiles() async throws {
        try await Self.withStore(brokenBytes: nil) { store, _ in
            let image = try #require((await store.drawn(Self.good)).image)
            #expect(image.width == 256 && image.height == 256)
            #expect(image.pixel(x: 0, y: 0) == Self.goodColour && image.pixel(x: 255, y: 255) == Self.goodColour)
            #expect((await store.drawn(Self.neighbour)).image?.pixel(x: 128, y: 128) == Self.neighbourColour)
        }
    }

    static let corruptBlobs: [(String, Data)] = {
        let png = (try? solidTilePNG(Colour(redLevel: 1, greenLevel: 2, blueLevel: 3))) ?? Data()
        return [
            ("random bytes", randomBytes(count: 700)),
            ("a truncated PNG", png.prefix(png.count / 2)),
            ("a PNG signature and nothing more", png.prefix(8)),
            ("an empty blob", Data()),
        ]
    }()

    @Test("a corrupt blob is missing as undecodable; other tiles and the file are untouched", arguments: corruptBlobs)
    func corruptTile(name: String, bytes: Data) async throws {
        try await Self.withStore(brokenBytes: bytes) { store, path in
            let before = try await IndependentSQLite.query(path, "SELECT zoom_level, tile_column, tile_row, hex(tile_data) FROM tiles ORDER BY 1, 2, 3")
            let reason = try #require((await store.drawn(Self.broken)).missingReason, "\(name) decoded as an image")
            #expect(reason.isUndecodable, "\(name): \(reason)")
            // Asking again gives the same answer: a failure is never cached as an image.
            #expect((await store.drawn(Self.broken)).missingReason?.isUndecodable == true)
            #expect((await store.drawn(Self.good)).image?.pixel(x: 10, y: 10) == Self.goodColour)
            #expect((await store.drawn(Self.neighbour)).image?.pixel(x: 10, y: 10) == Self.neighbourColour)
            let after = try await IndependentSQLite.query(path, "SELECT zoom_level, tile_column, tile_row, hex(tile_data) FROM tiles ORDER BY 1, 2, 3")
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

    @Test("the bytes held never exceed the byte budget: the least recently used go first")
    func byteBudget() {
        // Values are their own cost in bytes.
        let cache = LRUCache<String, Int>(capacity: 100, maxBytes: 1000) { $0 }
        cache.insert(400, for: "a")
        cache.insert(400, for: "b")
        #expect(cache.bytes == 800 && cache.count == 2)
        #expect(cache.value(for: "a") == 400)  // "b" is now the least recently used
        cache.insert(300, for: "c")
        #expect(cache.bytes == 700, "b had to go to make room: \(cache.bytes) bytes held, 1000 allowed")
        #expect(cache.value(for: "b") == nil && cache.value(for: "a") == 400 && cache.value(for: "c") == 300)
        cache.insert(900, for: "d")
        #expect(cache.count == 1 && cache.bytes == 900, "a and c both had to go: \(cache.count) entries, \(cache.bytes) bytes")
        cache.insert(100, for: "d")
        #expect(cache.bytes == 100, "replacing a value replaces its cost")
    }

    @Test("a value costing more than the whole budget is not kept, and evicts nothing")
    func oversizedValue() {
        let cache = LRUCache<String, Int>(capacity: 10, maxBytes: 1000) { $0 }
        cache.insert(600, for: "a")
        cache.insert(1001, for: "huge")
        #expect(cache.value(for: "huge") == nil)
        #expect(cache.value(for: "a") == 600 && cache.bytes == 600)
        cache.insert(2000, for: "a")
        #expect(cache.value(for: "a") == nil && cache.bytes == 0 && cache.count == 0, "an old value is not kept in place of a new one")
    }

    /// Random inserts and lookups, checked step by step against a plain list kept in use order.
    @Test("under random use the cache keeps exactly what a reference LRU keeps, within both limits")
    func matchesReferenceModel() {
        let capacity = 8, maxBytes = 2000
        let cache = LRUCache<Int, Int>(capacity: capacity, maxBytes: maxBytes) { $0 }
        var reference: [(key: Int, cost: Int)] = []  // oldest first
        var random = SystemRandomNumberGenerator()
        for step in 0..<5000 {
            let key = Int.random(in: 0..<20, using: &random)
            if Bool.random(using: &random) {
                let cost = Int.random(in: 0...700, using: &random)
                cache.insert(cost, for: key)
                reference.removeAll { $0.key == key }
                reference.append((key, cost))
                while reference.count > capacity || reference.reduce(0, { $0 + $1.cost }) > maxBytes { reference.removeFirst() }
            } else {
                let expected = reference.firstIndex { $0.key == key }.map { reference.remove(at: $0) }
                if let expected { reference.append(expected) }
                let found = cache.value(for: key)
                guard found == expected?.cost else {
                    Issue.record("step \(step): key \(key) gave \(String(describing: found)), expected \(String(describing: expected?.cost))")
                    return
                }
            }
            let bytes = reference.reduce(0) { $0 + $1.cost }
            guard cache.count == reference.count, cache.bytes == bytes, cache.bytes <= maxBytes else {
                Issue.record("step \(step): \(cache.count) entries of \(cache.bytes) bytes; expected \(reference.count) of \(bytes), at most \(maxBytes) bytes")
                return
            }
        }
    }

    @Test("decoded tiles cost their pixel bytes: a tile memory stays within its byte budget")
    func decodedTileBudget() {
        let budget = 1 << 20
        let cache = LRUCache<TileID, RasterImage>(capacity: 64, maxBytes: budget) { $0.byteCount }
        for x in 0..<10 {
            let side = x.isMultiple(of: 2) ? 256 : 512
            cache.insert(RasterImage(width: side, height: side, filledWith: Colour(redLevel: 1, greenLevel: 2, blueLevel: 3)), for: TileID(z: 10, x: x, y: 0))
            #expect(cache.bytes <= budget, "\(cache.bytes) bytes held after \(x + 1) tiles; the budget is \(budget)")
        }
        // The last tile is 512 px: 1 MiB, the whole budget.
        #expect(cache.count == 1 && cache.bytes == 512 * 512 * 4)
    }

    @Test("a cache of one keeps only the newest entry")
    func capacityOne() {
        let cache = LRUCache<Int, String>(capacity: 1)
        cache.insert("one", for: 1)
        cache.insert("two", for: 2)
        #expect(cache.value(for: 1) == nil && cache.value(for: 2) == "two" && cache.count == 1)
    }
}
