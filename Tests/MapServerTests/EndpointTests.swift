import Foundation
import ImageCodec
import MapFrameTestSupport
import MapGeometry
import Testing

/// Every endpoint's good answer, against a server on the demo fixture tiles (offline).
@Suite struct EndpointTests {
    @Test func healthz() async throws {
        try await TestServer.with { server in
            let reply = try await server.get("/healthz")
            #expect(reply.status == 200, "\(reply)")
            #expect(try reply.json()["status"] as? String == "ok")
            #expect(reply.header("Access-Control-Allow-Origin") == "*")
        }
    }

    @Test func baseTileComesFromTheCache() async throws {
        try await TestServer.with(fixtures: true) { server in
            let tile = TileID.containing(Fixtures.cambridge, zoom: 16)
            let reply = try await server.get(Fixtures.tilePath(tile))
            #expect(reply.status == 200, "\(reply)")
            #expect(reply.header("Content-Type") == "image/png")
            #expect(reply.header("Access-Control-Allow-Origin") == "*")
            #expect(reply.header("X-MapFrame-Placeholder") == nil)
            #expect(reply.header("Content-Length") == String(reply.body.count))
            // A fixture tile is exactly what the cache holds: the fixture artist's drawing.
            let image = try reply.image()
            #expect(image.width == 256 && image.height == 256)
            let expected = try PNGCodec.decode(Fixtures.tilePNG(tile))
            #expect(image.allPixels == expected.allPixels)
        }
    }

    @Test func retinaBaseTileIs512Pixels() async throws {
        try await TestServer.with(fixtures: true) { server in
            let tile = TileID.containing(Fixtures.cambridge, zoom: 16)
            let reply = try await server.get(Fixtures.tilePath(tile, retina: true))
            #expect(reply.status == 200, "\(reply)")
            let image = try reply.image()
            #expect(image.width == 512 && image.height == 512)
            #expect(reply.header("ETag")?.hasPrefix("\"") == true)
            #expect(reply.header("X-MapFrame-Placeholder") == nil)
        }
    }

    @Test func tileJSONForAStyle() async throws {
        try await TestServer.with { server in
            let reply = try await server.get("/tiles/osm.json")
            #expect(reply.status == 200, "\(reply)")
            #expect(reply.header("Content-Type") == "application/json")
            #expect(reply.header("Access-Control-Allow-Origin") == "*")
            let document = try reply.json()
            #expect(document["tilejson"] as? String == "3.0.0")
            #expect(document["tiles"] as? [String] == ["http://127.0.0.1:\(server.port)/tiles/osm/{z}/{x}/{y}.png"])
            #expect(document["minzoom"] as? Int == 0)
            #expect(document["maxzoom"] as? Int == 19)
            #expect(document["scheme"] as? String == "xyz")
            #expect((document["attribution"] as? String)?.contains("OpenStreetMap") == true)
            #expect((document["bounds"] as? [Double])?.count == 4)
        }
    }

