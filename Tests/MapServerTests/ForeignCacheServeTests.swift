import Foundation
import MapFrameTestSupport
import MapGeometry
import Testing
import UpstreamSimulator

/// `mapframe serve` on MBTiles files other tools made, and its tile metrics: a tile served from
/// a cache counts as cached, `failed` only when a fetch failed, `missing` when there was
/// nothing to get. Each server is a process of its own, so its metrics are its alone.
@Suite struct ForeignCacheServeTests {
    /// Tiles of the demo fixture area, at zoom 16 around Cambridge.
    static let tiles = [TileID.containing(Fixtures.cambridge, zoom: 16), TileID.containing(Fixtures.cambridge, zoom: 15)]

    /// `mapframe_tile_cache_total` by result, from a /metrics page.
    static func tileCounts(of server: ServeProcess) async throws -> [String: Int] {
        let reply = try await server.get("/metrics")
        var counts: [String: Int] = [:]
        for match in reply.text.matches(of: /mapframe_tile_cache_total\{result="(\w+)"[^}]*\} (\d+)/) {
            counts[String(match.1)] = Int(match.2)
        }
        return counts
    }

    @Test("serve --offline serves another tool's file: every tile counts as cached, and the file is untouched",
          arguments: [ForeignMBTiles.Layout.mobac, .mapProxy, .mbutil])
    func offline(layout: ForeignMBTiles.Layout) async throws {
        let fixtures = try TemporaryDirectory("fixtures")
        defer { fixtures.remove() }
        try Fixtures.installOSMCache(in: fixtures.path)
        let cache = try TemporaryDirectory("foreign-serve")
        defer { cache.remove() }
        let path = cache.path("osm.mbtiles")
        try await ForeignMBTiles.write(layout, to: path, tilesFrom: fixtures.path("osm.mbtiles"))
        let before = try FileSnapshot(path)

        let server = try await ServeProcess.start(["--cache-dir", cache.path, "--offline"])
        for tile in Self.tiles {
            let reply = try await server.get(Fixtures.tilePath(tile))
            #expect(reply.status == 200 && reply.header("X-MapFrame-Placeholder") == nil, "\(tile): \(reply)")
        }
        let frame = try await server.get("/frame.png?style=osm&lat=52.2072&lon=0.1412&zoom=16&width=64&height=64")
        #expect(frame.status == 200, "\(frame)")
        let counts = try await Self.tileCounts(of: server)
        #expect((counts["cached"] ?? 0) >= Self.tiles.count + 1, "\(counts)")
        #expect(counts["failed", default: 0] == 0 && counts["missing", default: 0] == 0 && counts["placeholder", default: 0] == 0, "\(counts)")
        server.send(SIGTERM)
        #expect(try await server.waitForExit() == 0, "\(server.standardError)")
        #expect(try FileSnapshot(path) == before)
    }

    @Test("online, a tile whose fetch fails counts as failed, one the upstream has not as missing, and neither as cached")
    func failedAndMissing() async throws {
        let failing = TileID(z: 16, x: 32793, y: 21586), absent = TileID(z: 16, x: 32794, y: 21586)
        let upstream = try UpstreamSimulator()
        defer { upstream.stop() }
        upstream.setDefaultHandler { path in
            path == upstreamPath(failing) ? SimulatedResponse(status: 500, headers: [("Content-Type", "text/plain")], body: Data("down\n".utf8)) : nil
        }
        let cache = try TemporaryDirectory("serve-metrics")
        defer { cache.remove() }
        let style = cache.path("sim.style.json")
        try Data(#"{"name": "sim", "url": "\#(upstream.baseURL)/{z}/{x}/{y}.png", "minZoom": 0, "maxZoom": 19, "attribution": "Test"}"#.utf8)
            .write(to: URL(fileURLWithPath: style))

        let server = try await ServeProcess.start(["--cache-dir", cache.path, "--style-file", style], environment: ["NO_PROXY": "127.0.0.1", "no_proxy": "127.0.0.1"])
        for tile in [failing, absent] {
            let reply = try await server.get(Fixtures.tilePath(tile, style: "sim"))
            #expect(reply.status == 200 && reply.header("X-MapFrame-Placeholder") == "true", "\(tile): \(reply)")
        }
        let counts = try await Self.tileCounts(of: server)
        #expect(counts["failed"] == 1 && counts["missing"] == 1 && counts["cached", default: 0] == 0 && counts["placeholder"] == 2, "\(counts)")
        server.send(SIGTERM)
        #expect(try await server.waitForExit() == 0, "\(server.standardError)")
    }
}
