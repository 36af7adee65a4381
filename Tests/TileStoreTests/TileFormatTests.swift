import Foundation
import ImageCodec
import MapFrameTestSupport
import MapGeometry
import Testing
import TileStore
import UpstreamSimulator

/// Tile servers answer in PNG, JPEG (aerial imagery) or WebP: each is validated, stored as it was
/// sent and drawn, recognised by its bytes whatever the Content-Type says.
@Suite("Tile formats")
struct TileFormatTests {
    static let tile = TileID(z: 16, x: 32793, y: 21586)
    static let picture = TestPictures.gradient(width: 256, height: 256)

    /// A tile encoded one way, and how closely its pixels come back.
    struct Encoding: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let contentType: String
        /// MBTiles' name for the format.
        let mbtilesFormat: String
        let tolerance: Int
        let encode: @Sendable (RasterImage) throws -> Data
    }

    static let encodings = [
        Encoding(testDescription: "PNG", contentType: "image/png", mbtilesFormat: "png", tolerance: 0) { try $0.pngData() },
        Encoding(testDescription: "baseline JPEG", contentType: "image/jpeg", mbtilesFormat: "jpg", tolerance: 12) { try TestImageEncoder.jpeg($0) },
        Encoding(testDescription: "progressive JPEG", contentType: "image/jpeg", mbtilesFormat: "jpg", tolerance: 12) {
            try TestImageEncoder.jpeg($0, kind: .progressive)
        },
        Encoding(testDescription: "lossy WebP", contentType: "image/webp", mbtilesFormat: "webp", tolerance: 12) {
            try TestImageEncoder.webp($0, lossless: false, quality: 90)
        },
        Encoding(testDescription: "lossless WebP", contentType: "image/webp", mbtilesFormat: "webp", tolerance: 0) { try TestImageEncoder.webp($0, lossless: true) },
    ]

    @Test("a PNG, JPEG or WebP tile is fetched, stored byte for byte and drawn", arguments: encodings)
    func fetchedAndDrawn(_ encoding: Encoding) async throws {
        let world = try UpstreamWorld()
        let bytes = try encoding.encode(Self.picture)
        world.upstream.setResponse(.image(bytes, contentType: encoding.contentType), for: upstreamPath(Self.tile))
        #expect(await world.store.tile(Self.tile).fill == .fetched)
        #expect(try world.cached(Self.tile).bytes == bytes, "the tile is stored as it was sent")
        let image = try #require((await world.store.drawn(Self.tile)).image, "the stored tile should be drawn")
        let worst = TestPictures.largestChannelDifference(image, Self.picture)
        #expect(worst <= encoding.tolerance, "a channel differs by \(worst)")
    }

    @Test("the cache's MBTiles metadata names the format of the tiles stored", arguments: encodings)
    func metadataNamesTheFormat(_ encoding: Encoding) async throws {
        let world = try UpstreamWorld()
        world.upstream.setResponse(.image(try encoding.encode(Self.picture), contentType: encoding.contentType), for: upstreamPath(Self.tile))
        #expect(await world.store.tile(Self.tile).fill == .fetched)
        try await world.store.flush()
        #expect(try await IndependentSQLite.query(world.cachePath, "SELECT value FROM metadata WHERE name = 'format'") == [[encoding.mbtilesFormat]])
    }

    @Test("cache verification passes JPEG and WebP tiles and names a truncated one")
    func verification() throws {
        try withTemporaryDirectory { directory in
            let cache = try MBTilesCache(creatingIfNeeded: directory.appendingPathComponent("formats.mbtiles").path)
            let jpeg = TileID(z: 3, x: 1, y: 1), webp = TileID(z: 3, x: 2, y: 1), cut = TileID(z: 3, x: 3, y: 1)
            try cache.store(try TestImageEncoder.jpeg(Self.picture), for: jpeg)
            try cache.store(try TestImageEncoder.webp(Self.picture, lossless: false), for: webp)
            try cache.store(HostileImages.truncated(try TestImageEncoder.jpeg(Self.picture)), for: cut)
            let corrupt = try cache.survey(checkingWith: TileDecoder(tileSize: 256)).corrupt
            #expect(corrupt.map(\.tile) == [cut])
            #expect(corrupt.first?.reason.contains("Premature end of JPEG file") == true, "\(corrupt)")
        }
    }

    @Test("the bytes decide the format, not the Content-Type")
    func bytesDecide() async throws {
        let world = try UpstreamWorld()
        let webp = try TestImageEncoder.webp(Self.picture, lossless: true)
        let png = try Self.picture.pngData()
        let neighbour = TileID(z: 16, x: Self.tile.x + 1, y: Self.tile.y)
        world.upstream.setResponse(.image(webp, contentType: "image/png"), for: upstreamPath(Self.tile))
        world.upstream.setResponse(.image(png, contentType: "image/jpeg"), for: upstreamPath(neighbour))
        for (tile, bytes) in [(Self.tile, webp), (neighbour, png)] {
            #expect(await world.store.tile(tile).fill == .fetched)
            #expect(try world.cached(tile).bytes == bytes)
            let image = try #require((await world.store.drawn(tile)).image)
            #expect(TestPictures.largestChannelDifference(image, Self.picture) == 0)
        }
    }
}
