import Foundation
import ImageCodec
import MapFrameTestSupport
import MapGeometry
import Testing
import TileStore
import UpstreamSimulator

/// A stored tile is sent as it is, with its own format's Content-Type; whatever the server draws
/// (composited tiles, @2x tiles of 256 px sources, frames) is PNG.
@Suite struct TileFormatServingTests {
    static let tile = TileID.containing(Fixtures.cambridge, zoom: 16)
    static let picture = TestPictures.gradient(width: 256, height: 256)

    /// Each format a tile may be stored in, with its bytes.
    static func storedTiles() throws -> [(ImageHeader.Format, Data)] {
        [
            (.png, try picture.pngData()),
            (.jpeg, try TestImageEncoder.jpeg(picture)),
            (.webp, try TestImageEncoder.webp(picture, lossless: false)),
        ]
    }

    @Test("a stored JPEG, WebP or PNG tile is sent byte for byte with its own Content-Type, from the cache and from memory")
    func storedTileKeepsItsFormat() async throws {
        try await TestServer.with(fixtures: true) { server in
            let cache = try MBTilesCache(openingExisting: server.cacheDirectory + "/osm.mbtiles", readOnly: false)
            for (offset, (format, bytes)) in try Self.storedTiles().enumerated() {
                let tile = TileID(z: 16, x: Self.tile.x + offset, y: Self.tile.y)
                try cache.store(bytes, for: tile)
                let path = Fixtures.tilePath(tile)
                // The first answer reads the cache; the second, kept alive, comes from memory.
                let replies = try await HTTP.pipelined([path, path], port: server.port)
                for reply in replies {
                    #expect(reply.status == 200, "\(reply)")
                    #expect(reply.header("Content-Type") == format.mimeType, "\(reply)")
                    #expect(reply.body == bytes, "the tile is sent as it is stored")
                }
                let head = try await server.head(path)
                #expect(head.header("Content-Type") == format.mimeType && head.body.isEmpty, "\(head)")
            }
        }
    }

    @Test("tiles drawn over a JPEG tile, and frames, are PNG")
    func drawnImagesArePNG() async throws {
        try await TestServer.with(fixtures: true) { server in
            let cache = try MBTilesCache(openingExisting: server.cacheDirectory + "/osm.mbtiles", readOnly: false)
            let under = TileID.containing(RoutePayloadFixture.cambridgePoints[0], zoom: 16)
            try cache.store(try TestImageEncoder.jpeg(Self.picture), for: under)
            let route = try await server.addRoute(.geoJSONFeature(RoutePayloadFixture.cambridgePoints))
            let id = try #require(route["id"] as? String)
            let parent = TileID(z: 15, x: under.x / 2, y: under.y / 2)
            let point = RoutePayloadFixture.cambridgePoints[0]
            for path in [
                Fixtures.tilePath(under, route: id), Fixtures.tilePath(parent, retina: true),
                "/frame.png?style=osm&lat=\(point.latitude)&lon=\(point.longitude)&zoom=16",
            ] {
                let reply = try await server.get(path)
                #expect(reply.status == 200, "\(path): \(reply)")
                #expect(reply.header("Content-Type") == "image/png", "\(path): \(reply)")
                #expect(try ImageHeader.read(reply.body).format == .png, "\(path)")
            }
        }
    }
}
