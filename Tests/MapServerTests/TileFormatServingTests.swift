import Foundation
import ImageCodec
import MapFrameTestSupport
import MapGeometry
import MapServer
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
                // Over a raw socket, which shows any body bytes after the head.
                let head = try await HTTP.send("HEAD", path, port: server.port)
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

    /// A style of 512 px tiles from `upstream`, each one JPEG of one colour (`LargeTiles.colour`).
    static func withLargeTileSource(_ body: (TestServer, UpstreamSimulator) async throws -> Void) async throws {
        let upstream = try UpstreamSimulator()
        defer { upstream.stop() }
        upstream.setDefaultHandler { path in
            guard let tile = tileID(atUpstreamPath: path),
                  let jpeg = try? TestImageEncoder.jpeg(RasterImage(width: 512, height: 512, filledWith: LargeTiles.colour(tile)))
            else { return nil }
            return .image(jpeg, contentType: "image/jpeg", headers: [("Cache-Control", "max-age=600")])
        }
        let json = #"{"name": "aerial", "url": "\#(upstream.baseURL)/{z}/{x}/{y}.png", "minZoom": 0, "maxZoom": 19, "tileSize": 512, "attribution": "Test upstream"}"#
        let source = try TileSource(json: Data(json.utf8), documentName: "aerial.json")
        try await TestServer.with({
            $0.catalog = StyleCatalog(sources: ["aerial": source])
            $0.fetchPolicy = Fixtures.impatientFetching
        }) { server in try await body(server, upstream) }
    }

    @Test("a 512 px source's tile z/x/y is the @2x tile z/x/y, sent as it is stored")
    func largeSourceRetinaTileIsItsOwnTile() async throws {
        try await Self.withLargeTileSource { server, upstream in
            let reply = try await server.get(Fixtures.tilePath(Self.tile, style: "aerial", retina: true))
            #expect(reply.status == 200, "\(reply)")
            #expect(reply.header("Content-Type") == "image/jpeg")
            #expect(upstream.requests.map(\.path) == [upstreamPath(Self.tile)], "only that tile is fetched")
            let image = try ImageDecoder.decode(reply.body)
            #expect(image.width == 512 && image.height == 512)
            #expect(image.pixel(x: 256, y: 256).maxChannelDifference(to: LargeTiles.colour(Self.tile)) <= 3)
        }
    }

    @Test("a 512 px source's 1x tile is drawn, as PNG, from the quarter of its tile one zoom shallower")
    func largeSourceTileIsDrawnFromItsParent() async throws {
        try await Self.withLargeTileSource { server, upstream in
            let reply = try await server.get(Fixtures.tilePath(Self.tile, style: "aerial"))
            #expect(reply.status == 200, "\(reply)")
            #expect(reply.header("Content-Type") == "image/png")
            #expect(reply.header("X-MapFrame-Placeholder") == nil)
            let parent = TileID(z: 15, x: Self.tile.x / 2, y: Self.tile.y / 2)
            #expect(upstream.requests.map(\.path) == [upstreamPath(parent)], "only its parent is fetched")
            let image = try reply.image()
            #expect(image.width == 256 && image.height == 256)
            #expect(image.pixel(x: 0, y: 0).maxChannelDifference(to: LargeTiles.colour(parent)) <= 3)
            #expect(image.pixel(x: 255, y: 255).maxChannelDifference(to: LargeTiles.colour(parent)) <= 3)
        }
    }
}

/// The colours of the 512 px test source's tiles: one per tile, never grey.
enum LargeTiles {
    static func colour(_ tile: TileID) -> Colour {
        Colour(redLevel: UInt8(truncatingIfNeeded: tile.x * 40 + 20), greenLevel: UInt8(truncatingIfNeeded: tile.y * 60 + 10), blueLevel: UInt8(truncatingIfNeeded: tile.z * 13))
    }
}
