import Foundation
import ImageCodec
import MapFrameTestSupport
import MapGeometry
import MapServer
import Testing
import UpstreamSimulator

/// HTTP caching headers, HEAD and CORS on tiles, and what a client gets when the upstream is down.
@Suite struct CachingHeaderTests {
    static let tile = TileID.containing(Fixtures.cambridge, zoom: 16)

    /// A tile held in memory is read from the cache again once `memoryLifetime` has passed, so
    /// a later answer's max-age is what is left of the tile's freshness, not what was left then.
    @Test func maxAgeCountsDownWithTheTilesFreshness() async throws {
        try await TestServer.withSimulatedUpstream(memoryLifetime: 1) { server, upstream in
            let path = Fixtures.tilePath(CachingHeaderTests.tile, style: "sim")
            let first = try await server.get(path)
            let firstMaxAge = try #require(first.maxAge, "\(first)")
            try await Task.sleep(for: .milliseconds(2_200))
            // Kept-alive requests, so that an answer from memory would be given if one were held.
            let later = try await HTTP.pipelined([path, path], port: server.port)
            for reply in later {
                let maxAge = try #require(reply.maxAge, "\(reply)")
                #expect(maxAge <= firstMaxAge - 2, "max-age \(maxAge) after 2.2 s; it was \(firstMaxAge)")
                #expect(reply.body == first.body)
            }
            #expect(upstream.requestCount(for: "/16/\(CachingHeaderTests.tile.x)/\(CachingHeaderTests.tile.y).png") == 1)
        }
    }

    @Test func fetchedTileHasStrongETagFreshnessAndLastModified() async throws {
        try await TestServer.withSimulatedUpstream { server, upstream in
            let path = Fixtures.tilePath(CachingHeaderTests.tile, style: "sim")
            let first = try await server.get(path)
            #expect(first.status == 200, "\(first)")
            #expect(upstream.requestCount(for: "/16/\(CachingHeaderTests.tile.x)/\(CachingHeaderTests.tile.y).png") == 1)
            #expect(first.body == (try Fixtures.tilePNG(CachingHeaderTests.tile)), "the upstream's bytes, unchanged")
            let etag = try #require(first.header("ETag"))
            #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""), "a strong (unweakened, quoted) ETag: \(etag)")
            // The client may keep it as long as the upstream said, no longer.
            let maxAge = try #require(first.maxAge, "\(first)")
            #expect((1...600).contains(maxAge), "max-age \(maxAge) should come from the upstream's 600")
            #expect(first.header("Cache-Control")?.hasPrefix("public") == true)
            let lastModified = try #require(first.header("Last-Modified"))
            #expect(lastModified.hasSuffix(" GMT"), "an HTTP date: \(lastModified)")
            #expect(first.header("Access-Control-Allow-Origin") == "*")

            let second = try await server.get(path)
            #expect(second.status == 200)
            #expect(second.header("ETag") == etag, "the same tile, the same ETag")
            #expect(second.body == first.body)

            // Over a raw socket, which shows any body bytes after the head.
            let notModified = try await HTTP.send("GET", path, port: server.port, headers: [("If-None-Match", etag)])
            #expect(notModified.status == 304, "\(notModified)")
            #expect(notModified.body.isEmpty, "a 304 has no body")
            #expect(notModified.header("ETag") == etag)
            #expect(notModified.header("Access-Control-Allow-Origin") == "*")
            let amongOthers = try await server.get(path, headers: [("If-None-Match", "\"something-else\", \(etag)")])
            #expect(amongOthers.status == 304, "\(amongOthers)")
            let weakened = try await server.get(path, headers: [("If-None-Match", "W/\(etag)")])
            #expect(weakened.status == 304, "If-None-Match compares weakly: \(weakened)")
            let stale = try await server.get(path, headers: [("If-None-Match", "\"something-else\"")])
            #expect(stale.status == 200 && stale.body == first.body, "\(stale)")

            let head = try await HTTP.send("HEAD", path, port: server.port)
            #expect(head.status == 200, "\(head)")
            #expect(head.body.isEmpty, "HEAD has no body")
            #expect(head.header("ETag") == etag)
            #expect(head.header("Content-Type") == "image/png")
            #expect(head.header("Content-Length") == String(first.body.count))
            #expect(head.header("Last-Modified") == lastModified)
            #expect(head.header("Access-Control-Allow-Origin") == "*")
        }
    }

