import Foundation
import ImageCodec
import MapFrameTestSupport
import MapGeometry
import Testing
import TileStore
import UpstreamSimulator

/// A tile is its source's tile size square (256 px), or twice it (retina): an image of any other
/// size is refused like a corrupt one, from its header, before a pixel is decoded. An 8192x8192
/// PNG is 52 KB on the wire and 256 MiB decoded; a 17x5 one would be drawn as a solid block.
@Suite("Tile sizes")
struct TileSizeTests {
    static let tile = TileID(z: 16, x: 32793, y: 21586)

    struct WrongSize: Sendable, CustomTestStringConvertible {
        let width: Int
        let height: Int
        var testDescription: String { "\(width)x\(height)" }
        var png: Data { BlankPNG.data(width: width, height: height) }
    }

    static let wrongSizes = [WrongSize(width: 8192, height: 8192), WrongSize(width: 17, height: 5), WrongSize(width: 256, height: 512)]

    /// The message names the size found and the sizes allowed.
    static func expectNamesSizes(_ message: String, _ size: WrongSize, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(message.contains("\(size.width)x\(size.height)"), "the message should name the size found: \(message)", sourceLocation: sourceLocation)
        #expect(message.contains("256x256") && message.contains("512x512"), "the message should name the sizes allowed: \(message)", sourceLocation: sourceLocation)
    }

    @Test("the simulator's blank PNGs decode, at the size asked for")
    func blankPNGsDecode() throws {
        for (width, height) in [(1, 1), (17, 5), (300, 7), (256, 256)] {
            let image = try PNGCodec.decode(BlankPNG.data(width: width, height: height))
            #expect(image.width == width && image.height == height)
            #expect(image.pixel(x: width - 1, y: height - 1) == Colour(redLevel: 0, greenLevel: 0, blueLevel: 0))
        }
        #expect(BlankPNG.data(width: 8192, height: 8192).count < 100_000, "small on the wire")
    }

    @Test("a wrong-sized answer for an expired tile is not stored: the good copy is kept byte for byte and served stale", arguments: wrongSizes)
    func wrongSizeOverCachedTile(_ size: WrongSize) async throws {
        let world = try UpstreamWorld()
        let good = try world.seedExpiredCopy(of: Self.tile, version: 0)
        let goodFreshness = try world.cached(Self.tile).freshness
        world.upstream.setResponse(.png(size.png), for: upstreamPath(Self.tile))

        let message = try #require(await world.store.tile(Self.tile).fill.staleMessage, "the fill should fail and serve the copy")
        Self.expectNamesSizes(message, size)
        #expect(world.requests(for: Self.tile).count == 1, "a wrong-sized image is not worth asking again at once")
        #expect(try world.cached(Self.tile).bytes == good, "the good tile must be kept byte for byte")
        #expect(try world.cached(Self.tile).freshness == goodFreshness)
        try await world.expectCached(Self.tile, bytes: good)
    }

    @Test("a wrong-sized answer with nothing cached fails the fill and stores nothing", arguments: wrongSizes)
    func wrongSizeWithoutCopy(_ size: WrongSize) async throws {
        let world = try UpstreamWorld()
        world.upstream.setResponse(.png(size.png), for: upstreamPath(Self.tile))
        let missing = try #require(await world.store.tile(Self.tile).fill.missing)
        let message = try #require(missing.reason.fetchFailureMessage, "\(missing)")
        Self.expectNamesSizes(message, size)
        try await world.expectNothingCached(Self.tile)
    }

    @Test("a retina-sized (512 px) answer is a tile like any other")
    func retinaSizeIsAccepted() async throws {
        let world = try UpstreamWorld()
        let retina = try RasterImage(width: 512, height: 512, filledWith: Colour(redLevel: 10, greenLevel: 20, blueLevel: 30)).pngData()
        world.upstream.setResponse(.png(retina), for: upstreamPath(Self.tile))
        #expect(await world.store.tile(Self.tile).fill == .fetched)
        #expect(try world.cached(Self.tile).bytes == retina)
    }

    @Test("wrong-sized tiles already in a cache file are reported undecodable offline, on every lookup, and never decoded", arguments: wrongSizes)
    func wrongSizeInCacheFile(_ size: WrongSize) async throws {
        let world = try UpstreamWorld()
        try MBTilesCache(openingExisting: world.cachePath, readOnly: false).store(size.png, for: Self.tile)

        let reason = try #require((try await world.drawnFromCache(Self.tile)).missingReason, "a \(size.testDescription) tile was drawn")
        guard case .undecodable(let message) = reason else {
            Issue.record("reported as \(reason), not undecodable")
            return
        }
        Self.expectNamesSizes(message, size)
        #expect((try await world.drawnFromCache(Self.tile)).missingTile?.tile == Self.tile, "asked again, it is still reported missing")
        #expect(try world.cached(Self.tile).bytes == size.png, "reading must not change the cache")
    }

    @Test("cache verification counts wrong-sized tiles as corrupt, naming their size")
    func verifyFindsWrongSizes() throws {
        try withTemporaryDirectory { directory in
            let cache = try MBTilesCache(creatingIfNeeded: directory.appendingPathComponent("sizes.mbtiles").path)
            let good = TileID(z: 3, x: 1, y: 1), wide = TileID(z: 3, x: 2, y: 1), huge = TileID(z: 3, x: 3, y: 1)
            try cache.store(solidTilePNG(Colour(redLevel: 1, greenLevel: 2, blueLevel: 3)), for: good)
            try cache.store(BlankPNG.data(width: 17, height: 5), for: wide)
            try cache.store(BlankPNG.data(width: 8192, height: 8192), for: huge)
            let corrupt = try cache.survey(checkingWith: TileDecoder(tileSize: 256)).corrupt
            #expect(Set(corrupt.map(\.tile)) == [wide, huge])
            #expect(corrupt.first { $0.tile == wide }?.reason.contains("17x5") == true, "\(corrupt)")
        }
    }
}
