import Foundation
import MapFrameTestSupport
import ImageCodec
import MapGeometry
import MapServer
import Testing
import TileStore
import UpstreamSimulator

/// Base tiles already in memory are answered on the event loop, before the router. These tests
/// keep connections alive, which is the only way such answers are given.
@Suite struct CachedTileFastPathTests {
    let tile = TileID(z: 16, x: 32793, y: 21585)

    /// The headers that must agree between two answers for the same tile (Date moves on).
    func comparable(_ reply: HTTPReply) -> [String: String] {
        var headers: [String: String] = [:]
        for (name, value) in reply.headers where name.lowercased() != "date" { headers[name.lowercased()] = value }
        return headers
    }

    @Test func answersFromMemoryExactlyAsTheRouterDoes() async throws {
        try await TestServer.with(fixtures: true) { server in
            let path = Fixtures.tilePath(tile)
            let first = try await server.get(path)
            #expect(first.status == 200)
            // The first of these is answered from memory; the second asks to close, so the router answers it.
            let replies = try await HTTP.pipelined([path, path], port: server.port)
            #expect(replies.count == 2)
            for reply in replies {
                #expect(reply.status == 200)
                #expect(reply.body == first.body)
                #expect(comparable(reply).filter { $0.key != "connection" } == comparable(first).filter { $0.key != "connection" })
                #expect(reply.header("Date") != nil)
            }
            // The connection's last answer says it closes.
            #expect(replies.last?.header("Connection") == "close")
        }
    }

    @Test func answersNotModifiedAndHeadFromMemory() async throws {
        try await TestServer.with(fixtures: true) { server in
            let path = Fixtures.tilePath(tile)
            let first = try await server.get(path)
            let etag = try #require(first.header("ETag"))
            let conditional = try await HTTP.send("GET", path, port: server.port, headers: [("If-None-Match", etag)])
            #expect(conditional.status == 304)
            let head = try await HTTP.send("HEAD", path, port: server.port)
            #expect(head.status == 200 && head.body.isEmpty)
            #expect(head.header("Content-Length") == String(first.body.count))
        }
    }

    /// HEAD answers carry no body whether memory or the router gives them, so the answers after
    /// them on the same connection stay intact.
    @Test func headAnswersKeepTheConnectionFramed() async throws {
        try await TestServer.with(fixtures: true) { server in
            let path = Fixtures.tilePath(tile)
            let first = try await server.get(path)
            // From memory, the router, the router's 404 for a tile, the 404 for no endpoint at all.
            let replies = try await HTTP.pipelined([
                ("HEAD", path), ("GET", "/healthz"), ("HEAD", "/tiles/nowhere/1/1/1.png"), ("HEAD", "/no/such/page"),
                ("HEAD", "/healthz"), ("GET", path),
            ], port: server.port)
            #expect(replies.map(\.status) == [200, 200, 404, 404, 200, 200])
            guard replies.count == 6 else { return }
            #expect(replies[0].header("Content-Length") == String(first.body.count))
            #expect(replies[1].header("Content-Type") == "application/json")
            #expect(replies[5].body == first.body)
        }
    }

    /// A slow answer from the router must not be overtaken by a quick one from memory.
    @Test func keepsAnswersInRequestOrder() async throws {
        try await TestServer.with(fixtures: true) { server in
            let tilePath = Fixtures.tilePath(tile)
            let tileReply = try await server.get(tilePath)
            let framePath = "/frame.png?lat=52.2072&lon=0.1412&zoom=16&width=1200&height=1200"
            let replies = try await HTTP.pipelined([framePath, tilePath, "/healthz"], port: server.port)
            #expect(replies.count == 3)
            guard replies.count == 3 else { return }
            #expect(replies[0].status == 200 && replies[0].body.count != tileReply.body.count)
            #expect(try replies[0].image().width == 1200)
            #expect(replies[1].body == tileReply.body)
            #expect(replies[2].header("Content-Type") == "application/json")
        }
    }

    /// A tile had from the upstream is answered before the router too, and the requests pipelined
    /// behind it wait for its answer: quick ones from memory, and the router's.
    @Test func keepsAnswersInRequestOrderBehindAFetch() async throws {
        let upstream = try UpstreamSimulator()
        defer { upstream.stop() }
        let gate = DispatchSemaphore(value: 0)
        defer { for _ in 0..<10 { gate.signal() } }
        upstream.setDefaultHandler { path in
            _ = gate.wait(timeout: .now() + 60)
            guard let tile = tileID(atUpstreamPath: path), let png = try? Fixtures.tilePNG(tile) else { return nil }
            return .png(png, headers: [("Cache-Control", "max-age=600")])
        }
        try await TestServer.with(fixtures: true, { configuration in
            configuration.catalog.add(try! Fixtures.style(named: "slow", upstream: upstream.baseURL))
            configuration.fetchPolicy = FetchPolicy(totalTimeout: .seconds(60), fetchDeadline: .seconds(60))
        }) { server in
            let held = Fixtures.tilePath(tile)
            let heldReply = try await server.get(held)
            let fetched = Fixtures.tilePath(tile, style: "slow")
            async let replies = HTTP.pipelined([fetched, held, "/healthz", held], port: server.port)
            try await waitUntil("the upstream is asked for the tile") { !upstream.requests.isEmpty }
            // Everything behind the fetch is in the server by now, and waits.
            try await Task.sleep(for: .milliseconds(300))
            gate.signal()
            let answers = try await replies
            #expect(answers.count == 4)
            guard answers.count == 4 else { return }
            let fetchedBytes = try Fixtures.tilePNG(tile)
            #expect(answers[0].status == 200 && answers[0].body == fetchedBytes, "\(answers[0])")
            #expect(answers[1].body == heldReply.body && answers[3].body == heldReply.body)
            #expect(answers[2].header("Content-Type") == "application/json")
            #expect(upstream.requests.count == 1)
        }
    }
}
