import Foundation
import ImageCodec
import MapGeometry
import Testing
import TileStore
import UpstreamSimulator

/// A cache file from elsewhere may hold tiles of another size: the server answers them as
/// missing rather than send a 17x5 or 8192x8192 image on to a map.
@Suite struct WrongSizedCachedTileTests {
    @Test("a wrong-sized tile in the cache file is answered with the placeholder", arguments: [(8192, 8192), (17, 5)])
    func wrongSizedTileIsNotServed(_ size: (width: Int, height: Int)) async throws {
        try await TestServer.with(fixtures: true) { server in
            let tile = TileID.containing(Fixtures.cambridge, zoom: 16)
            let cache = try MBTilesCache(openingExisting: server.cacheDirectory + "/osm.mbtiles", readOnly: false)
            try cache.store(BlankPNG.data(width: size.width, height: size.height), for: tile)
            let reply = try await server.get(Fixtures.tilePath(tile))
            #expect(reply.status == 200, "\(reply)")
            #expect(reply.header("X-MapFrame-Placeholder") == "true", "\(reply)")
            #expect(try reply.image().width == 256)
        }
    }
}
