import Foundation
import MapFrameTestSupport
import MapGeometry
import MapServer
import RouteStore
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Who may write routes, how often, how much, and what happens when the disk cannot take them.
@Suite struct RouteWriteTests {
    static let token = "0123456789abcdef0123456789abcdef"
    static let payload = RoutePayloadFixture.geoJSONLineString(RoutePayloadFixture.cambridgePoints)

    static func post(_ server: TestServer, authorization: String? = nil, payload: RoutePayloadFixture = payload) async throws -> HTTPReply {
        var headers = [("Content-Type", payload.contentType)]
        if let authorization { headers.append(("Authorization", authorization)) }
        return try await server.request("POST", "/routes", headers: headers, body: payload.body)
    }

    static func delete(_ server: TestServer, id: String, authorization: String? = nil) async throws -> HTTPReply {
        try await server.delete("/routes/\(id)", headers: authorization.map { [("Authorization", $0)] } ?? [])
    }

    @Test("with a token, writes without it or with another are 401; with it they work; reads need none")
    func tokenProtectsWrites() async throws {
        try await TestServer.with({ $0.writeToken = Self.token }) { server in
            let anonymous = try await Self.post(server)
            try expectJSONError(anonymous, status: 401, mentions: "Authorization: Bearer")
            #expect(anonymous.header("WWW-Authenticate")?.hasPrefix("Bearer") == true, "\(anonymous)")
            try expectJSONError(try await Self.post(server, authorization: "Bearer wrong-token-wrong-token"), status: 401, mentions: "not the server's")
            try expectJSONError(try await Self.post(server, authorization: Self.token), status: 401, mentions: "not the server's")

            let created = try await Self.post(server, authorization: "Bearer \(Self.token)")
            #expect(created.status == 201, "\(created)")
            let id = try #require(try created.json()["id"] as? String)
            #expect(try await server.get("/routes/\(id)").status == 200)
            #expect(try await server.get("/routes").status == 200)

            try expectJSONError(try await Self.delete(server, id: id), status: 401, mentions: "Authorization")
            #expect(try await server.get("/routes/\(id)").status == 200, "a refused delete must delete nothing")
            #expect(try await Self.delete(server, id: id, authorization: "Bearer \(Self.token)").status == 204)

            let metrics = try await server.get("/metrics")
            #expect(!metrics.text.contains(Self.token))
        }
    }

    @Test("on an address other than loopback with no token, writes are off unless allowed")
    func nonLoopbackWithoutTokenRefusesWrites() async throws {
        try await TestServer.with({ $0.host = "0.0.0.0" }) { server in
            try expectJSONError(try await Self.post(server), status: 403, mentions: "writes are off")
            try expectJSONError(try await Self.delete(server, id: "0123456789abcdef"), status: 403, mentions: "MAPFRAME_WRITE_TOKEN")
            #expect(try await server.get("/routes").status == 200)
        }
        try await TestServer.with({ (configuration: inout MapServerConfiguration) in
            configuration.host = "0.0.0.0"
            configuration.anonymousWritesAllowed = true
        }) { server async throws in
            #expect(try await Self.post(server).status == 201)
        }
    }

