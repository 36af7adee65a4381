import Foundation
import MapFrameTestSupport
import MapGeometry
import MapServer
import Testing
import TileStore
import UpstreamSimulator

/// A request waits for a hung upstream no longer than the server's upstream wait: the tile is
/// answered grey (not kept), a frame is drawn with what is cached, and the tile fetched later
/// is served from then on. The upstream here answers only when the test lets it.
@Suite struct HungUpstreamTests {
    @Test("a tile and a frame wait at most the upstream wait, then the late tile is served")
    func waitsAreBounded() async throws {
        let upstream = try UpstreamSimulator()
        defer { upstream.stop() }
        // The upstream answers only when the test lets it: a request that returns before then
        // did not wait for it.
        let gate = DispatchSemaphore(value: 0)
        defer { for _ in 0..<100 { gate.signal() } }
        upstream.setDefaultHandler { path in
            _ = gate.wait(timeout: .now() + 60)
            guard let tile = tileID(atUpstreamPath: path), let png = try? Fixtures.tilePNG(tile) else { return nil }
            return .png(png, headers: [("Cache-Control", "max-age=600")])
        }
        try await TestServer.with({ (configuration: inout MapServerConfiguration) in
            configuration.catalog = try! Fixtures.catalog(styleNamed: "slow", upstream: upstream.baseURL)
            // The fetches themselves may wait as long as the test holds the upstream, however
            // slow a loaded machine makes it: only the server's wait is under test.
            configuration.fetchPolicy = FetchPolicy(totalTimeout: .seconds(60), fetchDeadline: .seconds(60))
            configuration.upstreamWait = .seconds(1)
        }) { server in
            let tile = TileID.containing(Fixtures.cambridge, zoom: 16)
            let first = try await server.get(Fixtures.tilePath(tile, style: "slow"))
            #expect(first.status == 200, "\(first)")
            #expect(first.header("X-MapFrame-Placeholder") == "true", "\(first)")
            #expect(first.header("Cache-Control") == "no-store", "\(first)")
            let frame = try await server.get("/frame.png?style=slow&lat=40&lon=-100&zoom=12")
            #expect(frame.status == 200, "\(frame)")
            #expect(!upstream.requests.isEmpty, "the tiles were asked for")

            for _ in 0..<100 { gate.signal() }
            try await waitUntil("the late tile is cached", deadline: 60) {
                try await server.get(Fixtures.tilePath(tile, style: "slow")).header("X-MapFrame-Placeholder") == nil
            }
            #expect(upstream.requestCount(for: upstreamPath(tile)) == 1)
        }
    }
}
