import Foundation
import ImageCodec
import MapGeometry
import MapServer
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

/// A tile damaged in the cache (cut short, or with bytes overwritten inside it) is never served
/// as a good one: offline it is the placeholder, never cacheable; with an upstream it is fetched
/// again, and the good tile replaces it.
@Suite struct DamagedCachedTileTests {
    static let tile = TileID.containing(Fixtures.cambridge, zoom: 16)

    /// The fixture cache's tile, damaged by `damage`, written back.
    static func damageTile(in cacheDirectory: String, _ damage: (Data) -> Data) throws {
        let cache = try MBTilesCache(openingExisting: cacheDirectory + "/osm.mbtiles", readOnly: false)
        let good = try #require(try cache.tileData(for: tile))
        try cache.store(damage(good), for: tile)
    }

    static let damages: [(String, @Sendable (Data) -> Data)] = [
        ("cut in half", { $0.prefix($0.count / 2) }),
        ("random bytes inside", { data in
            var damaged = data
            for offset in stride(from: data.count / 3, to: data.count / 3 + 64, by: 1) { damaged[offset] ^= 0x5A }
            return damaged
        }),
    ]

    @Test("offline, a damaged cached tile is answered with the placeholder, not cached", arguments: 0..<2)
    func damagedTileIsNotServedOffline(_ which: Int) async throws {
        try await TestServer.with(fixtures: true) { server in
            try Self.damageTile(in: server.cacheDirectory, Self.damages[which].1)
            let reply = try await server.get(Fixtures.tilePath(Self.tile))
            #expect(reply.status == 200, "\(Self.damages[which].0): \(reply)")
            #expect(reply.header("X-MapFrame-Placeholder") == "true", "\(Self.damages[which].0): \(reply)")
            #expect(reply.header("Cache-Control") == "no-store", "\(Self.damages[which].0): \(reply)")
        }
    }
}

extension DamagedCachedTileTests {
    @Test("with an upstream, a damaged cached tile is fetched again and replaced")
    func damagedTileIsFetchedAgain() async throws {
        try await TestServer.withSimulatedUpstream(memoryLifetime: 1) { server, upstream in
            let path = Fixtures.tilePath(Self.tile, style: "sim")
            let first = try await server.get(path)
            #expect(first.status == 200 && first.header("X-MapFrame-Placeholder") == nil, "\(first)")
            // Once the answer held in memory has lapsed, the stored tile is cut in half.
            try await Task.sleep(for: .milliseconds(1_200))
            let cache = try MBTilesCache(openingExisting: server.cacheDirectory + "/sim.mbtiles", readOnly: false)
            try cache.store(first.body.prefix(first.body.count / 2), for: Self.tile, freshness: TileFreshness(
                etag: nil, lastModified: nil, expiresAt: Date().addingTimeInterval(600), fetchedAt: Date()
            ))
            let second = try await server.get(path)
            #expect(second.status == 200 && second.header("X-MapFrame-Placeholder") == nil, "\(second)")
            #expect(second.body == first.body)
            #expect(upstream.requestCount(for: Self.upstreamPath) == 2)
            #expect(try cache.tileData(for: Self.tile) == first.body)
        }
    }

    static var upstreamPath: String { "/\(tile.z)/\(tile.x)/\(tile.y).png" }
}