    @Test("writes beyond the rate limit get 429 with Retry-After; reads do not count")
    func rateLimit() async throws {
        // One write a minute after the burst: however slow the machine, no token comes back meanwhile.
        try await TestServer.with({ $0.writeRateLimit = WriteRateLimit(perMinute: 1, burst: 3) }) { server in
            for _ in 0..<3 { #expect(try await Self.post(server).status == 201) }
            let refused = try await Self.post(server)
            try expectJSONError(refused, status: 429, mentions: "too many writes")
            let wait = try #require(refused.header("Retry-After").flatMap(Int.init), "\(refused)")
            #expect((1...60).contains(wait), "one write a minute: \(refused)")
            for _ in 0..<10 { #expect(try await server.get("/routes").status == 200) }
            let page = try await server.get("/routes")
            #expect(try page.json()["total"] as? Int == 3, "the refused write stored something: \(page)")
        }
    }

    @Test("past the route or point quota a write gets 507 and stores nothing; a delete makes room")
    func quota() async throws {
        try await TestServer.with({ $0.routeQuota = RouteQuota(maxRoutes: 3, maxPoints: 10) }) { server in
            var ids: [String] = []
            for _ in 0..<2 { ids.append(try #require(try await Self.post(server).json()["id"] as? String)) }
            // 8 points stored; a route of 4 more would make 12.
            try expectJSONError(try await Self.post(server), status: 507, mentions: "limit of 10")
            let two = RoutePayloadFixture.geoJSONLineString(Array(RoutePayloadFixture.cambridgePoints.prefix(2)))
            ids.append(try #require(try await Self.post(server, payload: two).json()["id"] as? String))
            try expectJSONError(try await Self.post(server, payload: two), status: 507, mentions: "3 routes, its limit of 3")
            for id in ids { #expect(try await server.get("/routes/\(id)").status == 200, "route \(id) was lost") }

            #expect(try await Self.delete(server, id: ids[0]).status == 204)
            #expect(try await Self.post(server).status == 201)
        }
    }

    @Test("GET /routes comes in pages, newest first, each route once")
    func paging() async throws {
        try await TestServer.with { server in
            var created: [String] = []
            for _ in 0..<7 { created.append(try #require(try await Self.post(server).json()["id"] as? String)) }
            var listed: [String] = []
            var path: String? = "/routes?limit=3"
            var pages = 0
            while let next = path {
                let reply = try await server.get(next)
                #expect(reply.status == 200, "\(reply)")
                #expect(reply.header("Cache-Control") == "no-cache", "\(reply)")
                let document = try reply.json()
                #expect(document["total"] as? Int == 7)
                let urls = try #require(document["routes"] as? [String])
                listed += urls.map { String($0.split(separator: "/").last!) }
                path = (document["next"] as? String).map { url in String(url[url.range(of: "/routes")!.lowerBound...]) }
                pages += 1
            }
            #expect(pages == 3)
            #expect(listed == created.reversed(), "newest first, each once")

            try expectJSONError(try await server.get("/routes?limit=0"), status: 400, mentions: "limit: '0'")
            try expectJSONError(try await server.get("/routes?limit=5000"), status: 400, mentions: "1...1000")
            try expectJSONError(try await server.get("/routes?after=nonsense"), status: 400, mentions: "after: 'nonsense'")
            try expectJSONError(try await server.get("/routes?page=2"), status: 400, mentions: "page: unknown parameter")
        }
    }

    @Test("deleting routes gives their space back to the file system")
    func deletesReclaimSpace() async throws {
        try await TestServer.with { server in
            // 5 routes of 100,000 points: 1.6 MB each on disk.
            let points = (0..<100_000).map { Coordinate(latitude: 52 + Double($0) * 1e-6, longitude: 0.1 + Double($0 % 7) * 1e-5) }
            let big = RoutePayloadFixture.geoJSONLineString(points)
            var ids: [String] = []
            for _ in 0..<5 { ids.append(try #require(try await Self.post(server, payload: big).json()["id"] as? String)) }
            let full = Self.storeSize(server.cacheDirectory)
            #expect(full > 7_000_000, "\(full) bytes")
            for id in ids { #expect(try await Self.delete(server, id: id).status == 204) }
            let emptied = Self.storeSize(server.cacheDirectory)
            #expect(emptied < 1_000_000, "the store still takes \(emptied) bytes after every route was deleted (\(full) when full)")
        }
    }

    /// routes.sqlite with its write-ahead log.
    static func storeSize(_ directory: String) -> Int {
        ["", "-wal"].reduce(0) { total, suffix in
            total + ((try? FileManager.default.attributesOfItem(atPath: directory + "/routes.sqlite" + suffix)[.size] as? Int) ?? 0)
        }
    }

    @Test("on a full disk a route write answers 503 with Retry-After, and reads go on")
    func fullDisk() async throws {
        let mountPoint = try TemporaryDirectory("disk")
        let disk = try await TinyFilesystem(at: mountPoint.path, size: "1000000")
        defer {
            disk.unmount()
            mountPoint.remove()
        }
        var configuration = TestServer.configuration(cacheDirectory: disk.path)
        configuration.routeQuota = RouteQuota(maxRoutes: 1_000, maxPoints: 100_000_000)
        let server = try await TestServer.start(configuration)
        do {
            try await Self.fillTheDisk(server)
            await server.stop()
        } catch {
            await server.stop()
            throw error
        }
    }

    private static func fillTheDisk(_ server: TestServer) async throws {
        let first = try #require(try await Self.post(server).json()["id"] as? String)
        let points = (0..<20_000).map { Coordinate(latitude: 52 + Double($0) * 1e-6, longitude: 0.1) }
        var refusal: HTTPReply?
        for _ in 0..<10 {
            let reply = try await Self.post(server, payload: .geoJSONLineString(points))
            if reply.status != 201 { refusal = reply; break }
        }
        let refused = try #require(refusal, "a 1 MB disk took ten routes of 320 KB")
        try expectJSONError(refused, status: 503, mentions: "cannot write")
        #expect(refused.header("Retry-After") != nil, "\(refused)")
        #expect(try await server.get("/routes/\(first)").status == 200)
        #expect(try await server.get("/routes").status == 200)
        #expect(try await server.get("/healthz").status == 200)
    }
}