    @Test func cachedFixtureTilesAndRouteTilesHaveETagsToo() async throws {
        try await TestServer.with(fixtures: true) { server in
            let base = Fixtures.tilePath(CachingHeaderTests.tile)
            let plain = try await server.get(base)
            let etag = try #require(plain.header("ETag"))
            // Fixture tiles carry no freshness of their own: a day.
            #expect(plain.maxAge == 86_400, "\(plain)")
            #expect(try await server.get(base, headers: [("If-None-Match", etag)]).status == 304)

            let route = try await server.addRoute(.geoJSONFeature(RoutePayloadFixture.cambridgePoints))
            let id = try #require(route["id"] as? String)
            let routePath = Fixtures.tilePath(CachingHeaderTests.tile, route: id)
            let routeTile = try await server.get(routePath)
            let routeETag = try #require(routeTile.header("ETag"))
            #expect(routeETag != etag)
            #expect((routeTile.maxAge ?? 0) > 0, "\(routeTile)")
            #expect(try await server.get(routePath).header("ETag") == routeETag)
            // Over a raw socket, which shows any body bytes after the head.
            let notModified = try await HTTP.send("GET", routePath, port: server.port, headers: [("If-None-Match", routeETag)])
            #expect(notModified.status == 304 && notModified.body.isEmpty, "\(notModified)")
            let head = try await HTTP.send("HEAD", routePath, port: server.port)
            #expect(head.status == 200 && head.body.isEmpty && head.header("ETag") == routeETag, "\(head)")

            let retina = try await server.get(Fixtures.tilePath(CachingHeaderTests.tile, retina: true))
            let retinaETag = try #require(retina.header("ETag"))
            #expect(try await server.get(Fixtures.tilePath(CachingHeaderTests.tile, retina: true), headers: [("If-None-Match", retinaETag)]).status == 304)

            // HEAD works on JSON endpoints as well.
            let tileJSON = try await HTTP.send("HEAD", "/tiles/osm.json", port: server.port)
            #expect(tileJSON.status == 200 && tileJSON.body.isEmpty && tileJSON.header("Content-Type") == "application/json", "\(tileJSON)")
        }
    }

    // MARK: - Upstream down

    enum Outage: String, CaseIterable, Sendable {
        /// The upstream answers 500 to everything.
        case serverErrors
        /// Nothing listens where the upstream was.
        case stopped
    }

    /// Starts a server whose "sim" style's upstream is down in the given way, with an empty cache.
    private func withUpstreamDown(
        _ outage: Outage, missing: MapServerConfiguration.MissingTileAnswer = .placeholder, _ body: (TestServer) async throws -> Void
    ) async throws {
        let upstream = try UpstreamSimulator()
        defer { upstream.stop() }
        switch outage {
        case .serverErrors:
            upstream.setDefaultHandler { _ in SimulatedResponse(status: 500, headers: [("Content-Type", "text/plain")], body: Data("down\n".utf8)) }
        case .stopped:
            upstream.stop()
        }
        let catalog = try Fixtures.catalog(styleNamed: "sim", upstream: upstream.baseURL)
        try await TestServer.with({
            $0.catalog = catalog
            $0.fetchPolicy = Fixtures.impatientFetching
            $0.missingTileAnswer = missing
        }) { server in try await body(server) }
    }

    @Test(arguments: Outage.allCases)
    func upstreamDownGivesAGreyPlaceholder(_ outage: Outage) async throws {
        try await withUpstreamDown(outage) { server in
            for retina in [false, true] {
                let reply = try await server.get(Fixtures.tilePath(CachingHeaderTests.tile, style: "sim", retina: retina))
                #expect(reply.status == 200, "\(reply)")
                #expect(reply.header("Cache-Control") == "no-store")
                #expect(reply.header("X-MapFrame-Placeholder") == "true")
                #expect(reply.header("Access-Control-Allow-Origin") == "*")
                let image = try reply.image()
                let side = retina ? 512 : 256
                #expect(image.width == side && image.height == side)
                let notGrey = image.allPixels.count { $0 != Colour(redLevel: 128, greenLevel: 128, blueLevel: 128) }
                #expect(notGrey == 0, "\(notGrey) pixels are not exactly 128,128,128")
                // A placeholder is never answered with 304: the client must keep asking.
                if let etag = reply.header("ETag") {
                    #expect(try await server.get(Fixtures.tilePath(CachingHeaderTests.tile, style: "sim", retina: retina), headers: [("If-None-Match", etag)]).status == 200)
                }
            }
            // Composited tiles say so too: the route is drawn over grey and the answer is not kept.
            let route = try await server.addRoute(.gpx(RoutePayloadFixture.cambridgePoints))
            let id = try #require(route["id"] as? String)
            let routeTile = try await server.get(Fixtures.tilePath(CachingHeaderTests.tile, style: "sim", route: id))
            #expect(routeTile.status == 200, "\(routeTile)")
            #expect(routeTile.header("X-MapFrame-Placeholder") == "true")
            #expect(routeTile.header("Cache-Control") == "no-store")
        }
    }

    @Test(arguments: Outage.allCases)
    func upstreamDownWithMissing404(_ outage: Outage) async throws {
        try await withUpstreamDown(outage, missing: .notFound) { server in
            for retina in [false, true] {
                let reply = try await server.get(Fixtures.tilePath(CachingHeaderTests.tile, style: "sim", retina: retina))
                try expectJSONError(reply, status: 404, mentions: "could not be fetched")
            }
        }
    }
}
