import Foundation
import ImageCodec
import MapFrameTestSupport
import MapGeometry
import MapRender
import Testing

/// `theme=` on the endpoints that draw: whole frames and the route layer's tiles.
@Suite struct ThemeEndpointTests {
    static let frame = "/frame.png?style=osm&lat=52.2065&lon=0.135&zoom=15&width=300&height=200"

    @Test func framesInEachTheme() async throws {
        try await TestServer.with(fixtures: true) { server in
            let app = try await server.get(Self.frame)
            let highContrast = try await server.get(Self.frame + "&theme=high-contrast")
            let categories = try await server.get(Self.frame + "&theme=categories")
            for reply in [app, highContrast, categories] { #expect(reply.status == 200, "\(reply)") }
            #expect(try await server.get(Self.frame + "&theme=cyclestreets").body == app.body)
            #expect(try categories.image().allPixels != app.image().allPixels)
            // The scene's "theme" draws what the parameter draws.
            let scene = #"{"size": {"width": 300, "height": 200}, "camera": {"center": {"lat": 52.2065, "lon": 0.135}, "zoom": 15}, "theme": "categories"}"#
            let posted = try await server.post("/frame", contentType: "application/json", body: Data(scene.utf8))
            #expect(posted.status == 200, "\(posted)")
            #expect(try posted.image().allPixels == categories.image().allPixels)
            #expect(highContrast.header("ETag") != app.header("ETag"))
        }
    }

    @Test func unknownThemesAre400() async throws {
        try await TestServer.with(fixtures: true) { server in
            try expectJSONError(try await server.get(Self.frame + "&theme=dark"), status: 400, mentions: #"theme: "dark" is not allowed; expected one of cyclestreets, high-contrast, categories"#)
            let scene = #"{"camera": {"center": {"lat": 52.2065, "lon": 0.135}, "zoom": 15}, "theme": "dark"}"#
            try expectJSONError(try await server.post("/frame", contentType: "application/json", body: Data(scene.utf8)), status: 400, mentions: "theme")
            let route = try await server.addRoute(.geoJSONFeature(RoutePayloadFixture.cambridgePoints))
            let id = try #require(route["id"] as? String)
            let tile = Fixtures.tilePath(TileID.containing(RoutePayloadFixture.cambridgePoints[0], zoom: 16), route: id)
            try expectJSONError(try await server.get(tile + "?theme=dark"), status: 400, mentions: #"theme: "dark""#)
            try expectJSONError(try await server.get(tile + "?colour=red"), status: 400, mentions: "colour: unknown parameter")
            try expectJSONError(try await server.get("/routes/\(id)/tiles/osm.json?theme=dark"), status: 400, mentions: #"theme: "dark""#)
        }
    }

    @Test func routeTilesInATheme() async throws {
        try await TestServer.with(fixtures: true) { server in
            let route = try await server.addRoute(.geoJSONFeature(RoutePayloadFixture.cambridgePoints))
            let id = try #require(route["id"] as? String)
            let document = try await server.get("/routes/\(id)/tiles/osm.json?theme=high-contrast").json()
            #expect(document["tiles"] as? [String] == ["http://127.0.0.1:\(server.port)/routes/\(id)/tiles/osm/{z}/{x}/{y}.png?theme=high-contrast"])

            let under = Fixtures.tilePath(TileID.containing(RoutePayloadFixture.cambridgePoints[0], zoom: 16), route: id)
            let app = try await server.get(under), highContrast = try await server.get(under + "?theme=high-contrast")
            #expect(app.status == 200 && highContrast.status == 200, "\(highContrast)")
            #expect(try highContrast.image().allPixels != app.image().allPixels)
            // Asked again, each theme's tile is the same, kept apart from the other's.
            #expect(try await server.get(under).body == app.body)
            #expect(try await server.get(under + "?theme=high-contrast").body == highContrast.body)

            // Far from the route, the app's tile is the base tile; the categories theme still
            // redraws it, its basemap reduced to roads and background.
            let far = TileID(z: 16, x: TileID.containing(RoutePayloadFixture.cambridgePoints[0], zoom: 16).x + 3, y: TileID.containing(RoutePayloadFixture.cambridgePoints[0], zoom: 16).y + 3)
            let base = try await server.get(Fixtures.tilePath(far))
            #expect(try await server.get(Fixtures.tilePath(far, route: id)).body == base.body)
            let flat = try await server.get(Fixtures.tilePath(far, route: id) + "?theme=categories")
            #expect(flat.status == 200, "\(flat)")
            let colours = Set(try flat.image().allPixels)
            #expect(colours == [ElementKind.basemap.paletteColour.quantised, ElementKind.roads.paletteColour.quantised])
        }
    }
}
