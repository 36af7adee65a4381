import Foundation
import ImageCodec
import MapFrameTestSupport
import MapGeometry
import Testing
import TileStore
import UpstreamSimulator

/// Hostile images, from the upstream or already in a cache file: each is drawn grey and reported
/// with what is wrong with it, never stored, never held decoded, and never replaces a good tile.
/// None costs the memory it declares: sizes are refused from the header before decoding.
@Suite("Hostile tiles")
struct HostileTileTests {
    static let tile = TileID(z: 16, x: 32793, y: 21586)

    /// A hostile image and what the refusal must say.
    struct Hostile: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let contentType: String
        let mentions: String
        let make: @Sendable () throws -> Data
    }

    static let hostiles = [
        Hostile(testDescription: "a JPEG declaring 65,500 x 65,500", contentType: "image/jpeg",
                mentions: "the image is 65500x65500 pixels; a tile must be 256x256 or 512x512") { try HostileImages.giantJPEG() },
        Hostile(testDescription: "a WebP declaring 65,500 x 65,500", contentType: "image/webp",
                mentions: "the image is 65500x65500 pixels; a tile must be 256x256 or 512x512") { try HostileImages.giantWebP() },
        Hostile(testDescription: "a truncated JPEG", contentType: "image/jpeg", mentions: "Premature end of JPEG file") {
            HostileImages.truncated(try TestImageEncoder.jpeg(TestPictures.gradient(width: 256, height: 256)))
        },
        Hostile(testDescription: "a truncated WebP", contentType: "image/webp", mentions: "the WebP is truncated") {
            HostileImages.truncated(try TestImageEncoder.webp(TestPictures.gradient(width: 256, height: 256), lossless: false))
        },
        Hostile(testDescription: "a PNG whose IHDR declares 65,500 x 65,500", contentType: "image/png",
                mentions: "the image is 65500x65500 pixels") { try HostileImages.lyingPNG(width: 65_500, height: 65_500) },
        Hostile(testDescription: "a PNG whose IHDR declares 256 x 256 over 16 x 16 of pixels", contentType: "image/png",
                mentions: "Not enough image data") { try HostileImages.lyingPNG(width: 256, height: 256) },
        Hostile(testDescription: "a PNG whose IHDR declares 16-bit samples", contentType: "image/png",
                mentions: "bad adaptive filter value") { try HostileImages.lyingPNG(side: 256, width: 256, height: 256, depth: 16) },
    ]

    @Test("from the upstream over an expired copy: the good copy is kept byte for byte and drawn stale", arguments: hostiles)
    func overCachedCopy(_ hostile: Hostile) async throws {
        let world = try UpstreamWorld()
        let good = try world.seedExpiredCopy(of: Self.tile)
        let goodFreshness = try world.cached(Self.tile).freshness
        world.upstream.setResponse(.image(try hostile.make(), contentType: hostile.contentType), for: upstreamPath(Self.tile))

        let message = try #require(await world.store.fill(Self.tile).staleMessage, "the fill should fail and serve the copy")
        #expect(message.contains(hostile.mentions), "\(message)")
        #expect(try world.cached(Self.tile).bytes == good, "the good tile must be kept byte for byte")
        #expect(try world.cached(Self.tile).freshness == goodFreshness)
        #expect(world.decodedTiles.count == 0, "the hostile image must not be held decoded")
        try world.expectCached(Self.tile, bytes: good)
    }

    @Test("from the upstream with nothing cached: the fill fails, naming the fault, and nothing is stored", arguments: hostiles)
    func withoutCopy(_ hostile: Hostile) async throws {
        let world = try UpstreamWorld()
        world.upstream.setResponse(.image(try hostile.make(), contentType: hostile.contentType), for: upstreamPath(Self.tile))
        let missing = try #require(await world.store.fill(Self.tile).missing)
        let message = try #require(missing.reason.fetchFailureMessage, "\(missing)")
        #expect(message.contains(hostile.mentions), "\(message)")
        #expect(world.decodedTiles.count == 0)
        try world.expectNothingCached(Self.tile)
    }

    @Test("in a cache file: reported undecodable on every lookup, and the file is left as it was", arguments: hostiles)
    func inCacheFile(_ hostile: Hostile) throws {
        let world = try UpstreamWorld()
        let bytes = try hostile.make()
        try MBTilesCache(openingExisting: world.cachePath, readOnly: false).store(bytes, for: Self.tile)
        for _ in 0..<2 {
            let reason = try #require(world.store.tile(Self.tile).missingReason, "the hostile tile was drawn")
            guard case .undecodable(let message) = reason else {
                Issue.record("reported as \(reason), not undecodable")
                return
            }
            #expect(message.contains(hostile.mentions), "\(message)")
        }
        #expect(world.decodedTiles.count == 0)
        #expect(try world.cached(Self.tile).bytes == bytes, "reading must not change the cache")
    }
}
