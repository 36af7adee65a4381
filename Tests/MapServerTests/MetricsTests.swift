import Foundation
import MapGeometry
import MapServer
import Testing
import UpstreamSimulator

/// `/metrics` in Prometheus text format, after traffic that exercises each measurement.
/// Metrics are process-wide (one registry per process), so this checks that the series exist,
/// not their exact counts, which other tests running at the same time also move.
@Suite struct MetricsTests {
    @Test func metricsAfterTraffic() async throws {
        let upstream = try UpstreamSimulator()
        defer { upstream.stop() }
        // Tiles that expire at once, so that a second request must revalidate them.
        upstream.serveFixtureTiles(headers: [("Cache-Control", "max-age=0")])
        let catalog = try Fixtures.catalog(styleNamed: "sim", upstream: upstream.baseURL)
        try await TestServer.with({ $0.catalog = catalog; $0.fetchPolicy = Fixtures.impatientFetching }) { server in
            let tile = TileID.containing(Fixtures.cambridge, zoom: 16)
            let path = Fixtures.tilePath(tile, style: "sim")
            #expect(try await server.get(path).status == 200)  // fetched from the upstream
            upstream.inject(.status(500), for: nil, times: 5)
            let stale = try await server.get(path)  // expired, and the upstream fails: served stale
            #expect(stale.status == 200 && stale.header("X-MapFrame-Placeholder") == nil, "\(stale)")
            #expect(try await server.get("/frame.png?style=sim&lat=52.2072&lon=0.1412&zoom=16&width=64&height=64").status == 200)
            #expect(try await server.get("/tiles/sim/30/0/0.png").status == 404)

            // A fixture server for memory hits (fresh tiles are kept encoded in memory).
            try await TestServer.with(fixtures: true) { fixtureServer in
                for _ in 0..<2 {
                    let reply = try await fixtureServer.get(Fixtures.tilePath(tile))
                    #expect(reply.status == 200)
                }
            }

            let reply = try await server.get("/metrics")
            #expect(reply.status == 200, "\(reply)")
            #expect(reply.header("Content-Type")?.hasPrefix("text/plain") == true)
            let lines = reply.text.split(separator: "\n").map(String.init)

            func hasSeries(_ name: String, _ labels: [String] = []) -> Bool {
                lines.contains { line in line.hasPrefix(name) && labels.allSatisfy { line.contains($0) } }
            }
            let tileRoute = #"endpoint="/tiles/{style}/{z}/{x}/{y}""#
            #expect(hasSeries("mapframe_http_requests_total{", [tileRoute, #"status="200""#]), "\(reply.text.prefix(3000))")
            #expect(hasSeries("mapframe_http_requests_total{", [tileRoute, #"status="404""#]))
            #expect(hasSeries("mapframe_http_requests_total{", [#"endpoint="/frame.png""#, #"status="200""#]))
            for result in ["fetched", "stale", "hit", "cached"] {
                #expect(hasSeries("mapframe_tile_cache_total{", [#"result="\#(result)""#]), "no mapframe_tile_cache_total for \(result)")
            }
            #expect(hasSeries("mapframe_render_seconds_count"), "\(lines.filter { $0.contains("mapframe") })")
            #expect(hasSeries("mapframe_upstream_fetch_seconds_count"), "\(lines.filter { $0.contains("mapframe") })")
        }
    }
}
