import Foundation
import ImageCodec
import MapFrameTestSupport
import MapGeometry
import MapServer
import Testing
import UpstreamSimulator

/// The server's life: restarts, SIGTERM while busy, and too much work at once.
@Suite struct LifecycleTests {
    /// Routes live in SQLite beside the tile caches, so a new process on the same cache directory has them.
    @Test func routesSurviveARestart() async throws {
        let cache = try TemporaryDirectory("restart")
        defer { cache.remove() }
        let arguments = ["--cache-dir", cache.path, "--offline"]

        let first = try await ServeProcess.start(arguments)
        let payload = RoutePayloadFixture.journeyXML(RoutePayloadFixture.cambridgePoints)
        let created = try await first.post("/routes", contentType: payload.contentType, body: payload.body)
        #expect(created.status == 201, "\(created)")
        let id = try #require(try created.json()["id"] as? String)
        first.send(SIGTERM)
        #expect(try await first.waitForExit() == 0, "\(first.standardError)")

        let second = try await ServeProcess.start(arguments)
        let read = try await second.get("/routes/\(id)")
        #expect(read.status == 200, "\(read)")
        #expect(try read.json()["coordinates"] as? [[Double]] == RoutePayloadFixture.cambridgePoints.map { [$0.longitude, $0.latitude] })
        let tileJSON = try await second.get("/routes/\(id)/tiles/osm.json")
        #expect(tileJSON.status == 200, "\(tileJSON)")
        second.send(SIGTERM)
        #expect(try await second.waitForExit() == 0, "\(second.standardError)")
    }

    /// SIGTERM while a tile is being fetched: the server stops taking connections, finishes the
    /// request with the real tile, and exits 0. The upstream holds its answer until the test lets
    /// it go, so the request is certainly in flight when the signal arrives.
    @Test func sigtermLetsTheRequestInFlightFinish() async throws {
        let cache = try TemporaryDirectory("sigterm")
        defer { cache.remove() }
        let upstream = try UpstreamSimulator()
        defer { upstream.stop() }
        let gate = DispatchSemaphore(value: 0)
        // Runs before upstream.stop(), which waits for the handler's thread.
        defer { for _ in 0..<10 { gate.signal() } }
        upstream.setDefaultHandler { path in
            gate.wait()
            guard let tile = tileID(atUpstreamPath: path), let png = try? Fixtures.tilePNG(tile) else { return nil }
            return .png(png, headers: [("Cache-Control", "max-age=600")])
        }
        let styleFile = cache.path + "/slow.style.json"
        try Data(#"{"name": "slow", "url": "\#(upstream.baseURL)/{z}/{x}/{y}.png", "minZoom": 0, "maxZoom": 19, "attribution": "Slow"}"#.utf8)
            .write(to: URL(fileURLWithPath: styleFile))

        let server = try await ServeProcess.start(["--cache-dir", cache.path + "/tiles", "--style-file", styleFile])
        let tile = TileID.containing(Fixtures.cambridge, zoom: 16)
        let port = server.port
        async let inFlight = server.get(Fixtures.tilePath(tile, style: "slow"))
        try await waitUntil("the server asks the upstream for the tile") { !upstream.requests.isEmpty }

        server.send(SIGTERM)
        try await waitUntil("the server stops accepting connections") { !HTTP.isListening(port: port) }
        gate.signal()

        let reply = try await inFlight
        #expect(reply.status == 200, "\(reply)")
        #expect(reply.header("X-MapFrame-Placeholder") == nil)
        #expect(reply.body == (try Fixtures.tilePNG(tile)))
        #expect(try await server.waitForExit() == 0, "\(server.standardError)")
        #expect(upstream.requests.count == 1)
    }

    /// With one render thread and room for one waiting job, a burst of large frames is partly
    /// refused with 503 and Retry-After, never with another 5xx, and the server carries on.
    @Test func overloadIsAnswered503WithRetryAfter() async throws {
        try await TestServer.with(fixtures: true, { $0.renderThreads = 1; $0.renderQueueLimit = 1 }) { server in
            let path = "/frame.png?lat=52.2072&lon=0.1412&zoom=16&width=2000&height=2000"
            let replies = try await withThrowingTaskGroup(of: HTTPReply.self) { group in
                for _ in 0..<30 { group.addTask { try await server.get(path) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let statuses = replies.map(\.status)
            #expect(statuses.allSatisfy { $0 == 200 || $0 == 503 }, "\(statuses)")
            let refused = replies.filter { $0.status == 503 }
            #expect(!refused.isEmpty, "no request was refused: \(statuses)")
            #expect(replies.contains { $0.status == 200 }, "no request was served: \(statuses)")
            for reply in refused {
                #expect(reply.header("Retry-After").flatMap { Int($0) } != nil, "\(reply)")
                try expectJSONError(reply, status: 503, mentions: "busy")
            }
            for reply in replies where reply.status == 200 {
                let image = try reply.image()
                #expect(image.width == 2000 && image.height == 2000)
            }

            #expect(try await server.get("/healthz").status == 200)
            #expect(try await server.get(path).status == 200, "the renderer works again once the burst is over")
        }
    }
}
