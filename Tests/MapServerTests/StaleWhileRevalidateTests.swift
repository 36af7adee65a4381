import Foundation
import MapFrameTestSupport
import MapGeometry
import MapServer
import Synchronization
import Testing
import TileStore
import UpstreamSimulator

/// Expired base tiles answered at once from the cache while one revalidation runs in the
/// background: the headers that say so, the metric that counts it, and turning it off.
@Suite struct StaleWhileRevalidateTests {
    static let tile = TileID.containing(Fixtures.cambridge, zoom: 16)
    static let path = Fixtures.tilePath(tile, style: "sim")

    @Test("an expired tile is answered from the cache with max-age=0 and the window left, counted as stale-revalidating, and revalidated with its ETag")
    func expiredTileIsAnsweredAtOnce() async throws {
        try await SlowUpstream.with(headers: [("Cache-Control", "max-age=0"), ("ETag", "\"v1\"")]) { upstream in
            try await TestServer.with({ $0.catalog = upstream.catalog; $0.fetchPolicy = Fixtures.impatientFetching }) { server in
                let fetched = try await server.get(Self.path)
                #expect(fetched.status == 200)
                #expect(fetched.header("Cache-Control")?.hasPrefix("public, max-age=0, stale-while-revalidate=") == true, "\(fetched)")
                #expect((86_390...86_400).contains(fetched.staleWhileRevalidate ?? 0), "\(fetched)")

                upstream.delay(by: 2)
                let stale = try await server.get(Self.path)
                #expect(stale.status == 200 && stale.body == fetched.body, "\(stale)")
                #expect(stale.header("Cache-Control")?.hasPrefix("public, max-age=0, stale-while-revalidate=") == true, "\(stale)")
                #expect((86_390...86_400).contains(stale.staleWhileRevalidate ?? 0), "\(stale)")
                #expect(stale.header("ETag") == fetched.header("ETag"))

                try await waitUntil("the revalidation reaches the upstream") { upstream.simulator.requestCount(for: upstreamPath(Self.tile)) == 2 }
                #expect(upstream.simulator.requests.last?.headers["if-none-match"] == "\"v1\"")
                let metrics = try await server.get("/metrics").text
                #expect(metrics.contains(#"result="stale-revalidating""#), "\(metrics.split(separator: "\n").filter { $0.contains("tile_cache") })")
            }
        }
    }

    @Test("a fresh tile offers the whole window to other caches")
    func freshTileOffersTheWindow() async throws {
        try await SlowUpstream.with(headers: [("Cache-Control", "max-age=600")]) { upstream in
            try await TestServer.with({
                $0.catalog = upstream.catalog
                $0.fetchPolicy = Fixtures.impatientFetching
                $0.staleWhileRevalidate = 7200
            }) { server in
                let fresh = try await server.get(Self.path)
                let cacheControl = try #require(fresh.header("Cache-Control"))
                #expect(cacheControl.wholeMatch(of: /public, max-age=(59\d|600), stale-while-revalidate=7200/) != nil, "\(cacheControl)")
            }
        }
    }

    @Test("with the window at 0, an expired tile waits for its revalidation, and its answer offers none")
    func zeroWindowWaits() async throws {
        try await SlowUpstream.with(headers: [("Cache-Control", "max-age=0"), ("ETag", "\"v1\"")]) { upstream in
            try await TestServer.with({
                $0.catalog = upstream.catalog
                $0.fetchPolicy = Fixtures.impatientFetching
                $0.staleWhileRevalidate = 0
            }) { server in
                #expect(try await server.get(Self.path).status == 200)
                upstream.delay(by: 0.5)
                let started = ContinuousClock.now
                let revalidated = try await server.get(Self.path)
                #expect(ContinuousClock.now - started >= .milliseconds(500), "answered before the upstream")
                #expect(revalidated.status == 200 && revalidated.header("Cache-Control") == "no-store", "\(revalidated)")
                #expect(upstream.simulator.requestCount(for: upstreamPath(Self.tile)) == 2)
            }
        }
    }
}

/// A simulated upstream serving the fixture tiles with `headers`, after a delay the test sets,
/// and the catalogue of one style, "sim", fetching from it.
final class SlowUpstream: Sendable {
    let simulator: UpstreamSimulator
    let catalog: StyleCatalog
    private let wait: Wait

    /// How long each answer waits first.
    private final class Wait: Sendable {
        let seconds = Mutex(0.0)
    }

    /// Runs `body` with the upstream answering at once until `delay(by:)` says otherwise.
    static func with(headers: [(String, String)], _ body: (SlowUpstream) async throws -> Void) async throws {
        let simulator = try UpstreamSimulator()
        defer { simulator.stop() }
        let wait = Wait()
        simulator.setDefaultHandler { path in
            guard let tile = tileID(atUpstreamPath: path), let png = try? Fixtures.tilePNG(tile) else { return nil }
            Thread.sleep(forTimeInterval: wait.seconds.withLock { $0 })
            return .png(png, headers: headers)
        }
        try await body(SlowUpstream(simulator: simulator, catalog: try Fixtures.catalog(styleNamed: "sim", upstream: simulator.baseURL), wait: wait))
    }

    private init(simulator: UpstreamSimulator, catalog: StyleCatalog, wait: Wait) {
        self.simulator = simulator
        self.catalog = catalog
        self.wait = wait
    }

    /// Every later answer waits `seconds` first.
    func delay(by seconds: Double) {
        wait.seconds.withLock { $0 = seconds }
    }
}

extension HTTPReply {
    /// `stale-while-revalidate` from Cache-Control, if given.
    var staleWhileRevalidate: Int? {
        guard let cacheControl = header("Cache-Control"), let match = cacheControl.firstMatch(of: /stale-while-revalidate=(\d+)/) else { return nil }
        return Int(match.1)
    }
}