    @Test(arguments: [
        RoutePayloadFixture.journeyXML(RoutePayloadFixture.cambridgePoints),
        RoutePayloadFixture.journeyXML(RoutePayloadFixture.cambridgePoints, contentType: "text/xml"),
        RoutePayloadFixture.gpx(RoutePayloadFixture.cambridgePoints),
        RoutePayloadFixture.geoJSONFeature(RoutePayloadFixture.cambridgePoints),
        RoutePayloadFixture.geoJSONFeature(RoutePayloadFixture.cambridgePoints, contentType: "application/json; charset=utf-8"),
        RoutePayloadFixture.geoJSONLineString(RoutePayloadFixture.cambridgePoints),
    ])
    func postGetAndDeleteARoute(_ payload: RoutePayloadFixture) async throws {
        let points = RoutePayloadFixture.cambridgePoints
        try await TestServer.with { server in
            let created = try await server.post("/routes", contentType: payload.contentType, body: payload.body)
            #expect(created.status == 201, "\(created)")
            #expect(created.header("Access-Control-Allow-Origin") == "*")
            let document = try created.json()
            let id = try #require(document["id"] as? String)
            #expect(id.range(of: "^[0-9a-f]{16}$", options: .regularExpression) != nil)
            #expect(created.header("Location") == "/routes/\(id)")
            #expect(document["bounds"] as? [Double] == [0.1189, 52.20551, 0.14162, 52.2085])
            #expect(document["start"] as? [String: Double] == ["lat": 52.20557, "lon": 0.14144])
            #expect(document["finish"] as? [String: Double] == ["lat": 52.2085, "lon": 0.1189])
            #expect(document["tilejson"] as? String == "http://127.0.0.1:\(server.port)/routes/\(id)/tiles/osm.json")

            let read = try await server.get("/routes/\(id)")
            #expect(read.status == 200, "\(read)")
            let stored = try read.json()
            #expect(stored["id"] as? String == id)
            #expect(stored["coordinates"] as? [[Double]] == points.map { [$0.longitude, $0.latitude] })

            let listed = try await server.get("/routes")
            #expect(try listed.json()["routes"] as? [String] == ["http://127.0.0.1:\(server.port)/routes/\(id)"])

            let tile = try await server.get(Fixtures.tilePath(TileID.containing(points[0], zoom: 16), route: id))
            #expect(tile.status == 200, "\(tile)")
            // Over a raw socket, which shows any body bytes after the head.
            let deleted = try await HTTP.send("DELETE", "/routes/\(id)", port: server.port)
            #expect(deleted.status == 204, "\(deleted)")
            #expect(deleted.body.isEmpty)
            #expect(deleted.header("Access-Control-Allow-Origin") == "*")
            let gone = try await server.get("/routes/\(id)")
            #expect(gone.status == 404, "\(gone)")
            #expect(gone.errorMessage?.contains(id) == true)
            // Its tiles go with it, although the route and a tile of it were just read.
            let tileOfGone = try await server.get(Fixtures.tilePath(TileID.containing(points[0], zoom: 16), route: id))
            #expect(tileOfGone.status == 404, "\(tileOfGone)")
            let deletedAgain = try await server.delete("/routes/\(id)")
            #expect(deletedAgain.status == 404, "\(deletedAgain)")
        }
    }

    @Test func routeTileJSONAndRouteTiles() async throws {
        try await TestServer.with(fixtures: true) { server in
            let route = try await server.addRoute(.geoJSONFeature(RoutePayloadFixture.cambridgePoints))
            let id = try #require(route["id"] as? String)
            let reply = try await server.get("/routes/\(id)/tiles/osm.json")
            #expect(reply.status == 200, "\(reply)")
            let document = try reply.json()
            #expect(document["tilejson"] as? String == "3.0.0")
            #expect(document["tiles"] as? [String] == ["http://127.0.0.1:\(server.port)/routes/\(id)/tiles/osm/{z}/{x}/{y}.png"])
            #expect(document["bounds"] as? [Double] == [0.1189, 52.20551, 0.14162, 52.2085])
            let center = try #require(document["center"] as? [Double])
            #expect(center.count == 3 && (12...19).contains(center[2]), "\(center)")

            // A tile under the route differs from the plain tile: the line is drawn on it.
            let tile = TileID.containing(RoutePayloadFixture.cambridgePoints[0], zoom: 16)
            let plain = try await server.get(Fixtures.tilePath(tile))
            let withRoute = try await server.get(Fixtures.tilePath(tile, route: id))
            #expect(withRoute.status == 200, "\(withRoute)")
            #expect(withRoute.header("Content-Type") == "image/png")
            #expect(withRoute.header("ETag")?.hasPrefix("\"") == true)
            #expect(withRoute.header("X-MapFrame-Placeholder") == nil)
            let changed = zip(try plain.image().allPixels, try withRoute.image().allPixels).count { $0 != $1 }
            #expect(changed > 100, "only \(changed) pixels differ from the plain tile")
        }
    }

