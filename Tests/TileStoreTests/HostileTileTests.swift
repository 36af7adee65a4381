import Foundation
import ImageCodec
import MapFrameTestSupport
import MapGeometry
import Testing
import TileStore
import UpstreamSimulator

/// Hostile images, from the upstream or already in a cache file. From the upstream, an image of
/// a size no tile has, or one cut short, is refused on arrival, saying what is wrong with it,
/// never stored, and never replaces a good tile; a whole image whose pixels do not decode is
/// stored as sent (a fetched tile is checked, not decoded) and drawn grey. In a cache file, each
/// is drawn grey and reported. None costs the memory it declares: sizes are refused from the
/// header before decoding.
@Suite("Hostile tiles")
struct HostileTileTests {
    static let tile = TileID(z: 16, x: 32793, y: 21586)

    /// A hostile image and what the refusals must say.
    struct Hostile: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let contentType: String
        /// What the refusal of the image from the upstream says; nil when it is whole and of a
        /// tile's size, and so stored.
        let refusedOnArrival: String?
        /// What drawing it from a cache file says.
        let undecodable: String
        let make: @Sendable () throws -> Data
    }

    static let hostiles = [
        Hostile(testDescription: "a JPEG declaring 65,500 x 65,500", contentType: "image/jpeg",
                refusedOnArrival: "the image is 65500x65500 pixels; a tile must be 256x256 or 512x512",
                undecodable: "the image is 65500x65500 pixels; a tile must be 256x256 or 512x512") { try HostileImages.giantJPEG() },
        Hostile(testDescription: "a WebP declaring 65,500 x 65,500", contentType: "image/webp",
                refusedOnArrival: "the image is 65500x65500 pixels; a tile must be 256x256 or 512x512",
                undecodable: "the image is 65500x65500 pixels; a tile must be 256x256 or 512x512") { try HostileImages.giantWebP() },
        Hostile(testDescription: "a truncated JPEG", contentType: "image/jpeg", refusedOnArrival: "a truncated JPEG",
                undecodable: "the image is not whole (a truncated JPEG") {
            HostileImages.truncated(try TestImageEncoder.jpeg(TestPictures.gradient(width: 256, height: 256)))
        },
        Hostile(testDescription: "a truncated WebP", contentType: "image/webp", refusedOnArrival: "a truncated WebP",
                undecodable: "the image is not whole (a truncated WebP") {
            HostileImages.truncated(try TestImageEncoder.webp(TestPictures.gradient(width: 256, height: 256), lossless: false))
        },
        Hostile(testDescription: "a truncated PNG", contentType: "image/png", refusedOnArrival: "a truncated PNG",
                undecodable: "the image is not whole (a truncated PNG") { HostileImages.truncated(try TestPictures.gradient(width: 256, height: 256).pngData()) },
        Hostile(testDescription: "a PNG whose IHDR declares 65,500 x 65,500", contentType: "image/png",
                refusedOnArrival: "the image is 65500x65500 pixels", undecodable: "the image is 65500x65500 pixels") {
            try HostileImages.lyingPNG(width: 65_500, height: 65_500)
        },
        Hostile(testDescription: "a PNG whose IHDR declares 256 x 256 over 16 x 16 of pixels", contentType: "image/png",
                refusedOnArrival: nil, undecodable: "Not enough image data") { try HostileImages.lyingPNG(width: 256, height: 256) },
        Hostile(testDescription: "a PNG whose IHDR declares 16-bit samples", contentType: "image/png",
                refusedOnArrival: nil, undecodable: "bad adaptive filter value") { try HostileImages.lyingPNG(side: 256, width: 256, height: 256, depth: 16) },
    ]

    static let refusedHostiles = hostiles.filter { $0.refusedOnArrival != nil }
    static let storedHostiles = hostiles.filter { $0.refusedOnArrival == nil }

    @Test("from the upstream over an expired copy: the good copy is kept byte for byte and drawn stale", arguments: refusedHostiles)
    func overCachedCopy(_ hostile: Hostile) async throws {
        let world = try UpstreamWorld()
        let good = try world.seedExpiredCopy(of: Self.tile)
        let goodFreshness = try world.cached(Self.tile).freshness
        world.upstream.setResponse(.image(try hostile.make(), contentType: hostile.contentType), for: upstreamPath(Self.tile))

        let message = try #require(await world.store.tile(Self.tile).fill.staleMessage, "the fill should fail and serve the copy")
        #expect(message.contains(hostile.refusedOnArrival ?? ""), "\(message)")
        #expect(try world.cached(Self.tile).bytes == good, "the good tile must be kept byte for byte")
        #expect(try world.cached(Self.tile).freshness == goodFreshness)
        try await world.expectCached(Self.tile, bytes: good)
    }

    @Test("from the upstream with nothing cached: the fill fails, naming the fault, and nothing is stored", arguments: refusedHostiles)
    func withoutCopy(_ hostile: Hostile) async throws {
        let world = try UpstreamWorld()
        world.upstream.setResponse(.image(try hostile.make(), contentType: hostile.contentType), for: upstreamPath(Self.tile))
        let missing = try #require(await world.store.tile(Self.tile).fill.missing)
        let message = try #require(missing.reason.fetchFailureMessage, "\(missing)")
        #expect(message.contains(hostile.refusedOnArrival ?? ""), "\(message)")
        try await world.expectNothingCached(Self.tile)
    }

    @Test("from the upstream, a whole image whose pixels do not decode is stored as sent, and drawn grey saying why", arguments: storedHostiles)
    func storedAsSent(_ hostile: Hostile) async throws {
        let world = try UpstreamWorld()
        let bytes = try hostile.make()
        world.upstream.setResponse(.image(bytes, contentType: hostile.contentType), for: upstreamPath(Self.tile))
        #expect(await world.store.tile(Self.tile).fill == .fetched)
        #expect(try world.cached(Self.tile).bytes == bytes)
        guard case .undecodable(let message)? = try await world.drawnFromCache(Self.tile).missingReason else {
            Issue.record("it was not reported undecodable")
            return
        }
        #expect(message.contains(hostile.undecodable), "\(message)")
    }

    @Test("in a cache file, offline: reported undecodable on every lookup, and the file is left as it was (with an upstream it is fetched again)", arguments: hostiles)
    func inCacheFile(_ hostile: Hostile) async throws {
        let world = try UpstreamWorld()
        let bytes = try hostile.make()
        try MBTilesCache(openingExisting: world.cachePath, readOnly: false).store(bytes, for: Self.tile)
        for _ in 0..<2 {
            let reason = try #require((try await world.drawnFromCache(Self.tile)).missingReason, "the hostile tile was drawn")
            guard case .undecodable(let message) = reason else {
                Issue.record("reported as \(reason), not undecodable")
                return
            }
            #expect(message.contains(hostile.undecodable), "\(message)")
        }
        #expect(try world.cached(Self.tile).bytes == bytes, "reading must not change the cache")
    }
}