    @Test func frameFromQueryAndFromSceneAreTheSame() async throws {
        try await TestServer.with(fixtures: true) { server in
            let route = try await server.addRoute(.geoJSONFeature(RoutePayloadFixture.cambridgePoints))
            let id = try #require(route["id"] as? String)
            let query = "/frame.png?style=osm&lat=52.2065&lon=0.135&zoom=15&width=400&height=300&scale=1&route=\(id)"
            let fromQuery = try await server.get(query)
            #expect(fromQuery.status == 200, "\(fromQuery)")
            #expect(fromQuery.header("Content-Type") == "image/png")
            #expect(fromQuery.header("Access-Control-Allow-Origin") == "*")
            let image = try fromQuery.image()
            #expect(image.width == 400 && image.height == 300)

            let positions = RoutePayloadFixture.cambridgePoints.map { "[\($0.longitude), \($0.latitude)]" }.joined(separator: ", ")
            let scene = """
                {"size": {"width": 400, "height": 300}, "scale": 1, "style": "osm",
                 "camera": {"center": {"lat": 52.2065, "lon": 0.135}, "zoom": 15},
                 "start": {"lat": 52.20557, "lon": 0.14144}, "finish": {"lat": 52.2085, "lon": 0.1189},
                 "route": {"coordinates": [\(positions)]}}
                """
            let fromScene = try await server.post("/frame", contentType: "application/json", body: Data(scene.utf8))
            #expect(fromScene.status == 200, "\(fromScene)")
            #expect(try fromScene.image().allPixels == image.allPixels)

            let retina = try await server.get("/frame.png?lat=52.2065&lon=0.135&zoom=15&width=200&height=100&scale=2")
            #expect(retina.status == 200, "\(retina)")
            let retinaImage = try retina.image()
            #expect(retinaImage.width == 400 && retinaImage.height == 200)
        }
    }

    @Test func viewerPageAndLeaflet() async throws {
        try await TestServer.with { server in
            let page = try await server.get("/")
            #expect(page.status == 200, "\(page)")
            #expect(page.header("Content-Type")?.hasPrefix("text/html") == true)
            #expect(page.text.contains(#"<script src="/leaflet/leaflet.js"></script>"#))
            #expect(page.text.contains("/leaflet/leaflet.css"))
        }
    }

    static let leafletDirectory = "/usr/share/javascript/leaflet"

    @Test(.enabled(if: FileManager.default.fileExists(atPath: leafletDirectory), "SKIPPED: /usr/share/javascript/leaflet is absent; install Debian's libjs-leaflet"))
    func leafletFilesAndNothingElse() async throws {
        let leafletDirectory = EndpointTests.leafletDirectory
        try await TestServer.with { server in
            let script = try await server.get("/leaflet/leaflet.js")
            #expect(script.status == 200, "\(script)")
            #expect(script.header("Content-Type") == "text/javascript")
            #expect(script.body == FileManager.default.contents(atPath: leafletDirectory + "/leaflet.js"))
            let stylesheet = try await server.get("/leaflet/leaflet.css")
            #expect(stylesheet.status == 200 && stylesheet.header("Content-Type") == "text/css", "\(stylesheet)")

            // Nothing outside Leaflet's directory, however the path is spelt.
            for path in ["/leaflet/../etc/passwd", "/leaflet/../../../../etc/passwd", "/leaflet/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
                         "/leaflet/..%2f..%2f..%2fetc%2fpasswd", "/leaflet/images/../../../../../etc/passwd", "/leaflet//etc/passwd"] {
                let reply = try await server.get(path)
                #expect((400...499).contains(reply.status), "\(path): \(reply)")
                #expect(!reply.text.contains("root:"), "\(path) leaked a file")
                #expect(reply.errorMessage != nil, "\(path): \(reply)")
                #expect(reply.header("Access-Control-Allow-Origin") == "*")
            }
        }
    }
}
